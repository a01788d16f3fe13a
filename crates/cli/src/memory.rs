//! `flamedrop memory`: what `sp-rtrace-timeline` and `sp-rtrace-postproc`
//! tell about one allocation resource, as a text report or JSON — the peak
//! and the end, the live blocks at a moment grouped by backtrace, the size
//! and lifetime histograms and the allocation and free rates.

use crate::files;
use crate::memory_args::MemoryArgs;
use crate::memory_text;
use flamedrop_core::analysis::memory::{summarize, MemoryError, MemoryQuery};
use flamedrop_core::Trace;

/// Runs `flamedrop memory`; the error is the message to print.
pub fn run(args: MemoryArgs) -> Result<String, String> {
    let trace = files::decode_paths(&args.paths)?;
    if trace.allocations.iter().all(|a| a.is_empty()) {
        return Err(format!(
            "{}: the trace has no allocations (sp-rtrace traces and SWAP memory or file probes have them)",
            args.paths.join(" ")
        ));
    }
    let resource = resource_index(&trace, args.resource.as_deref())?;
    let query = MemoryQuery {
        resource,
        filter: args.filter(),
        range: args.range,
    };
    let summary = summarize(&trace, &query, args.at, args.slices).map_err(|e| match e {
        MemoryError::NoResource(r) => format!("no resource {r}"),
    })?;
    if args.json {
        return Ok(serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())? + "\n");
    }
    Ok(memory_text::to_text(&trace, &query, &summary))
}

/// The resource `--resource` names (a name, or a number from 0); without
/// it `memory`, else the first resource with allocations.
fn resource_index(trace: &Trace, asked: Option<&str>) -> Result<u32, String> {
    let names = || {
        trace
            .allocations
            .iter()
            .enumerate()
            .map(|(i, a)| format!("{i} {}", a.resource))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let found = match asked {
        Some(text) => trace
            .allocations
            .iter()
            .position(|a| a.resource == text)
            .or_else(|| {
                text.parse::<usize>()
                    .ok()
                    .filter(|&i| i < trace.allocations.len())
            }),
        None => trace
            .allocations
            .iter()
            .position(|a| a.resource == "memory" && !a.is_empty())
            .or_else(|| trace.allocations.iter().position(|a| !a.is_empty())),
    };
    match found {
        Some(i) => Ok(i as u32),
        None => Err(format!(
            "no resource {:?} in the trace (it has: {})",
            asked.unwrap_or_default(),
            names()
        )),
    }
}
