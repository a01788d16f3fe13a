//! Calls with an entry and an exit: instrumented functions (both layouts),
//! system calls, file functions, web functions, and app setup stages. An
//! exit closes the latest open entry of the same function on its lane (the
//! pairing rule of notes §3); entries it skips over lost their exit and are
//! cut there; an exit with no open entry is counted and dropped.

use super::build::{Build, Lane};
use super::messages::{FileInfo, Message};
use super::texts::Number;
use super::values::Value;
use crate::fast_hash::FastMap;
use crate::model::{
    Field, SpanRef, StrId, ThreadRef, TraceBuilder, Value as FieldValue, NO_PARENT, SPAN_CUT,
};

/// Open calls per lane, innermost last, with the key an exit must match.
#[derive(Default)]
pub struct CallStacks {
    open: FastMap<ThreadRef, Vec<OpenCall>>,
    /// Stacks by caller stack and frame, in front of the builder's index.
    children: FastMap<(u32, StrId), u32>,
    pub unmatched_entries: u64,
    pub unmatched_exits: u64,
}

/// A call that has not returned.
struct OpenCall {
    /// What its exit must match (`None`: any exit closes the innermost).
    key: Option<u64>,
    name: StrId,
    span: SpanRef,
    /// The stack of the calls open down to this one, once asked for.
    stack: Option<u32>,
}

impl CallStacks {
    /// The stack `frame` called from stack `parent`, made on first use.
    pub fn child(&mut self, b: &mut TraceBuilder, parent: u32, frame: StrId) -> u32 {
        *self
            .children
            .entry((parent, frame))
            .or_insert_with(|| b.child_stack(parent, frame))
    }

    /// The stack of the calls open on lane `t` ([`NO_PARENT`] when none):
    /// made once per open call, outermost first, as samples ask for it.
    pub fn open_stack(&mut self, b: &mut TraceBuilder, t: ThreadRef) -> u32 {
        let Some(open) = self.open.get_mut(&t) else {
            return NO_PARENT;
        };
        let known = open.iter().rposition(|c| c.stack.is_some());
        let mut stack = known
            .and_then(|i| open.get(i))
            .and_then(|c| c.stack)
            .unwrap_or(NO_PARENT);
        let from = known.map_or(0, |i| i + 1);
        for call in open.iter_mut().skip(from) {
            stack = *self
                .children
                .entry((stack, call.name))
                .or_insert_with(|| b.child_stack(stack, call.name));
            call.stack = Some(stack);
        }
        stack
    }
}

