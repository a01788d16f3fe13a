//! The Source view's body: the heading (method, file), the note when no
//! source file was found, and the table of lines with their values; it
//! scrolls to the method when the method or file changes.

use super::Props;
use crate::view_model::source_view::MethodItem;
use crate::view_model::source_view_lines::{Chip, Entry, Layout, Row};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Characters of a value shown in its chip (the whole text in its title).
const VALUE_CHARS: usize = 40;

fn chip(chip: &Chip, on_event: &Callback<Option<u32>>) -> Html {
    let event = chip.event;
    let onclick = {
        let on_event = on_event.clone();
        Callback::from(move |_| on_event.emit(Some(event)))
    };
    let class = classes!(
        "source-value",
        chip.in_call.then_some("in-call"),
        chip.selected.then_some("selected")
    );
    let shown: String = if chip.text.chars().count() > VALUE_CHARS {
        let head: String = chip.text.chars().take(VALUE_CHARS - 1).collect();
        format!("{head}…")
    } else {
        chip.text.clone()
    };
    let where_ = if chip.in_call {
        "this call's"
    } else {
        "the first"
    };
    let title = format!(
        "{}\n{} events; click to select {where_} event",
        chip.text, chip.count
    );
    html! {
        <button {class} {onclick} {title} data-event={event.to_string()}
            data-value={chip.text.clone()} data-count={chip.count.to_string()}>
            { shown }
            if chip.count > 1 {
                <span class="source-count">{ format!("×{}", chip.count) }</span>
            }
        </button>
    }
}

fn entry(entry: &Entry, on_event: &Callback<Option<u32>>) -> Html {
    html! {
        <span class="source-entry" data-data-id={entry.data_id.to_string()} title={entry.kind.clone()}>
            <span class="source-name">
                { &entry.label }
                if !entry.tag.is_empty() {
                    <span class="source-tag">{ &entry.tag }</span>
                }
            </span>
            { for entry.chips.iter().map(|c| chip(c, on_event)) }
            if entry.more > 0 {
                <span class="source-more">{ format!("+{} more", entry.more) }</span>
            }
        </span>
    }
}

fn row(row: &Row, item: &MethodItem, with_code: bool, on_event: &Callback<Option<u32>>) -> Html {
    let class = classes!(
        "source-line",
        row.in_method.then_some("in-method"),
        row.hit.then_some("hit")
    );
    let (class_name, method_name) = item.place.split_once(':').unwrap_or((&item.place, ""));
    html! {
        <tr {class} data-line={row.line.to_string()}>
            if with_code {
                <td class="source-ln">{ row.line }</td>
                <td class="source-code"><pre>{ row.code.clone().unwrap_or_default() }</pre></td>
            } else {
                <td class="source-class">{ class_name }</td>
                <td class="source-method">{ method_name }</td>
                <td class="source-ln">{ row.line }</td>
            }
            <td class="source-values">{ for row.entries.iter().map(|e| entry(e, on_event)) }</td>
        </tr>
    }
}

/// Scrolls the lines' box so line `line` is at its top.
fn scroll_to(line: i32) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let selector = format!("#source-lines tr[data-line=\"{line}\"]");
    let (Ok(Some(target)), Ok(Some(scroller))) = (
        document.query_selector(&selector),
        document.query_selector("#source-scroll"),
    ) else {
        return;
    };
    if let Some(target) = target.dyn_ref::<web_sys::HtmlElement>() {
        scroller.set_scroll_top(target.offset_top());
    }
}

#[derive(Properties, PartialEq)]
struct ScrollProps {
    /// (method, file, line to scroll to): a change scrolls.
    key_of: (u32, Option<String>, i32),
    children: Html,
}

#[function_component(Scroller)]
fn scroller(props: &ScrollProps) -> Html {
    use_effect_with(props.key_of.clone(), |(_, _, line)| scroll_to(*line));
    html! { <div id="source-scroll" class="source-scroll">{ props.children.clone() }</div> }
}

/// The heading, note and lines of method `item`, whose file (when found)
/// is `file`.
pub fn body(props: &Props, item: &MethodItem, file: Option<&str>, rows: Layout) -> Html {
    let with_code = file.is_some();
    let kept = props.loaded.sources.len();
    let note = match (file, kept) {
        (Some(_), _) => None,
        (None, 0) => Some(format!(
            "No sources were opened with this trace: the lines below are {}'s from dataids.txt. \
             Drop the program's .java files (or a sources .jar / .zip) together with the trace \
             to see its source here.",
            item.place
        )),
        (None, n) => Some(format!(
            "None of the {n} source files opened with the trace is {} of {}: the lines below \
             are from dataids.txt.",
            item.source,
            item.class()
        )),
    };
    let head = if with_code {
        html! { <tr><th>{ "line" }</th><th>{ "source" }</th><th>{ "observed values" }</th></tr> }
    } else {
        html! {
            <tr><th>{ "class" }</th><th>{ "method" }</th><th>{ "line" }</th>
                <th>{ "observed values" }</th></tr>
        }
    };
    let key_of = (item.method, file.map(str::to_owned), rows.scroll_to);
    html! {
        <>
            <div class="source-heading">
                <span class="source-place">{ &item.place }</span>
                <span class="source-file" id="source-file">
                    { file.map_or_else(|| format!("{} (not opened)", item.source), str::to_owned) }
                </span>
            </div>
            if let Some(note) = note {
                <p class="source-view-note" id="source-note">{ note }</p>
            }
            <Scroller {key_of}>
                <table id="source-lines" class={classes!("source-lines", (!with_code).then_some("no-code"))}>
                    <thead>{ head }</thead>
                    <tbody>
                        { for rows.rows.iter().map(|r| row(r, item, with_code, &props.on_event)) }
                    </tbody>
                </table>
            </Scroller>
        </>
    }
}
