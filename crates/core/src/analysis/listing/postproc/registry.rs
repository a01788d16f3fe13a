//! What `sp-rtrace-postproc` prints before the calls, read back from the
//! trace the sp-rtrace decoder made: the header facts (metadata), the
//! attachments, modules, contexts, resource types and mappings (its tables),
//! and the backtraces by number (its `backtraces` table).

use crate::fast_hash::FastMap;
use crate::formats::rtrace::listing_tables::{BACKTRACES, RESOLVED_FRAMES, RESOURCE_TYPES};
use crate::model::{StrId, Table, Trace};
use std::fmt::Write;

/// A resource type as postproc's registry holds it.
pub(super) struct ResourceType {
    /// RESR id (renumbered to 1 when a `-R` filter leaves one type).
    pub id: u32,
    /// The type name as the calls' `resource` detail names it.
    pub name: Option<StrId>,
    pub text: String,
    pub description: String,
    pub flags: u32,
    /// Still listed after `-R`.
    pub kept: bool,
}

/// The registries and backtraces of one trace.
pub(super) struct Registry {
    pub resources: Vec<ResourceType>,
    /// CTXR: mask, name, and the name as the calls' `context` detail holds it.
    pub contexts: Vec<(u32, String, Option<StrId>)>,
    /// Frames of every backtrace, one after the other.
    pub frames: Vec<u64>,
    /// Where backtrace N's frames start in `frames` (one more entry at the end).
    pub starts: Vec<u32>,
    /// Bytes of a pointer in the recording (4 or 8).
    pub pointer_size: u32,
    /// MMAP: from, to, path, in file order.
    pub mappings: Vec<(u64, u64, String)>,
    /// Frames a dropped ELF file names, by address: what the resolver
    /// prints after the address.
    pub resolved: FastMap<u64, String>,
}

impl Registry {
    /// Reads the registries of `trace`.
    pub fn read(trace: &Trace) -> Registry {
        let resources = table(trace, RESOURCE_TYPES)
            .map(|t| {
                t.rows
                    .iter()
                    .map(|row| ResourceType {
                        id: cell(row, 0).parse().unwrap_or(0),
                        name: trace.strings.find(cell(row, 1)),
                        text: cell(row, 1).to_owned(),
                        description: cell(row, 2).to_owned(),
                        flags: cell(row, 3).parse().unwrap_or(0),
                        kept: true,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let contexts = table(trace, "contexts")
            .map(|t| {
                t.rows
                    .iter()
                    .map(|row| {
                        let mask = hex(cell(row, 0)).unwrap_or(0) as u32;
                        let name = cell(row, 1).to_owned();
                        let id = trace.strings.find(&name);
                        (mask, name, id)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let (frames, starts) = backtraces(trace);
        let pointer_size = metadata(trace, "architecture")
            .and_then(|a| a.split(", ").nth(1))
            .and_then(|p| p.split('-').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(8);
        let mappings = table(trace, "mappings")
            .map(|t| {
                t.rows
                    .iter()
                    .map(|row| {
                        let from = hex(cell(row, 0)).unwrap_or(0);
                        let to = hex(cell(row, 1)).unwrap_or(0);
                        (from, to, cell(row, 2).to_owned())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let resolved = table(trace, RESOLVED_FRAMES)
            .map(|t| {
                t.rows
                    .iter()
                    .filter_map(|row| {
                        let text = format!("{} from {}", cell(row, 2), cell(row, 1));
                        Some((hex(cell(row, 0))?, text))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Registry {
            resources,
            contexts,
            frames,
            starts,
            pointer_size,
            mappings,
            resolved,
        }
    }

    /// The frames of backtrace `number`, innermost first.
    pub fn backtrace(&self, number: u32) -> &[u64] {
        let at = number as usize;
        match (self.starts.get(at), self.starts.get(at + 1)) {
            (Some(&from), Some(&to)) => self.frames.get(from as usize..to as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Where backtrace `number`'s frames start in [`Registry::frames`].
    pub fn backtrace_start(&self, number: u32) -> u32 {
        self.starts.get(number as usize).copied().unwrap_or(0)
    }

    /// Frame `address` as `sp-rtrace-resolve` prints it after the address:
    /// named by a dropped ELF file, or its module (the resolver skips
    /// pseudo paths like `[vdso]`, which it cannot open), or `in ??`.
    pub fn write_resolved(&self, address: u64, out: &mut String) {
        if let Some(text) = self.resolved.get(&address) {
            out.push_str(text);
            return;
        }
        let module =
            self.mappings.iter().rev().find(|(from, to, path)| {
                *from <= address && address <= *to && !path.starts_with('[')
            });
        match module {
            Some((_, _, path)) => {
                let _ = write!(out, "from {path}");
            }
            None => out.push_str("in ??"),
        }
    }

    /// The context mask a `context` detail names (registered names, or the
    /// `0x…` text of an unregistered bit).
    pub fn context_mask(&self, trace: &Trace, name: StrId) -> u32 {
        self.contexts
            .iter()
            .find(|(_, _, id)| *id == Some(name))
            .map(|(mask, _, _)| *mask)
            .or_else(|| hex(trace.str(name)).map(|m| m as u32))
            .unwrap_or(0)
    }

    /// The resource type a `resource` detail names.
    pub fn resource_of(&self, name: StrId) -> Option<usize> {
        self.resources.iter().position(|r| r.name == Some(name))
    }
}

/// The table `id` of the trace.
pub(super) fn table<'t>(trace: &'t Trace, id: &str) -> Option<&'t Table> {
    trace.tables.iter().find(|t| t.id == id)
}

/// The metadata value of `key`.
pub(super) fn metadata<'t>(trace: &'t Trace, key: &str) -> Option<&'t str> {
    trace
        .metadata
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Cell `column` of a table row ("" when missing).
pub(super) fn cell(row: &[String], column: usize) -> &str {
    row.get(column).map_or("", String::as_str)
}

/// A `0x…` number.
pub(super) fn hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text.strip_prefix("0x")?, 16).ok()
}

/// The backtrace table as flat frames and their starts.
fn backtraces(trace: &Trace) -> (Vec<u64>, Vec<u32>) {
    let mut frames = Vec::new();
    let mut starts = vec![0u32];
    for row in table(trace, BACKTRACES).map_or(&[][..], |t| t.rows.as_slice()) {
        frames.extend(cell(row, 3).split_whitespace().filter_map(hex));
        starts.push(frames.len() as u32);
    }
    (frames, starts)
}
