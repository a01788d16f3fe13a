//! Collapsed stacks (`a;b;c weight` lines), as flamegraph.pl and speedscope
//! read them. For uftrace the output matches `uftrace dump --flame-graph`:
//! the same sample unit, rounding and stacks, quirks included.
//!
//! One file holds one unit, so a trace with spans is written as span self
//! times; a trace without spans is written from its sample sets (first weight
//! column) and allocations (by size), each under a root frame naming the set
//! when there is more than one.

use crate::model::{Format, StrId, Thread, Trace, SPAN_ABANDONED, SPAN_OFF_CPU};
use std::collections::HashMap;

/// The trace as collapsed stacks.
pub fn to_collapsed(trace: &Trace) -> String {
    if trace.format == Some(Format::Uftrace) {
        uftrace_flame_graph(trace)
    } else {
        exact(trace)
    }
}

/// Self time per distinct stack, in the trace's unit, stacks in first-seen
/// order; for a trace without spans, its weighted stacks.
pub fn exact(trace: &Trace) -> String {
    if trace.threads.iter().all(|t| t.spans.is_empty()) {
        return weighted(trace);
    }
    let mut order: Vec<Vec<StrId>> = Vec::new();
    let mut weights: HashMap<Vec<StrId>, i64> = HashMap::new();
    for thread in &trace.threads {
        let s = &thread.spans;
        let self_times = self_times(s);
        let mut stack: Vec<StrId> = Vec::new();
        for (i, self_time) in self_times.into_iter().enumerate() {
            stack.truncate(usize::from(s.depth[i]));
            stack.push(s.name[i]);
            if !weights.contains_key(&stack) {
                order.push(stack.clone());
            }
            *weights.entry(stack.clone()).or_default() += self_time;
        }
    }
    let mut out = String::new();
    for stack in order {
        let weight = weights.get(&stack).copied().unwrap_or(0);
        if weight > 0 {
            let names: Vec<&str> = stack.iter().map(|&n| trace.str(n)).collect();
            out.push_str(&format!("{} {weight}\n", names.join(";")));
        }
    }
    out
}

/// Sample sets and allocations as collapsed stacks, merged per distinct stack.
pub fn weighted(trace: &Trace) -> String {
    let mut sections: Vec<(String, Vec<(u32, i64)>)> = Vec::new();
    for set in &trace.sample_sets {
        let Some(weights) = set.weights.first() else {
            continue;
        };
        let unit = set.weight_names.first().map_or("", String::as_str);
        let pairs = set.stack.iter().copied().zip(weights.iter().copied());
        sections.push((format!("{} ({unit})", set.name), pairs.collect()));
    }
    for a in &trace.allocations {
        let sizes = a.size.iter().map(|&s| i64::try_from(s).unwrap_or(i64::MAX));
        let pairs = a.stack.iter().copied().zip(sizes);
        sections.push((
            format!("{} allocations ({})", a.resource, a.size_unit),
            pairs.collect(),
        ));
    }
    let prefix = sections.len() > 1;
    let mut out = String::new();
    for (title, pairs) in sections {
        let mut order: Vec<u32> = Vec::new();
        let mut sums: HashMap<u32, i64> = HashMap::new();
        for (stack, weight) in pairs {
            let sum = sums.entry(stack).or_insert_with(|| {
                order.push(stack);
                0
            });
            *sum = sum.saturating_add(weight.max(0));
        }
        for stack in order {
            let weight = sums.get(&stack).copied().unwrap_or(0);
            let names: Vec<String> = trace
                .stacks
                .frames(stack)
                .into_iter()
                .map(|f| trace.str(f).replace(';', ":"))
                .collect();
            if weight <= 0 || names.is_empty() {
                continue;
            }
            if prefix {
                out.push_str(&title.replace(';', ":"));
                out.push(';');
            }
            out.push_str(&format!("{} {weight}\n", names.join(";")));
        }
    }
    out
}

/// Each span's duration minus its direct children's.
fn self_times(s: &crate::model::Spans) -> Vec<i64> {
    let mut self_times: Vec<i64> = s.end.iter().zip(&s.start).map(|(e, b)| e - b).collect();
    let mut open: Vec<usize> = Vec::new();
    for i in 0..s.len() {
        open.truncate(usize::from(s.depth[i]));
        if let Some(&parent) = open.last() {
            self_times[parent] -= s.end[i] - s.start[i];
        }
        open.push(i);
    }
    self_times
}

/// One node of uftrace's flame graph.
struct Node {
    name: StrId,
    parent: usize,
    children: Vec<usize>,
    time: u64,
    child_time: u64,
}

