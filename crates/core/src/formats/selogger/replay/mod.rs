//! Events → spans. Per SELogger thread, a stack of open frames: a method
//! (METHOD_ENTRY … METHOD_NORMAL_EXIT / METHOD_EXCEPTIONAL_EXIT) or a call
//! site inside it (CALL … CALL_RETURN, drawn as a child span named
//! `call Owner.name` so a woven callee nests inside its call site).
//!
//! The clock is the event's position in the whole recording (the .slg record
//! index or the text stream's Seqnum); a span ends just after its exit event.
//! Frames an exception left without an exit (a constructor that threw before
//! `super()` returned, a call whose callee threw) are closed when the next
//! event of the method below them shows control is back there.
//!
//! This file routes each event to the handler of its kind (`methods`,
//! `calls`, `exceptions`); `frames` holds the stack rules, `lookup` the
//! indexed static files, `values` the interned detail texts.

mod calls;
mod exceptions;
mod frames;
mod lookup;
mod methods;
mod split;
mod values;

pub use lookup::Statics;
pub use split::Split;

use crate::fast_hash::FastMap;
use crate::formats::selogger::statics::{DataInfo, EventKind, ValueDesc};
use crate::model::{
    EventLog, Format, Severity, SpanRef, StrId, ThreadRef, TimeUnit, TraceBuilder, Value, NO_SHAPE,
};
use frames::ThreadState;
use values::{key, Keys, ValueTexts};

/// One event of the stream, as read from either encoding.
#[derive(Clone, Copy, Debug)]
pub struct Event {
    /// Position in the recording: the clock.
    pub seq: i64,
    pub data_id: i64,
    pub thread: i64,
    pub value: i64,
    /// Wall-clock milliseconds (text stream with `timestamp=true` only).
    pub millis: Option<i64>,
}

/// An event whose data id dataids.txt knows, with that row.
#[derive(Clone, Copy)]
struct Known<'a> {
    id: usize,
    info: &'a DataInfo,
    event: Event,
}

/// What the per-event bookkeeping needs of a known data id (copied, so
/// nothing stays borrowed from the data ids).
#[derive(Clone, Copy)]
struct Site {
    id: usize,
    kind: EventKind,
    method: u32,
}

/// Where an event was read, for diagnostics.
pub struct Origin<'a> {
    pub file: &'a str,
    pub offset: u64,
}

/// Turns events into spans, instants and details.
pub struct Replay {
    pub builder: TraceBuilder,
    pub statics: Statics,
    /// The one process (the JVM), made with the first thread.
    process: Option<u32>,
    /// Threads in order of appearance; `thread_slots` maps SELogger thread
    /// ids to positions here, `last_thread` caches the latest lookup (events
    /// come in runs of one thread).
    threads: Vec<ThreadState>,
    thread_slots: FastMap<i64, usize>,
    last_thread: Option<(i64, usize)>,
    keys: Keys,
    value_texts: ValueTexts,
    /// Events seen, over all stream files.
    pub events: u64,
    /// Whether any event carried a millisecond timestamp.
    pub saw_millis: bool,
    /// Every event whose data id is known, for the listing.
    pub log: EventLog,
    /// The threads this part replays, when the input is decoded in parts.
    split: Option<Split>,
    /// The fields of the span being opened, added in one go (reused).
    span_fields: Vec<(StrId, Value)>,
    /// Per lane, per data id: the shape of the fixed fields and line its
    /// spans open with ([`NO_SHAPE`] until the first), so they are not looked
    /// up field by field per span.
    span_shapes: Vec<Vec<u32>>,
}

