//! Painting the Values view's chart: the numeric values of one location in
//! event order as a line with a dot per value, the range's ends on the left
//! axis, the selected event's value ringed. Points come from
//! `view_model::values::chart_points`.

use super::colors::{self, PALETTE};
use crate::view_model::values::{number_text, ChartPoint, CHART_MARGIN};
use web_sys::CanvasRenderingContext2d;

const FONT: &str = "11px 'DejaVu Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/// Paints `points` (of values from `min` to `max`) in a `width` × `height`
/// box; `selected` is the selected event.
pub fn paint_chart(
    ctx: &CanvasRenderingContext2d,
    points: &[ChartPoint],
    (min, max): (f64, f64),
    (width, height): (f64, f64),
    dark: bool,
    selected: Option<u32>,
) {
    let theme = colors::theme(dark);
    ctx.set_fill_style_str(theme.background);
    ctx.fill_rect(0.0, 0.0, width, height);
    let (left, top, right, bottom) = CHART_MARGIN;
    ctx.set_stroke_style_str(theme.grid);
    ctx.set_line_width(1.0);
    for y in [top, height - bottom] {
        ctx.begin_path();
        ctx.move_to(left, y + 0.5);
        ctx.line_to(width - right, y + 0.5);
        ctx.stroke();
    }
    ctx.set_font(FONT);
    ctx.set_fill_style_str(theme.ruler_text);
    ctx.set_text_align("right");
    ctx.set_text_baseline("middle");
    let _ = ctx.fill_text(&number_text(max), left - 6.0, top);
    if max > min {
        let _ = ctx.fill_text(&number_text(min), left - 6.0, height - bottom);
    }
    let colour = PALETTE.first().copied().unwrap_or("#4878d0");
    ctx.set_stroke_style_str(colour);
    ctx.set_line_width(1.5);
    ctx.begin_path();
    for (i, p) in points.iter().enumerate() {
        if i == 0 {
            ctx.move_to(p.x, p.y);
        } else {
            ctx.line_to(p.x, p.y);
        }
    }
    ctx.stroke();
    // Dots only where they stay apart.
    let room = (width - left - right) / points.len().max(1) as f64;
    ctx.set_fill_style_str(colour);
    if room >= 4.0 {
        for p in points {
            ctx.begin_path();
            let _ = ctx.arc(p.x, p.y, 2.5, 0.0, std::f64::consts::TAU);
            ctx.fill();
        }
    }
    if let Some(p) = selected.and_then(|e| points.iter().find(|p| p.event == e)) {
        ctx.set_stroke_style_str(theme.selection);
        ctx.set_line_width(2.0);
        ctx.begin_path();
        let _ = ctx.arc(p.x, p.y, 5.5, 0.0, std::f64::consts::TAU);
        ctx.stroke();
    }
}
