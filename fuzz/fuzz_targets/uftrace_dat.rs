//! Fuzzes one `<tid>.dat` beside a real recording's metadata (the
//! f-args-explicit case, so argument specs are in play), fed in odd chunks.
//! The metadata is read from disk once, not on every run.
#![no_main]

use flamedrop_core::analysis::report;
use flamedrop_core::input::decode_files_chunked;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/uftrace/f-args-explicit/uftrace.data/"
);

fn metadata() -> &'static [(String, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        [
            "info",
            "task.txt",
            "sid-4a4e5cb25c1fecf2.map",
            "f_args.sym",
            "libc.so.6.sym",
        ]
        .iter()
        .filter_map(|name| {
            Some((
                format!("uftrace.data/{name}"),
                std::fs::read(format!("{DIR}{name}")).ok()?,
            ))
        })
        .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let mut files = metadata().to_vec();
    files.push(("uftrace.data/23447.dat".into(), data.to_vec()));
    let chunk = 1 + data.first().copied().unwrap_or(0) as usize * 7;
    if let Ok(trace) = decode_files_chunked(&files, chunk) {
        assert_eq!(trace.check(), Vec::<String>::new(), "a broken trace");
        let _ = report(&trace);
    }
});
