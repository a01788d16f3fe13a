//! The diff view: the trace on screen (base) against the comparison trace
//! (new). A differential flame graph — the call paths of both merged, widths
//! by the new trace's total (or the base's), each node coloured by its change
//! in self time (red grew, blue shrank) — above the table of the functions
//! whose self time changed most. Hovering a node gives base, new and delta
//! of total, self and calls; picking a function in the table (or a node in
//! the graph) outlines it everywhere in the graph. The search dims what does
//! not match, as in the other aggregated views.
//!
//! The merged data comes from the comparison (`view_model::compared`), which
//! builds it once per source and keeps it. Which trace gives the widths is
//! the page's (`ViewState::diff_side`), as is the graph's zoom. A
//! right-click or long press on a node opens its transforms menu, whose
//! steps narrow the trace on screen.

use super::difftable::DiffTable;
use super::flamegraph::{DiffLook, FlameGraph};
use super::zoom_of;
use crate::render::colors::Colouring;
use crate::ui::context_menu::OpenMenu;
use crate::view_model::compared::DiffData;
use crate::view_model::node_menu::{MenuNode, Recursion, TreeKind};
use crate::view_model::text::signed;
use crate::view_model::{Compared, Loaded};
use crate::view_model::{ViewChange, ViewState};
use flamedrop_core::analysis::diff::{Side, Weights};
use flamedrop_core::analysis::search::Matcher;
use flamedrop_core::model::StrId;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub compare: Rc<Compared>,
    pub state: ViewState,
    pub on_change: Callback<ViewChange>,
    pub format: Callback<i64, String>,
    pub colouring: Colouring,
    /// A right-click or long press asks for the transforms menu.
    #[prop_or_default]
    pub on_menu: Callback<OpenMenu>,
}

#[function_component(DiffView)]
pub fn diff_view(props: &Props) -> Html {
    let picked = use_state(|| None::<String>);
    let data = props.compare.diff(props.state.source);
    let data = match data.as_ref() {
        Ok(d) => d,
        Err(message) => {
            return html! { <p class="note diff-error" id="diff-error" role="alert">{ message.clone() }</p> };
        }
    };
    let marks = Matcher::parse(&props.state.search)
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
    let look = look(data, props, outlined);
    let side = props.state.diff_side;
    let tree = data.side(side).clone();
    let (zoom, on_zoom) = zoom_of(&props.state, &props.on_change, "diff-flamegraph");
    let on_pick = {
        let (picked, strings) = (picked.clone(), data.strings.clone());
        Callback::from(move |id: StrId| picked.set(Some(strings.get(id).to_owned())))
    };
    let node_menu = {
        let (loaded, tree, strings) = (props.loaded.clone(), tree.clone(), data.strings.clone());
        Callback::from(move |node: u32| {
            MenuNode::of_tree(
                &loaded.trace,
                &tree,
                &strings,
                node,
                TreeKind::TopDown,
                |n| Recursion::in_tree_named(&tree, &strings, n),
            )
        })
    };
    let on_row = {
        let picked = picked.clone();
        Callback::from(move |name: Option<String>| picked.set(name))
    };
    html! {
        <div class="diff-view" id="diff-view">
            { bar(props, data) }
            <div class="diff-graph">
                <FlameGraph loaded={props.loaded.clone()} {tree} id="diff-flamegraph"
                    label="Differential flame graph: both traces' call paths merged, coloured by the change in self time (red grew, blue shrank); click to zoom"
                    marks={marks.clone()} format={props.format.clone()} {on_pick} colouring={props.colouring}
                    {zoom} {on_zoom} look={Some(look)} node_menu={Some(node_menu)} on_menu={props.on_menu.clone()} />
            </div>
            <DiffTable comparison={data.comparison.clone()} format={props.format.clone()}
                picked={(*picked).clone()} {on_row} {marks} strings={data.strings.clone()} />
        </div>
    }
}

/// How the diff's flame graph differs from the others: its names, fills by
/// the theme, the picked function's outline and the tooltip's facts.
fn look(data: &DiffData, props: &Props, outlined: Option<StrId>) -> DiffLook {
    let format = props.format.clone();
    let nodes: Rc<Vec<(Weights, Weights)>> =
        Rc::new(data.tree.nodes.iter().map(|n| (n.base, n.new)).collect());
    let tip = Callback::from(move |node: u32| match nodes.get(node as usize) {
        Some((base, new)) => facts(base, new, &format),
        None => html! {},
    });
    DiffLook {
        strings: data.strings.clone(),
        fills: data.fills[usize::from(props.colouring.dark)].clone(),
        outlined,
        tip,
    }
}

/// The bar above the graph: which trace gives the widths, the legend and
/// the totals.
fn bar(props: &Props, data: &DiffData) -> Html {
    let side = props.state.diff_side;
    let width_button = |s: Side, id: &'static str, label: &'static str| {
        let pressed = side == s;
        let onclick = props
            .on_change
            .reform(move |_: MouseEvent| ViewChange::DiffSide(s));
        html! { <button type="button" {id} class={classes!("seg", pressed.then_some("selected"))}
        aria-pressed={pressed.to_string()} {onclick}>{ label }</button> }
    };
    let summary = data.tree.nodes.first().map(|root| {
        format!(
            "{} → {} ({})",
            props.format.emit(root.base.total),
            props.format.emit(root.new.total),
            signed(root.new.total - root.base.total, |v| props.format.emit(v))
        )
    });
    html! {
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
            <span class="diff-summary" id="diff-summary">{ format!("Total {}", summary.unwrap_or_default()) }</span>
        </div>
    }
}

/// The tooltip's base / new / delta grid.
fn facts(base: &Weights, new: &Weights, format: &Callback<i64, String>) -> Html {
    let calls = new.calls as i64 - base.calls as i64;
    let signed = |v: i64| signed(v, |v| format.emit(v));
    let row = |what: &'static str, b: String, n: String, d: String| {
        html! { <tr><th scope="row">{ what }</th><td>{ b }</td><td>{ n }</td><td>{ d }</td></tr> }
    };
    html! {
        <table class="diff-facts">
            <thead><tr><th></th><th>{ "base" }</th><th>{ "new" }</th><th>{ "Δ" }</th></tr></thead>
            <tbody>
                { row("total", format.emit(base.total), format.emit(new.total), signed(new.total - base.total)) }
                { row("self", format.emit(base.self_time), format.emit(new.self_time), signed(new.self_time - base.self_time)) }
                { row("calls", base.calls.to_string(), new.calls.to_string(), format!("{calls:+}")) }
            </tbody>
        </table>
    }
}
