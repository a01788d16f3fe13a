//! The hostile input suite, generic over formats: every fixture under
//! `tests/fixtures/<group>/` (a case folder, or a loose file such as an
//! archive) is truncated, bit-flipped and given absurd header values; files of
//! the wrong kind, empty files and archives, a 100 000-deep call stack and
//! names carrying markup, right-to-left text and emoji are fed in too.
//!
//! Each must end in a clear error or a trace with diagnostics — never a panic,
//! a hang or an allocation that takes the process down. New formats' fixtures
//! are picked up without changing this file.
//!
//! Work is bounded. By default the first case of each fixture group (the
//! "small fixture") gets the thorough treatment — every file up to 1 KiB cut
//! at every offset, every header word set to absurd values — and every other
//! case a fixed sample of cuts, flips and values. `FLAMEDROP_HOSTILE=full`
//! gives every case the thorough treatment (minutes, not seconds).

mod common;

use common::{fixtures, Rng};
use flamedrop_core::analysis::report;
use flamedrop_core::export::{chrome, collapsed, speedscope};
use flamedrop_core::model::codec;
use flamedrop_core::{decode_files, LoadError, Trace};
use std::path::Path;
use std::time::{Duration, Instant};

/// Files up to this size are cut at every offset.
const EVERY_OFFSET_UP_TO: usize = 1024;
/// Cuts of a bigger file (evenly spread, plus the first and last 8 bytes).
const CUTS_OF_BIG_FILES: usize = 24;
/// Cuts of each file of a case that is not thorough.
const SAMPLED_CUTS: usize = 4;
/// No single decode may take longer than this (a hang shows up as a failure).
const SLOW: Duration = Duration::from_secs(10);

type Files = Vec<(String, Vec<u8>)>;

/// Every file below `dir` except the original tool's reference output and
/// the fixture's own documentation, as (path relative to `dir`, bytes).
fn input_files(dir: &Path, base: &Path, out: &mut Files) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "reference" {
                input_files(&path, base, out);
            }
        } else if !name.ends_with(".md") {
            let rel = path.strip_prefix(base).unwrap_or(&path);
            let data = std::fs::read(&path).expect("fixture file");
            out.push((rel.to_string_lossy().replace('\\', "/"), data));
        }
    }
}

/// A fixture input: its name, its files, and whether it gets the thorough
/// treatment.
struct Case {
    name: String,
    files: Files,
    thorough: bool,
}

fn full() -> bool {
    std::env::var("FLAMEDROP_HOSTILE").is_ok_and(|v| v == "full")
}

/// Every fixture input that decodes cleanly.
fn all_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut groups: Vec<_> = std::fs::read_dir(fixtures())
        .expect("tests/fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    groups.sort();
    for group in groups {
        let mut entries: Vec<_> = std::fs::read_dir(&group)
            .expect("group")
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        let mut first = true;
        for entry in entries {
            let name = entry
                .strip_prefix(fixtures())
                .unwrap_or(&entry)
                .to_string_lossy()
                .into_owned();
            let mut files = Vec::new();
            if entry.is_dir() {
                input_files(&entry, &entry, &mut files);
            } else if !name.ends_with(".md") {
                let data = std::fs::read(&entry).expect("fixture file");
                let file = entry.file_name().unwrap_or_default().to_string_lossy();
                files.push((file.into_owned(), data));
            }
            files.sort();
            if !files.is_empty() && decode_files(&files).is_ok() {
                cases.push(Case {
                    name,
                    files,
                    thorough: std::mem::take(&mut first) || full(),
                });
            }
        }
    }
    assert!(
        cases.len() >= 10,
        "expected the fixtures to hold at least 10 decodable inputs, found {}",
        cases.len()
    );
    cases
}

/// Decodes, then runs everything downstream of decoding on the result.
fn survive(what: &str, files: &[(String, Vec<u8>)]) -> Result<Trace, LoadError> {
    let started = Instant::now();
    let result = decode_files(files);
    if let Ok(trace) = &result {
        assert_eq!(
            trace.check(),
            Vec::<String>::new(),
            "{what}: a broken trace"
        );
        let r = report(trace);
        assert!(
            r.diagnostics.iter().all(|d| !d.message.is_empty()),
            "{what}: a diagnostic without a message"
        );
        let encoded = codec::encode(trace);
        assert!(
            codec::decode(&encoded).is_some(),
            "{what}: the trace does not survive the codec"
        );
    }
    if let Err(e) = &result {
        assert!(!e.to_string().is_empty(), "{what}: an empty error message");
    }
    assert!(
        started.elapsed() < SLOW,
        "{what}: took {:?}, a hang in the making",
        started.elapsed()
    );
    result
}

