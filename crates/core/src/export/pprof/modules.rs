//! Where each frame name lives, for pprof's `Mapping`, `Location.address`
//! and `Function.filename`, from what the decoders keep:
//!
//! - the module: uftrace's `symbols` table (the `.sym` file a symbol is in)
//!   and `module+0x…` names (uftrace and SWAP addresses without a symbol),
//!   Scaler's `library` detail (a call without one is the executable's, as
//!   Scaler's analyzer counts it), sp-rtrace's `mappings` table (a
//!   `module+0xoffset` frame is `offset` past the start of the latest
//!   mapping of that file, which gives the mapping's range too);
//! - the address: the one uftrace recorded the function's calls at (its
//!   first on any thread), an sp-rtrace frame's return address;
//! - the source file: SELogger's `source` detail of a method.
//!
//! A name whose module the trace does not tell has none (pprof's mapping
//! id 0). SELogger's classes are not loaded images: its frames are all the
//! program's.

use crate::analysis::transform::resources_by_name;
use crate::decoder::file_name;
use crate::model::{Format, StrId, Trace};
use std::collections::HashMap;

/// A module as a pprof mapping will show it.
pub struct Module {
    pub filename: String,
    /// Its address range, where the trace records one (else 0, 0).
    pub start: u64,
    pub limit: u64,
}

/// Per frame name: its module, address and source file.
pub struct Places {
    /// Every module a name may be in; the first is the traced program.
    pub modules: Vec<Module>,
    /// Per string id, its module's index + 1 (0: not known).
    module_of: Vec<u32>,
    /// Per string id, its address (0: not known).
    address_of: Vec<u64>,
    source_of: HashMap<StrId, String>,
}

impl Places {
    /// The places of `trace`'s names; `program` names the traced program.
    pub fn of(trace: &Trace, program: &str) -> Places {
        let names = trace.strings.len();
        let mut places = Places {
            modules: vec![Module {
                filename: program.to_owned(),
                start: 0,
                limit: 0,
            }],
            module_of: vec![0; names],
            address_of: vec![0; names],
            source_of: source_files(trace),
        };
        match trace.format {
            Some(Format::SpRtrace) => places.read_rtrace_mappings(trace),
            Some(Format::Selogger) => places.module_of.fill(1),
            _ => places.read_resources(trace),
        }
        if trace.format == Some(Format::Uftrace) {
            places.read_call_addresses(trace);
        }
        places
    }

    /// Name `id`'s module index (into `modules`), if known.
    pub fn module(&self, id: StrId) -> Option<usize> {
        let m = *self.module_of.get(id as usize)?;
        (m != 0).then(|| m as usize - 1)
    }

    /// Name `id`'s address, 0 if not known.
    pub fn address(&self, id: StrId) -> u64 {
        self.address_of.get(id as usize).copied().unwrap_or(0)
    }

    /// Name `id`'s source file, if known.
    pub fn source(&self, id: StrId) -> Option<&str> {
        self.source_of.get(&id).map(String::as_str)
    }

    /// The index of module `name`: the program's if it is the program's
    /// file, else a new or known one.
    fn module_named(&mut self, known: &mut HashMap<String, u32>, name: &str) -> u32 {
        let program = self
            .modules
            .first()
            .map_or("", |p| program_file(&p.filename));
        if name == program {
            return 1;
        }
        if let Some(&m) = known.get(name) {
            return m;
        }
        self.modules.push(Module {
            filename: name.to_owned(),
            start: 0,
            limit: 0,
        });
        let m = self.modules.len() as u32;
        known.insert(name.to_owned(), m);
        m
    }

    /// uftrace, SWAP, Scaler: each name's resource.
    fn read_resources(&mut self, trace: &Trace) {
        let unknown = u32::from(trace.format == Some(Format::Scaler));
        let mut known = HashMap::new();
        for (id, resource) in resources_by_name(trace).into_iter().enumerate() {
            let m = match resource {
                Some(name) => self.module_named(&mut known, &name),
                None => unknown,
            };
            if let Some(slot) = self.module_of.get_mut(id) {
                *slot = m;
            }
        }
    }

