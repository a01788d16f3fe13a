//! The Listing view's scroll box helpers: sizes set through the CSSOM (the
//! page's CSP allows no inline styles) and the wheel past the spacer's cap.

use super::ROW_PX;
use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, WheelEvent};
use yew::prelude::*;

/// Sets one style property of the element behind `node`.
pub(super) fn set_style(node: &NodeRef, property: &str, value: &str) {
    if let Some(element) = node.cast::<HtmlElement>() {
        let _ = element.style().set_property(property, value);
    }
}

/// A non-passive wheel listener on the scroll box: past the spacer's cap a
/// wheel moves the window by rows (the native scroll would skip thousands).
pub(super) fn wheel_listener(scroll: &HtmlElement, on_rows: Callback<f64>) -> EventListener {
    let options = EventListenerOptions::enable_prevent_default();
    let target = scroll.clone();
    EventListener::new_with_options(scroll, "wheel", options, move |e| {
        let Some(e) = e.dyn_ref::<WheelEvent>() else {
            return;
        };
        let capped = target.dataset().get("capped").is_some();
        if !capped || e.ctrl_key() || e.delta_x().abs() > e.delta_y().abs() {
            return;
        }
        e.prevent_default();
        let px = match e.delta_mode() {
            WheelEvent::DOM_DELTA_LINE => e.delta_y() * ROW_PX,
            WheelEvent::DOM_DELTA_PAGE => e.delta_y() * f64::from(target.client_height()),
            _ => e.delta_y(),
        };
        on_rows.emit(px / ROW_PX);
    })
}
