//! The lines `sp-rtrace-postproc` (2.0.1) prints before the calls: the
//! `key=value, ` header, `& name : path` attachments, the heap status
//! block, `## tracing module:` lines, `@ mask : name` contexts,
//! `<mask> : type (description)` resource types and `: path => 0xfrom-0xto`
//! mappings.

use super::registry::{cell, hex, metadata, table, Registry};
use crate::analysis::listing::PostprocRelease;
use crate::model::Trace;

/// The protocol version a postproc release writes into its header (its
/// own, not the trace's) and its package string (2.0.1's `configure.ac`
/// still says 1.8).
fn version_and_origin(release: PostprocRelease) -> (&'static str, &'static str) {
    match release {
        PostprocRelease::V1_6 => ("1.4", "sp-rtrace 1.6"),
        PostprocRelease::V2_0_1 => ("2.0", "sp-rtrace 1.8"),
    }
}

/// What the header depends on besides the trace.
pub(super) struct HeaderOptions {
    /// `filter=` text (`leaks|compress|resolve` or part of it), if any.
    pub filter: Option<String>,
    /// `-b`: the depth the header shows instead of the recorded one.
    pub depth: Option<u32>,
    /// `-C`: contexts whose mask has no bit in it are not listed.
    pub context: Option<u32>,
    /// Lowest and highest allocated block (for the heap block).
    pub blocks: (u64, u64),
    /// Whose text.
    pub release: PostprocRelease,
}

/// Every line before the first call.
pub(super) fn lines(trace: &Trace, registry: &Registry, options: &HeaderOptions) -> Vec<String> {
    let mut out = vec![header_line(trace, options)];
    if let Some(t) = table(trace, "attachments") {
        for row in &t.rows {
            out.push(format!("& {} : {}", cell(row, 0), cell(row, 1)));
        }
    }
    heap_block(trace, registry, options, &mut out);
    for module in metadata(trace, "tracing modules")
        .map(|m| m.split(", ").collect::<Vec<_>>())
        .unwrap_or_default()
    {
        // `name major.minor [0xid]`, as the decoder wrote it.
        let Some((left, id)) = module.rsplit_once(" [") else {
            continue;
        };
        let (name, version) = left.rsplit_once(' ').unwrap_or((left, ""));
        let id = hex(id.trim_end_matches(']')).unwrap_or(0);
        out.push(format!("## tracing module: [{id:x}] {name} ({version})"));
    }
    for (mask, name, _) in &registry.contexts {
        if options.context.is_none_or(|keep| mask & keep != 0) {
            out.push(format!("@ {mask:x} : {name}"));
        }
    }
    for r in registry.resources.iter().filter(|r| r.kept) {
        let bit = 1u32.checked_shl(r.id.wrapping_sub(1)).unwrap_or(0);
        let flags = if r.flags != 0 { " [refcount]" } else { "" };
        out.push(format!("<{bit:x}> : {} ({}){flags}", r.text, r.description));
    }
    if let Some(t) = table(trace, "mappings") {
        for row in &t.rows {
            out.push(format!(
                ": {} => {}-{}",
                cell(row, 2),
                cell(row, 0),
                cell(row, 1)
            ));
        }
    }
    out
}

/// `version=…, arch=…, timestamp=…, process=…, pid=…, [filter=…, ]backtrace depth=…, origin=…, `.
fn header_line(trace: &Trace, options: &HeaderOptions) -> String {
    let arch = metadata(trace, "architecture")
        .and_then(|a| a.split(" (").next())
        .unwrap_or("");
    let (version, origin) = version_and_origin(options.release);
    let mut line = format!("version={version}, arch={arch}, ");
    if let Some(started) = metadata(trace, "started").and_then(local_time) {
        line.push_str(&format!("timestamp={started}, "));
    }
    if let Some(process) = trace.processes.first() {
        line.push_str(&format!("process={}, pid={}, ", process.name, process.id));
    }
    if let Some(filter) = &options.filter {
        line.push_str(&format!("filter={filter}, "));
    }
    let depth = options
        .depth
        .map(|d| d.to_string())
        .or_else(|| metadata(trace, "backtrace depth").map(str::to_owned));
    if let Some(depth) = depth {
        line.push_str(&format!("backtrace depth={depth}, "));
    }
    line.push_str(&format!("origin={origin}, "));
    line
}

