//! The part dialog (`#part-choice`), under the "too big for this tab"
//! message: from the pre-scan's estimate, a set of threads (checkboxes with
//! each thread's size, those that fit ticked) and a time window (start and
//! end after the first record, set to what fits), either or both, with the
//! selection's estimated size against the page's limit; "Load selection"
//! decodes only that part.

use crate::loading::part::Part;
use crate::view_model::text::bytes;
use flamedrop_core::input::Selection;
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

/// What the dialog holds: the ticked threads, the window in ms after the
/// first record, and which of the two apply.
#[derive(Clone, PartialEq)]
struct Choice {
    by_threads: bool,
    threads: Vec<String>,
    by_window: bool,
    from_ms: f64,
    until_ms: f64,
}

impl Choice {
    /// Preselected to fit: the threads that fit when some (but not all) do,
    /// else the window that fits.
    fn fitting(estimate: &Estimate, limit: f64) -> Choice {
        let threads = estimate.threads_that_fit(limit);
        let by_threads = !threads.is_empty() && threads.len() < estimate.threads.len();
        let first = estimate.time_range().map_or(0, |r| r.0);
        let (from, until) = estimate
            .window_that_fits(limit, None)
            .unwrap_or((first, first));
        Choice {
            by_threads,
            threads: if by_threads {
                threads
            } else {
                estimate.threads.iter().map(|t| t.id.clone()).collect()
            },
            by_window: !by_threads,
            from_ms: ms(from - first),
            until_ms: ms(until - first),
        }
    }

    fn selection(&self, estimate: &Estimate) -> Selection {
        let first = estimate.time_range().map_or(0, |r| r.0);
        Selection {
            threads: self.by_threads.then(|| self.threads.clone()),
            window: self.by_window.then(|| {
                let from = first + (self.from_ms * 1e6).round() as i64;
                let until = first + (self.until_ms * 1e6).round() as i64;
                (from, until.max(from))
            }),
        }
    }
}

fn ms(ns: i64) -> f64 {
    (ns as f64 / 1e3).round() / 1e3
}

fn input_value(e: &Event) -> Option<String> {
    e.target_dyn_into::<HtmlInputElement>().map(|i| i.value())
}

fn input_checked(e: &Event) -> bool {
    e.target_dyn_into::<HtmlInputElement>()
        .is_some_and(|i| i.checked())
}

#[function_component(PartChoice)]
pub fn part_choice(props: &Props) -> Html {
    let estimate = props.estimate.clone();
    let choice = {
        let (estimate, limit) = (estimate.clone(), props.limit);
        use_state(move || Choice::fitting(&estimate, limit))
    };
    let selection = choice.selection(&estimate);
    let kept = estimate.input_for(&selection);
    let fits = kept <= props.limit;
    let span_ms = estimate.time_range().map_or(0.0, |(a, b)| ms(b - a));
    let update = |change: fn(&mut Choice, &Event)| {
        let choice = choice.clone();
        Callback::from(move |e: Event| {
            let mut next = (*choice).clone();
            change(&mut next, &e);
            choice.set(next);
        })
    };
    let on_threads = update(|c, e| c.by_threads = input_checked(e));
    let on_window = update(|c, e| c.by_window = input_checked(e));
    let on_from = update(|c, e| {
        if let Some(v) = input_value(e).and_then(|v| v.parse().ok()) {
            c.from_ms = v;
        }
    });
    let on_until = update(|c, e| {
        if let Some(v) = input_value(e).and_then(|v| v.parse().ok()) {
            c.until_ms = v;
        }
    });
    let on_load = {
        let on_load = props.on_load.clone();
        let selection = selection.clone();
        Callback::from(move |_: MouseEvent| {
            on_load.emit(Part {
                selection: selection.clone(),
                first_bytes: None,
            })
        })
    };
    html! {
        <div id="part-choice" class="part-choice">
            <p class="part-intro">{ format!(
                "Or load a part of it. From its metadata: {} threads over {} ms; the page's limit is {}.",
                estimate.threads.len(), span_ms, bytes(props.limit)) }</p>
            <fieldset class="part-threads">
                <legend><label>
                    <input type="checkbox" id="part-by-threads" checked={choice.by_threads} onchange={on_threads} />
                    { " Only these threads" }
                </label></legend>
                { for estimate.threads.iter().map(|t| thread_row(t, &choice)) }
            </fieldset>
            <fieldset class="part-window">
                <legend><label>
                    <input type="checkbox" id="part-by-window" checked={choice.by_window} onchange={on_window} />
                    { " Only this time window" }
                </label></legend>
                <label>{ "from " }
                    <input type="number" id="part-from-ms" step="any" min="0" max={span_ms.to_string()}
                        value={choice.from_ms.to_string()} onchange={on_from} disabled={!choice.by_window} />
                    { " ms" }</label>
                <label>{ " to " }
                    <input type="number" id="part-until-ms" step="any" min="0" max={span_ms.to_string()}
                        value={choice.until_ms.to_string()} onchange={on_until} disabled={!choice.by_window} />
                    { format!(" ms after the first record (of {span_ms} ms)") }</label>
            </fieldset>
            <p id="part-estimate" class={classes!("part-estimate", (!fits).then_some("over"))}>
                { format!("This part: about {} of records, {} in memory — {}.",
                    bytes(kept), bytes(kept * estimate.memory_per_byte),
                    if fits { "fits" } else { "over the limit" }) }
            </p>
            <button type="button" id="part-load" class="button primary" onclick={on_load}
                disabled={!choice.by_threads && !choice.by_window}>
                { "Load selection" }
            </button>
        </div>
    }
}

/// One thread's checkbox with its id, program and estimated size.
fn thread_row(
    thread: &flamedrop_core::prescan::ThreadEstimate,
    choice: &UseStateHandle<Choice>,
) -> Html {
    let ticked = choice.threads.contains(&thread.id);
    let onchange = {
        let (choice, id) = (choice.clone(), thread.id.clone());
        Callback::from(move |e: Event| {
            let mut next = (*choice).clone();
            next.threads.retain(|t| *t != id);
            if input_checked(&e) {
                next.threads.push(id.clone());
            }
            choice.set(next);
        })
    };
    html! {
        <label class="part-thread">
            <input type="checkbox" data-tid={thread.id.clone()} checked={ticked} {onchange}
                disabled={!choice.by_threads} />
            { format!(" {} {} — {}", thread.id, thread.name, bytes(thread.bytes as f64)) }
        </label>
    }
}
