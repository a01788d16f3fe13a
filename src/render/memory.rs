//! Paints a Memory-view picture (`view_model::memory::shapes`) onto a 2D
//! canvas at the device pixel ratio, in the colours `memory_svg` gives its
//! inks.

use super::memory_svg::{ink_colour, line_width};
use crate::view_model::memory::shapes::{Anchor, Picture, Shape};
use wasm_bindgen::JsValue;
use web_sys::HtmlCanvasElement;

const FONT: &str = "11px 'DejaVu Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const BOLD: &str =
    "600 11px 'DejaVu Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/// Sizes `canvas` for the picture at `dpr` and paints it.
pub fn paint(canvas: &HtmlCanvasElement, picture: &Picture, dark: bool, dpr: f64) {
    let dpr = if dpr.is_finite() && dpr > 0.0 {
        dpr
    } else {
        1.0
    };
    let (w, h) = (
        (picture.width * dpr).round().max(1.0) as u32,
        (picture.height * dpr).round().max(1.0) as u32,
    );
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
    let Some(ctx) = crate::browser::context_2d(canvas) else {
        return;
    };
    let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    ctx.set_fill_style_str(super::colors::theme(dark).background);
    ctx.fill_rect(0.0, 0.0, picture.width, picture.height);
    let dashed: JsValue = [4.0, 3.0]
        .iter()
        .map(|&v| JsValue::from_f64(v))
        .collect::<js_sys::Array>()
        .into();
    let solid: JsValue = js_sys::Array::new().into();
    for shape in &picture.shapes {
        match shape {
            Shape::Rect { x, y, w, h, ink } => {
                ctx.set_fill_style_str(ink_colour(*ink, dark));
                ctx.fill_rect(*x, *y, *w, *h);
            }
            Shape::Area { points, ink } => {
                ctx.set_fill_style_str(ink_colour(*ink, dark));
                ctx.begin_path();
                trace_path(&ctx, points);
                ctx.close_path();
                ctx.fill();
            }
            Shape::Polyline {
                points,
                ink,
                dashed: d,
            } => {
                ctx.set_stroke_style_str(ink_colour(*ink, dark));
                ctx.set_line_width(line_width(*ink));
                let _ = ctx.set_line_dash(if *d { &dashed } else { &solid });
                ctx.begin_path();
                trace_path(&ctx, points);
                ctx.stroke();
            }
            Shape::Text {
                x,
                y,
                text,
                ink,
                anchor,
                bold,
            } => {
                ctx.set_font(if *bold { BOLD } else { FONT });
                ctx.set_text_align(match anchor {
                    Anchor::Start => "start",
                    Anchor::Middle => "center",
                    Anchor::End => "end",
                });
                ctx.set_fill_style_str(ink_colour(*ink, dark));
                let _ = ctx.fill_text(text, *x, *y);
            }
        }
    }
    ctx.set_text_align("start");
    let _ = ctx.set_line_dash(&solid);
}

fn trace_path(ctx: &web_sys::CanvasRenderingContext2d, points: &[(f64, f64)]) {
    for (i, &(x, y)) in points.iter().enumerate() {
        if i == 0 {
            ctx.move_to(x, y);
        } else {
            ctx.line_to(x, y);
        }
    }
}
