//! Chrome trace event JSON: one complete (`X`) event per span, instant (`i`)
//! events for markers, metadata events naming processes and threads, counter
//! (`C`) events for counter tracks and for the live size of each allocated
//! resource, and the trace's stacks as `stackFrames` with one `samples` entry
//! per timed sample (sets without a timeline are placed at the trace's start).

use crate::model::{
    Allocations, Spans, Thread, TimeUnit, Trace, NEVER_FREED, NO_PARENT, SPAN_OPEN_AT_END,
};
use std::fmt::Write;

/// The trace as a Chrome trace JSON object (timestamps in microseconds).
pub fn to_chrome_json(trace: &Trace) -> String {
    let scale = match trace.time_unit {
        Some(TimeUnit::Ns) => 0.001,
        _ => 1.0,
    };
    let mut events = Events {
        trace,
        scale,
        out: String::with_capacity(1 << 16),
        first: true,
    };
    events.out.push_str("{\"traceEvents\":[\n");
    events.processes();
    for (t, thread) in trace.threads.iter().enumerate() {
        events.thread(t, thread);
    }
    events.counters();
    events.allocations();
    let mut out = events.out;
    out.push_str("\n],\"stackFrames\":{");
    stack_frames(trace, &mut out);
    out.push_str("},\"samples\":[");
    samples(trace, scale, &mut out);
    out.push_str("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{");
    let meta: Vec<String> = trace
        .metadata
        .iter()
        .map(|(k, v)| format!("{}:{}", json(k), json(v)))
        .collect();
    out.push_str(&meta.join(","));
    out.push_str("}}\n");
    out
}

/// The `traceEvents` list being written.
struct Events<'t> {
    trace: &'t Trace,
    /// Microseconds per unit of the trace's times.
    scale: f64,
    out: String,
    first: bool,
}

impl Events<'_> {
    /// Starts the next event: a separator unless it is the first.
    fn next(&mut self) -> &mut String {
        if !std::mem::take(&mut self.first) {
            self.out.push_str(",\n");
        }
        &mut self.out
    }

    fn processes(&mut self) {
        for (p, process) in self.trace.processes.iter().enumerate() {
            let _ = write!(
                self.next(),
                "{{\"ph\":\"M\",\"pid\":{},\"tid\":0,\"name\":\"process_name\",\"args\":{{\"name\":{}}}}}",
                numeric_id(&process.id, p),
                json(&process.name)
            );
        }
    }

    /// A thread's name, spans and markers.
    fn thread(&mut self, t: usize, thread: &Thread) {
        let trace = self.trace;
        let pid = trace
            .processes
            .get(thread.process as usize)
            .map_or(0, |p| numeric_id(&p.id, thread.process as usize));
        let tid = numeric_id(&thread.id, t);
        let _ = write!(
            self.next(),
            "{{\"ph\":\"M\",\"pid\":{pid},\"tid\":{tid},\"name\":\"thread_name\",\"args\":{{\"name\":{}}}}}",
            json(&format!("{} {}", thread.name, thread.id))
        );
        let s = &thread.spans;
        for i in 0..s.len() {
            let scale = self.scale;
            let out = self.next();
            let _ = write!(
                out,
                "{{\"ph\":\"X\",\"pid\":{pid},\"tid\":{tid},\"ts\":{},\"dur\":{},\"name\":{}",
                s.start[i] as f64 * scale,
                (s.end[i] - s.start[i]) as f64 * scale,
                json(trace.str(s.name[i]))
            );
            span_args(trace, s, i, out);
            out.push('}');
        }
        for i in 0..thread.instants.len() {
            let scale = self.scale;
            let _ = write!(
                self.next(),
                "{{\"ph\":\"i\",\"s\":\"t\",\"pid\":{pid},\"tid\":{tid},\"ts\":{},\"name\":{}}}",
                thread.instants.time[i] as f64 * scale,
                json(trace.str(thread.instants.name[i]))
            );
        }
    }

    fn counters(&mut self) {
        let trace = self.trace;
        for counter in &trace.counters {
            let pid = counter_pid(trace, counter.process, counter.thread);
            let name = json(&format!("{} ({})", counter.name, counter.unit));
            for (time, value) in counter.time.iter().zip(&counter.value) {
                let value = if value.is_finite() { *value } else { 0.0 };
                let scale = self.scale;
                let _ = write!(
                    self.next(),
                    "{{\"ph\":\"C\",\"pid\":{pid},\"tid\":0,\"ts\":{},\"name\":{name},\"args\":{{\"value\":{value}}}}}",
                    *time as f64 * scale
                );
            }
        }
    }

    /// A counter of the live size of each allocated resource.
    fn allocations(&mut self) {
        for allocations in &self.trace.allocations {
            let name = json(&format!(
                "live {} ({})",
                allocations.resource, allocations.size_unit
            ));
            for (time, live) in live_over_time(allocations) {
                let scale = self.scale;
                let _ = write!(
                    self.next(),
                    "{{\"ph\":\"C\",\"pid\":0,\"tid\":0,\"ts\":{},\"name\":{name},\"args\":{{\"value\":{live}}}}}",
                    time as f64 * scale
                );
            }
        }
    }
}

