//! The text of `flamedrop memory`: a tool report in the manner of
//! `sp-rtrace-timeline`'s summary tables (peak and end, non-freed count and
//! size), then the live blocks by backtrace as `postproc -l -c` groups
//! them, the histograms and the rates.

use flamedrop_core::analysis::memory::{
    allocated_in_range, select, MemoryQuery, MemorySummary, RateSlice, SizeBucket, StackGroup,
};
use flamedrop_core::model::TimeUnit;
use flamedrop_core::Trace;
use std::fmt::Write;

/// Frames shown per backtrace group, innermost first.
const FRAMES_SHOWN: usize = 4;
/// Backtrace groups listed at the moment.
const GROUPS_SHOWN: usize = 20;

/// The report of one summary.
pub fn to_text(trace: &Trace, query: &MemoryQuery, s: &MemorySummary) -> String {
    let unit = time_unit(trace);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Resource {} ({}): {} of {} allocations selected{}",
        s.resource,
        s.unit,
        s.selected,
        s.total,
        filter_note(query)
    );
    if let Some((lo, hi)) = query.range {
        let _ = writeln!(out, "Range: {unit} {lo} to {hi}");
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  {:<6} {unit:>12}  {:>8}  {:>14}  {:>10}  {:>14}",
        "", "Total", "Total", "Non-freed", "Non-freed"
    );
    let _ = writeln!(
        out,
        "  {:<6} {:>12}  {:>8}  {:>14}  {:>10}  {:>14}",
        "State", "", "count", s.unit, "count", s.unit
    );
    for (state, p) in [("peak", &s.series.peak), ("end", &s.series.end)] {
        let (count, size) = allocated_until(trace, query, p.time);
        let _ = writeln!(
            out,
            "  {state:<6} {:>12}  {count:>8}  {size:>14}  {:>10}  {:>14}",
            p.time, p.blocks, p.bytes
        );
    }
    if s.overhead_per_block > 0 {
        let _ = writeln!(
            out,
            "  With the allocator's overhead ({} bytes a live block): peak {}, end {} {}",
            s.overhead_per_block,
            s.series.peak.with_overhead(s.overhead_per_block),
            s.series.end.with_overhead(s.overhead_per_block),
            s.unit
        );
    }
    live_groups(&mut out, trace, s, &unit);
    sizes(&mut out, &s.sizes, &s.unit);
    lifetimes(&mut out, s, duration_unit(trace));
    rates(&mut out, &s.rates, &unit, &s.unit);
    out
}

/// What a time is in the trace: a call number (sp-rtrace) or a clock
/// time in its unit.
fn time_unit(trace: &Trace) -> String {
    match trace.time_unit {
        Some(TimeUnit::Events) | None => "call".to_owned(),
        Some(u) => format!("time ({})", u.name()),
    }
}

/// What a duration is counted in: calls, or the clock's unit.
fn duration_unit(trace: &Trace) -> &'static str {
    match trace.time_unit {
        Some(TimeUnit::Events) | None => "calls",
        Some(u) => u.name(),
    }
}

