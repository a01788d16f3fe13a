//! The remaining kernel and daemon messages: MSG_ERROR, MSG_RECORD, the web
//! messages 0x0015/0x0016, MSG_APP_SETUP_STAGE, MSG_WEB_APP_SETUP_STAGE,
//! MSG_FBI, MSG_UI_HIERARCHY and MSG_LSAN (notes §2).

use super::messages::{
    AppSetupStage, InputEvent, Lsan, Message, WebAppSetupStage, WebCall, WireTime,
};
use super::reader::{ByteCursor, SwapText};

/// MSG_ERROR: one string.
pub fn error(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::Error { text: r.string()? })
}

/// MSG_RECORD: raw input events.
pub fn record(r: &mut ByteCursor) -> Option<Message> {
    let count = r.count(16)?;
    let events = (0..count)
        .map(|_| {
            Some(InputEvent {
                device: r.u32()?,
                kind: r.u32()?,
                code: r.u32()?,
                value: r.u32()?,
            })
        })
        .collect::<Option<_>>()?;
    Some(Message::Record { events })
}

fn web_call(r: &mut ByteCursor) -> Option<WebCall> {
    Some(WebCall {
        pid: r.u32()?,
        tid: r.u32()?,
        line: r.u32()?,
        name: r.string()?,
        url: r.string()?,
    })
}

/// 0x0015 has two definitions: the 4.1 code's web function entry (`pid`
/// first) and the 2017 document's web sampling (a subtype byte first). True
/// when it is read as the document's form: byte 0 is 0 and bytes 1–4 are a
/// pid the stream already introduced (the rule of notes §2).
pub fn is_sampling(payload: &[u8], is_known_pid: impl Fn(u32) -> bool) -> bool {
    payload.first() == Some(&0)
        && payload
            .get(1..5)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .is_some_and(|b| is_known_pid(u32::from_le_bytes(b)))
}

/// 0x0015 read as web sampling (`sampling`) or as a web function entry.
pub fn web_0015_as(payload: &[u8], sampling: bool) -> Option<(Message, usize)> {
    let mut r = ByteCursor::le(payload);
    let message = if sampling {
        let subtype = r.u8()?;
        Message::WebSampling {
            subtype,
            call: web_call(&mut r)?,
        }
    } else {
        Message::WebFunctionEntry(web_call(&mut r)?)
    };
    Some((message, r.remaining()))
}

/// 0x0016: web function exit.
pub fn web_exit(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::WebFunctionExit {
        pid: r.u32()?,
        tid: r.u32()?,
        name: r.string()?,
    })
}

/// MSG_APP_SETUP_STAGE.
pub fn app_setup_stage(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::AppSetupStage(AppSetupStage {
        pid: r.u32()?,
        stage: r.u32()?,
        begin: WireTime {
            sec: r.u32()?,
            nsec: r.u32()?,
        },
        end: WireTime {
            sec: r.u32()?,
            nsec: r.u32()?,
        },
    }))
}

/// MSG_WEB_APP_SETUP_STAGE: a resource id for ids 1–4, a path for id 1.
pub fn web_app_setup_stage(r: &mut ByteCursor) -> Option<Message> {
    let pid = r.u32()?;
    let wsp_id = r.u32()?;
    let resource = if (1..=4).contains(&wsp_id) {
        Some(r.u32()?)
    } else {
        None
    };
    let path = if wsp_id == 1 { Some(r.string()?) } else { None };
    Some(Message::WebAppSetupStage(WebAppSetupStage {
        pid,
        wsp_id,
        resource,
        path,
    }))
}

/// MSG_FBI: a variable id and `size` bytes of its value.
pub fn fbi(r: &mut ByteCursor) -> Option<Message> {
    let variable = r.u32()?;
    let size = r.u32()?;
    Some(Message::Fbi {
        variable,
        data: r.take(size as usize)?.to_vec(),
    })
}

/// MSG_UI_HIERARCHY: the target-side path of the hierarchy file.
pub fn ui_hierarchy(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::UiHierarchy { path: r.string()? })
}

/// MSG_LSAN (2017 document only).
pub fn lsan(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::Lsan(Lsan {
        status: r.u32()?,
        pid: r.u32()?,
        message: r.string()?,
        call_type: r.u32()?,
        caller: r.u64()?,
    }))
}
