//! Reading SWAP's probe markers of one kind: each with its thread, time,
//! API and detail fields.

use super::{probe_api, Mark, Source};
use crate::model::{Field, StrId, Trace};
use std::collections::HashMap;

/// One probe marker.
pub struct Probe<'a> {
    pub thread: u32,
    pub index: u32,
    pub time: i64,
    pub name: StrId,
    /// The API, from the kind's list of names (`other` when not in it).
    pub api: &'static str,
    pub fields: &'a [Field],
}

impl Probe<'_> {
    /// The text of detail `key` ("" when absent).
    pub fn text(&self, key: &str) -> &str {
        self.fields
            .iter()
            .find(|f| f.key == key)
            .map_or("", |f| f.value.as_str())
    }

    /// Detail `key` as a number (decimal or `0x` hex; 0 when absent).
    pub fn number(&self, key: &str) -> u64 {
        let text = self.text(key);
        match text.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16).unwrap_or(0),
            None => text.parse().unwrap_or(0),
        }
    }

    /// The probe's mark on `row`, with the bytes it read and wrote.
    pub fn mark(&self, row: u32, read: u64, written: u64) -> Mark {
        Mark {
            row,
            time: self.time,
            api: self.api,
            name: self.name,
            read,
            written,
            failed: self.failed(),
            source: Source::Instant {
                thread: self.thread,
                index: self.index,
            },
        }
    }

    /// The call failed: the probe carries a non-zero errno.
    pub fn failed(&self) -> bool {
        self.number("errno") != 0
    }
}

/// Calls `each` for every marker named `<kind> <api>: API #n`, thread by
/// thread in time order; `apis` are the kind's API names.
pub fn each(trace: &Trace, kind: &str, apis: &[&'static str], mut each: impl FnMut(&Probe)) {
    let mut names: HashMap<StrId, Option<&'static str>> = HashMap::new();
    for (t, thread) in trace.threads.iter().enumerate() {
        let instants = &thread.instants;
        for (index, (&time, &name)) in instants.time.iter().zip(&instants.name).enumerate() {
            let api = *names.entry(name).or_insert_with(|| {
                let api = probe_api(trace.str(name), kind)?;
                Some(apis.iter().copied().find(|a| *a == api).unwrap_or("other"))
            });
            let Some(api) = api else { continue };
            let fields = instants.details_of(index as u32, &trace.strings);
            each(&Probe {
                thread: t as u32,
                index: index as u32,
                time,
                name,
                api,
                fields: &fields,
            });
        }
    }
}
