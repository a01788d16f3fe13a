//! Scaler (libScalerHook): per-thread invocation trees, `thread_0x<tid>.bin`,
//! with `symbol.json` and `commonFuncId.json` (July 2021, "V1"), or with
//! per-thread `symbol_0x<tid>.json` (the 2021-07-25 change, "V2", where
//! nodes carry the callee's library id and address).
//!
//! The JSON files are read first; each tree file is then read in chunks into
//! records, linked (see `tree.rs`) and emitted as one lane. Later Scaler
//! outputs (raw timing arrays, aggregated `threadTiming_*.bin`) hold no call
//! trees: they are recognised and refused by [`refusal`].

mod emit;
mod names;
mod records;
mod symbols;
mod sync;
mod tree;

pub use sync::sync_table;

use crate::decoder::{Decoder, FileProbe};
use crate::model::{Format, Severity, TimeUnit, Trace, TraceBuilder};
use records::{RecordReader, Stop};
use std::collections::HashMap;
use symbols::{CommonIds, SymbolFile};

/// Which Scaler output a folder holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// July 2021: `fileID` + `.rela.plt` index, `symbol.json`, `commonFuncId.json`.
    V1,
    /// From 2021-07-25: `realFileID` + callee address, `symbol_<tid>.json`.
    V2,
}

/// What a file of the output is for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Role {
    Symbols,
    CommonIds,
    ThreadSymbols { tid: String },
    Tree { tid: String },
}

/// True when the files hold Scaler output this module reads or refuses.
pub fn detect(probes: &[FileProbe]) -> bool {
    probes.iter().any(is_tree) || refusal(probes).is_some()
}

/// Why the offered files, which are a later Scaler output without call
/// trees, cannot be shown; `None` when there is a tree to decode (or no
/// later output at all).
pub fn refusal(probes: &[FileProbe]) -> Option<String> {
    if probes.iter().any(is_tree) {
        return None;
    }
    let names = || probes.iter().map(FileProbe::name);
    if names().any(|n| n.starts_with("threadTiming_") && n.ends_with(".bin")) {
        return Some(
            "this is Scaler libHook-c output (2022-2023: threadTiming_*.bin with per-API totals, no call order); \
             flamedrop reads libScalerHook's July 2021 invocation trees (thread_0x*.bin with symbol.json)"
                .into(),
        );
    }
    if names().any(|n| n.starts_with("scaler_") && n.ends_with(".bin")) {
        return Some(
            "this is Scaler output from late 2021 to early 2022 (scaler_rawrecord_*/scaler_time*.bin: raw per-symbol timing arrays, no call trees); \
             flamedrop reads libScalerHook's July 2021 invocation trees (thread_0x*.bin with symbol.json)"
                .into(),
        );
    }
    None
}

/// A file that holds a tree: by its root record, whatever its name.
fn is_tree(probe: &FileProbe) -> bool {
    records::looks_like_tree(&probe.head, probe.size)
}

/// `thread_0x7f05e24a6800.bin` → `0x7f05e24a6800`; decimal names (Scaler
/// from September 2021) are shown in hex too, as joins print them.
fn tid_of_tree(name: &str) -> String {
    let stem = name.strip_suffix(".bin").unwrap_or(name);
    let id = stem.rsplit('_').next().unwrap_or(stem);
    if let Some(hex) = id.strip_prefix("0x") {
        if let Ok(v) = u64::from_str_radix(hex, 16) {
            return format!("{v:#x}");
        }
    } else if let Ok(v) = id.parse::<u64>() {
        return format!("{v:#x}");
    }
    stem.to_owned()
}

fn role_of(probe: &FileProbe) -> Option<Role> {
    let name = probe.name();
    match name {
        "symbol.json" => return Some(Role::Symbols),
        "commonFuncId.json" => return Some(Role::CommonIds),
        _ => {}
    }
    if let Some(id) = name
        .strip_prefix("symbol_")
        .and_then(|n| n.strip_suffix(".json"))
    {
        return Some(Role::ThreadSymbols {
            tid: tid_of_tree(id),
        });
    }
    is_tree(probe).then(|| Role::Tree {
        tid: tid_of_tree(name),
    })
}

