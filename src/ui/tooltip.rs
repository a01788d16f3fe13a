//! The hover tooltip: name, duration, self time, depth, what uftrace's read
//! triggers saw change during the call, flags and the recorded arguments
//! and return value. The chart positions it (through
//! CSSOM, since the page's CSP forbids inline style attributes).

use super::span_info::Info;
use yew::prelude::*;

/// Fields shown before "…and N more" (the detail panel shows all).
const MAX_FIELDS: usize = 8;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub info: Info,
    pub node: NodeRef,
}

#[function_component(Tooltip)]
pub fn tooltip(props: &Props) -> Html {
    let info = &props.info;
    let more = info.fields.len().saturating_sub(MAX_FIELDS);
    html! {
        <div class="tooltip" role="tooltip" ref={props.node.clone()}>
            <div class="tooltip-name">{ &info.name }</div>
            <dl class="facts">
                if let Some(d) = &info.duration { <dt>{ "duration" }</dt><dd>{ d }</dd> }
                if let Some(s) = &info.self_time { <dt>{ "self" }</dt><dd>{ s }</dd> }
                if info.duration.is_none() { <dt>{ "at" }</dt><dd>{ &info.start }</dd> }
                if let Some(depth) = info.depth { <dt>{ "depth" }</dt><dd>{ depth }</dd> }
                { for info.deltas.iter().map(|(k, v)| html! { <><dt class="delta">{ k }</dt><dd class="delta">{ v }</dd></> }) }
                { for info.fields.iter().take(MAX_FIELDS).map(|(k, v)| html! { <><dt>{ k }</dt><dd>{ v }</dd></> }) }
            </dl>
            if more > 0 { <div class="tooltip-more">{ format!("…and {more} more fields (click for all)") }</div> }
            { for info.notes.iter().map(|n| html! { <div class="note">{ *n }</div> }) }
        </div>
    }
}