    /// uftrace: the address a function's calls were first recorded at.
    fn read_call_addresses(&mut self, trace: &Trace) {
        for thread in &trace.threads {
            for (name, address) in thread.addresses.iter() {
                if let Some(slot) = self.address_of.get_mut(name as usize) {
                    if *slot == 0 {
                        *slot = address;
                    }
                }
            }
        }
    }

    /// sp-rtrace: one module per mapped file, `module+0xoffset` frames
    /// placed in the latest mapping of that file that holds the address
    /// (the decoder names frames after the latest mapping covering them).
    fn read_rtrace_mappings(&mut self, trace: &Trace) {
        let Some(table) = trace.tables.iter().find(|t| t.id == "mappings") else {
            return;
        };
        let hex = |text: &str| u64::from_str_radix(text.strip_prefix("0x")?, 16).ok();
        let ranges: Vec<(u64, u64, &str)> = table
            .rows
            .iter()
            .filter_map(|row| Some((hex(row.first()?)?, hex(row.get(1)?)?, row.get(2)?.as_str())))
            .collect();
        let mut module_of_row: Vec<u32> = vec![0; ranges.len()];
        for id in 0..trace.strings.len() as u32 {
            let Some((module, offset)) = trace.str(id).rsplit_once("+0x") else {
                continue;
            };
            let Ok(offset) = u64::from_str_radix(offset, 16) else {
                continue;
            };
            let holding = ranges
                .iter()
                .enumerate()
                .rev()
                .find(|(_, (from, to, path))| {
                    file_name(path) == module && from.checked_add(offset).is_some_and(|a| a < *to)
                });
            let Some((row, &(from, to, path))) = holding else {
                continue;
            };
            let m = match module_of_row.get(row).copied() {
                Some(m) if m != 0 => m,
                _ => self.mapped_module(path, from, to),
            };
            if let Some(slot) = module_of_row.get_mut(row) {
                *slot = m;
            }
            if let Some(slot) = self.module_of.get_mut(id as usize) {
                *slot = m;
            }
            if let Some(slot) = self.address_of.get_mut(id as usize) {
                *slot = from + offset;
            }
        }
    }

    /// A mapped file with its range: the program's module if it is the
    /// program's file (which then takes the path and range), else a new one.
    fn mapped_module(&mut self, path: &str, start: u64, limit: u64) -> u32 {
        let module = Module {
            filename: path.to_owned(),
            start,
            limit,
        };
        let program = self.modules.first_mut();
        if let Some(program) = program.filter(|p| {
            p.limit == 0 && program_file(&p.filename) == file_name(path) && !path.is_empty()
        }) {
            *program = module;
            return 1;
        }
        self.modules.push(module);
        self.modules.len() as u32
    }
}

/// The file name of a program's command line (its first word).
fn program_file(command: &str) -> &str {
    file_name(command.split_whitespace().next().unwrap_or(""))
}

/// Per name, the `source` detail of the first of its spans that has one.
fn source_files(trace: &Trace) -> HashMap<StrId, String> {
    let mut out = HashMap::new();
    let Some(key) = trace.strings.find("source") else {
        return out;
    };
    let mut scratch = Vec::new();
    for spans in trace.threads.iter().map(|t| &t.spans) {
        if spans.details.is_empty() {
            continue;
        }
        for (owner, &name) in (0u32..).zip(&spans.name) {
            if out.contains_key(&name) {
                continue;
            }
            let mut source = None;
            spans.details.visit_fields(owner, &mut scratch, |k, value| {
                if k == key && source.is_none() {
                    source = Some(value.text(&trace.strings));
                }
            });
            if let Some(source) = source {
                out.insert(name, source);
            }
        }
    }
    out
}
