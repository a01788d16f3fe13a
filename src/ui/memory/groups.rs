//! The Memory view's figures (peak, end, what the filter kept, what the
//! range allocated, lifetimes) and the table of the blocks live at the
//! listed moment, grouped by backtrace as `sp-rtrace-postproc -l` groups
//! leaks (bytes, blocks, the innermost frames), with the buttons that list
//! the peak or the end and open their flame graph.

use crate::view_model::memory::filter_key::FilterKey;
use crate::view_model::memory::shapes::{count_label, size_label};
use crate::view_model::memory::sources::LiveWhen;
use crate::view_model::memory::MemoryState;
use crate::view_model::text;
use crate::view_model::{Loaded, SourceKey, View, ViewChange};
use flamedrop_core::analysis::memory::{MemorySummary, Moment, Weighting};
use flamedrop_core::model::Trace;
use std::rc::Rc;
use yew::prelude::*;

/// Rows the table shows at most.
const MAX_ROWS: usize = 200;
/// Frames named per row (innermost first).
const FRAMES: usize = 4;

/// One figure: a label, a value and a detail line.
fn figure(id: &'static str, label: &str, value: String, detail: String) -> Html {
    html! {
        <div class="memory-figure" {id}>
            <span class="memory-figure-label">{ label.to_owned() }</span>
            <span class="memory-figure-value">{ value }</span>
            <span class="memory-figure-detail">{ detail }</span>
        </div>
    }
}

/// The figures row.
pub fn figures(loaded: &Loaded, s: &MemorySummary, range: Option<(i64, i64)>) -> Html {
    let unit = loaded.unit();
    let at = |t: i64| format!("at {}", text::duration(t - loaded.origin, unit));
    let (peak, end) = (s.series.peak, s.series.end);
    let in_range: u64 = s.sizes.iter().map(|b| b.freed_count + b.live_count).sum();
    let in_range_bytes: u64 = s.sizes.iter().map(|b| b.freed_bytes + b.live_bytes).sum();
    let (mean, median) = match (s.lifetimes.mean, s.lifetimes.median) {
        (Some(mean), Some(median)) => (
            text::duration(mean.round() as i64, unit),
            format!("median {}, ", text::duration(median, unit)),
        ),
        _ => ("none freed".to_owned(), String::new()),
    };
    let blocks = |n: u64| {
        format!(
            "{} {}",
            count_label(n),
            if n == 1 { "block" } else { "blocks" }
        )
    };
    html! {
        <div class="memory-figures" id="memory-figures"
            data-peak-bytes={peak.bytes.to_string()} data-peak-blocks={peak.blocks.to_string()}
            data-end-bytes={end.bytes.to_string()} data-end-blocks={end.blocks.to_string()}>
            { figure("memory-peak", "Peak", size_label(peak.bytes as f64, &s.unit), format!("{} {}", blocks(peak.blocks), at(peak.time))) }
            { figure("memory-end", if range.is_some() { "Live at range end" } else { "Live at end" },
                size_label(end.bytes as f64, &s.unit), format!("{} {}", blocks(end.blocks), at(end.time))) }
            { figure("memory-allocated", if range.is_some() { "Allocated in range" } else { "Allocated" },
                size_label(in_range_bytes as f64, &s.unit), format!("{}, {} freed", blocks(in_range), count_label(s.lifetimes.freed))) }
            { figure("memory-selected", "Filter keeps", count_label(s.selected), format!("of {} {}", count_label(s.total), s.resource)) }
            { figure("memory-lifetime", "Mean lifetime", mean, format!("{median}{} still live", count_label(s.lifetimes.live))) }
        </div>
    }
}

/// The source key of the listed moment's blocks, with the view's filter.
pub(super) fn moment_source(trace: &Trace, memory: &MemoryState) -> SourceKey {
    SourceKey::Memory {
        resource: memory.resource,
        when: match memory.moment {
            Moment::Peak => LiveWhen::Peak,
            Moment::End => LiveWhen::End,
            Moment::At(t) => LiveWhen::At(t),
        },
        weighting: Weighting::Bytes,
        filter: FilterKey::of(trace, &memory.filter),
    }
}

