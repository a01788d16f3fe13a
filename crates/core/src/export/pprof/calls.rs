//! Call traces as pprof samples: each thread's spans folded into call paths
//! (root to span, by name), each path one sample with its self time and its
//! calls, counted as the report counts them (an abandoned call adds nothing,
//! a later piece of a cut call adds time but no call).

use super::table::ProfileBuilder;
use crate::analysis::walk::walk_spans;
use crate::model::{StrId, Thread, Trace, SPAN_ABANDONED, SPAN_CONTINUED};
use std::collections::HashMap;

/// The root of a thread's call-path tree.
const ROOT: u32 = u32::MAX;

/// One call path of a thread: its parent path and last name.
struct Path {
    parent: u32,
    name: StrId,
    self_time: i64,
    calls: i64,
}

pub fn add_calls(builder: &mut ProfileBuilder, trace: &Trace) {
    let first = builder.column("time", super::time_unit_name(trace));
    builder.column("calls", "count");
    for (t, thread) in trace.threads.iter().enumerate() {
        if thread.spans.is_empty() {
            continue;
        }
        let label = builder.thread_label(trace, t as u32);
        for (locations, values) in thread_paths(builder, trace, thread) {
            builder.sample(locations, first, values, Some(label));
        }
    }
}

/// The thread's call paths as (locations leaf first, [self time, calls]).
fn thread_paths(
    builder: &mut ProfileBuilder,
    trace: &Trace,
    thread: &Thread,
) -> Vec<(Vec<u64>, Vec<i64>)> {
    let spans = &thread.spans;
    let mut paths: Vec<Path> = Vec::new();
    let mut index: HashMap<(u32, StrId), u32> = HashMap::new();
    let mut path_of_span: Vec<u32> = Vec::with_capacity(spans.len());
    let mut open: Vec<u32> = Vec::new();
    for (i, &name) in spans.name.iter().enumerate() {
        let depth = spans.depth.get(i).map_or(0, |&d| usize::from(d));
        open.truncate(depth);
        let parent = open.last().copied().unwrap_or(ROOT);
        let path = *index.entry((parent, name)).or_insert_with(|| {
            paths.push(Path {
                parent,
                name,
                self_time: 0,
                calls: 0,
            });
            paths.len() as u32 - 1
        });
        path_of_span.push(path);
        open.push(path);
    }
    walk_spans(spans, |visit| {
        if visit.flags & SPAN_ABANDONED != 0 {
            return;
        }
        let path = path_of_span.get(visit.index as usize);
        if let Some(path) = path.and_then(|&p| paths.get_mut(p as usize)) {
            path.self_time = path.self_time.saturating_add(visit.self_time);
            if visit.flags & SPAN_CONTINUED == 0 {
                path.calls += 1;
            }
        }
    });
    let mut out = Vec::with_capacity(paths.len());
    for p in &paths {
        let mut locations = Vec::new();
        let mut at = Some(p);
        while let Some(path) = at {
            locations.push(builder.location(trace, path.name));
            at = paths.get(path.parent as usize);
        }
        out.push((locations, vec![p.self_time, p.calls]));
    }
    out
}