/// Replays the spans through uftrace's graph rules (`utils/graph.c`): a node
/// per name under the current node; every return — including the end of a
/// pre-empted off-CPU span, whose start opened no node — leaves the current
/// node; a parent's child time counts each child call rounded down to whole
/// samples.
pub fn uftrace_flame_graph(trace: &Trace) -> String {
    let unit = sample_unit(trace);
    let preempted = trace
        .strings
        .all()
        .iter()
        .position(|s| s == "linux:schedule (pre-empted)")
        .map(|p| p as StrId);
    let mut nodes = vec![Node {
        name: StrId::MAX,
        parent: 0,
        children: Vec::new(),
        time: 0,
        child_time: 0,
    }];
    for thread in &trace.threads {
        replay_thread(thread, unit, preempted, &mut nodes);
    }
    let mut out = String::new();
    print(&nodes, unit, trace, &mut out);
    out
}

fn replay_thread(thread: &Thread, unit: u64, preempted: Option<StrId>, nodes: &mut Vec<Node>) {
    let s = &thread.spans;
    let mut current = 0usize;
    // Open frames: (span index, raw child time).
    let mut frames: Vec<(usize, u64)> = Vec::new();
    let exit = |frames: &mut Vec<(usize, u64)>, current: &mut usize, nodes: &mut Vec<Node>| {
        let Some((span, child)) = frames.pop() else {
            return;
        };
        let total = (s.end[span] - s.start[span]).max(0) as u64;
        let abandoned = s.flags[span] & SPAN_ABANDONED != 0;
        if abandoned {
            return;
        }
        if let Some(parent) = frames.last_mut() {
            parent.1 += total;
        }
        let node = *current;
        nodes[node].time = nodes[node].time.wrapping_add(total);
        nodes[node].child_time = nodes[node].child_time.wrapping_add(child);
        if node != 0 {
            let parent = nodes[node].parent;
            let rounded = total / unit * unit;
            nodes[parent].child_time = nodes[parent]
                .child_time
                .wrapping_sub(total)
                .wrapping_add(rounded);
            *current = parent;
        } else {
            *current = 0;
        }
    };
    for i in 0..s.len() {
        while frames.len() > usize::from(s.depth[i]) {
            exit(&mut frames, &mut current, nodes);
        }
        let is_preempted = s.flags[i] & SPAN_OFF_CPU != 0 && Some(s.name[i]) == preempted;
        if !is_preempted {
            current = child_named(nodes, current, s.name[i]);
        }
        frames.push((i, 0));
    }
    while !frames.is_empty() {
        exit(&mut frames, &mut current, nodes);
    }
}

fn child_named(nodes: &mut Vec<Node>, parent: usize, name: StrId) -> usize {
    if let Some(&c) = nodes[parent]
        .children
        .iter()
        .find(|&&c| nodes[c].name == name)
    {
        return c;
    }
    let index = nodes.len();
    nodes.push(Node {
        name,
        parent,
        children: Vec::new(),
        time: 0,
        child_time: 0,
    });
    nodes[parent].children.push(index);
    index
}

/// Writes every node with whole samples, depth first, children in order.
/// Iterative: a 100 000-deep call stack must not overflow the thread's stack.
fn print(nodes: &[Node], unit: u64, trace: &Trace, out: &mut String) {
    let mut path: Vec<&str> = Vec::new();
    // (node, whether its children were pushed yet)
    let mut todo: Vec<(usize, bool)> = nodes[0]
        .children
        .iter()
        .rev()
        .map(|&c| (c, false))
        .collect();
    while let Some((at, expanded)) = todo.pop() {
        if expanded {
            path.pop();
            continue;
        }
        path.push(trace.str(nodes[at].name));
        let samples = nodes[at].time.wrapping_sub(nodes[at].child_time) / unit;
        if samples > 0 {
            out.push_str(&path.join(";"));
            out.push_str(&format!(" {samples}\n"));
        }
        todo.push((at, true));
        todo.extend(nodes[at].children.iter().rev().map(|&c| (c, false)));
    }
}

/// uftrace's flame-graph sample: 1 µs, times 10 until a million samples
/// cover the recording's elapsed time (at most 1 s).
fn sample_unit(trace: &Trace) -> u64 {
    let elapsed = trace
        .metadata
        .iter()
        .find(|(k, _)| k == "elapsed")
        .and_then(|(_, v)| v.split_whitespace().next()?.parse::<f64>().ok())
        .map(|secs| (secs * 1e9) as u64)
        .or_else(|| trace.time_range().map(|(a, b)| (b - a).max(0) as u64))
        .unwrap_or(0);
    let mut unit = 1000u64;
    while unit * 1_000_000 < elapsed && unit < 1_000_000_000 {
        unit *= 10;
    }
    unit
}
