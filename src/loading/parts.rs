//! One load's decoding workers. A big input whose format can be split (the
//! per-task files of a uftrace recording) is decoded by two workers at once,
//! each taking its part; everything else by one (a SELogger event stream, a
//! SWAP stream and an sp-rtrace file too: their splits make each part read
//! and walk every record, or leave the build to one part, and one worker was
//! faster, see `Decoder::parts_pay_off`). This keeps what
//! the workers say per part and turns it into one progress, one failure, or
//! the parts' answers once every worker is done.
//! An sp-rtrace file asked for in two workers (`?workers=2`) is split by
//! byte range in the shared-memory build: the two workers meet in a `wire::join::JoinSlot` made here, part 1 leaves its
//! decoder's hand-over there and part 0 joins it before building the one
//! trace (`worker::join`); the copying build decodes it in one worker.

use super::client::DecodeJob;
use crate::browser::query_param;
use crate::wire::handover::SHARED_MEMORY;
use crate::wire::join::JoinSlot;
use crate::wire::protocol::{InputFile, Phases, WorkerEvent};
use std::rc::Rc;

/// Inputs smaller than this decode in one worker: starting a second costs
/// more than it saves.
const SPLIT_FROM_BYTES: f64 = (32u64 << 20) as f64;

/// Names of archives, which each worker would have to expand on its own.
const ARCHIVE_ENDINGS: [&str; 4] = [".zip", ".gz", ".tgz", ".tar"];

/// What one worker sent back.
pub struct Answer {
    pub body: AnswerBody,
    /// The saved screen, when the input was a `.flamedrop` file.
    pub reopened: Option<String>,
}

/// The trace of an [`Answer`].
pub enum AnswerBody {
    /// Copied: the encoded trace and its big columns (`wire::columns`).
    Copied {
        trace: js_sys::ArrayBuffer,
        columns: js_sys::Array,
    },
    /// Left in shared memory by the worker and taken over (`wire::handover`).
    Shared(Box<flamedrop_core::Trace>),
}

enum Part {
    Running {
        read: f64,
        total: f64,
    },
    Answered(Answer),
    /// It left its part to be joined by part 0; its bytes still count.
    HandedOver {
        read: f64,
        total: f64,
    },
    /// It had nothing to do (the input could not be split).
    Idle,
}

/// What a worker's event means for the whole load.
pub enum Step {
    /// Bytes read over all workers, out of the bytes they will read.
    Progress {
        read: f64,
        total: f64,
    },
    /// Every worker is done: the answers, part 0 first.
    Done {
        answers: Vec<Answer>,
        worker_ms: f64,
        /// Where the slowest worker's time went.
        phases: Phases,
        /// Parts joined into an answer by its worker (`wire::join`).
        joined: u32,
    },
    Failed(String),
    /// Nothing to show yet.
    Wait,
    /// Worker `part` sent a picture of what it decoded so far.
    Preview {
        part: u32,
        trace: js_sys::ArrayBuffer,
    },
}

/// The running workers of one load. Dropping it stops them.
pub struct Decoding {
    jobs: Vec<Option<DecodeJob>>,
    parts: Vec<Part>,
    worker_ms: f64,
    phases: Phases,
    joined: u32,
}

/// The number of workers `?workers=N` asks for (1 or 2), read when the page
/// starts (opening files clears the query).
pub fn workers_override() -> Option<u32> {
    query_param("workers")
        .and_then(|v| v.parse::<u32>().ok())
        .map(|n| n.clamp(1, 2))
}

/// How many workers to use for `files` on this machine: two for a big
/// recording of several per-task files (uftrace's `*.dat`) when the browser
/// has two cores or more; `wanted` (from [`workers_override`]) decides for
/// any size, for comparisons and tests. The other formats decode faster in
/// one worker (`Decoder::parts_pay_off`): a second one would only start,
/// find that out and stop, its memory adding to the load's.
pub fn workers_for(files: &[InputFile], wanted: Option<u32>) -> u32 {
    let archive = files.iter().any(|f| {
        let name = f.path.to_ascii_lowercase();
        ARCHIVE_ENDINGS.iter().any(|end| name.ends_with(end))
    });
    if archive {
        return 1;
    }
    if let Some(n) = wanted {
        return n;
    }
    let size: f64 = files.iter().map(InputFile::size).sum();
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    let task_files = files.iter().filter(|f| f.path.ends_with(".dat")).count();
    if size >= SPLIT_FROM_BYTES && cores >= 2.0 && task_files >= 2 {
        2
    } else {
        1
    }
}

