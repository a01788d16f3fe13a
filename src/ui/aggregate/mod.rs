//! The aggregated views: a toolbar (which data — spans of one thread or all
//! merged, a sample set, an allocation resource by bytes or count, all or
//! leaks — the time range they are limited to, and top-down / bottom-up for
//! the table), then the flame graph, the sandwich, the call-tree table or,
//! while a comparison trace is open, the diff view.
//! Trees come from `view_model::trees`, built on first use per (source,
//! range) and kept with the trace. A right-click or long press on a node of
//! any of them opens its transforms menu ([`ContextMenu`], one for all the
//! views, kept here).

pub mod calltable;
pub mod diff;
pub mod difftable;
pub mod flamegraph;
pub mod sandwich;

use crate::render::colors::Colouring;
use crate::ui::context_menu::{ContextMenu, OpenMenu};
use crate::view_model::node_menu::{MenuNode, Recursion, TreeKind};
use crate::view_model::read_events;
use crate::view_model::text;
use crate::view_model::{Compared, Loaded};
use crate::view_model::{SourceKey, View, ViewChange, ViewState};
use calltable::CallTable;
use flamedrop_core::analysis::transform::Step;
use flamedrop_core::analysis::CallTree;
use flamedrop_core::model::StrId;
use flamegraph::FlameGraph;
use sandwich::SandwichView;
use std::rc::Rc;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub state: ViewState,
    pub marks: Option<Rc<Vec<bool>>>,
    pub on_change: Callback<ViewChange>,
    /// A search jump in the table: (node, bump).
    #[prop_or_default]
    pub reveal: Option<(u32, u32)>,
    /// The page's theme and how calls are coloured.
    pub colouring: Colouring,
    /// The comparison, for the diff view.
    #[prop_or_default]
    pub compare: Option<Rc<Compared>>,
    /// A transform chosen in a node's menu or with its key.
    #[prop_or_default]
    pub on_step: Callback<Step>,
}

/// Builds the transforms menu's node for a node of `tree` (of the trace on
/// screen), read as `kind`; recursion is looked up in `top_down`.
pub fn tree_menu(
    loaded: &Rc<Loaded>,
    tree: &Rc<CallTree>,
    kind: TreeKind,
    top_down: Rc<CallTree>,
) -> Callback<u32, Option<MenuNode>> {
    let (loaded, tree) = (loaded.clone(), tree.clone());
    Callback::from(move |node: u32| {
        let strings = &loaded.trace.strings;
        MenuNode::of_tree(&loaded.trace, &tree, strings, node, kind, |name| {
            Recursion::in_tree_named(&top_down, strings, name)
        })
    })
}

/// The zoom of the flame graph on canvas `id` and where its changes go.
pub fn zoom_of(
    state: &ViewState,
    on_change: &Callback<ViewChange>,
    id: &'static str,
) -> (u32, Callback<u32>) {
    let zoom = on_change.reform(move |node| ViewChange::Zoom(id.to_owned(), node));
    (state.zoom_of(id), zoom)
}

/// How weights of `source` print.
pub fn weight_format(loaded: &Loaded, source: SourceKey) -> Callback<i64, String> {
    Callback::from(text::weight(source.unit(&loaded.trace), source.is_time()))
}

#[function_component(Aggregate)]
pub fn aggregate(props: &Props) -> Html {
    let loaded = &props.loaded;
    let state = &props.state;
    let format = weight_format(loaded, state.source);
    let on_pick = {
        let (on_change, loaded) = (props.on_change.clone(), loaded.clone());
        Callback::from(move |id: StrId| {
            on_change.emit(ViewChange::Function(Some(loaded.trace.str(id).to_owned())))
        })
    };
    let menu = use_state(|| None::<Rc<OpenMenu>>);
    let on_menu = {
        let menu = menu.clone();
        Callback::from(move |m: OpenMenu| menu.set(Some(Rc::new(m))))
    };
    let top_down = || loaded.top_down(state.source, state.range);
    let body = match state.view {
        View::FlameGraph | View::CallTree
            if loaded
                .top_down(state.source, state.range)
                .root()
                .children
                .is_empty() =>
        {
            empty_note(state)
        }
        View::FlameGraph => {
            let tree = top_down();
            let (zoom, on_zoom) = zoom_of(state, &props.on_change, "flamegraph");
            let node_menu = tree_menu(loaded, &tree, TreeKind::TopDown, tree.clone());
            html! {
                <FlameGraph loaded={loaded.clone()} {tree} id="flamegraph"
                    label="Flame graph: calls merged by path, widest first; click to zoom"
                    marks={props.marks.clone()} {format} {on_pick} colouring={props.colouring} {zoom} {on_zoom}
                    node_menu={Some(node_menu)} on_menu={on_menu.clone()} />
            }
        }
        View::Sandwich => html! {
            <SandwichView loaded={loaded.clone()} state={state.clone()} marks={props.marks.clone()}
                {format} {on_pick} colouring={props.colouring} on_change={props.on_change.clone()}
                on_menu={on_menu.clone()} />
        },
        View::CallTree => {
            let tree = loaded.tree(state.source, state.range, state.inverted);
            let kind = if state.inverted {
                TreeKind::Inverted
            } else {
                TreeKind::TopDown
            };
            let node_menu = tree_menu(loaded, &tree, kind, top_down());
            let deltas = read_events::tree_deltas(loaded, state, &tree);
            html! {
                <CallTable loaded={loaded.clone()} {tree} inverted={state.inverted} marks={props.marks.clone()}
                    {format} {on_pick} reveal={props.reveal} {node_menu} on_menu={on_menu.clone()}
                    on_step={props.on_step.clone()} {deltas} />
            }
        }
        View::Diff => diff_body(props, format, on_menu.clone()),
        // The other views have bodies of their own (`app/layout.rs`).
        _ => html! {},
    };
    html! {
        <section class="aggregate" data-view={state.view.name()} data-source={state.source.name()}>
            { toolbar(props) }
            <div class="aggregate-body">{ body }</div>
            if let Some(open) = (*menu).clone() {
                <ContextMenu menu={open} on_step={props.on_step.clone()}
                    on_close={Callback::from(move |()| menu.set(None))} />
            }
        </section>
    }
}

