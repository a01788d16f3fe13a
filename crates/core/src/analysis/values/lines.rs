//! Where values were observed: the locations (data ids) that recorded a
//! value, for a picker, ordered by source file and line; and, for one
//! method, each source line's observed values (NOD4J's presentation: the
//! distinct values beside each line, per variable or expression).

use super::attributes::site_name;
use super::text::{event_type, has_value, value_text};
use crate::model::EventLog;
use std::collections::HashSet;

/// A data id that recorded values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocationInfo {
    pub data_id: u32,
    /// Its `EventType` name (`LOCAL_STORE`, `CALL_RETURN`, …).
    pub event_type: String,
    /// The method (a row of methods.txt), or `u32::MAX`.
    pub method: u32,
    /// `Class:method` as LogPrinter prints it.
    pub place: String,
    /// The source file name from methods.txt.
    pub source: String,
    /// The source line from dataids.txt.
    pub line: i32,
    /// The variable, field or parameter it names, if any.
    pub name: Option<String>,
    /// How many events it recorded.
    pub events: u32,
}

/// The values one data id saw on a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineEntry {
    pub location: LocationInfo,
    /// Its distinct values, in the order they first occurred.
    pub values: Vec<String>,
}

/// One source line of a method with the values observed on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineValues {
    pub line: i32,
    pub entries: Vec<LineEntry>,
}

/// Events per data id.
fn counts(log: &EventLog) -> Vec<u32> {
    let mut counts = vec![0u32; log.site_type.len()];
    for site in log.sites() {
        if let Some(count) = counts.get_mut(site as usize) {
            *count += 1;
        }
    }
    counts
}

fn info(log: &EventLog, site: u32, events: u32) -> LocationInfo {
    let method = log
        .site_method
        .get(site as usize)
        .copied()
        .unwrap_or(u32::MAX);
    let method_text = |column: &[u32]| {
        column
            .get(method as usize)
            .map_or(String::new(), |&id| log.text(id).to_owned())
    };
    LocationInfo {
        data_id: site,
        event_type: event_type(log, site).to_owned(),
        method,
        place: method_text(&log.method_place),
        source: method_text(&log.method_source),
        line: log.site_line.get(site as usize).map_or(0, |&l| l as i32),
        name: site_name(log, site).map(str::to_owned),
        events,
    }
}

/// Every data id that recorded a value of the program, by source file,
/// line and data id.
pub fn locations(log: &EventLog) -> Vec<LocationInfo> {
    let mut out: Vec<LocationInfo> = counts(log)
        .iter()
        .enumerate()
        .filter(|&(site, &events)| events > 0 && has_value(log, site as u32))
        .map(|(site, &events)| info(log, site as u32, events))
        .collect();
    out.sort_by(|a, b| (&a.source, a.line, a.data_id).cmp(&(&b.source, b.line, b.data_id)));
    out
}

/// The lines of method `method` with the values observed on each, by line.
pub fn line_values(log: &EventLog, method: u32) -> Vec<LineValues> {
    let mut entries: Vec<LineEntry> = locations(log)
        .into_iter()
        .filter(|l| l.method == method)
        .map(|location| LineEntry {
            location,
            values: Vec::new(),
        })
        .collect();
    let mut slot_of = vec![usize::MAX; log.site_type.len()];
    for (at, entry) in entries.iter().enumerate() {
        if let Some(slot) = slot_of.get_mut(entry.location.data_id as usize) {
            *slot = at;
        }
    }
    let mut seen: Vec<HashSet<String>> = vec![HashSet::new(); entries.len()];
    for (event, site) in log.sites().enumerate() {
        let at = slot_of.get(site as usize).copied().unwrap_or(usize::MAX);
        if let (Some(entry), Some(seen)) = (entries.get_mut(at), seen.get_mut(at)) {
            let text = value_text(log, event);
            if seen.insert(text.clone()) {
                entry.values.push(text);
            }
        }
    }
    let mut lines: Vec<LineValues> = Vec::new();
    for entry in entries {
        match lines.last_mut() {
            Some(last) if last.line == entry.location.line => last.entries.push(entry),
            _ => lines.push(LineValues {
                line: entry.location.line,
                entries: vec![entry],
            }),
        }
    }
    lines
}
