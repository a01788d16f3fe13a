//! The sp-rtrace tables and summary facts: leak groups per resource type
//! (like `sp-rtrace-postproc -l -c`), call contexts, attachments, heap
//! statistics, memory mappings, and the process/recording metadata.

use super::call_details::clock_text;
use super::calls::Outcome;
use super::listing_tables;
use super::modules::Symbolizer;
use super::packets::HEAP_FIELDS;
use super::session::Session;
use crate::model::{Column, Field, Table, TraceBuilder};
use std::collections::HashMap;

/// Frames shown per leak group in the table's `frames` column.
const SHOWN_FRAMES: usize = 6;

/// Adds every table for the session.
pub fn add_all(
    session: &Session,
    outcome: &Outcome,
    symbolizer: &Symbolizer,
    dropped: &[String],
    builder: &mut TraceBuilder,
) {
    for (slot, live) in outcome.slots.iter().zip(&outcome.live) {
        builder.table(leak_table(session, &slot.name, slot.unit, live, symbolizer));
    }
    if !session.contexts.is_empty() {
        builder.table(context_table(session, outcome));
    }
    if !session.attachments.is_empty() {
        builder.table(attachment_table(session, dropped));
    }
    if let Some(table) = heap_table(session) {
        builder.table(table);
    }
    builder.table(mapping_table(session, symbolizer));
    builder.table(listing_tables::backtrace_table(
        session,
        &outcome.backtrace_calls,
    ));
    if let Some(table) = listing_tables::resolved_frame_table(session, symbolizer) {
        builder.table(table);
    }
    if !session.resources.is_empty() {
        builder.table(listing_tables::resource_type_table(session));
    }
}

/// Live blocks grouped by identical backtrace, biggest first.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
fn leak_table(
    session: &Session,
    resource: &str,
    unit: &str,
    live: &[super::calls::LiveBlock],
    symbolizer: &Symbolizer,
) -> Table {
    let groups = leak_groups(session, live);
    let total_blocks: u64 = groups.iter().map(|g| g.1.blocks).sum();
    let total_size: u64 = groups.iter().map(|g| g.1.size).sum();
    let (rows, highlight) = groups
        .iter()
        .map(|(backtrace, group)| leak_row(session, symbolizer, *backtrace, group))
        .unzip();
    Table {
        id: format!("leaks-{resource}"),
        title: format!("Leaks: {resource}"),
        columns: vec![
            Column::number(unit),
            Column::number("blocks"),
            Column::text("function"),
            Column::text("calls"),
            Column::text("frames (innermost first)"),
            Column::text("addresses"),
        ],
        rows,
        row_highlight: highlight,
        note: format!(
            "{total_blocks} block(s) with total size {total_size} {unit} still allocated when the trace ended, grouped by identical backtrace (as `sp-rtrace-postproc -l -c`). A release matches the latest allocation of the same id; reference-counted types count as live until the count drops to zero."
        ),
    }
}

/// The live blocks of one backtrace.
#[derive(Default)]
struct LeakGroup {
    blocks: u64,
    size: u64,
    /// Ordinals of the allocating calls.
    calls: Vec<u32>,
    /// The allocating functions, each once.
    functions: Vec<String>,
}

/// Live blocks by backtrace, biggest size first (then most blocks, then
/// earliest call).
fn leak_groups(session: &Session, live: &[super::calls::LiveBlock]) -> Vec<(u32, LeakGroup)> {
    let mut groups: HashMap<u32, LeakGroup> = HashMap::new();
    for block in live {
        let class = session.class(block.class);
        let g = groups.entry(class.backtrace).or_default();
        g.blocks += 1;
        g.size += u64::from(block.size);
        g.calls.push(block.call);
        let function = session
            .functions
            .get(class.function as usize)
            .map_or("?", String::as_str);
        if !g.functions.iter().any(|f| f == function) {
            g.functions.push(function.to_owned());
        }
    }
    let mut groups: Vec<_> = groups.into_iter().collect();
    groups.sort_by(|(_, a), (_, b)| {
        (b.size, b.blocks, a.calls.first()).cmp(&(a.size, a.blocks, b.calls.first()))
    });
    groups
}

