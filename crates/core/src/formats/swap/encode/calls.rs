//! Payloads of calls and scheduling: function entries and exits (4.x and
//! pre-4.0 layouts), system calls, context switches, samples, and file
//! functions.

use super::super::messages::{FileInfo, Message};
use super::Out;

/// Writes the payload of a function call, system call, context switch or
/// sample (nothing for other messages).
pub(super) fn payload(o: &mut Out, message: &Message) {
    match message {
        Message::FunctionEntry(e) => {
            let between = e.legacy.map_or(Between::Nothing, Between::LegacyPair);
            head(o, (e.pid, e.tid), between, (e.pc, e.caller, e.cpu));
            o.values(&e.args);
        }
        Message::FunctionExit(e) => {
            let between = e.legacy.map_or(Between::Nothing, Between::LegacyPair);
            head(o, (e.pid, e.tid), between, (e.pc, e.caller, e.cpu));
            o.value(&e.ret);
        }
        Message::SyscallEntry(e) => {
            let between = Between::ProbeType(e.probe_type);
            head(o, (e.pid, e.tid), between, (e.pc, e.caller, e.cpu));
            o.values(&e.args);
        }
        Message::SyscallExit(e) => {
            let between = Between::ProbeType(e.probe_type);
            head(o, (e.pid, e.tid), between, (e.pc, e.caller, e.cpu));
            o.value(&e.ret);
        }
        Message::ContextSwitch(c) => {
            o.u64(c.pc);
            o.u32(c.pid);
            o.u32(c.tid);
            o.u32(c.cpu);
        }
        Message::Sample(s) => {
            o.u32(s.pid);
            o.u64(s.pc);
            o.u32(s.tid);
            o.u32(s.cpu);
        }
        _ => {}
    }
}

/// What sits between the tid and the pc of a call's head.
enum Between {
    /// 4.x function calls.
    Nothing,
    /// Pre-4.0 function calls: probe type and sub-type.
    LegacyPair((u16, u16)),
    /// 4.x system calls: the group bits.
    ProbeType(u32),
}

/// The head of a function or system call: pid, tid, what sits between,
/// then pc, caller and CPU.
fn head(o: &mut Out, (pid, tid): (u32, u32), between: Between, (pc, caller, cpu): (u64, u64, u32)) {
    o.u32(pid);
    o.u32(tid);
    match between {
        Between::Nothing => {}
        Between::LegacyPair((kind, sub)) => {
            o.u16(kind);
            o.u16(sub);
        }
        Between::ProbeType(bits) => o.u32(bits),
    }
    o.u64(pc);
    o.u64(caller);
    o.u32(cpu);
}

/// Writes the payload of a file function entry or exit.
pub(super) fn file_payload(o: &mut Out, message: &Message) {
    match message {
        Message::FileFunctionEntry(e) => {
            o.u32(e.pid);
            o.u32(e.tid);
            o.u32(e.fd);
            o.u32(e.event);
            o.str(&e.path);
            match &e.info {
                FileInfo::None => o.u32(0),
                FileInfo::Open { opened_path } => {
                    o.u32(1);
                    o.str(opened_path);
                }
                FileInfo::Lock {
                    kind,
                    whence,
                    start,
                    length,
                } => {
                    o.u32(2);
                    o.u32(*kind);
                    o.u32(*whence);
                    o.u64(*start);
                    o.u64(*length);
                }
                FileInfo::Other { kind, bytes } => {
                    o.u32(*kind);
                    o.bytes(bytes);
                }
            }
        }
        Message::FileFunctionExit { pid, tid, ret } => {
            o.u32(*pid);
            o.u32(*tid);
            o.value(ret);
        }
        _ => {}
    }
}