/// The diff view, or what to do to get one.
fn diff_body(props: &Props, format: Callback<i64, String>, on_menu: Callback<OpenMenu>) -> Html {
    match &props.compare {
        Some(compare) => html! {
            <diff::DiffView loaded={props.loaded.clone()} compare={compare.clone()} state={props.state.clone()}
                on_change={props.on_change.clone()} {format} colouring={props.colouring} {on_menu} />
        },
        None => {
            html! { <p class="note empty-view" id="empty-view" role="status">{ "Open a trace to compare with (Compare… in the header)." }</p> }
        }
    }
}

/// What an empty flame graph or call tree says instead: why it is empty.
fn empty_note(state: &ViewState) -> Html {
    let what = match state.source {
        SourceKey::AllThreads | SourceKey::Thread(_) => {
            "no calls to merge here (pick a sample set or an allocation resource under Data, if the trace has one)"
        }
        SourceKey::Samples { .. } | SourceKey::MergedSamples { .. } => {
            "this sample set holds no samples"
        }
        SourceKey::Allocations {
            only_live: true, ..
        } => "nothing of this resource was still allocated when the trace ended (no leaks)",
        SourceKey::Allocations { .. } => "this resource saw no allocations",
        SourceKey::Memory { .. } => "no block of this resource was live then (or allocated in range)",
    };
    let range = if state.range.is_some() {
        " in the selected time range"
    } else {
        ""
    };
    html! { <p class="note empty-view" id="empty-view" role="status">{ format!("Nothing to show: {what}{range}.") }</p> }
}

/// The chosen sample set's note (why it looks the way it does), if any.
fn source_note(loaded: &Loaded, source: SourceKey) -> Option<Html> {
    let (SourceKey::Samples { set, .. } | SourceKey::MergedSamples { set, .. }) = source else {
        return None;
    };
    let note = &loaded.trace.sample_sets.get(set as usize)?.note;
    (!note.is_empty()).then(|| {
        html! { <span class="source-note" id="source-note" title={note.clone()}>{ note.clone() }</span> }
    })
}

fn toolbar(props: &Props) -> Html {
    let loaded = &props.loaded;
    let state = &props.state;
    let offered = SourceKey::offered(&loaded.trace, |t| loaded.thread_title(t));
    let on_source = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Some(key) = SourceKey::parse(&select.value()) {
                on_change.emit(ViewChange::Source(key));
            }
        })
    };
    let range = state.range.filter(|_| state.view != View::Diff).map(|(a, b)| {
        let unit = loaded.unit();
        let clear = props.on_change.reform(|_: MouseEvent| ViewChange::Range(None));
        html! {
            <span class="range-chip" id="range">
                { format!("range {} – {}", text::duration(a - loaded.origin, unit), text::duration(b - loaded.origin, unit)) }
                <button type="button" id="range-clear" class="link" onclick={clear}>{ "clear" }</button>
            </span>
        }
    });
    let direction = (state.view == View::CallTree).then(|| {
        let button = |inverted: bool, id: &'static str, label: &'static str| {
            let onclick = props.on_change.reform(move |_: MouseEvent| ViewChange::Inverted(inverted));
            let pressed = state.inverted == inverted;
            html! { <button type="button" {id} class={classes!("seg", pressed.then_some("selected"))}
                aria-pressed={pressed.to_string()} {onclick}>{ label }</button> }
        };
        html! {
            <span class="segmented" role="group" aria-label="Tree direction">
                { button(false, "calltree-topdown", "Top-down") }
                { button(true, "calltree-bottomup", "Bottom-up") }
            </span>
        }
    });
    html! {
        <div class="toolbar">
            <label for="source">{ "Data" }</label>
            <select id="source" onchange={on_source}>
                { for offered.iter().map(|(key, label)| html! {
                    <option value={key.name()} selected={*key == state.source}>{ label }</option>
                }) }
            </select>
            { for source_note(loaded, state.source) }
            { for direction }
            { for range }
        </div>
    }
}