/// The row of one leak group and the backtrace it highlights.
fn leak_row(
    session: &Session,
    symbolizer: &Symbolizer,
    backtrace: u32,
    group: &LeakGroup,
) -> (Vec<String>, Option<Field>) {
    let frames = session
        .backtraces
        .get(backtrace as usize)
        .map_or(&[][..], Vec::as_slice);
    let mut shown: Vec<String> = frames
        .iter()
        .take(SHOWN_FRAMES)
        .map(|&a| symbolizer.frame_name(a))
        .collect();
    if frames.len() > SHOWN_FRAMES {
        shown.push(format!("… {} more", frames.len() - SHOWN_FRAMES));
    }
    let calls = &group.calls;
    let call_list: Vec<String> = calls.iter().take(8).map(|c| format!("#{c}")).collect();
    let more = if calls.len() > 8 { " …" } else { "" };
    let row = vec![
        group.size.to_string(),
        group.blocks.to_string(),
        group.functions.join(", "),
        format!("{}{more}", call_list.join(" ")),
        shown.join(" ← "),
        frames
            .iter()
            .map(|a| format!("{a:#x}"))
            .collect::<Vec<_>>()
            .join(" "),
    ];
    let highlighted = if frames.is_empty() {
        "none".to_owned()
    } else {
        format!("#{backtrace}")
    };
    (row, Some(Field::new("backtrace", highlighted)))
}

/// CTXR contexts; selecting a row highlights the calls made in it.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
fn context_table(session: &Session, outcome: &Outcome) -> Table {
    let rows: Vec<Vec<String>> = session
        .contexts
        .iter()
        .map(|(id, name)| {
            let calls = outcome.context_calls.get(id).copied().unwrap_or(0);
            vec![format!("{id:#x}"), name.clone(), calls.to_string()]
        })
        .collect();
    Table {
        id: "contexts".into(),
        title: "Call contexts".into(),
        columns: vec![
            Column::text("mask"),
            Column::text("context"),
            Column::number("calls"),
        ],
        row_highlight: session
            .contexts
            .iter()
            .map(|(_, name)| Some(Field::new("context", name.clone())))
            .collect(),
        rows,
        note: "Contexts the program registered with sp_context_create(); a call belongs to every context entered when it was made (the mask is process-wide, not per thread).".into(),
    }
}

/// FILE attachments and whether they were dropped too.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
fn attachment_table(session: &Session, dropped: &[String]) -> Table {
    Table {
        id: "attachments".into(),
        title: "Attachments".into(),
        columns: vec![
            Column::text("name"),
            Column::text("path"),
            Column::text("dropped"),
        ],
        rows: session
            .attachments
            .iter()
            .map(|(name, path)| {
                let file = crate::decoder::file_name(path);
                let present = dropped.iter().any(|d| crate::decoder::file_name(d) == file);
                vec![
                    name.clone(),
                    path.clone(),
                    if present { "yes" } else { "no" }.to_owned(),
                ]
            })
            .collect(),
        row_highlight: Vec::new(),
        note: "Files the tracing modules attached (FILE packets, relative to the output directory); flamedrop lists them but does not read them.".into(),
    }
}

/// HINF heap statistics (`mallinfo()` at the end of the trace).
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
fn heap_table(session: &Session) -> Option<Table> {
    let heap = session.heap.as_ref()?;
    let mut rows = vec![
        vec![
            "heap bottom".to_owned(),
            format!("{:#x}", heap.heap_bottom),
            "lowest heap address".to_owned(),
        ],
        vec![
            "heap top".to_owned(),
            format!("{:#x}", heap.heap_top),
            "highest heap address".to_owned(),
        ],
    ];
    for ((name, meaning), value) in HEAP_FIELDS.iter().zip(heap.fields) {
        rows.push(vec![
            (*name).to_owned(),
            // mallinfo fields are C ints.
            (value as i32).to_string(),
            (*meaning).to_owned(),
        ]);
    }
    if let Some(past) = session.past_heap_info {
        let shown_as = [
            "total free space",
            "space ideally releasable via malloc_trim",
        ];
        for (half, shown_as) in past.chunks_exact(4).zip(shown_as) {
            let value = half.try_into().map_or(0, i32::from_le_bytes);
            rows.push(vec![
                format!("postproc's {shown_as}"),
                value.to_string(),
                "not in the trace: what a 64-bit sp-rtrace-postproc shows here, bytes past the HINF packet in its read buffer".to_owned(),
            ]);
        }
    }
    let layout = if heap.payload_len >= 56 {
        "two 64-bit heap bounds and ten dwords"
    } else {
        "twelve dwords (the 2.0 writer truncates 64-bit heap bounds to 32 bits)"
    };
    Some(Table {
        id: "heap-info".into(),
        title: "Heap statistics".into(),
        columns: vec![
            Column::text("field"),
            Column::text("value"),
            Column::text("meaning"),
        ],
        rows,
        row_highlight: Vec::new(),
        note: format!(
            "mallinfo() at the end of the trace (HINF, {} bytes: {layout}). Decoded by length, so 64-bit traces show the right values where sp-rtrace-postproc shifts them.",
            heap.payload_len
        ),
    })
}

