//! The Source view's method picker: a search box with the methods that
//! recorded events as suggestions, and, while no method is shown, the
//! list of them filtered by what is typed.

use crate::view_model::source_view::MethodItem;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Methods listed at most while none is shown.
const LISTED: usize = 300;

/// The method whose place is `typed`, else the first whose place holds it
/// (any case).
fn find<'a>(all: &'a [MethodItem], typed: &str) -> Option<&'a MethodItem> {
    let typed = typed.trim();
    if typed.is_empty() {
        return None;
    }
    let lower = typed.to_lowercase();
    all.iter()
        .find(|m| m.place == typed)
        .or_else(|| all.iter().find(|m| m.place.to_lowercase().contains(&lower)))
}

/// The toolbar: the search box (the shown method's place in it).
pub fn toolbar(all: &[MethodItem], shown: Option<&MethodItem>, on_pick: &Callback<u32>) -> Html {
    let onchange = {
        let (all, on_pick) = (all.to_vec(), on_pick.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(m) = find(&all, &input.value()) {
                on_pick.emit(m.method);
            }
        })
    };
    let value = shown.map(|m| m.place.clone()).unwrap_or_default();
    html! {
        <div class="source-toolbar">
            <label for="source-method">{ "Method" }</label>
            <input id="source-method" type="search" list="source-methods" {value} {onchange}
                placeholder="Class:method (type to search)" spellcheck="false" />
            <datalist id="source-methods">
                { for all.iter().map(|m| html! { <option value={m.place.clone()} /> }) }
            </datalist>
            if let Some(m) = shown {
                <span class="source-events">{ format!("{} events", m.events) }</span>
            }
            <span class="source-legend">
                <span class="source-value in-call">{ "this call" }</span>
                <span class="source-value">{ "all calls" }</span>
            </span>
        </div>
    }
}

/// The methods to pick from, while none is shown.
pub fn list(all: &[MethodItem], on_pick: &Callback<u32>) -> Html {
    let item = |m: &MethodItem| {
        let (method, on_pick) = (m.method, on_pick.clone());
        let onclick = Callback::from(move |_| on_pick.emit(method));
        html! {
            <li>
                <button class="source-pick" data-method={m.place.clone()} {onclick}>
                    { &m.place }
                </button>
                <span class="source-events">{ format!("{} events", m.events) }</span>
            </li>
        }
    };
    html! {
        <div class="source-choose">
            <p class="source-view-note">
                { "Select a call in the timeline, or pick a method (the box above searches):" }
            </p>
            <ul id="source-method-list">{ for all.iter().take(LISTED).map(item) }</ul>
        </div>
    }
}
