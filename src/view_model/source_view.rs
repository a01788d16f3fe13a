//! The Source view's model (SELogger, NOD4J's presentation): the methods
//! that recorded events (the picker), the method a selection points at,
//! the call whose events are highlighted, and each observed value per data
//! id with its count and first event ([`MethodValues`]). The line layout
//! (a source file's lines, or the `dataids.txt` lines without one) is in
//! [`super::source_view_lines`].

use flamedrop_core::analysis::values::{line_values, span_values, value_text, write_value};
use flamedrop_core::model::{site_role, EventLog};
use flamedrop_core::Trace;
use std::collections::{HashMap, HashSet};

/// A method of methods.txt that recorded events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodItem {
    pub method: u32,
    /// `Class:method` as LogPrinter prints it (`demo/TraceDemo:primitives`).
    pub place: String,
    /// The source file name methods.txt gives (`TraceDemo.java`).
    pub source: String,
    /// Events recorded in it.
    pub events: u32,
}

impl MethodItem {
    /// The class part of the place (`demo/TraceDemo`).
    pub fn class(&self) -> &str {
        self.place.split_once(':').map_or(&self.place, |(c, _)| c)
    }

    /// The name its declaration has in the source: the method's, a
    /// constructor's class (`TraceDemo` for `<init>`), `static` for a class
    /// initializer.
    pub fn source_name(&self) -> &str {
        let method = self.place.split_once(':').map_or("", |(_, m)| m);
        match method {
            "<init>" => {
                let class = self.class();
                class.rsplit(['/', '$']).next().unwrap_or(class)
            }
            "<clinit>" => "static",
            other => other,
        }
    }
}

fn method_item(log: &EventLog, method: u32, events: u32) -> MethodItem {
    let text = |column: &[u32]| column.get(method as usize).map_or("", |&id| log.text(id));
    MethodItem {
        method,
        place: text(&log.method_place).to_owned(),
        source: text(&log.method_source).to_owned(),
        events,
    }
}

/// The methods with events, by place.
pub fn methods(log: &EventLog) -> Vec<MethodItem> {
    let mut events = vec![0u32; log.method_place.len()];
    for site in log.sites() {
        let method = log.site_method.get(site as usize).copied();
        if let Some(count) = method.and_then(|m| events.get_mut(m as usize)) {
            *count += 1;
        }
    }
    let mut out: Vec<MethodItem> = (0..events.len())
        .filter(|&m| events.get(m).is_some_and(|&n| n > 0))
        .map(|m| method_item(log, m as u32, events.get(m).copied().unwrap_or(0)))
        .collect();
    out.sort_by(|a, b| (&a.place, a.method).cmp(&(&b.place, b.method)));
    out
}

/// The method event `event` was recorded in.
pub fn method_of_event(log: &EventLog, event: u32) -> Option<u32> {
    let site = log.site_of(event as usize)?;
    let method = *log.site_method.get(site as usize)?;
    (method != u32::MAX).then_some(method)
}

/// The first event of span `span` of thread `thread` (its entry or call).
fn first_event(trace: &Trace, thread: usize, span: u32) -> Option<u32> {
    let log = &trace.event_log;
    let start = *trace.threads.get(thread)?.spans.start.get(span as usize)?;
    let first = if log.seq.is_empty() {
        usize::try_from(start).ok()?
    } else {
        log.seq.partition_point(|&seq| seq < start)
    };
    (first < log.len() && log.seq_of(first) == start).then_some(first as u32)
}

/// The method a span's calls run (its first event's method).
pub fn method_of_span(trace: &Trace, thread: usize, span: u32) -> Option<u32> {
    method_of_event(&trace.event_log, first_event(trace, thread, span)?)
}

/// The innermost method-entry span of the event's thread that holds event
/// `event` and runs the event's method: the call the event belongs to.
pub fn call_of_event(trace: &Trace, event: u32) -> Option<(usize, u32)> {
    let log = &trace.event_log;
    let thread = log.thread_of(event as usize)? as usize;
    let method = method_of_event(log, event)?;
    let seq = log.seq_of(event as usize);
    let spans = &trace.threads.get(thread)?.spans;
    let upto = spans.start.partition_point(|&s| s <= seq);
    (0..upto).rev().find_map(|span| {
        let end = *spans.end.get(span)?;
        let entry = first_event(trace, thread, span as u32)?;
        let site = log.site_of(entry as usize)?;
        let is_entry = log.site_role.get(site as usize) == Some(&site_role::ENTRY);
        (seq <= end && is_entry && method_of_event(log, entry) == Some(method))
            .then_some((thread, span as u32))
    })
}

/// The events of one call in its own frame, for highlighting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Call {
    pub method: u32,
    /// Its value events (ids into the event log).
    pub events: Vec<u32>,
}

/// The call span `span` of thread `thread` is, with its value events.
pub fn call_of_span(trace: &Trace, thread: usize, span: u32) -> Option<Call> {
    let method = method_of_span(trace, thread, span)?;
    let events = span_values(trace, thread as u32, span, usize::MAX)
        .into_iter()
        .map(|v| v.event)
        .collect();
    Some(Call { method, events })
}