/// Decodes a folder (or loose files) of Scaler output.
pub struct ScalerDecoder {
    probes: Vec<FileProbe>,
    roles: Vec<Option<Role>>,
    plan: Vec<usize>,
    current: Option<usize>,
    /// Whole JSON files until they are parsed.
    json: HashMap<usize, Vec<u8>>,
    reader: Option<RecordReader>,
    state: Option<State>,
    ignored: Vec<String>,
}

/// Everything known once the JSON files are read.
struct State {
    builder: TraceBuilder,
    version: Option<Version>,
    symbols: Option<SymbolFile>,
    common: Option<CommonIds>,
    thread_symbols: HashMap<String, SymbolFile>,
    process: u32,
    /// The executable's base name (from symbol.json), empty if unknown.
    exe_name: String,
    unnamed: u64,
}

impl ScalerDecoder {
    /// A decoder for the offered files: the folder of the first tree file
    /// (by path); files elsewhere are ignored and reported.
    pub fn new(probes: Vec<FileProbe>) -> Self {
        let dir = probes
            .iter()
            .filter(|p| is_tree(p))
            .map(|p| p.dir().to_owned())
            .min()
            .unwrap_or_default();
        let mut ignored = Vec::new();
        let roles: Vec<Option<Role>> = probes
            .iter()
            .map(|p| {
                let role = (p.dir() == dir).then(|| role_of(p)).flatten();
                if role.is_none() {
                    ignored.push(p.path.clone());
                }
                role
            })
            .collect();
        let mut plan: Vec<usize> = (0..probes.len()).filter(|&i| roles[i].is_some()).collect();
        plan.sort_by_key(|&i| {
            let rank = match roles[i] {
                Some(Role::Tree { .. }) => 1,
                _ => 0,
            };
            (rank, probes[i].name().to_owned())
        });
        ScalerDecoder {
            probes,
            roles,
            plan,
            current: None,
            json: HashMap::new(),
            reader: None,
            state: None,
            ignored,
        }
    }

    /// Parses the JSON files fed so far and opens the trace.
    fn prepare(&mut self) {
        if self.state.is_none() {
            self.state = Some(self.read_json());
        }
    }

    fn read_json(&mut self) -> State {
        let mut builder = TraceBuilder::new(Format::Scaler, TimeUnit::Us);
        let mut symbols = None;
        let mut common = None;
        let mut thread_symbols = HashMap::new();
        for (index, role) in self.roles.iter().enumerate() {
            let Some(role) = role else { continue };
            if matches!(role, Role::Tree { .. }) {
                continue;
            }
            let path = &self.probes[index].path;
            // A file never fed (empty, or the caller stopped) reads as empty JSON.
            let bytes = self.json.remove(&index).unwrap_or_default();
            let bad = |builder: &mut TraceBuilder, e: symbols::JsonError| {
                builder.diagnose(
                    Severity::Error,
                    "scaler-bad-json",
                    Some(path),
                    Some(e.offset),
                    1,
                    || format!("{}; names from it are not available", e.message),
                );
            };
            match role {
                Role::Symbols => match symbols::parse_symbols(&bytes) {
                    Ok(s) => symbols = Some(s),
                    Err(e) => bad(&mut builder, e),
                },
                Role::CommonIds => match symbols::parse_common_ids(&bytes) {
                    Ok(c) => common = Some(c),
                    Err(e) => bad(&mut builder, e),
                },
                Role::ThreadSymbols { tid } => match symbols::parse_symbols(&bytes) {
                    Ok(s) => {
                        thread_symbols.insert(tid.clone(), s);
                    }
                    Err(e) => bad(&mut builder, e),
                },
                Role::Tree { .. } => {}
            }
        }
        let skipped: u64 = symbols
            .iter()
            .chain(thread_symbols.values())
            .map(|s: &SymbolFile| s.skipped)
            .sum();
        if skipped > 0 {
            builder.diagnose(Severity::DataLoss, "scaler-json-entries", None, None, skipped, || {
                "entries of the symbol files were not {fileName, funcNames} objects with numeric keys and were skipped".into()
            });
        }
        let version = if !thread_symbols.is_empty() {
            Some(Version::V2)
        } else if symbols.is_some() || common.is_some() {
            Some(Version::V1)
        } else {
            None
        };
        let exe = symbols.as_ref().and_then(|s: &SymbolFile| {
            let image = s.images.get(&s.executable()?)?;
            Some(image.file_name.clone())
        });
        let exe_name = exe
            .as_deref()
            .map(crate::decoder::file_name)
            .unwrap_or_default()
            .to_owned();
        let process = builder.process("?", &exe_name);
        if let Some(exe) = exe {
            builder.metadata("executable", exe);
        }
        let trees = self
            .roles
            .iter()
            .filter(|r| matches!(r, Some(Role::Tree { .. })))
            .count();
        builder.metadata("thread files", trees.to_string());
        State {
            builder,
            version,
            symbols,
            common,
            thread_symbols,
            process,
            exe_name,
            unnamed: 0,
        }
    }

