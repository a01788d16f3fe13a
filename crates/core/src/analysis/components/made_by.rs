//! sp-rtrace's calls: the module that made each one.
//!
//! sp-rtrace records no call nesting: every traced call (`malloc`, `fopen`,
//! …) is one step with the backtrace it was made from, and the function
//! itself names no library. What a component view can say there is which
//! module made the calls: the module mapped at the first return address of
//! the call's backtrace (the call's `backtrace` detail `#N` is row N of the
//! `backtraces` table; the `mappings` table holds each module's range), as
//! `sp-rtrace-postproc -r` names that frame (`… from /path/module`). Calls
//! recorded without a backtrace count for the program.

use crate::model::{Format, Table, Trace};
use std::collections::HashMap;

/// Per (thread index, call time), the module that made the call; empty for
/// formats other than sp-rtrace.
pub(super) fn modules_making_calls(trace: &Trace) -> HashMap<(u32, i64), String> {
    let mut out = HashMap::new();
    if trace.format != Some(Format::SpRtrace) {
        return out;
    }
    let by_backtrace = modules_of_backtraces(trace);
    if by_backtrace.iter().all(Option::is_none) {
        return out;
    }
    for (t, thread) in trace.threads.iter().enumerate() {
        let spans = &thread.spans;
        for (index, fields) in spans.details.grouped(&trace.strings) {
            let Some(&time) = spans.start.get(index as usize) else {
                continue;
            };
            let module = fields
                .iter()
                .find(|f| f.key == "backtrace")
                .and_then(|f| f.value.strip_prefix('#')?.parse::<usize>().ok())
                .and_then(|n| by_backtrace.get(n).cloned().flatten());
            if let Some(module) = module {
                out.insert((t as u32, time), module);
            }
        }
    }
    out
}

/// Per backtrace number, the file name of the module its first return
/// address lies in.
fn modules_of_backtraces(trace: &Trace) -> Vec<Option<String>> {
    let table = |id: &str| trace.tables.iter().find(|t| t.id == id);
    let (Some(backtraces), Some(mappings)) = (table("backtraces"), table("mappings")) else {
        return Vec::new();
    };
    let ranges = module_ranges(mappings);
    backtraces
        .rows
        .iter()
        .map(|row| {
            // Columns: backtrace, calls, frames, return addresses.
            let first = row.get(3)?.split_whitespace().next()?;
            let address = u64::from_str_radix(first.strip_prefix("0x")?, 16).ok()?;
            ranges
                .iter()
                .find(|(from, to, _)| (*from..*to).contains(&address))
                .map(|(_, _, module)| module.clone())
        })
        .collect()
}

/// (from, to, file name) of each mapped module.
fn module_ranges(mappings: &Table) -> Vec<(u64, u64, String)> {
    let hex = |text: &str| u64::from_str_radix(text.strip_prefix("0x")?, 16).ok();
    mappings
        .rows
        .iter()
        .filter_map(|row| {
            let (from, to, path) = (hex(row.first()?)?, hex(row.get(1)?)?, row.get(2)?);
            let name = path.rsplit('/').next().filter(|n| !n.is_empty())?;
            Some((from, to, name.to_owned()))
        })
        .collect()
}