impl Replay {
    /// A replay into a fresh builder; with `split`, only of the threads that
    /// part owns.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    pub fn new(statics: Statics, builder: Option<TraceBuilder>, split: Option<Split>) -> Self {
        let builder =
            builder.unwrap_or_else(|| TraceBuilder::new(Format::Selogger, TimeUnit::Events));
        Replay {
            builder,
            statics,
            process: None,
            threads: Vec::new(),
            thread_slots: FastMap::default(),
            last_thread: None,
            keys: Keys::default(),
            value_texts: ValueTexts::new(),
            events: 0,
            saw_millis: false,
            log: EventLog::default(),
            split,
            span_fields: Vec::new(),
            span_shapes: Vec::new(),
        }
    }

    /// Whether this replay says what concerns the whole recording (the event
    /// log, problems of the files): always, unless it is a later part.
    pub fn keeps_whole(&self) -> bool {
        self.split.as_ref().is_none_or(Split::keeps_whole)
    }

    /// How the value of data ID `id` is encoded, if dataids.txt knows it.
    pub fn value_desc(&self, id: i64) -> Option<ValueDesc> {
        self.statics.data(id).map(|d| d.value)
    }

    /// Position of SELogger thread `thread` in `threads`, if it has a lane.
    fn thread_slot(&mut self, thread: i64) -> Option<usize> {
        if let Some((id, slot)) = self.last_thread {
            if id == thread {
                return Some(slot);
            }
        }
        let slot = *self.thread_slots.get(&thread)?;
        self.last_thread = Some((thread, slot));
        Some(slot)
    }

    /// The lane of `thread`, made on first use.
    fn lane(&mut self, thread: i64) -> usize {
        if let Some(slot) = self.thread_slot(thread) {
            return slot;
        }
        let id = thread.to_string();
        let process = match self.process {
            Some(p) => p,
            None => *self.process.insert(self.builder.process("jvm", "JVM")),
        };
        let lane = self.builder.thread(process, &id, &format!("thread {id}"));
        let slot = self.threads.len();
        self.threads.push(ThreadState {
            lane,
            frames: Vec::new(),
        });
        self.thread_slots.insert(thread, slot);
        if let Some(split) = &mut self.split {
            split.add_thread();
        }
        slot
    }

    /// Applies one event.
    pub fn event(&mut self, event: Event, origin: &Origin) {
        self.events += 1;
        self.saw_millis |= event.millis.is_some();
        let id = usize::try_from(event.data_id).ok();
        let known = id.and_then(|at| {
            let info = self.statics.data.get(at)?.as_ref()?;
            Some(Site {
                id: at,
                kind: info.kind,
                method: info.method,
            })
        });
        // Damaged records would otherwise open one lane per garbage thread id.
        let slot = if known.is_some() {
            Some(self.lane(event.thread))
        } else {
            self.thread_slot(event.thread)
        };
        if let Some(slot) = slot {
            self.on_thread(slot, known, event);
        }
        if known.is_none() && self.keeps_whole() {
            let id = event.data_id;
            self.builder.diagnose(
                Severity::DataLoss,
                "unknown-data-id",
                Some(origin.file),
                Some(origin.offset),
                1,
                || format!("events name data IDs that dataids.txt does not have (first: {id}); they are counted but not drawn"),
            );
        }
    }

    /// Counts the event on the lane of thread slot `slot` and applies it
    /// when its data id is known.
    fn on_thread(&mut self, slot: usize, known: Option<Site>, event: Event) {
        let Some(lane) = self.threads.get(slot).map(|s| s.lane) else {
            return;
        };
        let (mine, logs) = match &mut self.split {
            Some(split) => (split.owns_event(slot), split.keeps_whole()),
            None => (true, true),
        };
        if let (true, Some(Site { id, .. })) = (logs, known) {
            if let Ok(site) = u32::try_from(id) {
                self.log.push(event.seq, lane, site, event.value);
            }
        }
        if !mine {
            return;
        }
        self.builder.count_events(lane, 1);
        self.builder.touch(lane, event.seq);
        let Some(site) = known else {
            return;
        };
        if self.leaves_frames(slot, site) {
            return;
        }
        // The data ids are taken out while the event is applied (nothing
        // below looks one up again), the frames while the handler runs,
        // which needs `self`; both are put back after: no copy per event.
        let data = std::mem::take(&mut self.statics.data);
        let info = data.get(site.id).and_then(Option::as_ref);
        if let (Some(info), Some(state)) = (info, self.threads.get_mut(slot)) {
            let frames = std::mem::take(&mut state.frames);
            let mut state = ThreadState { lane, frames };
            self.apply(
                &mut state,
                Known {
                    id: site.id,
                    info,
                    event,
                },
            );
            if let Some(kept) = self.threads.get_mut(slot) {
                kept.frames = state.frames;
            }
        }
        self.statics.data = data;
    }

    /// True for an event that only shows control is in its method (most
    /// events: lines, locals, fields) when no frame is stale, so it changes
    /// nothing: then nothing needs taking out.
    fn leaves_frames(&self, slot: usize, site: Site) -> bool {
        if !matches!(site.kind, EventKind::Reserved | EventKind::Other) {
            return false;
        }
        self.threads
            .get(slot)
            .is_none_or(|state| !frames::has_stale(&state.frames, site.method, false))
    }

    /// Routes an event to the handler of its kind.
    fn apply(&mut self, state: &mut ThreadState, at: Known) {
        match at.info.kind {
            EventKind::MethodEntry => self.enter(state, at),
            EventKind::MethodParam => self.method_param(state, at),
            EventKind::NormalExit | EventKind::ExceptionalExit => self.method_exit(state, at),
            EventKind::Call => self.call(state, at),
            EventKind::CallParam => self.call_param(state, at),
            EventKind::CallReturn => self.call_return(state, at),
            EventKind::Catch | EventKind::CatchLabel => self.catch(state, at),
            EventKind::Throw => self.throw(state, at),
            EventKind::Reserved | EventKind::Other => {
                self.settle(state, at.info.method, false, at.event.seq)
            }
        }
    }

    /// Opens the span of a METHOD_ENTRY or CALL event, with its data id's
    /// fixed details and line.
    fn begin_span(&mut self, lane: ThreadRef, at: Known) -> Option<SpanRef> {
        let statics = self
            .statics
            .span_statics(&mut self.builder, at.id, at.info)?;
        let span = self.builder.begin(lane, at.event.seq, statics.name, 0);
        let fields = &mut self.span_fields;
        fields.clear();
        fields.extend(statics.fields.iter().map(|&(k, v)| (k, Value::Fixed(v))));
        if let Some(line) = statics.line {
            let key = key(&mut self.keys.line, &mut self.builder, "line");
            fields.push((key, Value::Int(line)));
        }
        let mut unknown = NO_SHAPE;
        let memo = span_shape(&mut self.span_shapes, lane, at.id).unwrap_or(&mut unknown);
        self.builder.details_memo(lane, span, memo, fields);
        Some(span)
    }
}

/// The memo of the shape that spans of data id `id` open with on `lane`,
/// made on first use (lanes and data ids are small and dense).
fn span_shape(memos: &mut Vec<Vec<u32>>, lane: ThreadRef, id: usize) -> Option<&mut u32> {
    let lane = lane as usize;
    if memos.len() <= lane {
        memos.resize_with(lane + 1, Vec::new);
    }
    let of_lane = memos.get_mut(lane)?;
    if of_lane.len() <= id {
        of_lane.resize(id + 1, NO_SHAPE);
    }
    of_lane.get_mut(id)
}
