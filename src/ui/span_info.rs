//! Everything said about one span or marker, in words: shared by the hover
//! tooltip and the detail panel so they never disagree.

use crate::timeline::{Hit, SpanRef};
use crate::view_model::text::duration;
use crate::view_model::Loaded;
use flamedrop_core::layout::self_time;
use flamedrop_core::model::{SPAN_CUT, SPAN_OFF_CPU, SPAN_OPEN_AT_END, SPAN_START_REPAIRED};

/// A span or marker described for people.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    pub name: String,
    /// "span" or "marker".
    pub kind: &'static str,
    pub thread: String,
    /// Start, relative to the trace start.
    pub start: String,
    /// Duration and self time (spans only).
    pub duration: Option<String>,
    pub self_time: Option<String>,
    pub depth: Option<u16>,
    /// Notes from the span's flags ("did not return", …).
    pub notes: Vec<&'static str>,
    /// Arguments, return value and other recorded fields.
    pub fields: Vec<(String, String)>,
    /// What uftrace's read triggers saw change between the call's entry
    /// and exit: ("Δ vmrss", "+64 KB").
    pub deltas: Vec<(String, String)>,
}

/// Describes a span.
pub fn span(loaded: &Loaded, s: SpanRef) -> Option<Info> {
    let thread = loaded.trace.threads.get(s.thread)?;
    let spans = &thread.spans;
    let k = s.span as usize;
    let (start, end, depth) = (
        *spans.start.get(k)?,
        *spans.end.get(k)?,
        *spans.depth.get(k)?,
    );
    let flags = spans.flags.get(k).copied().unwrap_or(0);
    let unit = loaded.unit();
    let notes = [
        (
            SPAN_OPEN_AT_END,
            "did not return: still running when the recording ended",
        ),
        (
            SPAN_START_REPAIRED,
            "its entry was not recorded: the start was repaired",
        ),
        (SPAN_CUT, "cut short: the rest of its stack was lost"),
        (SPAN_OFF_CPU, "off CPU: the thread was not running"),
    ]
    .into_iter()
    .filter(|(bit, _)| flags & bit != 0)
    .map(|(_, note)| note)
    .collect();
    let self_ns = loaded
        .index
        .get(s.thread)
        .map(|index| self_time(spans, index, s.span));
    Some(Info {
        name: loaded.trace.str(*spans.name.get(k)?).to_owned(),
        kind: "span",
        thread: loaded.thread_title(s.thread),
        start: duration(start - loaded.origin, unit),
        duration: Some(duration(end - start, unit)),
        self_time: self_ns.map(|v| duration(v, unit)),
        depth: Some(depth),
        notes,
        fields: spans
            .details_of(s.span, &loaded.trace.strings)
            .into_iter()
            .map(|f| (f.key, f.value))
            .collect(),
        deltas: loaded.read_events.lines(s.thread, s.span),
    })
}

/// Describes an instant marker.
pub fn instant(loaded: &Loaded, thread: usize, i: u32) -> Option<Info> {
    let th = loaded.trace.threads.get(thread)?;
    let k = i as usize;
    let fields = th
        .instants
        .details_of(i, &loaded.trace.strings)
        .into_iter()
        .map(|f| (f.key, f.value))
        .collect();
    Some(Info {
        name: loaded.trace.str(*th.instants.name.get(k)?).to_owned(),
        kind: "marker",
        thread: loaded.thread_title(thread),
        start: duration(th.instants.time.get(k)? - loaded.origin, loaded.unit()),
        duration: None,
        self_time: None,
        depth: None,
        notes: Vec::new(),
        fields,
        deltas: Vec::new(),
    })
}

/// Describes whatever was hit.
pub fn hit(loaded: &Loaded, h: Hit) -> Option<Info> {
    match h {
        Hit::Span(s) => span(loaded, s),
        Hit::Instant { thread, instant: i } => instant(loaded, thread, i),
    }
}
