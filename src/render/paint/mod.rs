//! The frame painter: draws the ruler, the lanes, their spans and markers,
//! hover and selection outlines and the scrollbar onto the 2D canvas.
//!
//! Per frame it asks `flamedrop_core::layout` for each visible row's
//! rectangles (sub-pixel spans already merged), then fills them colour by
//! colour on whole device pixels, so a frame costs about the pixels on
//! screen. Every buffer (rectangles, colour buckets, label text) is kept
//! between frames, and colours and text widths are computed once per name.
//!
//! This file holds the painter's state and the order a frame is painted in;
//! each part of the picture has its own file: `ruler` (ruler and grid),
//! `lanes` (lane headers and their buttons), `spans` (the rectangles and
//! their labels; the colour rules are the pure `render::fill`), `counters`
//! and `overlays` (hover, selection, range, drop line, scrollbar).

mod counters;
mod lanes;
mod overlays;
mod ruler;
mod spans;
pub use spans::read_strips_query;
pub(crate) mod style;

use super::colors::{self, Theme, PALETTE};
use super::fill::{PaletteSlots, BUCKETS};
use super::strips::{rgba, RowStrips};
use crate::timeline::{ChartModel, Hit, SpanRef, LANE, RULER_HEIGHT};
use crate::view_model::Loaded;
use flamedrop_core::layout::{MarkerRect, SpanRect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasPattern, CanvasRenderingContext2d, HtmlCanvasElement};

const FONT: &str = "11px 'DejaVu Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const HEADER_FONT: &str =
    "600 11px 'DejaVu Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/// What one frame shows.
pub struct Frame<'a> {
    pub loaded: &'a Loaded,
    pub model: &'a ChartModel,
    pub hover: Option<Hit>,
    pub selected: Option<SpanRef>,
    /// Lane titles, by thread index.
    pub titles: &'a [String],
    pub dark: bool,
    /// Calls are coloured by their group rather than their name.
    pub by_group: bool,
    /// Spans chosen in a table: emphasised, the others dimmed.
    pub highlight: Option<&'a crate::view_model::highlight::Highlight>,
    /// Per string id: matches the search; calls that do not are greyed.
    pub marks: Option<&'a [bool]>,
    /// The selected (or being selected) time range, as view offsets.
    pub range: Option<(f64, f64)>,
    /// A lane is being dragged by its header: the pointer's canvas y.
    pub drop_at: Option<f64>,
}

/// Paints frames onto one canvas.
pub struct Painter {
    canvas: HtmlCanvasElement,
    ctx: CanvasRenderingContext2d,
    dpr: f64,
    rects: Vec<SpanRect>,
    markers: Vec<MarkerRect>,
    /// Per colour: indices into `rects` of this row batch.
    buckets: Vec<Vec<usize>>,
    /// Palette slot per string id, worked out once per name.
    colours: PaletteSlots,
    /// Text width per string id (NaN until first measured).
    widths: Vec<f32>,
    ellipsis_width: f64,
    label: String,
    hatch: Option<(bool, CanvasPattern)>,
    /// Dense rows, painted in memory.
    strips: RowStrips,
    /// `PALETTE` as RGBA bytes.
    palette_rgba: [[u8; 4]; PALETTE.len()],
    /// A counter track's pixel columns, kept between frames.
    columns: Vec<Option<f64>>,
    /// Line-dash arrays for `setLineDash`, made once.
    dashed: JsValue,
    solid: JsValue,
    /// Widths of the ruler's labels (chart font) and the lanes' titles
    /// (header font).
    ruler_widths: style::MeasuredWidths,
    header_widths: style::MeasuredWidths,
}

