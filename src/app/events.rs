//! The selected event of an omniscient SELogger trace and the page around
//! it: selecting an event selects the call it happened in and brings that
//! call into view in the timeline (the Listing view follows `page.event`
//! itself); a call selected by a click selects its first event; a step
//! (key, button or script) moves from the selected event.

use super::page::PageState;
use super::Msg;
use crate::timeline::SpanRef;
use crate::ui::sidebar::Tab;
use crate::view_model::values::{step, StepKind};
use flamedrop_core::analysis::values::{first_event_of_span, span_of_event};

/// Applies `SelectEvent`, `Step` and `ValuesAt`; true to re-render.
pub fn apply(page: &mut PageState, msg: Msg) -> bool {
    match msg {
        Msg::SelectEvent(event) => select_event(page, event),
        Msg::Step(kind) => match target_of_step(page, kind) {
            Some(event) => select_event(page, Some(event)),
            None => return false,
        },
        Msg::ValuesAt(location) => page.values_at = location,
        _ => return false,
    }
    true
}

/// Selects `event` (or none), and the call holding it.
pub fn select_event(page: &mut PageState, event: Option<u32>) {
    let Some(loaded) = page.trace.clone() else {
        return;
    };
    let event = event.filter(|&e| (e as usize) < loaded.trace.event_log.len());
    page.event = event;
    let Some(event) = event else { return };
    let Some((thread, span)) = span_of_event(&loaded.trace, event) else {
        return;
    };
    let span = SpanRef {
        thread: thread as usize,
        span,
    };
    if page.selected != Some(span) {
        page.selected = Some(span);
        page.tab = Tab::Details;
        let n = page.focus.map_or(0, |(n, _)| n + 1);
        page.focus = Some((n, span));
    }
}

/// Keeps the selected event in the selected call: a call selected by a
/// click (or cleared) selects its first event (or none).
pub fn follow_span(page: &mut PageState, span: Option<SpanRef>) {
    let Some(loaded) = page.trace.as_ref() else {
        return;
    };
    let trace = &loaded.trace;
    if trace.event_log.is_empty() {
        return;
    }
    let Some(span) = span else {
        page.event = None;
        return;
    };
    let holds =
        page.event.and_then(|e| span_of_event(trace, e)) == Some((span.thread as u32, span.span));
    if !holds {
        page.event = first_event_of_span(trace, span.thread as u32, span.span);
    }
}

/// Where `kind` goes from the selected event (from the selected call's
/// thread when no event is selected); `None` when it goes nowhere.
pub fn target_of_step(page: &PageState, kind: StepKind) -> Option<u32> {
    let loaded = page.trace.as_ref()?;
    let log = &loaded.trace.event_log;
    if log.is_empty() {
        return None;
    }
    let thread = page.selected.map(|s| s.thread as u32);
    step(log, loaded.stepper(), page.event, thread, kind)
}
