//! Fuzzes the Scaler decoder: the input is a tree file (behind a valid root
//! record, so detection passes, unless the mode byte says raw), decoded with
//! the real JSON files of `tests/fixtures/scaler/b-nested-callbacks-sync`, or
//! with fuzzed JSON as `symbol.json` (V1) or `symbol_0x1.json` (V2), in odd
//! chunk sizes.
#![no_main]

use flamedrop_core::analysis::report;
use flamedrop_core::input::decode_files_chunked;
use libfuzzer_sys::fuzz_target;

const SYMBOLS: &[u8] =
    include_bytes!("../../tests/fixtures/scaler/b-nested-callbacks-sync/symbol.json");
const COMMON: &[u8] =
    include_bytes!("../../tests/fixtures/scaler/b-nested-callbacks-sync/commonFuncId.json");

/// A root record: type 1, four -1 fields, first child 1, `children` children.
fn root(children: i64) -> Vec<u8> {
    let mut out = vec![1u8];
    for field in [-1i64, -1, -1, -1, 1, children] {
        out.extend_from_slice(&field.to_le_bytes());
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    // Bytes 1-2: length of a fuzzed JSON part taken from the front.
    let json_len = match rest {
        [a, b, ..] if mode & 4 != 0 => {
            usize::from(u16::from_le_bytes([*a, *b])).min(rest.len() - 2)
        }
        _ => 0,
    };
    let (json, tree) = if json_len > 0 {
        rest[2..].split_at(json_len)
    } else {
        (&[][..], rest)
    };
    let mut tree_bytes = if mode & 1 == 0 {
        root(i64::from(mode >> 4))
    } else {
        Vec::new()
    };
    tree_bytes.extend_from_slice(tree);
    let mut files = vec![("out/thread_0x1.bin".to_string(), tree_bytes)];
    match (json_len > 0, mode & 2 != 0) {
        (false, _) => {
            files.push(("out/symbol.json".into(), SYMBOLS.to_vec()));
            files.push(("out/commonFuncId.json".into(), COMMON.to_vec()));
        }
        (true, false) => files.push(("out/symbol.json".into(), json.to_vec())),
        (true, true) => files.push(("out/symbol_0x1.json".into(), json.to_vec())),
    }
    let chunk = usize::from(mode >> 3).max(1) * 7;
    if let Ok(trace) = decode_files_chunked(&files, chunk) {
        assert_eq!(trace.check(), Vec::<String>::new(), "a broken trace");
        let _ = report(&trace);
        let _ = flamedrop_core::model::codec::encode(&trace);
    }
});
