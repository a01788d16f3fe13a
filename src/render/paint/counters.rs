//! A counter track: its name, unit and peak on the header line, and the
//! area chart of its values below (as the bars of `canvas::bars`).

use super::lanes::{header_band, header_buttons};
use super::style;
use super::{Frame, Painter, FONT, HEADER_FONT};
use crate::render::bars::{for_each_bar, BarScale};
use crate::render::colors::{self, Theme, PALETTE};
use crate::render::text::trim_number;
use crate::timeline::{CounterTrack, COUNTER_HEIGHT, LANE};
use flamedrop_core::layout::counter::counter_columns_into;

impl Painter {
    /// One counter track: its name, unit and peak on the header line, then
    /// an area chart of the largest value in each pixel column (neighbouring
    /// columns of one height drawn as one rectangle).
    pub(super) fn counter(
        &mut self,
        f: &Frame,
        theme: &Theme,
        track: &CounterTrack,
        top: f64,
    ) -> bool {
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
        header_band(ctx, theme, width, top);
        style::font(ctx, HEADER_FONT);
        style::fill_style(ctx, theme.lane_text);
        let title = format!(
            "{} ({}) — peak {}",
            counter.name,
            counter.unit,
            trim_number(hi)
        );
        let _ = ctx.fill_text(&title, 8.0, top + 15.0);
        style::font(ctx, FONT);
        header_buttons(ctx, theme, width, top);
        let base = top + LANE.header + COUNTER_HEIGHT;
        style::fill_style(
            ctx,
            PALETTE[usize::from(colors::colour_of(&counter.name, f.by_group))],
        );
        let scale = BarScale {
            base,
            lo,
            scale: COUNTER_HEIGHT / (hi - lo),
            dpr: self.dpr,
        };
        for_each_bar(&self.columns, &scale, |x, run, y| {
            ctx.fill_rect(x as f64, y, run as f64, base - y);
        })
    }
}
