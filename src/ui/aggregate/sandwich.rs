//! The sandwich view: a list of every function (self, total) to pick from,
//! and for the picked one its callers (drawn upside down, the function at
//! the bottom) above its callees, each merged over all its occurrences with
//! recursion counted once. Lists of the direct callers and callees repeat
//! the canvases for keyboard and screen-reader users. A right-click or long
//! press on a function or a node opens its transforms menu (without the
//! items that need a call path: the sandwich merges all of them).

use super::flamegraph::FlameGraph;
use super::{tree_menu, zoom_of};
use crate::render::colors::Colouring;
use crate::ui::context_menu::OpenMenu;
use crate::view_model::node_menu::{MenuNode, Recursion, TreeKind};
use crate::view_model::Loaded;
use crate::view_model::{ViewChange, ViewState};
use flamedrop_core::analysis::{CallTree, Node};
use flamedrop_core::model::StrId;
use std::rc::Rc;
use yew::prelude::*;

/// Functions listed at most.
const MAX_FUNCTIONS: usize = 2000;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub state: ViewState,
    pub marks: Option<Rc<Vec<bool>>>,
    pub format: Callback<i64, String>,
    pub on_pick: Callback<StrId>,
    pub colouring: Colouring,
    /// Where the flame graphs' zoom changes go.
    pub on_change: Callback<ViewChange>,
    /// A right-click or long press asks for the transforms menu.
    #[prop_or_default]
    pub on_menu: Callback<OpenMenu>,
}

#[function_component(SandwichView)]
pub fn sandwich_view(props: &Props) -> Html {
    let loaded = &props.loaded;
    let (source, range) = (props.state.source, props.state.range);
    let functions = loaded.inverted(source, range);
    let picked = props
        .state
        .function
        .as_deref()
        .and_then(|f| loaded.function_id(f))
        .filter(|id| root_of(&functions, *id).is_some())
        .or_else(|| {
            functions
                .root()
                .children
                .first()
                .and_then(|&c| functions.get(c))
                .map(|n| n.name)
        });
    let top_down = loaded.top_down(source, range);
    let list = functions
        .root()
        .children
        .iter()
        .take(MAX_FUNCTIONS)
        .filter_map(|&c| functions.get(c))
        .map(|n| function_row(props, n, picked, &top_down));
    let body = match picked {
        Some(id) => {
            let (callers, callees) = loaded.sandwich(source, range, id);
            let (callers_zoom, on_callers_zoom) =
                zoom_of(&props.state, &props.on_change, "sandwich-callers");
            let (callees_zoom, on_callees_zoom) =
                zoom_of(&props.state, &props.on_change, "sandwich-callees");
            let callers_menu = tree_menu(loaded, &callers, TreeKind::Sandwich, top_down.clone());
            let callees_menu = tree_menu(loaded, &callees, TreeKind::Sandwich, top_down.clone());
            html! {
                <div class="sandwich-panes" data-function={loaded.trace.str(id).to_owned()}>
                    <h3>{ "Callers of " }<code>{ loaded.trace.str(id) }</code></h3>
                    { direct(loaded, &callers, "sandwich-caller-list", &props.format) }
                    <div class="sandwich-graph">
                        <FlameGraph loaded={loaded.clone()} tree={callers} id="sandwich-callers" upside_down=true
                            label="Callers, the function at the bottom" marks={props.marks.clone()}
                            format={props.format.clone()} on_pick={props.on_pick.clone()} colouring={props.colouring}
                            zoom={callers_zoom} on_zoom={on_callers_zoom}
                            node_menu={Some(callers_menu)} on_menu={props.on_menu.clone()} />
                    </div>
                    <h3>{ "Callees of " }<code>{ loaded.trace.str(id) }</code></h3>
                    { direct(loaded, &callees, "sandwich-callee-list", &props.format) }
                    <div class="sandwich-graph">
                        <FlameGraph loaded={loaded.clone()} tree={callees} id="sandwich-callees"
                            label="Callees, the function at the top" marks={props.marks.clone()}
                            format={props.format.clone()} on_pick={props.on_pick.clone()} colouring={props.colouring}
                            zoom={callees_zoom} on_zoom={on_callees_zoom}
                            node_menu={Some(callees_menu)} on_menu={props.on_menu.clone()} />
                    </div>
                </div>
            }
        }
        None => html! { <p class="note">{ "Nothing to show: this source holds no calls." }</p> },
    };
    html! {
        <div class="sandwich" id="sandwich">
            <div class="sandwich-functions">
                <table id="sandwich-functions" class="calltree">
                    <thead><tr><th class="num">{ "Self" }</th><th class="num">{ "Total" }</th><th class="name">{ "Function" }</th></tr></thead>
                    <tbody>{ for list }</tbody>
                </table>
            </div>
            { body }
        </div>
    }
}

/// A row of the function list: its self and total time and its name, which
/// picks it (click) or opens its transforms menu (right-click).
fn function_row(props: &Props, n: &Node, picked: Option<StrId>, top_down: &Rc<CallTree>) -> Html {
    let loaded = &props.loaded;
    let name = loaded.trace.str(n.name).to_owned();
    let id = n.name;
    let onclick = {
        let on_pick = props.on_pick.clone();
        Callback::from(move |_: MouseEvent| on_pick.emit(id))
    };
    let oncontextmenu = {
        let (on_menu, loaded, name) = (props.on_menu.clone(), loaded.clone(), name.clone());
        let top_down = top_down.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            let node = MenuNode::of_function(&loaded.trace, &name, |n| {
                Recursion::in_tree_named(&top_down, &loaded.trace.strings, n)
            });
            on_menu.emit(OpenMenu::at(&e, node));
        })
    };
    let matched = props
        .marks
        .as_ref()
        .map(|m| m.get(id as usize).copied().unwrap_or(false));
    let selected = Some(id) == picked;
    html! {
        <tr data-name={name.clone()} aria-selected={selected.to_string()}
            class={classes!(selected.then_some("focused"), matched.map(|m| if m { "match" } else { "dim" }))}>
            <td class="num">{ props.format.emit(n.self_time) }</td>
            <td class="num">{ props.format.emit(n.total) }</td>
            <td class="name"><button type="button" class="link" {onclick} {oncontextmenu}>{ name }</button></td>
        </tr>
    }
}

fn root_of(tree: &CallTree, id: StrId) -> Option<u32> {
    tree.root()
        .children
        .iter()
        .copied()
        .find(|&c| tree.get(c).is_some_and(|n| n.name == id))
}

/// The direct callers (or callees): the children of the tree's one root node.
fn direct(
    loaded: &Loaded,
    tree: &CallTree,
    id: &'static str,
    format: &Callback<i64, String>,
) -> Html {
    let Some(&function) = tree.root().children.first() else {
        return html! {};
    };
    let items = tree
        .get(function)
        .map(|n| n.children.clone())
        .unwrap_or_default();
    if items.is_empty() {
        return html! { <p {id} class="direct">{ "none" }</p> };
    }
    html! {
        <ul {id} class="direct">
            { for items.iter().filter_map(|&c| tree.get(c)).map(|n| {
                let name = loaded.trace.str(n.name).to_owned();
                html! { <li data-name={name.clone()} data-total={n.total.to_string()} data-calls={n.calls.to_string()}>
                    <code>{ name }</code>{ format!(" — {} in {} calls", format.emit(n.total), n.calls) }</li> }
            }) }
        </ul>
    }
}
