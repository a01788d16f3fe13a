//! "Last write of this value": for a field or array read (or write), the
//! latest earlier write, in any thread, to the same field of the same object
//! (of the class, for a static field) or to the same index of the same
//! array. SELogger records an access as consecutive events of one thread:
//! `GET_INSTANCE_FIELD` (the object) then `…_RESULT` (the value);
//! `PUT_INSTANCE_FIELD` then `…_VALUE`; `ARRAY_LOAD` (the array),
//! `…_INDEX`, `…_RESULT`; `ARRAY_STORE`, `…_INDEX`, `…_VALUE`; a static
//! field is one event. An instance field is matched by object and name
//! (a field hidden by a subclass's field of the same name is not told apart).

use super::attributes::{site_name, site_owner};
use super::steps::{Stepper, Steps};
use super::text::event_type;
use crate::model::EventLog;

/// What an access reads or writes.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    Field {
        owner: Option<String>,
        name: Option<String>,
        /// The object, `None` for a static field.
        object: Option<i64>,
    },
    Element {
        array: i64,
        index: i64,
    },
}

fn kind(log: &EventLog, event: u32) -> &str {
    let site = log.site_of(event as usize).unwrap_or(u32::MAX);
    event_type(log, site)
}

fn value(log: &EventLog, event: u32) -> Option<i64> {
    log.value_of(event as usize)
}

/// The event `back` places before `event` in its thread, if it has type `want`.
fn before(log: &EventLog, steps: Steps, event: u32, back: usize, want: &str) -> Option<u32> {
    let mut at = event;
    for _ in 0..back {
        at = steps.previous(at)?;
    }
    (kind(log, at) == want).then_some(at)
}

/// The value event of the access `event` is part of (the event itself when
/// it is one).
fn value_event(log: &EventLog, steps: Steps, event: u32) -> Option<u32> {
    let ahead = match kind(log, event) {
        "GET_INSTANCE_FIELD" | "PUT_INSTANCE_FIELD" | "ARRAY_LOAD_INDEX" | "ARRAY_STORE_INDEX" => 1,
        "ARRAY_LOAD" | "ARRAY_STORE" => 2,
        _ => 0,
    };
    (0..ahead).try_fold(event, |at, _| steps.next(at))
}

/// What the access whose value event is `event` touches, and whether it writes.
fn target(log: &EventLog, steps: Steps, event: u32) -> Option<(Target, bool)> {
    let site = log.site_of(event as usize)?;
    // An instance field is named by the class the bytecode names (a
    // subclass reading an inherited field names itself): the object and
    // the name identify it. A static field needs its class.
    let field = |object: Option<i64>| Target::Field {
        owner: object.is_none().then(|| site_owner(log, site)).flatten(),
        name: site_name(log, site).map(str::to_owned),
        object,
    };
    let element = |head: &str, index: &str| {
        let index_event = before(log, steps, event, 1, index)?;
        let array_event = before(log, steps, event, 2, head)?;
        Some(Target::Element {
            array: value(log, array_event)?,
            index: value(log, index_event)?,
        })
    };
    let object = |head: &str| before(log, steps, event, 1, head).and_then(|e| value(log, e));
    match kind(log, event) {
        "GET_STATIC_FIELD" => Some((field(None), false)),
        "PUT_STATIC_FIELD" => Some((field(None), true)),
        "GET_INSTANCE_FIELD_RESULT" => Some((field(Some(object("GET_INSTANCE_FIELD")?)), false)),
        "PUT_INSTANCE_FIELD_VALUE" => Some((field(Some(object("PUT_INSTANCE_FIELD")?)), true)),
        "ARRAY_LOAD_RESULT" => Some((element("ARRAY_LOAD", "ARRAY_LOAD_INDEX")?, false)),
        "ARRAY_STORE_VALUE" => Some((element("ARRAY_STORE", "ARRAY_STORE_INDEX")?, true)),
        _ => None,
    }
}

/// The latest write before `event`'s access to what it reads or writes:
/// the index of that write's value event (`PUT_INSTANCE_FIELD_VALUE`,
/// `PUT_STATIC_FIELD`, `ARRAY_STORE_VALUE`). `None` when `event` is not a
/// field or array access or nothing wrote there before.
pub fn last_write(log: &EventLog, stepper: &Stepper, event: u32) -> Option<u32> {
    let steps = stepper.on(log);
    let own = value_event(log, steps, event)?;
    let (wanted, _) = target(log, steps, own)?;
    (0..own).rev().find(|&earlier| {
        let write = matches!(
            kind(log, earlier),
            "PUT_INSTANCE_FIELD_VALUE" | "PUT_STATIC_FIELD" | "ARRAY_STORE_VALUE"
        );
        write && target(log, steps, earlier).is_some_and(|(t, _)| t == wanted)
    })
}
