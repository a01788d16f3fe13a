//! The minimap above the timeline lanes: the whole trace squeezed into a
//! strip, one thin band per thread showing where its top-level calls run
//! (sub-pixel calls merged, so it costs the strip's width per band), with
//! the flame chart's visible window outlined.

use super::colors::{self, colour_of, PALETTE};
use crate::chart::ChartModel;
use crate::state::Loaded;
use flamedrop_core::layout::{layout_spans, SpanRect, Viewport};
use web_sys::CanvasRenderingContext2d;

/// The strip's height (CSS px).
pub const MINIMAP_HEIGHT: f64 = 34.0;

/// True when the trace has no spans to show in the minimap: it is then
/// hidden rather than drawn as an empty band.
pub fn is_empty(trace: &flamedrop_core::Trace) -> bool {
    trace.threads.iter().all(|t| t.spans.is_empty())
}

/// Paints the minimap for `model`'s window onto `ctx` (scaled to CSS px).
pub fn paint(ctx: &CanvasRenderingContext2d, loaded: &Loaded, model: &ChartModel, dark: bool) {
    let theme = colors::theme(dark);
    let width = model.view.width;
    ctx.set_fill_style_str(theme.ruler);
    ctx.fill_rect(0.0, 0.0, width, MINIMAP_HEIGHT);
    let whole = Viewport::new(0.0, loaded.duration.max(1) as f64, width);
    let lanes = model.lanes.len().max(1) as f64;
    let band = ((MINIMAP_HEIGHT - 4.0) / lanes).clamp(1.0, 6.0);
    let mut rects: Vec<SpanRect> = Vec::new();
    for (i, lane) in model.lanes.iter().enumerate() {
        let (Some(thread), Some(index)) = (
            loaded.trace.threads.get(lane.thread),
            loaded.index.get(lane.thread),
        ) else {
            continue;
        };
        rects.clear();
        layout_spans(
            &thread.spans,
            index,
            &whole,
            loaded.origin,
            0..1,
            &mut rects,
        );
        let y = 2.0 + i as f64 * band;
        if y + band > MINIMAP_HEIGHT {
            break;
        }
        for r in &rects {
            let name = thread.spans.name.get(r.span as usize).copied().unwrap_or(0);
            ctx.set_fill_style_str(PALETTE[usize::from(colour_of(loaded.trace.str(name)))]);
            ctx.fill_rect(
                f64::from(r.x),
                y,
                f64::from(r.w).max(1.0),
                (band - 1.0).max(1.0),
            );
        }
    }
    // The visible window.
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
