//! The narrowing bar above the views (`#narrow-bar`): the filter box that
//! takes uftrace's filter options as typed ([`filter_input`]), the
//! breadcrumb of the stack ([`breadcrumb`]), and what the applied steps
//! could not do (`#narrow-notes`). `data-busy` is set while a narrowing
//! runs.

pub mod breadcrumb;
pub mod filter_input;

use breadcrumb::Breadcrumb;
use filter_input::FilterInput;
use flamedrop_core::analysis::transform::{Step, StepNote};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The applied steps' labels, in order.
    pub steps: Vec<String>,
    /// The labels of the stack being applied, while a narrowing runs.
    pub busy: Option<Vec<String>>,
    /// Why the last request did not apply.
    pub error: Option<String>,
    /// What the applied steps could not do.
    pub notes: Vec<StepNote>,
    /// How long the last narrowing blocked the page, in ms (apply, index).
    pub timing: Option<(f64, f64)>,
    pub on_push: Callback<Step>,
    /// Keep the first N steps.
    pub on_pop: Callback<usize>,
}

#[function_component(NarrowBar)]
pub fn narrow_bar(props: &Props) -> Html {
    let busy = props.busy.is_some();
    let status = match (&props.busy, props.timing) {
        (Some(target), _) => format!("Narrowing… {}", target.last().map_or("", String::as_str)),
        (None, Some((apply, index))) if !props.steps.is_empty() => {
            format!("applied in {apply:.0} ms (+{index:.0} ms indexing)")
        }
        _ => String::new(),
    };
    let notes = props.notes.iter().map(|n| {
        html! { <li data-step={n.step.to_string()}>{ format!("Step {}: {}", n.step + 1, n.message) }</li> }
    });
    html! {
        <section id="narrow-bar" class="narrow-bar" aria-label="Narrowing" data-busy={busy.then_some("1")}
            aria-busy={busy.to_string()}>
            <div class="narrow-row">
                <FilterInput on_push={props.on_push.clone()} error={props.error.clone()} {busy} />
                <Breadcrumb steps={props.steps.clone()} on_pop={props.on_pop.clone()} {busy} />
                <span id="narrow-status" class="narrow-status muted" aria-live="polite">{ status }</span>
            </div>
            if !props.notes.is_empty() {
                <ul id="narrow-notes" class="narrow-notes">{ for notes }</ul>
            }
        </section>
    }
}
