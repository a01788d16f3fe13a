//! MSG_PROBE_* messages from the probe library: the common part (API id,
//! pid, tid, arguments, return value, errno, call type, caller, reserved)
//! and the tail of each kind (notes §2, table "Probe-specific tails").

use super::ids;
use super::messages::{Message, Probe, ProbeTail, UiControl};
use super::reader::{ByteCursor, SwapText};
use super::values::Value;

/// Any message with the probe bit. Fails when the common part or a fixed
/// field of the tail does not fit.
pub fn probe(id: u32, r: &mut ByteCursor) -> Option<Message> {
    let api_id = r.u32()?;
    let pid = r.u32()?;
    let tid = r.u32()?;
    let count = r.u32()?;
    let (args, complete) = Value::read_list(r, count);
    if !complete {
        return None;
    }
    let ret = Value::read(r)?;
    let errno = r.u64()?;
    let call_type = r.u32()?;
    let caller = r.u64()?;
    let reserved = (r.u32()?, r.u32()?);
    let tail = tail(id, r)?;
    Some(Message::Probe(Probe {
        api_id,
        pid,
        tid,
        args,
        ret,
        errno,
        call_type,
        caller,
        reserved,
        tail,
    }))
}

fn ui_control(r: &mut ByteCursor) -> Option<UiControl> {
    Some(UiControl {
        kind: r.string()?,
        name: r.string()?,
        address: r.u64()?,
    })
}

fn tail(id: u32, r: &mut ByteCursor) -> Option<ProbeTail> {
    Some(match id {
        ids::PROBE_MEMORY => ProbeTail::Memory {
            size: r.u64()?,
            api_type: r.u32()?,
            address: r.u64()?,
        },
        ids::PROBE_UICONTROL | ids::PROBE_UIEVENT | ids::PROBE_SCREENSHOT | ids::PROBE_SCENE => {
            ui_tail(id, r)?
        }
        ids::PROBE_RESOURCE => ProbeTail::Resource {
            size: r.u64()?,
            fd: r.u64()?,
            api_type: r.u32()?,
            file_size: r.u64()?,
            path: r.string()?,
        },
        ids::PROBE_LIFECYCLE => ProbeTail::Lifecycle,
        ids::PROBE_THREAD => ProbeTail::Thread {
            pthread_id: r.u64()?,
            tizen_thread_id: r.u64()?,
            thread_type: r.u32()?,
            api_type: r.u32()?,
            class_name: r.string()?,
        },
        ids::PROBE_CUSTOM => ProbeTail::Custom {
            handle: r.u32()?,
            chart_type: r.u32()?,
            name: r.string()?,
            color: r.u32()?,
            value: r.f64()?,
        },
        ids::PROBE_SYNC => ProbeTail::Sync {
            object: r.u64()?,
            sync_type: r.u32()?,
            api_type: r.u32()?,
        },
        ids::PROBE_NETWORK => ProbeTail::Network {
            object: r.u64()?,
            fd: r.u64()?,
            api_type: r.u32()?,
            ip: r.u32()?,
            port: r.u32()?,
            total: r.u64()?,
            // The first bytes of the transfer run to the payload end.
            data: r.rest().to_vec(),
        },
        ids::PROBE_GL => ProbeTail::Gl {
            context: r.u64()?,
            api_type: r.u32()?,
            elapsed_ns: r.u64()?,
            value: r.string()?,
        },
        other => ProbeTail::Other {
            id: other,
            bytes: r.rest().to_vec(),
        },
    })
}

/// The tails of the screen's probes: UI controls and scenes (OSP era),
/// UI events and screenshots.
fn ui_tail(id: u32, r: &mut ByteCursor) -> Option<ProbeTail> {
    Some(match id {
        ids::PROBE_UICONTROL => ProbeTail::UiControl {
            parent: ui_control(r)?,
            child: ui_control(r)?,
        },
        ids::PROBE_UIEVENT => ProbeTail::UiEvent {
            event_type: r.u32()?,
            detail: r.u32()?,
            x: r.u32()?,
            y: r.u32()?,
            info1: r.string()?,
            info2: r.u32()?,
        },
        ids::PROBE_SCREENSHOT => ProbeTail::Screenshot {
            path: r.string()?,
            orientation: r.u32()?,
        },
        ids::PROBE_SCENE => ProbeTail::Scene {
            scene: r.string()?,
            form: r.string()?,
            form_address: r.u64()?,
            panel: r.string()?,
            panel_address: r.u64()?,
            transition: r.u64()?,
            user: r.u64()?,
        },
        other => ProbeTail::Other {
            id: other,
            bytes: r.rest().to_vec(),
        },
    })
}