/// A button that lists `moment`.
fn moment_button(
    trace: &Trace,
    memory: &MemoryState,
    on_change: &Callback<ViewChange>,
    moment: Moment,
    id: &'static str,
    label: &'static str,
) -> Html {
    let pressed = memory.moment == moment;
    let mut next = memory.clone();
    next.moment = moment;
    let source = moment_source(trace, &next);
    let onclick = {
        let on_change = on_change.clone();
        Callback::from(move |_: MouseEvent| {
            on_change.emit(ViewChange::Source(source));
            on_change.emit(ViewChange::Memory(next.clone()));
        })
    };
    html! { <button type="button" {id} class={classes!("seg", pressed.then_some("selected"))}
    aria-pressed={pressed.to_string()} {onclick}>{ label }</button> }
}

/// The table of live blocks at the listed moment, by backtrace.
pub fn table(
    loaded: &Rc<Loaded>,
    s: &MemorySummary,
    memory: &MemoryState,
    on_change: &Callback<ViewChange>,
) -> Html {
    let trace = &loaded.trace;
    let when = match memory.moment {
        Moment::Peak => "at the peak".to_owned(),
        Moment::End => "at the end".to_owned(),
        Moment::At(_) => "at the chosen time".to_owned(),
    };
    let bytes: u64 = s.live_groups.iter().map(|g| g.bytes).sum();
    let blocks: u64 = s.live_groups.iter().map(|g| g.blocks).sum();
    let flame = {
        let (on_change, source) = (on_change.clone(), moment_source(trace, memory));
        Callback::from(move |_: MouseEvent| {
            on_change.emit(ViewChange::Source(source));
            on_change.emit(ViewChange::View(View::FlameGraph));
        })
    };
    let rows = s.live_groups.iter().take(MAX_ROWS).map(|g| {
        let frames = trace.stacks.frames(g.stack);
        let names: Vec<&str> = frames.iter().rev().map(|&f| trace.str(f)).collect();
        let shown = names
            .iter()
            .take(FRAMES)
            .copied()
            .collect::<Vec<_>>()
            .join(" ← ");
        let more = if names.len() > FRAMES { " ← …" } else { "" };
        html! {
            <tr title={names.join("\n")}>
                <td class="num">{ size_label(g.bytes as f64, &s.unit) }</td>
                <td class="num">{ count_label(g.blocks) }</td>
                <td class="frames">{ format!("{shown}{more}") }</td>
            </tr>
        }
    });
    html! {
        <div class="memory-groups" id="memory-groups" data-at={s.at.to_string()}
            data-bytes={bytes.to_string()} data-blocks={blocks.to_string()}>
            <div class="memory-groups-head">
                <strong>{ format!("Live {when} ({})", text::duration(s.at - loaded.origin, loaded.unit())) }</strong>
                <span class="muted">{ format!("{} in {} blocks, {} backtraces", size_label(bytes as f64, &s.unit), count_label(blocks), s.live_groups.len()) }</span>
                <span class="segmented" role="group" aria-label="Moment">
                    { moment_button(trace, memory, on_change, Moment::Peak, "memory-at-peak", "Peak") }
                    { moment_button(trace, memory, on_change, Moment::End, "memory-at-end", "End") }
                </span>
                <button type="button" id="memory-flamegraph" class="button" onclick={flame}>{ "Flame graph" }</button>
            </div>
            <div class="memory-table-scroll">
                <table class="memory-table">
                    <thead><tr><th class="num">{ "Bytes" }</th><th class="num">{ "Blocks" }</th><th>{ "Backtrace (allocating function first)" }</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
                if s.live_groups.len() > MAX_ROWS {
                    <p class="note">{ format!("{} more backtraces not shown", s.live_groups.len() - MAX_ROWS) }</p>
                }
            </div>
        </div>
    }
}
