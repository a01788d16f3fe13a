//! One load state machine, used for the trace on screen and for the
//! comparison trace alike: gathering the files, holding back an input that
//! looks too big for the tab, decoding it in workers (progress, cancel,
//! watchdog, errors that name the file and offset) and unpacking the answer.
//!
//! Each load gets a number; messages from an older load (a cancelled worker,
//! a slow folder walk) are ignored. The slot sends its own follow-up
//! messages through the `send` callback its owner gives it, and tells the
//! owner what happened ([`LoadStep`]); what a finished load means for the
//! page is the owner's business.

use super::client::silence_allowance_ms;
use super::part::Part;
use super::parts::{workers_for, Decoding, Step};
use super::unpack::unpack;
use super::{budget, InputFile, Opened};
use crate::view_model::source_view_files::SourceFiles;
use crate::view_model::Loaded;
use crate::wire::protocol::{Phases, WorkerEvent};
use flamedrop_core::input::Selection;
use flamedrop_core::prescan::{Budget, Estimate};
use std::future::Future;
use std::rc::Rc;
use yew::Callback;

/// How far a load has come.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// What is being opened.
    pub label: String,
    /// Bytes read by the decoder and bytes it will read (0 before it knows).
    pub read: f64,
    pub total: f64,
}

/// Where the time of a load went, as the page measured it.
#[derive(Clone, Debug, Default)]
pub struct LoadCost {
    pub worker_ms: f64,
    pub unpack_ms: f64,
    pub index_ms: f64,
    pub parts: u32,
    pub phases: Phases,
}

/// What a load's helpers report back, each tagged with the load's number.
pub enum LoadMsg {
    /// The files are known (or could not be gathered).
    Opened(u32, Result<Opened, String>),
    /// Worker `part` said something.
    Worker {
        id: u32,
        part: u32,
        event: WorkerEvent,
    },
    /// The trace is ready to show (or could not be unpacked).
    Unpacked(u32, Result<Rc<Loaded>, String>, LoadCost),
    /// The pre-scan of files held back as too big (`super::prescan`).
    Scanned(u32, Result<Estimate, String>),
    /// A picture taken in too soon after the last may now be drawn (`super::preview`).
    DrawPicture(u32),
}

/// What a message meant for the slot's owner.
pub enum LoadStep {
    /// Nothing to show (an old load's message, a worker getting ready).
    Ignored,
    /// Progress: show it.
    Changed,
    /// The trace is ready.
    Loaded(Rc<Loaded>, LoadCost),
    /// The load failed; the message says why.
    Failed(String),
}

/// What the page's URL and the tab's memory allow a load.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// What a trace may take before the page asks first.
    pub budget: Budget,
    /// The watchdog's allowance when the page's URL sets one.
    pub watchdog_ms: Option<f64>,
    /// Decoding workers when the page's URL sets how many.
    pub workers: Option<u32>,
}

/// One load at a time, and its progress.
pub struct LoadSlot {
    /// The current load's number.
    load: u32,
    /// May a big input be split between two workers?
    split: bool,
    job: Option<Decoding>,
    /// What is being (or was last) opened.
    pub label: String,
    /// While a load runs.
    pub progress: Option<Progress>,
    /// Files held back because they looked too big for the tab.
    pub too_big: Option<Opened>,
    /// What the pre-scan says of them: the part dialog's threads and times.
    pub estimate: Option<Rc<Estimate>>,
    /// The input limit the estimate was held against, in bytes.
    pub limit: f64,
    /// The sources opened with the trace being decoded.
    sources: SourceFiles,
    /// What was decoded so far, while the load runs (`preview`).
    pub partial: Option<super::preview::Partial>,
    /// The beginning of a stream decoded alone: what the summary says of it.
    part_note: Option<String>,
}

impl LoadSlot {
    /// An idle slot; `split`: a big input may be decoded by two workers.
    pub fn new(split: bool) -> LoadSlot {
        LoadSlot {
            load: 0,
            split,
            job: None,
            label: String::new(),
            progress: None,
            too_big: None,
            estimate: None,
            limit: 0.0,
            sources: SourceFiles::default(),
            partial: None,
            part_note: None,
        }
    }

    /// The current load's number (a new one per load).
    pub fn load(&self) -> u32 {
        self.load
    }