fn filter_note(query: &MemoryQuery) -> String {
    let f = &query.filter;
    let mut parts = Vec::new();
    if let Some((a, b)) = f.size {
        parts.push(format!("size {a}-{b}"));
    }
    if let Some((a, b)) = f.time {
        parts.push(format!("time {a}-{b}"));
    }
    if let Some((a, b)) = f.index {
        parts.push(format!("index {a}-{b}"));
    }
    if let Some(mask) = f.context {
        parts.push(format!("context {mask:#x}"));
    }
    if let Some(func) = &f.through {
        parts.push(format!("through {func}"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" (filter: {})", parts.join(", "))
    }
}

/// `sp-rtrace-timeline`'s "Total" columns (`totals_generator.cpp`): the
/// selected allocations made up to `time` (from the range's start), in
/// number and size.
fn allocated_until(trace: &Trace, query: &MemoryQuery, time: i64) -> (u64, u64) {
    let Ok(selected) = select(trace, query) else {
        return (0, 0);
    };
    let until = MemoryQuery {
        range: Some((query.range.map_or(i64::MIN, |r| r.0), time)),
        ..query.clone()
    };
    let made = allocated_in_range(trace, &until, &selected);
    let sizes = trace
        .allocations
        .get(query.resource as usize)
        .map(|a| &a.size);
    let bytes = made
        .iter()
        .filter_map(|&i| sizes?.get(i as usize))
        .fold(0u64, |sum, &size| sum.saturating_add(size));
    (made.len() as u64, bytes)
}

/// The backtrace's innermost frames, `a < b < c`.
fn frames(trace: &Trace, stack: u32) -> String {
    let all = trace.stacks.frames(stack);
    let mut shown: Vec<&str> = all
        .iter()
        .rev()
        .take(FRAMES_SHOWN)
        .map(|&f| trace.str(f))
        .collect();
    if all.len() > FRAMES_SHOWN {
        shown.push("…");
    }
    shown.join(" < ")
}

fn live_groups(out: &mut String, trace: &Trace, s: &MemorySummary, unit: &str) {
    let (blocks, bytes) = s
        .live_groups
        .iter()
        .fold((0, 0), |(n, b), g: &StackGroup| (n + g.blocks, b + g.bytes));
    let _ = writeln!(
        out,
        "\nLive at {unit} {}: {blocks} blocks, {bytes} {} in {} backtraces",
        s.at,
        s.unit,
        s.live_groups.len()
    );
    if s.live_groups.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "  {:>14}  {:>8}  backtrace (innermost first)",
        s.unit, "blocks"
    );
    for g in s.live_groups.iter().take(GROUPS_SHOWN) {
        let _ = writeln!(
            out,
            "  {:>14}  {:>8}  {}",
            g.bytes,
            g.blocks,
            frames(trace, g.stack)
        );
    }
    if s.live_groups.len() > GROUPS_SHOWN {
        let _ = writeln!(
            out,
            "  … {} more backtraces",
            s.live_groups.len() - GROUPS_SHOWN
        );
    }
}

/// One table row: a label, then four right-aligned cells.
fn row(out: &mut String, label: &str, cells: [&dyn std::fmt::Display; 4]) {
    let [a, b, c, d] = cells;
    let _ = writeln!(out, "  {label:<24}  {a:>8}  {b:>14}  {c:>8}  {d:>14}");
}

fn bounds(low: impl std::fmt::Display, high: impl std::fmt::Display) -> String {
    format!("[{low}, {high})")
}

fn sizes(out: &mut String, buckets: &[SizeBucket], unit: &str) {
    let _ = writeln!(
        out,
        "\nSizes (allocated in range; freed by its end or still live)"
    );
    if buckets.is_empty() {
        let _ = writeln!(out, "  none");
        return;
    }
    let (freed, live) = (format!("freed {unit}"), format!("live {unit}"));
    row(out, "size", [&"freed", &freed, &"live", &live]);
    for b in buckets {
        let cells: [&dyn std::fmt::Display; 4] =
            [&b.freed_count, &b.freed_bytes, &b.live_count, &b.live_bytes];
        row(out, &bounds(b.low, b.high), cells);
    }
}

fn lifetimes(out: &mut String, s: &MemorySummary, unit: &str) {
    let l = &s.lifetimes;
    let mean = l.mean.map_or("-".to_owned(), |m| format!("{m:.1}"));
    let median = l.median.map_or("-".to_owned(), |m| m.to_string());
    let _ = writeln!(
        out,
        "\nLifetimes ({unit}): {} freed (mean {mean}, median {median}), {} still live",
        l.freed, l.live
    );
    for b in &l.buckets {
        let _ = writeln!(out, "  {:<24}  {:>8}", bounds(b.low, b.high), b.count);
    }
}

fn rates(out: &mut String, slices: &[RateSlice], unit: &str, size_unit: &str) {
    let _ = writeln!(out, "\nRates per slice");
    let freed = format!("freed {size_unit}");
    let label = format!("{unit} [from, to)");
    row(out, &label, [&"allocs", &size_unit, &"frees", &freed]);
    for r in slices {
        let cells: [&dyn std::fmt::Display; 4] =
            [&r.allocations, &r.allocated_bytes, &r.frees, &r.freed_bytes];
        row(out, &bounds(r.start, r.end), cells);
    }
}
