//! What is drawn over the spans: the hover and selection outlines, the
//! line where a dragged lane would land, the selected time range, the
//! scrollbar, and the note on an empty chart.

use super::style;
use super::{span_box, Frame, Painter};
use crate::render::colors::Theme;
use crate::timeline::{Hit, RULER_HEIGHT};

impl Painter {
    /// Hover and selection outlines.
    pub(super) fn outlines(&self, f: &Frame, theme: &Theme) {
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
            style::stroke_style(&self.ctx, colour);
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
    pub(super) fn drop_line(&self, f: &Frame, theme: &Theme) {
        let Some(y) = f.drop_at else { return };
        let top = f.model.drop_line_y(y);
        style::fill_style(&self.ctx, theme.selection);
        self.ctx.fill_rect(0.0, top - 1.0, f.model.view.width, 3.0);
    }

    /// The selected time range: shaded across the chart, edged in the
    /// selection colour.
    pub(super) fn range(&self, f: &Frame, theme: &Theme) {
        let Some((a, b)) = f.range else { return };
        let view = &f.model.view;
        let (x0, x1) = (view.x_of(a).max(-1.0), view.x_of(b).min(view.width + 1.0));
        if x1 < 0.0 || x0 > view.width {
            return;
        }
        let ctx = &self.ctx;
        ctx.set_global_alpha(0.14);
        style::fill_style(ctx, theme.selection);
        ctx.fill_rect(x0, 0.0, (x1 - x0).max(1.0), f.model.height);
        ctx.set_global_alpha(1.0);
        ctx.fill_rect(x0, 0.0, 1.0, f.model.height);
        ctx.fill_rect(x1 - 1.0, 0.0, 1.0, f.model.height);
    }

    /// A thin scrollbar when the lanes are taller than the canvas.
    pub(super) fn scrollbar(&self, f: &Frame, theme: &Theme) {
        let Some((y, thumb)) = f.model.scrollbar_thumb() else {
            return;
        };
        style::fill_style(&self.ctx, theme.scrollbar);
        self.ctx.fill_rect(f.model.view.width - 7.0, y, 5.0, thumb);
    }

    pub(super) fn empty_message(&self, theme: &Theme) {
        style::fill_style(&self.ctx, theme.muted);
        let _ = self.ctx.fill_text(
            "This trace holds no timed calls or events to draw.",
            16.0,
            RULER_HEIGHT + 28.0,
        );
    }
}
