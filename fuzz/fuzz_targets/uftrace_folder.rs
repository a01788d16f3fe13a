//! Fuzzes a whole uftrace folder: the input is split into info, task.txt, a
//! map, a symbol file, a perf file and a task file.
#![no_main]

use flamedrop_core::analysis::report;
use flamedrop_core::decode_files;
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 6] = [
    "info",
    "task.txt",
    "sid-0000000000000001.map",
    "prog.sym",
    "perf-cpu0.dat",
    "1.dat",
];

fuzz_target!(|data: &[u8]| {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, part) in NAMES.iter().zip(data.split(|&b| b == 0xff)) {
        let mut bytes = part.to_vec();
        if *name == "info" {
            let mut with_magic = b"Ftrace!\0".to_vec();
            with_magic.append(&mut bytes);
            bytes = with_magic;
        }
        files.push((format!("uftrace.data/{name}"), bytes));
    }
    if let Ok(trace) = decode_files(&files) {
        assert_eq!(trace.check(), Vec::<String>::new(), "a broken trace");
        let _ = report(&trace);
    }
});
