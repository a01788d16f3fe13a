//! Narrowing the trace on screen: a request (a pushed step, a pop, a stack
//! from the URL or a script) becomes a narrowed [`Loaded`] that every view,
//! the summary, the exports and `window.flamedrop.report()` read.
//!
//! A kept result (see `view_model::narrowing`) is shown at once. Otherwise
//! the page first paints its busy state, then carries out the steps left
//! in slices of about 15 ms with pauses between them
//! (`transform::Narrowing`, budgets from `view_model::slice_budget`), then
//! indexes the result's rows in slices with pauses, as a load does. A
//! request replaced by a newer one (or a pop) stops at its next pause.

use super::{App, Msg};
use crate::browser::{self, pace::yield_to_browser, pace::Pace};
use crate::loading::unpack::index_trace;
use crate::script_api::narrow::Settle;
use crate::view_model::filter_line::check_stack;
use crate::view_model::highlight::Highlight;
use crate::view_model::narrowing::{NarrowTiming, Plan};
use crate::view_model::slice_budget::SliceBudget;
use crate::view_model::{Compared, Loaded};
use flamedrop_core::analysis::transform::{self, Stack, Step, StepError, StepNote};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// How long a narrowing waits for the frame that shows the busy state.
const NO_FRAME_MS: i32 = 200;

/// A narrowing carried out.
pub struct Outcome {
    /// Steps of the stack that a kept result had already carried out.
    done: usize,
    loaded: Rc<Loaded>,
    /// Numbered in the whole stack.
    notes: Vec<StepNote>,
    timing: NarrowTiming,
}

impl App {
    /// Pushes `step` onto the stack (the requested one, if a narrowing runs).
    pub(super) fn push_step(&mut self, ctx: &Context<Self>, step: Step) -> bool {
        let mut stack = self.page.views.narrow.clone();
        stack.steps.push(step);
        self.narrow_to(ctx, stack, None)
    }

    /// Keeps the first `keep` steps.
    pub(super) fn pop_to(&mut self, ctx: &Context<Self>, keep: usize) -> bool {
        let mut stack = self.page.views.narrow.clone();
        stack.steps.truncate(keep);
        self.narrow_to(ctx, stack, None)
    }

    /// Narrows the trace on screen to `target` (the stack as a whole);
    /// `settle` hears how it ended. True to re-render.
    pub(super) fn narrow_to(
        &mut self,
        ctx: &Context<Self>,
        target: Stack,
        settle: Option<Settle>,
    ) -> bool {
        self.settles.extend(settle);
        if let Err(message) = check_stack(&target) {
            self.narrowing_failed(message);
            return true;
        }
        let page = &mut self.page;
        if page.base.is_some()
            && page.narrowing.busy.is_none()
            && page.narrowing.applied() == target
        {
            self.settle(Ok(target.to_string()));
            return false; // already shown
        }
        page.views.narrow = target.clone();
        let Some(base) = page.base.clone() else {
            // Applied when a trace is shown.
            browser::set_fragment(&page.views.to_fragment());
            self.settle(Ok(target.to_string()));
            return true;
        };
        let plan = page.narrowing.plan(&base, &target);
        let generation = page.narrowing.begin(target.clone());
        LATEST.set(generation);
        if plan.rest.is_empty() {
            page.narrowing.finish(target, plan.done, None, Vec::new());
            page.narrowing.timing = Some(NarrowTiming::default());
            self.show_narrowed(ctx);
            return true;
        }
        let link = ctx.link().clone();
        wasm_bindgen_futures::spawn_local(async move {
            after_paint().await;
            let outcome = run(plan, move || LATEST.get() == generation).await;
            link.send_message(Msg::Narrowed(generation, target, Box::new(outcome)));
        });
        true
    }

    /// A narrowing ended; true to re-render.
    pub(super) fn narrowed(
        &mut self,
        ctx: &Context<Self>,
        generation: u32,
        target: Stack,
        outcome: Result<Outcome, String>,
    ) -> bool {
        let narrowing = &mut self.page.narrowing;
        if !narrowing.is_current(generation) {
            return false; // a later request replaced it
        }
        match outcome {
            Ok(o) => {
                narrowing.finish(target, o.done, Some(o.loaded), o.notes);
                narrowing.timing = Some(o.timing);
                self.show_narrowed(ctx);
            }
            Err(message) => self.narrowing_failed(message),
        }
        true
    }

    /// The request could not apply: the applied stack stays, in the URL too.
    fn narrowing_failed(&mut self, message: String) {
        gloo::console::warn!(format!("flamedrop: narrowing: {message}"));
        let page = &mut self.page;
        page.narrowing.fail(message.clone());
        page.reopened = None;
        page.views.narrow = page.narrowing.applied();
        browser::set_fragment(&page.views.to_fragment());
        self.settle(Err(message));
    }

