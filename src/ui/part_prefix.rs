//! The part dialog (`#part-choice`) for a trace read as one stream
//! (sp-rtrace, SWAP, SELogger's event files): nothing short of decoding says which threads or times
//! its bytes hold, so it offers the stream's beginning — its first so many
//! MB, what was recorded first — set to what fits, with the part's
//! estimated memory against the page's limit; "Load selection" decodes
//! only that.

use crate::loading::part::{stream_names, Part};
use crate::view_model::text::bytes;
use flamedrop_core::prescan::Estimate;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub estimate: Rc<Estimate>,
    /// The page's input limit in bytes.
    pub limit: f64,
    pub on_load: Callback<Part>,
}

const MB: f64 = 1e6;

#[function_component(PartPrefix)]
pub fn part_prefix(props: &Props) -> Html {
    let stream = &props.estimate.stream;
    if stream.is_empty() {
        return Html::default();
    }
    let names = stream_names(stream);
    let stream_bytes: f64 = stream.iter().map(|s| s.bytes as f64).sum();
    let others = props.estimate.input_bytes as f64 - stream_bytes;
    let first_mb = {
        // What fits beside the other files, in whole kB.
        let fitting = ((props.limit - others).clamp(0.0, stream_bytes) / 1e3).floor() / 1e3;
        use_state(move || fitting)
    };
    let kept = others + (*first_mb * MB).min(stream_bytes);
    let fits = kept <= props.limit;
    let onchange = {
        let first_mb = first_mb.clone();
        Callback::from(move |e: Event| {
            let value = e.target_dyn_into::<HtmlInputElement>().map(|i| i.value());
            if let Some(mb) = value.and_then(|v| v.parse::<f64>().ok()) {
                first_mb.set(mb.max(0.0));
            }
        })
    };
    let on_load = {
        let (on_load, first) = (props.on_load.clone(), *first_mb * MB);
        Callback::from(move |_: MouseEvent| {
            on_load.emit(Part {
                first_bytes: Some(first),
                ..Part::default()
            })
        })
    };
    html! {
        <div id="part-choice" class="part-choice">
            <p class="part-intro">{ format!(
                "Or load only its beginning: {names} is one stream, and nothing short of decoding \
                 it says which threads or times its bytes hold. The page's limit is {}.",
                bytes(props.limit)) }</p>
            <label class="part-first">{ "The first " }
                <input type="number" id="part-first-mb" step="any" min="0"
                    max={(stream_bytes / MB).to_string()} value={first_mb.to_string()} {onchange} />
                { format!(" MB of its {} — what was recorded first", bytes(stream_bytes)) }</label>
            <p id="part-estimate" class={classes!("part-estimate", (!fits).then_some("over"))}>
                { format!("This part: about {} of input, {} in memory — {}.",
                    bytes(kept), bytes(kept * props.estimate.memory_per_byte),
                    if fits { "fits" } else { "over the limit" }) }
            </p>
            <button type="button" id="part-load" class="button primary" onclick={on_load}
                disabled={*first_mb <= 0.0}>
                { "Load selection" }
            </button>
        </div>
    }
}
