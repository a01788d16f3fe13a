//! speedscope's JSON file format (`https://www.speedscope.app/file-format-schema.json`):
//! one evented profile per thread with spans (open/close events), one sampled
//! profile per sample set and weight column, and one sampled profile per
//! allocation resource weighted by size.
//!
//! speedscope rejects an evented profile whose events go back in time or close
//! a frame that is not on top of its stack, so events are written from the
//! span nesting with times clamped to be non-decreasing and inside the parent.

use crate::model::{Thread, TimeUnit, Trace};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The trace as a speedscope JSON document.
pub fn to_speedscope_json(trace: &Trace) -> String {
    let mut frames = Frames::default();
    let mut profiles: Vec<Value> = Vec::new();
    let time_unit = match trace.time_unit {
        Some(TimeUnit::Ns) => "nanoseconds",
        Some(TimeUnit::Us) => "microseconds",
        _ => "none",
    };
    for (t, thread) in trace.threads.iter().enumerate() {
        if thread.spans.is_empty() {
            continue;
        }
        profiles.push(evented(trace, t, thread, time_unit, &mut frames));
    }
    for set in &trace.sample_sets {
        let owner = set
            .thread
            .map(|t| format!(" — {}", thread_label(trace, t as usize)))
            .unwrap_or_default();
        for (column, weight_name) in set.weight_names.iter().enumerate() {
            let Some(weights) = set.weights.get(column) else {
                continue;
            };
            let name = format!("{} ({weight_name}){owner}", set.name);
            let stacks = set.stack.iter().copied().zip(weights.iter().copied());
            profiles.push(sampled(
                trace,
                name,
                unit_of(weight_name),
                stacks,
                &mut frames,
            ));
        }
    }
    for allocations in &trace.allocations {
        let name = format!(
            "{} allocations by {}",
            allocations.resource, allocations.size_unit
        );
        let stacks = allocations.stack.iter().copied().zip(
            allocations
                .size
                .iter()
                .map(|&s| i64::try_from(s).unwrap_or(i64::MAX)),
        );
        let unit = unit_of(&allocations.size_unit);
        profiles.push(sampled(trace, name, unit, stacks, &mut frames));
    }
    let name = trace
        .metadata
        .iter()
        .find(|(k, _)| k == "cmdline" || k == "command")
        .map_or_else(
            || trace.format.map_or("trace", |f| f.name()).to_owned(),
            |(_, v)| v.clone(),
        );
    let document = json!({
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "shared": { "frames": frames.list },
        "profiles": profiles,
        "name": name,
        "activeProfileIndex": 0,
        "exporter": concat!("flamedrop ", env!("CARGO_PKG_VERSION")),
    });
    let mut text = document.to_string();
    text.push('\n');
    text
}

/// speedscope's unit for a weight or size name.
fn unit_of(weight_name: &str) -> &'static str {
    match weight_name {
        "bytes" => "bytes",
        "ns" | "nanoseconds" => "nanoseconds",
        "us" | "microseconds" => "microseconds",
        "ms" | "milliseconds" => "milliseconds",
        _ => "none",
    }
}

/// The shared frame list, one entry per distinct name.
#[derive(Default)]
struct Frames {
    list: Vec<Value>,
    index: HashMap<String, usize>,
}

impl Frames {
    fn of(&mut self, name: &str) -> usize {
        if let Some(&at) = self.index.get(name) {
            return at;
        }
        let at = self.list.len();
        self.list.push(json!({ "name": name }));
        self.index.insert(name.to_owned(), at);
        at
    }
}

fn thread_label(trace: &Trace, t: usize) -> String {
    let Some(thread) = trace.threads.get(t) else {
        return String::new();
    };
    let process = trace
        .processes
        .get(thread.process as usize)
        .map_or("", |p| p.name.as_str());
    match (process.is_empty(), thread.name.is_empty()) {
        (false, false) if process != thread.name => {
            format!("{process} / {} {}", thread.name, thread.id)
        }
        (_, false) => format!("{} {}", thread.name, thread.id),
        (false, true) => format!("{process} {}", thread.id),
        (true, true) => format!("thread {}", thread.id),
    }
}

/// A thread's spans as open/close events.
fn evented(trace: &Trace, t: usize, thread: &Thread, unit: &str, frames: &mut Frames) -> Value {
    let s = &thread.spans;
    let (first, last) = thread.time_range().unwrap_or((0, 0));
    let start_value = s.start.first().copied().unwrap_or(first).min(first);
    let mut events: Vec<Value> = Vec::with_capacity(s.len() * 2);
    // Open frames: (frame index, clamped end time).
    let mut open: Vec<(usize, i64)> = Vec::new();
    let mut now = start_value;
    let close = |open: &mut Vec<(usize, i64)>, now: &mut i64, events: &mut Vec<Value>| {
        if let Some((frame, end)) = open.pop() {
            *now = (*now).max(end);
            events.push(json!({ "type": "C", "frame": frame, "at": *now }));
        }
    };
    for i in 0..s.len() {
        while open.len() > usize::from(s.depth[i]) {
            close(&mut open, &mut now, &mut events);
        }
        let frame = frames.of(trace.str(s.name[i]));
        now = now.max(s.start[i]);
        // A child never outlives its parent in speedscope's stack.
        let parent_end = open.last().map_or(i64::MAX, |&(_, end)| end);
        let end = s.end[i].max(now).min(parent_end.max(now));
        events.push(json!({ "type": "O", "frame": frame, "at": now }));
        open.push((frame, end));
    }
    while !open.is_empty() {
        close(&mut open, &mut now, &mut events);
    }
    let end_value = now.max(last);
    json!({
        "type": "evented",
        "name": thread_label(trace, t),
        "unit": unit,
        "startValue": start_value,
        "endValue": end_value,
        "events": events,
    })
}

