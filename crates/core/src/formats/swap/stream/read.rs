//! Reading a message's payload by its id, once it leaves the window: the
//! stateless kinds directly, function calls and 0x0015 in the layout their
//! first check chose (kept in `Kept::how`).

use super::super::messages::Message;
use super::super::reader::ByteCursor;
use super::super::{ids, parse_calls, parse_misc, parse_probe, parse_process};

/// `Kept::how`: the function call was read in the pre-4.0 layout.
pub const HOW_LEGACY: u8 = 1;
/// `Kept::how`: 0x0015 was read as the document's web sampling.
pub const HOW_SAMPLING: u8 = 2;

/// A message read with the layout its first reading chose.
pub fn reread(id: u32, payload: &[u8], how: u8) -> Option<(Message, usize)> {
    match id {
        ids::FUNCTION_ENTRY | ids::FUNCTION_EXIT => {
            let mut r = ByteCursor::le(payload);
            let legacy = how & HOW_LEGACY != 0;
            let m = if id == ids::FUNCTION_ENTRY {
                parse_calls::function_entry(&mut r, legacy)
            } else {
                parse_calls::function_exit(&mut r, legacy)
            }?;
            Some((m, r.remaining()))
        }
        ids::WEB_0015 => parse_misc::web_0015_as(payload, how & HOW_SAMPLING != 0),
        _ => parse_stateless(id, payload),
    }
}

/// The message and its unread bytes for every id whose reading needs none of
/// the stream's state, or `None` when the fields do not fit.
fn parse_stateless(id: u32, payload: &[u8]) -> Option<(Message, usize)> {
    let simple = |f: fn(&mut ByteCursor) -> Option<Message>| {
        let mut r = ByteCursor::le(payload);
        let m = f(&mut r)?;
        Some((m, r.remaining()))
    };
    match id {
        ids::PROCESS_INFO => simple(parse_process::process_info),
        ids::TERMINATE => simple(parse_process::terminate),
        ids::ERROR => simple(parse_misc::error),
        ids::SAMPLE => simple(parse_calls::sample),
        ids::IMAGE => Some((
            Message::Image {
                payload: payload.to_vec(),
            },
            0,
        )),
        ids::RECORD => simple(parse_misc::record),
        ids::SYSCALL_ENTRY => simple(parse_calls::syscall_entry),
        ids::SYSCALL_EXIT => simple(parse_calls::syscall_exit),
        ids::FILE_FUNCTION_ENTRY => simple(parse_calls::file_entry),
        ids::FILE_FUNCTION_EXIT => simple(parse_calls::file_exit),
        ids::PROCESS_STATUS_INFO => parse_process::status_info(payload),
        ids::CONTEXT_SWITCH_ENTRY => simple(|r| parse_calls::context_switch(r, true)),
        ids::CONTEXT_SWITCH_EXIT => simple(|r| parse_calls::context_switch(r, false)),
        ids::PROCESS_MAP => simple(parse_process::map),
        ids::PROCESS_UNMAP => simple(parse_process::unmap),
        ids::PROCESS_COMM => simple(parse_process::comm),
        ids::WEB_FUNCTION_EXIT => simple(parse_misc::web_exit),
        ids::APP_SETUP_STAGE => simple(parse_misc::app_setup_stage),
        ids::WEB_APP_SETUP_STAGE => simple(parse_misc::web_app_setup_stage),
        ids::FBI => simple(parse_misc::fbi),
        ids::UI_HIERARCHY => simple(parse_misc::ui_hierarchy),
        ids::LSAN => simple(parse_misc::lsan),
        probe if probe & 0xFF00 == ids::PROBE_BIT => {
            let mut r = ByteCursor::le(payload);
            let m = parse_probe::probe(probe, &mut r)?;
            Some((m, r.remaining()))
        }
        other => Some((
            Message::Unknown {
                id: other,
                payload: payload.to_vec(),
            },
            0,
        )),
    }
}
