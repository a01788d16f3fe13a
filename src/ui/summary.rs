//! The summary panel: format, time unit, span of time, the processes and
//! threads with their counts, the recording's metadata, and every
//! diagnostic the decoder reported (what it repaired, skipped or lost).

use crate::view_model::text::{duration, thread_title};
use crate::view_model::Loaded;
use flamedrop_core::model::Severity;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
}

/// Diagnostics that mean data is missing (shown as a badge on the tab).
pub fn loss_count(loaded: &Loaded) -> usize {
    loaded
        .trace
        .diagnostics
        .iter()
        .filter(|d| d.severity >= Severity::DataLoss)
        .count()
}

#[function_component(Summary)]
pub fn summary(props: &Props) -> Html {
    let loaded = &props.loaded;
    let trace = &loaded.trace;
    let unit = loaded.unit();
    let format = trace.format.map_or("unknown", |f| f.name());
    let mut diagnostics: Vec<_> = trace.diagnostics.iter().collect();
    diagnostics.sort_by_key(|d| std::cmp::Reverse(d.severity));
    html! {
        <section class="summary" id="summary">
            <dl class="facts">
                <dt>{ "opened" }</dt><dd>{ &loaded.label }</dd>
                <dt>{ "format" }</dt><dd>{ format }</dd>
                <dt>{ "time unit" }</dt><dd>{ unit }</dd>
                <dt>{ "length" }</dt><dd>{ duration(loaded.duration, unit) }</dd>
                <dt>{ "threads" }</dt><dd>{ trace.threads.len() }</dd>
                <dt>{ "calls" }</dt><dd>{ loaded.span_count() }</dd>
                // Cross-origin isolated: shared memory is possible (see browser::isolation).
                <dt>{ "isolated" }</dt><dd id="isolated">{ crate::browser::isolation::isolated_label() }</dd>
                // Whether the workers' model is shared with the page or was copied (wire::handover).
                <dt>{ "model" }</dt><dd id="model-handoff">{ model_label() }</dd>
            </dl>
            // A part chosen in the "too big" dialog: said first, not only among the metadata.
            if let Some((_, part)) = trace.metadata.iter().find(|(k, _)| k == "loaded part only") {
                <p id="partial-load" class="partial-load" role="note">
                    <strong>{ "Only a part of the recording was loaded: " }</strong>{ part }
                </p>
            }

            <h3>{ format!("Diagnostics ({})", diagnostics.len()) }</h3>
            if diagnostics.is_empty() {
                <p class="muted">{ "The decoder reported nothing unusual." }</p>
            } else {
                <ul class="diagnostics">
                    { for diagnostics.iter().map(|d| html! {
                        <li class={classes!("diagnostic", d.severity.name())}>
                            <span class="severity">{ severity_label(d.severity) }</span>
                            <span class="message">{ d.text() }</span>
                            <span class="count" title="how many times">{ format!("× {}", d.count) }</span>
                        </li>
                    }) }
                </ul>
            }

            <h3>{ "Processes and threads" }</h3>
            { for trace.processes.iter().enumerate().map(|(p, process)| html! {
                <div class="process">
                    <div class="process-name">{ format!("{} (pid {})", if process.name.is_empty() { "process" } else { &process.name }, process.id) }</div>
                    <table class="threads">
                        <thead><tr><th>{ "thread" }</th><th>{ "events" }</th><th>{ "calls" }</th><th>{ "depth" }</th></tr></thead>
                        <tbody>
                        { for trace.threads.iter().enumerate().filter(|(_, t)| t.process as usize == p).map(|(i, t)| html! {
                            <tr>
                                <td>{ thread_title("", &t.name, &t.id) }</td>
                                <td>{ t.events }</td>
                                <td>{ t.spans.len() }</td>
                                // The index has one row per depth: scanning a
                                // big thread's depths here took 40–70 ms.
                                <td>{ loaded.index.get(i).map_or(0, |ix| ix.depths()) }</td>
                            </tr>
                        }) }
                        </tbody>
                    </table>
                </div>
            }) }

            if !trace.metadata.is_empty() {
                <h3>{ "Recording" }</h3>
                <dl class="facts metadata">
                    { for trace.metadata.iter().map(|(k, v)| html! { <><dt>{ k }</dt><dd>{ v }</dd></> }) }
                </dl>
            }
        </section>
    }
}

fn severity_label(s: Severity) -> &'static str {
    match s {
        Severity::Info => "info",
        Severity::DataLoss => "data loss",
        Severity::Error => "error",
    }
}

/// How the decoded model reached the page: shared with the workers in the
/// shared-memory build (`wire::handover`), else copied from them.
fn model_label() -> &'static str {
    if crate::wire::handover::SHARED_MEMORY {
        "shared with the workers"
    } else {
        "copied from the workers"
    }
}
