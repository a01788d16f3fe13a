//! The loading view: what is being read, a progress bar of bytes read by the
//! decoder, and a Cancel button.

use crate::loading::slot::Progress;
use crate::view_model::text::bytes;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub progress: Progress,
    pub on_cancel: Callback<()>,
}

#[function_component(ProgressView)]
pub fn progress_view(props: &Props) -> Html {
    let p = &props.progress;
    let known = p.total > 0.0;
    let status = if !known {
        "Gathering files…".to_owned()
    } else if p.read >= p.total {
        format!("{} read; preparing the flame chart…", bytes(p.total))
    } else {
        format!("{} of {} read", bytes(p.read), bytes(p.total))
    };
    let cancel = props.on_cancel.reform(|_: MouseEvent| ());
    html! {
        <section class="loading" aria-live="polite">
            <h2>{ format!("Opening {}", p.label) }</h2>
            if known {
                <progress id="progress" max={p.total.to_string()} value={p.read.to_string()}></progress>
            } else {
                <progress id="progress"></progress>
            }
            <p class="muted">{ status }{ " — decoded in a background worker, on this computer." }</p>
            <button type="button" id="cancel" class="button" onclick={cancel}>{ "Cancel" }</button>
        </section>
    }
}
