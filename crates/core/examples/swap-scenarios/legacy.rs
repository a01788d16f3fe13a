//! Pre-4.0 streams: the u16 probe type and sub-type after the tid, and
//! system calls sent as function calls with probe type 3.

use crate::scenario::*;
use flamedrop_core::formats::swap::encode::{pre_4_0_syscall_entry, pre_4_0_syscall_exit};
use flamedrop_core::formats::swap::messages::*;
use flamedrop_core::formats::swap::values::Value;

/// A pre-4.0 function entry or exit of the main thread, of
/// probe type `kind`: argument 5, return value 0.
fn call(kind: u16, pc: u64, entry: bool) -> Message {
    let legacy = Some((kind, 0));
    if entry {
        Message::FunctionEntry(FunctionEntry {
            pid: PID,
            tid: PID,
            legacy,
            pc,
            caller: 0,
            cpu: 0,
            args: vec![Value::Int(5)],
        })
    } else {
        Message::FunctionExit(FunctionExit {
            pid: PID,
            tid: PID,
            legacy,
            pc,
            caller: 0,
            cpu: 0,
            ret: Value::Int(0),
        })
    }
}

/// A pre-4.0 stream: the u16 pair after the tid; a system call as probe type 3.
pub fn legacy() -> Vec<Frame> {
    let mut s = Scenario::default();
    s.at(0, process_info());
    s.at(1000, call(1, BIN_LOW + 0x10, true));
    s.at(2000, call(3, 0xc000_1000, true));
    s.at(3000, call(3, 0xc000_1000, false));
    s.at(4000, call(1, BIN_LOW + 0x10, false));
    s.frames(0)
}

/// A protocol 3.0 system call's entry on thread `tid`, in `group`.
fn enter(tid: u32, pc: u64, group: u32, args: Vec<Value>) -> Message {
    pre_4_0_syscall_entry(&SyscallEntry {
        pid: PID,
        tid,
        probe_type: group,
        pc,
        caller: BIN_LOW + 0x20,
        cpu: u32::from(tid != PID),
        args,
    })
}

/// A protocol 3.0 system call's exit on thread `tid`, in `group`.
fn leave(tid: u32, pc: u64, group: u32, ret: Value) -> Message {
    pre_4_0_syscall_exit(&SyscallExit {
        pid: PID,
        tid,
        probe_type: group,
        pc,
        caller: BIN_LOW + 0x20,
        cpu: u32::from(tid != PID),
        ret,
    })
}

/// Protocol 3.0 system calls: MSG_FUNCTION_ENTRY / EXIT with probe type 3
/// and the group bits as the sub-type, on two threads, around one
/// instrumented function; the worker's network call never returns before
/// the capture ends (an ipc call runs inside it).
pub fn legacy_syscalls() -> Vec<Frame> {
    let mut s = Scenario::default();
    s.at(0, process_info());
    let path = |p: &str| Value::Str(p.into());
    let (open, read, connect, ipc, kill) = (
        0xc000_1000,
        0xc000_2000,
        0xc000_3000,
        0xc000_4000,
        0xc000_5000,
    );
    s.at(1000, call(1, BIN_LOW + 0x10, true));
    let a = path("/opt/usr/media/a.jpg");
    s.at(2000, enter(PID, open, 0x01, vec![a, Value::Int(0)]));
    s.at(2500, enter(WORKER, connect, 0x10, vec![Value::Int(7)]));
    s.at(3000, enter(WORKER, ipc, 0x02, vec![Value::Int(1)]));
    s.at(3500, leave(PID, open, 0x01, Value::Int(3)));
    s.at(
        4000,
        enter(PID, read, 0x21, vec![Value::Int(3), Value::Long(4096)]),
    );
    s.at(5000, leave(WORKER, ipc, 0x02, Value::Int(0)));
    s.at(6000, leave(PID, read, 0x21, Value::Long(4096)));
    let b = path("/opt/usr/media/b.jpg");
    s.at(7000, enter(PID, open, 0x01, vec![b, Value::Int(0)]));
    s.at(7500, leave(PID, open, 0x01, Value::Int(4)));
    s.at(
        8000,
        enter(PID, kill, 0x0c, vec![Value::Int(1240), Value::Int(10)]),
    );
    s.at(8200, leave(PID, kill, 0x0c, Value::Int(0)));
    s.at(9000, call(1, BIN_LOW + 0x10, false));
    s.frames(0)
}
