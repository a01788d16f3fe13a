//! The file's own rules: round trip, versions, truncation, other files.

use super::*;
use crate::model::{Format, TimeUnit, TraceBuilder};

fn trace() -> Trace {
    let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
    let p = b.process("7", "prog");
    let t = b.thread(p, "7", "prog");
    let main = b.intern("main");
    let leaf = b.intern("leaf");
    b.begin(t, 100, main, 0);
    b.begin(t, 120, leaf, 0);
    b.end(t, 130);
    b.end(t, 200);
    let c = b.counter("live heap", "bytes", Some(p), None);
    b.counter_value(c, 130, 64.0);
    let d = b.counter("added", "bytes", Some(p), None);
    b.counter_value(d, 140, 1.0);
    b.finish()
}

fn header() -> Header {
    Header {
        made_by: "flamedrop test".into(),
        label: "demo a".into(),
        fragment: "view=flamegraph&search=leaf".into(),
        selected: Some((0, 1)),
        event: None,
        tab: "details".into(),
        zoom: BTreeMap::from([("flamegraph".to_owned(), 2)]),
        timeline: Some((10.5, 90.25, 12.0)),
        colour_by_group: true,
    }
}

#[test]
fn a_trace_and_its_screen_survive_the_round_trip() {
    let (trace, header) = (trace(), header());
    let bytes = encode(&trace, &header);
    assert!(is_saved(&bytes));
    let back = decode(&bytes).expect("reads");
    assert_eq!(back.header, header);
    assert_eq!(codec::encode(&back.trace), codec::encode(&trace));
}

#[test]
fn the_tracks_the_page_added_are_left_out() {
    let trace = trace();
    let back = decode(&encode_first_counters(&trace, &header(), 1)).expect("reads");
    assert_eq!(back.trace.counters.len(), 1);
    assert_eq!(back.trace.counters[0], trace.counters[0]);
}

#[test]
fn a_newer_version_is_refused_by_name() {
    let mut bytes = encode(&trace(), &header());
    bytes[12..14].copy_from_slice(&7u16.to_le_bytes());
    let error = decode(&bytes).expect_err("newer");
    assert_eq!(
        error,
        SavedError::Newer {
            version: 7,
            reads_up_to: 1
        }
    );
    assert_eq!(
        error.to_string(),
        "the flamedrop file was made by a newer flamedrop (version 7); this one reads up to 1"
    );
}

#[test]
fn every_truncation_is_refused_with_where_the_file_ends() {
    let bytes = encode(&trace(), &header());
    for cut in 1..bytes.len() {
        match decode(&bytes[..cut]) {
            Err(SavedError::Truncated { at, .. }) => assert_eq!(at, cut as u64),
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
    let message = decode(&bytes[..20]).expect_err("cut").to_string();
    assert_eq!(
        message,
        "the flamedrop file is truncated at byte 20 (while reading the header)"
    );
}

#[test]
fn other_files_are_not_flamedrop_files() {
    for bytes in [&b""[..], b"Ftrace!\0", b"FLMDRP04 a codec buffer"] {
        assert_eq!(decode(bytes).expect_err("not ours"), SavedError::NotSaved);
    }
    assert_eq!(SavedError::NotSaved.to_string(), "not a flamedrop file");
}

#[test]
fn a_damaged_model_is_refused_without_panic() {
    let bytes = encode(&trace(), &header());
    for at in 14..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x5a;
        let _ = decode(&damaged);
    }
    let mut damaged = bytes.clone();
    let last = damaged.len() - 3;
    damaged[last] ^= 0xff;
    assert!(matches!(decode(&damaged), Err(SavedError::Damaged(_))));
}
