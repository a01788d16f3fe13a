//! Fuzzes a SELogger output folder: the real 0.6 static files of the
//! demo-v060-omnibinary case beside a fuzzed file whose role (binary stream,
//! text stream, near-omniscient JSON/CSV, eventfreq, dataids.txt of the 0.4
//! dialect, exceptions) is picked by the first byte, fed in odd chunks.
#![no_main]

use flamedrop_core::analysis::report;
use flamedrop_core::input::decode_files_chunked;
use libfuzzer_sys::fuzz_target;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/selogger/demo-v060-omnibinary/");

fn statics(skip: &str) -> Vec<(String, Vec<u8>)> {
    ["dataids.txt", "methods.txt", "classes.txt", "LOG$Types.txt", "LOG$ObjectTypes00001.txt", "LOG$String00001.txt", "LOG$Exceptions00001.txt"]
        .iter()
        .filter(|name| **name != skip)
        .filter_map(|name| Some((format!("out/{name}"), std::fs::read(format!("{DIR}{name}")).ok()?)))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else { return };
    let name = match selector % 8 {
        0 | 1 => "log-00001.slg",
        2 => "log-00001.txt",
        3 => "trace.json",
        4 => "recentdata.txt",
        5 => "eventfreq.txt",
        6 => "dataids.txt",
        _ => "LOG$Exceptions00001.txt",
    };
    let mut files = statics(name);
    files.push((format!("out/{name}"), body.to_vec()));
    if selector % 8 >= 6 {
        // A real stream so the fuzzed static file is used.
        if let Ok(stream) = std::fs::read(format!("{DIR}log-00001.slg")) {
            files.push(("out/log-00001.slg".into(), stream[..stream.len().min(16 * 400)].to_vec()));
        }
    }
    let chunk = 1 + (selector as usize >> 3) * 13;
    if let Ok(trace) = decode_files_chunked(&files, chunk) {
        let _ = report(&trace);
    }
});
