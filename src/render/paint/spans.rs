//! A lane's rows: the span rectangles, filled colour by colour (the colour
//! rules are `render::fill`'s), the emphasis of spans chosen in a table, and
//! the names inside rectangles wide enough for them.
//!
//! Three ways to fill, by what is cheapest for the browser: a dense lane's
//! plain rectangles become pixel strips (`render::strips`), the rest one
//! `fillRect` per run of touching rectangles, and off-CPU time one path that
//! is filled, then hatched.

use super::style;
use super::{span_box, Frame, Painter};
use crate::render::colors::{self, Theme, PALETTE};
use crate::render::fill::{span_fill, RowBoxes, GREYED, OFF_CPU};
use crate::render::strips::rgba;
use crate::render::text::{fit_label, MIN_LABEL_PX};
use crate::timeline::{SpanRef, LANE};
use flamedrop_core::layout::{layout_spans, Lane, SpanRect, ThreadIndex};
use flamedrop_core::model::{Thread, SPAN_OPEN_AT_END};
use std::cell::Cell;
use wasm_bindgen::JsCast;
use web_sys::{CanvasPattern, CanvasRenderingContext2d, HtmlCanvasElement};

/// A lane with more rectangles than this in a frame has its plain-coloured
/// ones painted as pixel strips (see `strips`) instead of one call each.
/// Below it one `fillRect` each is cheaper (a 320 MB uftrace trace's
/// zoomed-out frames, about 2000 rectangles, were slower as strips).
const DENSE_RECTS: usize = 4096;

thread_local! {
    /// The threshold in use: [`DENSE_RECTS`], or `?strips=N` for comparisons.
    static DENSE: Cell<usize> = const { Cell::new(DENSE_RECTS) };
}

/// Reads `?strips=N` (a lane with over N rectangles in a frame is painted as
/// strips), for comparing thresholds in one build; called when the page
/// starts, as opening files clears the query.
pub fn read_strips_query() {
    if let Some(n) = crate::browser::query_param("strips").and_then(|v| v.parse().ok()) {
        DENSE.with(|d| d.set(n));
    }
}

