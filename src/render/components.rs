//! Painting the Components view's two canvases: the caller → callee flows
//! (bars per library in two columns, a curved band per edge) and the
//! drill-down icicle (one row per level; a library's or function's waiting
//! drawn as a hatched-grey tail in the wait colour, so waiting reads apart
//! from working). Layouts come from `view_model::components`.

use super::colors::{self, colour_of, PALETTE};
use super::text::{fit_label, MIN_LABEL_PX};
use crate::view_model::components::{Flows, IcicleRect};
use flamedrop_core::analysis::components::DrillKind;
use web_sys::CanvasRenderingContext2d;

const FONT: &str = "11px 'DejaVu Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
/// The colour of waiting, in both pictures and the table's bars.
pub const WAIT_COLOUR: &str = "#9aa3b2";
/// Height of one icicle row (CSS px).
pub const ICICLE_ROW: f64 = 22.0;
/// Width of the flow diagram's bars and the room for their labels.
pub const FLOW_BAR: f64 = 14.0;
pub const FLOW_LABEL: f64 = 100.0;

/// The fill of a library (by name, as the flame graphs colour).
pub fn library_colour(name: &str) -> &'static str {
    PALETTE
        .get(usize::from(colour_of(name, false)))
        .copied()
        .unwrap_or("#888")
}

fn label(ctx: &CanvasRenderingContext2d, text: &str, x: f64, y: f64, room: f64, colour: &str) {
    let ellipsis = ctx.measure_text("…").map_or(8.0, |m| m.width());
    let mut out = String::new();
    let full = ctx.measure_text(text).map_or(0.0, |m| m.width());
    if fit_label(text, full, room, ellipsis, &mut out) {
        ctx.set_fill_style_str(colour);
        let _ = ctx.fill_text(&out, x, y);
    }
}

/// Paints the flows: callers at the left, callees at the right; a band
/// with room says its calls and time (`format` prints a time).
pub fn paint_flows(
    ctx: &CanvasRenderingContext2d,
    f: &Flows,
    (width, height): (f64, f64),
    dark: bool,
    format: &dyn Fn(i64) -> String,
) {
    let theme = colors::theme(dark);
    ctx.set_fill_style_str(theme.background);
    ctx.fill_rect(0.0, 0.0, width, height);
    ctx.set_font(FONT);
    let (left, right) = (FLOW_LABEL, width - FLOW_LABEL - FLOW_BAR);
    if f.bands.is_empty() {
        ctx.set_fill_style_str(theme.muted);
        let _ = ctx.fill_text("No calls from one library into another.", 2.0, 14.0);
        return;
    }
    for b in &f.bands {
        let (x0, x1) = (left + FLOW_BAR, right);
        let mid = (x0 + x1) / 2.0;
        ctx.begin_path();
        ctx.move_to(x0, b.from_top);
        ctx.bezier_curve_to(mid, b.from_top, mid, b.to_top, x1, b.to_top);
        ctx.line_to(x1, b.to_top + b.width.max(0.5));
        let bottom = b.from_top + b.width.max(0.5);
        ctx.bezier_curve_to(mid, b.to_top + b.width.max(0.5), mid, bottom, x0, bottom);
        ctx.close_path();
        ctx.set_global_alpha(0.45);
        ctx.set_fill_style_str(library_colour(&b.callee));
        ctx.fill();
        ctx.set_global_alpha(1.0);
    }
    ctx.set_text_baseline("middle");
    ctx.set_text_align("center");
    for b in f.bands.iter().filter(|b| b.width >= 14.0) {
        let text = format!("{} × {}", b.calls, format(b.time));
        let middle = (b.from_top + b.to_top + b.width) / 2.0;
        let x = (left + FLOW_BAR + right) / 2.0;
        label(
            ctx,
            &text,
            x,
            middle,
            right - left - FLOW_BAR - 16.0,
            theme.span_text,
        );
    }
    for (nodes, x, text_x, align) in [
        (&f.callers, left, left - 6.0, "right"),
        (&f.callees, right, right + FLOW_BAR + 6.0, "left"),
    ] {
        ctx.set_text_align(align);
        for n in nodes.iter() {
            ctx.set_fill_style_str(library_colour(&n.library));
            ctx.fill_rect(x, n.top, FLOW_BAR, n.height.max(1.0));
            label(
                ctx,
                &n.library,
                text_x,
                n.top + n.height / 2.0,
                FLOW_LABEL - 10.0,
                theme.lane_text,
            );
        }
    }
    ctx.set_text_align("start");
    ctx.set_text_baseline("alphabetic");
}

/// Paints the icicle's rectangles; `hover` is outlined.
pub fn paint_icicle(
    ctx: &CanvasRenderingContext2d,
    rects: &[IcicleRect],
    width: f64,
    height: f64,
    hover: Option<usize>,
    dark: bool,
) {
    let theme = colors::theme(dark);
    ctx.set_fill_style_str(theme.background);
    ctx.fill_rect(0.0, 0.0, width, height);
    ctx.set_font(FONT);
    ctx.set_text_baseline("middle");
    for (i, r) in rects.iter().enumerate() {
        let x = r.x0 * width;
        let w = ((r.x1 - r.x0) * width).max(1.0);
        let y = f64::from(r.depth) * ICICLE_ROW;
        let fill = match r.kind {
            DrillKind::Process | DrillKind::Thread => theme.lane_header,
            DrillKind::Library | DrillKind::Function => library_colour(&library_of(rects, r)),
        };
        ctx.set_fill_style_str(fill);
        ctx.fill_rect(x, y, w - 0.5, ICICLE_ROW - 1.0);
        if r.time > 0 && r.wait > 0 {
            let ww = w * r.wait as f64 / r.time as f64;
            ctx.set_fill_style_str(WAIT_COLOUR);
            ctx.fill_rect(x + w - ww, y, ww - 0.5, ICICLE_ROW - 1.0);
        }
        if hover == Some(i) {
            ctx.set_stroke_style_str(theme.hover);
            ctx.set_line_width(1.5);
            ctx.stroke_rect(x + 0.75, y + 0.75, w - 2.0, ICICLE_ROW - 2.5);
        }
        if w >= MIN_LABEL_PX {
            let colour = match r.kind {
                DrillKind::Process | DrillKind::Thread => theme.lane_text,
                _ => theme.span_text,
            };
            label(ctx, &r.name, x + 4.0, y + ICICLE_ROW / 2.0, w - 8.0, colour);
        }
    }
    ctx.set_text_baseline("alphabetic");
}

/// The library a rectangle belongs to: its own name for a library, its
/// parent library's for a function.
fn library_of(rects: &[IcicleRect], r: &IcicleRect) -> String {
    if r.kind != DrillKind::Function {
        return r.name.clone();
    }
    let parent = &r.path[..r.path.len().saturating_sub(1)];
    rects
        .iter()
        .find(|p| p.path == parent)
        .map_or_else(|| r.name.clone(), |p| p.name.clone())
}
