//! The history as a virtual list: only the rows in the scroll box's window
//! are in the page (a location can hold millions of values). Each row:
//! EventId, thread, method, line, value (and a string's content or an
//! exception's message). A click selects the row's event; the selected
//! event's row is marked and scrolled to.

use crate::view_model::Loaded;
use flamedrop_core::analysis::values::{ValueHistory, ValuePoint};
use flamedrop_core::model::Trace;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// Height of one row in CSS px (`.values-row` in values.css).
const ROW_PX: f64 = 22.0;
/// Rows in the page at once: more than the box shows, for smooth scrolling.
const WINDOW: usize = 60;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub history: Rc<ValueHistory>,
    pub event: Option<u32>,
    pub on_event: Callback<Option<u32>>,
}

#[function_component(ValuesTable)]
pub fn values_table(props: &Props) -> Html {
    let (scroll, spacer, window) = (use_node_ref(), use_node_ref(), use_node_ref());
    let first = use_state(|| 0usize);
    let n = props.history.points.len();
    use_placed_window(spacer.clone(), window.clone(), n, *first);
    let at = props.event.and_then(|e| {
        props
            .history
            .points
            .binary_search_by_key(&e, |p| p.event)
            .ok()
    });
    use_selected_in_view(scroll.clone(), first.clone(), at, props.history.clone());
    let on_scroll = {
        let (scroll, first) = (scroll.clone(), first.clone());
        Callback::from(move |_: Event| {
            if let Some(s) = scroll.cast::<HtmlElement>() {
                let row = first_row(f64::from(s.scroll_top()));
                if row != *first {
                    first.set(row);
                }
            }
        })
    };
    let on_click = {
        let on_event = props.on_event.clone();
        Callback::from(move |e: MouseEvent| {
            let event = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|t| t.closest("[data-event]").ok().flatten())
                .and_then(|r| r.get_attribute("data-event"))
                .and_then(|r| r.parse::<u32>().ok());
            if event.is_some() {
                on_event.emit(event);
            }
        })
    };
    let start = (*first).min(n);
    let shown = props
        .history
        .points
        .get(start..(start + WINDOW).min(n))
        .unwrap_or(&[]);
    html! {
        <div class="values-table" id="values-table" data-rows={n.to_string()}>
            <div class="values-row values-head">
                <span class="seq">{ "EventId" }</span><span class="thread">{ "thread" }</span>
                <span class="method">{ "method" }</span><span class="line">{ "line" }</span>
                <span class="value">{ "value" }</span>
            </div>
            <div class="values-scroll" ref={scroll} onscroll={on_scroll}>
                <div class="values-spacer" ref={spacer}>
                    <div class="values-window" ref={window} onclick={on_click}>
                        { for shown.iter().map(|p| row(&props.loaded.trace, p, props.event == Some(p.event))) }
                    </div>
                </div>
            </div>
        </div>
    }
}

/// Sizes the spacer to every row and moves the window to its first row
/// (the page's CSP allows no inline styles: set from here).
#[hook]
fn use_placed_window(spacer: NodeRef, window: NodeRef, n: usize, first: usize) {
    use_effect_with((n, first), move |&(n, first)| {
        if let Some(s) = spacer.cast::<HtmlElement>() {
            let _ = s
                .style()
                .set_property("height", &format!("{}px", n as f64 * ROW_PX));
        }
        if let Some(w) = window.cast::<HtmlElement>() {
            let top = first as f64 * ROW_PX;
            let _ = w
                .style()
                .set_property("transform", &format!("translateY({top}px)"));
        }
    });
}

/// Scrolls the selected event's row (`at`) into view when it is not.
#[hook]
fn use_selected_in_view(
    scroll: NodeRef,
    first: UseStateHandle<usize>,
    at: Option<usize>,
    history: Rc<ValueHistory>,
) {
    use_effect_with((at, history), move |(at, _)| {
        if let (Some(at), Some(s)) = (*at, scroll.cast::<HtmlElement>()) {
            let height = f64::from(s.client_height());
            let y = at as f64 * ROW_PX;
            let top = f64::from(s.scroll_top());
            if y < top || y + ROW_PX > top + height {
                let wanted = (y - height / 2.0).max(0.0);
                s.set_scroll_top(wanted as i32);
                first.set(first_row(wanted));
            }
        }
    });
}

/// One value's row.
fn row(trace: &Trace, p: &ValuePoint, selected: bool) -> Html {
    let log = &trace.event_log;
    let site = p.data_id as usize;
    let method = log.site_method.get(site).copied().unwrap_or(u32::MAX) as usize;
    let place = log.method_place.get(method).map_or("", |&id| log.text(id));
    let line = log.site_line.get(site).copied().unwrap_or(0);
    let thread = trace
        .threads
        .get(p.thread as usize)
        .map_or("", |t| t.id.as_str());
    html! {
        <div class={classes!("values-row", selected.then_some("selected"))} data-event={p.event.to_string()}>
            <span class="seq">{ p.seq }</span>
            <span class="thread">{ thread }</span>
            <span class="method" title={place.to_owned()}>{ place }</span>
            <span class="line">{ line }</span>
            <span class="value" title={p.detail.clone()}>
                { &p.text }{ for p.detail.iter().map(|d| html! { <span class="value-detail">{ d }</span> }) }
            </span>
        </div>
    }
}

/// The first row to put in the page when the box is scrolled to `top`.
fn first_row(top: f64) -> usize {
    ((top / ROW_PX).floor() as usize).saturating_sub(WINDOW / 6)
}
