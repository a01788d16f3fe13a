//! Canvas state set from JavaScript strings made once. `web_sys`'s
//! `set_fill_style_str` and `set_font` turn the Rust text into a new JS
//! string on every call (a UTF-8 decode, and garbage to collect); a frame
//! sets colours and fonts hundreds of times, always from the same few
//! constants. Here each constant becomes a JS string once, and the setters
//! take that string as it is.

use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::CanvasRenderingContext2d;

#[wasm_bindgen]
extern "C" {
    /// A `CanvasRenderingContext2d`, seen through setters that take a JS value.
    type Canvas2d;
    #[wasm_bindgen(method, setter = fillStyle)]
    fn set_fill_style_value(this: &Canvas2d, value: &JsValue);
    #[wasm_bindgen(method, setter = strokeStyle)]
    fn set_stroke_style_value(this: &Canvas2d, value: &JsValue);
    #[wasm_bindgen(method, setter = font)]
    fn set_font_value(this: &Canvas2d, value: &JsValue);
    #[wasm_bindgen(method, js_name = fillText)]
    fn fill_text_value(this: &Canvas2d, text: &JsValue, x: f64, y: f64);
}

fn canvas2d(ctx: &CanvasRenderingContext2d) -> &Canvas2d {
    ctx.unchecked_ref()
}

thread_local! {
    /// Every constant seen so far with its JS string (a few dozen at most:
    /// the palette, the two themes' colours, two fonts, a few glyphs).
    static STRINGS: RefCell<Vec<(&'static str, JsValue)>> = const { RefCell::new(Vec::new()) };
}

/// Calls `f` with the JS string of `text`, made on first use.
fn with_js<R>(text: &'static str, f: impl FnOnce(&JsValue) -> R) -> R {
    STRINGS.with(|strings| {
        let mut strings = strings.borrow_mut();
        let at = match strings.iter().position(|(s, _)| *s == text) {
            Some(at) => at,
            None => {
                strings.push((text, JsValue::from_str(text)));
                strings.len() - 1
            }
        };
        f(&strings[at].1)
    })
}

/// `ctx.fillStyle = colour`.
pub fn fill_style(ctx: &CanvasRenderingContext2d, colour: &'static str) {
    with_js(colour, |v| canvas2d(ctx).set_fill_style_value(v));
}

/// `ctx.strokeStyle = colour`.
pub fn stroke_style(ctx: &CanvasRenderingContext2d, colour: &'static str) {
    with_js(colour, |v| canvas2d(ctx).set_stroke_style_value(v));
}

/// `ctx.font = font`.
pub fn font(ctx: &CanvasRenderingContext2d, font: &'static str) {
    with_js(font, |v| canvas2d(ctx).set_font_value(v));
}

/// `ctx.fillText(text, x, y)` for a constant text.
pub fn fill_static_text(ctx: &CanvasRenderingContext2d, text: &'static str, x: f64, y: f64) {
    with_js(text, |v| canvas2d(ctx).fill_text_value(v, x, y));
}

/// Widths of texts measured at one font, kept between frames: the ruler's
/// tick labels and the lanes' titles come back frame after frame, and every
/// `measureText` costs the browser a text shaping and the page a JS object.
#[derive(Default)]
pub struct MeasuredWidths {
    widths: HashMap<String, f64>,
}

/// Beyond this many texts the cache starts over (zooming makes new labels).
const MEASURED_MAX: usize = 512;

impl MeasuredWidths {
    /// The width of `text` at the context's current font (which must be the
    /// font this cache is for), measured on first use.
    pub fn width(&mut self, ctx: &CanvasRenderingContext2d, text: &str) -> f64 {
        if let Some(&w) = self.widths.get(text) {
            return w;
        }
        let w = ctx.measure_text(text).map_or(0.0, |m| m.width());
        if self.widths.len() >= MEASURED_MAX {
            self.widths.clear();
        }
        self.widths.insert(text.to_owned(), w);
        w
    }

    /// Forgets every width (the font changed).
    pub fn clear(&mut self) {
        self.widths.clear();
    }
}