impl Painter {
    /// The lane's rows inside the visible area; true if any span was drawn.
    pub(super) fn rows(
        &mut self,
        f: &Frame,
        theme: &Theme,
        lane: &Lane,
        thread: &Thread,
        index: &ThreadIndex,
    ) -> bool {
        let model = f.model;
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

    /// Fills this lane's rectangles, one colour at a time.
    fn fill_rects(
        &mut self,
        f: &Frame,
        theme: &Theme,
        lane: &Lane,
        thread: &Thread,
        first_row: usize,
    ) {
        self.sort_by_colour(f, thread);
        let hatch = if self.buckets[OFF_CPU].is_empty() {
            None
        } else {
            self.hatch(f.dark, theme)
        };
        let boxes = RowBoxes {
            model: f.model,
            lane,
            dpr: self.dpr,
        };
        let dense = self.rects.len() > DENSE.with(Cell::get);
        if dense {
            self.fill_strips(theme, &boxes, first_row);
        }
        let ctx = &self.ctx;
        for (colour, bucket) in self.buckets.iter().enumerate() {
            if bucket.is_empty() || (dense && colour != OFF_CPU) {
                continue;
            }
            style::fill_style(
                ctx,
                match colour {
                    OFF_CPU => theme.off_cpu,
                    GREYED => theme.grid,
                    _ => PALETTE[colour],
                },
            );
            if colour == OFF_CPU {
                fill_hatched(ctx, &self.rects, bucket, &boxes, hatch.as_ref());
            } else {
                fill_runs(ctx, &self.rects, bucket, &boxes);
            }
        }
        self.outline_open(theme, thread, &boxes);
    }

    /// Puts each rectangle's index into its colour's bucket.
    fn sort_by_colour(&mut self, f: &Frame, thread: &Thread) {
        for bucket in &mut self.buckets {
            bucket.clear();
        }
        let spans = &thread.spans;
        for (i, r) in self.rects.iter().enumerate() {
            let k = r.span as usize;
            let name = spans.name.get(k).copied().unwrap_or(0);
            let flags = spans.flags.get(k).copied().unwrap_or(0);
            let fill = span_fill(flags, name, f.marks);
            let colour = self.colours.bucket(fill, &f.loaded.trace);
            self.buckets[colour].push(i);
        }
    }

    /// A dense lane's plain-coloured rectangles as pixel strips.
    fn fill_strips(&mut self, theme: &Theme, boxes: &RowBoxes, first_row: usize) {
        let dpr = self.dpr;
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
                let (x, _, w, _) = boxes.span(r);
                let row = usize::from(r.depth).saturating_sub(first_row);
                self.strips.fill(row, x * dpr, (x + w) * dpr, rgba);
            }
        }
        let row_top = |row: usize| boxes.row_top(first_row + row);
        self.strips.draw(&self.ctx, dpr, row_top, LANE.row - 1.0);
    }

    /// Calls that never returned: a dashed outline in the warning colour.
    fn outline_open(&self, theme: &Theme, thread: &Thread, boxes: &RowBoxes) {
        let ctx = &self.ctx;
        let mut any_open = false;
        for r in &self.rects {
            if thread
                .spans
                .flags
                .get(r.span as usize)
                .is_some_and(|&fl| fl & SPAN_OPEN_AT_END != 0)
                && r.count == 1
            {
                if !any_open {
                    style::stroke_style(ctx, theme.open_outline);
                    ctx.set_line_width(1.0);
                    let _ = ctx.set_line_dash(&self.dashed);
                    any_open = true;
                }
                let (x, y, w, h) = boxes.span(r);
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
        style::fill_style(ctx, theme.background);
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
        style::stroke_style(ctx, theme.selection);
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
                usize::from(colors::colour_of(f.loaded.trace.str(n), f.by_group))
            });
            style::fill_style(ctx, PALETTE[colour % PALETTE.len()]);
            ctx.fill_rect(x, y, w, h);
            ctx.stroke_rect(x + 0.75, y + 0.75, (w - 1.5).max(0.5), h - 1.5);
        }
    }

    /// Names inside the rectangles wide enough for text.
    fn labels(&mut self, f: &Frame, theme: &Theme, lane: &Lane, thread: &Thread) {
        let width = f.model.view.width;
        style::fill_style(&self.ctx, theme.span_text);
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
            // A whole name fits by its measured width: `maxWidth` would only
            // make the browser measure it again.
            let _ = if full <= room {
                self.ctx.fill_text(&self.label, left + 4.0, y)
            } else {
                self.ctx
                    .fill_text_with_max_width(&self.label, left + 4.0, y, room.max(1.0))
            };
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
        style::stroke_style(&g, theme.hatch);
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

/// One `fillRect` per rectangle: the browser's fast path for aligned
/// rectangles, where one path of thousands of rectangles is scan-converted
/// as a whole. Rectangles of this colour that touch or overlap on one row
/// (narrow calls, drawn without a gap) are filled as one: the same pixels,
/// with far fewer calls when zoomed out.
fn fill_runs(
    ctx: &CanvasRenderingContext2d,
    rects: &[SpanRect],
    bucket: &[usize],
    boxes: &RowBoxes,
) {
    let mut run: Option<(f64, f64, f64, f64)> = None;
    for &i in bucket {
        let (x, y, w, h) = boxes.span(&rects[i]);
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
}

/// Off-CPU rectangles as one path, filled, then filled again with the hatch.
fn fill_hatched(
    ctx: &CanvasRenderingContext2d,
    rects: &[SpanRect],
    bucket: &[usize],
    boxes: &RowBoxes,
    hatch: Option<&CanvasPattern>,
) {
    ctx.begin_path();
    for &i in bucket {
        let (x, y, w, h) = boxes.span(&rects[i]);
        ctx.rect(x, y, w, h);
    }
    ctx.fill();
    if let Some(pattern) = hatch {
        ctx.set_fill_style_canvas_pattern(pattern);
        ctx.fill();
    }
}
