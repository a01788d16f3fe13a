//! The diff view: the trace on screen (base) against the comparison trace
//! (new). A differential flame graph — the call paths of both merged, widths
//! by the new trace's total (or the base's), each node coloured by its change
//! in self time (red grew, blue shrank) — above the table of the functions
//! whose self time changed most. Hovering a node gives base, new and delta
//! of total, self and calls; picking a function in the table (or a node in
//! the graph) outlines it everywhere in the graph. The search dims what does
//! not match, as in the other aggregated views.
//!
//! Both traces are aggregated over the source picked in the toolbar (the
//! comparison trace uses its counterpart, [`counterpart`]); the time range
//! is not applied, since the two traces have different clocks. The merged
//! data is built once per (pair of traces, source) and kept.

use super::difftable::DiffTable;
use super::flamegraph::{DiffLook, FlameGraph};
use crate::browser::prefers_dark;
use crate::state::Loaded;
use crate::views::diff::{counterpart, diff_fill};
use crate::views::SourceKey;
use flamedrop_core::analysis::diff::{DiffTree, Side, Weights};
use flamedrop_core::analysis::diff_table::compare_sources;
use flamedrop_core::analysis::search::Matcher;
use flamedrop_core::analysis::{CallTree, Comparison};
use flamedrop_core::model::{StrId, StringTable};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// A comparison ready to draw.
pub struct DiffData {
    pub comparison: Rc<Comparison>,
    pub tree: DiffTree,
    pub strings: Rc<StringTable>,
    /// Each side as a call tree with the diff's node indices.
    pub base: Rc<CallTree>,
    pub new: Rc<CallTree>,
    /// Fills per node, light and dark theme.
    pub fills: [Rc<Vec<String>>; 2],
}

type Key = (usize, usize, SourceKey);
/// A comparison, or why the traces cannot be compared.
type Outcome = Rc<Result<DiffData, String>>;

thread_local! {
    static CACHE: RefCell<Option<(Key, Outcome)>> = const { RefCell::new(None) };
}

/// The comparison of `base` and `new` over `key` (of `base`), cached.
pub fn diff_data(base: &Loaded, new: &Loaded, key: SourceKey) -> Outcome {
    let id: Key = (base as *const _ as usize, new as *const _ as usize, key);
    if let Some(hit) =
        CACHE.with_borrow(|c| c.as_ref().filter(|(k, _)| *k == id).map(|(_, d)| d.clone()))
    {
        return hit;
    }
    let new_key = counterpart(key, &base.trace, &new.trace);
    let data = compare_sources(
        &base.trace,
        &key.source(&base.trace),
        &new.trace,
        &new_key.source(&new.trace),
    )
    .map(|(comparison, tree)| {
        let fills = |dark: bool| {
            Rc::new(
                tree.nodes
                    .iter()
                    .map(|n| diff_fill(n.base.self_time, n.new.self_time, dark))
                    .collect::<Vec<_>>(),
            )
        };
        DiffData {
            strings: Rc::new(tree.strings.clone()),
            base: Rc::new(tree.call_tree(Side::Base)),
            new: Rc::new(tree.call_tree(Side::New)),
            fills: [fills(false), fills(true)],
            comparison: Rc::new(comparison),
            tree,
        }
    });
    let data = Rc::new(data);
    CACHE.with_borrow_mut(|c| *c = Some((id, data.clone())));
    data
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub compare: Rc<Loaded>,
    pub source: SourceKey,
    pub search: String,
    pub format: Callback<i64, String>,
    #[prop_or_default]
    pub generation: u32,
}