/// The `args` of span `i`: its details, and whether it was open at the end.
fn span_args(trace: &Trace, s: &Spans, i: usize, out: &mut String) {
    let details = s.details_of(i as u32, &trace.strings);
    let open_at_end = s.flags[i] & SPAN_OPEN_AT_END != 0;
    if details.is_empty() && !open_at_end {
        return;
    }
    out.push_str(",\"args\":{");
    let mut fields: Vec<String> = details
        .iter()
        .map(|f| format!("{}:{}", json(&f.key), json(&f.value)))
        .collect();
    if open_at_end {
        fields.push("\"open_at_end\":true".into());
    }
    out.push_str(&fields.join(","));
    out.push('}');
}

/// The stack table as `stackFrames` entries.
fn stack_frames(trace: &Trace, out: &mut String) {
    let frames: Vec<String> = (0..trace.stacks.len())
        .map(|i| {
            let parent = trace.stacks.parent[i];
            let name = json(trace.str(trace.stacks.frame[i]));
            if parent == NO_PARENT {
                format!("\"{i}\":{{\"name\":{name}}}")
            } else {
                format!("\"{i}\":{{\"name\":{name},\"parent\":\"{parent}\"}}")
            }
        })
        .collect();
    out.push_str(&frames.join(","));
}

/// One `samples` entry per sample of every set (untimed ones at the trace's start).
fn samples(trace: &Trace, scale: f64, out: &mut String) {
    let origin = trace.time_range().map_or(0, |(start, _)| start);
    let mut first_sample = true;
    for set in &trace.sample_sets {
        let tid = set.thread.map_or(0, |t| {
            trace
                .threads
                .get(t as usize)
                .map_or(0, |th| numeric_id(&th.id, t as usize))
        });
        let name = json(&set.name);
        for i in 0..set.stack.len() {
            if !std::mem::take(&mut first_sample) {
                out.push(',');
            }
            let ts = set.time.get(i).copied().unwrap_or(origin) as f64 * scale;
            let weight = set
                .weights
                .first()
                .and_then(|w| w.get(i))
                .copied()
                .unwrap_or(1);
            let _ = write!(
                out,
                "\n{{\"cpu\":0,\"tid\":{tid},\"ts\":{ts},\"name\":{name},\"sf\":\"{}\",\"weight\":{weight}}}",
                set.stack[i]
            );
        }
    }
}

/// The pid a counter is drawn under: its process's, its thread's process's, or 0.
fn counter_pid(trace: &Trace, process: Option<u32>, thread: Option<u32>) -> u64 {
    let process = process.or_else(|| Some(trace.threads.get(thread? as usize)?.process));
    process
        .and_then(|p| Some((p, trace.processes.get(p as usize)?)))
        .map_or(0, |(p, found)| numeric_id(&found.id, p as usize))
}

/// Live size of a resource after each allocation and free, in time order.
pub(crate) fn live_over_time(allocations: &Allocations) -> Vec<(i64, u64)> {
    let mut changes: Vec<(i64, i128)> = Vec::with_capacity(allocations.len() * 2);
    for i in 0..allocations.len() {
        let size = i128::from(allocations.size[i]);
        changes.push((allocations.time[i], size));
        let freed = allocations.free_time[i];
        if freed != NEVER_FREED {
            changes.push((freed, -size));
        }
    }
    changes.sort_by_key(|&(time, _)| time);
    let mut live: i128 = 0;
    let mut out: Vec<(i64, u64)> = Vec::new();
    for (time, change) in changes {
        live += change;
        let value = u64::try_from(live.max(0)).unwrap_or(u64::MAX);
        match out.last_mut() {
            Some(last) if last.0 == time => last.1 = value,
            _ => out.push((time, value)),
        }
    }
    out
}

fn numeric_id(id: &str, fallback: usize) -> u64 {
    id.parse().unwrap_or(fallback as u64)
}

fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}