/// One distinct value a data id saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenValue {
    /// As LogPrinter prints it after `Value=`.
    pub text: String,
    /// Events that saw it, and the first of them.
    pub count: u32,
    pub first_event: u32,
}

/// One data id of a line and its values, in the order first seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteValues {
    pub data_id: u32,
    /// The `EventType` name.
    pub kind: String,
    /// The variable, field or parameter it names.
    pub name: Option<String>,
    pub values: Vec<SeenValue>,
}

/// A method's observed values per source line (`line_values`), with counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MethodValues {
    pub method: u32,
    /// (line, its data ids), by line.
    pub lines: Vec<(i32, Vec<SiteValues>)>,
    /// Every line of the method in dataids.txt (values or not), ascending.
    pub all_lines: Vec<i32>,
}

impl MethodValues {
    /// The values of method `method` in the log.
    pub fn new(log: &EventLog, method: u32) -> MethodValues {
        let mut lines: Vec<(i32, Vec<SiteValues>)> = line_values(log, method)
            .into_iter()
            .map(|line| {
                let sites = line.entries.into_iter().map(|entry| SiteValues {
                    data_id: entry.location.data_id,
                    kind: entry.location.event_type,
                    name: entry.location.name,
                    values: entry
                        .values
                        .into_iter()
                        .map(|text| SeenValue {
                            text,
                            count: 0,
                            first_event: u32::MAX,
                        })
                        .collect(),
                });
                (line.line, sites.collect())
            })
            .collect();
        count_values(log, &mut lines);
        let mut all_lines: Vec<i32> = (0..log.site_method.len())
            .filter(|&site| log.site_method.get(site) == Some(&method))
            .filter_map(|site| log.site_line.get(site).map(|&l| l as i32))
            .collect();
        all_lines.sort_unstable();
        all_lines.dedup();
        MethodValues {
            method,
            lines,
            all_lines,
        }
    }

    /// Where event `event`'s value is: (line index, site index, value index).
    pub fn place_of(&self, log: &EventLog, event: u32) -> Option<(usize, usize, usize)> {
        let site = log.site_of(event as usize)?;
        let text = value_text(log, event as usize);
        self.lines.iter().enumerate().find_map(|(l, (_, sites))| {
            let s = sites.iter().position(|s| s.data_id == site)?;
            let v = sites.get(s)?.values.iter().position(|v| v.text == text)?;
            Some((l, s, v))
        })
    }
}

/// Fills each value's count and first event.
fn count_values(log: &EventLog, lines: &mut [(i32, Vec<SiteValues>)]) {
    // data id → (line, site, value text → value index)
    let mut slots: HashMap<u32, (usize, usize, HashMap<String, usize>)> = HashMap::new();
    for (l, (_, sites)) in lines.iter().enumerate() {
        for (s, site) in sites.iter().enumerate() {
            let texts = site.values.iter().enumerate();
            let texts = texts.map(|(v, seen)| (seen.text.clone(), v)).collect();
            slots.insert(site.data_id, (l, s, texts));
        }
    }
    let mut text = String::new();
    for (event, site) in log.sites().enumerate() {
        let Some((l, s, texts)) = slots.get(&site) else {
            continue;
        };
        text.clear();
        write_value(log, event, &mut text);
        let Some(&v) = texts.get(&text) else {
            continue;
        };
        let seen = lines
            .get_mut(*l)
            .and_then(|(_, sites)| sites.get_mut(*s))
            .and_then(|site| site.values.get_mut(v));
        if let Some(seen) = seen {
            seen.count += 1;
            seen.first_event = seen.first_event.min(event as u32);
        }
    }
}

/// The values call `call` saw: (data id, value text) → its first event.
pub fn call_values(log: &EventLog, call: &Call) -> HashMap<(u32, String), u32> {
    let mut out = HashMap::new();
    for &event in &call.events {
        let Some(site) = log.site_of(event as usize) else {
            continue;
        };
        out.entry((site, value_text(log, event as usize)))
            .or_insert(event);
    }
    out
}

/// The lines call `call` recorded a value on.
pub fn call_lines(log: &EventLog, call: &Call) -> HashSet<i32> {
    call.events
        .iter()
        .filter_map(|&e| log.site_of(e as usize))
        .filter_map(|site| log.site_line.get(site as usize))
        .map(|&line| line as i32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_methods_name_in_its_source() {
        let item = |place: &str| MethodItem {
            method: 0,
            place: place.to_owned(),
            source: "TraceDemo.java".to_owned(),
            events: 1,
        };
        assert_eq!(item("demo/Bank:deposit").source_name(), "deposit");
        assert_eq!(item("demo/Bank:deposit").class(), "demo/Bank");
        assert_eq!(item("demo/TraceDemo$Inner:<init>").source_name(), "Inner");
        assert_eq!(item("demo/TraceDemo:<clinit>").source_name(), "static");
    }
}