#[function_component(DiffView)]
pub fn diff_view(props: &Props) -> Html {
    let side = use_state(|| Side::New);
    let picked = use_state(|| None::<String>);
    let data = diff_data(&props.loaded, &props.compare, props.source);
    let data = match data.as_ref() {
        Ok(d) => d,
        Err(message) => {
            return html! { <p class="note diff-error" id="diff-error" role="alert">{ message.clone() }</p> };
        }
    };
    let marks = Matcher::parse(&props.search)
        .ok()
        .flatten()
        .map(|m| Rc::new(m.mark(&data.strings)));
    let outlined: Option<StrId> = picked.as_deref().and_then(|name| {
        data.strings
            .all()
            .iter()
            .position(|s| s == name)
            .map(|i| i as StrId)
    });
    let tip = {
        let format = props.format.clone();
        let nodes: Rc<Vec<(Weights, Weights)>> =
            Rc::new(data.tree.nodes.iter().map(|n| (n.base, n.new)).collect());
        Callback::from(move |node: u32| match nodes.get(node as usize) {
            Some((base, new)) => facts(base, new, &format),
            None => html! {},
        })
    };
    let look = DiffLook {
        strings: data.strings.clone(),
        fills: data.fills[usize::from(prefers_dark())].clone(),
        outlined,
        tip,
    };
    let tree = match *side {
        Side::New => data.new.clone(),
        Side::Base => data.base.clone(),
    };
    let on_pick = {
        let (picked, strings) = (picked.clone(), data.strings.clone());
        Callback::from(move |id: StrId| picked.set(Some(strings.get(id).to_owned())))
    };
    let on_row = {
        let picked = picked.clone();
        Callback::from(move |name: Option<String>| picked.set(name))
    };
    let width_button = |s: Side, id: &'static str, label: &'static str| {
        let side = side.clone();
        let pressed = *side == s;
        let onclick = Callback::from(move |_: MouseEvent| side.set(s));
        html! { <button type="button" {id} class={classes!("seg", pressed.then_some("selected"))}
        aria-pressed={pressed.to_string()} {onclick}>{ label }</button> }
    };
    let root = &data.tree.nodes[0];
    let summary = format!(
        "{} → {} ({})",
        props.format.emit(root.base.total),
        props.format.emit(root.new.total),
        signed(root.new.total - root.base.total, &props.format)
    );
    html! {
        <div class="diff-view" id="diff-view" data-side={if *side == Side::Base { "base" } else { "new" }}>
            <div class="diff-bar">
                <span class="segmented" role="group" aria-label="Widths by">
                    <span class="seg-label">{ "Widths:" }</span>
                    { width_button(Side::New, "diff-width-new", "New") }
                    { width_button(Side::Base, "diff-width-base", "Base") }
                </span>
                <span class="diff-legend" aria-hidden="true">
                    <span class="swatch shrank" />{ "self shrank" }
                    <span class="swatch same" />{ "same" }
                    <span class="swatch grew" />{ "self grew" }
                </span>
                <span class="diff-summary" id="diff-summary">{ format!("Total {summary}") }</span>
            </div>
            <div class="diff-graph">
                <FlameGraph loaded={props.loaded.clone()} {tree} id="diff-flamegraph"
                    label="Differential flame graph: both traces' call paths merged, coloured by the change in self time (red grew, blue shrank); click to zoom"
                    marks={marks.clone()} format={props.format.clone()} {on_pick} generation={props.generation}
                    look={Some(look)} />
            </div>
            <DiffTable comparison={data.comparison.clone()} format={props.format.clone()}
                picked={(*picked).clone()} {on_row} {marks} strings={data.strings.clone()} />
        </div>
    }
}

/// A change with its sign.
pub fn signed(v: i64, format: &Callback<i64, String>) -> String {
    match v.signum() {
        1 => format!("+{}", format.emit(v)),
        -1 => format!("−{}", format.emit(-v)),
        _ => format.emit(0),
    }
}

/// The tooltip's base / new / delta grid.
fn facts(base: &Weights, new: &Weights, format: &Callback<i64, String>) -> Html {
    let calls = new.calls as i64 - base.calls as i64;
    let row = |what: &'static str, b: String, n: String, d: String| {
        html! { <tr><th scope="row">{ what }</th><td>{ b }</td><td>{ n }</td><td>{ d }</td></tr> }
    };
    html! {
        <table class="diff-facts">
            <thead><tr><th></th><th>{ "base" }</th><th>{ "new" }</th><th>{ "Δ" }</th></tr></thead>
            <tbody>
                { row("total", format.emit(base.total), format.emit(new.total), signed(new.total - base.total, format)) }
                { row("self", format.emit(base.self_time), format.emit(new.self_time), signed(new.self_time - base.self_time, format)) }
                { row("calls", base.calls.to_string(), new.calls.to_string(), format!("{calls:+}")) }
            </tbody>
        </table>
    }
}