/// Offsets to cut a file of `len` bytes at.
fn cuts(len: usize, thorough: bool) -> Vec<usize> {
    if thorough && len <= EVERY_OFFSET_UP_TO {
        return (0..len).collect();
    }
    let (spread, ends) = if thorough {
        (CUTS_OF_BIG_FILES, 8)
    } else {
        (SAMPLED_CUTS, 2)
    };
    let mut at: Vec<usize> = (0..spread).map(|i| i * len / spread).collect();
    at.extend(len.saturating_sub(ends)..len);
    at.extend(1..ends.min(len));
    at.sort_unstable();
    at.dedup();
    at
}

#[test]
fn truncated_at_every_offset_of_small_files_and_many_of_big_ones() {
    for Case {
        name: case,
        files,
        thorough,
    } in all_cases()
    {
        for index in 0..files.len() {
            for cut in cuts(files[index].1.len(), thorough) {
                let mut damaged = files.clone();
                damaged[index].1.truncate(cut);
                let what = format!("{case}: {} cut at {cut}", files[index].0);
                // A cut file may leave nothing recognisable: then an error is right.
                let _ = survive(&what, &damaged);
            }
        }
    }
}

#[test]
fn random_bit_flips() {
    let mut rng = Rng(0xb17f_11b5);
    for Case {
        name: case,
        files,
        thorough,
    } in all_cases()
    {
        let rounds = if thorough { 8 } else { 2 };
        for index in 0..files.len() {
            if files[index].1.is_empty() {
                continue;
            }
            for round in 0..rounds {
                let mut damaged = files.clone();
                let data = &mut damaged[index].1;
                for _ in 0..1 + rng.below(8) {
                    let at = rng.below(data.len());
                    data[at] ^= 1 << rng.below(8);
                }
                let what = format!("{case}: {} flip round {round}", files[index].0);
                let _ = survive(&what, &damaged);
            }
        }
    }
}

#[test]
fn absurd_numbers_in_headers() {
    // Counts, sizes and offsets near the start of every file set to values
    // that would make a trusting reader allocate or loop without end.
    let absurd: [&[u8]; 4] = [
        &[0xff; 4],
        &[0xff, 0xff, 0xff, 0x7f],
        &[0xff; 8],
        &[0, 0, 0, 0x80],
    ];
    for Case {
        name: case,
        files,
        thorough,
    } in all_cases()
    {
        let (span, values) = if thorough {
            (128, &absurd[..])
        } else {
            (16, &absurd[..1])
        };
        for index in 0..files.len() {
            let len = files[index].1.len();
            for at in (0..len.min(span)).step_by(4) {
                for &value in values {
                    let mut damaged = files.clone();
                    let data = &mut damaged[index].1;
                    let end = (at + value.len()).min(data.len());
                    data[at..end].copy_from_slice(&value[..end - at]);
                    let what = format!("{case}: {} with {value:02x?} at {at}", files[index].0);
                    let _ = survive(&what, &damaged);
                }
            }
        }
    }
}

#[test]
fn files_of_the_wrong_kind_get_a_clear_message() {
    let png =
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89".to_vec();
    let empty_zip = b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0".to_vec();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("photo.png", png, "photo.png"),
        ("empty", Vec::new(), "empty"),
        ("0.dat", Vec::new(), "0.dat"),
        (
            "notes.txt",
            b"hello, this is not a trace\n".to_vec(),
            "notes.txt",
        ),
        ("data.json", b"{\"traceEvents\": []}".to_vec(), "data.json"),
        ("empty.zip", empty_zip, "holds no files"),
        ("empty.tar", vec![0; 1024], "holds no files"),
        ("empty.gz", Vec::new(), "empty.gz"),
        (
            "random.bin",
            (0..4096u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
                .collect(),
            "random.bin",
        ),
    ];
    for (name, data, says) in cases {
        let err = survive(name, &[(name.to_owned(), data)]).expect_err(name);
        let text = err.to_string();
        assert!(
            text.contains(says),
            "{name}: the message does not say {says:?}: {text}"
        );
    }
}

