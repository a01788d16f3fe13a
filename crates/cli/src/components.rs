//! `flamedrop components`: time by component (library, module) as Scaler's
//! analyzer reports it, as text tables or as the analysis's JSON.

use crate::components_args::ComponentsArgs;
use crate::files;
use flamedrop_core::analysis::components::{
    components, CallEdge, ComponentsOptions, ComponentsReport, LibraryTime, SerialParallel,
};
use flamedrop_core::analysis::report::format_time;
use flamedrop_core::Trace;

/// Runs the command.
pub fn run(args: ComponentsArgs) -> Result<(), String> {
    let trace = files::decode_paths(&args.paths)?;
    let options = ComponentsOptions {
        range: args.range.map(|(a, b)| {
            let origin = trace.time_range().map_or(0, |r| r.0);
            (origin.saturating_add(a), origin.saturating_add(b))
        }),
        threads: threads_of(&trace, &args.thread)?,
        other_below: args.other,
    };
    let report = components(&trace, &options);
    let text = if args.json {
        serde_json::to_string_pretty(&report).map_err(|e| e.to_string())? + "\n"
    } else {
        to_text(&report)
    };
    crate::write_out(args.output, &text)
}

/// The indices of the threads named by `--thread`; `None` for all.
fn threads_of(trace: &Trace, ids: &[String]) -> Result<Option<Vec<u32>>, String> {
    if ids.is_empty() {
        return Ok(None);
    }
    let mut out = Vec::new();
    for id in ids {
        let index = trace
            .threads
            .iter()
            .position(|t| t.id == *id)
            .ok_or_else(|| {
                let known: Vec<&str> = trace.threads.iter().map(|t| t.id.as_str()).collect();
                format!(
                    "no thread {id} in the trace (threads: {})",
                    known.join(", ")
                )
            })?;
        out.push(index as u32);
    }
    Ok(Some(out))
}

/// The report as tables: all threads, the matrix, each thread, and the
/// serial vs parallel view.
pub fn to_text(r: &ComponentsReport) -> String {
    let unit = r.time_unit.as_str();
    let mut out = format!(
        "Time by component: {} thread(s), {} in their calls\n\
         (self: working time the component keeps; wait: joins, condition, barrier, semaphore \
         and lock waits of its calls; inclusive: under its outermost calls)\n\n",
        r.threads.len(),
        format_time(r.time, unit).trim()
    );
    out.push_str("All threads\n");
    library_table(&mut out, &r.libraries, unit);
    out.push_str("\nCalls between components (caller -> callee)\n");
    matrix_table(&mut out, &r.matrix, unit);
    for t in &r.threads {
        let main = if t.main { ", main" } else { "" };
        out.push_str(&format!(
            "\nThread {} ({}{main}): {}\n",
            t.id,
            t.name,
            format_time(t.time, unit).trim()
        ));
        library_table(&mut out, &t.libraries, unit);
    }
    if let Some(sp) = &r.serial_parallel {
        serial_parallel_table(&mut out, sp, unit);
    }
    out
}

fn library_table(out: &mut String, rows: &[LibraryTime], unit: &str) {
    // The "other" row says how many components it sums.
    let names: Vec<String> = rows
        .iter()
        .map(|r| match r.grouped.len() {
            0 => r.library.clone(),
            n => format!("{} ({n})", r.library),
        })
        .collect();
    let width = name_width(names.iter().map(String::as_str), "Library");
    out.push_str(&format!(
        "  {:<width$}  {:>12}  {:>12}  {:>12}  {:>8}  {:>8}  {:>8}\n",
        "Library", "Self", "Inclusive", "Wait", "Local %", "Global %", "Calls"
    ));
    for (r, name) in rows.iter().zip(&names) {
        out.push_str(&format!(
            "  {name:<width$}  {:>12}  {:>12}  {:>12}  {:>8.2}  {:>8.2}  {:>8}\n",
            format_time(r.self_time, unit),
            format_time(r.inclusive, unit),
            format_time(r.wait, unit),
            r.local_percent,
            r.global_percent,
            r.calls
        ));
    }
}

fn matrix_table(out: &mut String, edges: &[CallEdge], unit: &str) {
    let caller = name_width(edges.iter().map(|e| e.caller.as_str()), "Caller");
    let callee = name_width(edges.iter().map(|e| e.callee.as_str()), "Callee");
    out.push_str(&format!(
        "  {:<caller$}  {:<callee$}  {:>8}  {:>12}\n",
        "Caller", "Callee", "Calls", "Time"
    ));
    for e in edges {
        out.push_str(&format!(
            "  {:<caller$}  {:<callee$}  {:>8}  {:>12}\n",
            e.caller,
            e.callee,
            e.calls,
            format_time(e.time, unit)
        ));
    }
}

fn serial_parallel_table(out: &mut String, sp: &SerialParallel, unit: &str) {
    out.push_str(&format!(
        "\nSerial vs parallel: main thread {} kept, {} worker thread(s) averaged\n",
        sp.main_thread, sp.workers
    ));
    let width = name_width(sp.libraries.iter().map(|l| l.library.as_str()), "Library");
    out.push_str(&format!(
        "  {:<width$}  {:>12}  {:>12}  {:>12}  {:>8}\n",
        "Library", "Self", "Inclusive", "Wait", "%"
    ));
    for l in &sp.libraries {
        out.push_str(&format!(
            "  {:<width$}  {:>12}  {:>12}  {:>12}  {:>8.2}\n",
            l.library,
            format_time(l.self_time.round() as i64, unit),
            format_time(l.inclusive.round() as i64, unit),
            format_time(l.wait.round() as i64, unit),
            l.percent
        ));
    }
}

/// The column width for names: the longest, at least the heading's.
fn name_width<'a>(names: impl Iterator<Item = &'a str>, heading: &str) -> usize {
    names
        .map(|n| n.chars().count())
        .chain(std::iter::once(heading.len()))
        .max()
        .unwrap_or(heading.len())
}
