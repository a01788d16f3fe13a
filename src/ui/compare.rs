//! Opening a second trace to compare with the one on screen: the header's
//! `button#compare` ("Compare…"), its panel (`#compare-panel`: the inputs
//! `input#compare-files` and `input#compare-folder`, a drop zone
//! `#compare-drop`, the decoding progress with `button#compare-cancel`, and
//! `#compare-error`). Once a comparison is open, the button becomes a chip
//! (`#compare-chip`) naming the comparison trace, with `button#compare-remove`.

use crate::loading::dropped::Dropped;
use crate::loading::slot::Progress;
use crate::loading::{picked, InputFile};
use crate::view_model::text::bytes;
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

/// What the panel asks the app to do.
pub enum CompareRequest {
    Open(bool),
    Picked(Vec<InputFile>),
    Dropped(Dropped),
    Cancel,
    Remove,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub open: bool,
    /// The comparison trace's label, once loaded.
    pub label: Option<String>,
    pub progress: Option<Progress>,
    pub error: Option<String>,
    pub on_request: Callback<CompareRequest>,
}

#[function_component(ComparePanel)]
pub fn compare_panel(props: &Props) -> Html {
    let over = use_state(|| false);
    let request = props.on_request.clone();
    let toggle = {
        let (request, open) = (request.clone(), props.open);
        Callback::from(move |_: MouseEvent| request.emit(CompareRequest::Open(!open)))
    };
    let panel = props.open.then(|| panel(props, &over));
    // Once a comparison is open, the button names it (the chip) and × closes it.
    let button = match &props.label {
        Some(label) => {
            let remove = request.reform(|_: MouseEvent| CompareRequest::Remove);
            html! {
                <span class="compare-chip" id="compare-chip">
                    <button type="button" id="compare" class="chip-button" aria-expanded={props.open.to_string()}
                        aria-controls="compare-panel" title={format!("Comparing with {label}: open another")} onclick={toggle}>
                        { "vs " }<span class="compare-name">{ label.clone() }</span>
                    </button>
                    <button type="button" id="compare-remove" class="link" aria-label={format!("Stop comparing with {label}")}
                        title="Stop comparing" onclick={remove}>{ "×" }</button>
                </span>
            }
        }
        None => html! {
            <button type="button" id="compare" class="button" aria-expanded={props.open.to_string()}
                aria-controls="compare-panel" title="Open a second trace to compare with this one" onclick={toggle}>{ "Compare…" }</button>
        },
    };
    html! {
        <span class="compare">
            { button }
            { for panel }
        </span>
    }
}

/// The open panel: the drop zone and inputs, the load's progress, its error.
fn panel(props: &Props, over: &UseStateHandle<bool>) -> Html {
    let request = &props.on_request;
    let picked_files = request.reform(|e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let files = input
            .files()
            .map(|list| picked::files_of(&list))
            .unwrap_or_default();
        input.set_value("");
        CompareRequest::Picked(files)
    });
    // The page behind also takes drops: keep this one to the panel.
    let drag = {
        let over = over.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            e.stop_propagation();
            over.set(true);
        })
    };
    let leave = {
        let over = over.clone();
        Callback::from(move |_: DragEvent| over.set(false))
    };
    let drop = {
        let (over, request) = (over.clone(), request.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            e.stop_propagation();
            over.set(false);
            if let Some(data) = e.data_transfer() {
                request.emit(CompareRequest::Dropped(Dropped::capture(&data)));
            }
        })
    };
    let close = request.reform(|_: MouseEvent| CompareRequest::Open(false));
    let error = props.error.as_ref().map(|e| {
        html! {
            <p id="compare-error" class="compare-error" role="alert">{ e.clone() }</p>
        }
    });
    html! {
        <div id="compare-panel" class="compare-panel" role="dialog" aria-label="Open a trace to compare with"
            ondragenter={drag.clone()} ondragover={drag} ondragleave={leave} ondrop={drop}>
            <p class="compare-title">{ "Compare with another trace of the same program" }</p>
            <div id="compare-drop" class={classes!("compare-drop", over.then_some("over"))}>
                { "Drop the other trace here, or " }
                <label for="compare-folder" class="button">{ "Open folder" }</label>
                <label for="compare-files" class="button">{ "Open files" }</label>
            </div>
            <input id="compare-files" class="visually-hidden" type="file" multiple=true onchange={picked_files.clone()} />
            <input id="compare-folder" class="visually-hidden" type="file" webkitdirectory=true multiple=true onchange={picked_files} />
            <p class="muted">{ "The trace on screen is the base; this one is new. The Diff view shows what changed." }</p>
            { for props.progress.as_ref().map(|p| status(p, request)) }
            { for error }
            <button type="button" class="link compare-close" onclick={close}>{ "Close" }</button>
        </div>
    }
}

/// The comparison load's progress bar and its Cancel button.
fn status(p: &Progress, request: &Callback<CompareRequest>) -> Html {
    let cancel = request.reform(|_: MouseEvent| CompareRequest::Cancel);
    let text = if p.total > 0.0 {
        format!("{} of {} read", bytes(p.read.min(p.total)), bytes(p.total))
    } else {
        "Gathering files…".to_owned()
    };
    html! {
        <div class="compare-status" aria-live="polite">
            <progress id="compare-progress" max={p.total.max(1.0).to_string()} value={p.read.to_string()}></progress>
            <span class="muted">{ format!("Opening {}: {text}", p.label) }</span>
            <button type="button" id="compare-cancel" class="button" onclick={cancel}>{ "Cancel" }</button>
        </div>
    }
}
