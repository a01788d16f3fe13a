//! pprof's `profile.proto`, gzipped (what `go tool pprof` and speedscope
//! open). One profile holds everything, one sample-type column per measure:
//! for call traces the calls and the self time of each call path (so pprof's
//! flat is the report's self time and its cum the report's total), for each
//! sample set its sample count and weights, and for each allocated resource
//! the objects and size allocated and still live at the end (Go's
//! `alloc_objects`, `alloc_space`, `inuse_objects`, `inuse_space`). A column
//! is zero in the samples of the others. Samples carry a `thread` label;
//! the trace's metadata become comments. Each frame's location is in its
//! module's mapping, at its address, where the trace tells them
//! (`modules.rs`).

mod calls;
mod modules;
pub mod proto;
mod table;

use crate::model::{TimeUnit, Trace, NEVER_FREED};
use proto::Profile;
use std::collections::HashMap;
use std::io::Write;
use table::ProfileBuilder;

/// The trace as a gzipped pprof profile.
pub fn to_pprof(trace: &Trace) -> Vec<u8> {
    let bytes = prost::Message::encode_to_vec(&profile(trace));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = gz.write_all(&bytes);
    gz.finish().unwrap_or_default()
}

/// The profile message before compression.
pub fn profile(trace: &Trace) -> Profile {
    let mut builder = ProfileBuilder::new(trace);
    if trace.threads.iter().any(|t| !t.spans.is_empty()) {
        calls::add_calls(&mut builder, trace);
    }
    for set in &trace.sample_sets {
        add_sample_set(&mut builder, trace, set);
    }
    for allocations in &trace.allocations {
        add_allocations(&mut builder, trace, allocations);
    }
    let duration = trace.time_range().map_or(0, |(start, end)| end - start);
    let duration_nanos = match trace.time_unit {
        Some(TimeUnit::Ns) => duration,
        Some(TimeUnit::Us) => duration.saturating_mul(1000),
        _ => 0,
    };
    builder.finish(duration_nanos)
}

/// The unit of the trace's times as pprof names it.
pub fn time_unit_name(trace: &Trace) -> &'static str {
    match trace.time_unit {
        Some(TimeUnit::Ns) => "nanoseconds",
        Some(TimeUnit::Us) => "microseconds",
        _ => "events",
    }
}

/// A sample set: its sample count and each weight, summed per thread and stack.
fn add_sample_set(builder: &mut ProfileBuilder, trace: &Trace, set: &crate::model::SampleSet) {
    let first = builder.column(&format!("{} samples", set.name), "count");
    for unit in &set.weight_names {
        let kind = if unit == "samples" { "weight" } else { unit };
        builder.column(&format!("{} {kind}", set.name), unit);
    }
    let width = 1 + set.weight_names.len();
    let mut sums: HashMap<u32, Vec<i64>> = HashMap::new();
    for (i, &stack) in set.stack.iter().enumerate() {
        let values = sums.entry(stack).or_insert_with(|| vec![0; width]);
        if let Some(count) = values.first_mut() {
            *count += 1;
        }
        for (k, column) in set.weights.iter().enumerate() {
            if let Some(value) = values.get_mut(k + 1) {
                *value += column.get(i).copied().unwrap_or(0);
            }
        }
    }
    let thread = set.thread.map(|t| builder.thread_label(trace, t));
    let mut stacks: Vec<(u32, Vec<i64>)> = sums.into_iter().collect();
    stacks.sort_unstable_by_key(|&(stack, _)| stack);
    for (stack, values) in stacks {
        let locations = builder.stack_locations(trace, stack);
        builder.sample(locations, first, values, thread);
    }
}

/// An allocated resource: allocated and live objects and sizes, per thread
/// and stack.
fn add_allocations(
    builder: &mut ProfileBuilder,
    trace: &Trace,
    allocations: &crate::model::Allocations,
) {
    let prefix = if allocations.resource == "memory" {
        String::new()
    } else {
        format!("{} ", allocations.resource)
    };
    let unit = allocations.size_unit.as_str();
    let first = builder.column(&format!("{prefix}alloc_objects"), "count");
    builder.column(&format!("{prefix}alloc_space"), unit);
    builder.column(&format!("{prefix}inuse_objects"), "count");
    builder.column(&format!("{prefix}inuse_space"), unit);
    let mut sums: HashMap<(u32, u32), [i64; 4]> = HashMap::new();
    for i in 0..allocations.len() {
        let (Some(thread), Some(&stack), Some(&size), Some(&freed)) = (
            allocations.thread_of(i),
            allocations.stack.get(i),
            allocations.size.get(i),
            allocations.free_time.get(i),
        ) else {
            continue;
        };
        let size = i64::try_from(size).unwrap_or(i64::MAX);
        let values = sums.entry((thread, stack)).or_default();
        values[0] += 1;
        values[1] = values[1].saturating_add(size);
        if freed == NEVER_FREED {
            values[2] += 1;
            values[3] = values[3].saturating_add(size);
        }
    }
    let mut groups: Vec<((u32, u32), [i64; 4])> = sums.into_iter().collect();
    groups.sort_unstable_by_key(|&(key, _)| key);
    for ((thread, stack), values) in groups {
        let label = builder.thread_label(trace, thread);
        let locations = builder.stack_locations(trace, stack);
        builder.sample(locations, first, values.to_vec(), Some(label));
    }
}
