//! Scaler beyond the shared cases: the 2021-07-25 variant, later outputs that
//! are refused, broken and truncated files, and the quirks of real data.

mod common;

use common::{fixtures, read_folder};
use flamedrop_core::analysis::report;
use flamedrop_core::input::decode_files_chunked;
use flamedrop_core::model::{Field, Severity, SPAN_OPEN_AT_END};
use flamedrop_core::{decode_files, LoadError, Trace};

/// One record: type byte then int64 fields, little-endian, packed.
fn record(kind: u8, fields: &[i64]) -> Vec<u8> {
    let mut out = vec![kind];
    for f in fields {
        out.extend_from_slice(&f.to_le_bytes());
    }
    out
}

fn case_files(name: &str) -> Vec<(String, Vec<u8>)> {
    read_folder(&fixtures().join("scaler").join(name))
        .into_iter()
        .filter(|(path, _)| !path.contains("/reference/"))
        .collect()
}

fn diagnostic<'a>(trace: &'a Trace, kind: &str) -> &'a flamedrop_core::model::Diagnostic {
    trace
        .diagnostics
        .iter()
        .find(|d| d.kind == kind)
        .unwrap_or_else(|| panic!("no {kind} diagnostic in {:?}", trace.diagnostics))
}

#[test]
fn the_2021_07_25_variant_names_calls_by_library_and_address() {
    let malloc = 0x7f00_1234_5678i64;
    let lock = 0x7f00_1234_9000i64;
    let mut tree = record(1, &[0, -1, -1, -1, 1, 2]);
    // Stored newest first: the lock call, then malloc.
    tree.extend(record(2, &[7, lock, 200, 210, -1, 0, 0x5555_0000, 0]));
    tree.extend(record(1, &[7, malloc, 100, 150, -1, 0]));
    let symbols = format!(
        r#"{{"0":{{"fileName":"/x/prog","funcNames":null}},"7":{{"fileName":"/usr/lib/libc.so.6","funcNames":{{"{malloc}":"malloc","{lock}":"pthread_mutex_lock"}}}}}}"#
    );
    let trace = decode_files(&[
        ("out/thread_0x7f0011.bin".into(), tree),
        ("out/symbol_0x7f0011.json".into(), symbols.into_bytes()),
    ])
    .unwrap();
    let s = &trace.threads[0].spans;
    let names: Vec<&str> = s.name.iter().map(|&n| trace.str(n)).collect();
    assert_eq!(names, ["malloc", "pthread_mutex_lock"]);
    assert_eq!(
        s.details_of(0, &trace.strings),
        vec![Field::new("library", "libc.so.6")]
    );
    assert!(s
        .details_of(1, &trace.strings)
        .contains(&Field::new("mutex", "0x55550000")));
    assert!(trace
        .metadata
        .iter()
        .any(|(k, v)| k == "Scaler output" && v.starts_with("2021-07-25")));
}

#[test]
fn the_variant_without_json_is_told_by_its_root() {
    let mut tree = record(1, &[0, -1, -1, -1, 1, 1]);
    tree.extend(record(1, &[3, 0x4010, 100, 150, -1, 0]));
    let trace = decode_files(&[("thread_140000.bin".into(), tree)]).unwrap();
    assert_eq!(trace.threads[0].id, format!("{:#x}", 140000));
    assert_eq!(trace.str(trace.threads[0].spans.name[0]), "file3/0x4010");
}

#[test]
fn later_scaler_outputs_are_refused_naming_the_version() {
    let timing = decode_files(&[
        ("rec/threadTiming_1234.bin".into(), vec![0; 80]),
        ("rec/symbolInfo.txt".into(), b"malloc,0,1\n".to_vec()),
    ])
    .unwrap_err();
    let LoadError::Unsupported { reason, .. } = &timing else {
        panic!("{timing:?}");
    };
    assert!(reason.contains("libHook-c"), "{reason}");
    assert!(timing.to_string().starts_with("scaler output"));
    let raw = decode_files(&[("scaler_time12_13.bin".into(), vec![0; 40])]).unwrap_err();
    assert!(raw.to_string().contains("late 2021"), "{raw}");
}

#[test]
fn an_unknown_record_type_stops_that_file_only() {
    let mut files = case_files("a-prodcons-mutex-cond-sem");
    let (path, bytes) = files
        .iter_mut()
        .find(|(p, _)| p.ends_with("thread_0x7f05e20d66c0.bin"))
        .unwrap();
    let path = path.clone();
    // Record 3 of the producer: records 1 and 2 are PTHREAD (65 bytes).
    let offset = 49 + 65 + 65;
    assert!(matches!(bytes[offset], 1..=3));
    bytes[offset] = 7;
    let trace = decode_files(&files).unwrap();
    let d = diagnostic(&trace, "scaler-unknown-type");
    assert_eq!(d.file.as_deref(), Some(path.as_str()));
    assert_eq!(d.offset, Some(offset as u64));
    assert_eq!(d.severity, Severity::DataLoss);
    let report = report(&trace);
    let events = |id: &str| report.threads.iter().find(|t| t.id == id).unwrap().events;
    assert_eq!(events("0x7f05e20d66c0"), 3);
    assert_eq!(events("0x7f05e24a6800"), 10, "other files are whole");
    assert!(
        trace
            .diagnostics
            .iter()
            .any(|d| d.kind == "scaler-unreachable")
            || {
                // The root claims 43 children but only 2 were read.
                trace
                    .diagnostics
                    .iter()
                    .any(|d| d.kind == "scaler-children-size")
            }
    );
}

