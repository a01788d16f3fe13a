//! Fuzzes a SWAP stream (with a `swap.cpus` beside it when the first byte is
//! odd), fed in odd chunks, then the report over the result.
#![no_main]

use flamedrop_core::analysis::report;
use flamedrop_core::input::decode_files_chunked;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut files = vec![("capture.swap".to_string(), data.to_vec())];
    if data.first().is_some_and(|b| b & 1 == 1) {
        files.push(("swap.cpus".to_string(), b"2 5\n".to_vec()));
    }
    let chunk = 1 + data.get(1).copied().unwrap_or(0) as usize * 13;
    if let Ok(trace) = decode_files_chunked(&files, chunk) {
        assert_eq!(trace.check(), Vec::<String>::new(), "a broken trace");
        let _ = report(&trace);
    }
});
