//! SELogger values and stepping in `window.flamedrop`:
//!
//! - `values(location)`: shows `location` in the Values view and returns its
//!   history `{location, data_ids, complete, note, distinct, min, max,
//!   points: [{event, seq, thread, data_id, value, detail}]}` (`seq`:
//!   LogPrinter's EventId, `thread`: its ThreadId, `value`: the text after
//!   `Value=`). `location` is a data id (number), a key (`"id:12"`,
//!   `"var:METHOD:NAME"`, `"field:OWNER:NAME"`) or `{data_id}`, `{method,
//!   variable}`, `{owner, field}`; without one, the view's location. `null`
//!   without a trace or a location;
//! - `event()`: the selected event `{event, seq, thread, data_id,
//!   event_type, place, line, value}` or `null`;
//! - `selectEvent(n)`: selects event `n` of the event log (`null` clears);
//! - `step(kind)`: steps from the selected event (`previous`, `next`,
//!   `into`, `over`, `out`, `back-over`, `back-out`, `last-write`) and
//!   returns the event it reached, or `null` where the step goes nowhere.

use super::{set, to_js, Published, Snapshot};
use crate::view_model::values::{describe, location_key, location_of_key, step, StepKind};
use flamedrop_core::analysis::values::{values, Location};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use yew::Callback;

/// What a script asks of the page's selected event and Values view.
pub enum EventCommand {
    Select(Option<u32>),
    Step(StepKind),
    ValuesAt(Option<Location>),
}

/// Adds the functions to the `window.flamedrop` object.
pub fn install_into(api: &js_sys::Object, published: &Published) {
    let p = published.clone();
    let function: Closure<dyn Fn(JsValue) -> JsValue> = Closure::new(move |location: JsValue| {
        let (answer, command) = history(&p.borrow(), &location);
        send(&p, command);
        answer
    });
    set(api, "values", function);
    let p = published.clone();
    let function: Closure<dyn Fn() -> JsValue> = Closure::new(move || {
        let snapshot = p.borrow();
        let summary = snapshot
            .loaded
            .as_ref()
            .zip(snapshot.event)
            .and_then(|(loaded, event)| describe(&loaded.trace, event));
        summary.map_or(JsValue::NULL, |s| to_js(&Summary::from(s)))
    });
    set(api, "event", function);
    let p = published.clone();
    let function: Closure<dyn Fn(JsValue) -> JsValue> = Closure::new(move |event: JsValue| {
        let event = event.as_f64().map(|n| n as u32);
        send(&p, Some(EventCommand::Select(event)));
        JsValue::UNDEFINED
    });
    set(api, "selectEvent", function);
    let p = published.clone();
    let function: Closure<dyn Fn(JsValue) -> JsValue> = Closure::new(move |kind: JsValue| {
        let Some(kind) = kind.as_string().and_then(|k| StepKind::from_name(&k)) else {
            return JsValue::NULL;
        };
        let target = {
            let snapshot = p.borrow();
            snapshot.loaded.as_ref().and_then(|loaded| {
                let log = &loaded.trace.event_log;
                step(log, loaded.stepper(), snapshot.event, None, kind)
            })
        };
        match target {
            Some(event) => {
                send(&p, Some(EventCommand::Select(Some(event))));
                JsValue::from_f64(f64::from(event))
            }
            None => JsValue::NULL,
        }
    });
    set(api, "step", function);
}

/// Sends `command` to the app (after the snapshot's borrow ended).
fn send(published: &Published, command: Option<EventCommand>) {
    let Some(command) = command else { return };
    let callback: Option<Callback<EventCommand>> = published.borrow().event_command.clone();
    if let Some(callback) = callback {
        callback.emit(command);
    }
}

/// The location a script names.
fn location_of(value: &JsValue) -> Option<Location> {
    if let Some(id) = value.as_f64() {
        return Some(Location::DataId(id as u32));
    }
    if let Some(key) = value.as_string() {
        return location_of_key(&key);
    }
    let get = |key: &str| js_sys::Reflect::get(value, &JsValue::from_str(key)).ok();
    if !value.is_object() {
        return None;
    }
    if let Some(id) = get("data_id").and_then(|v| v.as_f64()) {
        return Some(Location::DataId(id as u32));
    }
    let text = |key: &str| get(key).and_then(|v| v.as_string());
    if let (Some(method), Some(name)) = (get("method").and_then(|v| v.as_f64()), text("variable")) {
        return Some(Location::Variable {
            method: method as u32,
            name,
        });
    }
    Some(Location::Field {
        owner: text("owner")?,
        name: text("field")?,
    })
}

#[derive(Serialize)]
struct Point {
    event: u32,
    seq: i64,
    thread: String,
    data_id: u32,
    value: String,
    detail: Option<String>,
}

#[derive(Serialize)]
struct History {
    location: String,
    data_ids: Vec<u32>,
    complete: bool,
    note: String,
    distinct: usize,
    min: Option<f64>,
    max: Option<f64>,
    points: Vec<Point>,
}

/// The history of the named location (or the view's) and the command that
/// shows it in the view.
fn history(snapshot: &Snapshot, location: &JsValue) -> (JsValue, Option<EventCommand>) {
    let named = if location.is_undefined() || location.is_null() {
        None
    } else {
        match location_of(location) {
            Some(l) => Some(l),
            None => return (JsValue::NULL, None),
        }
    };
    let command = named.clone().map(|l| EventCommand::ValuesAt(Some(l)));
    let (Some(loaded), Some(location)) = (&snapshot.loaded, named.or(snapshot.values_at.clone()))
    else {
        return (JsValue::NULL, command);
    };
    let trace = &loaded.trace;
    let h = values(trace, &location);
    let thread_id = |t: u32| {
        trace
            .threads
            .get(t as usize)
            .map_or_else(|| t.to_string(), |t| t.id.clone())
    };
    let answer = History {
        location: location_key(&location),
        points: h
            .points
            .into_iter()
            .map(|p| Point {
                event: p.event,
                seq: p.seq,
                thread: thread_id(p.thread),
                data_id: p.data_id,
                value: p.text,
                detail: p.detail,
            })
            .collect(),
        data_ids: h.data_ids,
        complete: h.complete,
        note: h.note,
        distinct: h.distinct,
        min: h.min,
        max: h.max,
    };
    (to_js(&answer), command)
}

/// The selected event as `event()` returns it.
#[derive(Serialize)]
struct Summary {
    event: u32,
    seq: i64,
    thread: String,
    data_id: u32,
    event_type: String,
    place: String,
    line: i32,
    value: String,
}

impl From<crate::view_model::values::EventSummary> for Summary {
    fn from(s: crate::view_model::values::EventSummary) -> Summary {
        Summary {
            event: s.event,
            seq: s.seq,
            thread: s.thread,
            data_id: s.data_id,
            event_type: s.event_type,
            place: s.place,
            line: s.line,
            value: s.value,
        }
    }
}
