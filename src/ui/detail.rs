//! The detail panel of the selected span: every fact, what uftrace's read
//! triggers saw change between its entry and exit, every recorded field and,
//! for an omniscient SELogger trace, the values the call saw in its frame.

use super::span_info;
use crate::timeline::SpanRef;
use crate::view_model::Loaded;
use flamedrop_core::analysis::values::span_values;
use std::rc::Rc;
use yew::prelude::*;

/// Values listed in the panel (the Values view shows all).
const MAX_VALUES: usize = 200;

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
    // SELogger: the call's own values (empty for other formats).
    let values = span_values(
        &props.loaded.trace,
        selected.thread as u32,
        selected.span,
        MAX_VALUES,
    );
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
            if !values.is_empty() {
                <h3>{ "Values in this call" }</h3>
                <dl class="facts values" id="detail-values">
                    { for values.iter().map(|v| html! { <>
                        <dt title={format!("EventId {}", v.seq)}>{ format!("{}: {}", v.line, v.label) }</dt>
                        <dd>{ &v.text }{ for v.detail.iter().map(|d| html! { <>{ " " }<span class="value-detail">{ d }</span></> }) }</dd>
                    </> }) }
                </dl>
                if values.len() >= MAX_VALUES { <p class="note">{ format!("the first {MAX_VALUES} values") }</p> }
            }
            <button type="button" class="button" onclick={zoom}>{ "Zoom to this call" }</button>
        </section>
    }
}
