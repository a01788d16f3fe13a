//! `convert --to perfetto` and `--to pprof` through the built binary: binary
//! output to a file or stdout, the narrowing options applied, and the pprof
//! profile's totals equal to `report --json`'s under the same options.

mod common;

use common::{fixture, flamedrop, pthreads};
use flamedrop_core::export::pprof::proto::Profile;
use prost::Message;
use std::io::Read;
use std::process::Command;

/// Runs `flamedrop ARGS` and returns its stdout as bytes.
fn flamedrop_bytes(args: &[&str]) -> Vec<u8> {
    let output = Command::new(env!("CARGO_BIN_EXE_flamedrop"))
        .args(args)
        .output()
        .expect("the flamedrop binary runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn profile(gz: &[u8]) -> Profile {
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut bytes)
        .expect("gzip");
    Profile::decode(&bytes[..]).expect("profile.proto")
}

/// The sum of one sample-type column.
fn column_sum(p: &Profile, name: &str) -> i64 {
    let column = p
        .sample_type
        .iter()
        .position(|t| p.string_table[t.r#type as usize] == name)
        .unwrap_or_else(|| panic!("no {name} column"));
    p.sample.iter().map(|s| s.value[column]).sum()
}

/// `report --json`'s self time and calls, summed over its functions.
fn report_sums(args: &[&str]) -> (i64, i64) {
    let run = flamedrop(args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let functions = json["functions"].as_array().expect("functions");
    let sum = |key: &str| functions.iter().map(|f| f[key].as_i64().expect(key)).sum();
    (sum("self"), sum("calls"))
}

#[test]
fn pprof_totals_equal_report_json_whole_and_narrowed() {
    let path = pthreads();
    for narrowing in [&[][..], &["-F", "worker"][..], &["-D", "2"][..]] {
        let convert: Vec<&str> = ["convert", path.as_str(), "--to", "pprof"]
            .into_iter()
            .chain(narrowing.iter().copied())
            .collect();
        let p = profile(&flamedrop_bytes(&convert));
        let report: Vec<&str> = ["report", path.as_str(), "--json"]
            .into_iter()
            .chain(narrowing.iter().copied())
            .collect();
        let (self_time, calls) = report_sums(&report);
        assert_eq!(column_sum(&p, "time"), self_time, "{narrowing:?}");
        assert_eq!(column_sum(&p, "calls"), calls, "{narrowing:?}");
    }
}

#[test]
fn pprof_of_an_rtrace_has_the_allocation_totals() {
    let path = fixture("rtrace/c-leaks");
    let p = profile(&flamedrop_bytes(&["convert", &path, "--to", "pprof"]));
    let run = flamedrop(&["report", &path, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let totals = &json["allocations"];
    assert_eq!(
        column_sum(&p, "alloc_objects"),
        totals["allocs"].as_i64().expect("allocs")
    );
    assert_eq!(
        column_sum(&p, "alloc_space"),
        totals["alloc_bytes"].as_i64().expect("bytes")
    );
    assert_eq!(
        column_sum(&p, "inuse_space"),
        totals["live_bytes"].as_i64().expect("live")
    );
}

/// Perfetto's file is a `Trace` message: a run of field-1 packets, to a file
/// with `-o` as to stdout, and smaller under `-F`.
#[test]
fn perfetto_goes_to_a_file_or_stdout_and_narrows() {
    let path = pthreads();
    let out =
        std::env::temp_dir().join(format!("flamedrop-perfetto-{}.pftrace", std::process::id()));
    let out_text = out.to_string_lossy().into_owned();
    let run = flamedrop(&["convert", &path, "--to", "perfetto", "-o", &out_text]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written = std::fs::read(&out).expect("the -o file");
    let _ = std::fs::remove_file(&out);
    let stdout = flamedrop_bytes(&["convert", &path, "--to", "perfetto"]);
    assert_eq!(written, stdout);
    assert_eq!(
        written.first(),
        Some(&0x0a),
        "Trace.packet, length-delimited"
    );
    let narrowed = flamedrop_bytes(&["convert", &path, "--to", "perfetto", "-F", "worker"]);
    assert!(!narrowed.is_empty() && narrowed.len() < written.len());
}
