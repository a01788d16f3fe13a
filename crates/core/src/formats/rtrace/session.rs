//! Everything one recording session said, collected packet by packet while the
//! file streams in. Calls are kept compact (function names, backtraces and
//! what calls share interned) because frames can only be named once every
//! MMAP — including the ones the pre-processor appends at the end — has been
//! seen, so every call is held until the end.

use super::collected::ClassIndex;
pub use super::collected::{Call, Class, FullCall};
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

/// A problem met while collecting packets, for the decoder to report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A BTRC or ARGS packet with no CALL before it.
    Orphan(&'static str),
    /// A CALL whose BTRC never came.
    MissingBacktrace,
    /// A packet that only exists in the pipe (NLIB).
    PipeOnly(String),
    /// In a part that began mid-stream, before its first CALL or BTRC: the
    /// problem holds only if the call before the part still `awaited` its
    /// BTRC (or only if it did not); the join decides (`parts.rs`).
    Depends {
        awaited: bool,
        problem: Box<Problem>,
    },
}

/// Whether the last CALL still waits for its BTRC; unknown at the start of
/// a part that began mid-stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awaiting {
    No,
    Yes,
    Unknown,
}

/// What a part that began mid-stream did before it knew [`Awaiting`]: it
/// applies to the last call of the parts before it, if that call awaited
/// its BTRC.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lead {
    /// The frames of a BTRC that came before any CALL.
    pub backtrace: Option<Vec<u64>>,
    /// The last ARGS that came before any CALL or BTRC.
    pub arguments: Option<Vec<(String, String)>>,
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
    /// The calls in file order ([`Session::calls`] reads them whole).
    pub collected: Vec<Call>,
    /// The calls' classes, each once.
    pub classes: Vec<Class>,
    class_index: ClassIndex,
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
    awaiting_backtrace: Awaiting,
    /// A part's packets before it knew `awaiting_backtrace`.
    pub lead: Lead,
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
            collected: Vec::new(),
            classes: Vec::new(),
            class_index: ClassIndex::default(),
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
            awaiting_backtrace: Awaiting::No,
            lead: Lead::default(),
        }
    }

    /// An empty session for a part of the stream that began after its
    /// first packet (its tables are its own until joined, see
    /// [`Session::append`]).
    pub fn part(handshake: Handshake) -> Self {
        let mut session = Session::new(handshake);
        session.awaiting_backtrace = Awaiting::Unknown;
        session
    }

    /// Whether the last CALL still waits for its BTRC.
    pub fn awaiting(&self) -> Awaiting {
        self.awaiting_backtrace
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
                problem = match self.awaiting_backtrace {
                    Awaiting::Yes => Some(Problem::MissingBacktrace),
                    Awaiting::No => None,
                    Awaiting::Unknown => Some(depends(true, Problem::MissingBacktrace)),
                };
                self.push_call(call);
                self.awaiting_backtrace = Awaiting::Yes;
            }
            Payload::Backtrace(frames) => return self.take_backtrace(frames),
            Payload::Arguments(args) => return self.take_arguments(args),
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

    /// A BTRC: the backtrace of the call before it.
    fn take_backtrace(&mut self, frames: Frames<'_>) -> Option<Problem> {
        match self.awaiting_backtrace {
            Awaiting::No => return Some(Problem::Orphan("BTRC")),
            Awaiting::Yes => {
                let index = self.intern_backtrace(frames);
                self.set_backtrace(index);
            }
            Awaiting::Unknown => {
                self.lead.backtrace = Some(frames.iter().collect());
                self.awaiting_backtrace = Awaiting::No;
                return Some(depends(false, Problem::Orphan("BTRC")));
            }
        }
        self.awaiting_backtrace = Awaiting::No;
        None
    }

    /// An ARGS: the arguments of the call before it.
    fn take_arguments(&mut self, args: Vec<(String, String)>) -> Option<Problem> {
        match self.awaiting_backtrace {
            Awaiting::No => Some(Problem::Orphan("ARGS")),
            Awaiting::Yes => {
                let index = self.collected.len().saturating_sub(1) as u32;
                self.arguments.insert(index, args);
                None
            }
            Awaiting::Unknown => {
                self.lead.arguments = Some(args);
                Some(depends(false, Problem::Orphan("ARGS")))
            }
        }
    }

    /// Takes in the session of the next part of the stream (which began
    /// where this one ended): its lead applied to this session's last call
    /// if it awaited its BTRC, its calls with their functions, backtraces
    /// and arguments renumbered into this session's tables (interned in the
    /// order the whole stream would have met them), everything else
    /// appended or, for what a later packet replaces, replaced.
    pub fn append(&mut self, next: Session) {
        let awaited = self.awaiting_backtrace == Awaiting::Yes;
        if awaited {
            if let Some(args) = next.lead.arguments {
                let index = self.collected.len().saturating_sub(1) as u32;
                self.arguments.insert(index, args);
            }
            if let Some(frames) = next.lead.backtrace {
                self.frames = frames;
                let index = self.intern_frames();
                self.set_backtrace(index);
                self.awaiting_backtrace = Awaiting::No;
            }
        }
        let functions: Vec<u32> = next
            .functions
            .into_iter()
            .map(|name| self.intern_function(name))
            .collect();
        let backtraces: Vec<u32> = next
            .backtraces
            .into_iter()
            .map(|frames| {
                self.frames = frames;
                self.intern_frames()
            })
            .collect();
        let classes: Vec<u32> = next
            .classes
            .into_iter()
            .map(|class| {
                let function = functions.get(class.function as usize).copied();
                let backtrace = backtraces.get(class.backtrace as usize).copied();
                self.intern_class(Class {
                    function: function.unwrap_or(0),
                    backtrace: backtrace.unwrap_or(0),
                    ..class
                })
            })
            .collect();
        let first = self.collected.len() as u32;
        // Exactly the joined calls: a doubled vector would hold up to 20
        // bytes per call more until the end.
        self.collected.reserve_exact(next.collected.len());
        self.collected
            .extend(next.collected.into_iter().map(|mut call| {
                call.class = classes.get(call.class as usize).copied().unwrap_or(0);
                call
            }));
        self.arguments.extend(
            next.arguments
                .into_iter()
                .map(|(index, args)| (index + first, args)),
        );
        self.modules.extend(next.modules);
        self.resources.extend(next.resources);
        self.contexts.extend(next.contexts);
        self.mappings.extend(next.mappings);
        self.attachments.extend(next.attachments);
        for (count, more) in self.tag_counts.iter_mut().zip(next.tag_counts) {
            *count += more;
        }
        self.process = next.process.or(self.process.take());
        self.output = next.output.or(self.output.take());
        self.heap = next.heap.or(self.heap.take());
        if next.awaiting_backtrace != Awaiting::Unknown {
            self.awaiting_backtrace = next.awaiting_backtrace;
        }
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
            None => self.intern_function(call.function.into_owned()),
        };
        let class = self.intern_class(Class {
            function,
            kind: call.kind,
            resource_type: call.resource_type,
            context: call.context,
            backtrace: 0,
        });
        let call = Call::new(class, call.timestamp, call.size, call.id);
        self.collected.push(call);
    }

    /// Gives the last call backtrace `backtrace` (its BTRC came): another
    /// class.
    fn set_backtrace(&mut self, backtrace: u32) {
        let Some(&call) = self.collected.last() else {
            return;
        };
        let class = Class {
            backtrace,
            ..self.class(call.class)
        };
        let class = self.intern_class(class);
        if let Some(call) = self.collected.last_mut() {
            call.class = class;
        }
    }

    fn intern_class(&mut self, class: Class) -> u32 {
        self.class_index.intern(&mut self.classes, class)
    }

    /// Class number `class` ([`Call::class`]).
    pub fn class(&self, class: u32) -> Class {
        // Always there: the session made the number.
        self.classes
            .get(class as usize)
            .copied()
            .unwrap_or_default()
    }

    /// The calls in file order, each with its class read back.
    pub fn calls(&self) -> impl ExactSizeIterator<Item = FullCall> + '_ {
        self.collected.iter().map(|call| {
            let class_number = call.class;
            let class = self.class(class_number);
            FullCall {
                class: class_number,
                resource_type: class.resource_type,
                context: class.context,
                timestamp: call.timestamp,
                kind: class.kind,
                function: class.function,
                size: call.size,
                id: call.id(),
                backtrace: class.backtrace,
            }
        })
    }

    fn intern_function(&mut self, name: String) -> u32 {
        if let Some(&function) = self.function_index.get(&name) {
            return function;
        }
        let next = self.functions.len() as u32;
        self.function_index.insert(name.clone(), next);
        self.functions.push(name);
        next
    }

    fn intern_backtrace(&mut self, frames: Frames<'_>) -> u32 {
        self.frames.clear();
        self.frames.extend(frames.iter());
        self.intern_frames()
    }

    /// Interns the frames in `self.frames`.
    fn intern_frames(&mut self) -> u32 {
        if let Some(&i) = self.backtrace_index.get(self.frames.as_slice()) {
            return i;
        }
        let i = self.backtraces.len() as u32;
        self.backtraces.push(self.frames.clone());
        self.backtrace_index.insert(self.frames.clone(), i);
        i
    }

    /// The name of function `function`.
    pub fn function(&self, function: u32) -> &str {
        self.functions
            .get(function as usize)
            .map_or("?", String::as_str)
    }

    /// The backtrace of a call, innermost frame first.
    pub fn backtrace(&self, call: &FullCall) -> &[u64] {
        self.backtraces
            .get(call.backtrace as usize)
            .map_or(&[], Vec::as_slice)
    }
}

fn depends(awaited: bool, problem: Problem) -> Problem {
    Problem::Depends {
        awaited,
        problem: Box::new(problem),
    }
}
