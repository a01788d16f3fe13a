//! Everything one recording session said, collected packet by packet while the
//! file streams in. Calls are kept compact (function names and backtraces
//! interned) because frames can only be named once every MMAP — including the
//! ones the pre-processor appends at the end — has been seen.

use super::framing::TAGS;
use super::handshake::Handshake;
use super::modules::Mapping;
use super::packets::{CallPacket, Frames, HeapInfo, Payload};
use crate::fast_hash::FastMap;
use std::collections::BTreeMap;

/// PINF: the traced process.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProcessInfo {
    pub pid: u32,
    /// Wall clock at session start (UTC epoch), as the pre-processor saw it.
    pub seconds: u32,
    pub microseconds: u32,
    pub depth: Option<u32>,
    pub name: String,
}

/// RESR: a resource type calls allocate and free.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceType {
    pub id: u32,
    pub flags: u32,
    pub name: String,
    pub description: String,
}

/// RESR flag bit 0: allocations of the same id are reference counted.
pub const RESOURCE_REFCOUNT: u32 = 1;

impl ResourceType {
    /// True when repeated allocations of one id count references.
    pub fn refcounted(&self) -> bool {
        self.flags & RESOURCE_REFCOUNT != 0
    }
}

/// A CALL with its function name and backtrace interned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub resource_type: u32,
    pub context: u32,
    pub timestamp: u32,
    pub kind: u32,
    /// Index into [`Session::functions`].
    pub function: u32,
    pub size: i32,
    pub id: u64,
    /// Index into [`Session::backtraces`]; 0 is the empty backtrace.
    pub backtrace: u32,
}

/// A problem met while collecting packets, for the decoder to report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A BTRC or ARGS packet with no CALL before it.
    Orphan(&'static str),
    /// A CALL whose BTRC never came.
    MissingBacktrace,
    /// A packet that only exists in the pipe (NLIB).
    PipeOnly(String),
}

/// The collected session.
#[derive(Debug)]
pub struct Session {
    pub handshake: Handshake,
    pub process: Option<ProcessInfo>,
    /// OCFG: output directory and post-processor options.
    pub output: Option<(String, String)>,
    /// MINF: id, version (major << 16 | minor), name.
    pub modules: Vec<(u32, u32, String)>,
    pub resources: Vec<ResourceType>,
    /// CTXR: context bit mask and name.
    pub contexts: Vec<(u32, String)>,
    pub mappings: Vec<Mapping>,
    pub calls: Vec<Call>,
    pub functions: Vec<String>,
    function_index: FastMap<String, u32>,
    pub backtraces: Vec<Vec<u64>>,
    backtrace_index: FastMap<Vec<u64>, u32>,
    /// ARGS by call index.
    pub arguments: FastMap<u32, Vec<(String, String)>>,
    pub heap: Option<HeapInfo>,
    /// The 8 bytes a 64-bit `sp-rtrace-postproc` reads past a 48-byte HINF
    /// packet (`postproc_buffer.rs`).
    pub past_heap_info: Option<[u8; 8]>,
    /// FILE: attachment name and path.
    pub attachments: Vec<(String, String)>,
    /// Packets seen, by their tag's index in [`TAGS`].
    tag_counts: [u64; TAGS.len()],
    /// The frames of the BTRC being interned (reused, not allocated per packet).
    frames: Vec<u64>,
    /// The last CALL still waits for its BTRC.
    awaiting_backtrace: bool,
}

impl Session {
    /// An empty session for a stream that began with `handshake`.
    pub fn new(handshake: Handshake) -> Self {
        Session {
            handshake,
            process: None,
            output: None,
            modules: Vec::new(),
            resources: Vec::new(),
            contexts: Vec::new(),
            mappings: Vec::new(),
            calls: Vec::new(),
            functions: Vec::new(),
            function_index: FastMap::default(),
            backtraces: vec![Vec::new()],
            backtrace_index: FastMap::from_iter([(Vec::new(), 0)]),
            arguments: FastMap::default(),
            heap: None,
            past_heap_info: None,
            attachments: Vec::new(),
            tag_counts: [0; TAGS.len()],
            frames: Vec::new(),
            awaiting_backtrace: false,
        }
    }

