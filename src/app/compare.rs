//! The app's side of a comparison trace: gathering its files from the
//! compare panel, decoding them in their own worker exactly as the trace on
//! screen is decoded (progress, cancel, watchdog, errors that name the file
//! and offset), and keeping the result for the diff view and
//! `window.flamedrop.diff()`. A comparison load has its own number, so
//! answers from a cancelled one are ignored.

use super::{App, Msg};
use crate::components::compare::CompareRequest;
use crate::loading::unpack::unpack;
use crate::loading::{budget, InputFile, Opened};
use crate::state::{Loaded, Phase, Progress};
use crate::views::{View, ViewChange};
use crate::worker::client::{silence_allowance_ms, DecodeJob};
use crate::worker::parts::Answer;
use crate::worker::protocol::WorkerEvent;
use std::future::Future;
use std::rc::Rc;
use yew::prelude::*;

/// The comparison trace and its load.
#[derive(Default)]
pub struct Comparing {
    pub panel: bool,
    pub load: u32,
    pub job: Option<DecodeJob>,
    pub progress: Option<Progress>,
    pub error: Option<String>,
    pub loaded: Option<Rc<Loaded>>,
}

/// Messages about the comparison trace.
pub enum CompareMsg {
    Request(CompareRequest),
    Opened(u32, Result<Opened, String>),
    Worker(u32, WorkerEvent),
    Unpacked(u32, Result<Rc<Loaded>, String>),
}

impl App {
    /// Handles a comparison message; true to re-render.
    pub(super) fn on_compare(&mut self, ctx: &Context<Self>, msg: CompareMsg) -> bool {
        let c = &mut self.compare;
        match msg {
            CompareMsg::Request(CompareRequest::Open(open)) => c.panel = open,
            CompareMsg::Request(CompareRequest::Picked(files)) => {
                self.compare_begin(ctx, async move { Ok(files) })
            }
            CompareMsg::Request(CompareRequest::Dropped(dropped)) => {
                self.compare_begin(ctx, dropped.collect())
            }
            CompareMsg::Request(CompareRequest::Cancel) => {
                c.load += 1;
                c.job = None;
                c.progress = None;
            }
            CompareMsg::Request(CompareRequest::Remove) => {
                self.compare_clear();
                if self.views.view == View::Diff {
                    ctx.link()
                        .send_message(Msg::Views(ViewChange::View(View::Timeline)));
                }
            }
            CompareMsg::Opened(id, opened) if id == c.load => match opened {
                Ok(opened) if opened.size() > self.size_limit => {
                    let message =
                        budget::too_big_message(&opened.label, opened.size(), self.size_limit);
                    self.compare_fail(message);
                }
                Ok(opened) => self.compare_decode(ctx, opened),
                Err(message) => self.compare_fail(message),
            },
            CompareMsg::Worker(id, event) if id == c.load => match event {
                // One worker decodes the comparison: it is never split.
                WorkerEvent::Ready | WorkerEvent::NotSplit => return false,
                WorkerEvent::Progress { read, total, .. } => {
                    if let Some(p) = &mut c.progress {
                        p.read = read;
                        p.total = total;
                    }
                }
                WorkerEvent::Done { trace, columns, .. } => {
                    c.job = None;
                    let id = c.load;
                    let label = c
                        .progress
                        .as_ref()
                        .map_or_else(String::new, |p| p.label.clone());
                    ctx.link().send_future(async move {
                        let answer = Answer { trace, columns };
                        let loaded = unpack(vec![answer], label).await;
                        Msg::Compare(CompareMsg::Unpacked(id, loaded.map(|(l, _)| Rc::new(l))))
                    });
                }
                WorkerEvent::Failed { message } => self.compare_fail(message),
            },
            CompareMsg::Unpacked(id, loaded) if id == c.load => match loaded {
                Ok(loaded) => {
                    c.progress = None;
                    c.error = None;
                    c.panel = false;
                    crate::js_diff::set_compare(Some(loaded.clone()));
                    c.loaded = Some(loaded);
                    ctx.link()
                        .send_message(Msg::Views(ViewChange::View(View::Diff)));
                }
                Err(message) => self.compare_fail(message),
            },
            CompareMsg::Opened(..) | CompareMsg::Worker(..) | CompareMsg::Unpacked(..) => {
                return false
            }
        }
        true
    }

    /// Forgets the comparison trace (and stops its load).
    pub(super) fn compare_clear(&mut self) {
        let c = &mut self.compare;
        c.load += 1;
        c.job = None;
        c.progress = None;
        c.error = None;
        c.loaded = None;
        crate::js_diff::set_compare(None);
    }

    fn compare_begin(
        &mut self,
        ctx: &Context<Self>,
        gather: impl Future<Output = Result<Vec<InputFile>, String>> + 'static,
    ) {
        if !matches!(self.phase, Phase::Ready(_)) {
            return;
        }
        let c = &mut self.compare;
        c.load += 1;
        c.job = None;
        c.error = None;
        c.progress = Some(Progress {
            label: "files".to_owned(),
            read: 0.0,
            total: 0.0,
        });
        let id = c.load;
        ctx.link().send_future(async move {
            Msg::Compare(CompareMsg::Opened(
                id,
                gather.await.and_then(|files| Opened::new(files, None)),
            ))
        });
    }

    fn compare_decode(&mut self, ctx: &Context<Self>, opened: Opened) {
        let allowance = self
            .watchdog_ms
            .unwrap_or_else(|| silence_allowance_ms(opened.size()));
        let c = &mut self.compare;
        c.progress = Some(Progress {
            label: opened.label.clone(),
            read: 0.0,
            total: opened.size(),
        });
        let (id, link) = (c.load, ctx.link().clone());
        match DecodeJob::start(opened.files, (0, 1), allowance, move |event| {
            link.send_message(Msg::Compare(CompareMsg::Worker(id, event)))
        }) {
            Ok(job) => c.job = Some(job),
            Err(message) => self.compare_fail(message),
        }
    }

    fn compare_fail(&mut self, message: String) {
        gloo::console::warn!(format!("flamedrop: comparison: {message}"));
        let c = &mut self.compare;
        c.job = None;
        c.progress = None;
        c.panel = true;
        c.error = Some(message);
    }
}