    /// Shows the narrowing's result: every view, the comparison, the search
    /// and the highlight move to it; the selection (spans of the old trace)
    /// goes.
    fn show_narrowed(&mut self, ctx: &Context<Self>) {
        let page = &mut self.page;
        let Some(base) = &page.base else {
            return;
        };
        let shown = page.narrowing.shown(base);
        page.views.narrow = page.narrowing.applied();
        browser::set_fragment(&page.views.to_fragment());
        page.selected = None;
        page.focus = None;
        page.views.forget_zoom();
        page.highlight = page
            .highlight
            .take()
            .map(|h| Rc::new(Highlight::new(&shown.trace, h.field.clone())));
        page.trace = Some(shown);
        page.timeline_window = None;
        super::save::restore(page);
        page.shown_version = page.shown_version.wrapping_add(1);
        page.refresh_search();
        let text = page.views.narrow.to_string();
        self.settle(Ok(text));
        self.narrow_comparison(ctx);
    }

    /// Narrows the comparison trace, if one is open, by the applied stack
    /// (in a task of its own) and compares it with the trace on screen;
    /// until then the comparison trace is compared as decoded.
    pub(super) fn narrow_comparison(&mut self, ctx: &Context<Self>) {
        let page = &mut self.page;
        let c = &mut page.compare;
        let (Some(shown), Some(decoded)) = (page.trace.clone(), c.decoded.clone()) else {
            return;
        };
        c.narrowings = c.narrowings.wrapping_add(1);
        c.compared = Some(Rc::new(Compared::new(shown, decoded.clone())));
        let steps = page.narrowing.applied().steps;
        if steps.is_empty() {
            return;
        }
        let plan = Plan {
            done: 0,
            from: decoded,
            rest: steps,
        };
        let (link, generation) = (ctx.link().clone(), c.narrowings);
        wasm_bindgen_futures::spawn_local(async move {
            after_paint().await;
            let outcome = run(plan, || true).await.map(|o| o.loaded);
            link.send_message(Msg::ComparisonNarrowed(generation, outcome));
        });
    }

    /// The comparison trace is narrowed; true to re-render.
    pub(super) fn comparison_narrowed(
        &mut self,
        generation: u32,
        outcome: Result<Rc<Loaded>, String>,
    ) -> bool {
        let c = &mut self.page.compare;
        let Some(shown) = self.page.trace.clone() else {
            return false;
        };
        if generation != c.narrowings || c.decoded.is_none() {
            return false;
        }
        match outcome {
            Ok(narrowed) => c.compared = Some(Rc::new(Compared::new(shown, narrowed))),
            Err(message) => {
                c.error = Some(format!(
                "the comparison trace is shown whole, the narrowing did not apply to it: {message}"
            ))
            }
        }
        true
    }

    /// Tells the scripts waiting on a narrowing how it ended.
    fn settle(&mut self, result: Result<String, String>) {
        for settle in self.settles.drain(..) {
            match &result {
                Ok(text) => settle.resolve(text),
                Err(message) => settle.reject(message),
            }
        }
    }
}

thread_local! {
    /// The latest request: a narrowing for an older one stops at its next
    /// pause (a newer request or a pop replaced it).
    static LATEST: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Carries out the plan's steps in slices with pauses (while `wanted`
/// says the result is still wanted) and indexes the result.
async fn run(plan: Plan, wanted: impl Fn() -> bool) -> Result<Outcome, String> {
    let started = browser::now();
    let mut slices = SliceBudget::default();
    let mut narrowing = transform::Narrowing::new(&plan.from.trace, &plan.rest);
    let narrowed = loop {
        let slice = browser::now();
        let result = narrowing.advance(slices.budget);
        slices.took(browser::now() - slice);
        if let Some(result) = result {
            break result.map_err(|e| describe(&plan, &e))?;
        }
        yield_to_browser().await;
        if !wanted() {
            return Err("replaced by a newer request".to_owned());
        }
    };
    drop(narrowing);
    let apply_ms = browser::now() - started;
    yield_to_browser().await;
    let indexing = browser::now();
    let (index, counter_index) = index_trace(&narrowed.trace, &mut Pace::new()).await;
    let index_ms = browser::now() - indexing;
    let notes = narrowed
        .notes
        .into_iter()
        .map(|n| StepNote {
            step: n.step + plan.done,
            message: n.message,
        })
        .collect();
    let label = plan.from.label.clone();
    Ok(Outcome {
        done: plan.done,
        loaded: Rc::new(Loaded::new(narrowed.trace, index, counter_index, label)),
        notes,
        timing: NarrowTiming {
            apply_ms,
            apply_busy_ms: slices.busy_ms,
            longest_slice_ms: slices.longest_ms,
            slices: slices.slices,
            index_ms,
            steps: plan.rest.len(),
        },
    })
}

/// The error as the filter bar shows it: which step, named, and why.
fn describe(plan: &Plan, error: &StepError) -> String {
    let step = plan
        .rest
        .get(error.step)
        .map_or_else(String::new, |s| format!(" ({})", s.label()));
    format!(
        "step {}{step}: {}",
        error.step + plan.done + 1,
        error.message
    )
}

/// Resolves once the browser has painted the next frame (the busy state),
/// or after [`NO_FRAME_MS`] in a tab that draws no frames (hidden).
async fn after_paint() {
    let frame = js_sys::Promise::new(&mut |resolve, _reject| {
        let asked = web_sys::window().map(|w| {
            let timeout = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                resolve.unchecked_ref(),
                NO_FRAME_MS,
            );
            w.request_animation_frame(resolve.unchecked_ref()).is_ok() || timeout.is_ok()
        });
        if asked != Some(true) {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(frame).await;
    yield_to_browser().await;
}
