//! The Values query: every value a location took, in event order, with the
//! count of distinct values and the range of the numeric ones. A location
//! is one data id, or every data id that names a variable of a method or a
//! field of a class.

use super::attributes::{site_name, site_owner};
use super::text::{event_type, has_value, number_of, value_detail, value_text};
use crate::model::{EventLog, Trace};
use std::collections::HashSet;

/// Said when the trace keeps no event sequence.
pub const PARTIAL_NOTE: &str = "This SELogger output keeps no event sequence: near-omniscient \
    logging keeps only the last values of each location (the recent-values table), frequency \
    logging only counts events; no history of values can be shown.";

/// Where values are looked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// One data id (a row of dataids.txt).
    DataId(u32),
    /// A local variable or parameter `name` of method `method` (a row of
    /// methods.txt): its loads, stores, increments and parameter events.
    Variable { method: u32, name: String },
    /// Field `name` of class `owner` (dotted, `demo.Bank`): the values its
    /// reads and writes saw, in any method.
    Field { owner: String, name: String },
}

/// One value at a location.
#[derive(Clone, Debug, PartialEq)]
pub struct ValuePoint {
    /// The event's index in the trace's event log.
    pub event: u32,
    /// Its place in the recording (LogPrinter's `EventId`).
    pub seq: i64,
    /// Its thread (an index into `Trace::threads`).
    pub thread: u32,
    /// The data id that recorded it.
    pub data_id: u32,
    /// The value as LogPrinter prints it after `Value=`.
    pub text: String,
    /// The value as a number, when it is one.
    pub number: Option<f64>,
    /// A string's content or an exception's message and causes.
    pub detail: Option<String>,
}

/// The answer of [`values`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueHistory {
    /// The data ids the location stands for, ascending.
    pub data_ids: Vec<u32>,
    /// Every value, in event order.
    pub points: Vec<ValuePoint>,
    /// How many different value texts there are.
    pub distinct: usize,
    /// The smallest and largest numeric value.
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// False when the trace kept only the last values (or counts) per
    /// location; `note` then says so.
    pub complete: bool,
    pub note: String,
}

/// The data ids `location` stands for, ascending.
fn data_ids_of(log: &EventLog, location: &Location) -> Vec<u32> {
    let sites = 0..log.site_type.len() as u32;
    match location {
        Location::DataId(id) => sites.filter(|s| s == id).collect(),
        Location::Variable { method, name } => sites
            .filter(|&s| log.site_method.get(s as usize) == Some(method))
            .filter(|&s| is_variable(event_type(log, s)) && has_value(log, s))
            .filter(|&s| site_name(log, s) == Some(name.as_str()))
            .collect(),
        Location::Field { owner, name } => sites
            .filter(|&s| is_field_value(event_type(log, s)))
            .filter(|&s| site_name(log, s) == Some(name.as_str()))
            .filter(|&s| site_owner(log, s).as_deref() == Some(owner.as_str()))
            .collect(),
    }
}

/// Events whose value is a local variable's or parameter's value.
pub fn is_variable(kind: &str) -> bool {
    matches!(
        kind,
        "LOCAL_LOAD" | "LOCAL_STORE" | "LOCAL_INCREMENT" | "METHOD_PARAM"
    )
}

/// Events whose value is a field's value (not the object owning it).
pub fn is_field_value(kind: &str) -> bool {
    matches!(
        kind,
        "GET_INSTANCE_FIELD_RESULT"
            | "PUT_INSTANCE_FIELD_VALUE"
            | "GET_STATIC_FIELD"
            | "PUT_STATIC_FIELD"
    )
}

/// The values `location` took in `trace`, in event order.
pub fn values(trace: &Trace, location: &Location) -> ValueHistory {
    let log = &trace.event_log;
    if log.site_type.is_empty() {
        return ValueHistory {
            note: PARTIAL_NOTE.into(),
            ..ValueHistory::default()
        };
    }
    let data_ids = data_ids_of(log, location);
    let mut wanted = vec![false; log.site_type.len()];
    for &id in &data_ids {
        if let Some(slot) = wanted.get_mut(id as usize) {
            *slot = true;
        }
    }
    let mut history = ValueHistory {
        data_ids,
        complete: true,
        ..ValueHistory::default()
    };
    let mut seen = HashSet::new();
    for (event, site) in log.sites().enumerate() {
        if !wanted.get(site as usize).copied().unwrap_or(false) {
            continue;
        }
        let point = ValuePoint {
            event: event as u32,
            seq: log.seq_of(event),
            thread: log.thread_of(event).unwrap_or(u32::MAX),
            data_id: site,
            text: value_text(log, event),
            number: number_of(log, event),
            detail: value_detail(log, event),
        };
        if let Some(n) = point.number {
            history.min = Some(history.min.map_or(n, |m: f64| m.min(n)));
            history.max = Some(history.max.map_or(n, |m: f64| m.max(n)));
        }
        if !seen.contains(&point.text) {
            seen.insert(point.text.clone());
        }
        history.points.push(point);
    }
    history.distinct = seen.len();
    history
}
