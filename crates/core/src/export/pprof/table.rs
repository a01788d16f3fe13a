//! The pprof profile being built: its string table, one function and one
//! location per frame name (in its module's mapping, at its address, where
//! `modules` knows them), a mapping per module used (the traced program's
//! first), the sample-type columns, and samples as wide as all columns
//! together.

use super::modules::Places;
use super::proto::{Function, Label, Line, Location, Mapping, Profile, Sample, ValueType};
use crate::model::{StrId, Trace};
use std::collections::HashMap;

/// A sample before the profile's width is known.
struct PendingSample {
    locations: Vec<u64>,
    /// Where `values` go among the columns.
    first_column: usize,
    values: Vec<i64>,
    thread: Option<i64>,
}

pub struct ProfileBuilder {
    strings: Vec<String>,
    string_ids: HashMap<String, i64>,
    columns: Vec<ValueType>,
    samples: Vec<PendingSample>,
    functions: Vec<Function>,
    locations: Vec<Location>,
    /// Per trace string id, its location id (0: none yet).
    location_of: Vec<u64>,
    comments: Vec<i64>,
    places: Places,
    /// Per module of `places`, its mapping id (0: not used yet).
    mapping_of_module: Vec<u64>,
    mappings: Vec<Mapping>,
    thread_key: i64,
}

impl ProfileBuilder {
    pub fn new(trace: &Trace) -> Self {
        let mut builder = ProfileBuilder {
            strings: Vec::new(),
            string_ids: HashMap::new(),
            columns: Vec::new(),
            samples: Vec::new(),
            functions: Vec::new(),
            locations: Vec::new(),
            location_of: vec![0; trace.strings.len()],
            comments: Vec::new(),
            places: Places::of(trace, &program_name(trace)),
            mapping_of_module: Vec::new(),
            mappings: Vec::new(),
            thread_key: 0,
        };
        builder.string("");
        builder.thread_key = builder.string("thread");
        builder.mapping_of_module = vec![0; builder.places.modules.len()];
        // The program's mapping comes first, used or not (pprof's main binary).
        builder.mapping(0);
        for (key, value) in &trace.metadata {
            let comment = builder.string(&format!("{key}: {value}"));
            builder.comments.push(comment);
        }
        builder
    }

    /// The string's index in the string table, added if new.
    pub fn string(&mut self, text: &str) -> i64 {
        if let Some(&id) = self.string_ids.get(text) {
            return id;
        }
        let id = self.strings.len() as i64;
        self.strings.push(text.to_owned());
        self.string_ids.insert(text.to_owned(), id);
        id
    }

    /// Adds a sample-type column; returns its index.
    pub fn column(&mut self, kind: &str, unit: &str) -> usize {
        let column = ValueType {
            r#type: self.string(kind),
            unit: self.string(unit),
        };
        self.columns.push(column);
        self.columns.len() - 1
    }

    /// The location of frame name `name` (one function, one location each).
    pub fn location(&mut self, trace: &Trace, name: StrId) -> u64 {
        if let Some(&id) = self.location_of.get(name as usize).filter(|&&id| id != 0) {
            return id;
        }
        let id = self.functions.len() as u64 + 1;
        let text = self.string(trace.str(name));
        let source = self.places.source(name).map(str::to_owned);
        let filename = source.map_or(0, |file| self.string(&file));
        self.functions.push(Function {
            id,
            name: text,
            system_name: text,
            filename,
            ..Function::default()
        });
        let mapping_id = self.places.module(name).map_or(0, |m| self.mapping(m));
        self.locations.push(Location {
            id,
            mapping_id,
            address: self.places.address(name),
            line: vec![Line {
                function_id: id,
                line: 0,
            }],
        });
        if let Some(slot) = self.location_of.get_mut(name as usize) {
            *slot = id;
        }
        id
    }

    /// The mapping id of module `m` of `places`, the mapping added if new.
    fn mapping(&mut self, m: usize) -> u64 {
        if let Some(&id) = self.mapping_of_module.get(m).filter(|&&id| id != 0) {
            return id;
        }
        let Some(module) = self.places.modules.get(m) else {
            return 0;
        };
        let (start, limit, file) = (module.start, module.limit, module.filename.clone());
        let id = self.mappings.len() as u64 + 1;
        let filename = self.string(&file);
        self.mappings.push(Mapping {
            id,
            memory_start: start,
            memory_limit: limit,
            filename,
            has_functions: true,
            ..Mapping::default()
        });
        if let Some(slot) = self.mapping_of_module.get_mut(m) {
            *slot = id;
        }
        id
    }

    /// The locations of stack `stack`, leaf first.
    pub fn stack_locations(&mut self, trace: &Trace, stack: u32) -> Vec<u64> {
        let frames = trace.stacks.frames(stack);
        frames
            .iter()
            .rev()
            .map(|&f| self.location(trace, f))
            .collect()
    }

    /// The `thread` label's value for thread index `t`.
    pub fn thread_label(&mut self, trace: &Trace, t: u32) -> i64 {
        let text = trace
            .threads
            .get(t as usize)
            .map_or_else(|| t.to_string(), |th| format!("{} {}", th.name, th.id));
        self.string(&text)
    }

    /// A sample whose values fill the columns from `first_column` on.
    pub fn sample(
        &mut self,
        locations: Vec<u64>,
        first_column: usize,
        values: Vec<i64>,
        thread: Option<i64>,
    ) {
        if values.iter().all(|&v| v == 0) {
            return;
        }
        self.samples.push(PendingSample {
            locations,
            first_column,
            values,
            thread,
        });
    }

    pub fn finish(mut self, duration_nanos: i64) -> Profile {
        let width = self.columns.len();
        let thread_key = self.thread_key;
        let sample = self
            .samples
            .drain(..)
            .map(|pending| {
                let mut value = vec![0; width];
                for (k, v) in pending.values.into_iter().enumerate() {
                    if let Some(slot) = value.get_mut(pending.first_column + k) {
                        *slot = v;
                    }
                }
                Sample {
                    location_id: pending.locations,
                    value,
                    label: pending
                        .thread
                        .map(|str| Label {
                            key: thread_key,
                            str,
                            ..Label::default()
                        })
                        .into_iter()
                        .collect(),
                }
            })
            .collect();
        let default = self.columns.first().cloned();
        Profile {
            default_sample_type: default.as_ref().map_or(0, |c| c.r#type),
            period_type: default,
            period: 1,
            sample_type: self.columns,
            sample,
            mapping: self.mappings,
            location: self.locations,
            function: self.functions,
            string_table: self.strings,
            comment: self.comments,
            duration_nanos,
            ..Profile::default()
        }
    }
}

/// The traced program: its process's name, else the format's.
fn program_name(trace: &Trace) -> String {
    trace
        .processes
        .first()
        .map(|p| p.name.clone())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| trace.format.map_or("trace", |f| f.name()).to_owned())
}
