//! The two tables that hold what `sp-rtrace-postproc`'s listing prints and
//! the spans do not: every distinct backtrace with its raw return addresses
//! (a call's `backtrace` detail `#N` is row N), and the resource types as
//! RESR registered them (id, flags, description), and — when ELF files were
//! dropped beside the trace — the frames `sp-rtrace-resolve` would name
//! (for `postproc -r`). A string per distinct backtrace or address, not per
//! call: the calls share them.

use super::modules::Symbolizer;
use super::session::Session;
use crate::model::{Column, Field, Table};
use std::collections::BTreeSet;

/// Id of the backtrace table; row N is backtrace `#N` (row 0: no frames).
pub const BACKTRACES: &str = "backtraces";
/// Id of the resource type table, in RESR order.
pub const RESOURCE_TYPES: &str = "resource-types";
/// Id of the table of frames a dropped ELF file names the way
/// `sp-rtrace-resolve` does.
pub const RESOLVED_FRAMES: &str = "resolved-frames";

/// Every distinct backtrace of the session, by number, with its number of
/// calls (`calls`, by backtrace: counted by the build, the calls being
/// gone by then).
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn backtrace_table(session: &Session, calls: &[u64]) -> Table {
    let calls = (0..session.backtraces.len()).map(|i| calls.get(i).copied().unwrap_or(0));
    let mut rows = Vec::with_capacity(session.backtraces.len());
    let mut highlight = Vec::with_capacity(session.backtraces.len());
    for (number, (frames, calls)) in session.backtraces.iter().zip(calls).enumerate() {
        let name = if frames.is_empty() {
            "none".to_owned()
        } else {
            format!("#{number}")
        };
        let addresses: Vec<String> = frames.iter().map(|a| format!("{a:#x}")).collect();
        rows.push(vec![
            name.clone(),
            calls.to_string(),
            frames.len().to_string(),
            addresses.join(" "),
        ]);
        highlight.push(Some(Field::new("backtrace", name)));
    }
    Table {
        id: BACKTRACES.into(),
        title: "Backtraces".into(),
        columns: vec![
            Column::text("backtrace"),
            Column::number("calls"),
            Column::number("frames"),
            Column::text("return addresses (innermost first)"),
        ],
        rows,
        row_highlight: highlight,
        note: "Every distinct backtrace the calls carry (BTRC), with its return addresses as recorded; selecting one highlights its calls.".into(),
    }
}

/// The resource types (RESR) in registration order.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn resource_type_table(session: &Session) -> Table {
    Table {
        id: RESOURCE_TYPES.into(),
        title: "Resource types".into(),
        columns: vec![
            Column::number("id"),
            Column::text("type"),
            Column::text("description"),
            Column::number("flags"),
            Column::text("reference counted"),
        ],
        rows: session
            .resources
            .iter()
            .map(|r| {
                vec![
                    r.id.to_string(),
                    r.name.clone(),
                    r.description.clone(),
                    r.flags.to_string(),
                    if r.refcounted() { "yes" } else { "no" }.to_owned(),
                ]
            })
            .collect(),
        row_highlight: session
            .resources
            .iter()
            .map(|r| Some(Field::new("resource", r.name.clone())))
            .collect(),
        note: "Resource types the tracing modules registered (RESR); reference-counted types free a block when as many releases as allocations were seen.".into(),
    }
}

/// Every frame address a dropped ELF file names as `sp-rtrace-resolve
/// -telf` does (`function()`, or the demangled C++ name with its
/// parameters), by address; `None` when no frame is named.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn resolved_frame_table(session: &Session, symbolizer: &Symbolizer) -> Option<Table> {
    let addresses: BTreeSet<u64> = session.backtraces.iter().flatten().copied().collect();
    let rows: Vec<Vec<String>> = addresses
        .into_iter()
        .filter_map(|address| {
            let (module, function) = symbolizer.resolver_function(address)?;
            Some(vec![
                format!("{address:#x}"),
                module.to_owned(),
                resolver_text(function),
            ])
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    Some(Table {
        id: RESOLVED_FRAMES.into(),
        title: "Frames named by sp-rtrace-resolve".into(),
        columns: vec![
            Column::text("address"),
            Column::text("module"),
            Column::text("function"),
        ],
        rows,
        row_highlight: Vec::new(),
        note: "How sp-rtrace-resolve (postproc -r) names the frames of the dropped ELF files: it takes a shared object's address as mapping offset, which names the wrong functions when its code does not start at file offset 0; the flame graphs use the loader's addresses instead.".into(),
    })
}

/// A symbol as the resolver prints it: demangled with its parameters, or
/// the plain name followed by `()`.
fn resolver_text(symbol: &str) -> String {
    let symbol = symbol.strip_prefix("IA__").unwrap_or(symbol);
    cpp_demangle::Symbol::new(symbol)
        .ok()
        .and_then(|s| s.demangle(&cpp_demangle::DemangleOptions::default()).ok())
        .unwrap_or_else(|| format!("{symbol}()"))
}