impl Decoding {
    /// Starts `parts` workers on `files` (which post pictures of what they
    /// decoded so far when `preview`); `on_event(part, event)` receives
    /// what each says, to be handed back to [`Decoding::on_event`].
    /// `split_anyway`: the page's URL set the workers (`?workers=2`).
    pub fn start(
        files: Vec<InputFile>,
        (parts, preview, split_anyway): (u32, bool, bool),
        selection: &flamedrop_core::input::Selection,
        allowance_ms: f64,
        on_event: impl Fn(u32, WorkerEvent) + 'static,
    ) -> Result<Decoding, String> {
        let on_event = Rc::new(on_event);
        let mut jobs = Vec::with_capacity(parts as usize);
        // Each worker holds the slot; the last one done frees it.
        let join = (SHARED_MEMORY && parts > 1).then(JoinSlot::new);
        for part in 0..parts {
            let on_event = on_event.clone();
            let job = DecodeJob::start(
                files.clone(),
                (part, parts, preview, split_anyway),
                selection.clone(),
                (allowance_ms, join.as_ref().map(JoinSlot::share)),
                move |e| on_event(part, e),
            )?;
            jobs.push(Some(job));
        }
        Ok(Decoding {
            jobs,
            parts: (0..parts)
                .map(|_| Part::Running {
                    read: 0.0,
                    total: 0.0,
                })
                .collect(),
            worker_ms: 0.0,
            phases: Phases::new(),
            joined: 0,
        })
    }

    /// Takes in what worker `part` said.
    pub fn on_event(&mut self, part: u32, event: WorkerEvent) -> Step {
        let at = part as usize;
        match event {
            WorkerEvent::Ready => Step::Wait,
            WorkerEvent::Progress { read, total, .. } => {
                if let Some(Part::Running { read: r, total: t }) = self.parts.get_mut(at) {
                    (*r, *t) = (read, total);
                }
                let (read, total) = self.parts.iter().fold((0.0, 0.0), |(r, t), p| match p {
                    Part::Running { read, total } | Part::HandedOver { read, total } => {
                        (r + read, t + total)
                    }
                    _ => (r, t),
                });
                Step::Progress { read, total }
            }
            WorkerEvent::Done {
                trace,
                columns,
                worker_ms,
                phases,
                reopened,
                joined,
            } => {
                self.slowest(worker_ms, phases);
                self.joined += joined;
                let body = AnswerBody::Copied { trace, columns };
                self.settle(at, Part::Answered(Answer { body, reopened }))
            }
            WorkerEvent::Left {
                worker_ms,
                phases,
                reopened,
                joined,
            } => {
                self.slowest(worker_ms, phases);
                self.joined += joined;
                let left = self.jobs.get(at).and_then(|j| j.as_ref()?.take_left());
                let Some(trace) = left else {
                    self.jobs.clear();
                    return Step::Failed("the decoding worker's trace was not found".into());
                };
                let body = AnswerBody::Shared(trace);
                self.settle(at, Part::Answered(Answer { body, reopened }))
            }
            WorkerEvent::Preview { trace } => Step::Preview { part, trace },
            WorkerEvent::HandedOver {
                read,
                total,
                worker_ms,
                phases,
            } => {
                self.slowest(worker_ms, phases);
                self.settle(at, Part::HandedOver { read, total })
            }
            WorkerEvent::NotSplit => self.settle(at, Part::Idle),
            WorkerEvent::Failed { message } => {
                self.jobs.clear();
                Step::Failed(message)
            }
        }
    }

    /// Keeps the timing of the slowest worker so far.
    fn slowest(&mut self, worker_ms: f64, phases: Phases) {
        if worker_ms >= self.worker_ms {
            self.worker_ms = worker_ms;
            self.phases = phases;
        }
    }

    /// Part `at` is over: its worker (and the memory it holds) goes.
    fn settle(&mut self, at: usize, outcome: Part) -> Step {
        if let Some(job) = self.jobs.get_mut(at) {
            *job = None;
        }
        if let Some(part) = self.parts.get_mut(at) {
            *part = outcome;
        }
        if self.parts.iter().any(|p| matches!(p, Part::Running { .. })) {
            return Step::Wait;
        }
        let answers = std::mem::take(&mut self.parts)
            .into_iter()
            .filter_map(|p| match p {
                Part::Answered(answer) => Some(answer),
                _ => None,
            })
            .collect();
        Step::Done {
            answers,
            worker_ms: self.worker_ms,
            phases: std::mem::take(&mut self.phases),
            joined: self.joined,
        }
    }
}
