//! Test-only writer of SWAP streams (cargo feature `swap-encoder`): every
//! [`Message`] back to its wire layout, so tests and the example that makes
//! the fixtures can describe a scenario as data. It follows the same notes
//! as the parser; it is not the target's code.

mod calls;
mod misc;
mod probe;
mod process;
mod system;

use super::framing::{Header, HEADER_LEN};
use super::messages::{
    Frame, FunctionEntry, FunctionExit, Message, SyscallEntry, SyscallExit, WireTime,
};
use super::values::Value;

/// Little-endian field writer.
#[derive(Default)]
struct Out(Vec<u8>);

impl Out {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }
    fn str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
    }
    fn time(&mut self, t: WireTime) {
        self.u32(t.sec);
        self.u32(t.nsec);
    }
    fn value(&mut self, v: &Value) {
        v.write(&mut self.0);
    }
    fn values(&mut self, values: &[Value]) {
        self.u32(values.len() as u32);
        for v in values {
            self.value(v);
        }
    }
    fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
}

/// The bytes of a whole stream.
pub fn encode(frames: &[Frame]) -> Vec<u8> {
    let mut out = Vec::new();
    for f in frames {
        encode_frame(f, &mut out);
    }
    out
}

/// Appends one message: header, payload, then `slack` junk bytes.
pub fn encode_frame(frame: &Frame, out: &mut Vec<u8>) {
    let mut payload = payload(&frame.message);
    payload.extend(std::iter::repeat_n(0xCD, frame.slack as usize));
    let header = Header {
        id: frame.message.id(),
        seq: frame.seq,
        sec: frame.time.sec,
        nsec: frame.time.nsec,
        len: payload.len() as u32,
    };
    out.reserve(HEADER_LEN + payload.len());
    out.extend_from_slice(&header.to_bytes());
    out.extend_from_slice(&payload);
}

/// The pre-4.0 probe type of a system call (kernel probe).
const KERNEL_PROBE: u16 = 3;

/// A system call as a protocol 3.0 (pre-4.0) target sends it: a
/// MSG_FUNCTION_ENTRY with probe type 3 and the group bits as its sub-type
/// (notes §2, 0x0008). The group must fit the sub-type's 16 bits.
pub fn pre_4_0_syscall_entry(e: &SyscallEntry) -> Message {
    Message::FunctionEntry(FunctionEntry {
        pid: e.pid,
        tid: e.tid,
        legacy: Some((KERNEL_PROBE, e.probe_type as u16)),
        pc: e.pc,
        caller: e.caller,
        cpu: e.cpu,
        args: e.args.clone(),
    })
}

/// The exit of a system call as a pre-4.0 target sends it: a
/// MSG_FUNCTION_EXIT with probe type 3 (see [`pre_4_0_syscall_entry`]).
pub fn pre_4_0_syscall_exit(e: &SyscallExit) -> Message {
    Message::FunctionExit(FunctionExit {
        pid: e.pid,
        tid: e.tid,
        legacy: Some((KERNEL_PROBE, e.probe_type as u16)),
        pc: e.pc,
        caller: e.caller,
        cpu: e.cpu,
        ret: e.ret.clone(),
    })
}

/// The payload of one message, without slack.
pub fn payload(message: &Message) -> Vec<u8> {
    let mut o = Out::default();
    match message {
        Message::ProcessInfo(_)
        | Message::Terminate { .. }
        | Message::ProcessStatusInfo(_)
        | Message::ProcessMap { .. }
        | Message::ProcessUnmap { .. }
        | Message::ProcessComm { .. } => process::payload(&mut o, message),
        Message::FunctionEntry(_)
        | Message::FunctionExit(_)
        | Message::SyscallEntry(_)
        | Message::SyscallExit(_)
        | Message::ContextSwitch(_)
        | Message::Sample(_) => calls::payload(&mut o, message),
        Message::FileFunctionEntry(_) | Message::FileFunctionExit { .. } => {
            calls::file_payload(&mut o, message)
        }
        Message::System(s) => system::payload(&mut o, s),
        Message::Probe(p) => probe::payload(&mut o, p),
        _ => misc::payload(&mut o, message),
    }
    o.0
}

/// The slack a real x86-32 daemon leaves after a MSG_SYSTEM (`v42`: the
/// daemon has the "protocol 4.2" fields), so the parser's inference finds
/// the layout (see `parse_system`).
pub fn daemon_slack(v42: bool) -> u32 {
    if v42 {
        276
    } else {
        268
    }
}
