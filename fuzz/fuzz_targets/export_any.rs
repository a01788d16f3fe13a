//! Fuzzes everything after decoding: report, the three exports and the codec
//! round trip, on traces decoded from a fuzzed uftrace task file.
#![no_main]

use flamedrop_core::analysis::report;
use flamedrop_core::decode_files;
use flamedrop_core::export::{chrome, collapsed, speedscope};
use flamedrop_core::model::codec;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/uftrace/c-pthreads-mutex/uftrace.data/"
);

fn metadata() -> &'static [(String, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(DIR)
            .map(|dir| dir.flatten().map(|e| e.path()).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|p| !p.extension().is_some_and(|e| e == "dat"))
            .filter_map(|p| {
                Some((
                    format!("uftrace.data/{}", p.file_name()?.to_str()?),
                    std::fs::read(&p).ok()?,
                ))
            })
            .collect();
        files.sort();
        files
    })
}

fuzz_target!(|data: &[u8]| {
    let mut files = metadata().to_vec();
    files.push(("uftrace.data/21710.dat".into(), data.to_vec()));
    if let Ok(trace) = decode_files(&files) {
        assert_eq!(trace.check(), Vec::<String>::new(), "a broken trace");
        let _ = report(&trace);
        let _ = chrome::to_chrome_json(&trace);
        let _ = speedscope::to_speedscope_json(&trace);
        let _ = collapsed::to_collapsed(&trace);
        let _ = codec::decode(&codec::encode(&trace));
    }
});