#[test]
fn every_truncation_of_every_fixture_file_decodes_and_names_the_cut() {
    for case in [
        "a-prodcons-mutex-cond-sem",
        "b-nested-callbacks-sync",
        "upstream-unittest-sample",
    ] {
        let files = case_files(case);
        let first_tree = files.iter().position(|(p, _)| p.ends_with(".bin"));
        for (index, (path, bytes)) in files.iter().enumerate() {
            if !path.ends_with(".bin") && !path.ends_with(".json") {
                continue;
            }
            // The cut file with the case's JSON files (and one tree, for a
            // JSON cut): the other trees would only be decoded again.
            let mut cut_files: Vec<(String, Vec<u8>)> = files
                .iter()
                .enumerate()
                .filter(|&(i, (p, _))| {
                    i == index
                        || p.ends_with(".json")
                        || (!path.ends_with(".bin") && Some(i) == first_tree)
                })
                .map(|(_, f)| f.clone())
                .collect();
            let at = cut_files.iter().position(|(p, _)| p == path).unwrap();
            for cut in 0..bytes.len() {
                cut_files[at].1 = bytes[..cut].to_vec();
                let Ok(trace) = decode_files(&cut_files) else {
                    // The only tree of a case cut before its root is no longer Scaler output.
                    assert!(path.ends_with(".bin") && cut < 64, "{path} at {cut}");
                    continue;
                };
                let _ = report(&trace);
                let diagnosed = |kind: &str| {
                    trace
                        .diagnostics
                        .iter()
                        .find(|d| d.kind == kind && d.file.as_deref() == Some(path.as_str()))
                };
                if path.ends_with(".bin") && cut < 49 {
                    // Less than a root record: not recognisable as a tree.
                    assert!(trace.diagnostics.iter().any(|d| d.kind == "ignored-files"));
                } else if path.ends_with(".bin") {
                    let borders = record_borders(bytes);
                    match borders.iter().rev().find(|&&b| b <= cut) {
                        Some(&b) if b == cut => {
                            assert!(diagnosed("scaler-truncated").is_none(), "{path} at {cut}")
                        }
                        Some(&b) => {
                            let d = diagnosed("scaler-truncated")
                                .unwrap_or_else(|| panic!("{path} cut at {cut}"));
                            assert_eq!(d.offset, Some(b as u64));
                        }
                        None => unreachable!(),
                    }
                }
                if path.ends_with(".json") && cut < bytes.len() {
                    let d = diagnostic(&trace, "scaler-bad-json");
                    assert_eq!(d.file.as_deref(), Some(path.as_str()));
                }
            }
        }
    }
}

/// Byte offsets where records start (and the end of the file).
fn record_borders(bytes: &[u8]) -> Vec<usize> {
    let mut at = 0;
    let mut out = vec![0];
    while let Some(kind) = bytes.get(at) {
        at += match kind {
            1 => 49,
            2 => 65,
            3 => 57,
            _ => panic!("fixture record type {kind}"),
        };
        out.push(at);
    }
    out
}

#[test]
fn a_cut_inside_a_record_is_reported_at_that_record() {
    let files = case_files("b-nested-callbacks-sync");
    let (path, bytes) = files
        .iter()
        .find(|(p, _)| p.ends_with("thread_0x7f21368d8800.bin"))
        .unwrap();
    let trace = decode_files(&[(path.clone(), bytes[..49 + 30].to_vec())]).unwrap();
    let d = diagnostic(&trace, "scaler-truncated");
    assert_eq!(d.offset, Some(49));
    assert_eq!(trace.threads[0].events, 1);
}

#[test]
fn chunk_borders_do_not_change_the_trace() {
    let files = case_files("b-nested-callbacks-sync");
    let whole = report(&decode_files(&files).unwrap());
    for chunk in [1, 3, 49, 50, 64] {
        let parts = report(&decode_files_chunked(&files, chunk).unwrap());
        assert_eq!(parts, whole, "chunk {chunk}");
    }
}

#[test]
fn a_renamed_tree_file_is_still_recognised() {
    let files = case_files("upstream-unittest-sample");
    let (_, bytes) = files.iter().find(|(p, _)| p.ends_with(".bin")).unwrap();
    let trace = decode_files(&[("unknown".into(), bytes.clone())]).unwrap();
    assert_eq!(trace.threads[0].spans.len(), 7);
}