/// The decoder's `YYYY-MM-DD HH:MM:SS.uuuuuu UTC` as postproc prints the
/// PINF time: `Y.M.D HH:MM:SS`, the date not zero-padded. postproc prints
/// local time; this is UTC (the references were made with `TZ=UTC`).
fn local_time(started: &str) -> Option<String> {
    let (date, time) = started.split_once(' ')?;
    let mut parts = date.split('-').map(|p| p.parse::<u32>().ok());
    let (year, month, day) = (parts.next()??, parts.next()??, parts.next()??);
    let clock = time.split('.').next()?;
    Some(format!("{year}.{month}.{day} {clock}"))
}

/// The `## heap status information:` block, when the trace has HINF. The
/// 2.0 writer stores twelve dwords, but a 64-bit postproc reads the heap
/// bounds as two 8-byte pointers: bottom | top << 32 becomes the bottom,
/// every later field moves one place, and the last two come from past the
/// packet (the decoder replays postproc's read buffer for them; 0 when it
/// could not).
fn heap_block(trace: &Trace, registry: &Registry, options: &HeaderOptions, out: &mut Vec<String>) {
    let Some(t) = table(trace, "heap-info") else {
        return;
    };
    let value = |at: usize| t.rows.get(at).map_or("", |row| cell(row, 1));
    let bottom = hex(value(0)).unwrap_or(0);
    let top = hex(value(1)).unwrap_or(0);
    let mut fields: Vec<u32> = (2..12)
        .map(|at| value(at).parse::<i32>().unwrap_or(0) as u32)
        .collect();
    let dwords_only = t.note.contains("(HINF, 48 bytes");
    let (bottom, top) = if registry.pointer_size == 8 && dwords_only {
        let top_read = u64::from(fields.first().copied().unwrap_or(0))
            | u64::from(fields.get(1).copied().unwrap_or(0)) << 32;
        fields.drain(..2.min(fields.len()));
        // The decoder's replay of postproc's read buffer (rows 12 and 13).
        fields.extend((12..14).map(|at| value(at).parse::<i32>().unwrap_or(0) as u32));
        (bottom | top << 32, top_read)
    } else {
        (bottom, top)
    };
    let field = |at: usize| fields.get(at).copied().unwrap_or(0) as i32;
    out.push("## heap status information:".into());
    out.push(format!("##   heap bottom 0x{bottom:x}"));
    out.push(format!("##   heap top 0x{top:x}"));
    out.push(format!("##   lowest block 0x{:x}", options.blocks.0));
    out.push(format!("##   highest block 0x{:x}", options.blocks.1));
    let labels = if options.release == PostprocRelease::V1_6 {
        LABELS_1_6
    } else {
        LABELS
    };
    for (at, label) in labels.iter().enumerate() {
        out.push(format!("##   {label} {}", field(at)));
    }
}

/// The heap fields' labels, 2.0.1.
const LABELS: [&str; 10] = [
    "non-mapped space allocated from system",
    "count of free chunks",
    "count of freed fastbin blocks",
    "count of mapped regions",
    "space in mapped regions",
    "maximum total allocated space",
    "space available in freed fastbin blocks",
    "total allocated space, both normal and mmapped",
    "total free space",
    "space ideally releasable via malloc_trim",
];

/// The heap fields' labels, 1.6.
const LABELS_1_6: [&str; 10] = [
    "non-mapped space allocated from system",
    "number of free chunks",
    "number of fastbin blocks",
    "number of mapped regions",
    "space in mapped regions",
    "maximum total allocated space",
    "space available in freed fastbin blocks",
    "total allocated space",
    "total free space",
    "top-most, releasable (via malloc_trim) space",
];
