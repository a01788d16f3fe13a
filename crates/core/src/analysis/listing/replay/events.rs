//! uftrace replay's event rows: `/* read:proc/statm (vmsize=…KB …) */`,
//! `/* diff:page-fault (major=+… minor=+…) */`, `/* watch:cpu (cpu=1) */`,
//! SDT events by name, `/* LOST N records!! */`, and the scheduler's
//! `linux:schedule` / `linux:sched-out` / `linux:sched-in` rows.

use crate::model::{StrId, Trace, Value};
use std::fmt::Write;

/// The name the decoder gives a LOST marker.
pub(super) const LOST: &str = "LOST";

/// The event id uftrace keeps as the "address" of a context switch.
pub(super) fn sched_address(span_name: &str) -> u64 {
    if span_name.ends_with("(pre-empted)") {
        0x30d47
    } else {
        0x30d42
    }
}

/// True for the markers uftrace replay never prints as rows: the task
/// events the decoder takes from `task.txt` and perf's task records.
pub(super) fn is_hidden(name: &str) -> bool {
    matches!(
        name,
        "linux:task-name" | "linux:task-new" | "linux:task-exit"
    )
}

/// One value of an event's payload: the decoder's field name, uftrace's
/// label before the value and its unit after it.
type PayloadField = (&'static str, &'static str, &'static str);

/// The built-in events whose payload uftrace prints, with the decoder's
/// field names and uftrace's names for them.
const PAYLOADS: &[(&str, &[PayloadField])] = &[
    (
        "proc/statm",
        &[
            ("vmsize KB", "vmsize=", "KB"),
            ("vmrss KB", "vmrss=", "KB"),
            ("shared KB", "shared=", "KB"),
        ],
    ),
    (
        "page-fault",
        &[
            ("major faults", "major=", ""),
            ("minor faults", "minor=", ""),
        ],
    ),
    (
        "pmu-cycle",
        &[
            ("cycles", "cycles=", ""),
            ("instructions", "instructions=", ""),
        ],
    ),
    (
        "pmu-cache",
        &[
            ("cache references", "refers=", ""),
            ("cache misses", "misses=", ""),
        ],
    ),
    (
        "pmu-branch",
        &[
            ("branches", "branch=", ""),
            ("branch misses", "misses=", ""),
        ],
    ),
];

/// Appends the text between `/* ` and ` */` of marker `instant` of
/// `thread`; `path` is scratch space.
pub(super) fn write_event(
    trace: &Trace,
    thread: u32,
    instant: u32,
    path: &mut Vec<u32>,
    out: &mut String,
) {
    let Some(lane) = trace.threads.get(thread as usize) else {
        return;
    };
    let name = lane
        .instants
        .name
        .get(instant as usize)
        .map_or("", |&id| trace.str(id));
    let details = &lane.instants.details;
    let number = |key: &str, path: &mut Vec<u32>| -> Option<i64> {
        let mut found = None;
        details.visit_fields(instant, path, |k, value| {
            if found.is_none() && trace.str(k) == key {
                found = value_number(trace, value);
            }
        });
        found
    };
    if name == LOST {
        match number("records lost", path).filter(|&n| n as i32 > 0) {
            Some(n) => {
                let _ = write!(out, "LOST {} records!!", n as i32);
            }
            None => out.push_str("LOST some records!!"),
        }
        return;
    }
    out.push_str(name);
    if name == "watch:cpu" {
        if let Some(cpu) = number("cpu", path) {
            let _ = write!(out, " (cpu={})", cpu as i32);
        }
        return;
    }
    let (kind, event) = name.split_once(':').unwrap_or(("", name));
    let Some((_, keys)) = PAYLOADS.iter().find(|(e, _)| *e == event) else {
        return;
    };
    if kind != "read" && kind != "diff" {
        return;
    }
    let sign = if kind == "diff" { "+" } else { "" };
    out.push_str(" (");
    for (at, (key, label, unit)) in keys.iter().enumerate() {
        if at > 0 {
            out.push(' ');
        }
        let value = number(key, path).unwrap_or(0) as u64;
        let _ = write!(out, "{label}{sign}{value}{unit}");
    }
    out.push(')');
}

/// A field's value as a number, if it is one.
fn value_number(trace: &Trace, value: Value) -> Option<i64> {
    match value {
        Value::Int(n) => Some(n),
        Value::Hex(n) => Some(n as i64),
        Value::Text(id) | Value::Fixed(id) => text_number(trace, id),
        Value::Numbered(..) => None,
    }
}

fn text_number(trace: &Trace, id: StrId) -> Option<i64> {
    let text = trace.str(id);
    text.parse::<i64>()
        .ok()
        .or_else(|| text.parse::<u64>().ok().map(|n| n as i64))
}
