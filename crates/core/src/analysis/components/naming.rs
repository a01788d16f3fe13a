//! The component each call belongs to: the library (uftrace / sp-rtrace
//! module, Scaler image, SELogger class) the decoder recorded for its
//! function (`transform::resources_by_name`), else the traced program
//! itself.
//!
//! Scaler's analyzer names a call's library after the image of the node's
//! file id. Under lazy binding that id is the executable's for every call
//! (the decoder then sets no `library` detail), so such calls count for the
//! program, as Scaler's own analyzer counts them.

use super::made_by::modules_making_calls;
use crate::analysis::transform::resources_by_name;
use crate::model::{StrId, Thread, Trace};
use std::collections::HashMap;

/// The name used for the program when the trace does not name it.
pub const UNNAMED_PROGRAM: &str = "(program)";

/// Component names, numbered in order of first use.
pub(super) struct Components {
    /// Per string id, its function's resource (as the decoder records it).
    resources: Vec<Option<String>>,
    /// Per string id, its component number once asked (`u32::MAX`: not yet).
    by_string: Vec<u32>,
    names: Vec<String>,
    numbers: HashMap<String, u32>,
    /// sp-rtrace: per (thread, time), the module that made the call.
    made_by: HashMap<(u32, i64), String>,
}

impl Components {
    pub(super) fn new(trace: &Trace) -> Self {
        Components {
            made_by: modules_making_calls(trace),
            resources: resources_by_name(trace),
            by_string: Vec::new(),
            names: Vec::new(),
            numbers: HashMap::new(),
        }
    }

    /// The number of component `name`.
    pub(super) fn number(&mut self, name: &str) -> u32 {
        if let Some(&n) = self.numbers.get(name) {
            return n;
        }
        let n = self.names.len() as u32;
        self.names.push(name.to_owned());
        self.numbers.insert(name.to_owned(), n);
        n
    }

    /// The component of the program `thread` belongs to: the file name of
    /// its process's command (the executable for Scaler, uftrace and
    /// sp-rtrace, named as their modules name it).
    pub(super) fn program_of(&mut self, trace: &Trace, thread: &Thread) -> u32 {
        let name = trace
            .processes
            .get(thread.process as usize)
            .and_then(|p| p.name.split_whitespace().next())
            .and_then(|command| command.rsplit('/').next())
            .filter(|n| !n.is_empty())
            .unwrap_or(UNNAMED_PROGRAM)
            .to_owned();
        self.number(&name)
    }

    /// The component of the call of `thread` at `time` to function `name`:
    /// for sp-rtrace the module that made it, else the function's.
    pub(super) fn of_call(&mut self, thread: u32, time: i64, name: StrId, program: u32) -> u32 {
        if self.made_by.is_empty() {
            return self.of_function(name, program);
        }
        match self.made_by.get(&(thread, time)).cloned() {
            Some(module) => self.number(&module),
            None => self.of_function(name, program),
        }
    }

    /// The component of a call to function `name`; `program` when the trace
    /// names no library for it.
    fn of_function(&mut self, name: StrId, program: u32) -> u32 {
        let at = name as usize;
        if let Some(&n) = self.by_string.get(at) {
            if n != u32::MAX {
                return n;
            }
        }
        let n = match self.resources.get(at).cloned().flatten() {
            Some(resource) => self.number(&resource),
            None => return program,
        };
        if self.by_string.len() <= at {
            self.by_string.resize(at + 1, u32::MAX);
        }
        if let Some(slot) = self.by_string.get_mut(at) {
            *slot = n;
        }
        n
    }

    /// The name of component `n`.
    pub(super) fn name(&self, n: u32) -> &str {
        self.names.get(n as usize).map_or("", String::as_str)
    }
}
