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
pub(crate) mod sync;
mod tree;

pub use sync::sync_table;

use super::common::Recording;
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
    /// The files, their roles, and the JSON files held whole until parsed.
    recording: Recording<Role>,
    plan: Vec<usize>,
    reader: Option<RecordReader>,
    state: Option<State>,
}

/// The JSON files of the output, parsed.
#[derive(Default)]
struct Json {
    symbols: Option<SymbolFile>,
    common: Option<CommonIds>,
    thread_symbols: HashMap<String, SymbolFile>,
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
        let dir = Recording::<Role>::folder_of(&probes, is_tree).unwrap_or_default();
        let recording = Recording::new(probes, &dir, role_of);
        let plan = recording.plan(|role| matches!(role, Role::Tree { .. }));
        ScalerDecoder {
            recording,
            plan,
            reader: None,
            state: None,
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
        let Json {
            symbols,
            common,
            thread_symbols,
        } = self.parse_json(&mut builder);
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
            .recording
            .roles()
            .filter(|(_, r)| matches!(r, Role::Tree { .. }))
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

    /// Parses the JSON files fed so far; a file never fed (empty, or the
    /// caller stopped) reads as empty JSON.
    fn parse_json(&mut self, builder: &mut TraceBuilder) -> Json {
        let files: Vec<(usize, Role)> = self
            .recording
            .roles()
            .filter(|(_, role)| !matches!(role, Role::Tree { .. }))
            .map(|(index, role)| (index, role.clone()))
            .collect();
        let mut json = Json::default();
        for (index, role) in files {
            let bytes = self.recording.take_buffer(index);
            let parsed = match role {
                Role::Symbols => symbols::parse_symbols(&bytes).map(|s| json.symbols = Some(s)),
                Role::CommonIds => symbols::parse_common_ids(&bytes).map(|c| json.common = Some(c)),
                Role::ThreadSymbols { tid } => symbols::parse_symbols(&bytes).map(|s| {
                    json.thread_symbols.insert(tid, s);
                }),
                Role::Tree { .. } => Ok(()),
            };
            if let Err(e) = parsed {
                builder.diagnose(
                    Severity::Error,
                    "scaler-bad-json",
                    Some(self.recording.path(index)),
                    Some(e.offset),
                    1,
                    || format!("{}; names from it are not available", e.message),
                );
            }
        }
        json
    }

    /// Decodes the tree file just read.
    fn finish_tree(&mut self, index: usize, reader: RecordReader) {
        let (Some(Role::Tree { tid }), Some(probe)) = (
            self.recording.role(index).cloned(),
            self.recording.probe(index),
        ) else {
            return;
        };
        let (path, size) = (probe.path.clone(), probe.size);
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
        let version = state
            .version
            .unwrap_or(match records.first().map(|r| r.file_id) {
                Some(0) => Version::V2,
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

    fn building(&self) -> Option<&crate::model::TraceBuilder> {
        self.state.as_ref().map(|s| &s.builder)
    }

    fn plan(&self) -> Vec<usize> {
        self.plan.clone()
    }

    fn begin_file(&mut self, index: usize) {
        self.end_file();
        self.recording.begin(index);
        if let Some(Role::Tree { .. }) = self.recording.role(index) {
            self.prepare();
            self.reader = Some(RecordReader::default());
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        match &mut self.reader {
            Some(reader) => reader.feed(chunk),
            None => self.recording.buffer(chunk),
        }
    }

    fn end_file(&mut self) {
        if let (Some(index), Some(reader)) = (self.recording.end(), self.reader.take()) {
            self.finish_tree(index, reader);
        }
    }

    fn finish(mut self: Box<Self>) -> Trace {
        self.end_file();
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
        self.recording.report_ignored(builder, "Scaler output");
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
