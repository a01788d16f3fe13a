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

use super::objects::{describe_value, Objects};
use super::signature::{dotted, readable_params, readable_signature};
use super::statics::{DataInfo, EventKind, MethodInfo, ValueDesc};
use crate::fast_hash::FastMap;
use crate::model::{
    Field, Format, Severity, SpanRef, StrId, ThreadRef, TimeUnit, TraceBuilder, Value, SPAN_CUT,
};

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

/// Where an event was read, for diagnostics.
pub struct Origin<'a> {
    pub file: &'a str,
    pub offset: u64,
}

/// The static files, ready for lookups.
pub struct Statics {
    pub methods: Vec<Option<MethodInfo>>,
    pub data: Vec<Option<DataInfo>>,
    pub objects: Objects,
    /// CALL_RETURN data id → its CALL's data id.
    call_of_return: FastMap<u32, u32>,
    /// Span name and fixed details of the spans each METHOD_ENTRY or CALL
    /// data id opens, made on first use; indexed by data id (dense, bounded
    /// by dataids.txt), so the per-event lookup needs no hashing.
    spans: Vec<Option<SpanStatics>>,
    /// `param 0`, `param 1`, … interned.
    param_keys: Vec<StrId>,
    /// Method names that occur more than once in a class (overloads).
    overloaded: std::collections::HashSet<(String, String)>,
    /// Smallest source line of each method's rows (0.4 gives METHOD_ENTRY line 0).
    first_line: FastMap<u32, i64>,
}

/// What every span opened by one data id gets, whatever the event's value.
struct SpanStatics {
    name: StrId,
    /// Interned key and value pairs, in the order they are shown (the same
    /// for every span of the data id: kept as [`Value::Fixed`]).
    fields: Vec<(StrId, StrId)>,
    /// The `line` detail.
    line: Option<i64>,
}

impl Statics {
    /// Indexes the parsed static files.
    pub fn new(
        methods: Vec<Option<MethodInfo>>,
        data: Vec<Option<DataInfo>>,
        objects: Objects,
    ) -> Self {
        let mut seen = std::collections::HashSet::new();
        let mut overloaded = std::collections::HashSet::new();
        for m in methods.iter().flatten() {
            let key = (m.class.clone(), m.name.clone());
            if !seen.insert(key.clone()) {
                overloaded.insert(key);
            }
        }
        let call_of_return = link_call_returns(&data);
        let mut first_line: FastMap<u32, i64> = FastMap::default();
        for d in data.iter().flatten().filter(|d| d.line > 0) {
            let line = first_line.entry(d.method).or_insert(d.line);
            *line = (*line).min(d.line);
        }
        Statics {
            first_line,
            methods,
            data,
            objects,
            call_of_return,
            spans: Vec::new(),
            param_keys: Vec::new(),
            overloaded,
        }
    }

    fn data(&self, id: i64) -> Option<&DataInfo> {
        self.data.get(usize::try_from(id).ok()?)?.as_ref()
    }

    fn method(&self, id: u32) -> Option<&MethodInfo> {
        self.methods.get(id as usize)?.as_ref()
    }

    /// `demo.Bank.withdraw`, with the parameter list when the class overloads it.
    fn method_name(&self, id: u32) -> String {
        match self.method(id) {
            Some(m) if self.overloaded.contains(&(m.class.clone(), m.name.clone())) => {
                format!("{}.{}{}", m.class, m.name, readable_params(&m.desc))
            }
            Some(m) => format!("{}.{}", m.class, m.name),
            None => format!("method #{id}"),
        }
    }

    /// The span statics of data id `id` (a METHOD_ENTRY or CALL row), made
    /// on first use.
    fn span_statics(
        &mut self,
        builder: &mut TraceBuilder,
        id: usize,
        info: &DataInfo,
    ) -> Option<&SpanStatics> {
        if self.spans.get(id).is_none_or(Option::is_none) {
            let made = if info.kind == EventKind::Call {
                self.call_statics(builder, info)
            } else {
                self.method_statics(builder, info)
            };
            if self.spans.len() <= id {
                self.spans.resize_with(id + 1, || None);
            }
            if let Some(slot) = self.spans.get_mut(id) {
                *slot = Some(made);
            }
        }
        self.spans.get(id)?.as_ref()
    }

