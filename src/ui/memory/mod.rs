//! The Memory view (key 7): for one allocation resource, the filters
//! (`controls`), the peak / end / selection figures and the live blocks of
//! the listed moment grouped by backtrace (`groups`), the live bytes and
//! blocks over time with the rates under them on canvas `memory-chart`, and
//! the size and lifetime histograms (`charts`). Every number comes from the
//! core's `analysis::memory::summarize` for the state in `ViewState::memory`
//! and the ruler's range; a click on the chart lists that moment (the peak
//! near its marker) and makes its live blocks the flame graph's source.

mod charts;
mod controls;
mod groups;

use crate::render::colors::Colouring;
use crate::view_model::memory::MemoryState;
use crate::view_model::{Loaded, ViewChange, ViewState};
use flamedrop_core::analysis::memory::{MemoryError, MemorySummary};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub state: ViewState,
    pub colouring: Colouring,
    pub on_change: Callback<ViewChange>,
}

/// What the summary is computed from (the trace by identity).
#[derive(Clone, PartialEq)]
struct Inputs {
    trace: usize,
    memory: MemoryState,
    range: Option<(i64, i64)>,
}

type Summary = Result<MemorySummary, MemoryError>;

#[function_component(MemoryView)]
pub fn memory_view(props: &Props) -> Html {
    let loaded = &props.loaded;
    let memory = props.state.memory.for_trace(&loaded.trace);
    let inputs = Inputs {
        trace: Rc::as_ptr(loaded) as usize,
        memory: memory.clone(),
        range: props.state.range,
    };
    let summary: Rc<Summary> = {
        let loaded = loaded.clone();
        use_memo(inputs, move |i| i.memory.summarize(&loaded.trace, i.range))
    };
    let body = match summary.as_ref() {
        Ok(s) => html! {
            <>
                { groups::figures(loaded, s, props.state.range) }
                <charts::LiveChart loaded={loaded.clone()} summary={summary.clone()} memory={memory.clone()}
                    range={props.state.range} dark={props.colouring.dark} on_change={props.on_change.clone()} />
                <div class="memory-lower">
                    { groups::table(loaded, s, &memory, &props.on_change) }
                    <charts::Histograms loaded={loaded.clone()} summary={summary.clone()} memory={memory.clone()}
                        dark={props.colouring.dark} on_change={props.on_change.clone()} />
                </div>
            </>
        },
        Err(MemoryError::NoResource(r)) => html! {
            <p class="note empty-view" id="empty-view" role="status">{ format!("This trace has no allocation resource {r}.") }</p>
        },
    };
    html! {
        <section class="memory" id="memory-view" data-resource={memory.resource.to_string()}>
            { controls::toolbar(loaded, &props.state, &memory, &props.on_change) }
            <div class="memory-body">{ body }</div>
        </section>
    }
}
