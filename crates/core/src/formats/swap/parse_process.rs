//! Process messages: MSG_PROCESS_INFO, _TERMINATE, _MAP, _UNMAP, _COMM and
//! _STATUS_INFO (notes §2).

use super::messages::{Mapping, Message, OpenFile, ProcessInfo, ProcessStatusInfo, WireTime};
use super::reader::{ByteCursor, SwapText};

/// MSG_PROCESS_INFO: the process, its binary's mapping and its libraries.
pub fn process_info(r: &mut ByteCursor) -> Option<Message> {
    let pid = r.u32()?;
    let comm = r.string()?;
    let ppid = r.u32()?;
    let start = WireTime {
        sec: r.u32()?,
        nsec: r.u32()?,
    };
    let low = r.u64()?;
    let high = r.u64()?;
    let binary = r.string()?;
    // Each library is at least two addresses and an empty string.
    let count = r.count(17)?;
    let libs = (0..count)
        .map(|_| {
            Some(Mapping {
                low: r.u64()?,
                high: r.u64()?,
                path: r.string()?,
            })
        })
        .collect::<Option<_>>()?;
    Some(Message::ProcessInfo(ProcessInfo {
        pid,
        comm,
        ppid,
        start,
        low,
        high,
        binary,
        libs,
    }))
}

/// MSG_TERMINATE: the pid only (the old document's TYPE field was never written).
pub fn terminate(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::Terminate { pid: r.u32()? })
}

/// MSG_PROCESS_MAP.
pub fn map(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::ProcessMap {
        pid: r.u32()?,
        low: r.u64()?,
        high: r.u64()?,
        path: r.string()?,
    })
}

/// MSG_PROCESS_UNMAP.
pub fn unmap(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::ProcessUnmap {
        pid: r.u32()?,
        low: r.u64()?,
        high: r.u64()?,
    })
}

/// MSG_PROCESS_COMM (written by no 4.1 hook, decoded if seen).
pub fn comm(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::ProcessComm {
        pid: r.u32()?,
        comm: r.string()?,
    })
}

/// MSG_PROCESS_STATUS_INFO. The code writes `fd, size, path` per file; the
/// documents put a TID after fd. The code's layout is tried first and the
/// documented one when the first does not end exactly at the payload end.
pub fn status_info(payload: &[u8]) -> Option<(Message, usize)> {
    let read = |with_tid: bool| -> Option<(Message, usize)> {
        let mut r = ByteCursor::le(payload);
        let pid = r.u32()?;
        let count = r.count(if with_tid { 17 } else { 13 })?;
        let files = (0..count)
            .map(|_| {
                let fd = r.u32()?;
                let tid = if with_tid { r.u32()? } else { 0 };
                Some(OpenFile {
                    fd,
                    tid,
                    size: r.u64()?,
                    path: r.string()?,
                })
            })
            .collect::<Option<_>>()?;
        let message = Message::ProcessStatusInfo(ProcessStatusInfo {
            pid,
            with_tid,
            files,
        });
        Some((message, r.remaining()))
    };
    match read(false) {
        Some((m, 0)) => Some((m, 0)),
        code_layout => match read(true) {
            Some((m, 0)) => Some((m, 0)),
            doc_layout => code_layout.or(doc_layout),
        },
    }
}
