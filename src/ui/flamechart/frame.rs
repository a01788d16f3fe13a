//! One animation frame of the chart: held keys move the view, the hovered
//! item is looked up again, then the canvas painter and the minimap paint
//! and the chart reports outward (`publish`). The minimap's bands, when they
//! must be drawn again, are drawn in a task of their own after the frame.

use super::{FlameChart, Msg};
use crate::render::colors::Colouring;
use crate::render::minimap::MINIMAP_HEIGHT;
use crate::render::paint::Frame;
use crate::timeline::SpanRef;
use crate::view_model::Loaded;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

impl FlameChart {
    /// The animation frame at `time` (ms); true when the hovered item
    /// changed (the tooltip is rendered again).
    pub(super) fn on_frame(&mut self, ctx: &Context<Self>, time: f64) -> bool {
        self.frame = None;
        if self.keys.any() {
            let dt = self.last_frame.map_or(16.0, |last| time - last);
            let anchor = self.pointer.map_or(self.model.view.width / 2.0, |p| p.0);
            self.keys.apply(&mut self.model, dt, anchor);
            self.last_frame = Some(time);
            self.request_frame(ctx);
        } else {
            self.last_frame = None;
        }
        let hover_changed = self.rehover(&ctx.props().loaded);
        self.paint(ctx);
        hover_changed
    }

    /// The range being dragged, else the selected one, as view offsets.
    fn shown_range(&self, loaded: &Loaded, range: Option<(i64, i64)>) -> Option<(f64, f64)> {
        if let Some((from, x)) = self.gesture.range_px() {
            let (a, b) = (self.model.view.time_at(from), self.model.view.time_at(x));
            return Some((a.min(b), a.max(b)));
        }
        range.map(|(a, b)| ((a - loaded.origin) as f64, (b - loaded.origin) as f64))
    }

    fn paint(&mut self, ctx: &Context<Self>) {
        let props = ctx.props();
        let loaded: &Loaded = &props.loaded;
        let shown = self.shown_range(loaded, props.range);
        let Some(painter) = &mut self.painter else {
            return;
        };
        let colouring = props.colouring;
        let dark = colouring.dark;
        let frame = Frame {
            loaded,
            model: &self.model,
            hover: self.hover,
            selected: props.selected,
            titles: &self.titles,
            dark,
            by_group: colouring.by_group,
            highlight: props.highlight.as_deref(),
            marks: props.marks.as_deref().map(Vec::as_slice),
            range: shown,
            drop_at: self
                .gesture
                .dragging_lane()
                .then(|| self.pointer.map(|p| p.1))
                .flatten(),
        };
        self.publish.chart(&props.on_report, &self.model);
        let drew = painter.paint(&frame);
        self.publish.painted(&props.on_report, drew);
        self.paint_minimap(ctx, colouring);
        self.publish
            .lanes(&props.on_report, loaded, &self.model, dark);
    }

    /// Sizes the minimap's canvas to the chart's width; the canvas and its
    /// context, with the device pixel ratio.
    pub(super) fn size_minimap(
        &self,
    ) -> Option<(HtmlCanvasElement, CanvasRenderingContext2d, f64)> {
        let canvas = self.minimap.cast::<HtmlCanvasElement>()?;
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let width = self.model.view.width;
        let (w, h) = (
            (width * dpr).round().max(1.0) as u32,
            (MINIMAP_HEIGHT * dpr).round() as u32,
        );
        let resized = canvas.width() != w || canvas.height() != h;
        if resized {
            canvas.set_width(w);
            canvas.set_height(h);
        }
        let g = crate::browser::context_2d(&canvas)?;
        if resized {
            crate::render::paint::touch(&g);
        }
        Some((canvas, g, dpr))
    }

    /// Paints the minimap, unless its bands must be drawn again (a new
    /// picture or trace, another size or lanes): that waits for a task of
    /// its own ([`FlameChart::paint_bands`]), so the frame that shows a new
    /// loading picture does not also carry them.
    fn paint_minimap(&mut self, ctx: &Context<Self>, colouring: Colouring) {
        let Some((canvas, g, dpr)) = self.size_minimap() else {
            return;
        };
        let size = (canvas.width(), canvas.height());
        if self
            .minimap_painter
            .has_bands(size, dpr, &self.model, colouring)
        {
            self.draw_minimap(&g, size, dpr, &ctx.props().loaded, colouring);
        } else if self.bands_due.is_none() {
            let link = ctx.link().clone();
            self.bands_due = Some(gloo::timers::callback::Timeout::new(0, move || {
                link.send_message(Msg::Bands)
            }));
        }
    }

    /// Paints the minimap now, drawing its bands first if they are due.
    pub(super) fn paint_bands(&mut self, loaded: &Loaded, colouring: Colouring) {
        self.bands_due = None;
        let Some((canvas, g, dpr)) = self.size_minimap() else {
            return;
        };
        let size = (canvas.width(), canvas.height());
        self.draw_minimap(&g, size, dpr, loaded, colouring);
    }

    /// Draws the minimap on its sized canvas (`size` in device pixels),
    /// its bands too if they are out of date.
    fn draw_minimap(
        &mut self,
        g: &CanvasRenderingContext2d,
        size: (u32, u32),
        dpr: f64,
        loaded: &Loaded,
        colouring: Colouring,
    ) {
        let _ = g.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        self.minimap_painter
            .paint(g, size, dpr, loaded, &self.model, colouring);
    }

    /// Recomputes what is under the pointer; true if it changed.
    pub(super) fn rehover(&mut self, loaded: &Loaded) -> bool {
        let hit = self.pointer.and_then(|(x, y)| {
            self.model
                .hit(&loaded.trace.threads, &loaded.index, loaded.origin, x, y)
        });
        if hit == self.hover {
            return false;
        }
        self.hover = hit;
        true
    }

    /// Shows span `s` with a little room on each side.
    pub(super) fn zoom_to(&mut self, loaded: &Loaded, s: SpanRef) {
        let Some(thread) = loaded.trace.threads.get(s.thread) else {
            return;
        };
        let k = s.span as usize;
        let (Some(&start), Some(&end)) = (thread.spans.start.get(k), thread.spans.end.get(k))
        else {
            return;
        };
        let (start, end) = ((start - loaded.origin) as f64, (end - loaded.origin) as f64);
        let pad = ((end - start) * 0.05).max(1.0);
        self.model.show(start - pad, end + pad);
    }
}
