//! The page-wide keys (`?`, `/`, `n`/`N`, `1`–`6`, Esc, the SELogger steps
//! `, . i o u O U b`) and where `n`/`N`
//! jump: to the next matching call in the timeline, the next matching node
//! of the flame graph or call tree, the next matching function of the
//! sandwich, the next row of the listing whose text matches. Keys typed
//! into a text field are left alone.
//!
//! Firefox Profiler's transform keys (`m`, `M`, `f`, `F`, `S`, `c`, `C`,
//! `r`, `R`, `d`) act on the selected node ([`menu_key`]): the selected span
//! in the timeline, the node the flame graph (or the diff's) is zoomed into
//! (the one last clicked), the sandwich's function. The call tree's rows
//! take them themselves (they know the focused row). In the timeline, W A S
//! D keep moving the view (Perfetto's keys, either case), so `S` and `d`
//! are not transforms there: use the span's right-click menu.

use super::page::PageState;
use super::{App, Msg};
use crate::timeline::SpanRef;
use crate::view_model::node_menu::{
    is_menu_key, is_transform_key, step_for_key, MenuNode, Recursion, TreeKind,
};
use crate::view_model::values::StepKind;
use crate::view_model::Loaded;
use crate::view_model::{Available, View, ViewChange, ViewState, VIEWS};
use flamedrop_core::analysis::transform::Step;
use flamedrop_core::analysis::CallTree;
use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::html::Scope;
use yew::Callback;

/// Listens for keydown on the document; `/` focuses the search box itself.
pub fn listen(on_key: Callback<String>) -> Option<EventListener> {
    let document = web_sys::window()?.document()?;
    let options = EventListenerOptions::enable_prevent_default();
    Some(EventListener::new_with_options(
        &document,
        "keydown",
        options,
        move |e| {
            let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                return;
            };
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let typing = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|t| matches!(t.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
            let key = e.key();
            if typing {
                if key == "Escape" {
                    on_key.emit(key);
                }
                return;
            }
            if key == "/" {
                let search = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.get_element_by_id("search"))
                    .and_then(|s| s.dyn_into::<HtmlElement>().ok());
                if let Some(search) = search {
                    e.prevent_default();
                    let _ = search.focus();
                }
                return;
            }
            if matches!(key.as_str(), "?" | "n" | "N" | "Escape")
                || is_menu_key(&key)
                || StepKind::from_key(&key).is_some()
                || VIEWS.iter().any(|v| v.key == key)
            {
                on_key.emit(key);
            }
        },
    ))
}

/// Handles a page-wide key; true to re-render.
pub fn on_key(page: &mut PageState, link: &Scope<App>, key: &str) -> bool {
    let Some(loaded) = page.trace.clone() else {
        return false;
    };
    match key {
        "?" => page.help = !page.help,
        "Escape" if page.help => page.help = false,
        "n" | "N" if page.views.view == View::Listing => {
            page.listing.jump(key == "n");
        }
        "n" | "N" => {
            let Some(marks) = page.marks.clone() else {
                return false;
            };
            let (selected, reveal) = (page.selected, page.reveal);
            match jump(&loaded, &page.views, &marks, selected, reveal, key == "n") {
                Jump::Span(span) => {
                    link.send_message(Msg::Select(Some(span)));
                    link.send_message(Msg::Zoom(span));
                }
                Jump::Node(node) => {
                    let bump = page.reveal.map_or(0, |(_, b)| b + 1);
                    page.reveal = Some((node, bump));
                    if let Some(canvas) = page.views.view.canvas_id() {
                        page.views.apply(ViewChange::Zoom(canvas.to_owned(), node));
                    }
                }
                Jump::Function(name) => {
                    link.send_message(Msg::Views(ViewChange::Function(Some(name))));
                }
                Jump::None => return false,
            }
        }
        k if StepKind::from_key(k).is_some() => {
            // Omniscient stepping (SELogger); other traces have no events.
            if let Some(kind) = StepKind::from_key(k) {
                link.send_message(Msg::Step(kind));
            }
            return false;
        }
        k if is_menu_key(k) => {
            if let Some(step) = menu_key(page, &loaded, k) {
                link.send_message(Msg::PushStep(step));
            }
            return false;
        }
        _ => {
            let available = Available::of(&loaded.trace, page.compare.compared.is_some());
            if let Some(view) = View::for_key(key, available) {
                link.send_message(Msg::Views(ViewChange::View(view)));
            }
            return false;
        }
    }
    true
}