    /// True while a load runs.
    pub fn is_loading(&self) -> bool {
        self.progress.is_some()
    }

    /// Starts a new load from the files `gather` produces (stopping the one
    /// in progress).
    pub fn begin(
        &mut self,
        label: Option<String>,
        gather: impl Future<Output = Result<Vec<InputFile>, String>> + 'static,
        send: &Callback<LoadMsg>,
    ) {
        self.cancel();
        self.label = label.clone().unwrap_or_else(|| "files".to_owned());
        self.progress = Some(Progress {
            label: self.label.clone(),
            read: 0.0,
            total: 0.0,
        });
        let (id, send) = (self.load, send.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let opened = match gather.await {
                // The traced program's sources travel beside the trace.
                Ok(files) => super::sources::take(files)
                    .await
                    .and_then(|(files, sources)| {
                        Opened::new(files, label).map(|opened| Opened { sources, ..opened })
                    }),
                Err(message) => Err(message),
            };
            send.emit(LoadMsg::Opened(id, opened));
        });
    }

    /// Stops the load in progress and forgets held-back files.
    pub fn cancel(&mut self) {
        self.load += 1;
        self.job = None;
        self.progress = None;
        self.too_big = None;
        self.estimate = None;
        self.partial = None;
        self.part_note = None;
    }

    /// Takes in a message about a load.
    pub fn update(&mut self, msg: LoadMsg, limits: &Limits, send: &Callback<LoadMsg>) -> LoadStep {
        match msg {
            LoadMsg::Opened(id, opened) if id == self.load => match opened {
                Ok(opened) if opened.size() > limits.budget.hold_back_above() => {
                    // Only the metadata and each file's ends are read
                    // before the page decodes or asks what to load.
                    let (id, send, files) = (self.load, send.clone(), opened.files.clone());
                    wasm_bindgen_futures::spawn_local(async move {
                        let estimate = super::prescan::scan(&files).await;
                        send.emit(LoadMsg::Scanned(id, estimate));
                    });
                    self.too_big = Some(opened);
                    LoadStep::Changed
                }
                Ok(opened) => self.decode(opened, &Selection::default(), limits, send),
                Err(message) => self.fail(message),
            },
            LoadMsg::Worker { id, part, event } if id == self.load => {
                self.on_worker(part, event, send)
            }
            LoadMsg::Unpacked(id, loaded, cost) if id == self.load => {
                self.progress = None;
                self.partial = None;
                match loaded {
                    Ok(loaded) => LoadStep::Loaded(loaded, cost),
                    Err(message) => self.fail(message),
                }
            }
            LoadMsg::Scanned(id, estimate) if id == self.load => {
                self.scanned(estimate, limits, send)
            }
            LoadMsg::DrawPicture(id) if id == self.load => match self.partial.take() {
                Some(partial) => {
                    let number = partial.number;
                    let partial = super::preview::draw_waiting(partial, &self.label);
                    let drawn = partial.number != number;
                    self.partial = Some(partial);
                    if drawn {
                        LoadStep::Changed
                    } else {
                        LoadStep::Ignored
                    }
                }
                None => LoadStep::Ignored,
            },
            LoadMsg::Opened(..)
            | LoadMsg::Worker { .. }
            | LoadMsg::Unpacked(..)
            | LoadMsg::Scanned(..)
            | LoadMsg::DrawPicture(..) => LoadStep::Ignored,
        }
    }

    /// Decodes only `part` of the files held back as too big.
    pub fn load_part(&mut self, part: Part, limits: &Limits, send: &Callback<LoadMsg>) -> LoadStep {
        let stream = self.estimate.take().map(|e| e.stream.clone());
        let Some(mut opened) = self.too_big.take() else {
            return LoadStep::Ignored;
        };
        self.part_note = part
            .first_bytes
            .zip(stream)
            .and_then(|(first, stream)| super::part::cut(&mut opened, &stream, first));
        self.decode(opened, &part.selection, limits, send)
    }

    /// The pre-scan is done: files whose format fits the budget after all
    /// are decoded; of the others the page says they are too big and
    /// offers a part of them (or, when it could not look, loading anyway).
    fn scanned(
        &mut self,
        estimate: Result<Estimate, String>,
        limits: &Limits,
        send: &Callback<LoadMsg>,
    ) -> LoadStep {
        let Some(opened) = self.too_big.take() else {
            return LoadStep::Ignored;
        };
        let limit = limits.budget.input_limit(estimate.as_ref().ok());
        if opened.size() <= limit {
            return self.decode(opened, &Selection::default(), limits, send);
        }
        let message =
            budget::too_big_message(&opened.label, opened.size(), limit, estimate.as_ref().ok());
        let step = self.fail(message);
        if let Ok(estimate) = estimate {
            self.estimate = Some(Rc::new(estimate));
            self.limit = limit;
        }
        self.too_big = Some(opened);
        step
    }

    fn fail(&mut self, message: String) -> LoadStep {
        self.job = None;
        self.progress = None;
        self.partial = None;
        LoadStep::Failed(message)
    }

    /// Hands the files to new decoding workers.
    fn decode(
        &mut self,
        opened: Opened,
        selection: &Selection,
        limits: &Limits,
        send: &Callback<LoadMsg>,
    ) -> LoadStep {
        self.label = opened.label.clone();
        self.sources = opened.sources.clone();
        self.progress = Some(Progress {
            label: opened.label.clone(),
            read: 0.0,
            total: opened.size(),
        });
        let allowance = limits
            .watchdog_ms
            .unwrap_or_else(|| silence_allowance_ms(opened.size()));
        let workers = if self.split {
            workers_for(&opened.files, limits.workers)
        } else {
            1
        };
        // Pictures of what was decoded so far are for the trace on screen.
        let preview = self.split && super::preview::wanted();
        let (id, send) = (self.load, send.clone());
        let split_anyway = limits.workers.is_some_and(|n| n > 1);
        match Decoding::start(
            opened.files,
            (workers, preview, split_anyway),
            selection,
            allowance,
            move |part, event| send.emit(LoadMsg::Worker { id, part, event }),
        ) {
            Ok(job) => {
                self.job = Some(job);
                super::spare::let_go();
                LoadStep::Changed
            }
            Err(message) => self.fail(message),
        }
    }

    fn on_worker(&mut self, part: u32, event: WorkerEvent, send: &Callback<LoadMsg>) -> LoadStep {
        let Some(decoding) = self.job.as_mut() else {
            return LoadStep::Ignored;
        };
        match decoding.on_event(part, event) {
            Step::Wait => LoadStep::Ignored,
            Step::Preview { part, trace } => {
                let previous = self.partial.take();
                self.partial = super::preview::take_in(previous, part, &trace, &self.label);
                if let Some(partial) = &mut self.partial {
                    let (id, send) = (self.load, send.clone());
                    partial.draw_when_due(move || send.emit(LoadMsg::DrawPicture(id)));
                }
                LoadStep::Changed
            }
            Step::Progress { read, total } => {
                if let Some(p) = &mut self.progress {
                    p.read = read;
                    p.total = total;
                }
                LoadStep::Changed
            }
            Step::Done {
                answers,
                worker_ms,
                phases,
                joined,
            } => {
                self.job = None; // the workers' memory goes with them
                if let Some(p) = &mut self.progress {
                    p.read = p.total; // the bar is full while the trace is prepared
                }
                let (id, label, send) = (self.load, self.label.clone(), send.clone());
                let sources = std::mem::take(&mut self.sources);
                let note = self.part_note.take();
                let started = crate::browser::now();
                let parts = answers.len() as u32 + joined;
                wasm_bindgen_futures::spawn_local(async move {
                    let unpacked = unpack(answers, label, note).await;
                    let unpack_ms = crate::browser::now() - started;
                    let (loaded, page) = match unpacked {
                        Ok((mut loaded, page)) => {
                            loaded.sources = sources;
                            (Ok(Rc::new(loaded)), page)
                        }
                        Err(message) => (Err(message), Default::default()),
                    };
                    let cost = LoadCost {
                        worker_ms,
                        unpack_ms,
                        index_ms: page.index_ms,
                        parts,
                        phases: phases.into_iter().chain(page.phases).collect(),
                    };
                    send.emit(LoadMsg::Unpacked(id, loaded, cost));
                });
                LoadStep::Changed
            }
            Step::Failed(message) => self.fail(message),
        }
    }
}
