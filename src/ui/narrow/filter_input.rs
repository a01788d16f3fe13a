//! The filter box (`input#narrow-filter`): uftrace's filter options as one
//! typed line (`-F main -N ^std:: -D 4 -t 5us`), read by
//! `view_model::filter_line`; Enter pushes them as one step. A line that does
//! not read, or a step that could not apply (given by the app), is shown in
//! `#narrow-error` and the stack stays as it was.

use crate::view_model::filter_line::read_filter_line;
use flamedrop_core::analysis::transform::Step;
use web_sys::{HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub on_push: Callback<Step>,
    /// Why the last request did not apply (from the app).
    pub error: Option<String>,
    /// A narrowing runs.
    pub busy: bool,
}

#[function_component(FilterInput)]
pub fn filter_input(props: &Props) -> Html {
    // What the typed line itself got wrong (cleared by typing).
    let parse_error = use_state(|| None::<String>);
    let onkeydown = {
        let (on_push, parse_error) = (props.on_push.clone(), parse_error.clone());
        Callback::from(move |e: KeyboardEvent| {
            if e.key() != "Enter" {
                return;
            }
            let input: HtmlInputElement = e.target_unchecked_into();
            match read_filter_line(&input.value()) {
                Ok(filter) if filter.is_empty() => parse_error.set(None),
                Ok(filter) => {
                    parse_error.set(None);
                    input.set_value("");
                    on_push.emit(Step::Uftrace(filter));
                }
                Err(message) => parse_error.set(Some(message)),
            }
        })
    };
    let oninput = {
        let parse_error = parse_error.clone();
        Callback::from(move |_: InputEvent| parse_error.set(None))
    };
    let error = (*parse_error).clone().or_else(|| props.error.clone());
    html! {
        <span class="narrow-filter">
            <input id="narrow-filter" type="text" spellcheck="false" autocomplete="off"
                placeholder="Filter: -F main -N ^std:: -D 4 -t 5us"
                title="uftrace filter options (-F -N -H -C -D -t -r --tid --match=glob); Enter adds them as one step"
                aria-label="Narrow with uftrace filter options" aria-describedby="narrow-error"
                aria-invalid={error.is_some().to_string()} readonly={props.busy}
                class={classes!(error.is_some().then_some("invalid"))} {onkeydown} {oninput} />
            if let Some(message) = error {
                <span id="narrow-error" class="narrow-error" role="alert">{ message }</span>
            }
        </span>
    }
}