    /// A method span: class, method, signature, descriptor, source; the
    /// entry's line, or the method's first line.
    fn method_statics(&self, builder: &mut TraceBuilder, info: &DataInfo) -> SpanStatics {
        let name = builder.intern(&self.method_name(info.method));
        let mut fields = Vec::new();
        if let Some(m) = self.method(info.method) {
            let mut texts = vec![
                ("class", m.class.clone()),
                ("method", m.name.clone()),
                ("signature", readable_signature(&m.class, &m.name, &m.desc)),
                ("descriptor", m.desc.clone()),
            ];
            if !m.source.is_empty() {
                texts.push(("source", m.source.clone()));
            }
            fields = texts
                .iter()
                .map(|(k, v)| (builder.intern(k), builder.intern(v)))
                .collect();
        }
        let line = if info.line > 0 {
            Some(info.line)
        } else {
            self.first_line.get(&info.method).copied()
        };
        SpanStatics { name, fields, line }
    }

    /// A call-site span: `call Owner.name`, its descriptor and line.
    fn call_statics(&self, builder: &mut TraceBuilder, info: &DataInfo) -> SpanStatics {
        let owner = info.attribute("owner").map(dotted).unwrap_or_default();
        let callee = info.attribute("name").unwrap_or("?");
        let name = if owner.is_empty() {
            format!("call {callee}")
        } else {
            format!("call {owner}.{callee}")
        };
        let name = builder.intern(&name);
        let fields = info
            .attribute("desc")
            .map(|desc| (builder.intern("descriptor"), builder.intern(desc)))
            .into_iter()
            .collect();
        SpanStatics {
            name,
            fields,
            line: (info.line > 0).then_some(info.line),
        }
    }

    /// The key `param N`.
    fn param_key(&mut self, builder: &mut TraceBuilder, n: u32) -> StrId {
        while self.param_keys.len() <= n as usize {
            let key = builder.intern(&format!("param {}", self.param_keys.len()));
            self.param_keys.push(key);
        }
        self.param_keys[n as usize]
    }
}

/// CALL_RETURN → CALL: 0.4 names the CALL in `CallParent`; later versions
/// allocate CALL, its CALL_PARAMs and CALL_RETURN consecutively.
fn link_call_returns(data: &[Option<DataInfo>]) -> FastMap<u32, u32> {
    let mut links = FastMap::default();
    for (id, info) in data.iter().enumerate() {
        let Some(info) = info else { continue };
        if info.kind != EventKind::CallReturn {
            continue;
        }
        let parent = info
            .attribute("callparent")
            .and_then(|p| p.parse::<u32>().ok());
        let found = parent.or_else(|| {
            let mut at = id;
            while at > 0 {
                at -= 1;
                match data.get(at)?.as_ref()? {
                    d if d.kind == EventKind::CallParam && d.method == info.method => continue,
                    d if d.kind == EventKind::Call && d.method == info.method => {
                        return u32::try_from(at).ok()
                    }
                    _ => return None,
                }
            }
            None
        });
        if let Some(call) = found {
            links.insert(id as u32, call);
        }
    }
    links
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    Method,
    /// A call site; holds the CALL's data id.
    Call(u32),
}

struct Frame {
    kind: FrameKind,
    method: u32,
    span: SpanRef,
    params: u32,
    start_millis: Option<i64>,
}

struct ThreadState {
    lane: ThreadRef,
    frames: Vec<Frame>,
}

/// Keys of the details events attach, interned on first use (in the order
/// the strings first occur, as interning them per event did).
#[derive(Default)]
struct Keys {
    line: Option<StrId>,
    this: Option<StrId>,
    receiver: Option<StrId>,
    ret: Option<StrId>,
    exception: Option<StrId>,
}

/// The interned key `text`, interned into `slot` on first use.
fn key(slot: &mut Option<StrId>, builder: &mut TraceBuilder, text: &str) -> StrId {
    *slot.get_or_insert_with(|| builder.intern(text))
}

/// Slots of [`ValueTexts`] (a power of two).
const VALUE_TEXT_SLOTS: usize = 1 << 12;

/// The interned text of recent (data id, value) pairs: most events repeat a
/// value their data id had before (the same object, small numbers), and a
/// hit spares formatting and hashing the text. Direct-mapped, so its memory
/// is fixed however many distinct values a recording has.
struct ValueTexts {
    slots: Vec<(u32, i64, StrId)>,
}

