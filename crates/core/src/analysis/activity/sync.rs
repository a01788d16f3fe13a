//! The Thread page's sync objects: one row per sync object per thread, with
//! the time spent waiting for it and holding it.
//!
//! SWAP (sync api types of `probeinfo.h`): a wait runs from "acquire wait
//! start" to "acquire wait end", the lock is then held until "release" (or
//! from a "try acquire" to its release); a condition wait runs from "cond
//! wait start" to "cond wait end".
//!
//! Scaler (`formats::scaler::sync`): a call that can block (lock, wait,
//! join, barrier) is a wait for its whole span; a mutex, rwlock or spinlock
//! is then held from the lock's return to the start of its unlock on the
//! same thread. A condition wait lets its mutex go while it waits.

use super::book::Book;
use super::probes::each;
use super::{Mark, Source, State};
use crate::formats::scaler::sync::{meaning, COND_MUTEX, JOINED_THREAD};
use crate::model::{Format, Trace};

/// The sync api names the SWAP decoder gives (`sync_api`).
const APIS: [&str; 10] = [
    "new",
    "acquire wait start",
    "acquire wait end",
    "release",
    "try acquire",
    "cond wait start",
    "cond wait end",
    "notify",
    "notify all",
    "other",
];

/// SWAP's sync types (`probeinfo.h`).
fn sync_type(code: u64) -> &'static str {
    match code {
        0 => "Tizen mutex",
        1 => "Tizen monitor",
        2 => "Tizen semaphore",
        3 => "pthread mutex",
        4 => "pthread cond",
        5 => "pthread rwlock",
        6 => "pthread spinlock",
        7 => "pthread barrier",
        _ => "sync object",
    }
}

pub fn build(trace: &Trace) -> Book {
    match trace.format {
        Some(Format::Scaler) => scaler(trace),
        _ => swap(trace),
    }
}

fn swap(trace: &Trace) -> Book {
    let mut book = Book::new(trace.time_range().map_or(0, |r| r.1));
    each(trace, "sync", &APIS, |p| {
        let object = p.text("sync object");
        let row = book.row(p.thread, object, sync_type(p.number("sync type")), false);
        let failed = p.failed();
        let t = p.time;
        match p.api {
            "acquire wait start" => book.begin(row, State::Wait, t),
            "acquire wait end" => {
                book.end(row, State::Wait, t);
                if !failed {
                    book.begin(row, State::Held, t);
                }
            }
            "try acquire" if !failed => book.begin(row, State::Held, t),
            "release" => {
                book.end(row, State::Held, t);
            }
            "cond wait start" => book.begin(row, State::Wait, t),
            "cond wait end" => {
                book.end(row, State::Wait, t);
            }
            _ => {}
        }
        book.mark(p.mark(row, 0, 0));
    });
    book
}

/// The object kinds a Scaler call can hold.
const HOLDABLE: [&str; 3] = ["mutex", "rwlock", "spinlock"];

fn scaler(trace: &Trace) -> Book {
    let mut book = Book::new(trace.time_range().map_or(0, |r| r.1));
    for (t, thread) in trace.threads.iter().enumerate() {
        let t = t as u32;
        let spans = &thread.spans;
        for (index, fields) in spans.details.grouped(&trace.strings) {
            let i = index as usize;
            let (Some(&start), Some(&end), Some(&name)) =
                (spans.start.get(i), spans.end.get(i), spans.name.get(i))
            else {
                continue;
            };
            let Some(m) = meaning(trace.str(name)) else {
                continue;
            };
            let Some(first) = fields.iter().find(|f| f.key == m.first) else {
                continue;
            };
            let kind = if m.first == JOINED_THREAD {
                "thread"
            } else {
                m.first
            };
            let object = format!("{kind} {}", first.value);
            let row = book.row(t, &object, kind, false);
            let holdable = HOLDABLE.contains(&m.first);
            if m.waits {
                book.interval(row, State::Wait, start, end);
                if holdable {
                    book.begin(row, State::Held, end);
                }
            } else if holdable {
                book.end(row, State::Held, start);
            }
            if let Some(mutex) = fields.iter().find(|f| f.key == COND_MUTEX) {
                // The wait releases its mutex and takes it back on return.
                let mutex = book.row(t, &format!("mutex {}", mutex.value), "mutex", false);
                if book.end(mutex, State::Held, start) {
                    book.begin(mutex, State::Held, end);
                }
            }
            book.mark(Mark {
                row,
                time: start,
                api: scaler_api(m.first, m.waits),
                name,
                read: 0,
                written: 0,
                failed: false,
                source: Source::Span { thread: t, index },
            });
        }
    }
    book
}

/// The API a Scaler call stands for, by the object it names and whether
/// it can block.
fn scaler_api(first: &str, waits: bool) -> &'static str {
    match (first, waits) {
        ("cond", true) => "cond wait",
        ("cond", false) => "notify",
        ("sem", true) => "sem wait",
        ("sem", false) => "sem post",
        ("barrier", _) => "barrier wait",
        (JOINED_THREAD, _) => "join",
        (_, true) => "lock",
        (_, false) => "unlock",
    }
}
