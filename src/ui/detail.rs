//! The detail panel of the selected span: every fact, what uftrace's read
//! triggers saw change between its entry and exit, and every recorded field.

use super::span_info;
use crate::timeline::SpanRef;
use crate::view_model::Loaded;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub selected: Option<SpanRef>,
    pub on_zoom: Callback<SpanRef>,
}

#[function_component(Detail)]
pub fn detail(props: &Props) -> Html {
    let Some(selected) = props.selected else {
        return html! {
            <section class="detail empty">
                <p>{ "Click a call in the flame chart to see its details here." }</p>
            </section>
        };
    };
    let Some(info) = span_info::span(&props.loaded, selected) else {
        return html! {};
    };
    let zoom = {
        let on_zoom = props.on_zoom.clone();
        Callback::from(move |_: MouseEvent| on_zoom.emit(selected))
    };
    html! {
        <section class="detail" id="detail">
            <h2 class="detail-name">{ &info.name }</h2>
            { for info.notes.iter().map(|n| html! { <p class="note">{ *n }</p> }) }
            <dl class="facts">
                <dt>{ "thread" }</dt><dd>{ &info.thread }</dd>
                <dt>{ "start" }</dt><dd>{ format!("{} after trace start", info.start) }</dd>
                if let Some(d) = &info.duration { <dt>{ "duration" }</dt><dd>{ d }</dd> }
                if let Some(s) = &info.self_time { <dt>{ "self time" }</dt><dd>{ s }</dd> }
                if let Some(depth) = info.depth { <dt>{ "depth" }</dt><dd>{ depth }</dd> }
            </dl>
            if !info.deltas.is_empty() {
                <h3>{ "Change during the call" }</h3>
                <dl class="facts deltas" id="detail-deltas">
                    { for info.deltas.iter().map(|(k, v)| html! { <><dt>{ k }</dt><dd>{ v }</dd></> }) }
                </dl>
            }
            if !info.fields.is_empty() {
                <h3>{ "Recorded fields" }</h3>
                <dl class="facts fields">
                    { for info.fields.iter().map(|(k, v)| html! { <><dt>{ k }</dt><dd>{ v }</dd></> }) }
                </dl>
            }
            <button type="button" class="button" onclick={zoom}>{ "Zoom to this call" }</button>
        </section>
    }
}
