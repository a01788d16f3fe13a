//! Dense rows as pixel strips. Zoomed out, a lane's rows hold thousands of
//! rectangles a few pixels wide, and one `fillRect` each costs the page a
//! call and the browser a raster operation per rectangle: the frame's cost
//! grows with what is on screen. Instead, such rows are painted in memory,
//! one pixel high per row (a rectangle covers whole device pixels and a
//! full row's height, so one line of pixels says everything), handed to the
//! browser as one image, and each row is stretched to its height with one
//! `drawImage`: the cost is the canvas width per row, however many
//! rectangles the row holds.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::{Clamped, JsCast, JsValue};
#[cfg(target_arch = "wasm32")]
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// `#rrggbb` as RGBA bytes (opaque); anything else as transparent.
pub fn rgba(hex: &str) -> [u8; 4] {
    let digits = hex.strip_prefix('#').filter(|d| d.len() == 6);
    let channel = |i: usize| {
        digits
            .and_then(|d| d.get(i..i + 2))
            .and_then(|c| u8::from_str_radix(c, 16).ok())
    };
    match (channel(0), channel(2), channel(4)) {
        (Some(r), Some(g), Some(b)) => [r, g, b, 255],
        _ => [0; 4],
    }
}

/// The pixel lines of one lane's rows, kept between frames.
#[derive(Default)]
pub struct RowStrips {
    pixels: Vec<u8>,
    width: usize,
    rows: usize,
    /// Rows that got any pixel.
    used: Vec<bool>,
    /// The image the strips are put into, and its context.
    #[cfg(target_arch = "wasm32")]
    image: Option<(HtmlCanvasElement, CanvasRenderingContext2d)>,
}

impl RowStrips {
    /// Starts `rows` empty (transparent) lines `width` device px wide.
    pub fn begin(&mut self, width: usize, rows: usize) {
        self.width = width;
        self.rows = rows;
        self.pixels.clear();
        self.pixels.resize(width * rows * 4, 0);
        self.used.clear();
        self.used.resize(rows, false);
    }

    /// Paints device pixels `[x0, x1)` (rounded, clipped) of line `row`.
    pub fn fill(&mut self, row: usize, x0: f64, x1: f64, colour: [u8; 4]) {
        if row >= self.rows {
            return;
        }
        let clip = |x: f64| (x.round().max(0.0) as usize).min(self.width);
        let (a, b) = (clip(x0), clip(x1));
        if a >= b {
            return;
        }
        let line = row * self.width * 4;
        if let Some(px) = self.pixels.get_mut(line + a * 4..line + b * 4) {
            for p in px.chunks_exact_mut(4) {
                p.copy_from_slice(&colour);
            }
            self.used[row] = true;
        }
    }

    #[cfg(target_arch = "wasm32")]
    /// Draws every used line onto `ctx` (scaled to CSS px by `dpr`), line
    /// `row` stretched over `[top(row), top(row) + height)`.
    pub fn draw(
        &mut self,
        ctx: &CanvasRenderingContext2d,
        dpr: f64,
        top: impl Fn(usize) -> f64,
        height: f64,
    ) {
        if self.width == 0 || self.rows == 0 || !self.used.contains(&true) {
            return;
        }
        let Some((canvas, g)) = self.image() else {
            return;
        };
        let (w, h) = (self.width as u32, self.rows as u32);
        if canvas.width() < w || canvas.height() < h {
            canvas.set_width(canvas.width().max(w));
            canvas.set_height(canvas.height().max(h));
        }
        let Ok(data) = image_data(&self.pixels, w, h) else {
            return;
        };
        let _ = g.put_image_data(&data, 0.0, 0.0);
        ctx.set_image_smoothing_enabled(false);
        let css_width = self.width as f64 / dpr;
        for (row, _) in self.used.iter().enumerate().filter(|(_, &u)| u) {
            let _ = ctx
                .draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
                    &canvas,
                    0.0,
                    row as f64,
                    self.width as f64,
                    1.0,
                    0.0,
                    top(row),
                    css_width,
                    height,
                );
        }
        ctx.set_image_smoothing_enabled(true);
    }

    /// The offscreen canvas, made once.
    #[cfg(target_arch = "wasm32")]
    fn image(&mut self) -> Option<(HtmlCanvasElement, CanvasRenderingContext2d)> {
        if self.image.is_none() {
            let document = web_sys::window()?.document()?;
            let canvas: HtmlCanvasElement =
                document.create_element("canvas").ok()?.dyn_into().ok()?;
            let g: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
            self.image = Some((canvas, g));
        }
        self.image.clone()
    }
}

/// `pixels` as an `ImageData`. The browser refuses one that views shared
/// memory, so the shared-memory build copies the pixels out first.
#[cfg(target_arch = "wasm32")]
fn image_data(pixels: &[u8], w: u32, h: u32) -> Result<ImageData, JsValue> {
    if crate::wire::handover::SHARED_MEMORY {
        let copy = js_sys::Uint8ClampedArray::new_with_length(pixels.len() as u32);
        copy.copy_from(pixels);
        ImageData::new_with_js_u8_clamped_array_and_sh(&copy, w, h)
    } else {
        ImageData::new_with_u8_clamped_array_and_sh(Clamped(pixels), w, h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_become_rgba() {
        assert_eq!(rgba("#f2a65a"), [0xf2, 0xa6, 0x5a, 255]);
        assert_eq!(rgba("rgba(1, 2, 3, 0.5)"), [0; 4]);
    }

    #[test]
    fn fills_cover_whole_pixels_and_stay_inside() {
        let mut s = RowStrips::default();
        s.begin(4, 2);
        s.fill(1, -3.0, 1.4, [1, 2, 3, 255]);
        s.fill(1, 2.6, 99.0, [9, 9, 9, 255]);
        s.fill(5, 0.0, 4.0, [7, 7, 7, 255]);
        assert_eq!(&s.pixels[..16], &[0; 16]);
        assert_eq!(&s.pixels[16..20], &[1, 2, 3, 255]);
        assert_eq!(&s.pixels[20..28], &[0; 8]);
        assert_eq!(&s.pixels[28..32], &[9, 9, 9, 255]);
        assert_eq!(s.used, vec![false, true]);
    }
}
