//! Fuzzes a SELogger output folder: real 0.6 static files of the
//! demo-v060-omnibinary case (dataids.txt cut to its first 300 rows so each
//! run stays fast) beside a fuzzed file whose role (binary stream, text
//! stream, near-omniscient JSON/CSV, eventfreq, a 0.4-dialect dataids.txt,
//! exceptions) is picked by the first byte, fed in odd chunks.
#![no_main]

use flamedrop_core::analysis::report;
use flamedrop_core::input::decode_files_chunked;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/selogger/demo-v060-omnibinary/"
);
const STATICS: [&str; 7] = [
    "dataids.txt",
    "methods.txt",
    "classes.txt",
    "LOG$Types.txt",
    "LOG$ObjectTypes00001.txt",
    "LOG$String00001.txt",
    "LOG$Exceptions00001.txt",
];

fn read(name: &str) -> Vec<u8> {
    let bytes = std::fs::read(format!("{DIR}{name}")).unwrap_or_default();
    if name != "dataids.txt" {
        return bytes;
    }
    let text = String::from_utf8_lossy(&bytes);
    text.lines()
        .take(301)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .into_bytes()
}

fn statics() -> &'static Vec<(String, Vec<u8>)> {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        STATICS
            .iter()
            .map(|name| (name.to_string(), read(name)))
            .collect()
    })
}

/// Real events whose data IDs are in the kept rows.
fn stream() -> &'static Vec<u8> {
    static STREAM: OnceLock<Vec<u8>> = OnceLock::new();
    STREAM.get_or_init(|| {
        std::fs::read(format!("{DIR}log-00001.slg"))
            .unwrap_or_default()
            .chunks_exact(16)
            .filter(|r| i32::from_be_bytes([r[0], r[1], r[2], r[3]]) < 300)
            .take(400)
            .flatten()
            .copied()
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let name = match selector % 8 {
        0 | 1 => "log-00001.slg",
        2 => "log-00001.txt",
        3 => "trace.json",
        4 => "recentdata.txt",
        5 => "eventfreq.txt",
        6 => "dataids.txt",
        _ => "LOG$Exceptions00001.txt",
    };
    let mut files: Vec<(String, Vec<u8>)> = statics()
        .iter()
        .filter(|(n, _)| n != name)
        .map(|(n, d)| (format!("out/{n}"), d.clone()))
        .collect();
    files.push((format!("out/{name}"), body.to_vec()));
    if selector % 8 >= 6 {
        // A real stream so the fuzzed static file is used.
        files.push(("out/log-00001.slg".into(), stream().clone()));
    }
    let chunk = 1 + (selector as usize >> 3) * 13;
    if let Ok(trace) = decode_files_chunked(&files, chunk) {
        assert_eq!(trace.check(), Vec::<String>::new(), "a broken trace");
        let _ = report(&trace);
    }
});