/// MMAP executable mappings and whether their symbols were loaded.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
fn mapping_table(session: &Session, symbolizer: &Symbolizer) -> Table {
    Table {
        id: "mappings".into(),
        title: "Mapped modules".into(),
        columns: vec![
            Column::text("from"),
            Column::text("to"),
            Column::text("module"),
            Column::text("symbols"),
        ],
        rows: session
            .mappings
            .iter()
            .map(|m| {
                vec![
                    format!("{:#x}", m.from),
                    format!("{:#x}", m.to),
                    m.path.clone(),
                    if symbolizer.has_symbols(m) {
                        "from the dropped ELF file"
                    } else {
                        "none (drop the file to name functions)"
                    }
                    .to_owned(),
                ]
            })
            .collect(),
        row_highlight: Vec::new(),
        note: "Executable mappings recorded by the pre-processor (MMAP). Frames show as module+offset from the mapping start; drop the matching ELF binaries and libraries beside the trace to name functions from their symbol tables.".into(),
    }
}

/// Facts about the recording for the summary panel.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn metadata(session: &Session, builder: &mut TraceBuilder) {
    let h = &session.handshake;
    builder.metadata("protocol", h.version());
    builder.metadata(
        "architecture",
        format!(
            "{} ({}-endian, {}-byte pointers)",
            h.arch,
            if h.big_endian { "big" } else { "little" },
            h.pointer_size
        ),
    );
    if let Some(p) = &session.process {
        builder.metadata("process", format!("{} (pid {})", p.name, p.pid));
        builder.metadata(
            "started",
            format!("{} UTC", utc_text(p.seconds, p.microseconds)),
        );
        if let Some(depth) = p.depth {
            builder.metadata("backtrace depth", depth.to_string());
        }
    }
    if let Some((dir, options)) = &session.output {
        let dir = if dir.is_empty() {
            "(working directory)"
        } else {
            dir
        };
        builder.metadata("output directory", dir.to_owned());
        if !options.is_empty() {
            builder.metadata("post-processor options", options.clone());
        }
    }
    let modules: Vec<String> = session
        .modules
        .iter()
        .map(|(id, v, name)| format!("{name} {}.{} [{id:#x}]", v >> 16, v & 0xffff))
        .collect();
    if !modules.is_empty() {
        builder.metadata("tracing modules", modules.join(", "));
    }
    let resources: Vec<String> = session
        .resources
        .iter()
        .map(|r| {
            let refcount = if r.refcounted() { ", refcount" } else { "" };
            format!("{} ({}{refcount})", r.name, r.description)
        })
        .collect();
    if !resources.is_empty() {
        builder.metadata("resources", resources.join(", "));
    }
    // The recorded stamps' range, without a copy of them.
    let range = session
        .collected
        .iter()
        .map(|c| c.timestamp)
        .filter(|&t| t != 0)
        .fold(None, |range: Option<(u32, u32)>, t| match range {
            Some((lo, hi)) => Some((lo.min(t), hi.max(t))),
            None => Some((t, t)),
        });
    let clock = match range {
        Some((lo, hi)) => format!(
            "{} – {} (monotonic ms modulo 24 h); the time axis is the call number",
            clock_text(lo),
            clock_text(hi)
        ),
        _ => "none recorded (-T); the time axis is the call number".to_owned(),
    };
    builder.metadata("call timestamps", clock);
    let counts: Vec<String> = session
        .packet_counts()
        .iter()
        .map(|(tag, n)| format!("{tag} {n}"))
        .collect();
    builder.metadata("packets", counts.join(", "));
}

/// Epoch seconds as `YYYY-MM-DD HH:MM:SS.uuuuuu` (UTC, proleptic Gregorian).
pub fn utc_text(seconds: u32, microseconds: u32) -> String {
    let days = i64::from(seconds / 86_400);
    let rem = seconds % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}.{microseconds:06}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinf_times_print_in_utc() {
        // c-leaks: 1795288989.560381 is 2026-11-21 19:23:09 UTC (postproc's header).
        assert_eq!(
            utc_text(1_795_288_989, 560_381),
            "2026-11-21 19:23:09.560381"
        );
        assert_eq!(utc_text(0, 0), "1970-01-01 00:00:00.000000");
    }

    #[test]
    fn call_clock_prints_like_postproc() {
        assert_eq!(clock_text(1_064_149), "00:17:44.149");
    }
}
