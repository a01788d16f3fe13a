//! A thread lane's header line: the band, the instant markers along its
//! bottom, the title (with the collapse arrow) and the move-up, move-down and
//! hide buttons; counter tracks share the band and the buttons.

use super::style;
use super::{Frame, Painter, FONT, HEADER_FONT};
use crate::render::colors::Theme;
use crate::timeline::{HeaderButton, LANE};
use flamedrop_core::layout::{layout_instants, Lane};
use flamedrop_core::model::Thread;
use web_sys::CanvasRenderingContext2d;

impl Painter {
    /// One lane: header with title and markers, then its visible rows.
    pub(super) fn lane(&mut self, f: &Frame, theme: &Theme, lane: &Lane, top: f64) -> bool {
        let Some(thread) = f.loaded.trace.threads.get(lane.thread) else {
            return false;
        };
        let Some(index) = f.loaded.index.get(lane.thread) else {
            return false;
        };
        self.lane_header(f, theme, lane, thread, top);
        self.rows(f, theme, lane, thread, index)
    }

    /// Header: background, then markers along its bottom, then the title
    /// on its own backdrop so markers never cover it.
    fn lane_header(&mut self, f: &Frame, theme: &Theme, lane: &Lane, thread: &Thread, top: f64) {
        let width = f.model.view.width;
        header_band(&self.ctx, theme, width, top);
        self.markers(f, theme, thread, top);
        let ctx = &self.ctx;
        style::font(ctx, HEADER_FONT);
        let collapsed = f.model.is_collapsed(lane.thread);
        let title = f.titles.get(lane.thread).map_or("", String::as_str);
        let title = &format!("{} {title}", if collapsed { "▸" } else { "▾" });
        let title_width = self.header_widths.width(ctx, title);
        style::fill_style(ctx, theme.lane_header);
        ctx.fill_rect(0.0, top + 1.0, title_width + 14.0, LANE.header - 1.0);
        style::fill_style(ctx, theme.lane_text);
        let _ = ctx.fill_text(title, 8.0, top + 15.0);
        style::font(ctx, FONT);
        header_buttons(ctx, theme, width, top);
        if lane.rows == 0 {
            style::fill_style(ctx, theme.muted);
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
    }

    /// The thread's instants in the window, as small triangles along the
    /// bottom of its header.
    fn markers(&mut self, f: &Frame, theme: &Theme, thread: &Thread, top: f64) {
        self.markers.clear();
        layout_instants(
            &thread.instants,
            &f.model.view,
            f.loaded.origin,
            &mut self.markers,
        );
        if self.markers.is_empty() {
            return;
        }
        let ctx = &self.ctx;
        style::fill_style(ctx, theme.marker);
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
}

/// A header line's background with the separator along its top.
pub(super) fn header_band(ctx: &CanvasRenderingContext2d, theme: &Theme, width: f64, top: f64) {
    style::fill_style(ctx, theme.lane_header);
    ctx.fill_rect(0.0, top, width, LANE.header);
    style::fill_style(ctx, theme.lane_separator);
    ctx.fill_rect(0.0, top, width, 1.0);
}

/// The move-up, move-down and hide buttons at the right end of a header.
pub(super) fn header_buttons(ctx: &CanvasRenderingContext2d, theme: &Theme, width: f64, top: f64) {
    if !HeaderButton::shown(width) {
        return;
    }
    let left = HeaderButton::Up.x(width) - 2.0;
    style::fill_style(ctx, theme.lane_header);
    ctx.fill_rect(left, top + 1.0, width - left, LANE.header - 1.0);
    style::fill_style(ctx, theme.muted);
    for b in HeaderButton::ALL {
        style::fill_static_text(ctx, b.glyph(), b.x(width) + 5.0, top + 15.0);
    }
}
