//! Calls with an entry and an exit: instrumented functions (both layouts),
//! system calls, file functions, web functions, and app setup stages. An
//! exit closes the latest open entry of the same function on its lane (the
//! pairing rule of notes §3); entries it skips over lost their exit and are
//! cut there; an exit with no open entry is counted and dropped.

use super::build::{value_fields, Build, Lane};
use super::messages::{FileInfo, Message};
use crate::fast_hash::FastMap;
use crate::model::{Field, SpanRef, StrId, ThreadRef, SPAN_CUT};

/// Open calls per lane, innermost last, with the key an exit must match.
#[derive(Default)]
pub struct CallStacks {
    open: FastMap<ThreadRef, Vec<(Option<u64>, StrId, SpanRef)>>,
    pub unmatched_entries: u64,
    pub unmatched_exits: u64,
}

impl CallStacks {
    /// Names of the calls open on lane `t`, outermost first.
    pub fn open_names(&self, t: ThreadRef) -> Vec<StrId> {
        self.open
            .get(&t)
            .map(|s| s.iter().map(|e| e.1).collect())
            .unwrap_or_default()
    }
}

/// A key for matching web function exits by name.
fn name_key(name: &str) -> u64 {
    // FNV-1a: stable and dependency-free.
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Build<'_> {
    fn open_call(
        &mut self,
        t: ThreadRef,
        time: i64,
        name: &str,
        key: Option<u64>,
        fields: Vec<Field>,
    ) {
        let name = self.b.intern(name);
        let span = self.b.begin(t, time, name, 0);
        for f in fields {
            self.b.add_detail(t, span, f);
        }
        self.b.count_events(t, 1);
        self.calls
            .open
            .entry(t)
            .or_default()
            .push((key, name, span));
    }

    /// Closes the latest open call matching `key` (`None`: the innermost).
    fn close_call(&mut self, t: ThreadRef, time: i64, key: Option<u64>, fields: Vec<Field>) {
        self.b.count_events(t, 1);
        let stack = self.calls.open.entry(t).or_default();
        let found = match key {
            Some(k) => stack.iter().rposition(|e| e.0 == Some(k)),
            None => stack.len().checked_sub(1),
        };
        let Some(at) = found else {
            self.calls.unmatched_exits += 1;
            self.b.touch(t, time);
            return;
        };
        let skipped = stack.len() - 1 - at;
        let span = stack[at].2;
        stack.truncate(at);
        self.calls.unmatched_entries += skipped as u64;
        self.b.cut_to(t, at + 1, time, SPAN_CUT);
        self.b.end(t, time);
        for f in fields {
            self.b.add_detail(t, span, f);
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

    /// Every message that opens or closes a call.
    pub fn call(&mut self, message: &Message, time: i64, offset: u64) {
        let _ = offset;
        match message {
            Message::FunctionEntry(e) => {
                let lane = legacy_lane(e.legacy);
                let t = self.call_lane(e.pid, e.tid, lane, time);
                let name = self.space.name(e.pid, e.pc);
                let mut fields = value_fields(&e.args, None);
                fields.push(Field::new("caller", self.space.name(e.pid, e.caller)));
                fields.push(Field::new("cpu", e.cpu.to_string()));
                if let Some((kind, sub)) = e.legacy {
                    fields.push(Field::new("probe type", format!("{kind}/{sub}")));
                }
                self.open_call(t, time, &name, Some(e.pc), fields);
            }
            Message::FunctionExit(e) => {
                let t = self.call_lane(e.pid, e.tid, legacy_lane(e.legacy), time);
                self.close_call(t, time, Some(e.pc), value_fields(&[], Some(&e.ret)));
            }
            Message::SyscallEntry(e) => {
                let t = self.call_lane(e.pid, e.tid, Lane::Syscalls, time);
                let mut fields = value_fields(&e.args, None);
                fields.push(Field::new("group", syscall_groups(e.probe_type)));
                fields.push(Field::new("cpu", e.cpu.to_string()));
                self.open_call(t, time, &format!("syscall {:#x}", e.pc), Some(e.pc), fields);
            }
            Message::SyscallExit(e) => {
                let t = self.call_lane(e.pid, e.tid, Lane::Syscalls, time);
                self.close_call(t, time, Some(e.pc), value_fields(&[], Some(&e.ret)));
            }
            Message::FileFunctionEntry(e) => {
                let t = self.call_lane(e.pid, e.tid, Lane::Files, time);
                let mut fields = vec![
                    Field::new("path", e.path.clone()),
                    Field::new("fd", e.fd.to_string()),
                ];
                match &e.info {
                    FileInfo::None => {}
                    FileInfo::Open { opened_path } => {
                        fields.push(Field::new("opened path", opened_path.clone()))
                    }
                    FileInfo::Lock {
                        kind,
                        whence,
                        start,
                        length,
                    } => fields.push(Field::new(
                        "lock",
                        format!("type {kind}, whence {whence}, start {start}, length {length}"),
                    )),
                    FileInfo::Other { kind, bytes } => fields.push(Field::new(
                        "info",
                        format!("kind {kind}, {} bytes", bytes.len()),
                    )),
                }
                self.open_call(t, time, file_event_name(e.event), None, fields);
            }
            Message::FileFunctionExit { pid, tid, ret } => {
                let t = self.call_lane(*pid, *tid, Lane::Files, time);
                self.close_call(t, time, None, value_fields(&[], Some(ret)));
            }
            Message::WebFunctionEntry(c) => {
                let t = self.call_lane(c.pid, c.tid, Lane::Web, time);
                let fields = vec![
                    Field::new("url", c.url.clone()),
                    Field::new("line", c.line.to_string()),
                ];
                self.open_call(t, time, &c.name, Some(name_key(&c.name)), fields);
            }
            Message::WebFunctionExit { pid, tid, name } => {
                let t = self.call_lane(*pid, *tid, Lane::Web, time);
                self.close_call(t, time, Some(name_key(name)), Vec::new());
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
