//! The frame painter: draws the ruler, the lanes, their spans and markers,
//! hover and selection outlines and the scrollbar onto the 2D canvas.
//!
//! Per frame it asks `flamedrop_core::layout` for each visible row's
//! rectangles (sub-pixel spans already merged), then fills them colour by
//! colour on whole device pixels, so a frame costs about the pixels on
//! screen. Every buffer (rectangles, colour buckets, label text) is kept
//! between frames, and colours and text widths are computed once per name.

use super::colors::{self, Theme, PALETTE};
use super::strips::{rgba, RowStrips};
use super::text::{fit_label, MIN_LABEL_PX};
use crate::chart::{
    ChartModel, CounterTrack, HeaderButton, Hit, SpanRef, COUNTER_HEIGHT, LANE, RULER_HEIGHT,
};
use crate::state::Loaded;
use flamedrop_core::layout::counter::counter_columns_into;
use flamedrop_core::layout::{layout_instants, layout_spans, ruler, Lane, MarkerRect, SpanRect};
use flamedrop_core::model::{SPAN_OFF_CPU, SPAN_OPEN_AT_END};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasPattern, CanvasRenderingContext2d, HtmlCanvasElement};

const FONT: &str = "11px 'DejaVu Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const HEADER_FONT: &str =
    "600 11px 'DejaVu Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
/// Minimum pixels between ruler labels.
const TICK_SPACING_PX: f64 = 96.0;
/// Colour bucket for off-CPU spans (after the palette's).
const OFF_CPU: usize = PALETTE.len();
/// Colour bucket for calls that do not match the search.
const GREYED: usize = PALETTE.len() + 1;
const UNKNOWN_COLOUR: u8 = u8::MAX;
/// A lane with more rectangles than this in a frame has its plain-coloured
/// ones painted as pixel strips (see `strips`) instead of one call each.
/// Below it one `fillRect` each is cheaper (a 320 MB uftrace trace's
/// zoomed-out frames, about 2000 rectangles, were slower as strips).
const DENSE_RECTS: usize = 4096;