#[test]
fn an_inflated_children_size_is_tolerated_and_counted() {
    let mut files = case_files("a-prodcons-mutex-cond-sem");
    let (_, bytes) = files
        .iter_mut()
        .find(|(p, _)| p.ends_with("thread_0x7f05e24a6800.bin"))
        .unwrap();
    // Root childrenSize 9 → 11, as pigz's roots claim two unwritten mallocs.
    bytes[41..49].copy_from_slice(&11i64.to_le_bytes());
    let trace = decode_files(&files).unwrap();
    let d = diagnostic(&trace, "scaler-children-size");
    assert_eq!(
        (d.count, d.offset, d.severity),
        (1, Some(0), Severity::Info)
    );
    let report = report(&trace);
    let main = report
        .threads
        .iter()
        .find(|t| t.id == "0x7f05e24a6800")
        .unwrap();
    assert_eq!(main.spans, 9);
}

#[test]
fn calls_that_never_returned_are_drawn_open_to_the_thread_end() {
    // main → bsearch → exit, both open with fileID -1; an earlier call returned.
    let mut tree = record(1, &[-1, -1, -1, -1, 1, 2]);
    tree.extend(record(1, &[-1, 5, 300, -1, 3, 1])); // bsearch (newest)
    tree.extend(record(1, &[0, 1, 100, 120, -1, 0])); // printf
    tree.extend(record(1, &[-1, 9, 310, -1, -1, 0])); // exit
    let symbols =
        br#"{"0":{"fileName":"/x/prog","funcNames":{"1":"printf","5":"bsearch","9":"exit"}}}"#;
    let trace = decode_files(&[
        ("thread_0x1.bin".into(), tree),
        ("symbol.json".into(), symbols.to_vec()),
    ])
    .unwrap();
    let s = &trace.threads[0].spans;
    let names: Vec<&str> = s.name.iter().map(|&n| trace.str(n)).collect();
    assert_eq!(names, ["printf", "bsearch", "exit"]);
    assert_eq!(s.end[1], 310, "drawn to the thread's last timestamp");
    assert_eq!(s.end[2], 310);
    assert!(s.flags[1] & SPAN_OPEN_AT_END != 0 && s.flags[2] & SPAN_OPEN_AT_END != 0);
    assert_eq!(s.flags[0] & SPAN_OPEN_AT_END, 0);
    let d = diagnostic(&trace, "scaler-never-returned");
    assert_eq!(d.count, 2);
    assert!(d.message.contains("2 of them with fileID -1"));
    assert!(trace.diagnostics.iter().all(|d| d.kind != "scaler-unnamed"));
}

#[test]
fn garbage_extra_fields_are_counted_not_shown() {
    let trace = decode_files(&case_files("b-nested-callbacks-sync")).unwrap();
    let d = diagnostic(&trace, "scaler-unset-extra");
    assert!(d.count > 0);
    for thread in &trace.threads {
        for (index, fields) in thread.spans.details.grouped(&trace.strings) {
            let name = trace.str(thread.spans.name[index as usize]);
            if name == "pthread_create" {
                assert!(fields.is_empty(), "{fields:?}");
            }
            assert!(
                fields.iter().all(|f| f.value != "0x66746e697270"),
                "the ASCII garbage of main's timedjoin is hidden"
            );
        }
    }
}

#[test]
fn a_broken_symbol_file_leaves_the_trees_with_fallback_names() {
    let mut files = case_files("a-prodcons-mutex-cond-sem");
    let (path, bytes) = files
        .iter_mut()
        .find(|(p, _)| p.ends_with("symbol.json"))
        .unwrap();
    let path = path.clone();
    bytes.truncate(40);
    let trace = decode_files(&files).unwrap();
    assert_eq!(
        diagnostic(&trace, "scaler-bad-json").file.as_deref(),
        Some(path.as_str())
    );
    assert_eq!(diagnostic(&trace, "scaler-unnamed").count, 91);
    assert!(report(&trace)
        .functions
        .iter()
        .any(|f| f.name == "file0/func8"));
}

#[test]
fn timestamps_near_the_end_of_the_range_do_not_overflow_the_report() {
    let big = i64::MAX / 4 * 3;
    let mut tree = record(1, &[-1, -1, -1, -1, 1, 2]);
    tree.extend(record(1, &[0, 1, big + 1, i64::MAX, -1, 0]));
    tree.extend(record(1, &[0, 1, 0, big, -1, 0]));
    let trace = decode_files(&[("thread_0x1.bin".into(), tree)]).unwrap();
    let report = report(&trace);
    assert_eq!(report.functions[0].calls, 2);
}

#[test]
fn every_byte_of_every_tree_flipped_decodes_without_panic() {
    // One case (all three record types, nesting); the mask varies by offset.
    let files = case_files("b-nested-callbacks-sync");
    let json: Vec<(String, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| p.ends_with(".json"))
        .cloned()
        .collect();
    for (path, bytes) in files.iter().filter(|(p, _)| p.ends_with(".bin")) {
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= [0x01u8, 0x80, 0xff][at % 3];
            let mut input = json.clone();
            input.push((path.clone(), flipped));
            // A flipped root may no longer look like Scaler output.
            if let Ok(trace) = decode_files(&input) {
                let r = report(&trace);
                assert!(r.threads.len() <= 1, "{path} at {at}");
            }
        }
    }
}
