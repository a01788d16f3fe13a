//! A span's transforms menu in the chart: opened by a right-click or a long
//! press (held still for `LONG_PRESS_MS`) on a span, which it also
//! selects; a long press does not also click or pan when released.

use super::{FlameChart, Msg};
use crate::timeline::gesture::Gesture;
use crate::timeline::Hit;
use crate::ui::context_menu::{ContextMenu, OpenMenu};
use crate::view_model::node_menu::MenuNode;
use std::rc::Rc;
use yew::prelude::*;

impl FlameChart {
    /// A press began at canvas (x, y): it opens the menu if held still.
    pub(super) fn press(&mut self, ctx: &Context<Self>, x: f64, y: f64, client: (f64, f64)) {
        let link = ctx.link().clone();
        self.long_press.down(client.0, client.1, move || {
            link.send_message(Msg::Menu { x, y, client })
        });
    }

    /// A long press opened the menu: its release is no click, no pan.
    pub(super) fn forget_press(&mut self) -> bool {
        self.gesture = Gesture::default();
        self.set_cursor("");
        false
    }

    /// Opens the menu of the span at canvas (x, y) and selects it.
    pub(super) fn open_menu(
        &mut self,
        ctx: &Context<Self>,
        x: f64,
        y: f64,
        client: (f64, f64),
    ) -> bool {
        let props = ctx.props();
        let loaded = &props.loaded;
        let hit = self
            .model
            .hit(&loaded.trace.threads, &loaded.index, loaded.origin, x, y);
        let Some(Hit::Span(span)) = hit else {
            return false;
        };
        let Some(node) = MenuNode::of_span(&loaded.trace, span.thread, span.span) else {
            return false;
        };
        props.on_select.emit(Some(span));
        self.menu = Some(Rc::new(OpenMenu {
            x: client.0,
            y: client.1,
            node,
        }));
        true
    }

    /// The open menu, if any.
    pub(super) fn menu_markup(&self, ctx: &Context<Self>) -> Html {
        let Some(menu) = self.menu.clone() else {
            return html! {};
        };
        html! {
            <ContextMenu {menu} on_step={ctx.props().on_step.clone()}
                on_close={ctx.link().callback(|()| Msg::CloseMenu)} />
        }
    }
}