    /// Decodes the tree file just read.
    fn finish_tree(&mut self, index: usize, reader: RecordReader) {
        let Some(Some(Role::Tree { tid })) = self.roles.get(index).cloned() else {
            return;
        };
        let path = self.probes[index].path.clone();
        let size = self.probes[index].size;
        self.prepare();
        let Some(state) = self.state.as_mut() else {
            return;
        };
        let (records, stop) = reader.finish();
        let builder = &mut state.builder;
        match stop {
            Some(Stop::UnknownType { offset, byte }) => {
                builder.diagnose(Severity::DataLoss, "scaler-unknown-type", Some(&path), Some(offset), 1, || {
                    format!("record type {byte} is not 1, 2 or 3; records cannot be found after it, so the last {} bytes of this file were not read", size.saturating_sub(offset))
                });
            }
            Some(Stop::Truncated { offset, missing }) => {
                builder.diagnose(Severity::DataLoss, "scaler-truncated", Some(&path), Some(offset), 1, || {
                    format!("the file ends inside a record ({missing} bytes missing); that record was dropped")
                });
            }
            None => {}
        }
        // Lanes are titled by the program (as uftrace's are) and the thread id.
        let name = if state.exe_name.is_empty() {
            &tid
        } else {
            &state.exe_name
        };
        let t = builder.thread(state.process, &tid, name);
        builder.count_events(t, records.len() as u64);
        if records.is_empty() {
            return;
        }
        // The root's field 2 tells V1 (-1) from V2 (0) when no JSON says.
        let version = state.version.unwrap_or(match records[0].file_id {
            0 => Version::V2,
            _ => Version::V1,
        });
        let symbols = match version {
            Version::V1 => state.symbols.as_ref(),
            Version::V2 => state.thread_symbols.get(&tid),
        };
        let mut namer = names::Namer::new(version, symbols, state.common.as_ref());
        let tree = tree::Tree::link(&records);
        let emitted = emit::emit_thread(builder, t, &records, &tree, &mut namer);
        state.unnamed += namer.unnamed;
        emit::diagnose(builder, &path, &emitted);
        report_links(builder, &path, &tree.problems);
    }
}

/// Reports the linking problems of one tree file.
fn report_links(builder: &mut TraceBuilder, path: &str, p: &tree::LinkProblems) {
    let items = [
        (&p.size_mismatch, Severity::Info, "scaler-children-size",
         "parents' childrenSize differs from the children stored (Scaler counts calls made while it was saving); firstChildIndex was trusted"),
        (&p.size_without_children, Severity::Info, "scaler-children-size-no-index",
         "records claim children but have no firstChildIndex (calls made while Scaler was saving); drawn as leaves"),
        (&p.bad_links, Severity::DataLoss, "scaler-bad-link",
         "firstChildIndex values do not follow the level order (outside the file, backwards, or not where the previous block ended); the records were placed where possible"),
        (&p.unreachable, Severity::DataLoss, "scaler-unreachable",
         "records are in no parent's child block and could not be placed in the tree"),
    ];
    for (counted, severity, kind, message) in items {
        if counted.count > 0 {
            builder.diagnose(
                severity,
                kind,
                Some(path),
                counted.first_offset,
                counted.count,
                || message.into(),
            );
        }
    }
}

