//! The Memory view's toolbar: the resource picker (sp-rtrace's resource
//! types, SWAP's memory and descriptors: the resource-type filter), the
//! `sp-rtrace-timeline` / `sp-rtrace-postproc` filters as text inputs (size
//! range, index range, time range, context mask, a function the backtrace
//! passes through) and the ruler's range with its clear button.

use crate::view_model::memory::inputs::{apply, text_of, Field};
use crate::view_model::memory::MemoryState;
use crate::view_model::text;
use crate::view_model::{Loaded, ViewChange, ViewState};
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The inputs: (field, id, label, placeholder, tooltip).
const FIELDS: [(Field, &str, &str, &str, &str); 5] = [
    (Field::Size, "memory-size", "Size", "a-b", "Block sizes to keep, both included (16-1k, 4096-, -64); sp-rtrace-timeline --filter-size"),
    (Field::Index, "memory-index", "Index", "a-b", "Call indices (sp-rtrace) or allocation numbers to keep; --filter-index"),
    (Field::Time, "memory-time", "Time", "a-b", "Allocation times to keep, from the trace's start in its unit; --filter-time"),
    (Field::Context, "memory-context", "Context", "0x1", "Context mask: keeps blocks made in a context sharing a bit (0: outside every context); sp-rtrace-postproc -C"),
    (Field::Through, "memory-through", "Through", "function", "Keeps blocks whose backtrace has a frame of this name"),
];

/// The toolbar.
pub fn toolbar(
    loaded: &Rc<Loaded>,
    views: &ViewState,
    memory: &MemoryState,
    on_change: &Callback<ViewChange>,
) -> Html {
    let trace = &loaded.trace;
    let on_resource = {
        let (on_change, memory) = (on_change.clone(), memory.clone());
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(resource) = select.value().parse::<u32>() {
                let mut next = memory.clone();
                next.resource = resource;
                next.moment = flamedrop_core::analysis::memory::Moment::Peak;
                on_change.emit(ViewChange::Memory(next));
            }
        })
    };
    let range = views.range.map(|(a, b)| {
        let unit = loaded.unit();
        let clear = on_change.reform(|_: MouseEvent| ViewChange::Range(None));
        html! {
            <span class="range-chip" id="range">
                { format!("range {} – {}", text::duration(a - loaded.origin, unit), text::duration(b - loaded.origin, unit)) }
                <button type="button" id="range-clear" class="link" onclick={clear}>{ "clear" }</button>
            </span>
        }
    });
    html! {
        <div class="toolbar memory-toolbar">
            <label for="memory-resource">{ "Resource" }</label>
            <select id="memory-resource" onchange={on_resource}>
                { for trace.allocations.iter().enumerate().map(|(r, a)| html! {
                    <option value={r.to_string()} selected={r as u32 == memory.resource}>
                        { format!("{} ({} {})", a.resource, a.len(), if a.len() == 1 { "block" } else { "blocks" }) }
                    </option>
                }) }
            </select>
            <span class="memory-filters" role="group" aria-label="Filters">
                { for FIELDS.iter().map(|f| field(loaded, memory, on_change, *f)) }
            </span>
            { for range }
        </div>
    }
}

/// One filter input: read when it changes (Enter or leaving it); a text
/// that does not read is marked and its reason shown as its tooltip.
fn field(
    loaded: &Rc<Loaded>,
    memory: &MemoryState,
    on_change: &Callback<ViewChange>,
    (which, id, label, placeholder, tip): (
        Field,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    ),
) -> Html {
    let origin = loaded.origin;
    let onchange = {
        let (on_change, memory) = (on_change.clone(), memory.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            match apply(&memory.filter, which, &input.value(), origin) {
                Ok(filter) => {
                    input.set_custom_validity("");
                    input.set_title("");
                    let mut next = memory.clone();
                    next.filter = filter;
                    on_change.emit(ViewChange::Memory(next));
                }
                Err(why) => {
                    input.set_custom_validity(&why);
                    input.set_title(&why);
                }
            }
        })
    };
    html! {
        <label class="memory-filter" title={tip}>
            <span>{ label }</span>
            <input {id} type="text" size="8" {placeholder} spellcheck="false"
                value={text_of(&memory.filter, which, origin)} {onchange} />
        </label>
    }
}
