//! Fuzzes the sp-rtrace decoder: the input is a trace file fed in odd chunks;
//! an input that starts like an ELF file is instead dropped as `leaks` beside
//! the real c-leaks trace, so the symbol-table reader is fuzzed too.
#![no_main]

use flamedrop_core::analysis::report;
use flamedrop_core::input::decode_files_chunked;
use libfuzzer_sys::fuzz_target;

const TRACE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/rtrace/c-leaks/20315-0.rtrace"
);

fuzz_target!(|data: &[u8]| {
    let files = if data.starts_with(b"\x7fELF") {
        let trace = std::fs::read(TRACE).unwrap_or_default();
        vec![
            ("20315-0.rtrace".to_string(), trace),
            ("leaks".to_string(), data.to_vec()),
        ]
    } else {
        vec![("1-0.rtrace".to_string(), data.to_vec())]
    };
    let chunk = 1 + data.get(20).copied().unwrap_or(0) as usize * 5;
    if let Ok(trace) = decode_files_chunked(&files, chunk) {
        assert_eq!(trace.check(), Vec::<String>::new(), "a broken trace");
        let _ = report(&trace);
        let _ = flamedrop_core::model::codec::encode(&trace);
    }
});
