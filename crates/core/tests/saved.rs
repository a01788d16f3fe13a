//! A `.flamedrop` file of every fixture input gives back the trace it was
//! made of: the same model, byte for byte in the codec's encoding, and so
//! the same `report --json`.

mod common;

use common::{fixtures, read_folder};
use flamedrop_core::analysis::report::report;
use flamedrop_core::model::codec;
use flamedrop_core::saved::{self, Header, SavedError};
use flamedrop_core::{decode_files, Format};
use std::collections::BTreeSet;
use std::path::Path;

/// A trace's files: (name, bytes).
type Files = Vec<(String, Vec<u8>)>;

/// Every decodable input under `tests/fixtures/`: a case's `uftrace.data`,
/// a case folder, or a single trace file (notes, sources, references and
/// archives left aside: the archives hold the uftrace cases).
fn inputs() -> Vec<(String, Files)> {
    let mut out = Vec::new();
    let groups = [
        "uftrace",
        "uftrace-extra",
        "rtrace",
        "scaler",
        "selogger",
        "swap",
    ];
    for group in groups {
        let mut entries: Vec<_> = std::fs::read_dir(fixtures().join(group))
            .expect("fixture group")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            let name = entry
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            if ["reference", "elf", "no-cpu-count"].contains(&name.as_str()) {
                continue;
            }
            let data = entry.join("uftrace.data");
            let files = if data.is_dir() {
                read_folder(&data)
            } else if entry.is_dir() {
                read_folder(&entry)
            } else if name.ends_with(".swap") {
                vec![(name.clone(), std::fs::read(&entry).expect("trace"))]
            } else {
                continue;
            };
            out.push((format!("{group}/{name}"), files));
        }
    }
    out
}

fn header(label: &str) -> Header {
    Header {
        made_by: "flamedrop test".into(),
        label: label.into(),
        fragment: "view=flamegraph".into(),
        ..Header::default()
    }
}

#[test]
fn every_fixture_reopens_to_the_same_model_and_report() {
    let mut formats = BTreeSet::new();
    let mut cases = 0;
    for (label, files) in inputs() {
        let Ok(trace) = decode_files(&files) else {
            continue;
        };
        let bytes = saved::encode(&trace, &header(&label));
        let back = saved::decode(&bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(back.header, header(&label), "{label}");
        assert!(
            codec::encode(&back.trace) == codec::encode(&trace),
            "{label}: the model changed"
        );
        let json = |t| serde_json::to_string(&report(t)).expect("json");
        assert_eq!(json(&back.trace), json(&trace), "{label}");
        formats.extend(trace.format.map(Format::name));
        cases += 1;
    }
    assert!(cases > 40, "only {cases} fixtures found");
    // The example format of ARCHITECTURE.md exists only in tests.
    let every: BTreeSet<&str> = Format::ALL
        .iter()
        .map(|f| f.name())
        .filter(|&name| name != "example")
        .collect();
    assert_eq!(formats, every, "a fixture of every format");
}

#[test]
fn a_saved_trace_is_much_smaller_than_its_model() {
    let dir = fixtures().join("uftrace/c-pthreads-mutex/uftrace.data");
    let trace = decode_files(&read_folder(&dir)).expect("decodes");
    let model = codec::encode(&trace).len();
    let file = saved::encode(&trace, &header("c")).len();
    assert!(
        file * 2 < model,
        "{file} bytes saved of a {model}-byte model"
    );
}

#[test]
fn a_file_from_a_newer_flamedrop_names_both_versions() {
    let trace = decode_files(&read_folder(Path::new(
        &fixtures().join("uftrace/a-simple-nested/uftrace.data"),
    )))
    .expect("decodes");
    let mut bytes = saved::encode(&trace, &header("a"));
    let next = saved::VERSION + 1;
    bytes[saved::MAGIC.len()..saved::MAGIC.len() + 2].copy_from_slice(&next.to_le_bytes());
    let message = saved::decode(&bytes).expect_err("newer").to_string();
    assert_eq!(
        message,
        format!(
            "the flamedrop file was made by a newer flamedrop (version {next}); \
             this one reads up to {}",
            saved::VERSION
        )
    );
    let cut = bytes.len() - 10;
    bytes[saved::MAGIC.len()..saved::MAGIC.len() + 2].copy_from_slice(&1u16.to_le_bytes());
    assert!(matches!(
        saved::decode(&bytes[..cut]),
        Err(SavedError::Truncated { at, reading: "the model" }) if at == cut as u64
    ));
}
