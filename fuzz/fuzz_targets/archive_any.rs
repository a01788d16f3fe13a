//! Fuzzes archive expansion (zip, tar, tar.gz, gzip) under small limits, then
//! detection and decoding of whatever came out.
#![no_main]

use flamedrop_core::archive::{expand_in_memory, Limits};
use flamedrop_core::decode_files;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let name = match data.first().copied().unwrap_or(0) % 4 {
        0 => "trace.zip",
        1 => "trace.tar",
        2 => "trace.tar.gz",
        _ => "info.gz",
    };
    let limits = Limits {
        max_total_bytes: 8 << 20,
        max_entries: 256,
    };
    if let Ok((files, _)) = expand_in_memory(vec![(name.to_owned(), data.to_vec())], &limits) {
        if let Ok(trace) = decode_files(&files) {
            assert_eq!(trace.check(), Vec::<String>::new(), "a broken trace");
        }
    }
});
