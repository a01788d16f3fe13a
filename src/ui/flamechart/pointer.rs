//! What pointer, minimap and key input do to the chart: the pure gesture
//! machine (`timeline::gesture`) decides, and this file carries its effects out
//! on the model, the props' callbacks, the cursor and the next frame.

use super::FlameChart;
use crate::timeline::gesture::{minimap_window, Effect};
use crate::timeline::keys::{KeyAction, STEP_ZOOM};
use crate::timeline::Hit;
use web_sys::Element;
use yew::prelude::*;

impl FlameChart {
    /// The main button went down at canvas (x, y).
    pub(super) fn pointer_down(&mut self, x: f64, y: f64, pointer: i32) -> bool {
        if let Some(canvas) = self.canvas.cast::<Element>() {
            let _ = canvas.set_pointer_capture(pointer);
        }
        self.gesture.on_down(&self.model, x, y);
        false
    }

    /// The pointer moved to canvas (x, y); true when the hovered item changed.
    pub(super) fn pointer_moved(&mut self, ctx: &Context<Self>, x: f64, y: f64) -> bool {
        self.pointer = Some((x, y));
        match self.gesture.on_move(x, y) {
            Effect::Hover => {
                let changed = self.rehover(&ctx.props().loaded);
                if changed {
                    self.request_frame(ctx); // the hover outline moves
                } else {
                    self.place_tooltip();
                }
                return changed;
            }
            Effect::Pan { dx, dy } => {
                self.model.pan_px(dx);
                self.model.scroll_by(dy);
                self.set_cursor("grabbing");
            }
            Effect::LaneDragged => self.set_cursor("grabbing"),
            Effect::RangeDragged => {}
            _ => return false,
        }
        self.request_frame(ctx);
        false
    }

    /// The button came up at canvas (x, y).
    pub(super) fn pointer_up(&mut self, ctx: &Context<Self>, x: f64, y: f64) -> bool {
        let loaded = &ctx.props().loaded;
        let model = &self.model;
        let hit = || model.hit(&loaded.trace.threads, &loaded.index, loaded.origin, x, y);
        if let Some(effect) = self.gesture.on_up(model, x, y, hit) {
            self.set_cursor("");
            self.apply(ctx, effect);
        }
        false
    }

    /// Carries out what a released press means.
    fn apply(&mut self, ctx: &Context<Self>, effect: Effect) {
        let props = ctx.props();
        match effect {
            Effect::SelectRange(px) => {
                let at = |px: f64| props.loaded.origin + self.model.view.time_at(px).round() as i64;
                props.on_range.emit(px.map(|(a, b)| (at(a), at(b))));
                self.request_frame(ctx);
            }
            Effect::MoveLane { track, y } => {
                self.set_cursor("");
                self.request_frame(ctx);
                let target = self.model.track_at(y).map(|(target, _)| target);
                if let Some(layout) =
                    target.and_then(|to| props.lanes.after_drop(&self.all_lanes, track, to))
                {
                    props.on_lanes.emit(layout);
                }
            }
            Effect::HeaderButton { track, button } => {
                if let Some(layout) = props.lanes.after_button(&self.all_lanes, track, button) {
                    props.on_lanes.emit(layout);
                }
            }
            Effect::ToggleLane(thread) => {
                self.model.toggle_lane(thread);
                self.publish.lanes_changed();
                self.request_frame(ctx);
            }
            Effect::ClickSpan(span) => props.on_select.emit(span),
            Effect::None
            | Effect::Hover
            | Effect::Pan { .. }
            | Effect::RangeDragged
            | Effect::LaneDragged => {}
        }
    }

    /// The pointer left the canvas; true when something was hovered.
    pub(super) fn pointer_left(&mut self, ctx: &Context<Self>) -> bool {
        self.pointer = None;
        let changed = self.hover.take().is_some();
        if changed {
            self.request_frame(ctx);
        }
        changed
    }

    /// A double click zooms to the span there.
    pub(super) fn double_click(&mut self, ctx: &Context<Self>, x: f64, y: f64) -> bool {
        let loaded = ctx.props().loaded.clone();
        if let Some(Hit::Span(s)) =
            self.model
                .hit(&loaded.trace.threads, &loaded.index, loaded.origin, x, y)
        {
            self.zoom_to(&loaded, s);
            self.request_frame(ctx);
        }
        false
    }

    /// A key press meant for the chart.
    pub(super) fn key(&mut self, ctx: &Context<Self>, action: KeyAction) -> bool {
        let anchor = self.pointer.map_or(self.model.view.width / 2.0, |p| p.0);
        match action {
            KeyAction::Hold(m) => {
                if !self.keys.press(m) {
                    return false;
                }
            }
            KeyAction::ZoomInStep => self.model.zoom_at(STEP_ZOOM, anchor),
            KeyAction::ZoomOutStep => self.model.zoom_at(1.0 / STEP_ZOOM, anchor),
            KeyAction::Reset => self.model.reset(),
            KeyAction::ClearSelection => ctx.props().on_select.emit(None),
        }
        self.request_frame(ctx);
        false
    }

    /// Pointer on the minimap at x: pressed (`Some(true)`), dragged
    /// (`Some(false)`), released (`None`). While pressed, the window is
    /// centred on the time under the pointer.
    pub(super) fn minimap(&mut self, ctx: &Context<Self>, x: f64, pressed: Option<bool>) -> bool {
        if !self.minimap_drag.on_pointer(pressed) {
            return false;
        }
        let duration = ctx.props().loaded.duration.max(1) as f64;
        let (start, end) = minimap_window(
            x,
            self.model.view.width,
            duration,
            self.model.view.duration(),
        );
        self.model.show(start, end);
        self.request_frame(ctx);
        false
    }
}
