//! What loads mean for the page: starting one from picked, dropped or demo
//! files, and what a finished or failed load of the trace on screen or of
//! the comparison trace changes. The load itself is `loading::slot`'s.

use super::{App, Gathering, Msg, Slot};
use crate::browser;
use crate::loading::client::start_spares;
use crate::loading::slot::{LoadCost, LoadMsg, LoadStep};
use crate::loading::{demos, served};
use crate::ui::compare::CompareRequest;
use crate::view_model::{Compared, Loaded};
use crate::view_model::{View, ViewChange};
use std::rc::Rc;
use yew::prelude::*;

/// How long after a trace is shown the page starts the workers for the next
/// load (so their start-up does not compete with the first frames).
const SPARES_AFTER_MS: u32 = 3_000;

impl App {
    /// Starts loading the trace on screen from `source`.
    pub(super) fn gather(&mut self, ctx: &Context<Self>, source: Gathering) {
        let send = ctx.link().callback(|m| Msg::Load(Slot::Main, m));
        self.page.forget_trace();
        {
            let mut snapshot = self.published.borrow_mut();
            snapshot.load_started();
            snapshot.set_loaded(None, None);
        }
        let main = &mut self.page.main;
        match source {
            Gathering::Picked(files) => {
                browser::set_query("");
                main.begin(None, async move { Ok(files) }, &send);
            }
            Gathering::Dropped(dropped) => {
                browser::set_query("");
                main.begin(None, dropped.collect(), &send);
            }
            Gathering::Launched(launched) => {
                browser::set_query("");
                main.begin(None, launched.collect(), &send);
            }
            Gathering::Demo(name) => {
                browser::set_query(&format!("demo={name}"));
                let label = format!("demo {name}");
                main.begin(Some(label), demo_files(name), &send);
            }
            Gathering::Served(token) => main.begin(None, served::fetch(token), &send),
        }
    }

    /// Stops the load of the trace on screen.
    pub(super) fn cancel(&mut self) {
        self.page.main.cancel();
        self.page.error = None;
        self.published.borrow_mut().set_loaded(None, None);
        start_spares();
    }

    /// Decodes only `part` of the files held back as too big.
    pub(super) fn load_part(
        &mut self,
        ctx: &Context<Self>,
        part: crate::loading::part::Part,
    ) -> bool {
        let send = ctx.link().callback(|m| Msg::Load(Slot::Main, m));
        let step = self.page.main.load_part(part, &self.limits, &send);
        self.page.error = None;
        self.after(ctx, Slot::Main, step)
    }

    /// Takes in a message about a load; true to re-render.
    pub(super) fn on_load(&mut self, ctx: &Context<Self>, slot: Slot, msg: LoadMsg) -> bool {
        let send = ctx.link().callback(move |m| Msg::Load(slot, m));
        let step = match slot {
            Slot::Main => self.page.main.update(msg, &self.limits, &send),
            Slot::Compare => self.page.compare.slot.update(msg, &self.limits, &send),
        };
        self.after(ctx, slot, step)
    }

    /// What a load's step changes on the page.
    fn after(&mut self, ctx: &Context<Self>, slot: Slot, step: LoadStep) -> bool {
        match (slot, step) {
            (_, LoadStep::Ignored) => return false,
            (_, LoadStep::Changed) => {}
            (Slot::Main, LoadStep::Loaded(loaded, cost)) => self.show(ctx, loaded, cost),
            (Slot::Compare, LoadStep::Loaded(loaded, _)) => self.compare_with(ctx, loaded),
            (Slot::Main, LoadStep::Failed(message)) => {
                start_spares();
                gloo::console::warn!(format!("flamedrop: {message}"));
                self.published.borrow_mut().set_loaded(None, None);
                self.page.trace = None;
                self.page.base = None;
                self.page.error = Some(message);
            }
            (Slot::Compare, LoadStep::Failed(message)) => {
                gloo::console::warn!(format!("flamedrop: comparison: {message}"));
                let c = &mut self.page.compare;
                c.panel = true;
                c.error = Some(message);
            }
        }
        true
    }

    /// The trace on screen is ready: shown as decoded, then narrowed by the
    /// stack the URL holds, if any.
    fn show(&mut self, ctx: &Context<Self>, loaded: Rc<Loaded>, cost: LoadCost) {
        let page = &mut self.page;
        page.reopened = None;
        if let Some(header) = &loaded.reopened {
            super::save::reopen_views(page, header);
        }
        page.views.source = page.views.source.or_available(&loaded.trace);
        page.error = None;
        self.published
            .borrow_mut()
            .set_loaded(Some(loaded.clone()), Some(cost));
        page.base = Some(loaded.clone());
        page.narrowing.reset();
        page.trace = Some(loaded);
        page.refresh_search();
        let stack = page.views.narrow.clone();
        if !stack.steps.is_empty() {
            self.narrow_to(ctx, stack, None);
        } else {
            super::save::restore(&mut self.page);
        }
        // Workers for the next load, once the first frames are drawn.
        gloo::timers::callback::Timeout::new(SPARES_AFTER_MS, start_spares).forget();
    }

    /// The comparison trace is ready: compare it with the trace on screen.
    fn compare_with(&mut self, ctx: &Context<Self>, loaded: Rc<Loaded>) {
        let Some(base) = self.page.trace.clone() else {
            return;
        };
        let c = &mut self.page.compare;
        c.error = None;
        c.panel = false;
        c.decoded = Some(loaded.clone());
        c.compared = Some(Rc::new(Compared::new(base, loaded)));
        self.narrow_comparison(ctx);
        ctx.link()
            .send_message(Msg::Views(ViewChange::View(View::Diff)));
    }

    /// Handles the compare panel; true to re-render.
    pub(super) fn on_compare(&mut self, ctx: &Context<Self>, request: CompareRequest) -> bool {
        let send = ctx.link().callback(|m| Msg::Load(Slot::Compare, m));
        let c = &mut self.page.compare;
        match request {
            CompareRequest::Open(open) => c.panel = open,
            CompareRequest::Picked(files) if self.page.trace.is_some() => {
                c.error = None;
                c.slot.begin(None, async move { Ok(files) }, &send);
            }
            CompareRequest::Dropped(dropped) if self.page.trace.is_some() => {
                c.error = None;
                c.slot.begin(None, dropped.collect(), &send);
            }
            CompareRequest::Picked(_) | CompareRequest::Dropped(_) => {}
            CompareRequest::Cancel => c.slot.cancel(),
            CompareRequest::Remove => {
                self.page.forget_comparison();
                if self.page.views.view == View::Diff {
                    ctx.link()
                        .send_message(Msg::Views(ViewChange::View(View::Timeline)));
                }
            }
        }
        true
    }
}

/// The files of demo `name`, fetched from the site.
async fn demo_files(name: &'static str) -> Result<Vec<crate::loading::InputFile>, String> {
    match demos::find(name) {
        Some(demo) => demos::fetch(demo).await,
        None => Err(format!("there is no demo called \"{name}\"")),
    }
}
