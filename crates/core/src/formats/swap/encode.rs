//! Test-only writer of SWAP streams (cargo feature `swap-encoder`): every
//! [`Message`] back to its wire layout, so tests and the example that makes
//! the fixtures can describe a scenario as data. It follows the same notes
//! as the parser; it is not the target's code.

use super::framing::{Header, HEADER_LEN};
use super::messages::{
    FileInfo, Frame, FunctionEntry, FunctionExit, Message, ProbeTail, SyscallEntry, SyscallExit,
    System, UiControl, WireTime,
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
        Message::ProcessInfo(p) => {
            o.u32(p.pid);
            o.str(&p.comm);
            o.u32(p.ppid);
            o.time(p.start);
            o.u64(p.low);
            o.u64(p.high);
            o.str(&p.binary);
            o.u32(p.libs.len() as u32);
            for m in &p.libs {
                o.u64(m.low);
                o.u64(m.high);
                o.str(&m.path);
            }
        }
        Message::Terminate { pid } => o.u32(*pid),
        Message::Error { text } => o.str(text),
        Message::Sample(s) => {
            o.u32(s.pid);
            o.u64(s.pc);
            o.u32(s.tid);
            o.u32(s.cpu);
        }
        Message::System(s) => system(&mut o, s),
        Message::Image { payload } => o.bytes(payload),
        Message::Record { events } => {
            o.u32(events.len() as u32);
            for e in events {
                o.u32(e.device);
                o.u32(e.kind);
                o.u32(e.code);
                o.u32(e.value);
            }
        }
        Message::FunctionEntry(e) => {
            o.u32(e.pid);
            o.u32(e.tid);
            if let Some((a, b)) = e.legacy {
                o.u16(a);
                o.u16(b);
            }
            o.u64(e.pc);
            o.u64(e.caller);
            o.u32(e.cpu);
            o.values(&e.args);
        }
        Message::FunctionExit(e) => {
            o.u32(e.pid);
            o.u32(e.tid);
            if let Some((a, b)) = e.legacy {
                o.u16(a);
                o.u16(b);
            }
            o.u64(e.pc);
            o.u64(e.caller);
            o.u32(e.cpu);
            o.value(&e.ret);
        }
        Message::SyscallEntry(e) => {
            o.u32(e.pid);
            o.u32(e.tid);
            o.u32(e.probe_type);
            o.u64(e.pc);
            o.u64(e.caller);
            o.u32(e.cpu);
            o.values(&e.args);
        }
        Message::SyscallExit(e) => {
            o.u32(e.pid);
            o.u32(e.tid);
            o.u32(e.probe_type);
            o.u64(e.pc);
            o.u64(e.caller);
            o.u32(e.cpu);
            o.value(&e.ret);
        }
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
        Message::ProcessStatusInfo(s) => {
            o.u32(s.pid);
            o.u32(s.files.len() as u32);
            for f in &s.files {
                o.u32(f.fd);
                if s.with_tid {
                    o.u32(f.tid);
                }
                o.u64(f.size);
                o.str(&f.path);
            }
        }
        Message::ContextSwitch(c) => {
            o.u64(c.pc);
            o.u32(c.pid);
            o.u32(c.tid);
            o.u32(c.cpu);
        }
        Message::ProcessMap {
            pid,
            low,
            high,
            path,
        } => {
            o.u32(*pid);
            o.u64(*low);
            o.u64(*high);
            o.str(path);
        }
        Message::ProcessUnmap { pid, low, high } => {
            o.u32(*pid);
            o.u64(*low);
            o.u64(*high);
        }
        Message::ProcessComm { pid, comm } => {
            o.u32(*pid);
            o.str(comm);
        }
        Message::WebFunctionEntry(c) | Message::WebSampling { call: c, .. } => {
            if let Message::WebSampling { subtype, .. } = message {
                o.u8(*subtype);
            }
            o.u32(c.pid);
            o.u32(c.tid);
            o.u32(c.line);
            o.str(&c.name);
            o.str(&c.url);
        }
        Message::WebFunctionExit { pid, tid, name } => {
            o.u32(*pid);
            o.u32(*tid);
            o.str(name);
        }
        Message::AppSetupStage(s) => {
            o.u32(s.pid);
            o.u32(s.stage);
            o.time(s.begin);
            o.time(s.end);
        }
        Message::WebAppSetupStage(w) => {
            o.u32(w.pid);
            o.u32(w.wsp_id);
            if let Some(r) = w.resource {
                o.u32(r);
            }
            if let Some(p) = &w.path {
                o.str(p);
            }
        }
        Message::Fbi { variable, data } => {
            o.u32(*variable);
            o.u32(data.len() as u32);
            o.bytes(data);
        }
        Message::UiHierarchy { path } => o.str(path),
        Message::Lsan(l) => {
            o.u32(l.status);
            o.u32(l.pid);
            o.str(&l.message);
            o.u32(l.call_type);
            o.u64(l.caller);
        }
        Message::Probe(p) => {
            o.u32(p.api_id);
            o.u32(p.pid);
            o.u32(p.tid);
            o.values(&p.args);
            o.value(&p.ret);
            o.u64(p.errno);
            o.u32(p.call_type);
            o.u64(p.caller);
            o.u32(p.reserved.0);
            o.u32(p.reserved.1);
            probe_tail(&mut o, &p.tail);
        }
        Message::Unknown { payload, .. } => o.bytes(payload),
    }
    o.0
}

