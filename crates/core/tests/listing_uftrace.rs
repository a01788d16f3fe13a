//! `flamedrop replay` on uftrace recordings against what uftrace v0.13's own
//! `uftrace replay` printed for them (each case's `reference/`, commands in
//! its `reference/COMMANDS.txt`), byte for byte.

mod common;

use common::{cases, decode_case, reference};
use flamedrop_core::analysis::listing::{Listing, ListingOptions};
use flamedrop_core::analysis::transform::{self, Step, UftraceFilter};
use flamedrop_core::Trace;

/// The listing of `trace` with `-f fields` (uftrace's default without).
fn replay(trace: &Trace, fields: Option<&str>) -> String {
    let mut options = ListingOptions::default();
    if let Some(fields) = fields {
        options.replay.set_fields(fields).expect("fields");
    }
    Listing::new(trace, &options).expect("listing").text(trace)
}

/// The first line where `ours` and `theirs` differ, for a readable failure.
fn first_difference(ours: &str, theirs: &str) -> String {
    let line = ours
        .lines()
        .zip(theirs.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(ours.lines().count().min(theirs.lines().count()));
    format!(
        "line {}:\n ours:   {:?}\n uftrace: {:?}",
        line + 1,
        ours.lines().nth(line),
        theirs.lines().nth(line)
    )
}

fn assert_same(case: &str, what: &str, ours: &str, theirs: &str) {
    assert!(
        ours == theirs,
        "{case} {what}: {}",
        first_difference(ours, theirs)
    );
}

#[test]
fn replay_equals_uftrace_replay_on_every_fixture() {
    let names = cases("uftrace");
    assert_eq!(names.len(), 7);
    for case in names {
        let trace = decode_case("uftrace", &case);
        let theirs = reference("uftrace", &case, "replay.txt");
        assert_same(&case, "replay", &replay(&trace, None), &theirs);
    }
}

#[test]
fn replay_fields_equal_uftrace_replay_f_on_every_fixture() {
    for case in cases("uftrace") {
        let trace = decode_case("uftrace", &case);
        let theirs = reference("uftrace", &case, "replay-fields.txt");
        let ours = replay(&trace, Some("time,delta,duration,tid,addr"));
        assert_same(&case, "replay -f", &ours, &theirs);
    }
}

#[test]
fn replay_of_one_task_equals_uftrace_replay_tid() {
    let case = "c-pthreads-mutex";
    let trace = decode_case("uftrace", case);
    for tid in ["21710", "21712", "21713", "21714", "21715"] {
        let filter = UftraceFilter::from_args(&["--tid", tid]).expect("filter");
        let narrowed = transform::apply(&trace, &[Step::Uftrace(filter)]).expect("narrows");
        let theirs = reference("uftrace", case, &format!("replay-tid-{tid}.txt"));
        assert_same(case, tid, &replay(&narrowed.trace, None), &theirs);
    }
}

/// The uftrace-extra cases whose `replay.txt` flamedrop prints exactly.
/// Not yet: d-fork-child and d-fork-exec (a forked child's stack starts
/// inside `fork`, at depth 1), i-lost-records (a context switch and a
/// `batch` call around a LOST whose stack uftrace keeps stale), and
/// j-setjmp-longjmp (the decoder names the call a longjmp returns into
/// `_setjmp`, uftrace `level1`).
const EXTRA_EXACT: &[&str] = &[
    "h-libcall-plt",
    "h-no-libcall",
    "i-events",
    "i-lost-nested",
    "i-lost-sched",
    "i-max-stack",
];

#[test]
fn replay_equals_uftrace_replay_on_the_extra_cases() {
    for case in EXTRA_EXACT {
        let trace = decode_case("uftrace-extra", case);
        let theirs = reference("uftrace-extra", case, "replay.txt");
        assert_same(case, "replay", &replay(&trace, None), &theirs);
    }
}