impl ValueTexts {
    fn new() -> Self {
        ValueTexts {
            slots: vec![(u32::MAX, 0, 0); VALUE_TEXT_SLOTS],
        }
    }

    fn slot(data_id: u32, value: i64) -> usize {
        let mixed = (u64::from(data_id) << 32 ^ value as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> (64 - VALUE_TEXT_SLOTS.trailing_zeros())) as usize
    }

    fn get(&self, data_id: u32, value: i64) -> Option<StrId> {
        match self.slots.get(Self::slot(data_id, value)) {
            Some(&(d, v, text)) if d == data_id && v == value => Some(text),
            _ => None,
        }
    }

    fn put(&mut self, data_id: u32, value: i64, text: StrId) {
        if let Some(slot) = self.slots.get_mut(Self::slot(data_id, value)) {
            *slot = (data_id, value, text);
        }
    }
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
}

impl Replay {
    /// A replay into a fresh builder.
    pub fn new(statics: Statics, builder: Option<TraceBuilder>) -> Self {
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
        }
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
        slot
    }

    /// Applies one event.
    pub fn event(&mut self, event: Event, origin: &Origin) {
        self.events += 1;
        self.saw_millis |= event.millis.is_some();
        let id = usize::try_from(event.data_id).ok();
        // Taken out while the event is applied (nothing below looks data ids
        // up again) and put back after: no copy per event.
        let data = std::mem::take(&mut self.statics.data);
        let info = id.and_then(|at| data.get(at)?.as_ref());
        // Damaged records would otherwise open one lane per garbage thread id.
        let slot = if info.is_some() {
            Some(self.lane(event.thread))
        } else {
            self.thread_slot(event.thread)
        };
        if let Some(slot) = slot {
            if let Some(state) = self.threads.get_mut(slot) {
                let lane = state.lane;
                let frames = std::mem::take(&mut state.frames);
                self.builder.count_events(lane, 1);
                self.builder.touch(lane, event.seq);
                if let (Some(info), Some(id)) = (info, id) {
                    let mut state = ThreadState { lane, frames };
                    self.apply(&mut state, id, info, event);
                    if let Some(kept) = self.threads.get_mut(slot) {
                        kept.frames = state.frames;
                    }
                } else if let Some(kept) = self.threads.get_mut(slot) {
                    kept.frames = frames;
                }
            }
        }
        let known = info.is_some();
        self.statics.data = data;
        if !known {
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

    /// The interned text of an event's value (`make` shapes it on a miss).
    fn value_text_id(
        &mut self,
        data_id: usize,
        value: i64,
        make: impl FnOnce(&Objects) -> String,
    ) -> StrId {
        // u32::MAX marks an empty slot; no dataids.txt has that many rows.
        let data_id = u32::try_from(data_id).ok().filter(|&d| d != u32::MAX);
        if let Some(text) = data_id.and_then(|d| self.value_texts.get(d, value)) {
            return text;
        }
        let text = self.builder.intern(&make(&self.statics.objects));
        if let Some(d) = data_id {
            self.value_texts.put(d, value, text);
        }
        text
    }

    fn apply(&mut self, state: &mut ThreadState, id: usize, info: &DataInfo, event: Event) {
        let lane = state.lane;
        let seq = event.seq;
        match info.kind {
            EventKind::MethodEntry => self.enter(state, id, info, event),
            EventKind::MethodParam => {
                self.settle(state, info.method, false, seq);
                if let Some(top) = state.frames.last_mut() {
                    if top.kind == FrameKind::Method && top.method == info.method {
                        let n = top.params;
                        top.params += 1;
                        let span = top.span;
                        let key = self.statics.param_key(&mut self.builder, n);
                        let shown = self.value_text_id(id, event.value, |objects| {
                            let value = describe_value(info.value, event.value, objects);
                            match (info.attribute("name"), value) {
                                (Some(name), Some(v)) => format!("{name} = {v}"),
                                (_, Some(v)) => v,
                                (Some(name), None) => name.to_owned(),
                                (None, None) => String::new(),
                            }
                        });
                        self.builder.detail(lane, span, key, Value::Text(shown));
                    }
                }
            }
            EventKind::NormalExit | EventKind::ExceptionalExit => {
                let Some(at) = find_method(&state.frames, info.method) else {
                    self.builder.diagnose(
                        Severity::Info,
                        "exit-without-entry",
                        None,
                        None,
                        1,
                        || "method exits had no open entry of the same method on their thread; they were skipped".into(),
                    );
                    return;
                };
                self.close_above(state, at, seq);
                let Some(frame) = state.frames.pop() else {
                    return;
                };
                if info.kind == EventKind::ExceptionalExit {
                    let key = key(&mut self.keys.exception, &mut self.builder, "exception");
                    let text = self.value_text_id(id, event.value, |objects| {
                        objects.describe_exception(event.value as u64)
                    });
                    self.builder
                        .detail(lane, frame.span, key, Value::Text(text));
                } else if info.value != ValueDesc::Void {
                    let key = key(&mut self.keys.ret, &mut self.builder, "return");
                    let text = self.value_text_id(id, event.value, |objects| {
                        describe_value(info.value, event.value, objects).unwrap_or_default()
                    });
                    self.builder
                        .detail(lane, frame.span, key, Value::Text(text));
                }
                self.end_frame(lane, &frame, seq + 1, event.millis);
            }
            EventKind::Call => {
                self.settle(state, info.method, false, seq);
                let call_id = u32::try_from(event.data_id).unwrap_or(u32::MAX);
                let Some(statics) = self.statics.span_statics(&mut self.builder, id, info) else {
                    return;
                };
                let span = self.builder.begin(lane, seq, statics.name, 0);
                for &(key, value) in &statics.fields {
                    self.builder.detail(lane, span, key, Value::Fixed(value));
                }
                if let Some(line) = statics.line {
                    let key = key(&mut self.keys.line, &mut self.builder, "line");
                    self.builder.detail(lane, span, key, Value::Int(line));
                }
                if info.value != ValueDesc::Void && event.value != 0 {
                    let key = key(&mut self.keys.receiver, &mut self.builder, "receiver");
                    let receiver = self.value_text_id(id, event.value, |objects| {
                        describe_value(info.value, event.value, objects).unwrap_or_default()
                    });
                    self.builder.detail(lane, span, key, Value::Text(receiver));
                }
                state.frames.push(Frame {
                    kind: FrameKind::Call(call_id),
                    method: info.method,
                    span,
                    params: 0,
                    start_millis: event.millis,
                });
            }
            EventKind::CallParam => {
                if let Some(top) = state.frames.last_mut() {
                    if matches!(top.kind, FrameKind::Call(_)) && top.method == info.method {
                        let n = top.params;
                        top.params += 1;
                        let span = top.span;
                        let key = self.statics.param_key(&mut self.builder, n);
                        let value = self.value_text_id(id, event.value, |objects| {
                            describe_value(info.value, event.value, objects).unwrap_or_default()
                        });
                        self.builder.detail(lane, span, key, Value::Text(value));
                    }
                }
            }
            EventKind::CallReturn => {
                let data_id = u32::try_from(event.data_id).unwrap_or(u32::MAX);
                let call = self.statics.call_of_return.get(&data_id).copied();
                let at = call.and_then(|c| {
                    state
                        .frames
                        .iter()
                        .rposition(|f| f.kind == FrameKind::Call(c))
                });
                let Some(at) = at else {
                    self.builder.diagnose(
                        Severity::Info,
                        "return-without-call",
                        None,
                        None,
                        1,
                        || "CALL_RETURN events had no open CALL of the same call site; they were skipped".into(),
                    );
                    return;
                };
                self.close_above(state, at, seq);
                let Some(frame) = state.frames.pop() else {
                    return;
                };
                if info.value != ValueDesc::Void {
                    let key = key(&mut self.keys.ret, &mut self.builder, "return");
                    let text = self.value_text_id(id, event.value, |objects| {
                        describe_value(info.value, event.value, objects).unwrap_or_default()
                    });
                    self.builder
                        .detail(lane, frame.span, key, Value::Text(text));
                }
                self.end_frame(lane, &frame, seq + 1, event.millis);
            }
            EventKind::Catch | EventKind::CatchLabel => {
                self.settle(state, info.method, true, seq);
                // The weaver's own catch-all before METHOD_EXCEPTIONAL_EXIT is no real catch.
                let generated = info.attribute("location") == Some("exceptional-exit")
                    || info.attribute("exceptionalexit").is_some();
                if info.kind == EventKind::Catch && !generated {
                    let text = self.statics.objects.describe_exception(event.value as u64);
                    let name = self.builder.intern("catch");
                    let fields = vec![
                        Field::new("exception", text),
                        Field::new("location", info.attribute("location").unwrap_or("handler")),
                    ];
                    self.builder.instant(lane, seq, name, fields);
                }
            }
            EventKind::Throw => {
                self.settle(state, info.method, false, seq);
                let text = self.statics.objects.describe_exception(event.value as u64);
                let name = self.builder.intern("throw");
                let mut fields = vec![Field::new("exception", text)];
                if info.line > 0 {
                    fields.push(Field::new("line", info.line.to_string()));
                }
                self.builder.instant(lane, seq, name, fields);
            }
            EventKind::Reserved | EventKind::Other => self.settle(state, info.method, false, seq),
        }
    }

    fn enter(&mut self, state: &mut ThreadState, id: usize, info: &DataInfo, event: Event) {
        let lane = state.lane;
        let Some(statics) = self.statics.span_statics(&mut self.builder, id, info) else {
            return;
        };
        let span = self.builder.begin(lane, event.seq, statics.name, 0);
        for &(key, value) in &statics.fields {
            self.builder.detail(lane, span, key, Value::Fixed(value));
        }
        if let Some(line) = statics.line {
            let key = key(&mut self.keys.line, &mut self.builder, "line");
            self.builder.detail(lane, span, key, Value::Int(line));
        }
        if info.value == ValueDesc::Object && event.value != 0 {
            let key = key(&mut self.keys.this, &mut self.builder, "this");
            let text = self.value_text_id(id, event.value, |objects| {
                objects.describe_object(event.value as u64)
            });
            self.builder.detail(lane, span, key, Value::Text(text));
        }
        state.frames.push(Frame {
            kind: FrameKind::Method,
            method: info.method,
            span,
            params: 0,
            start_millis: event.millis,
        });
    }

    fn end_frame(&mut self, lane: ThreadRef, frame: &Frame, time: i64, millis: Option<i64>) {
        if let (Some(start), Some(end)) = (frame.start_millis, millis) {
            self.builder.add_detail(
                lane,
                frame.span,
                Field::new(
                    "time (ms)",
                    format!("{start} – {end} ({} ms)", end.saturating_sub(start)),
                ),
            );
        }
        self.builder.end(lane, time);
    }

    /// Closes frames above index `at`, which an exception left without exits.
    fn close_above(&mut self, state: &mut ThreadState, at: usize, seq: i64) {
        while state.frames.len() > at + 1 {
            let Some(frame) = state.frames.pop() else {
                break;
            };
            let (why, flags) = match frame.kind {
                FrameKind::Method => ("left by an exception: no exit was recorded", SPAN_CUT),
                FrameKind::Call(_) => ("no CALL_RETURN: the callee threw", 0),
            };
            self.builder
                .add_detail(state.lane, frame.span, Field::new("exception", why));
            self.builder.add_flags(state.lane, frame.span, flags);
            self.builder.end(state.lane, seq);
        }
    }

    /// An event of `method` shows control is in that method: frames above its
    /// innermost frame are stale, except its own open call site (kept unless
    /// `close_calls`, which catch handlers set).
    fn settle(&mut self, state: &mut ThreadState, method: u32, close_calls: bool, seq: i64) {
        let Some(at) = find_method(&state.frames, method) else {
            return;
        };
        let mut keep = at;
        if !close_calls {
            if let Some(next) = state.frames.get(at + 1) {
                if matches!(next.kind, FrameKind::Call(_)) && next.method == method {
                    keep = at + 1;
                }
            }
        }
        self.close_above(state, keep, seq);
    }
}

/// The innermost method frame of `method`.
fn find_method(frames: &[Frame], method: u32) -> Option<usize> {
    frames
        .iter()
        .rposition(|f| f.kind == FrameKind::Method && f.method == method)
}

impl Replay {
    /// How the value of data ID `id` is encoded, if dataids.txt knows it.
    pub fn value_desc(&self, id: i64) -> Option<ValueDesc> {
        self.statics.data(id).map(|d| d.value)
    }
}
