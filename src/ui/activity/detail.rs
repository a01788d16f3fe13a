//! The detail box of the picked call: its API, time, thread, object and
//! every field of its event; for a network call its payload as a hex dump
//! and as text.

use crate::view_model::activity::{as_text, describe, hex_dump, payload};
use crate::view_model::Loaded;
use flamedrop_core::analysis::activity::{Activity, Mark};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub activity: Rc<Activity>,
    pub mark: Option<Mark>,
}

#[function_component(Detail)]
pub fn detail(props: &Props) -> Html {
    let Some(mark) = props.mark else {
        return html! {};
    };
    let fields = describe(&props.loaded, &props.activity, &mark);
    let data = payload(&props.loaded, &mark);
    html! {
        <aside class="activity-detail" id="activity-detail" aria-label="Picked call">
            <h3>{ mark.api }</h3>
            <dl>
                { for fields.iter().map(|f| html! { <><dt>{ &f.key }</dt><dd>{ &f.value }</dd></> }) }
            </dl>
            if let Some(data) = data {
                <h4>{ format!("Payload ({} bytes kept)", data.len()) }</h4>
                <pre class="payload-hex" id="payload-hex">{ hex_dump(&data).join("\n") }</pre>
                <h4>{ "As text" }</h4>
                <pre class="payload-text" id="payload-text">{ as_text(&data) }</pre>
            }
        </aside>
    }
}