/// What one frame shows.
pub struct Frame<'a> {
    pub loaded: &'a Loaded,
    pub model: &'a ChartModel,
    pub hover: Option<Hit>,
    pub selected: Option<SpanRef>,
    /// Lane titles, by thread index.
    pub titles: &'a [String],
    pub dark: bool,
    /// Spans chosen in a table: emphasised, the others dimmed.
    pub highlight: Option<&'a crate::highlight::Highlight>,
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
    /// Palette slot per string id, `UNKNOWN_COLOUR` until first needed.
    colours: Vec<u8>,
    /// The colouring `colours` was filled for.
    by_group: bool,
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
            buckets: vec![Vec::new(); PALETTE.len() + 2],
            colours: Vec::new(),
            by_group: false,
            widths: Vec::new(),
            ellipsis_width: 0.0,
            label: String::new(),
            hatch: None,
            strips: RowStrips::default(),
            palette_rgba: PALETTE.map(rgba),
            columns: Vec::new(),
            dashed: dash(&[3.0, 2.0]),
            solid: dash(&[]),
        })
    }

    /// Drops the cached text widths (measured with a fallback font before
    /// the web font loaded).
    pub fn forget_text_widths(&mut self) {
        self.widths.iter_mut().for_each(|w| *w = f32::NAN);
        self.ellipsis_width = 0.0;
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
        }
    }

    /// Paints a frame; true if any span was drawn.
    pub fn paint(&mut self, f: &Frame) -> bool {
        let theme = colors::theme(f.dark);
        let strings = f.loaded.trace.strings.len();
        if self.colours.len() != strings || self.by_group != colors::colour_by_group() {
            self.by_group = colors::colour_by_group();
            self.colours = vec![UNKNOWN_COLOUR; strings];
            self.widths = vec![f32::NAN; strings];
        }
        let ctx = &self.ctx;
        let (width, height) = (f.model.view.width, f.model.height);
        let _ = ctx.set_transform(self.dpr, 0.0, 0.0, self.dpr, 0.0, 0.0);
        ctx.set_fill_style_str(theme.background);
        ctx.fill_rect(0.0, 0.0, width, height);
        ctx.set_font(FONT);
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
        let ticks = ruler::ticks(&f.model.view, TICK_SPACING_PX);
        self.grid(f, theme, &ticks);
        self.ctx.save();
        self.ctx.begin_path();
        self.ctx
            .rect(0.0, RULER_HEIGHT, width, height - RULER_HEIGHT);
        self.ctx.clip();
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
        self.outlines(f, theme);
        self.drop_line(f, theme);
        self.ctx.restore();
        self.ruler(f, theme);
        self.range(f, theme);
        self.scrollbar(f, theme);
        drew
    }

    /// Vertical grid lines under the lanes, one per ruler tick.
    fn grid(&self, f: &Frame, theme: &Theme, ticks: &ruler::Ticks) {
        let ctx = &self.ctx;
        ctx.set_fill_style_str(theme.grid);
        ctx.begin_path();
        for t in ticks.iter(&f.model.view) {
            let x = f.model.view.x_of(t).round();
            ctx.rect(x, RULER_HEIGHT, 1.0, f.model.height - RULER_HEIGHT);
        }
        ctx.fill();
    }

    /// One lane: header with title and markers, then its visible rows.
    fn lane(&mut self, f: &Frame, theme: &Theme, lane: &Lane, top: f64) -> bool {
        let Some(thread) = f.loaded.trace.threads.get(lane.thread) else {
            return false;
        };
        let Some(index) = f.loaded.index.get(lane.thread) else {
            return false;
        };
        let (width, model) = (f.model.view.width, f.model);
        let ctx = &self.ctx;
        // Header: background, then markers along its bottom, then the title
        // on its own backdrop so markers never cover it.
        ctx.set_fill_style_str(theme.lane_header);
        ctx.fill_rect(0.0, top, width, LANE.header);
        ctx.set_fill_style_str(theme.lane_separator);
        ctx.fill_rect(0.0, top, width, 1.0);
        self.markers.clear();
        layout_instants(
            &thread.instants,
            &model.view,
            f.loaded.origin,
            &mut self.markers,
        );
        if !self.markers.is_empty() {
            ctx.set_fill_style_str(theme.marker);
            ctx.begin_path();
            let base = top + LANE.header - 2.0;
            for m in &self.markers {
                let x = f64::from(m.x);
                ctx.move_to(x - 4.0, base - 7.0);
                ctx.line_to(x + 4.0, base - 7.0);
                ctx.line_to(x, base);
                ctx.close_path();
            }
            ctx.fill();
        }
        ctx.set_font(HEADER_FONT);
        let collapsed = f.model.is_collapsed(lane.thread);
        let title = f.titles.get(lane.thread).map_or("", String::as_str);
        let title = &format!("{} {title}", if collapsed { "▸" } else { "▾" });
        let title_width = ctx.measure_text(title).map_or(0.0, |m| m.width());
        ctx.set_fill_style_str(theme.lane_header);
        ctx.fill_rect(0.0, top + 1.0, title_width + 14.0, LANE.header - 1.0);
        ctx.set_fill_style_str(theme.lane_text);
        let _ = ctx.fill_text(title, 8.0, top + 15.0);
        ctx.set_font(FONT);
        header_buttons(ctx, theme, width, top);
        if lane.rows == 0 {
            ctx.set_fill_style_str(theme.muted);
            let _ = ctx.fill_text(
                if collapsed {
                    "collapsed: click the title to expand"
                } else {
                    "no calls recorded on this thread"
                },
                title_width + 20.0,
                top + 15.0,
            );
        }
        // Rows.
        let visible = model.scroll..model.scroll + model.lanes_height();
        let rows = lane.rows_between(visible.start, visible.end, &LANE);
        let first_row = rows.start;
        self.rects.clear();
        layout_spans(
            &thread.spans,
            index,
            &model.view,
            f.loaded.origin,
            rows,
            &mut self.rects,
        );
        if self.rects.is_empty() {
            return false;
        }
        self.fill_rects(f, theme, lane, thread, first_row);
        self.highlighted(f, theme, lane);
        self.labels(f, theme, lane, thread);
        true
    }

    /// One counter track: its name, unit and peak on the header line, then
    /// an area chart of the largest value in each pixel column (neighbouring
    /// columns of one height drawn as one rectangle).
    fn counter(&mut self, f: &Frame, theme: &Theme, track: &CounterTrack, top: f64) -> bool {
        let Some(counter) = f.loaded.trace.counters.get(track.counter) else {
            return false;
        };
        let Some(index) = f.loaded.counter_index.get(track.counter) else {
            return false;
        };
        counter_columns_into(
            counter,
            index,
            &f.model.view,
            f.loaded.origin,
            &mut self.columns,
        );
        let (lo, hi) = index.range();
        let ctx = &self.ctx;
        let width = f.model.view.width;
        ctx.set_fill_style_str(theme.lane_header);
        ctx.fill_rect(0.0, top, width, LANE.header);
        ctx.set_fill_style_str(theme.lane_separator);
        ctx.fill_rect(0.0, top, width, 1.0);
        ctx.set_font(HEADER_FONT);
        ctx.set_fill_style_str(theme.lane_text);
        let title = format!(
            "{} ({}) — peak {}",
            counter.name,
            counter.unit,
            trim_number(hi)
        );
        let _ = ctx.fill_text(&title, 8.0, top + 15.0);
        ctx.set_font(FONT);
        header_buttons(ctx, theme, width, top);
        let base = top + LANE.header + COUNTER_HEIGHT;
        let scale = COUNTER_HEIGHT / (hi - lo);
        ctx.set_fill_style_str(PALETTE[usize::from(colors::colour_of(&counter.name))]);
        // Tops on whole device pixels: runs of columns become aligned
        // rectangles, which the browser fills without anti-aliasing.
        let dpr = self.dpr;
        let top_of =
            |v: &Option<f64>| v.map(|v| ((base - ((v - lo) * scale).max(1.0)) * dpr).floor() / dpr);
        let mut any = false;
        let mut x = 0;
        while let Some(column) = self.columns.get(x) {
            let y = top_of(column);
            let run = self.columns[x..]
                .iter()
                .take_while(|c| top_of(c) == y)
                .count()
                .max(1);
            if let Some(y) = y {
                ctx.fill_rect(x as f64, y, run as f64, base - y);
                any = true;
            }
            x += run;
        }
        any
    }

    /// Fills this lane's rectangles, one path per colour.
    fn fill_rects(
        &mut self,
        f: &Frame,
        theme: &Theme,
        lane: &Lane,
        thread: &flamedrop_core::model::Thread,
        first_row: usize,
    ) {
        for bucket in &mut self.buckets {
            bucket.clear();
        }
        let spans = &thread.spans;
        for (i, r) in self.rects.iter().enumerate() {
            let k = r.span as usize;
            let unmatched = f.marks.is_some_and(|h| {
                let name = spans.name.get(k).copied().unwrap_or(0) as usize;
                !h.get(name).copied().unwrap_or(false)
            });
            let colour = if unmatched {
                GREYED
            } else if spans.flags.get(k).is_some_and(|&fl| fl & SPAN_OFF_CPU != 0) {
                OFF_CPU
            } else {
                let name = spans.name.get(k).copied().unwrap_or(0) as usize;
                match self.colours.get(name) {
                    Some(&c) if c != UNKNOWN_COLOUR => usize::from(c),
                    Some(_) => {
                        let c = colors::colour_of(f.loaded.trace.str(name as u32));
                        self.colours[name] = c;
                        usize::from(c)
                    }
                    None => 0,
                }
            };
            self.buckets[colour].push(i);
        }
        let hatch = if self.buckets[OFF_CPU].is_empty() {
            None
        } else {
            self.hatch(f.dark, theme)
        };
        let ctx = &self.ctx;
        let model = f.model;
        // Edges on whole device pixels: crisper, and the browser fills such
        // rectangles without anti-aliasing, which is most of a frame's cost.
        let dpr = self.dpr;
        let snap = |v: f64| (v * dpr).round() / dpr;
        let row_box = |r: &SpanRect| {
            let y = snap(model.screen_y(lane.row_top(usize::from(r.depth), &LANE)));
            // A one-pixel gap between neighbouring spans, none inside merged runs.
            let w = f64::from(r.w);
            let w = if r.count == 1 && w > 3.0 {
                w - 1.0
            } else {
                w.max(1.0)
            };
            let x = snap(f64::from(r.x));
            let w = (snap(f64::from(r.x) + w) - x).max(1.0 / dpr);
            (x, y, w, LANE.row - 1.0)
        };
        let dense = self.rects.len() > DENSE_RECTS;
        if dense {
            let rows = self
                .rects
                .iter()
                .map(|r| usize::from(r.depth) + 1)
                .max()
                .unwrap_or(first_row)
                .saturating_sub(first_row);
            self.strips.begin(self.canvas.width() as usize, rows);
            for (colour, bucket) in self.buckets.iter().enumerate() {
                let rgba = match colour {
                    OFF_CPU => continue,
                    GREYED => rgba(theme.grid),
                    _ => self.palette_rgba[colour],
                };
                for &i in bucket {
                    let r = &self.rects[i];
                    let (x, _, w, _) = row_box(r);
                    let row = usize::from(r.depth).saturating_sub(first_row);
                    self.strips.fill(row, x * dpr, (x + w) * dpr, rgba);
                }
            }
            let row_top = |row: usize| snap(model.screen_y(lane.row_top(first_row + row, &LANE)));
            self.strips.draw(ctx, dpr, row_top, LANE.row - 1.0);
        }
        for (colour, bucket) in self.buckets.iter().enumerate() {
            if bucket.is_empty() || (dense && colour != OFF_CPU) {
                continue;
            }
            ctx.set_fill_style_str(match colour {
                OFF_CPU => theme.off_cpu,
                GREYED => theme.grid,
                _ => PALETTE[colour],
            });
            if colour != OFF_CPU {
                // One fillRect per rectangle: the browser's fast path for
                // aligned rectangles, where one path of thousands of
                // rectangles is scan-converted as a whole. Rectangles of
                // this colour that touch or overlap on one row (narrow
                // calls, drawn without a gap) are filled as one: the same
                // pixels, with far fewer calls when zoomed out.
                let mut run: Option<(f64, f64, f64, f64)> = None;
                for &i in bucket {
                    let (x, y, w, h) = row_box(&self.rects[i]);
                    if let Some((rx, ry, rw, _)) = &mut run {
                        if *ry == y && x >= *rx && x <= *rx + *rw {
                            *rw = rw.max(x + w - *rx);
                            continue;
                        }
                    }
                    if let Some((rx, ry, rw, rh)) = run.replace((x, y, w, h)) {
                        ctx.fill_rect(rx, ry, rw, rh);
                    }
                }
                if let Some((rx, ry, rw, rh)) = run {
                    ctx.fill_rect(rx, ry, rw, rh);
                }
                continue;
            }
            ctx.begin_path();
            for &i in bucket {
                let (x, y, w, h) = row_box(&self.rects[i]);
                ctx.rect(x, y, w, h);
            }
            ctx.fill();
            if let Some(pattern) = &hatch {
                ctx.set_fill_style_canvas_pattern(pattern);
                ctx.fill();
            }
        }
        // Calls that never returned: a dashed outline in the warning colour.
        let mut any_open = false;
        for r in &self.rects {
            if spans
                .flags
                .get(r.span as usize)
                .is_some_and(|&fl| fl & SPAN_OPEN_AT_END != 0)
                && r.count == 1
            {
                if !any_open {
                    ctx.set_stroke_style_str(theme.open_outline);
                    ctx.set_line_width(1.0);
                    let _ = ctx.set_line_dash(&self.dashed);
                    any_open = true;
                }
                let (x, y, w, h) = row_box(r);
                ctx.stroke_rect(x + 0.5, y + 0.5, (w - 1.0).max(0.0), h - 1.0);
            }
        }
        if any_open {
            let _ = ctx.set_line_dash(&self.solid);
        }
    }

    /// With a table row chosen: dims this lane's other spans and redraws
    /// the chosen ones on top (at least 2 px wide) with an outline, so even
    /// calls merged into a sub-pixel run stay visible.
    fn highlighted(&mut self, f: &Frame, theme: &Theme, lane: &Lane) {
        let Some(highlight) = f.highlight else { return };
        let ctx = &self.ctx;
        let model = f.model;
        ctx.set_global_alpha(0.72);
        ctx.set_fill_style_str(theme.background);
        ctx.begin_path();
        for r in &self.rects {
            if r.count == 1 && highlight.contains(lane.thread, r.span) {
                continue;
            }
            let y = model.screen_y(lane.row_top(usize::from(r.depth), &LANE));
            ctx.rect(f64::from(r.x), y, f64::from(r.w).max(1.0), LANE.row - 1.0);
        }
        ctx.fill();
        ctx.set_global_alpha(1.0);
        let Some(spans) = highlight.spans.get(lane.thread) else {
            return;
        };
        ctx.set_stroke_style_str(theme.selection);
        ctx.set_line_width(1.5);
        for &span in spans {
            let Some((x, y, w, h)) = span_box(
                f,
                SpanRef {
                    thread: lane.thread,
                    span,
                },
            ) else {
                continue;
            };
            let name = f
                .loaded
                .trace
                .threads
                .get(lane.thread)
                .and_then(|t| t.spans.name.get(span as usize));
            let colour = name.map_or(0, |&n| {
                usize::from(colors::colour_of(f.loaded.trace.str(n)))
            });
            ctx.set_fill_style_str(PALETTE[colour % PALETTE.len()]);
            ctx.fill_rect(x, y, w, h);
            ctx.stroke_rect(x + 0.75, y + 0.75, (w - 1.5).max(0.5), h - 1.5);
        }
    }

    /// Names inside the rectangles wide enough for text.
    fn labels(
        &mut self,
        f: &Frame,
        theme: &Theme,
        lane: &Lane,
        thread: &flamedrop_core::model::Thread,
    ) {
        let width = f.model.view.width;
        self.ctx.set_fill_style_str(theme.span_text);
        for i in 0..self.rects.len() {
            let r = self.rects[i];
            if r.count != 1 || f64::from(r.w) < MIN_LABEL_PX {
                continue;
            }
            let left = f64::from(r.x).max(0.0);
            let right = (f64::from(r.x) + f64::from(r.w)).min(width);
            let room = right - left - 8.0;
            let Some(&name) = thread.spans.name.get(r.span as usize) else {
                continue;
            };
            let text = f.loaded.trace.str(name);
            let full = self.text_width(name, text);
            if !fit_label(text, full, room, self.ellipsis_width, &mut self.label) {
                continue;
            }
            let y = f.model.screen_y(lane.row_top(usize::from(r.depth), &LANE)) + 12.5;
            let _ = self
                .ctx
                .fill_text_with_max_width(&self.label, left + 4.0, y, room.max(1.0));
        }
    }

    /// The width of a name at the chart font, measured once.
    fn text_width(&mut self, id: u32, text: &str) -> f64 {
        match self.widths.get(id as usize) {
            Some(w) if !w.is_nan() => f64::from(*w),
            _ => {
                let w = self.ctx.measure_text(text).map_or(0.0, |m| m.width());
                if let Some(slot) = self.widths.get_mut(id as usize) {
                    *slot = w as f32;
                }
                w
            }
        }
    }

    /// Hover and selection outlines.
    fn outlines(&self, f: &Frame, theme: &Theme) {
        let hovered = match f.hover {
            Some(Hit::Span(s)) if Some(s) != f.selected => Some(s),
            _ => None,
        };
        for (span, colour, line) in [
            (hovered, theme.hover, 1.0),
            (f.selected, theme.selection, 2.0),
        ] {
            let Some(span) = span else { continue };
            let Some((x, y, w, h)) = span_box(f, span) else {
                continue;
            };
            self.ctx.set_stroke_style_str(colour);
            self.ctx.set_line_width(line);
            self.ctx.stroke_rect(
                x + line / 2.0,
                y + line / 2.0,
                (w - line).max(1.0),
                h - line,
            );
        }
    }

    /// Where a lane dragged by its header would land: a line at the top of
    /// the lane under the pointer.
    fn drop_line(&self, f: &Frame, theme: &Theme) {
        let Some(y) = f.drop_at else { return };
        let lane_y = y - RULER_HEIGHT + f.model.scroll;
        let top = f
            .model
            .lanes
            .iter()
            .map(|l| l.top)
            .chain(f.model.counters.iter().map(|c| c.top))
            .filter(|&t| t <= lane_y)
            .fold(0.0, f64::max);
        self.ctx.set_fill_style_str(theme.selection);
        self.ctx
            .fill_rect(0.0, f.model.screen_y(top) - 1.0, f.model.view.width, 3.0);
    }

    /// The time ruler across the top.
    fn ruler(&mut self, f: &Frame, theme: &Theme) {
        let ctx = &self.ctx;
        let view = &f.model.view;
        ctx.set_fill_style_str(theme.ruler);
        ctx.fill_rect(0.0, 0.0, view.width, RULER_HEIGHT);
        ctx.set_fill_style_str(theme.lane_separator);
        ctx.fill_rect(0.0, RULER_HEIGHT - 1.0, view.width, 1.0);
        if f.loaded.trace.time_range().is_none() {
            return;
        }
        let ticks = ruler::ticks(view, TICK_SPACING_PX);
        ctx.set_font(FONT);
        for t in ticks.iter(view) {
            let x = view.x_of(t).round();
            ctx.set_fill_style_str(theme.lane_separator);
            ctx.fill_rect(x, RULER_HEIGHT - 7.0, 1.0, 6.0);
            ruler::tick_label(t, ticks.step, f.loaded.unit(), &mut self.label);
            // A label cut by the right edge reads as a different number: leave it out.
            let label_width = ctx.measure_text(&self.label).map_or(0.0, |m| m.width());
            if x + 4.0 + label_width > view.width - 2.0 {
                continue;
            }
            ctx.set_fill_style_str(theme.ruler_text);
            let _ = ctx.fill_text(&self.label, x + 4.0, 15.0);
        }
        // A logical clock's ticks are bare numbers: name the unit once, at
        // the right end on the ruler's own backdrop.
        if let Some(unit) = crate::chart::ruler_unit_label(f.loaded.unit()) {
            let w = ctx.measure_text(unit).map_or(40.0, |m| m.width());
            let x = view.width - w - 10.0;
            ctx.set_fill_style_str(theme.ruler);
            ctx.fill_rect(x - 6.0, 1.0, w + 16.0, RULER_HEIGHT - 2.0);
            ctx.set_fill_style_str(theme.muted);
            let _ = ctx.fill_text(unit, x, 15.0);
        }
    }

    /// The selected time range: shaded across the chart, edged in the
    /// selection colour.
    fn range(&self, f: &Frame, theme: &Theme) {
        let Some((a, b)) = f.range else { return };
        let view = &f.model.view;
        let (x0, x1) = (view.x_of(a).max(-1.0), view.x_of(b).min(view.width + 1.0));
        if x1 < 0.0 || x0 > view.width {
            return;
        }
        let ctx = &self.ctx;
        ctx.set_global_alpha(0.14);
        ctx.set_fill_style_str(theme.selection);
        ctx.fill_rect(x0, 0.0, (x1 - x0).max(1.0), f.model.height);
        ctx.set_global_alpha(1.0);
        ctx.fill_rect(x0, 0.0, 1.0, f.model.height);
        ctx.fill_rect(x1 - 1.0, 0.0, 1.0, f.model.height);
    }

    /// A thin scrollbar when the lanes are taller than the canvas.
    fn scrollbar(&self, f: &Frame, theme: &Theme) {
        let m = f.model;
        let (content, room) = (m.content_height(), m.lanes_height());
        if content <= room || content <= 0.0 {
            return;
        }
        let thumb = (room * room / content).max(24.0);
        let y = RULER_HEIGHT + (room - thumb) * (m.scroll / m.max_scroll().max(1.0));
        self.ctx.set_fill_style_str(theme.scrollbar);
        self.ctx.fill_rect(m.view.width - 7.0, y, 5.0, thumb);
    }

    fn empty_message(&self, theme: &Theme) {
        self.ctx.set_fill_style_str(theme.muted);
        let _ = self.ctx.fill_text(
            "This trace holds no timed calls or events to draw.",
            16.0,
            RULER_HEIGHT + 28.0,
        );
    }

    /// The diagonal hatch that marks off-CPU time, made once per theme.
    fn hatch(&mut self, dark: bool, theme: &Theme) -> Option<CanvasPattern> {
        if let Some((for_dark, pattern)) = &self.hatch {
            if *for_dark == dark {
                return Some(pattern.clone());
            }
        }
        let document = web_sys::window()?.document()?;
        let tile: HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
        tile.set_width(6);
        tile.set_height(6);
        let g: CanvasRenderingContext2d = tile.get_context("2d").ok()??.dyn_into().ok()?;
        g.set_stroke_style_str(theme.hatch);
        g.set_line_width(1.0);
        g.begin_path();
        g.move_to(0.0, 6.0);
        g.line_to(6.0, 0.0);
        g.stroke();
        let pattern = self
            .ctx
            .create_pattern_with_html_canvas_element(&tile, "repeat")
            .ok()??;
        self.hatch = Some((dark, pattern.clone()));
        Some(pattern)
    }
}

/// The move-up, move-down and hide buttons at the right end of a header.
fn header_buttons(ctx: &CanvasRenderingContext2d, theme: &Theme, width: f64, top: f64) {
    if !HeaderButton::shown(width) {
        return;
    }
    let left = HeaderButton::Up.x(width) - 2.0;
    ctx.set_fill_style_str(theme.lane_header);
    ctx.fill_rect(left, top + 1.0, width - left, LANE.header - 1.0);
    ctx.set_fill_style_str(theme.muted);
    for b in HeaderButton::ALL {
        let _ = ctx.fill_text(b.glyph(), b.x(width) + 5.0, top + 15.0);
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

/// A counter value without needless decimals (`1536`, `12.5`).
fn trim_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn dash(segments: &[f64]) -> JsValue {
    segments
        .iter()
        .map(|&s| JsValue::from_f64(s))
        .collect::<js_sys::Array>()
        .into()
}

/// Draws a line of text in the chart's two fonts on a small offscreen
/// canvas. The first text a page draws at a font and size sets up that font
/// for canvases (20–25 ms on a loaded machine, seen in the first frame of a
/// big trace); done while the page is idle, the first frame does not pay it.
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
}