/// Weighted stacks as a sampled profile (stacks root first).
fn sampled(
    trace: &Trace,
    name: String,
    unit: &str,
    stacks: impl Iterator<Item = (u32, i64)>,
    frames: &mut Frames,
) -> Value {
    let mut samples: Vec<Vec<usize>> = Vec::new();
    let mut weights: Vec<i64> = Vec::new();
    // Many samples share a stack: resolve each stack once.
    let mut resolved: HashMap<u32, Vec<usize>> = HashMap::new();
    for (stack, weight) in stacks {
        let weight = weight.max(0);
        if weight == 0 {
            continue;
        }
        let path = resolved
            .entry(stack)
            .or_insert_with(|| {
                trace
                    .stacks
                    .frames(stack)
                    .into_iter()
                    .map(|f| frames.of(trace.str(f)))
                    .collect()
            })
            .clone();
        samples.push(path);
        weights.push(weight);
    }
    let total = weights.iter().fold(0i64, |a, &w| a.saturating_add(w));
    json!({
        "type": "sampled",
        "name": name,
        "unit": unit,
        "startValue": 0,
        "endValue": total,
        "samples": samples,
        "weights": weights,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, TraceBuilder};

    fn tiny() -> Trace {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "app");
        let t = b.thread(p, "1", "main");
        let (main, work) = (b.intern("main"), b.intern("work"));
        b.begin(t, 10, main, 0);
        b.begin(t, 20, work, 0);
        b.end(t, 30);
        b.end(t, 50);
        let stack = b.stack(&[main, work]).expect("stack");
        let set = b.sample_set("CPU samples", Some(t), &["samples"]);
        b.sample(set, Some(25), stack, &[3]);
        let heap = b.resource("memory", "bytes");
        b.allocate(heap, t, 22, 64, 0x1000, stack);
        b.finish()
    }

    #[test]
    fn profiles_follow_the_file_format_schema() {
        let doc: Value = serde_json::from_str(&to_speedscope_json(&tiny())).expect("JSON");
        assert_eq!(
            doc["$schema"],
            "https://www.speedscope.app/file-format-schema.json"
        );
        let frames = doc["shared"]["frames"].as_array().expect("frames");
        let names: Vec<&str> = frames.iter().filter_map(|f| f["name"].as_str()).collect();
        assert_eq!(names, ["main", "work"]);
        let profiles = doc["profiles"].as_array().expect("profiles");
        let kinds: Vec<&str> = profiles.iter().filter_map(|p| p["type"].as_str()).collect();
        assert_eq!(kinds, ["evented", "sampled", "sampled"]);

        let evented = &profiles[0];
        assert_eq!(evented["unit"], "nanoseconds");
        assert_eq!(evented["startValue"], 10);
        assert_eq!(evented["endValue"], 50);
        let events: Vec<(String, u64, i64)> = evented["events"]
            .as_array()
            .expect("events")
            .iter()
            .map(|e| {
                (
                    e["type"].as_str().unwrap_or("").to_owned(),
                    e["frame"].as_u64().unwrap_or(99),
                    e["at"].as_i64().unwrap_or(-1),
                )
            })
            .collect();
        let expected = [("O", 0, 10), ("O", 1, 20), ("C", 1, 30), ("C", 0, 50)];
        let expected: Vec<(String, u64, i64)> = expected
            .iter()
            .map(|&(k, f, a)| (k.to_owned(), f, a))
            .collect();
        assert_eq!(events, expected);

        let samples = &profiles[1];
        assert_eq!(samples["unit"], "none");
        assert_eq!(samples["samples"], json!([[0, 1]]));
        assert_eq!(samples["weights"], json!([3]));
        assert_eq!(samples["endValue"], 3);

        let heap = &profiles[2];
        assert_eq!(heap["unit"], "bytes");
        assert_eq!(heap["weights"], json!([64]));
    }

    #[test]
    fn events_never_go_back_in_time_and_always_close_the_top_frame() {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Us);
        let p = b.process("1", "app");
        let t = b.thread(p, "1", "main");
        let (a, c) = (b.intern("a"), b.intern("c"));
        b.begin(t, 0, a, 0);
        b.begin(t, 5, c, 0);
        b.begin(t, 6, a, 0); // recursion: the same frame open twice
        b.end(t, 7);
        b.end(t, 8);
        b.end(t, 9);
        b.begin(t, 9, c, 0); // never ends: closed at the end of the thread
        let doc: Value = serde_json::from_str(&to_speedscope_json(&b.finish())).expect("JSON");
        let events = doc["profiles"][0]["events"].as_array().expect("events");
        let mut stack = Vec::new();
        let mut last = i64::MIN;
        for e in events {
            let at = e["at"].as_i64().expect("at");
            assert!(at >= last, "time went back at {e}");
            last = at;
            match e["type"].as_str() {
                Some("O") => stack.push(e["frame"].clone()),
                Some("C") => assert_eq!(stack.pop().as_ref(), Some(&e["frame"])),
                other => panic!("unexpected event type {other:?}"),
            }
        }
        assert!(stack.is_empty());
        assert_eq!(doc["profiles"][0]["unit"], "microseconds");
    }
}
