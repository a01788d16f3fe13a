//! Painting the Files, Network and Threads charts: a time axis, one row per
//! file / socket / sync object with its label, its intervals as bars
//! coloured by state (open, read, write, wait, held; the Dynamic Analyzer's
//! orange for held and grey for wait), its calls as ticks (failed ones
//! red), the picked call and the rows of the picked sync object outlined.

use super::colors::theme;
use crate::view_model::activity::{row_label, row_top, Axis, AXIS_HEIGHT, LABEL_WIDTH, ROW_HEIGHT};
use crate::view_model::text::duration;
use crate::view_model::Loaded;
use flamedrop_core::analysis::activity::{Activity, State};
use web_sys::CanvasRenderingContext2d;

const FONT: &str = "11px 'DejaVu Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/// The fill of a state (also the legend's, in `activity.css`).
pub fn state_fill(state: State) -> &'static str {
    match state {
        State::Open => "#a5c8f0",
        State::Read => "#2f9e5b",
        State::Write => "#d9622b",
        State::Wait => "#9aa0a9",
        State::Held => "#f0a020",
    }
}

/// Bars of a state: open is the row's background band, the rest are drawn
/// over it, narrower.
fn bar_box(state: State, top: f64) -> (f64, f64) {
    match state {
        State::Open => (top + 3.0, ROW_HEIGHT - 6.0),
        _ => (top + 6.0, ROW_HEIGHT - 12.0),
    }
}

/// What one frame shows.
pub struct ActivityFrame<'a> {
    pub loaded: &'a Loaded,
    pub activity: &'a Activity,
    pub axis: Axis,
    pub height: f64,
    pub dark: bool,
    /// Per row: on the picked sync object (drawn highlighted).
    pub highlighted: &'a [bool],
    /// The picked call (index into `activity.marks`).
    pub picked: Option<usize>,
}

/// Paints the whole chart.
pub fn paint(ctx: &CanvasRenderingContext2d, f: &ActivityFrame) {
    let t = theme(f.dark);
    let width = f.axis.width;
    ctx.set_fill_style_str(t.background);
    ctx.fill_rect(0.0, 0.0, width, f.height);
    ctx.set_font(FONT);
    rows(ctx, f);
    axis(ctx, f);
    intervals(ctx, f);
    marks(ctx, f);
}

/// The row bands, separators, labels and highlights.
fn rows(ctx: &CanvasRenderingContext2d, f: &ActivityFrame) {
    let t = theme(f.dark);
    for row in 0..f.activity.rows.len() {
        let top = row_top(row);
        let lit = f.highlighted.get(row).copied().unwrap_or(false);
        ctx.set_fill_style_str(if lit { t.grid } else { t.lane_header });
        ctx.fill_rect(0.0, top, LABEL_WIDTH, ROW_HEIGHT);
        if lit {
            ctx.set_fill_style_str(t.selection);
            ctx.fill_rect(0.0, top, 3.0, ROW_HEIGHT);
            ctx.set_global_alpha(0.08);
            ctx.fill_rect(LABEL_WIDTH, top, f.axis.width - LABEL_WIDTH, ROW_HEIGHT);
            ctx.set_global_alpha(1.0);
        }
        ctx.set_fill_style_str(t.lane_separator);
        ctx.fill_rect(0.0, top + ROW_HEIGHT - 1.0, f.axis.width, 1.0);
        ctx.set_fill_style_str(t.lane_text);
        let mut label = row_label(f.loaded, f.activity, row);
        while label.chars().count() > 4
            && ctx.measure_text(&label).map_or(0.0, |m| m.width()) > LABEL_WIDTH - 14.0
        {
            let keep: String = label.chars().take(label.chars().count() - 2).collect();
            label = format!("{}…", keep.trim_end_matches('…'));
        }
        let _ = ctx.fill_text(&label, 8.0, top + ROW_HEIGHT / 2.0 + 4.0);
    }
    ctx.set_fill_style_str(t.lane_separator);
    ctx.fill_rect(LABEL_WIDTH - 1.0, 0.0, 1.0, f.height);
}

/// The time axis with its ticks and grid lines.
fn axis(ctx: &CanvasRenderingContext2d, f: &ActivityFrame) {
    let t = theme(f.dark);
    ctx.set_fill_style_str(t.ruler);
    ctx.fill_rect(0.0, 0.0, f.axis.width, AXIS_HEIGHT);
    ctx.set_fill_style_str(t.lane_separator);
    ctx.fill_rect(0.0, AXIS_HEIGHT - 1.0, f.axis.width, 1.0);
    let count = ((f.axis.width - LABEL_WIDTH) / 110.0).max(1.0) as usize;
    for tick in f.axis.ticks(f.loaded.origin, count) {
        let x = f.axis.x(tick).round();
        ctx.set_fill_style_str(t.grid);
        ctx.fill_rect(x, AXIS_HEIGHT, 1.0, f.height - AXIS_HEIGHT);
        ctx.set_fill_style_str(t.ruler_text);
        let label = duration(tick - f.loaded.origin, f.loaded.unit());
        if x + 60.0 < f.axis.width {
            let _ = ctx.fill_text(&label, x + 3.0, 15.0);
        }
    }
    ctx.set_fill_style_str(t.ruler_text);
    let _ = ctx.fill_text("time since the trace's start", 8.0, 15.0);
}

/// The intervals, clipped to the plot.
fn intervals(ctx: &CanvasRenderingContext2d, f: &ActivityFrame) {
    let t = theme(f.dark);
    let right = f.axis.width;
    for i in &f.activity.intervals {
        if i.end < f.axis.from || i.start > f.axis.to {
            continue;
        }
        let x0 = f.axis.x(i.start).max(LABEL_WIDTH);
        let x1 = f.axis.x(i.end).min(right);
        let (top, height) = bar_box(i.state, row_top(i.row as usize));
        ctx.set_fill_style_str(state_fill(i.state));
        ctx.fill_rect(x0, top, (x1 - x0).max(1.5), height);
        if i.open_at_end {
            ctx.set_stroke_style_str(t.open_outline);
            ctx.stroke_rect(x0 + 0.5, top + 0.5, (x1 - x0 - 1.0).max(0.5), height - 1.0);
        }
    }
}

/// The calls: a tick per call, red when it failed; the picked one ringed.
fn marks(ctx: &CanvasRenderingContext2d, f: &ActivityFrame) {
    let t = theme(f.dark);
    for (at, m) in f.activity.marks.iter().enumerate() {
        if m.time < f.axis.from || m.time > f.axis.to {
            continue;
        }
        let x = f.axis.x(m.time).round();
        let top = row_top(m.row as usize);
        ctx.set_fill_style_str(if m.failed { "#dc2626" } else { t.lane_text });
        if m.failed {
            ctx.fill_rect(x - 3.0, top + 3.0, 7.0, ROW_HEIGHT - 6.0);
        } else {
            ctx.fill_rect(x, top + 2.0, 1.0, ROW_HEIGHT - 4.0);
        }
        if f.picked == Some(at) {
            ctx.set_stroke_style_str(t.selection);
            ctx.set_line_width(2.0);
            ctx.stroke_rect(x - 4.0, top + 1.0, 9.0, ROW_HEIGHT - 2.0);
            ctx.set_line_width(1.0);
        }
    }
}
