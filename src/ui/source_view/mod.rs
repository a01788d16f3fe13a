//! The Source view (SELogger, NOD4J's presentation): a method's source file
//! with line numbers, scrolled to the method, each line's observed values
//! beside it (per variable, with counts), the selected call's lines and
//! values marked; a click on a value selects its event. Without the
//! program's sources, the method's class/method/line rows from
//! `dataids.txt` with the same values and a note saying sources can be
//! dropped with the trace. The model is `view_model::source_view*`.

mod lines;
mod picker;

use crate::timeline::SpanRef;
use crate::view_model::source_view::{
    call_lines, call_of_event, call_of_span, call_values, method_of_event, method_of_span, methods,
    MethodItem, MethodValues,
};
use crate::view_model::source_view_lines::{layout, Marks};
use crate::view_model::Loaded;
use flamedrop_core::analysis::values::value_text;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    /// The selected span (its events are highlighted).
    pub selected: Option<SpanRef>,
    /// The selected event of the event log.
    pub event: Option<u32>,
    /// Select an event.
    pub on_event: Callback<Option<u32>>,
}

/// The method to show: the one picked, else the selected event's, else
/// the selected span's.
fn shown_method(props: &Props, picked: Option<u32>) -> Option<u32> {
    let trace = &props.loaded.trace;
    picked
        .or_else(|| {
            props
                .event
                .and_then(|e| method_of_event(&trace.event_log, e))
        })
        .or_else(|| {
            props
                .selected
                .and_then(|s| method_of_span(trace, s.thread, s.span))
        })
}

/// What the selection marks in method `method`: the selected event's call
/// (else the selected span's call) and the selected event's value.
fn marks_of(props: &Props, method: u32) -> Marks {
    let trace = &props.loaded.trace;
    let log = &trace.event_log;
    let call_span = props
        .event
        .and_then(|e| call_of_event(trace, e))
        .or_else(|| props.selected.map(|s| (s.thread, s.span)));
    let call = call_span
        .and_then(|(thread, span)| call_of_span(trace, thread, span))
        .filter(|call| call.method == method);
    let selected = props
        .event
        .filter(|&e| method_of_event(log, e) == Some(method))
        .and_then(|e| Some((log.site_of(e as usize)?, value_text(log, e as usize))));
    Marks {
        call_values: call
            .as_ref()
            .map(|c| call_values(log, c))
            .unwrap_or_default(),
        call_lines: call
            .as_ref()
            .map(|c| call_lines(log, c))
            .unwrap_or_default(),
        selected,
    }
}

/// The view.
#[function_component(SourceView)]
pub fn source_view(props: &Props) -> Html {
    let picked = use_state(|| None::<u32>);
    {
        // A new selection shows its own method again.
        let picked = picked.clone();
        let key = (props.selected, props.event);
        use_effect_with(key, move |_| picked.set(None));
    }
    let key = Rc::as_ptr(&props.loaded) as usize;
    let all: Rc<Vec<MethodItem>> = {
        let loaded = props.loaded.clone();
        use_memo(key, move |_| methods(&loaded.trace.event_log))
    };
    let method = shown_method(props, *picked);
    let values = {
        let loaded = props.loaded.clone();
        use_memo((key, method), move |(_, method)| {
            method.map(|m| MethodValues::new(&loaded.trace.event_log, m))
        })
    };
    let on_pick = {
        let picked = picked.clone();
        Callback::from(move |m: u32| picked.set(Some(m)))
    };
    let item = method.and_then(|m| all.iter().find(|i| i.method == m));
    let body = match (item, values.as_ref()) {
        (Some(item), Some(values)) => {
            let file = props.loaded.sources.find(item.class(), &item.source);
            let rows = layout(
                values,
                file.map(|(_, text)| &**text),
                &marks_of(props, item.method),
                item.source_name(),
            );
            lines::body(props, item, file.map(|(path, _)| path), rows)
        }
        _ => picker::list(&all, &on_pick),
    };
    html! {
        <section class="source-view" id="source-view" aria-label="Source">
            { picker::toolbar(&all, item, &on_pick) }
            { body }
        </section>
    }
}
