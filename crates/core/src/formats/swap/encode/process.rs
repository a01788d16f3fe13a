//! Payloads of the messages about a process: info, terminate, status
//! info, map, unmap, comm.

use super::super::messages::Message;
use super::Out;

/// Writes the payload of a process message (nothing for other messages).
pub(super) fn payload(o: &mut Out, message: &Message) {
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
        _ => {}
    }
}
