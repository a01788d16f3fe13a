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
    /// Span name of each method id, made on first use.
    method_names: FastMap<u32, StrId>,
    /// Fixed detail fields (class, method, signature, …) of each method id's
    /// spans, interned on first use.
    method_fields: FastMap<u32, Vec<(StrId, StrId)>>,
    /// Span name of each CALL data id, made on first use.
    call_names: FastMap<u32, StrId>,
    /// `param 0`, `param 1`, … interned.
    param_keys: Vec<StrId>,
    /// Method names that occur more than once in a class (overloads).
    overloaded: std::collections::HashSet<(String, String)>,
    /// Smallest source line of each method's rows (0.4 gives METHOD_ENTRY line 0).
    first_line: FastMap<u32, i64>,
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
            method_names: FastMap::default(),
            method_fields: FastMap::default(),
            call_names: FastMap::default(),
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
    fn method_name(&mut self, builder: &mut TraceBuilder, id: u32) -> StrId {
        if let Some(&name) = self.method_names.get(&id) {
            return name;
        }
        let text = match self.method(id) {
            Some(m) if self.overloaded.contains(&(m.class.clone(), m.name.clone())) => {
                format!("{}.{}{}", m.class, m.name, readable_params(&m.desc))
            }
            Some(m) => format!("{}.{}", m.class, m.name),
            None => format!("method #{id}"),
        };
        let name = builder.intern(&text);
        self.method_names.insert(id, name);
        name
    }

    /// The fixed detail fields of method `id`'s spans.
    fn method_fields(&mut self, builder: &mut TraceBuilder, id: u32) -> &[(StrId, StrId)] {
        let method = self.methods.get(id as usize).and_then(Option::as_ref);
        self.method_fields.entry(id).or_insert_with(|| {
            let Some(m) = method else {
                return Vec::new();
            };
            let mut fields = vec![
                ("class", m.class.clone()),
                ("method", m.name.clone()),
                ("signature", readable_signature(&m.class, &m.name, &m.desc)),
                ("descriptor", m.desc.clone()),
            ];
            if !m.source.is_empty() {
                fields.push(("source", m.source.clone()));
            }
            fields
                .iter()
                .map(|(k, v)| (builder.intern(k), builder.intern(v)))
                .collect()
        })
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

/// Turns events into spans, instants and details.
pub struct Replay {
    pub builder: TraceBuilder,
    pub statics: Statics,
    /// The one process (the JVM), made with the first thread.
    process: Option<u32>,
    threads: FastMap<i64, ThreadState>,
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
            threads: FastMap::default(),
            events: 0,
            saw_millis: false,
        }
    }

    fn lane(&mut self, thread: i64) -> ThreadRef {
        if let Some(state) = self.threads.get(&thread) {
            return state.lane;
        }
        let id = thread.to_string();
        let process = match self.process {
            Some(p) => p,
            None => *self.process.insert(self.builder.process("jvm", "JVM")),
        };
        let lane = self.builder.thread(process, &id, &format!("thread {id}"));
        self.threads.insert(
            thread,
            ThreadState {
                lane,
                frames: Vec::new(),
            },
        );
        lane
    }

    /// Applies one event.
    pub fn event(&mut self, event: Event, origin: &Origin) {
        self.events += 1;
        self.saw_millis |= event.millis.is_some();
        // Taken out while the event is applied (nothing below looks data ids
        // up again) and put back after: no copy per event.
        let slot = usize::try_from(event.data_id).ok();
        let info = slot.and_then(|at| self.statics.data.get_mut(at)?.take());
        // Damaged records would otherwise open one lane per garbage thread id.
        if info.is_some() || self.threads.contains_key(&event.thread) {
            let lane = self.lane(event.thread);
            self.builder.count_events(lane, 1);
            self.builder.touch(lane, event.seq);
        }
        let Some(info) = info else {
            let id = event.data_id;
            self.builder.diagnose(
                Severity::DataLoss,
                "unknown-data-id",
                Some(origin.file),
                Some(origin.offset),
                1,
                || format!("events name data IDs that dataids.txt does not have (first: {id}); they are counted but not drawn"),
            );
            return;
        };
        if let Some(mut state) = self.threads.remove(&event.thread) {
            self.apply(&mut state, &info, event);
            self.threads.insert(event.thread, state);
        }
        if let Some(at) = slot.and_then(|at| self.statics.data.get_mut(at)) {
            *at = Some(info);
        }
    }

    fn value_text(&self, info: &DataInfo, raw: i64) -> Option<String> {
        describe_value(info.value, raw, &self.statics.objects)
    }

    fn apply(&mut self, state: &mut ThreadState, info: &DataInfo, event: Event) {
        let lane = state.lane;
        let seq = event.seq;
        match info.kind {
            EventKind::MethodEntry => self.enter(state, info, event),
            EventKind::MethodParam => {
                self.settle(state, info.method, false, seq);
                let value = self.value_text(info, event.value);
                if let Some(top) = state.frames.last_mut() {
                    if top.kind == FrameKind::Method && top.method == info.method {
                        let n = top.params;
                        top.params += 1;
                        let span = top.span;
                        let shown = match (info.attribute("name"), value) {
                            (Some(name), Some(v)) => format!("{name} = {v}"),
                            (_, Some(v)) => v,
                            (Some(name), None) => name.to_owned(),
                            (None, None) => String::new(),
                        };
                        let key = self.statics.param_key(&mut self.builder, n);
                        self.text_detail(lane, span, key, &shown);
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
                let detail = if info.kind == EventKind::NormalExit {
                    self.value_text(info, event.value).map(|v| ("return", v))
                } else {
                    let text = self.statics.objects.describe_exception(event.value as u64);
                    Some(("exception", text))
                };
                if let Some((key, text)) = detail {
                    let key = self.builder.intern(key);
                    self.text_detail(lane, frame.span, key, &text);
                }
                self.end_frame(lane, &frame, seq + 1, event.millis);
            }
            EventKind::Call => {
                self.settle(state, info.method, false, seq);
                let call_id = u32::try_from(event.data_id).unwrap_or(u32::MAX);
                let name = match self.statics.call_names.get(&call_id) {
                    Some(&name) => name,
                    None => {
                        let owner = info.attribute("owner").map(dotted).unwrap_or_default();
                        let callee = info.attribute("name").unwrap_or("?");
                        let name = if owner.is_empty() {
                            format!("call {callee}")
                        } else {
                            format!("call {owner}.{callee}")
                        };
                        let name = self.builder.intern(&name);
                        self.statics.call_names.insert(call_id, name);
                        name
                    }
                };
                let span = self.builder.begin(lane, seq, name, 0);
                if let Some(desc) = info.attribute("desc") {
                    let key = self.builder.intern("descriptor");
                    self.text_detail(lane, span, key, desc);
                }
                if info.line > 0 {
                    let key = self.builder.intern("line");
                    self.builder.detail(lane, span, key, Value::Int(info.line));
                }
                if let Some(receiver) = self.value_text(info, event.value) {
                    if event.value != 0 {
                        let key = self.builder.intern("receiver");
                        self.text_detail(lane, span, key, &receiver);
                    }
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
                let value = self.value_text(info, event.value);
                if let Some(top) = state.frames.last_mut() {
                    if matches!(top.kind, FrameKind::Call(_)) && top.method == info.method {
                        let n = top.params;
                        top.params += 1;
                        let span = top.span;
                        let key = self.statics.param_key(&mut self.builder, n);
                        self.text_detail(lane, span, key, &value.unwrap_or_default());
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
                if let Some(v) = self.value_text(info, event.value) {
                    let key = self.builder.intern("return");
                    self.text_detail(lane, frame.span, key, &v);
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

    fn enter(&mut self, state: &mut ThreadState, info: &DataInfo, event: Event) {
        let lane = state.lane;
        let name = self.statics.method_name(&mut self.builder, info.method);
        let span = self.builder.begin(lane, event.seq, name, 0);
        for &(key, value) in self.statics.method_fields(&mut self.builder, info.method) {
            self.builder.detail(lane, span, key, Value::Text(value));
        }
        let line = if info.line > 0 {
            Some(info.line)
        } else {
            self.statics.first_line.get(&info.method).copied()
        };
        if let Some(line) = line {
            let key = self.builder.intern("line");
            self.builder.detail(lane, span, key, Value::Int(line));
        }
        if info.value == ValueDesc::Object && event.value != 0 {
            let text = self.statics.objects.describe_object(event.value as u64);
            let key = self.builder.intern("this");
            self.text_detail(lane, span, key, &text);
        }
        state.frames.push(Frame {
            kind: FrameKind::Method,
            method: info.method,
            span,
            params: 0,
            start_millis: event.millis,
        });
    }

    /// Attaches a text field to a span, interning the text.
    fn text_detail(&mut self, lane: ThreadRef, span: SpanRef, key: StrId, text: &str) {
        let value = self.builder.intern(text);
        self.builder.detail(lane, span, key, Value::Text(value));
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
