//! The uftrace replay takes plain calls and returns through a fast path and
//! everything else through the general one; a task whose records switch
//! between the two in every way (a time going backwards, a return whose
//! address differs from its call's, addresses seen for the first time) must
//! come out exactly as the general rules say.

mod common;

use common::{fixtures, read_folder};
use flamedrop_core::decode_files;

/// A uftrace record: time, then type | magic | depth | address (no extra data).
fn record(time: u64, exit: bool, depth: u64, addr: u64) -> [u8; 16] {
    let word = u64::from(exit) | (5 << 3) | (depth << 6) | (addr << 16);
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&time.to_le_bytes());
    out[8..].copy_from_slice(&word.to_le_bytes());
    out
}

#[test]
fn plain_and_unusual_records_interleave_as_the_general_rules_say() {
    // Three functions of the a-simple-nested recording (main, and two it calls).
    let (a, b, c) = (0x5642_508b_22a0, 0x5642_508b_2234, 0x5642_508b_21f2);
    let t = 228_861_430_706u64;
    let records = [
        record(t, false, 0, a),
        record(t + 10, false, 1, b),
        record(t + 20, true, 1, b),
        record(t + 30, false, 1, b),
        record(t + 25, true, 1, b), // backwards: clamped to t + 30
        record(t + 40, false, 1, b),
        record(t + 50, true, 1, c), // returns as another function: renamed
        record(t + 60, false, 1, b),
        record(t + 70, true, 1, b),
        record(t + 80, true, 0, a),
    ];
    let decode = |dat: Vec<u8>| {
        let dir = fixtures().join("uftrace/a-simple-nested/uftrace.data");
        let mut files = read_folder(&dir);
        for (path, data) in &mut files {
            if path.ends_with("17763.dat") {
                *data = dat.clone();
            }
        }
        decode_files(&files).expect("decodes")
    };
    let events_of = |trace: &flamedrop_core::Trace| {
        trace
            .threads
            .iter()
            .find(|th| th.id == "17763")
            .map(|th| th.events)
    };
    // The recording's other files (perf events) count for the thread too.
    let others = events_of(&decode(Vec::new())).expect("the task's thread");
    let trace = decode(records.concat());
    let thread = trace
        .threads
        .iter()
        .find(|th| th.id == "17763")
        .expect("the task's thread");
    let s = &thread.spans;
    let t = t as i64;
    assert_eq!(s.start, vec![t, t + 10, t + 30, t + 40, t + 60]);
    assert_eq!(s.end, vec![t + 80, t + 20, t + 30, t + 50, t + 70]);
    assert_eq!(s.depth, vec![0, 1, 1, 1, 1]);
    assert_eq!(s.flags, vec![0; 5]);
    let names: Vec<&str> = s.name.iter().map(|&n| trace.str(n)).collect();
    assert_eq!(names[1], names[2]);
    assert_eq!(names[1], names[4]);
    assert_ne!(names[3], names[1], "the call is named after its return");
    assert_ne!(names[0], names[1]);
    assert_eq!(thread.events, others + records.len() as u64);
    let count = |kind: &str| {
        trace
            .diagnostics
            .iter()
            .filter(|d| d.kind == kind)
            .map(|d| d.count)
            .sum::<u64>()
    };
    assert_eq!(count("time-backwards"), 1);
    assert_eq!(count("exit-mismatch"), 1);
}

/// A LOST record: time 0, type 2, the count in the address bits.
fn lost(count: u64, depth: u64) -> [u8; 16] {
    let word = 2 | (5 << 3) | (depth << 6) | (count << 16);
    let mut out = [0u8; 16];
    out[8..].copy_from_slice(&word.to_le_bytes());
    out
}

#[test]
fn calls_open_across_a_loss_keep_their_start_and_deeper_ones_are_dropped() {
    // main { b { c { LOST  } b returns (depth 1) } main returns }: as uftrace
    // does, the record after the loss sets the depth to 2, so main and b keep
    // running from their first start and c is dropped without being counted.
    let (a, b, c) = (0x5642_508b_22a0, 0x5642_508b_2234, 0x5642_508b_21f2);
    let t = 228_861_430_706u64;
    let records = [
        record(t, false, 0, a),
        record(t + 10, false, 1, b),
        record(t + 20, false, 2, c),
        lost(7, 3),
        record(t + 100, true, 1, b),
        record(t + 110, true, 0, a),
    ];
    let dir = fixtures().join("uftrace/a-simple-nested/uftrace.data");
    let mut files = read_folder(&dir);
    for (path, data) in &mut files {
        if path.ends_with("17763.dat") {
            *data = records.concat();
        }
    }
    let trace = decode_files(&files).expect("decodes");
    let thread = trace
        .threads
        .iter()
        .find(|th| th.id == "17763")
        .expect("the task's thread");
    // (The recording's perf events add context switches after these.)
    let s = &thread.spans;
    let t = t as i64;
    assert_eq!(s.start[..3], [t, t + 10, t + 20]);
    assert_eq!(s.end[..3], [t + 110, t + 100, t + 20]);
    assert!(s.start[3..].iter().all(|&start| start > t + 110));
    let abandoned = flamedrop_core::model::SPAN_ABANDONED;
    assert_eq!(s.flags[0] & abandoned, 0);
    assert_eq!(s.flags[1] & abandoned, 0);
    assert_eq!(s.flags[2] & abandoned, abandoned, "c is dropped uncounted");
}