impl Decoder for ScalerDecoder {
    fn format(&self) -> Format {
        Format::Scaler
    }

    fn plan(&self) -> Vec<usize> {
        self.plan.clone()
    }

    fn begin_file(&mut self, index: usize) {
        self.end_file();
        self.current = Some(index);
        if let Some(Some(Role::Tree { .. })) = self.roles.get(index) {
            self.prepare();
            self.reader = Some(RecordReader::default());
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        let Some(index) = self.current else { return };
        match &mut self.reader {
            Some(reader) => reader.feed(chunk),
            None => self.json.entry(index).or_default().extend_from_slice(chunk),
        }
    }

    fn end_file(&mut self) {
        if let (Some(index), Some(reader)) = (self.current.take(), self.reader.take()) {
            self.finish_tree(index, reader);
        }
    }

    fn finish(mut self: Box<Self>) -> Trace {
        self.end_file();
        let ignored = std::mem::take(&mut self.ignored);
        self.prepare();
        let Some(mut state) = self.state.take() else {
            return TraceBuilder::new(Format::Scaler, TimeUnit::Us).finish();
        };
        let version = state.version;
        let builder = &mut state.builder;
        builder.metadata(
            "Scaler output",
            match version {
                Some(Version::V2) => {
                    "2021-07-25 or later tree format (symbol_<tid>.json, callee addresses)"
                }
                Some(Version::V1) => "July 2021 tree format (symbol.json, commonFuncId.json)",
                None => "tree format without JSON files",
            },
        );
        if state.unnamed > 0 {
            let why = if state.symbols.is_none() && state.thread_symbols.is_empty() {
                "there is no symbol.json (or symbol_<tid>.json) beside the thread files, so calls are named file<id>/func<id>"
            } else {
                "calls name symbols the JSON files do not list; they are named file<id>/func<id>"
            };
            builder.diagnose(
                Severity::DataLoss,
                "scaler-unnamed",
                None,
                None,
                state.unnamed,
                || why.into(),
            );
        }
        if !ignored.is_empty() {
            let first = ignored[0].clone();
            builder.diagnose(Severity::Info, "ignored-files", None, None, ignored.len() as u64, || {
                format!("files that are not part of the Scaler output were ignored (first: {first})")
            });
        }
        let mut trace = state.builder.finish();
        // Lanes on one time axis, earliest thread first.
        trace
            .threads
            .sort_by_key(|t| t.first_time.unwrap_or(i64::MAX));
        if let Some(table) = sync_table(&trace) {
            trace.tables.push(table);
        }
        trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_ids_come_from_names_in_hex() {
        assert_eq!(tid_of_tree("thread_0x7f05e24a6800.bin"), "0x7f05e24a6800");
        assert_eq!(tid_of_tree("thread_140737.bin"), "0x225c1");
        assert_eq!(
            tid_of_tree("simpleProgram_0x7fa3b750de00.bin"),
            "0x7fa3b750de00"
        );
        assert_eq!(tid_of_tree("unknown"), "unknown");
    }

    #[test]
    fn later_outputs_are_refused_by_name_with_their_era() {
        let probe = |name: &str| FileProbe {
            path: name.into(),
            size: 100,
            head: vec![0; 64],
        };
        let why = refusal(&[probe("threadTiming_123.bin"), probe("symbolInfo.txt")]).unwrap();
        assert!(why.contains("libHook-c"));
        let why = refusal(&[probe("scaler_time123_456.bin")]).unwrap();
        assert!(why.contains("late 2021"));
        assert_eq!(refusal(&[probe("notes.txt")]), None);
    }
}