impl Painter {
    /// A painter for `canvas`.
    pub fn new(canvas: HtmlCanvasElement) -> Result<Painter, String> {
        // Opaque (every frame fills the background first): the browser then
        // composites the canvas without blending it over the page.
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"alpha".into(), &JsValue::FALSE);
        let ctx = canvas
            .get_context_with_context_options("2d", &options)
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
            .ok_or("this browser cannot draw on a 2D canvas")?;
        Ok(Painter {
            canvas,
            ctx,
            dpr: 1.0,
            rects: Vec::new(),
            markers: Vec::new(),
            buckets: vec![Vec::new(); BUCKETS],
            colours: PaletteSlots::default(),
            widths: Vec::new(),
            ellipsis_width: 0.0,
            label: String::new(),
            hatch: None,
            strips: RowStrips::default(),
            palette_rgba: PALETTE.map(rgba),
            columns: Vec::new(),
            dashed: dash(&[3.0, 2.0]),
            solid: dash(&[]),
            ruler_widths: style::MeasuredWidths::default(),
            header_widths: style::MeasuredWidths::default(),
        })
    }

    /// Drops the widths kept by name id (another trace's string table), and
    /// keeps those kept by text (the ruler's labels, the lanes' titles, the
    /// ellipsis), still right at the same fonts.
    pub fn forget_name_widths(&mut self) {
        self.widths.iter_mut().for_each(|w| *w = f32::NAN);
    }

    /// Drops the cached text widths (measured with a fallback font before
    /// the web font loaded).
    pub fn forget_text_widths(&mut self) {
        self.widths.iter_mut().for_each(|w| *w = f32::NAN);
        self.ellipsis_width = 0.0;
        self.ruler_widths.clear();
        self.header_widths.clear();
    }

    /// Sizes the backing store for `width` × `height` CSS px at `dpr`.
    pub fn resize(&mut self, width: f64, height: f64, dpr: f64) {
        self.dpr = if dpr.is_finite() && dpr > 0.0 {
            dpr
        } else {
            1.0
        };
        let (w, h) = (
            (width * self.dpr).round() as u32,
            (height * self.dpr).round() as u32,
        );
        if self.canvas.width() != w || self.canvas.height() != h {
            self.canvas.set_width(w.max(1));
            self.canvas.set_height(h.max(1));
            touch(&self.ctx);
        }
    }

    /// Paints a frame; true if any span was drawn.
    pub fn paint(&mut self, f: &Frame) -> bool {
        let theme = colors::theme(f.dark);
        let strings = f.loaded.trace.strings.len();
        if self.colours.reset_for(strings, f.by_group) {
            self.widths = vec![f32::NAN; strings];
        }
        let ctx = &self.ctx;
        let (width, height) = (f.model.view.width, f.model.height);
        let _ = ctx.set_transform(self.dpr, 0.0, 0.0, self.dpr, 0.0, 0.0);
        style::fill_style(ctx, theme.background);
        ctx.fill_rect(0.0, 0.0, width, height);
        style::font(ctx, FONT);
        if self.ellipsis_width == 0.0 {
            self.ellipsis_width = ctx.measure_text("…").map_or(8.0, |m| m.width());
        }
        if f.loaded.trace.time_range().is_none()
            || (f.model.lanes.is_empty() && f.model.counters.is_empty())
        {
            self.empty_message(theme);
            self.ruler(f, theme);
            return false;
        }
        self.grid(f, theme);
        self.ctx.save();
        self.ctx.begin_path();
        self.ctx
            .rect(0.0, RULER_HEIGHT, width, height - RULER_HEIGHT);
        self.ctx.clip();
        let drew = self.tracks(f, theme);
        self.outlines(f, theme);
        self.drop_line(f, theme);
        self.ctx.restore();
        self.ruler(f, theme);
        self.range(f, theme);
        self.scrollbar(f, theme);
        drew
    }

    /// The thread lanes and counter tracks on screen; true if any span was drawn.
    fn tracks(&mut self, f: &Frame, theme: &Theme) -> bool {
        let height = f.model.height;
        let mut drew = false;
        for lane in &f.model.lanes {
            let top = f.model.screen_y(lane.top);
            if top > height || top + lane.height < RULER_HEIGHT {
                continue;
            }
            drew |= self.lane(f, theme, lane, top);
        }
        for track in &f.model.counters {
            let top = f.model.screen_y(track.top);
            if top > height || top + track.height < RULER_HEIGHT {
                continue;
            }
            drew |= self.counter(f, theme, track, top);
        }
        drew
    }
}

/// Where span `s` is drawn (x, y, w, h), if it is in a lane on screen.
fn span_box(f: &Frame, s: SpanRef) -> Option<(f64, f64, f64, f64)> {
    let thread = f.loaded.trace.threads.get(s.thread)?;
    let k = s.span as usize;
    let (start, end, depth) = (
        *thread.spans.start.get(k)?,
        *thread.spans.end.get(k)?,
        *thread.spans.depth.get(k)?,
    );
    let lane = f.model.lanes.iter().find(|l| l.thread == s.thread)?;
    let view = &f.model.view;
    let x0 = view.x_of((start - f.loaded.origin) as f64).max(-2.0);
    let x1 = view
        .x_of((end - f.loaded.origin) as f64)
        .min(view.width + 2.0);
    if x1 < -1.0 || x0 > view.width + 1.0 {
        return None;
    }
    let y = f.model.screen_y(lane.row_top(usize::from(depth), &LANE));
    Some((x0, y, (x1 - x0).max(2.0), LANE.row - 1.0))
}

fn dash(segments: &[f64]) -> JsValue {
    segments
        .iter()
        .map(|&s| JsValue::from_f64(s))
        .collect::<js_sys::Array>()
        .into()
}

thread_local! {
    /// Did [`warm_text`] run (after the page loaded the chart's fonts)?
    static TEXT_WARMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Draws one pixel as a new or resized canvas already shows it (opaque
/// black), so that the browser makes the canvas's backing store now, in the
/// resize (the new chart's layout, a frame earlier), and not in the first
/// frame that paints: the loading picture's first `setTransform` took
/// 2.5–8.8 ms in profiles while two workers decoded.
pub fn touch(ctx: &CanvasRenderingContext2d) {
    ctx.clear_rect(0.0, 0.0, 1.0, 1.0);
}

/// True once [`warm_text`] drew with the chart's fonts, which the page had
/// loaded first: a chart then need not ask `document.fonts.check`, which
/// took 100–140 ms in the first partial picture's task of a big load.
pub fn text_warmed() -> bool {
    TEXT_WARMED.with(std::cell::Cell::get)
}

/// Draws a line of text in the chart's two fonts on a small offscreen
/// canvas. The first text a page draws at a font and size sets up that font
/// for canvases (20–25 ms on a loaded machine, seen in the first frame of a
/// big trace); done while the page is idle, the first frame does not pay it.
/// Called once the fonts loaded.
pub fn warm_text() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(canvas) = document
        .create_element("canvas")
        .ok()
        .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
    else {
        return;
    };
    canvas.set_width(64);
    canvas.set_height(16);
    let Some(ctx) = crate::browser::context_2d(&canvas) else {
        return;
    };
    let sample =
        "0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ _:.,()[]<>/-+#%… ▸▾—×";
    for font in [FONT, HEADER_FONT] {
        ctx.set_font(font);
        let _ = ctx.measure_text(sample);
        let _ = ctx.fill_text(sample, 0.0, 12.0);
    }
    TEXT_WARMED.with(|w| w.set(true));
}
