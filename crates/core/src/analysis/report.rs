//! The report: per-thread counts, per-function calls with total and self
//! time, allocation totals and diagnostics — the object `flamedrop report
//! --json` prints and `window.flamedrop.report()` returns (DESIGN.md §6).

use super::walk::{walk_spans, SpanVisit};
use crate::model::{
    Allocations, Severity, Spans, StrId, Thread, Trace, Value, COUNTED_DURATION_KEY, NEVER_FREED,
    SPAN_ABANDONED, SPAN_CONTINUED, SPAN_RECURSION_INVERTED, SPAN_START_REPAIRED,
};
use serde::{Deserialize, Serialize};

/// The report of one trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub format: String,
    pub time_unit: String,
    pub threads: Vec<ThreadReport>,
    pub functions: Vec<FunctionReport>,
    /// Totals of the heap (the `memory` resource, else the first one).
    pub allocations: AllocationReport,
    /// Totals per resource type, for formats that track several.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<ResourceReport>,
    pub diagnostics: Vec<DiagnosticReport>,
    /// The largest groups of blocks still live at the end, by allocation
    /// stack: at most [`LEAK_GROUPS_PER_RESOURCE`] per resource type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaks: Vec<LeakReport>,
}

/// Leak groups listed per resource type in [`Report::leaks`].
pub const LEAK_GROUPS_PER_RESOURCE: usize = 10;

/// Blocks of one resource type, allocated from one stack, never freed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeakReport {
    pub resource: String,
    pub count: u64,
    /// Sum of the blocks' sizes, in `size_unit`.
    pub bytes: u64,
    /// What sizes count (`bytes`, or `count` for descriptors and handles).
    #[serde(default)]
    pub size_unit: String,
    /// The allocation stack, innermost frame first.
    pub frames: Vec<String>,
}

/// Allocation totals of one resource type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceReport {
    pub resource: String,
    #[serde(flatten)]
    pub totals: AllocationReport,
    /// What the live size counts ("bytes", or "count" for descriptors and
    /// streams); for the text report only, the JSON keeps its shape.
    #[serde(default, skip_serializing)]
    pub size_unit: String,
}

/// Counts for one thread.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadReport {
    pub id: String,
    pub name: String,
    /// Raw input records the thread owns.
    pub events: u64,
    pub spans: u64,
    pub samples: u64,
    /// Number of nesting levels (1 for only top-level spans, 0 for none).
    pub max_depth: u32,
}

/// One function over all threads. `total` counts a recursive function once
/// per outermost call; `self` is time not spent in its callees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionReport {
    pub name: String,
    pub calls: u64,
    pub total: i64,
    #[serde(rename = "self")]
    pub self_time: i64,
}

/// Allocation totals (zero for formats that record no allocations).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocationReport {
    pub allocs: u64,
    pub frees: u64,
    pub alloc_bytes: u64,
    pub live_blocks: u64,
    pub live_bytes: u64,
}

/// One diagnostic as reported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnosticReport {
    pub severity: String,
    pub message: String,
    pub count: u64,
}

#[derive(Clone, Copy, Default)]
struct Totals {
    calls: u64,
    total: i64,
    self_time: i64,
}

/// Summarises a trace.
pub fn report(trace: &Trace) -> Report {
    let mut per_name = vec![Totals::default(); trace.strings.len()];
    let threads = trace
        .threads
        .iter()
        .enumerate()
        .map(|(index, thread)| thread_report(trace, index, thread, &mut per_name))
        .collect();
    let mut functions: Vec<FunctionReport> = per_name
        .iter()
        .enumerate()
        .filter(|(_, t)| t.calls > 0)
        .map(|(id, t)| FunctionReport {
            name: trace.str(id as u32).to_owned(),
            calls: t.calls,
            total: t.total,
            self_time: t.self_time,
        })
        .collect();
    functions.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.name.cmp(&b.name)));
    let mut diagnostics: Vec<DiagnosticReport> = trace
        .diagnostics
        .iter()
        .map(|d| DiagnosticReport {
            severity: d.severity.name().to_owned(),
            message: d.text(),
            count: d.count,
        })
        .collect();
    diagnostics.sort_by_key(|d| std::cmp::Reverse(severity_rank(&d.severity)));
    Report {
        format: trace.format.map_or("unknown", |f| f.name()).to_owned(),
        time_unit: trace.time_unit.map_or("ns", |u| u.name()).to_owned(),
        threads,
        functions,
        allocations: trace
            .allocations
            .iter()
            .find(|a| a.resource == "memory")
            .or(trace.allocations.first())
            .map(allocation_totals)
            .unwrap_or_default(),
        resources: trace
            .allocations
            .iter()
            .map(|a| ResourceReport {
                resource: a.resource.clone(),
                totals: allocation_totals(a),
                size_unit: a.size_unit.clone(),
            })
            .collect(),
        diagnostics,
        leaks: trace
            .allocations
            .iter()
            .flat_map(|a| leak_groups(trace, a))
            .collect(),
    }
}

