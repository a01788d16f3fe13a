//! The location picker: a search box (every word must match the label or
//! the place: a data id `#12`, an event type, a name, a class, a method, a
//! file) and the matching locations with their number of values.

use crate::view_model::values::{filter_picks, location_key, Pick};
use flamedrop_core::analysis::values::Location;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Locations listed at once (the search narrows the rest).
const SHOWN: usize = 300;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub picks: Rc<Vec<Pick>>,
    pub location: Option<Location>,
    pub on_location: Callback<Option<Location>>,
}

#[function_component(Picker)]
pub fn picker(props: &Props) -> Html {
    let query = use_state(String::new);
    let on_input = {
        let query = query.clone();
        Callback::from(move |e: InputEvent| {
            query.set(e.target_unchecked_into::<HtmlInputElement>().value());
        })
    };
    let (shown, total) = filter_picks(&props.picks, &query, SHOWN);
    let items = shown.into_iter().map(|p| {
        let chosen = props.location.as_ref() == Some(&p.location);
        let on_location = props.on_location.clone();
        let location = p.location.clone();
        html! {
            <li>
                <button type="button" class={classes!("values-pick", chosen.then_some("chosen"))}
                    data-location={location_key(&p.location)}
                    onclick={Callback::from(move |_: MouseEvent| on_location.emit(Some(location.clone())))}>
                    <span class="values-pick-label">{ &p.label }</span>
                    <span class="values-pick-count">{ p.count }</span>
                    <span class="values-pick-place">{ &p.place }</span>
                </button>
            </li>
        }
    });
    html! {
        <div class="values-picker">
            <input type="search" id="values-search" placeholder="data id, variable, field, class, method…"
                aria-label="Search the locations" value={(*query).clone()} oninput={on_input} />
            <p class="values-picks-count">
                { if total > SHOWN { format!("{SHOWN} of {total} locations") } else { format!("{total} locations") } }
            </p>
            <ul class="values-picks" id="values-picks">{ for items }</ul>
        </div>
    }
}
