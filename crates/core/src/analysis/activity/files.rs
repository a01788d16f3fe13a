//! The File page: one row per file path per thread. An open runs to its
//! close, a read or write from its begin to its end (the end carries the
//! size moved), a lock waits from its start to its end and is held until
//! its release (the fd api types of `probeinfo.h`).

use super::book::Book;
use super::probes::{each, Probe};
use super::State;
use crate::model::Trace;
use std::collections::HashMap;

/// The fd api names the SWAP decoder gives (`file_event_name`).
const APIS: [&str; 16] = [
    "open",
    "close",
    "read begin",
    "read end",
    "write begin",
    "write end",
    "directory",
    "permissions",
    "other",
    "send",
    "receive",
    "option",
    "manage",
    "lock start",
    "lock end",
    "lock release",
];

pub fn build(trace: &Trace) -> Book {
    let mut book = Book::new(trace.time_range().map_or(0, |r| r.1));
    // Paths by (process, fd), for probes that carry no path.
    let mut paths: HashMap<(u32, u64), String> = HashMap::new();
    each(trace, "file", &APIS, |p| {
        let process = trace
            .threads
            .get(p.thread as usize)
            .map_or(0, |t| t.process);
        let fd = p.number("fd");
        let path = match p.text("path") {
            "" => paths.get(&(process, fd)).cloned().unwrap_or_default(),
            path => path.to_owned(),
        };
        if p.api == "open" && !p.failed() {
            paths.insert((process, fd), path.clone());
        }
        let object = if path.is_empty() {
            format!("fd {fd}")
        } else {
            path
        };
        let row = book.row(p.thread, &object, &format!("fd {fd}"), false);
        record(&mut book, row, p);
    });
    book
}

/// What probe `p` does to `row`.
fn record(book: &mut Book, row: u32, p: &Probe) {
    let failed = p.failed();
    let size = p.number("size");
    let (mut read, mut written) = (0, 0);
    if !failed {
        match p.api {
            "open" => book.begin(row, State::Open, p.time),
            "close" => {
                book.end(row, State::Open, p.time);
            }
            "read begin" => book.begin(row, State::Read, p.time),
            "read end" => {
                book.end(row, State::Read, p.time);
                read = size;
            }
            "write begin" => book.begin(row, State::Write, p.time),
            "write end" => {
                book.end(row, State::Write, p.time);
                written = size;
            }
            "lock start" => book.begin(row, State::Wait, p.time),
            "lock end" => {
                book.end(row, State::Wait, p.time);
                book.begin(row, State::Held, p.time);
            }
            "lock release" => {
                book.end(row, State::Held, p.time);
            }
            _ => {}
        }
    } else if matches!(p.api, "read end" | "write end" | "lock end") {
        // A failed end still ends what its begin started.
        let state = match p.api {
            "read end" => State::Read,
            "write end" => State::Write,
            _ => State::Wait,
        };
        book.end(row, state, p.time);
    }
    book.mark(p.mark(row, read, written));
}