/// A key for matching web function exits by name.
fn name_key(name: &str) -> u64 {
    // FNV-1a: stable and dependency-free.
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Build {
    /// Opens a call named `name` with the given fields.
    fn open_call(
        &mut self,
        t: ThreadRef,
        time: i64,
        name: StrId,
        key: Option<u64>,
        fields: &[(StrId, FieldValue)],
    ) {
        let span = self.b.begin(t, time, name, 0);
        for &(key, value) in fields {
            self.b.detail(t, span, key, value);
        }
        self.b.count_events(t, 1);
        self.calls.open.entry(t).or_default().push(OpenCall {
            key,
            name,
            span,
            stack: None,
        });
    }

    /// Closes the latest open call matching `key` (`None`: the innermost);
    /// its return value, if any, becomes a field.
    fn close_call(&mut self, t: ThreadRef, time: i64, key: Option<u64>, ret: Option<&Value>) {
        self.b.count_events(t, 1);
        let stack = self.calls.open.entry(t).or_default();
        let found = match key {
            Some(k) => stack.iter().rposition(|e| e.key == Some(k)),
            None => stack.len().checked_sub(1),
        };
        let Some(at) = found else {
            self.calls.unmatched_exits += 1;
            self.b.touch(t, time);
            return;
        };
        let skipped = stack.len() - 1 - at;
        let span = stack[at].span;
        stack.truncate(at);
        self.calls.unmatched_entries += skipped as u64;
        self.b.cut_to(t, at + 1, time, SPAN_CUT);
        self.b.end(t, time);
        if let Some(ret) = ret {
            let key = self.key("return");
            let text = self.values_text(std::slice::from_ref(ret));
            self.b.detail(t, span, key, FieldValue::Text(text));
        }
    }

    /// A call lane of a thread; the function lane first ends off-CPU time.
    fn call_lane(&mut self, pid: u32, tid: u32, lane: Lane, time: i64) -> ThreadRef {
        let t = self.lane(pid, tid, lane);
        if lane == Lane::Functions {
            self.end_off_cpu(t, time);
        }
        t
    }

    /// Every message that opens or closes a call. Names are interned before
    /// fields, keys before values, as the trace's string table has them.
    pub fn call(&mut self, message: &Message, time: i64, offset: u64) {
        let _ = offset;
        let mut fields = std::mem::take(&mut self.fields);
        fields.clear();
        match message {
            Message::FunctionEntry(e) => {
                let lane = legacy_lane(e.legacy);
                let t = self.call_lane(e.pid, e.tid, lane, time);
                let name = self.address_name(e.pid, e.pc);
                self.push_values(&mut fields, &e.args, None);
                let key = self.key("caller");
                let caller = self.address_name(e.pid, e.caller);
                fields.push((key, FieldValue::Text(caller)));
                self.push_number(&mut fields, "cpu", Number::Decimal, u64::from(e.cpu));
                if let Some((kind, sub)) = e.legacy {
                    self.push_text(&mut fields, "probe type", &format!("{kind}/{sub}"));
                }
                self.open_call(t, time, name, Some(e.pc), &fields);
            }
            Message::FunctionExit(e) => {
                let t = self.call_lane(e.pid, e.tid, legacy_lane(e.legacy), time);
                self.close_call(t, time, Some(e.pc), Some(&e.ret));
            }
            Message::SyscallEntry(e) => {
                let t = self.call_lane(e.pid, e.tid, Lane::Syscalls, time);
                let name = self.b.intern(&format!("syscall {:#x}", e.pc));
                self.push_values(&mut fields, &e.args, None);
                self.push_text(&mut fields, "group", &syscall_groups(e.probe_type));
                self.push_number(&mut fields, "cpu", Number::Decimal, u64::from(e.cpu));
                self.open_call(t, time, name, Some(e.pc), &fields);
            }
            Message::SyscallExit(e) => {
                let t = self.call_lane(e.pid, e.tid, Lane::Syscalls, time);
                self.close_call(t, time, Some(e.pc), Some(&e.ret));
            }
            Message::FileFunctionEntry(e) => {
                let t = self.call_lane(e.pid, e.tid, Lane::Files, time);
                let name = self.b.intern(file_event_name(e.event));
                self.push_text(&mut fields, "path", &e.path);
                self.push_number(&mut fields, "fd", Number::Decimal, u64::from(e.fd));
                match &e.info {
                    FileInfo::None => {}
                    FileInfo::Open { opened_path } => {
                        self.push_text(&mut fields, "opened path", opened_path)
                    }
                    FileInfo::Lock {
                        kind,
                        whence,
                        start,
                        length,
                    } => self.push_text(
                        &mut fields,
                        "lock",
                        &format!("type {kind}, whence {whence}, start {start}, length {length}"),
                    ),
                    FileInfo::Other { kind, bytes } => self.push_text(
                        &mut fields,
                        "info",
                        &format!("kind {kind}, {} bytes", bytes.len()),
                    ),
                }
                self.open_call(t, time, name, None, &fields);
            }
            Message::FileFunctionExit { pid, tid, ret } => {
                let t = self.call_lane(*pid, *tid, Lane::Files, time);
                self.close_call(t, time, None, Some(ret));
            }
            Message::WebFunctionEntry(c) => {
                let t = self.call_lane(c.pid, c.tid, Lane::Web, time);
                let name = self.b.intern(&c.name);
                self.push_text(&mut fields, "url", &c.url);
                self.push_number(&mut fields, "line", Number::Decimal, u64::from(c.line));
                self.open_call(t, time, name, Some(name_key(&c.name)), &fields);
            }
            Message::WebFunctionExit { pid, tid, name } => {
                let t = self.call_lane(*pid, *tid, Lane::Web, time);
                self.close_call(t, time, Some(name_key(name)), None);
            }
            Message::WebSampling { subtype, call } => {
                let t = self.call_lane(call.pid, call.tid, Lane::Web, time);
                self.marker(
                    t,
                    time,
                    &format!("web sample: {}", call.name),
                    vec![
                        Field::new("url", call.url.clone()),
                        Field::new("line", call.line.to_string()),
                        Field::new("subtype", subtype.to_string()),
                    ],
                );
            }
            Message::AppSetupStage(s) => {
                let t = self.process_lane(s.pid, "startup");
                let name = self.b.intern(stage_name(s.stage));
                self.b.begin(t, s.begin.ns(), name, 0);
                self.b.end(t, s.end.ns().max(s.begin.ns()));
                self.b.count_events(t, 1);
            }
            _ => {}
        }
        self.fields = fields;
    }
}

/// Pre-4.0 streams sent system calls (probe type 3) and file activity
/// (probe type 4) as function entries and exits.
fn legacy_lane(legacy: Option<(u16, u16)>) -> Lane {
    match legacy {
        Some((3, _)) => Lane::Syscalls,
        Some((4, _)) => Lane::Files,
        _ => Lane::Functions,
    }
}

fn syscall_groups(bits: u32) -> String {
    let names = [
        (0x01, "file"),
        (0x02, "ipc"),
        (0x04, "process"),
        (0x08, "signal"),
        (0x10, "network"),
        (0x20, "desc"),
    ];
    let found: Vec<&str> = names
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|(_, n)| *n)
        .collect();
    if found.is_empty() {
        format!("{bits:#x}")
    } else {
        found.join("|")
    }
}

/// File operation names of MSG_FILE_FUNCTION_ENTRY and MSG_PROBE_RESOURCE.
pub fn file_event_name(event: u32) -> &'static str {
    match event {
        0 => "open",
        1 => "close",
        2 => "read begin",
        3 => "read end",
        4 => "write begin",
        5 => "write end",
        6 => "directory",
        7 => "permissions",
        8 => "other",
        9 => "send",
        10 => "receive",
        11 => "option",
        12 => "manage",
        14 => "lock start",
        15 => "lock end",
        16 => "lock release",
        _ => "file operation",
    }
}

fn stage_name(stage: u32) -> &'static str {
    match stage {
        0 => "library mapping",
        1 => "main",
        2 => "create",
        3 => "reset",
        _ => "setup stage",
    }
}
