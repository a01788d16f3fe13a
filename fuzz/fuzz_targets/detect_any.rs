//! Fuzzes format detection and decoding of a single file of any name.
#![no_main]

use flamedrop_core::decode_files;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let name = match data.first().copied().unwrap_or(0) % 6 {
        0 => "info",
        1 => "123.dat",
        2 => "task.txt",
        3 => "trace.tar",
        4 => "0.dat.gz",
        _ => "unknown",
    };
    if let Ok(trace) = decode_files(&[(name.to_string(), data.to_vec())]) {
        assert_eq!(trace.check(), Vec::<String>::new(), "a broken trace");
    }
});