/// Thread `index`'s counts; adds its calls to `per_name` (totals by name id).
fn thread_report(
    trace: &Trace,
    index: usize,
    thread: &Thread,
    per_name: &mut [Totals],
) -> ThreadReport {
    let samples: u64 = trace
        .sample_sets
        .iter()
        .filter(|s| s.thread == Some(index as u32))
        .map(|s| s.len() as u64)
        .sum();
    let counted_key = trace.strings.find(COUNTED_DURATION_KEY);
    walk_spans(&thread.spans, |v| {
        if v.flags & SPAN_ABANDONED != 0 {
            return;
        }
        if let Some(t) = per_name.get_mut(v.name as usize) {
            // A later piece of a call cut by a narrowing is the same call.
            if v.flags & SPAN_CONTINUED == 0 {
                t.calls += 1;
            }
            t.self_time += v.self_time;
            // The decoder knows where the original tool tells recursion
            // otherwise than by the names (uftrace after a LOST record).
            if v.outermost != (v.flags & SPAN_RECURSION_INVERTED != 0) {
                t.total += counted_duration(&thread.spans, &v, counted_key);
            }
        }
    });
    ThreadReport {
        id: thread.id.clone(),
        name: thread.name.clone(),
        events: thread.events,
        spans: thread.spans.len() as u64,
        samples,
        max_depth: if thread.spans.is_empty() {
            0
        } else {
            u32::from(thread.max_depth()) + 1
        },
    }
}

/// The duration a call adds to its function's total: the drawn one, or the
/// one the decoder kept where the original tool counts a longer call than
/// could be drawn ([`COUNTED_DURATION_KEY`]).
fn counted_duration(spans: &Spans, v: &SpanVisit, key: Option<StrId>) -> i64 {
    let mut duration = v.duration;
    if let Some(key) = key.filter(|_| v.flags & SPAN_START_REPAIRED != 0) {
        spans.details.each_of(v.index, |k, value| {
            if let (true, Value::Int(counted)) = (k == key, value) {
                duration = counted;
            }
        });
    }
    duration
}

/// The live blocks of one resource type grouped by stack, biggest first (then
/// by count, then by stack for a stable order), at most
/// [`LEAK_GROUPS_PER_RESOURCE`].
pub fn leak_groups(trace: &Trace, a: &Allocations) -> Vec<LeakReport> {
    let mut by_stack: std::collections::HashMap<u32, (u64, u64)> = Default::default();
    for ((&stack, &size), &freed) in a.stack.iter().zip(&a.size).zip(&a.free_time) {
        if freed == NEVER_FREED {
            let g = by_stack.entry(stack).or_default();
            g.0 += 1;
            g.1 += size;
        }
    }
    let mut groups: Vec<(u32, u64, u64)> =
        by_stack.into_iter().map(|(s, (c, b))| (s, c, b)).collect();
    groups.sort_by(|x, y| (y.2, y.1, x.0).cmp(&(x.2, x.1, y.0)));
    groups
        .into_iter()
        .take(LEAK_GROUPS_PER_RESOURCE)
        .map(|(stack, count, bytes)| LeakReport {
            resource: a.resource.clone(),
            count,
            bytes,
            size_unit: a.size_unit.clone(),
            frames: trace
                .stacks
                .frames(stack)
                .iter()
                .rev()
                .map(|&f| trace.str(f).to_owned())
                .collect(),
        })
        .collect()
}

/// Counts of allocations, frees and what is still live at the end.
pub fn allocation_totals(a: &Allocations) -> AllocationReport {
    let mut totals = AllocationReport {
        allocs: a.len() as u64,
        ..AllocationReport::default()
    };
    for (&size, &freed) in a.size.iter().zip(&a.free_time) {
        totals.alloc_bytes += size;
        if freed == NEVER_FREED {
            totals.live_blocks += 1;
            totals.live_bytes += size;
        } else {
            totals.frees += 1;
        }
    }
    totals
}

