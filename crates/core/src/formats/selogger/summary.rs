//! What the near-omniscient and frequency outputs can honestly show without a
//! complete event sequence: a hot-method table, an event-frequency table, the
//! recent values of each location, and an "event frequency" sample set
//! (class → method → location, weighted by how often it ran) for the
//! aggregated flame graph, methods named as in the event-stream views.

use super::names::names_by_signature;
use super::recent::{Entry, Location, Where};
use super::statics::{DataInfo, MethodInfo};
use crate::model::{Column, Severity, Table, TraceBuilder};
use std::collections::HashMap;

/// Why these outputs have no flame chart, shown in the UI.
pub const NO_TIMELINE: &str = "no timeline: SELogger's near-omniscient and frequency outputs keep per-location counts (and at most the last few values of each location), not the sequence of events, so calls cannot be placed in time; the views show frequencies instead";

/// Recent values shown per location.
const SHOWN_VALUES: usize = 5;

/// Resolves a data ID through dataids.txt and methods.txt.
fn locate(at: &Where, data: &[Option<DataInfo>], methods: &[Option<MethodInfo>]) -> Location {
    match at {
        Where::Named(location) => location.clone(),
        Where::DataId(id) => {
            let info = usize::try_from(*id)
                .ok()
                .and_then(|i| data.get(i))
                .and_then(Option::as_ref);
            let method = info
                .and_then(|d| methods.get(d.method as usize))
                .and_then(Option::as_ref);
            Location {
                class: method.map_or_else(|| "(unknown class)".into(), |m| m.class.clone()),
                method: method.map_or_else(|| format!("(data id {id})"), |m| m.name.clone()),
                desc: method.map(|m| m.desc.clone()).unwrap_or_default(),
                line: info.map_or(-1, |d| d.line),
                event: info.map_or_else(|| "?".into(), |d| d.event.clone()),
            }
        }
    }
}

fn location_label(l: &Location) -> String {
    if l.line > 0 {
        format!("line {} {}", l.line, l.event)
    } else {
        l.event.clone()
    }
}

/// Adds the tables, the sample set and the explanation to `builder`.
pub fn add_views(
    builder: &mut TraceBuilder,
    entries: &[Entry],
    data: &[Option<DataInfo>],
    methods: &[Option<MethodInfo>],
    near_omniscient: bool,
) {
    let located: Vec<(Location, &Entry)> = entries
        .iter()
        .map(|e| (locate(&e.at, data, methods), e))
        .collect();
    let unknown = entries
        .iter()
        .zip(&located)
        .filter(|(e, (l, _))| matches!(e.at, Where::DataId(_)) && l.event == "?")
        .count();
    if unknown > 0 {
        builder.diagnose(Severity::DataLoss, "unknown-data-id", None, None, unknown as u64, || {
            "entries name data IDs that dataids.txt does not have (is dataids.txt missing?); they are listed by number".into()
        });
    }
    builder.table(event_frequency(&located));
    builder.table(hot_methods(&located));
    if near_omniscient {
        builder.table(recent_values(&located));
    }
    let names = names_by_signature(
        located
            .iter()
            .map(|(l, _)| (l.class.clone(), l.method.clone(), l.desc.clone())),
        methods,
    );
    let set = builder.sample_set("event frequency", None, &["events"]);
    for (l, e) in &located {
        let signature = (l.class.clone(), l.method.clone(), l.desc.clone());
        let method = names
            .get(&signature)
            .cloned()
            .unwrap_or_else(|| format!("{}.{}", l.class, l.method));
        let frames = [
            builder.intern(&l.class),
            builder.intern(&method),
            builder.intern(&location_label(l)),
        ];
        if let Some(stack) = builder.stack(&frames) {
            builder.sample(
                set,
                None,
                stack,
                &[i64::try_from(e.freq).unwrap_or(i64::MAX)],
            );
        }
    }
    builder.sample_set_note(set, NO_TIMELINE);
    let total: u64 = entries.iter().map(|e| e.freq).sum();
    builder.metadata("events recorded (sum of frequencies)", total.to_string());
    builder.metadata("locations", entries.len().to_string());
    builder.metadata("timeline", NO_TIMELINE);
    builder.diagnose(Severity::Info, "no-timeline", None, None, 1, || {
        NO_TIMELINE.into()
    });
}

fn event_frequency(located: &[(Location, &Entry)]) -> Table {
    let mut rows: Vec<(u64, Vec<String>)> = located
        .iter()
        .map(|(l, e)| {
            (
                e.freq,
                vec![
                    l.class.clone(),
                    l.method.clone(),
                    l.line.to_string(),
                    l.event.clone(),
                    e.freq.to_string(),
                ],
            )
        })
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    Table {
        id: "event-frequency".into(),
        title: "Event frequency".into(),
        columns: vec![
            Column::text("class"),
            Column::text("method"),
            Column::number("line"),
            Column::text("event"),
            Column::number("count"),
        ],
        rows: rows.into_iter().map(|(_, r)| r).collect(),
        row_highlight: Vec::new(),
        note: "How often each code location (data ID) produced an event.".into(),
    }
}

fn hot_methods(located: &[(Location, &Entry)]) -> Table {
    let mut per_method: HashMap<(String, String, String), (u64, u64)> = HashMap::new();
    for (l, e) in located {
        let slot = per_method
            .entry((l.class.clone(), l.method.clone(), l.desc.clone()))
            .or_default();
        if l.event == "METHOD_ENTRY" {
            slot.0 += e.freq;
        }
        slot.1 += e.freq;
    }
    let mut rows: Vec<_> = per_method.into_iter().collect();
    rows.sort_by(|a, b| b.1 .1.cmp(&a.1 .1).then_with(|| a.0.cmp(&b.0)));
    Table {
        id: "hot-methods".into(),
        title: "Hot methods".into(),
        columns: vec![
            Column::text("method"),
            Column::text("descriptor"),
            Column::number("calls"),
            Column::number("events"),
        ],
        rows: rows
            .into_iter()
            .map(|((class, method, desc), (calls, events))| {
                vec![
                    format!("{class}.{method}"),
                    desc,
                    calls.to_string(),
                    events.to_string(),
                ]
            })
            .collect(),
        row_highlight: Vec::new(),
        note: "calls = METHOD_ENTRY events; events = every event recorded inside the method."
            .into(),
    }
}

fn recent_values(located: &[(Location, &Entry)]) -> Table {
    let rows = located
        .iter()
        .filter(|(_, e)| !e.values.is_empty() || !e.seqnums.is_empty())
        .map(|(l, e)| {
            let from = e.values.len().saturating_sub(SHOWN_VALUES);
            let mut threads: Vec<i64> = e.threads.clone();
            threads.sort_unstable();
            threads.dedup();
            vec![
                format!("{}.{}", l.class, l.method),
                l.line.to_string(),
                l.event.clone(),
                e.freq.to_string(),
                e.seqnums.len().to_string(),
                e.values.get(from..).unwrap_or(&[]).join(" | "),
                e.seqnums.last().map(i64::to_string).unwrap_or_default(),
                threads
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            ]
        })
        .collect();
    Table {
        id: "recent-values".into(),
        title: "Recent values".into(),
        columns: vec![
            Column::text("method"),
            Column::number("line"),
            Column::text("event"),
            Column::number("count"),
            Column::number("kept"),
            Column::text("latest values (oldest first)"),
            Column::number("last seqnum"),
            Column::text("threads"),
        ],
        rows,
        row_highlight: Vec::new(),
        note: "Near-omniscient logging keeps only the last values of each location (the buffer size), with their global sequence numbers and threads.".into(),
    }
}
