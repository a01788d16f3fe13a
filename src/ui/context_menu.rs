//! The right-click / long-press menu of a node (`#node-menu`, an ARIA menu):
//! Firefox Profiler's transforms for the node, each with its key, the ones
//! that cannot apply greyed with the reason. Arrow keys, Home and End move,
//! Enter (or an item's key) chooses, Escape, Tab or a click outside closes.
//! Choosing an item hands its step to `on_step` (the app pushes it onto the
//! narrowing stack). The items come from the native
//! [`crate::view_model::node_menu`].
//!
//! [`LongPress`] turns a press held still for [`LONG_PRESS_MS`] into the
//! same menu, for touch screens and pens.

use crate::view_model::node_menu::{is_menu_key, items, MenuItem, MenuNode};
use flamedrop_core::analysis::transform::Step;
use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, Node};
use yew::prelude::*;

/// A press held this long without moving opens the menu.
pub const LONG_PRESS_MS: u32 = 500;
/// A press that moves further than this (px) is a drag, not a long press.
const LONG_PRESS_SLOP_PX: f64 = 8.0;

/// An open menu: where (the pointer, in client coordinates) and for what.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenMenu {
    pub x: f64,
    pub y: f64,
    pub node: MenuNode,
}

impl OpenMenu {
    /// The menu for `node` at the pointer of `e`.
    pub fn at(e: &MouseEvent, node: MenuNode) -> OpenMenu {
        OpenMenu {
            x: f64::from(e.client_x()),
            y: f64::from(e.client_y()),
            node,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub menu: Rc<OpenMenu>,
    /// An item was chosen: the step to push.
    pub on_step: Callback<Step>,
    pub on_close: Callback<()>,
}

#[function_component(ContextMenu)]
pub fn context_menu(props: &Props) -> Html {
    let root = use_node_ref();
    let entries = use_memo(props.menu.clone(), |m| items(&m.node));
    {
        let (root, on_close, menu) = (root.clone(), props.on_close.clone(), props.menu.clone());
        use_effect_with(props.menu.clone(), move |_| {
            let before = active_element();
            place(&root, menu.x, menu.y);
            move_focus(&root, Move::First);
            let outside = outside_press(&root, on_close);
            move || {
                drop(outside);
                // Back to where the person was (the canvas or the row), so
                // keys go on working there.
                if let Some(el) = before {
                    let _ = el.focus();
                }
            }
        });
    }
    let choose = {
        let (on_step, on_close) = (props.on_step.clone(), props.on_close.clone());
        Callback::from(move |step: Step| {
            on_close.emit(());
            on_step.emit(step);
        })
    };
    let keydown = {
        let (root, choose, on_close, entries) = (
            root.clone(),
            choose.clone(),
            props.on_close.clone(),
            entries.clone(),
        );
        Callback::from(move |e: KeyboardEvent| {
            let key = e.key();
            let movement = match key.as_str() {
                "ArrowDown" => Some(Move::Next),
                "ArrowUp" => Some(Move::Previous),
                "Home" => Some(Move::First),
                "End" => Some(Move::Last),
                _ => None,
            };
            // The page's own keys must not see what the menu handles.
            e.stop_propagation();
            if let Some(m) = movement {
                e.prevent_default();
                move_focus(&root, m);
            } else if key == "Escape" || key == "Tab" {
                e.prevent_default();
                on_close.emit(());
            } else if is_menu_key(&key) {
                e.prevent_default();
                let step = entries.iter().find(|i| i.key == key);
                if let Some(Ok(step)) = step.map(|i| i.action.clone()) {
                    choose.emit(step);
                }
            }
        })
    };
    let node = &props.menu.node;
    html! {
        <div id="node-menu" class="context-menu" role="menu" ref={root}
            aria-label={format!("Transforms for {}", node.name)} onkeydown={keydown}
            oncontextmenu={Callback::from(|e: MouseEvent| e.prevent_default())}>
            <div class="menu-title" aria-hidden="true" title={node.name.clone()}>{ node.name.clone() }</div>
            { for entries.iter().map(|i| entry(i, &choose)) }
        </div>
    }
}

/// One item: its label and key, or greyed with the reason.
fn entry(item: &MenuItem, choose: &Callback<Step>) -> Html {
    let (onclick, reason) = match &item.action {
        Ok(step) => {
            let (step, choose) = (step.clone(), choose.clone());
            (
                Some(Callback::from(move |_: MouseEvent| {
                    choose.emit(step.clone())
                })),
                None,
            )
        }
        Err(reason) => (None, Some(reason.clone())),
    };
    let disabled = reason.is_some();
    html! {
        <button type="button" role="menuitem" tabindex="-1"
            class={classes!("menu-item", disabled.then_some("disabled"))}
            data-key={item.key} aria-disabled={disabled.then_some("true")}
            aria-keyshortcuts={item.key} title={reason.clone()} {onclick}>
            <span class="menu-label">{ item.label.clone() }</span>
            <kbd class="menu-key">{ item.key }</kbd>
            if let Some(reason) = reason {
                <span class="menu-reason">{ reason }</span>
            }
        </button>
    }
}

/// Where the focus goes among the enabled items.
#[derive(Clone, Copy)]
enum Move {
    First,
    Last,
    Next,
    Previous,
}

/// Focuses an enabled item of the menu.
fn move_focus(root: &NodeRef, how: Move) {
    let Some(menu) = root.cast::<Element>() else {
        return;
    };
    let Ok(list) = menu.query_selector_all(".menu-item:not(.disabled)") else {
        return;
    };
    let items: Vec<HtmlElement> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<HtmlElement>().ok())
        .collect();
    let n = items.len();
    if n == 0 {
        return;
    }
    let active = active_element();
    let at = items.iter().position(|i| Some(i) == active.as_ref());
    let next = match (how, at) {
        (Move::First, _) | (Move::Next, None) => 0,
        (Move::Last, _) | (Move::Previous, None) => n - 1,
        (Move::Next, Some(i)) => (i + 1) % n,
        (Move::Previous, Some(i)) => (i + n - 1) % n,
    };
    if let Some(item) = items.get(next) {
        let _ = item.focus();
    }
}

fn active_element() -> Option<HtmlElement> {
    web_sys::window()?
        .document()?
        .active_element()?
        .dyn_into::<HtmlElement>()
        .ok()
}

/// Puts the menu at the pointer, kept inside the window (through CSSOM: the
/// CSP forbids inline style attributes).
fn place(root: &NodeRef, x: f64, y: f64) {
    let (Some(menu), Some(window)) = (root.cast::<HtmlElement>(), web_sys::window()) else {
        return;
    };
    let size = |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64());
    let (width, height) = (
        size(window.inner_width()).unwrap_or(1e9),
        size(window.inner_height()).unwrap_or(1e9),
    );
    let (w, h) = (
        f64::from(menu.offset_width()),
        f64::from(menu.offset_height()),
    );
    let left = if x + w + 4.0 > width { x - w } else { x };
    let top = if y + h + 4.0 > height {
        (height - h - 4.0).max(0.0)
    } else {
        y
    };
    let style = menu.style();
    let _ = style.set_property("left", &format!("{}px", left.max(0.0).round()));
    let _ = style.set_property("top", &format!("{}px", top.round()));
}