fn severity_rank(name: &str) -> u8 {
    [Severity::Info, Severity::DataLoss, Severity::Error]
        .iter()
        .position(|s| s.name() == name)
        .unwrap_or(0) as u8
}

impl Report {
    /// The report as text, laid out like `uftrace report`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if self.time_unit == "events" {
            // A logical clock: durations count events, not time.
            out.push_str("Total events Self events       Calls  Function\n");
        } else {
            out.push_str("  Total time   Self time       Calls  Function\n");
        }
        out.push_str("  ==========  ==========  ==========  ====================\n");
        // uftrace leaves a zero time blank.
        let time = |t: i64| match (t, self.time_unit.as_str()) {
            (0, "ns" | "us") => String::new(),
            _ => format_time(t, &self.time_unit),
        };
        for f in &self.functions {
            out.push_str(&format!(
                "  {:>10}  {:>10}  {:>10}  {}\n",
                time(f.total),
                time(f.self_time),
                f.calls,
                f.name
            ));
        }
        out.push('\n');
        for t in &self.threads {
            out.push_str(&format!(
                "thread {} ({}): {} records, {} spans, depth {}\n",
                t.id, t.name, t.events, t.spans, t.max_depth
            ));
        }
        for r in &self.resources {
            let t = &r.totals;
            let live = if r.size_unit == "bytes" || r.size_unit.is_empty() {
                format!("{} live bytes", t.live_bytes)
            } else {
                format!("{} live ({})", t.live_bytes, r.size_unit)
            };
            out.push_str(&format!(
                "resource {}: {} allocs, {} frees, {} live blocks, {live}\n",
                r.resource, t.allocs, t.frees, t.live_blocks
            ));
        }
        if !self.leaks.is_empty() {
            out.push_str(
                "\nLargest leaks (live at the end, by allocation stack, innermost first):\n",
            );
        }
        for l in &self.leaks {
            if l.size_unit == "bytes" {
                out.push_str(&format!(
                    "  {}: {} bytes in {} block(s)\n",
                    l.resource, l.bytes, l.count
                ));
            } else {
                out.push_str(&format!("  {}: {} block(s)\n", l.resource, l.count));
            }
            for frame in l.frames.iter().take(8) {
                out.push_str(&format!("      {frame}\n"));
            }
        }
        for d in &self.diagnostics {
            out.push_str(&format!(
                "{}: {} (count {})\n",
                d.severity, d.message, d.count
            ));
        }
        out
    }
}

/// A duration in `unit` printed the way uftrace does: three decimals in the
/// largest unit (us, ms, s) that keeps the number at least 1.
pub fn format_time(value: i64, unit: &str) -> String {
    if unit == "events" {
        return value.to_string();
    }
    let ns = if unit == "us" {
        value.saturating_mul(1000)
    } else {
        value
    };
    let sign = if ns < 0 { "-" } else { "" };
    let ns = ns.unsigned_abs();
    let (div, name) = match ns {
        n if n >= 1_000_000_000 => (1_000_000, "s"),
        n if n >= 1_000_000 => (1_000, "ms"),
        _ => (1, "us"),
    };
    let scaled = ns / div;
    // uftrace right-aligns the unit in two columns: "1.738  s".
    format!("{sign}{}.{:03} {name:>2}", scaled / 1000, scaled % 1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, TimeUnit, TraceBuilder};

    #[test]
    fn recursion_is_counted_once_in_total_and_fully_in_self() {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "p");
        let f = b.intern("f");
        b.begin(t, 0, f, 0);
        b.begin(t, 10, f, 0);
        b.end(t, 20);
        b.end(t, 100);
        let r = report(&b.finish());
        assert_eq!(r.functions[0].calls, 2);
        assert_eq!(r.functions[0].total, 100);
        assert_eq!(r.functions[0].self_time, 100);
        assert_eq!(r.threads[0].max_depth, 2);
    }

    #[test]
    fn times_print_like_uftrace() {
        assert_eq!(format_time(30, "ns"), "0.030 us");
        assert_eq!(format_time(20_430, "ns"), "20.430 us");
        assert_eq!(format_time(28_354_123, "ns"), "28.354 ms");
        // As `uftrace report` prints seconds (its report of the 20 M-record
        // benchmark trace shows `1.738  s`).
        assert_eq!(format_time(1_500_000_000, "ns"), "1.500  s");
    }
}
