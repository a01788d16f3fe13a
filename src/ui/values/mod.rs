//! The Values view (SELogger, NOD4J's and REMViewer's question: what values
//! did the program see, where, in which order): the selected event with the
//! step buttons (`event_bar`), a searchable picker of locations — data ids,
//! variables, fields — with their place and number of values (`picker`),
//! and for the chosen location its values in event order (`table`, a
//! virtual list; a click selects the event), a chart of the numeric ones
//! (`chart`, canvas `values-chart`), the count of distinct values and the
//! range. Near-omniscient and frequency outputs keep no history: the view
//! says so.

mod chart;
mod event_bar;
mod picker;
mod table;

use crate::render::colors::Colouring;
use crate::view_model::values::{location_key, number_text, pick_of, picks, StepKind};
use crate::view_model::Loaded;
use flamedrop_core::analysis::values::{values, Location, ValueHistory, PARTIAL_NOTE};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    /// The selected event of the event log.
    pub event: Option<u32>,
    pub colouring: Colouring,
    /// Select an event (a jump from the history).
    pub on_event: Callback<Option<u32>>,
    /// The location shown.
    #[prop_or_default]
    pub location: Option<Location>,
    #[prop_or_default]
    pub on_location: Callback<Option<Location>>,
    #[prop_or_default]
    pub on_step: Callback<StepKind>,
}

#[function_component(ValuesView)]
pub fn values_view(props: &Props) -> Html {
    let picks = use_memo(props.loaded.clone(), |loaded| {
        picks(&loaded.trace.event_log)
    });
    let history = use_memo(
        (props.loaded.clone(), props.location.clone()),
        |(loaded, location)| location.as_ref().map(|l| values(&loaded.trace, l)),
    );
    if props.loaded.trace.event_log.is_empty() {
        return html! {
            <section class="values-view" id="view-values">
                <p class="note values-note" id="values-note">{ PARTIAL_NOTE }</p>
            </section>
        };
    }
    let key = props.location.as_ref().map(location_key);
    let title = props.location.as_ref().map(|l| match pick_of(&picks, l) {
        Some(p) => (p.label.clone(), p.place.clone()),
        None => (location_key(l), String::new()),
    });
    html! {
        <section class="values-view" id="view-values" data-location={key}>
            <event_bar::EventBar loaded={props.loaded.clone()} event={props.event}
                on_step={props.on_step.clone()} on_location={props.on_location.clone()} />
            <div class="values-body">
                <picker::Picker picks={picks.clone()} location={props.location.clone()}
                    on_location={props.on_location.clone()} />
                <div class="values-main">
                    { match (title, history.as_ref()) {
                        (Some(title), Some(h)) => main(props, title, h),
                        _ => html! {
                            <p class="note values-empty">
                                { "Choose a location at the left, or select an event and press “Values of this location”." }
                            </p>
                        },
                    } }
                </div>
            </div>
        </section>
    }
}

/// The chosen location's title, numbers, chart and table.
fn main(props: &Props, (label, place): (String, String), h: &ValueHistory) -> Html {
    let h = Rc::new(h.clone());
    html! {
        <>
            <h2 id="values-title">{ label }<span class="values-place">{ place }</span></h2>
            if !h.complete { <p class="note values-note" id="values-note">{ &h.note }</p> }
            <dl class="facts values-stats" id="values-stats">
                <dt>{ "values" }</dt><dd id="values-count">{ h.points.len() }</dd>
                <dt>{ "distinct" }</dt><dd id="values-distinct">{ h.distinct }</dd>
                if let (Some(min), Some(max)) = (h.min, h.max) {
                    <dt>{ "min" }</dt><dd id="values-min">{ number_text(min) }</dd>
                    <dt>{ "max" }</dt><dd id="values-max">{ number_text(max) }</dd>
                }
                if h.data_ids.len() > 1 {
                    <dt>{ "data ids" }</dt><dd>{ h.data_ids.len() }</dd>
                }
            </dl>
            if h.min.is_some() {
                <chart::ValuesChart history={h.clone()} dark={props.colouring.dark}
                    event={props.event} on_event={props.on_event.clone()} />
            }
            <table::ValuesTable loaded={props.loaded.clone()} history={h}
                event={props.event} on_event={props.on_event.clone()} />
        </>
    }
}
