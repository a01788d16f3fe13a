//! The minimap above the timeline lanes: the whole trace squeezed into a
//! strip, one thin band per thread showing where its top-level calls run
//! (sub-pixel calls merged, so it costs the strip's width per band), with
//! the flame chart's visible window outlined.
//!
//! The bands depend only on the trace, the lanes shown, the strip's size and
//! the colours, so they are drawn once into an offscreen canvas; a frame
//! copies that image and outlines the window on it.

use super::colors::{self, colour_of, Colouring, PALETTE};
use super::paint::style;
use crate::timeline::ChartModel;
use crate::view_model::Loaded;
use flamedrop_core::layout::{layout_spans, SpanRect, Viewport};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The strip's height (CSS px).
pub const MINIMAP_HEIGHT: f64 = 34.0;

/// True when the trace has no spans to show in the minimap: it is then
/// hidden rather than drawn as an empty band.
pub fn is_empty(trace: &flamedrop_core::Trace) -> bool {
    trace.threads.iter().all(|t| t.spans.is_empty())
}

/// What the cached bands were drawn for.
#[derive(Clone, Debug)]
struct BandsKey {
    /// Backing-store size (device px).
    size: (u32, u32),
    dpr: f64,
    dark: bool,
    by_group: bool,
    /// The threads of the lanes shown, in order.
    threads: Vec<usize>,
}

/// Paints the minimap of one trace, keeping its bands between frames.
#[derive(Default)]
pub struct Minimap {
    bands: Option<(BandsKey, HtmlCanvasElement)>,
    /// The offscreen canvas of bands forgotten, drawn on again for the next
    /// ones (a new canvas and its context cost the page more than the bands).
    spare: Option<HtmlCanvasElement>,
    rects: Vec<SpanRect>,
}

impl Minimap {
    /// Forgets the bands (another trace is shown), keeping their canvas.
    pub fn forget_bands(&mut self) {
        if let Some((_, canvas)) = self.bands.take() {
            self.spare = Some(canvas);
        }
    }

    /// True when the bands kept were drawn for this strip, these lanes and
    /// colours: a paint then only copies them (else it draws them first,
    /// which costs a big trace milliseconds per lane).
    pub fn has_bands(
        &self,
        size: (u32, u32),
        dpr: f64,
        model: &ChartModel,
        Colouring { dark, by_group }: Colouring,
    ) -> bool {
        self.bands.as_ref().is_some_and(|(k, _)| {
            (k.size, k.dpr, k.dark, k.by_group) == (size, dpr, dark, by_group)
                && k.threads
                    .iter()
                    .copied()
                    .eq(model.lanes.iter().map(|l| l.thread))
        })
    }

    /// Paints the minimap for `model`'s window onto `ctx`, whose canvas is
    /// `size` device px at `dpr` (and already scaled to CSS px).
    pub fn paint(
        &mut self,
        ctx: &CanvasRenderingContext2d,
        size: (u32, u32),
        dpr: f64,
        loaded: &Loaded,
        model: &ChartModel,
        Colouring { dark, by_group }: Colouring,
    ) {
        let cached = match &self.bands {
            Some((_, canvas)) if self.has_bands(size, dpr, model, Colouring { dark, by_group }) => {
                Some(canvas.clone())
            }
            _ => {
                let key = BandsKey {
                    size,
                    dpr,
                    dark,
                    by_group,
                    threads: model.lanes.iter().map(|l| l.thread).collect(),
                };
                self.draw_bands(&key, loaded, model)
            }
        };
        let width = model.view.width;
        match &cached {
            Some(canvas) => {
                let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
                let _ = ctx.draw_image_with_html_canvas_element(canvas, 0.0, 0.0);
                let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
            }
            // No offscreen canvas (no document): draw the bands directly.
            None => bands(ctx, loaded, model, (dark, by_group), &mut self.rects),
        }
        // The visible window.
        let theme = colors::theme(dark);
        let whole = Viewport::new(0.0, loaded.duration.max(1) as f64, width);
        let (x0, x1) = (whole.x_of(model.view.start), whole.x_of(model.view.end));
        ctx.set_global_alpha(0.18);
        ctx.set_fill_style_str(theme.selection);
        ctx.fill_rect(x0, 0.0, (x1 - x0).max(2.0), MINIMAP_HEIGHT);
        ctx.set_global_alpha(1.0);
        ctx.set_stroke_style_str(theme.selection);
        ctx.set_line_width(1.5);
        ctx.stroke_rect(
            x0 + 0.75,
            0.75,
            (x1 - x0 - 1.5).max(1.0),
            MINIMAP_HEIGHT - 1.5,
        );
    }

    /// Draws the bands for `key` into a new offscreen canvas and keeps it.
    fn draw_bands(
        &mut self,
        key: &BandsKey,
        loaded: &Loaded,
        model: &ChartModel,
    ) -> Option<HtmlCanvasElement> {
        let old = self.bands.take().map(|(_, canvas)| canvas);
        let canvas: HtmlCanvasElement = match self.spare.take().or(old) {
            Some(canvas) => canvas,
            None => {
                let document = web_sys::window()?.document()?;
                document.create_element("canvas").ok()?.dyn_into().ok()?
            }
        };
        // Setting the size clears the canvas and its context's state, even
        // when the size stays.
        canvas.set_width(key.size.0);
        canvas.set_height(key.size.1);
        let g: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        let _ = g.set_transform(key.dpr, 0.0, 0.0, key.dpr, 0.0, 0.0);
        bands(&g, loaded, model, (key.dark, key.by_group), &mut self.rects);
        self.bands = Some((key.clone(), canvas.clone()));
        Some(canvas)
    }
}

/// The background and one band per lane (as many as fit), in CSS px.
fn bands(
    ctx: &CanvasRenderingContext2d,
    loaded: &Loaded,
    model: &ChartModel,
    (dark, by_group): (bool, bool),
    rects: &mut Vec<SpanRect>,
) {
    let theme = colors::theme(dark);
    let width = model.view.width;
    style::fill_style(ctx, theme.ruler);
    ctx.fill_rect(0.0, 0.0, width, MINIMAP_HEIGHT);
    let whole = Viewport::new(0.0, loaded.duration.max(1) as f64, width);
    let lanes = model.lanes.len().max(1) as f64;
    let band = ((MINIMAP_HEIGHT - 4.0) / lanes).clamp(1.0, 6.0);
    for (i, lane) in model.lanes.iter().enumerate() {
        let (Some(thread), Some(index)) = (
            loaded.trace.threads.get(lane.thread),
            loaded.index.get(lane.thread),
        ) else {
            continue;
        };
        rects.clear();
        layout_spans(&thread.spans, index, &whole, loaded.origin, 0..1, rects);
        let y = 2.0 + i as f64 * band;
        if y + band > MINIMAP_HEIGHT {
            break;
        }
        // The colour is set only when it changes (neighbouring calls are
        // often the same function), each from its JS string made once.
        let mut slot = None;
        for r in rects.iter() {
            let name = thread.spans.name.get(r.span as usize).copied().unwrap_or(0);
            let colour = colour_of(loaded.trace.str(name), by_group);
            if slot != Some(colour) {
                slot = Some(colour);
                style::fill_style(ctx, PALETTE[usize::from(colour) % PALETTE.len()]);
            }
            ctx.fill_rect(
                f64::from(r.x),
                y,
                f64::from(r.w).max(1.0),
                (band - 1.0).max(1.0),
            );
        }
    }
}
