//! Walks ARCHITECTURE.md's "How to add a format" recipe with the test-only
//! example format (`crates/core/src/formats/example.rs`, feature
//! `example-format`): the registry detects it, the normal driver decodes it
//! in chunks of every size, and the report says what the input held.

use flamedrop_core::analysis::report::report;
use flamedrop_core::formats::{Sniff, FORMATS};
use flamedrop_core::input::{decode_files_chunked, detect, FileProbe};
use flamedrop_core::model::codec;
use flamedrop_core::{decode_files, Format, LoadError};

const INPUT: &str = "flamedrop-example\n\
    0 call main\n\
    10 call parse\n\
    30 return\n\
    35 call parse\n\
    45 return\n\
    100 return\n";

fn files(text: &str) -> Vec<(String, Vec<u8>)> {
    vec![("run/trace.example".into(), text.as_bytes().to_vec())]
}

#[test]
fn step_1_the_registry_detects_the_format() {
    let row = FORMATS
        .iter()
        .find(|r| r.format == Format::Example)
        .unwrap();
    let probe = |head: &[u8], size: u64| FileProbe {
        path: "trace.example".into(),
        size,
        head: head.to_vec(),
    };
    assert_eq!((row.sniff)(&[probe(INPUT.as_bytes(), 99)]), Sniff::Yes);
    assert_eq!((row.sniff)(&[probe(b"flamedrop-ex", 99)]), Sniff::NeedMore);
    assert_eq!((row.sniff)(&[probe(b"hello", 5)]), Sniff::No);
    assert_eq!(detect(&[probe(INPUT.as_bytes(), 99)]), Ok(Format::Example));
    let unknown = decode_files(&files("something else\n")).unwrap_err();
    assert!(matches!(&unknown, LoadError::UnknownFormat { .. }));
    assert!(
        unknown.to_string().contains("or example output"),
        "{unknown}"
    );
}

#[test]
fn step_2_the_driver_decodes_it_and_the_report_shows_it() {
    let trace = decode_files(&files(INPUT)).unwrap();
    let report = report(&trace);
    assert_eq!(report.format, "example");
    assert_eq!(report.time_unit, "us");
    assert_eq!(report.threads.len(), 1);
    assert_eq!(report.threads[0].spans, 3);
    assert_eq!(report.threads[0].max_depth, 2);
    let calls = |name: &str| {
        let f = report.functions.iter().find(|f| f.name == name).unwrap();
        (f.calls, f.total, f.self_time)
    };
    assert_eq!(calls("main"), (1, 100, 70));
    assert_eq!(calls("parse"), (2, 30, 30));
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}

#[test]
fn step_3_every_chunking_gives_the_same_trace() {
    let whole = report(&decode_files(&files(INPUT)).unwrap());
    for chunk in 1..INPUT.len() {
        let trace = decode_files_chunked(&files(INPUT), chunk).unwrap();
        assert_eq!(report(&trace), whole, "chunks of {chunk}");
    }
}

#[test]
fn step_4_damage_is_reported_not_fatal() {
    let cut = &INPUT[..INPUT.len() - 4];
    let trace = decode_files_chunked(&files(cut), 7).unwrap();
    let kinds: Vec<&str> = trace.diagnostics.iter().map(|d| d.kind.as_str()).collect();
    assert!(kinds.contains(&"truncated-record"), "{kinds:?}");
    let bad = INPUT.replace("35 call parse", "35 jump parse");
    let trace = decode_files(&files(&bad)).unwrap();
    let skipped = trace
        .diagnostics
        .iter()
        .find(|d| d.kind == "example-bad-line")
        .unwrap();
    assert_eq!(skipped.offset, bad.find("35 jump").map(|at| at as u64));
}

#[test]
fn step_5_the_codec_carries_the_format() {
    let trace = decode_files(&files(INPUT)).unwrap();
    let back = codec::decode(&codec::encode(&trace)).unwrap();
    assert_eq!(back.format, Some(Format::Example));
    assert_eq!(
        Format::from_code(Format::Example.code()),
        Some(Format::Example)
    );
}
