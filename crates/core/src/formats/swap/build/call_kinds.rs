//! One handler per message kind that opens or closes a call: instrumented
//! functions (both layouts), system calls, file functions, web functions
//! and app setup stages. Names are interned before fields, keys before
//! values, as the trace's string table has them.

use super::super::messages::{
    AppSetupStage, FileFunctionEntry, FileInfo, FunctionEntry, FunctionExit, SyscallEntry,
    SyscallExit, WebCall,
};
use super::super::values::Value;
use super::calls::name_key;
use super::texts::Number;
use super::{Build, Lane};
use crate::model::{Field, StrId, Value as FieldValue};

impl Build {
    /// The reused room for one event's fields, emptied.
    fn take_fields(&mut self) -> Vec<(StrId, FieldValue)> {
        let mut fields = std::mem::take(&mut self.fields);
        fields.clear();
        fields
    }

    /// MSG_FUNCTION_ENTRY: a call named by its address; a pre-4.0 system
    /// call (probe type 3) as the 4.x MSG_SYSCALL_ENTRY is.
    pub(super) fn function_entry(&mut self, e: &FunctionEntry, time: i64) {
        if let Some((KERNEL_PROBE, group)) = e.legacy {
            let call = SyscallHead {
                pid: e.pid,
                tid: e.tid,
                pc: e.pc,
                group: u32::from(group),
                cpu: e.cpu,
            };
            return self.open_syscall(&call, &e.args, time);
        }
        let mut fields = self.take_fields();
        let lane = legacy_lane(e.legacy);
        let t = self.call_lane(e.pid, e.tid, lane, time);
        let name = self.address_name(e.pid, e.pc);
        if self.thread_data {
            self.push_values(&mut fields, &e.args, None);
            let key = self.key("caller");
            let caller = self.address_name(e.pid, e.caller);
            fields.push((key, FieldValue::Text(caller)));
            self.push_number(&mut fields, "cpu", Number::Decimal, u64::from(e.cpu));
            if let Some((kind, sub)) = e.legacy {
                self.push_text(&mut fields, "probe type", &format!("{kind}/{sub}"));
            }
        }
        self.open_call(t, time, name, Some(e.pc), &fields);
        self.fields = fields;
    }

    /// MSG_FUNCTION_EXIT: closes the latest open call of the same pc (a
    /// pre-4.0 system call's exit as MSG_SYSCALL_EXIT does).
    pub(super) fn function_exit(&mut self, e: &FunctionExit, time: i64) {
        if let Some((KERNEL_PROBE, _)) = e.legacy {
            return self.close_syscall(e.pid, e.tid, e.pc, &e.ret, time);
        }
        let t = self.call_lane(e.pid, e.tid, legacy_lane(e.legacy), time);
        self.close_call(t, time, Some(e.pc), Some(&e.ret));
    }

    /// MSG_SYSCALL_ENTRY: a call on the thread's `syscalls` lane.
    pub(super) fn syscall_entry(&mut self, e: &SyscallEntry, time: i64) {
        let call = SyscallHead {
            pid: e.pid,
            tid: e.tid,
            pc: e.pc,
            group: e.probe_type,
            cpu: e.cpu,
        };
        self.open_syscall(&call, &e.args, time);
    }

    /// MSG_SYSCALL_EXIT: closes the latest open system call of the same pc.
    pub(super) fn syscall_exit(&mut self, e: &SyscallExit, time: i64) {
        self.close_syscall(e.pid, e.tid, e.pc, &e.ret, time);
    }

    /// A system call, whichever message brought it: `syscall <pc>` on the
    /// thread's `syscalls` lane, with its arguments, group and CPU.
    fn open_syscall(&mut self, call: &SyscallHead, args: &[Value], time: i64) {
        let mut fields = self.take_fields();
        let t = self.call_lane(call.pid, call.tid, Lane::Syscalls, time);
        let name = self.b.intern(&format!("syscall {:#x}", call.pc));
        if self.thread_data {
            self.push_values(&mut fields, args, None);
            self.push_text(&mut fields, "group", &syscall_groups(call.group));
            self.push_number(&mut fields, "cpu", Number::Decimal, u64::from(call.cpu));
        }
        self.open_call(t, time, name, Some(call.pc), &fields);
        self.fields = fields;
    }

    /// The exit of a system call: closes the latest open one of the same pc.
    fn close_syscall(&mut self, pid: u32, tid: u32, pc: u64, ret: &Value, time: i64) {
        let t = self.call_lane(pid, tid, Lane::Syscalls, time);
        self.close_call(t, time, Some(pc), Some(ret));
    }

    /// MSG_FILE_FUNCTION_ENTRY: a call on the thread's `files` lane.
    pub(super) fn file_function_entry(&mut self, e: &FileFunctionEntry, time: i64) {
        let mut fields = self.take_fields();
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
        self.fields = fields;
    }

    /// MSG_FILE_FUNCTION_EXIT: closes the innermost open file function.
    pub(super) fn file_function_exit(&mut self, pid: u32, tid: u32, ret: &Value, time: i64) {
        let t = self.call_lane(pid, tid, Lane::Files, time);
        self.close_call(t, time, None, Some(ret));
    }

    /// Web function entry (0x0015 in the 4.1 code): a call on the `web` lane.
    pub(super) fn web_function_entry(&mut self, c: &WebCall, time: i64) {
        let mut fields = self.take_fields();
        let t = self.call_lane(c.pid, c.tid, Lane::Web, time);
        let name = self.b.intern(&c.name);
        self.push_text(&mut fields, "url", &c.url);
        self.push_number(&mut fields, "line", Number::Decimal, u64::from(c.line));
        self.open_call(t, time, name, Some(name_key(&c.name)), &fields);
        self.fields = fields;
    }

    /// Web function exit (0x0016): closes the latest open call of that name.
    pub(super) fn web_function_exit(&mut self, pid: u32, tid: u32, name: &str, time: i64) {
        let t = self.call_lane(pid, tid, Lane::Web, time);
        self.close_call(t, time, Some(name_key(name)), None);
    }

    /// Web sampling (0x0015 in the 2017 document): a marker on the `web` lane.
    pub(super) fn web_sampling(&mut self, subtype: u8, call: &WebCall, time: i64) {
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

    /// MSG_APP_SETUP_STAGE: a span on the process's `startup` lane.
    pub(super) fn app_setup_stage(&mut self, s: &AppSetupStage) {
        let t = self.process_lane(s.pid, "startup");
        let name = self.b.intern(stage_name(s.stage));
        self.b.begin(t, s.begin.ns(), name, 0);
        self.b.end(t, s.end.ns().max(s.begin.ns()));
        self.b.count_events(t, 1);
    }
}

/// The pre-4.0 probe type of a system call (notes §2, 0x0008 / 0x0009; the
/// sub-type holds its group bits).
const KERNEL_PROBE: u16 = 3;

/// What a system call's entry says besides its arguments, in either layout.
struct SyscallHead {
    pid: u32,
    tid: u32,
    pc: u64,
    /// The group bits: 4.x probe type, pre-4.0 sub-type.
    group: u32,
    cpu: u32,
}

/// Pre-4.0 streams sent file activity (probe type 4) as function entries
/// and exits (and system calls, which are read as such before this).
fn legacy_lane(legacy: Option<(u16, u16)>) -> Lane {
    match legacy {
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
