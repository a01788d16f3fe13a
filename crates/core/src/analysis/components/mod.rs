//! Time by component: which library (Scaler image, uftrace / sp-rtrace
//! module, SELogger class) a program's time goes to, over all threads and
//! per thread, with waiting kept apart from working, the caller → callee
//! library matrix, Scaler's serial vs parallel view and a drill-down tree
//! thread → library → function. What Scaler's analyzer answers
//! (`Analyzer/PyVisualizer/src/V2/Converter.py`, `V3/util/Analyzer/XFA.py`),
//! for any trace made of calls.
//!
//! The rules (each file says which part it follows):
//! - `attribute`: every instant of a thread goes to one component, the one
//!   of the innermost call; a waiting call's time goes to its caller's
//!   component as waiting. A thread's time is its top-level calls' time.
//! - `naming`: a call's component is the library its function lives in,
//!   else the traced program; `made_by`: for sp-rtrace, the module that
//!   made the call.
//! - `waits`: which calls wait.
//! - `shares`: local % (of the thread) and global % (of the process), rows
//!   under a share grouped as "other", the main thread kept and the worker
//!   threads averaged.
//! - `drill`: the thread → library → function tree.
//!
//! Pure: the CLI's `flamedrop components` and the page call [`components`].

mod attribute;
mod drill;
mod made_by;
mod naming;
mod shares;
mod waits;

pub use drill::{DrillKind, DrillNode};
pub use naming::UNNAMED_PROGRAM;
pub use waits::{wait_kind, WaitKind};

use super::calltree::TimeRange;
use crate::model::Trace;
use attribute::{tally_thread, Tally};
use naming::Components as Names;
use serde::{Deserialize, Serialize};

/// What to look at.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ComponentsOptions {
    /// Only calls in this time range (clipped to it), in the trace's unit;
    /// `None`: the whole trace.
    pub range: Option<TimeRange>,
    /// Only these threads (indices into `Trace::threads`); `None`: all.
    pub threads: Option<Vec<u32>>,
    /// Rows whose share (local % in a thread's list, global % in the
    /// process's) is under this many percent are summed into one "other"
    /// row, as Scaler's analyzer does (`useThreshold`); 0 keeps every row.
    pub other_below: f64,
}

/// One component's time.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LibraryTime {
    /// The component (library, module, class; the program for its own code).
    pub library: String,
    /// Working time given to it: its calls' time minus their callees' (a
    /// callee of the same component stays with it).
    pub self_time: i64,
    /// Time its calls spent waiting (joins, condition, barrier, semaphore
    /// and lock waits, off-CPU), whichever library the wait function is in.
    pub wait: i64,
    /// The part of `wait` spent in `pthread_join` and its variants.
    pub join: i64,
    /// Time under its outermost calls, callees and waits included.
    pub inclusive: i64,
    /// Calls of its functions.
    pub calls: u64,
    /// `self_time + wait` in percent of the thread's time (of the process's
    /// in the process-wide list).
    pub local_percent: f64,
    /// `self_time + wait` in percent of the process's time.
    pub global_percent: f64,
    /// In the "other" row, the components it sums; empty elsewhere.
    pub grouped: Vec<String>,
}

/// Calls from one component into another (or into itself).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallEdge {
    /// The caller's component; the program for a thread's top-level calls.
    pub caller: String,
    pub callee: String,
    pub calls: u64,
    /// The calls' durations, summed (callees included).
    pub time: i64,
}

/// One thread's components.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ThreadComponents {
    /// Index into `Trace::threads`.
    pub index: u32,
    /// The thread's id as the tracer gave it.
    pub id: String,
    pub name: String,
    /// Its time: the sum of its top-level calls' durations.
    pub time: i64,
    /// True for the thread taken as the main one (see [`SerialParallel`]).
    pub main: bool,
    pub libraries: Vec<LibraryTime>,
    pub matrix: Vec<CallEdge>,
}

/// One component in the serial vs parallel view.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScaledLibrary {
    pub library: String,
    pub self_time: f64,
    pub wait: f64,
    pub inclusive: f64,
    /// `self_time + wait` in percent of the scaled total.
    pub percent: f64,
}

/// Scaler's serial vs parallel view (`Converter.py`, `excludeMainThread`):
/// the main thread's numbers kept, the other threads' averaged over them,
/// the two added. The main thread is the one that called `pthread_create`
/// first (`Parse_Scaler_Output.py`), else the first thread.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SerialParallel {
    pub main_thread: String,
    pub workers: u32,
    pub libraries: Vec<ScaledLibrary>,
}

/// Time by component over the chosen threads and range.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ComponentsReport {
    /// The trace's time unit (`us`, `ns`, `events`).
    pub time_unit: String,
    /// The process's time: the threads' times summed.
    pub time: i64,
    /// Every component over all chosen threads, largest share first.
    pub libraries: Vec<LibraryTime>,
    /// Caller → callee calls over all chosen threads.
    pub matrix: Vec<CallEdge>,
    pub threads: Vec<ThreadComponents>,
    /// `None` with fewer than two threads.
    pub serial_parallel: Option<SerialParallel>,
    /// Process → thread → component → function; libraries and functions
    /// under `other_below` percent of their thread moved under an "other"
    /// node.
    pub drill: DrillNode,
}

/// Time by component of `trace` as `options` choose.
pub fn components(trace: &Trace, options: &ComponentsOptions) -> ComponentsReport {
    let mut names = Names::new(trace);
    let chosen: Vec<u32> = match &options.threads {
        Some(list) => {
            let mut list: Vec<u32> = list
                .iter()
                .copied()
                .filter(|&t| (t as usize) < trace.threads.len())
                .collect();
            // A thread named twice counts once, in trace order.
            list.sort_unstable();
            list.dedup();
            list
        }
        None => (0..trace.threads.len() as u32).collect(),
    };
    let tallies: Vec<(u32, Tally)> = chosen
        .iter()
        .filter_map(|&t| {
            let thread = trace.threads.get(t as usize)?;
            Some((t, tally_thread(trace, t, thread, &mut names, options.range)))
        })
        .collect();
    let main = shares::main_thread(&tallies);
    let time: i64 = tallies.iter().map(|(_, t)| t.time).sum();
    let threads = tallies
        .iter()
        .map(|(index, tally)| {
            let thread = trace.threads.get(*index as usize);
            ThreadComponents {
                index: *index,
                id: thread.map(|t| t.id.clone()).unwrap_or_default(),
                name: thread.map(|t| t.name.clone()).unwrap_or_default(),
                time: tally.time,
                main: main == Some(*index),
                libraries: shares::group_other(
                    shares::rows(&tally.by_component, &names, tally.time, time),
                    options.other_below,
                    true,
                ),
                matrix: shares::matrix(&tally.edges, &names),
            }
        })
        .collect();
    let (all, edges) = shares::merged(&tallies);
    ComponentsReport {
        time_unit: trace.time_unit.map_or("", |u| u.name()).to_owned(),
        time,
        libraries: shares::group_other(
            shares::rows(&all, &names, time, time),
            options.other_below,
            false,
        ),
        matrix: shares::matrix(&edges, &names),
        threads,
        serial_parallel: main.and_then(|m| shares::serial_parallel(trace, &tallies, m, &names)),
        drill: drill::tree(trace, &tallies, &names, options.other_below),
    }
}

#[cfg(test)]
mod tests;