/// The a-simple-nested recording with its task file replaced.
fn uftrace_with_task_data(dat: Vec<u8>) -> Files {
    let dir = fixtures().join("uftrace/a-simple-nested/uftrace.data");
    let mut files = Vec::new();
    input_files(&dir, &dir, &mut files);
    for (path, data) in &mut files {
        if path == "17763.dat" {
            *data = dat.clone();
        }
    }
    files
}

/// A uftrace record: time, then type | more | magic | depth | address.
fn record(time: u64, exit: bool, depth: u64, addr: u64) -> [u8; 16] {
    let word = u64::from(exit) | (5 << 3) | ((depth.min(1023)) << 6) | (addr << 16);
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&time.to_le_bytes());
    out[8..].copy_from_slice(&word.to_le_bytes());
    out
}

#[test]
fn a_call_stack_100_000_deep_decodes_and_exports_without_recursion() {
    let original = std::fs::read(fixtures().join("uftrace/a-simple-nested/uftrace.data/17763.dat"))
        .expect("17763.dat");
    let word = u64::from_le_bytes(original[8..16].try_into().expect("8 bytes"));
    let (addr, start) = (
        word >> 16,
        u64::from_le_bytes(original[..8].try_into().expect("8 bytes")),
    );
    const DEPTH: u64 = 100_000;
    let mut dat = Vec::with_capacity(DEPTH as usize * 32);
    for i in 0..DEPTH {
        dat.extend_from_slice(&record(start + i, false, i, addr));
    }
    for i in (0..DEPTH).rev() {
        dat.extend_from_slice(&record(start + 2 * DEPTH - i, true, i, addr));
    }
    let files = uftrace_with_task_data(dat);
    // A test thread's stack is 2 MiB: any recursion per frame would overflow it.
    let trace = survive("100 000 nested calls", &files).expect("decodes");
    let deepest = trace
        .threads
        .iter()
        .map(|t| t.max_depth())
        .max()
        .unwrap_or(0);
    assert!(
        deepest > 0,
        "the nesting is kept (up to uftrace's max-stack)"
    );
    for text in [
        chrome::to_chrome_json(&trace),
        speedscope::to_speedscope_json(&trace),
    ] {
        serde_json::from_str::<serde_json::Value>(&text).expect("valid JSON");
    }
    let _ = collapsed::to_collapsed(&trace);
    let _ = collapsed::exact(&trace);
}

#[test]
fn names_with_markup_right_to_left_text_and_emoji_travel_unchanged() {
    let dir = fixtures().join("uftrace/a-simple-nested/uftrace.data");
    let mut files = Vec::new();
    input_files(&dir, &dir, &mut files);
    let hostile = [
        ("leaf", "<img src=x onerror=alert(1)>"),
        (
            "mid",
            "\u{202e}dim\u{202c}_rtl_\u{5e9}\u{5dc}\u{5d5}\u{5dd}",
        ),
        ("top", "🔥top🧵\"quoted\"&amp;"),
        ("say", "</script><script>alert(2)</script>"),
    ];
    for (path, data) in &mut files {
        if path == "a_simple.sym" {
            let mut text = String::from_utf8(data.clone()).expect("text");
            for (from, to) in hostile {
                text = text.replace(&format!(" {from}\n"), &format!(" {to}\n"));
            }
            *data = text.into_bytes();
        }
    }
    let trace = survive("hostile names", &files).expect("decodes");
    let names: Vec<String> = report(&trace)
        .functions
        .into_iter()
        .map(|f| f.name)
        .collect();
    for (_, to) in hostile {
        assert!(
            names.iter().any(|n| n == to),
            "{to:?} missing from {names:?}"
        );
    }
    for text in [
        chrome::to_chrome_json(&trace),
        speedscope::to_speedscope_json(&trace),
    ] {
        let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let all = json.to_string();
        for (_, to) in hostile {
            let quoted = serde_json::to_string(to).expect("json");
            assert!(
                all.contains(&quoted),
                "{to:?} is not in the export as a JSON string"
            );
        }
    }
}
