//! The stack as a breadcrumb (`nav#narrow-breadcrumb`): "Full trace", then
//! each step by its label; every item but the last is a button
//! (`data-keep`: the steps it keeps) that pops the stack back to it.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The applied steps' labels, in order.
    pub steps: Vec<String>,
    /// Keep the first N steps.
    pub on_pop: Callback<usize>,
    /// A narrowing runs: popping waits.
    pub busy: bool,
}

#[function_component(Breadcrumb)]
pub fn breadcrumb(props: &Props) -> Html {
    let labels = std::iter::once("Full trace").chain(props.steps.iter().map(String::as_str));
    let last = props.steps.len();
    let items = labels.enumerate().map(|(keep, label)| {
        let current = keep == last;
        let onclick = props.on_pop.reform(move |_: MouseEvent| keep);
        html! {
            <li class="crumb-item">
                if current {
                    <span class="crumb current" aria-current="step" data-keep={keep.to_string()} title={label.to_owned()}>{ label }</span>
                } else {
                    <button type="button" class="crumb" data-keep={keep.to_string()} disabled={props.busy}
                        title={format!("Back to: {label}")} {onclick}>{ label }</button>
                }
            </li>
        }
    });
    html! {
        <nav id="narrow-breadcrumb" class="breadcrumb" aria-label="Narrowing steps">
            <ol>{ for items }</ol>
        </nav>
    }
}