fn ui_control(o: &mut Out, c: &UiControl) {
    o.str(&c.kind);
    o.str(&c.name);
    o.u64(c.address);
}

fn probe_tail(o: &mut Out, tail: &ProbeTail) {
    match tail {
        ProbeTail::Memory {
            size,
            api_type,
            address,
        } => {
            o.u64(*size);
            o.u32(*api_type);
            o.u64(*address);
        }
        ProbeTail::UiControl { parent, child } => {
            ui_control(o, parent);
            ui_control(o, child);
        }
        ProbeTail::UiEvent {
            event_type,
            detail,
            x,
            y,
            info1,
            info2,
        } => {
            o.u32(*event_type);
            o.u32(*detail);
            o.u32(*x);
            o.u32(*y);
            o.str(info1);
            o.u32(*info2);
        }
        ProbeTail::Resource {
            size,
            fd,
            api_type,
            file_size,
            path,
        } => {
            o.u64(*size);
            o.u64(*fd);
            o.u32(*api_type);
            o.u64(*file_size);
            o.str(path);
        }
        ProbeTail::Lifecycle => {}
        ProbeTail::Screenshot { path, orientation } => {
            o.str(path);
            o.u32(*orientation);
        }
        ProbeTail::Scene {
            scene,
            form,
            form_address,
            panel,
            panel_address,
            transition,
            user,
        } => {
            o.str(scene);
            o.str(form);
            o.u64(*form_address);
            o.str(panel);
            o.u64(*panel_address);
            o.u64(*transition);
            o.u64(*user);
        }
        ProbeTail::Thread {
            pthread_id,
            tizen_thread_id,
            thread_type,
            api_type,
            class_name,
        } => {
            o.u64(*pthread_id);
            o.u64(*tizen_thread_id);
            o.u32(*thread_type);
            o.u32(*api_type);
            o.str(class_name);
        }
        ProbeTail::Custom {
            handle,
            chart_type,
            name,
            color,
            value,
        } => {
            o.u32(*handle);
            o.u32(*chart_type);
            o.str(name);
            o.u32(*color);
            o.u64(value.to_bits());
        }
        ProbeTail::Sync {
            object,
            sync_type,
            api_type,
        } => {
            o.u64(*object);
            o.u32(*sync_type);
            o.u32(*api_type);
        }
        ProbeTail::Network {
            object,
            fd,
            api_type,
            ip,
            port,
            total,
            data,
        } => {
            o.u64(*object);
            o.u64(*fd);
            o.u32(*api_type);
            o.u32(*ip);
            o.u32(*port);
            o.u64(*total);
            o.bytes(data);
        }
        ProbeTail::Gl {
            context,
            api_type,
            elapsed_ns,
            value,
        } => {
            o.u64(*context);
            o.u32(*api_type);
            o.u64(*elapsed_ns);
            o.str(value);
        }
        ProbeTail::Other { bytes, .. } => o.bytes(bytes),
    }
}

fn system(o: &mut Out, s: &System) {
    for &v in &s.cpu_frequency {
        o.f32(v);
    }
    for &v in &s.cpu_load {
        o.f32(v);
    }
    o.u64(s.memory_used);
    o.u32(s.processes.len() as u32);
    for p in &s.processes {
        o.u32(p.pid);
        o.f32(p.load);
        o.u64(p.virtual_bytes);
        o.u64(p.resident);
        o.u64(p.shared);
        o.u64(p.pss);
        if let Some((gem, three_d)) = p.gem_and_3d {
            o.u64(gem);
            o.u64(three_d);
        }
        o.u64(p.total_alloc);
        o.u32(p.threads.len() as u32);
        for &(tid, load) in &p.threads {
            o.u32(tid);
            o.f32(load);
        }
    }
    o.u32(s.others.len() as u32);
    for &(pid, load) in &s.others {
        o.u32(pid);
        o.f32(load);
    }
    for &v in s.disk.iter().chain(&s.network).chain(&s.devices) {
        o.u32(v);
    }
    o.u32(s.energy);
    for &v in s.energy_per_device.iter().chain(&s.app_energy_per_device) {
        o.u32(v);
    }
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