/// The step Firefox Profiler's `key` pushes for the open view's selected
/// node, if there is one and the transform applies to it.
pub fn menu_key(page: &PageState, loaded: &Loaded, key: &str) -> Option<Step> {
    let views = &page.views;
    let strings = &loaded.trace.strings;
    let node = match views.view {
        // W A S D move the timeline.
        v if !is_transform_key(v, key) => return None,
        View::Timeline
        | View::Listing
        | View::Memory
        | View::Files
        | View::Network
        | View::Threads
        | View::Components
        | View::Values
        | View::Source => {
            let s = page.selected?;
            MenuNode::of_span(&loaded.trace, s.thread, s.span)?
        }
        View::FlameGraph => {
            let tree = loaded.top_down(views.source, views.range);
            let zoom = views.zoom_of("flamegraph");
            MenuNode::of_tree(
                &loaded.trace,
                &tree,
                strings,
                zoom,
                TreeKind::TopDown,
                |n| Recursion::in_tree_named(&tree, strings, n),
            )?
        }
        View::Sandwich => {
            let tree = loaded.top_down(views.source, views.range);
            MenuNode::of_function(&loaded.trace, views.function.as_deref()?, |n| {
                Recursion::in_tree_named(&tree, strings, n)
            })
        }
        View::CallTree => return None,
        View::Diff => {
            let compared = page.compare.compared.as_ref()?;
            let outcome = compared.diff(views.source);
            let data = outcome.as_ref().as_ref().ok()?;
            let tree = data.side(views.diff_side);
            let zoom = views.zoom_of("diff-flamegraph");
            MenuNode::of_tree(
                &loaded.trace,
                tree,
                &data.strings,
                zoom,
                TreeKind::TopDown,
                |n| Recursion::in_tree_named(tree, &data.strings, n),
            )?
        }
    };
    step_for_key(&node, key)
}

/// Where a search jump goes.
pub enum Jump {
    Span(SpanRef),
    Node(u32),
    Function(String),
    None,
}

/// The next (or previous) search match after the current one in the open view.
pub fn jump(
    loaded: &Loaded,
    state: &ViewState,
    marks: &[bool],
    selected: Option<SpanRef>,
    reveal: Option<(u32, u32)>,
    forward: bool,
) -> Jump {
    let marked = |name: u32| marks.get(name as usize).copied().unwrap_or(false);
    match state.view {
        View::Timeline => {
            let mut found: Vec<(i64, usize, u32)> = Vec::new();
            for (t, thread) in loaded.trace.threads.iter().enumerate() {
                for (i, (&name, &start)) in thread
                    .spans
                    .name
                    .iter()
                    .zip(&thread.spans.start)
                    .enumerate()
                {
                    if marked(name) {
                        found.push((start, t, i as u32));
                    }
                }
            }
            found.sort_unstable();
            let current = selected.and_then(|s| {
                let start = *loaded
                    .trace
                    .threads
                    .get(s.thread)?
                    .spans
                    .start
                    .get(s.span as usize)?;
                Some((start, s.thread, s.span))
            });
            next_of(&found, current, forward).map_or(Jump::None, |(_, thread, span)| {
                Jump::Span(SpanRef { thread, span })
            })
        }
        View::FlameGraph | View::CallTree => {
            let inverted = state.view == View::CallTree && state.inverted;
            let tree = loaded.tree(state.source, state.range, inverted);
            let found = matching_nodes(&tree, &marked);
            let at = reveal.and_then(|(n, _)| found.iter().position(|&f| f == n));
            step(&found, at, forward).map_or(Jump::None, Jump::Node)
        }
        View::Sandwich => {
            let functions = loaded.inverted(state.source, state.range);
            let found: Vec<u32> = functions
                .root()
                .children
                .iter()
                .filter_map(|&c| functions.get(c).map(|n| n.name))
                .filter(|&n| marked(n))
                .collect();
            let current = state
                .function
                .as_deref()
                .and_then(|f| loaded.function_id(f));
            let at = current.and_then(|c| found.iter().position(|&f| f == c));
            step(&found, at, forward).map_or(Jump::None, |id| {
                Jump::Function(loaded.trace.str(id).to_owned())
            })
        }
        // The diff view's names are its own; search there only highlights.
        // The listing searches its rows' text itself.
        View::Diff | View::Listing => Jump::None,
        View::Memory | View::Files | View::Network | View::Threads => Jump::None,
        View::Components => Jump::None,
        View::Values | View::Source => Jump::None,
    }
}

/// Matching nodes in pre-order (the order the table and flame graph read).
fn matching_nodes(tree: &CallTree, marked: &dyn Fn(u32) -> bool) -> Vec<u32> {
    let mut out = Vec::new();
    let mut todo: Vec<u32> = tree.root().children.iter().rev().copied().collect();
    while let Some(at) = todo.pop() {
        let Some(n) = tree.get(at) else { continue };
        if marked(n.name) {
            out.push(at);
        }
        todo.extend(n.children.iter().rev());
    }
    out
}

/// The item after (or before) `current` in `items`, wrapping around.
fn next_of<T: PartialOrd + Copy>(items: &[T], current: Option<T>, forward: bool) -> Option<T> {
    let current = match current {
        Some(c) => c,
        None => return if forward { items.first() } else { items.last() }.copied(),
    };
    if forward {
        items
            .iter()
            .find(|&&i| i > current)
            .or(items.first())
            .copied()
    } else {
        items
            .iter()
            .rev()
            .find(|&&i| i < current)
            .or(items.last())
            .copied()
    }
}

/// The item after (or before) position `at`, wrapping around; the first (or
/// last) when there is no current one.
fn step<T: Copy>(items: &[T], at: Option<usize>, forward: bool) -> Option<T> {
    let n = items.len();
    if n == 0 {
        return None;
    }
    let i = match (at, forward) {
        (Some(i), true) => (i + 1) % n,
        (Some(i), false) => (i + n - 1) % n,
        (None, true) => 0,
        (None, false) => n - 1,
    };
    items.get(i).copied()
}
