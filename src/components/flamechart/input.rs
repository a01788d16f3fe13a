//! The chart's raw inputs that Yew does not deliver the way the chart needs:
//! the wheel (a non-passive listener, so it can stop the page from
//! scrolling), keys on the window, and size changes of the chart's box.

use super::{FlameChart, Msg};
use crate::chart::keys::{action_for, KeyAction};
use crate::chart::Wheel;
use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement, KeyboardEvent, ResizeObserver, WheelEvent};
use yew::prelude::*;

impl FlameChart {
    /// Wheel on the canvas (not passive: it must stop the page from scrolling)
    /// and keys on the window (the chart is the page's only keyboard user).
    pub(super) fn listen(&mut self, ctx: &Context<Self>, canvas: &HtmlCanvasElement) {
        let link = ctx.link().clone();
        let wheel = EventListener::new_with_options(
            canvas,
            "wheel",
            EventListenerOptions::enable_prevent_default(),
            move |e| {
                let Some(e) = e.dyn_ref::<WheelEvent>() else {
                    return;
                };
                e.prevent_default();
                let scale = match e.delta_mode() {
                    WheelEvent::DOM_DELTA_LINE => 16.0,
                    WheelEvent::DOM_DELTA_PAGE => 800.0,
                    _ => 1.0,
                };
                link.send_message(Msg::Wheel(Wheel {
                    x: f64::from(e.offset_x()),
                    dx: e.delta_x() * scale,
                    dy: e.delta_y() * scale,
                    ctrl: e.ctrl_key() || e.meta_key(),
                    shift: e.shift_key(),
                }));
            },
        );
        self.listeners.push(wheel);
        let Some(window) = web_sys::window() else {
            return;
        };
        let link = ctx.link().clone();
        let keydown = EventListener::new_with_options(
            &window,
            "keydown",
            EventListenerOptions::enable_prevent_default(),
            move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                if e.ctrl_key() || e.meta_key() || e.alt_key() || typing_in_a_field(e) {
                    return;
                }
                if let Some(action) = action_for(&e.key()) {
                    e.prevent_default();
                    link.send_message(Msg::Key(action));
                }
            },
        );
        let link = ctx.link().clone();
        let keyup = EventListener::new(&window, "keyup", move |e| {
            let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                return;
            };
            if let Some(KeyAction::Hold(m)) = action_for(&e.key()) {
                link.send_message(Msg::KeyUp(m));
            }
        });
        let link = ctx.link().clone();
        let blur = EventListener::new(&window, "blur", move |_| link.send_message(Msg::Blur));
        self.listeners.extend([keydown, keyup, blur]);
    }

    /// Repaints whenever the chart's box changes size.
    pub(super) fn observe(&mut self, ctx: &Context<Self>) {
        let Some(container) = self.container.cast::<Element>() else {
            return;
        };
        let link = ctx.link().clone();
        let callback = Closure::<dyn FnMut()>::new(move || link.send_message(Msg::Resize));
        if let Ok(observer) = ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            observer.observe(&container);
            self.observer = Some((observer, callback));
        }
    }
}

/// True when a key press is meant for a text field, not the chart.
fn typing_in_a_field(e: &KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .is_some_and(|el| {
            matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                || el.has_attribute("contenteditable")
        })
}
