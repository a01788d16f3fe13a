//! Payloads of the other messages: error, image, record, web functions,
//! setup stages, FBI, UI hierarchy, LSan, and unknown ids (raw).

use super::super::messages::Message;
use super::Out;

/// Writes the payload of any message not written by another family.
pub(super) fn payload(o: &mut Out, message: &Message) {
    match message {
        Message::Error { text } => o.str(text),
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
        Message::Unknown { payload, .. } => o.bytes(payload),
        _ => {}
    }
}
