//! `report` and `convert` read a `.flamedrop` analysis file as the trace it
//! was saved from: a file of each format's fixture gives the very output
//! of the fixture itself.

mod common;

use common::{fixture, flamedrop};
use flamedrop_core::saved::{self, Header};
use std::path::{Path, PathBuf};

/// One input per format, as the command line names it.
const INPUTS: [&str; 5] = [
    "uftrace/c-pthreads-mutex/uftrace.data",
    "rtrace/c-leaks",
    "scaler/a-prodcons-mutex-cond-sem",
    "selogger/demo-v060-omni-text",
    "swap/demo.swap",
];

/// Every file of `path` as the CLI names them (relative to the folder's
/// parent), or the one file.
fn files_of(path: &Path) -> Vec<(String, Vec<u8>)> {
    let base = path.parent().expect("parent");
    let mut out = Vec::new();
    let mut todo = vec![path.to_path_buf()];
    while let Some(p) = todo.pop() {
        if p.is_dir() {
            todo.extend(
                std::fs::read_dir(&p)
                    .expect("folder")
                    .map(|e| e.expect("entry").path()),
            );
        } else {
            let name = p
                .strip_prefix(base)
                .expect("below")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((name, std::fs::read(&p).expect("file")));
        }
    }
    out.sort();
    out
}

/// Saves the trace at `input` as a `.flamedrop` file in the temp folder.
fn save(input: &str) -> PathBuf {
    let trace =
        flamedrop_core::decode_files(&files_of(Path::new(&fixture(input)))).expect("decodes");
    let header = Header {
        label: input.to_owned(),
        fragment: "view=calltree".to_owned(),
        ..Header::default()
    };
    let name = format!(
        "flamedrop-cli-saved-{}-{}.flamedrop",
        std::process::id(),
        input.replace('/', "_")
    );
    let path = std::env::temp_dir().join(name);
    std::fs::write(&path, saved::encode(&trace, &header)).expect("write");
    path
}

#[test]
fn report_and_convert_of_a_saved_file_equal_those_of_its_trace() {
    for input in INPUTS {
        let file = save(input);
        let file_arg = file.to_string_lossy().into_owned();
        let trace_arg = fixture(input);
        for args in [
            vec!["report", "--json"],
            vec!["report"],
            vec!["convert", "--to", "chrome"],
            vec!["convert", "--to", "collapsed"],
        ] {
            let of = |path: &str| {
                let mut all = args.clone();
                all.push(path);
                flamedrop(&all)
            };
            let (from_trace, from_file) = (of(&trace_arg), of(&file_arg));
            assert_eq!(
                from_trace.code, 0,
                "{input} {args:?}: {}",
                from_trace.stderr
            );
            assert_eq!(from_file.code, 0, "{input} {args:?}: {}", from_file.stderr);
            assert!(!from_trace.stdout.is_empty(), "{input} {args:?}");
            assert!(
                from_file.stdout == from_trace.stdout,
                "{input} {args:?}: outputs differ"
            );
        }
        std::fs::remove_file(&file).ok();
    }
}

#[test]
fn a_damaged_file_is_named_with_what_is_wrong() {
    let file = save("uftrace/a-simple-nested/uftrace.data");
    let bytes = std::fs::read(&file).expect("read");
    let cut = file.with_extension("cut.flamedrop");
    std::fs::write(&cut, &bytes[..bytes.len() - 7]).expect("write");
    let run = flamedrop(&["report", "--json", &cut.to_string_lossy()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(&format!(
            "the flamedrop file is truncated at byte {} (while reading the model)",
            bytes.len() - 7
        )),
        "{}",
        run.stderr
    );
    let mut newer = bytes.clone();
    newer[12..14].copy_from_slice(&9u16.to_le_bytes());
    std::fs::write(&cut, &newer).expect("write");
    let run = flamedrop(&["report", &cut.to_string_lossy()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("made by a newer flamedrop (version 9); this one reads up to 1"),
        "{}",
        run.stderr
    );
    std::fs::remove_file(&file).ok();
    std::fs::remove_file(&cut).ok();
}
