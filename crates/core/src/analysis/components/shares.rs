//! From per-thread tallies to the rows shown: percentages, the "other" row,
//! the call matrix and Scaler's serial vs parallel view.
//!
//! Rules from Scaler's analyzer (`Analyzer/PyVisualizer/src/V2/Converter.py`):
//! `useThreshold` sums every entry under the threshold percentage into one
//! "under threshold" entry, per thread when the data is per thread;
//! `excludeMainThread` keeps the main thread's numbers, divides the other
//! threads' summed numbers by their count and adds the two.

use super::attribute::{Acc, Edges, Tally};
use super::naming::Components;
use super::{CallEdge, LibraryTime, ScaledLibrary, SerialParallel};
use crate::model::Trace;

/// The name of the row that sums the small ones.
pub(super) const OTHER: &str = "other";

/// `part` in percent of `whole` (0 when there is no whole).
pub(super) fn percent(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        part * 100.0 / whole
    } else {
        0.0
    }
}

/// One row per component with any time or call, largest share first.
pub(super) fn rows(
    by_component: &[Acc],
    names: &Components,
    thread_time: i64,
    process_time: i64,
) -> Vec<LibraryTime> {
    let mut rows: Vec<LibraryTime> = by_component
        .iter()
        .enumerate()
        .filter(|(_, a)| **a != Acc::default())
        .map(|(n, a)| LibraryTime {
            library: names.name(n as u32).to_owned(),
            self_time: a.self_time,
            wait: a.wait,
            join: a.join,
            inclusive: a.inclusive,
            calls: a.calls,
            local_percent: percent(a.attributed() as f64, thread_time as f64),
            global_percent: percent(a.attributed() as f64, process_time as f64),
            grouped: Vec::new(),
        })
        .collect();
    rows.sort_by(|a, b| {
        (b.self_time + b.wait)
            .cmp(&(a.self_time + a.wait))
            .then(b.inclusive.cmp(&a.inclusive))
            .then_with(|| a.library.cmp(&b.library))
    });
    rows
}

/// Sums the rows whose share (local % when `local`, else global %) is
/// under `below` percent into one last "other" row.
pub(super) fn group_other(rows: Vec<LibraryTime>, below: f64, local: bool) -> Vec<LibraryTime> {
    if below <= 0.0 {
        return rows;
    }
    let share = |r: &LibraryTime| {
        if local {
            r.local_percent
        } else {
            r.global_percent
        }
    };
    let (small, mut kept): (Vec<_>, Vec<_>) = rows.into_iter().partition(|r| share(r) < below);
    if small.is_empty() {
        return kept;
    }
    let mut other = LibraryTime {
        library: OTHER.into(),
        ..LibraryTime::default()
    };
    for r in small {
        other.self_time += r.self_time;
        other.wait += r.wait;
        other.join += r.join;
        other.inclusive += r.inclusive;
        other.calls += r.calls;
        other.local_percent += r.local_percent;
        other.global_percent += r.global_percent;
        other.grouped.push(r.library);
    }
    kept.push(other);
    kept
}

/// The matrix's entries, most calls first.
pub(super) fn matrix(edges: &Edges, names: &Components) -> Vec<CallEdge> {
    let mut out: Vec<CallEdge> = edges
        .iter()
        .map(|(&(caller, callee), &(calls, time))| CallEdge {
            caller: names.name(caller).to_owned(),
            callee: names.name(callee).to_owned(),
            calls,
            time,
        })
        .collect();
    out.sort_by(|a, b| {
        b.calls
            .cmp(&a.calls)
            .then(b.time.cmp(&a.time))
            .then_with(|| (&a.caller, &a.callee).cmp(&(&b.caller, &b.callee)))
    });
    out
}

/// Every thread's components and call edges added up.
pub(super) fn merged(tallies: &[(u32, Tally)]) -> (Vec<Acc>, Edges) {
    let mut all: Vec<Acc> = Vec::new();
    let mut edges = Edges::default();
    for (_, tally) in tallies {
        add_accs(&mut all, &tally.by_component);
        for (&key, &(calls, time)) in &tally.edges {
            let e = edges.entry(key).or_default();
            e.0 += calls;
            e.1 += time;
        }
    }
    (all, edges)
}

fn add_accs(into: &mut Vec<Acc>, from: &[Acc]) {
    if into.len() < from.len() {
        into.resize(from.len(), Acc::default());
    }
    for (a, b) in into.iter_mut().zip(from) {
        a.add(b);
    }
}

/// The main thread: the one whose `pthread_create` came first, else the
/// first thread that has any time.
pub(super) fn main_thread(tallies: &[(u32, Tally)]) -> Option<u32> {
    let creator = tallies
        .iter()
        .filter_map(|(t, tally)| Some((tally.first_create?, *t)))
        .min()
        .map(|(_, t)| t);
    creator.or_else(|| {
        tallies
            .iter()
            .find(|(_, tally)| tally.time > 0 || !tally.functions.is_empty())
            .map(|(t, _)| *t)
    })
}

/// The main thread kept, the others averaged; `None` without another
/// thread that made a call.
pub(super) fn serial_parallel(
    trace: &Trace,
    tallies: &[(u32, Tally)],
    main: u32,
    names: &Components,
) -> Option<SerialParallel> {
    let (main_tally, workers): (Vec<_>, Vec<_>) = tallies.iter().partition(|(t, _)| *t == main);
    let workers: Vec<_> = workers
        .into_iter()
        .filter(|(_, t)| !t.functions.is_empty())
        .collect();
    let (_, main_tally) = main_tally.first()?;
    if workers.is_empty() {
        return None;
    }
    let mut summed: Vec<Acc> = Vec::new();
    for (_, w) in &workers {
        add_accs(&mut summed, &w.by_component);
    }
    let n = workers.len() as f64;
    let count = main_tally.by_component.len().max(summed.len());
    let mut libraries: Vec<ScaledLibrary> = (0..count)
        .filter_map(|c| {
            let m = main_tally.by_component.get(c).copied().unwrap_or_default();
            let w = summed.get(c).copied().unwrap_or_default();
            if m == Acc::default() && w == Acc::default() {
                return None;
            }
            Some(ScaledLibrary {
                library: names.name(c as u32).to_owned(),
                self_time: m.self_time as f64 + w.self_time as f64 / n,
                wait: m.wait as f64 + w.wait as f64 / n,
                inclusive: m.inclusive as f64 + w.inclusive as f64 / n,
                percent: 0.0,
            })
        })
        .collect();
    let total: f64 = libraries.iter().map(|l| l.self_time + l.wait).sum();
    for l in &mut libraries {
        l.percent = percent(l.self_time + l.wait, total);
    }
    libraries.sort_by(|a, b| {
        (b.self_time + b.wait)
            .total_cmp(&(a.self_time + a.wait))
            .then_with(|| a.library.cmp(&b.library))
    });
    Some(SerialParallel {
        main_thread: trace
            .threads
            .get(main as usize)
            .map(|t| t.id.clone())
            .unwrap_or_default(),
        workers: workers.len() as u32,
        libraries,
    })
}