/// Closes the menu when a press lands outside it.
fn outside_press(root: &NodeRef, on_close: Callback<()>) -> Option<EventListener> {
    let document = web_sys::window()?.document()?;
    let root = root.clone();
    Some(EventListener::new(&document, "pointerdown", move |e| {
        let inside = match (root.cast::<Node>(), e.target()) {
            (Some(menu), Some(target)) => menu.contains(target.dyn_ref::<Node>()),
            _ => false,
        };
        if !inside {
            on_close.emit(());
        }
    }))
}

/// A press that may become a long press: held still for
/// [`LONG_PRESS_MS`], it fires once; moving or releasing first cancels it.
#[derive(Default)]
pub struct LongPress {
    pending: Option<(Timeout, f64, f64)>,
    fired: Rc<Cell<bool>>,
}

impl LongPress {
    /// The pointer went down at client (x, y): `fire` runs if it stays.
    pub fn down(&mut self, x: f64, y: f64, fire: impl FnOnce() + 'static) {
        self.fired.set(false);
        let fired = self.fired.clone();
        let timeout = Timeout::new(LONG_PRESS_MS, move || {
            fired.set(true);
            fire();
        });
        self.pending = Some((timeout, x, y));
    }

    /// The pointer moved to client (x, y): a drag is not a long press.
    pub fn moved(&mut self, x: f64, y: f64) {
        if let Some((_, x0, y0)) = &self.pending {
            if (x - x0).hypot(y - y0) > LONG_PRESS_SLOP_PX {
                self.pending = None;
            }
        }
    }

    /// The press ended (released, cancelled, left); true when it had
    /// already fired, so the release must not also click.
    pub fn up(&mut self) -> bool {
        self.pending = None;
        self.fired.replace(false)
    }
}
