//! The empty page: where to drop a trace, buttons to open files or a folder,
//! the bundled demos, the promise that nothing is uploaded — and, after a
//! failed load, the error message (`#error`).

use super::part_choice::PartChoice;
use super::part_prefix::PartPrefix;
use crate::loading::demos::{self, DEMOS};
use crate::loading::part::Part;
use flamedrop_core::prescan::Estimate;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub error: Option<String>,
    pub on_demo: Callback<&'static str>,
    /// Offered after a "too big for this tab" error: decode anyway.
    #[prop_or_default]
    pub on_load_anyway: Option<Callback<()>>,
    /// With it, what the pre-scan found and the page's limit: the part
    /// dialog (`part_choice`) and what to do with its choice.
    #[prop_or_default]
    pub part: Option<(Rc<Estimate>, f64, Callback<Part>)>,
}

#[function_component(Welcome)]
pub fn welcome(props: &Props) -> Html {
    html! {
        <section class="welcome">
            if let Some(error) = &props.error {
                <div id="error" class="error" role="alert">
                    <strong>{ "Could not open that. " }</strong>{ error }
                    if let Some((estimate, limit, on_load)) = props.part.clone().filter(|p| p.0.can_select()) {
                        if estimate.threads.is_empty() {
                            <PartPrefix {estimate} {limit} {on_load} />
                        } else {
                            <PartChoice {estimate} {limit} {on_load} />
                        }
                    }
                    if let Some(on_load_anyway) = &props.on_load_anyway {
                        <div class="error-actions">
                            <button type="button" id="load-anyway" class="button"
                                onclick={on_load_anyway.reform(|_: MouseEvent| ())}>
                                { "Load it anyway" }
                            </button>
                        </div>
                    }
                </div>
            }
            <div class="drop-target">
                <h1>{ "Drop a trace here" }</h1>
                <p>{ "A whole " }<code>{ "uftrace.data" }</code>{ " folder, the files in it, or a " }
                    <code>{ ".zip" }</code>{ ", " }<code>{ ".tar" }</code>{ " or " }<code>{ ".tar.gz" }</code>{ " of it." }</p>
                <div class="open-buttons">
                    <label for="open-folder" class="button primary">{ "Open folder…" }</label>
                    <label for="open-files" class="button">{ "Open files…" }</label>
                </div>
            </div>
            <p class="privacy">
                { "Nothing is uploaded. Your files are read and decoded by WebAssembly inside this tab; \
                   the page makes no requests to other sites and works offline." }
            </p>
            <div class="demos" id="gallery">
                <h2>{ "Or try a demo — one real recording per format" }</h2>
                { for demos::formats().into_iter().map(|format| html! {
                    <section class="demo-format" data-format={format}>
                        <h3>{ format }</h3>
                        <ul>
                            { for DEMOS.iter().filter(|d| d.format == format).map(|d| {
                                let on_demo = props.on_demo.clone();
                                let name = d.name;
                                html! {
                                    <li>
                                        <button type="button" class="demo" data-demo={name}
                                            onclick={Callback::from(move |_: MouseEvent| on_demo.emit(name))}>
                                            <span class="demo-title">{ d.title }</span>
                                            <span class="demo-blurb">{ d.blurb }</span>
                                        </button>
                                    </li>
                                }
                            }) }
                        </ul>
                    </section>
                }) }
            </div>
        </section>
    }
}