    /// Takes one decoded packet in; returns what was odd about it.
    pub fn apply(&mut self, tag: &[u8; 4], payload: Payload<'_>) -> Option<Problem> {
        if let Some(count) = TAGS
            .iter()
            .position(|t| *t == tag)
            .and_then(|i| self.tag_counts.get_mut(i))
        {
            *count += 1;
        }
        let mut problem = None;
        match payload {
            Payload::ProcessInfo {
                pid,
                seconds,
                microseconds,
                depth,
                name,
            } => {
                self.process = Some(ProcessInfo {
                    pid,
                    seconds,
                    microseconds,
                    depth,
                    name,
                })
            }
            Payload::ModuleInfo { id, version, name } => self.modules.push((id, version, name)),
            Payload::Mapping { from, to, path } => self.mappings.push(Mapping { from, to, path }),
            Payload::Context { id, name } => self.contexts.push((id, name)),
            Payload::Call(call) => {
                if self.awaiting_backtrace {
                    problem = Some(Problem::MissingBacktrace);
                }
                self.push_call(call);
                self.awaiting_backtrace = true;
            }
            Payload::Backtrace(frames) => {
                if !self.awaiting_backtrace {
                    return Some(Problem::Orphan("BTRC"));
                }
                self.awaiting_backtrace = false;
                let index = self.intern_backtrace(frames);
                if let Some(call) = self.calls.last_mut() {
                    call.backtrace = index;
                }
            }
            Payload::Arguments(args) => {
                if !self.awaiting_backtrace {
                    return Some(Problem::Orphan("ARGS"));
                }
                let index = self.calls.len().saturating_sub(1) as u32;
                self.arguments.insert(index, args);
            }
            Payload::NewLibrary(path) => problem = Some(Problem::PipeOnly(path)),
            Payload::HeapInfo(info) => self.heap = Some(info),
            Payload::OutputSettings {
                output_dir,
                options,
            } => self.output = Some((output_dir, options)),
            Payload::Resource {
                id,
                flags,
                name,
                description,
            } => self.resources.push(ResourceType {
                id,
                flags,
                name,
                description,
            }),
            Payload::Attachment { name, path } => self.attachments.push((name, path)),
        }
        problem
    }

    /// Packets seen, by tag (only the tags that occurred).
    pub fn packet_counts(&self) -> BTreeMap<String, u64> {
        TAGS.iter()
            .zip(self.tag_counts)
            .filter(|(_, n)| *n > 0)
            .map(|(tag, n)| (String::from_utf8_lossy(*tag).into_owned(), n))
            .collect()
    }

    fn push_call(&mut self, call: CallPacket<'_>) {
        let function = match self.function_index.get(call.function.as_ref()) {
            Some(&function) => function,
            None => {
                let next = self.functions.len() as u32;
                let name = call.function.into_owned();
                self.function_index.insert(name.clone(), next);
                self.functions.push(name);
                next
            }
        };
        self.calls.push(Call {
            resource_type: call.resource_type,
            context: call.context,
            timestamp: call.timestamp,
            kind: call.kind,
            function,
            size: call.size,
            id: call.id,
            backtrace: 0,
        });
    }

    fn intern_backtrace(&mut self, frames: Frames<'_>) -> u32 {
        self.frames.clear();
        self.frames.extend(frames.iter());
        if let Some(&i) = self.backtrace_index.get(self.frames.as_slice()) {
            return i;
        }
        let i = self.backtraces.len() as u32;
        self.backtraces.push(self.frames.clone());
        self.backtrace_index.insert(self.frames.clone(), i);
        i
    }

    /// The function name of a call.
    pub fn function(&self, call: &Call) -> &str {
        self.functions
            .get(call.function as usize)
            .map_or("?", String::as_str)
    }

    /// The backtrace of a call, innermost frame first.
    pub fn backtrace(&self, call: &Call) -> &[u64] {
        self.backtraces
            .get(call.backtrace as usize)
            .map_or(&[], Vec::as_slice)
    }
}
