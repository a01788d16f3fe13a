//! The selected event and the step buttons (each names its key): previous
//! / next, back out / back over, into / over / out, last write; and
//! "Values of this location" for the event's data id.

use crate::view_model::values::{describe, StepKind, STEPS};
use crate::view_model::Loaded;
use flamedrop_core::analysis::values::{has_value, Location};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub event: Option<u32>,
    pub on_step: Callback<StepKind>,
    pub on_location: Callback<Option<Location>>,
}

#[function_component(EventBar)]
pub fn event_bar(props: &Props) -> Html {
    let trace = &props.loaded.trace;
    let summary = props.event.and_then(|e| describe(trace, e));
    let buttons = STEPS.iter().map(|&kind| {
        let on_step = props.on_step.clone();
        html! {
            <button type="button" class="button step" data-step={kind.name()}
                title={format!("{} ({})", kind.what(), kind.key())}
                onclick={Callback::from(move |_: MouseEvent| on_step.emit(kind))}>
                { kind.label() }<kbd>{ kind.key() }</kbd>
            </button>
        }
    });
    let this_location = summary
        .as_ref()
        .filter(|s| has_value(&trace.event_log, s.data_id))
        .map(|s| {
            let on_location = props.on_location.clone();
            let id = s.data_id;
            html! {
                <button type="button" class="button" id="values-of-event"
                    onclick={Callback::from(move |_: MouseEvent| on_location.emit(Some(Location::DataId(id))))}>
                    { "Values of this location" }
                </button>
            }
        });
    html! {
        <div class="values-event" id="values-event">
            { match &summary {
                Some(s) => html! {
                    <p class="values-event-text" data-seq={s.seq.to_string()}>
                        <b>{ format!("EventId {}", s.seq) }</b>
                        { format!(" · thread {} · {} · {} line {} · #{}", s.thread, s.event_type, s.place, s.line, s.data_id) }
                        { " · value " }<code>{ &s.value }</code>
                    </p>
                },
                None => html! {
                    <p class="values-event-text note">
                        { "No event selected: a step starts at the first event of the selected call's thread." }
                    </p>
                },
            } }
            <div class="values-steps">{ for buttons }{ for this_location }</div>
        </div>
    }
}
