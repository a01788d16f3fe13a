//! The time ruler across the top of the chart, and the grid lines its ticks
//! drop across the lanes.

use super::style;
use super::{Frame, Painter, FONT};
use crate::render::colors::Theme;
use crate::timeline::RULER_HEIGHT;
use flamedrop_core::layout::ruler;

/// Minimum pixels between ruler labels.
const TICK_SPACING_PX: f64 = 96.0;

impl Painter {
    /// Vertical grid lines under the lanes, one per ruler tick.
    pub(super) fn grid(&self, f: &Frame, theme: &Theme) {
        let ticks = ruler::ticks(&f.model.view, TICK_SPACING_PX);
        let ctx = &self.ctx;
        style::fill_style(ctx, theme.grid);
        ctx.begin_path();
        for t in ticks.iter(&f.model.view) {
            let x = f.model.view.x_of(t).round();
            ctx.rect(x, RULER_HEIGHT, 1.0, f.model.height - RULER_HEIGHT);
        }
        ctx.fill();
    }

    /// The time ruler across the top.
    pub(super) fn ruler(&mut self, f: &Frame, theme: &Theme) {
        let ctx = &self.ctx;
        let view = &f.model.view;
        style::fill_style(ctx, theme.ruler);
        ctx.fill_rect(0.0, 0.0, view.width, RULER_HEIGHT);
        style::fill_style(ctx, theme.lane_separator);
        ctx.fill_rect(0.0, RULER_HEIGHT - 1.0, view.width, 1.0);
        if f.loaded.trace.time_range().is_none() {
            return;
        }
        let ticks = ruler::ticks(view, TICK_SPACING_PX);
        style::font(ctx, FONT);
        for t in ticks.iter(view) {
            let x = view.x_of(t).round();
            style::fill_style(ctx, theme.lane_separator);
            ctx.fill_rect(x, RULER_HEIGHT - 7.0, 1.0, 6.0);
            ruler::tick_label(t, ticks.step, f.loaded.unit(), &mut self.label);
            // A label cut by the right edge reads as a different number: leave it out.
            let label_width = self.ruler_widths.width(ctx, &self.label);
            if x + 4.0 + label_width > view.width - 2.0 {
                continue;
            }
            style::fill_style(ctx, theme.ruler_text);
            let _ = ctx.fill_text(&self.label, x + 4.0, 15.0);
        }
        // A logical clock's ticks are bare numbers: name the unit once, at
        // the right end on the ruler's own backdrop.
        if let Some(unit) = crate::timeline::ruler_unit_label(f.loaded.unit()) {
            let w = self.ruler_widths.width(ctx, unit);
            let x = view.width - w - 10.0;
            style::fill_style(ctx, theme.ruler);
            ctx.fill_rect(x - 6.0, 1.0, w + 16.0, RULER_HEIGHT - 2.0);
            style::fill_style(ctx, theme.muted);
            let _ = ctx.fill_text(unit, x, 15.0);
        }
    }
}
