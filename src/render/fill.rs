//! How a span is filled on the timeline: the colour rules (a call that does
//! not match the search is greyed, off-CPU time is hatched, anything else
//! takes its name's palette colour) and where its box lands on whole device
//! pixels. Pure, so the painter's policy is tested natively; the canvas
//! painter (`paint`) and the SVG export (`render::timeline_svg`) both use it.

use super::colors::{self, PALETTE};
use crate::timeline::{ChartModel, LANE};
use flamedrop_core::layout::{Lane, SpanRect};
use flamedrop_core::model::{StrId, Trace, SPAN_OFF_CPU};

/// Colour bucket for off-CPU spans (after the palette's).
pub const OFF_CPU: usize = PALETTE.len();
/// Colour bucket for calls that do not match the search.
pub const GREYED: usize = PALETTE.len() + 1;
/// How many colour buckets a frame sorts its rectangles into.
pub const BUCKETS: usize = PALETTE.len() + 2;

/// What colour rule a span falls under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// A search is on and the span's name does not match it.
    Greyed,
    /// Time the thread spent off the CPU: hatched.
    OffCpu,
    /// The palette colour of this name (string id).
    Named(StrId),
}

/// The colour rule for a span with these `flags` and `name`, given the
/// search `marks` (per string id: matches).
pub fn span_fill(flags: u8, name: StrId, marks: Option<&[bool]>) -> Fill {
    let unmatched = marks.is_some_and(|m| !m.get(name as usize).copied().unwrap_or(false));
    if unmatched {
        Fill::Greyed
    } else if flags & SPAN_OFF_CPU != 0 {
        Fill::OffCpu
    } else {
        Fill::Named(name)
    }
}

/// Palette slot per string id, worked out once per name.
#[derive(Clone, Debug, Default)]
pub struct PaletteSlots {
    /// `UNKNOWN` until first needed.
    slots: Vec<u8>,
    /// The colouring the slots were worked out for.
    by_group: bool,
}

const UNKNOWN: u8 = u8::MAX;

impl PaletteSlots {
    /// Starts over when the trace's string count or the colouring changed;
    /// true when it did.
    pub fn reset_for(&mut self, strings: usize, by_group: bool) -> bool {
        if self.slots.len() == strings && self.by_group == by_group {
            return false;
        }
        self.by_group = by_group;
        self.slots = vec![UNKNOWN; strings];
        true
    }

    /// The colour bucket of `fill`: a palette slot, [`OFF_CPU`] or [`GREYED`].
    /// A name id beyond the trace's strings takes the first slot.
    pub fn bucket(&mut self, fill: Fill, trace: &Trace) -> usize {
        let name = match fill {
            Fill::Greyed => return GREYED,
            Fill::OffCpu => return OFF_CPU,
            Fill::Named(name) => name,
        };
        match self.slots.get_mut(name as usize) {
            Some(slot) if *slot != UNKNOWN => usize::from(*slot),
            Some(slot) => {
                *slot = colors::colour_of(trace.str(name), self.by_group);
                usize::from(*slot)
            }
            None => 0,
        }
    }
}

/// The width a span is drawn: a one-pixel gap after a single span wide
/// enough to spare it, none inside a merged run, and never under 1 px.
pub fn gapped_width(w: f32, count: u32) -> f64 {
    let w = f64::from(w);
    if count == 1 && w > 3.0 {
        w - 1.0
    } else {
        w.max(1.0)
    }
}

/// Where one lane's rectangles land on the canvas, edges on whole device
/// pixels: crisper, and the browser fills such rectangles without
/// anti-aliasing, which is most of a frame's cost.
pub struct RowBoxes<'a> {
    pub model: &'a ChartModel,
    pub lane: &'a Lane,
    /// Device pixels per CSS px.
    pub dpr: f64,
}

impl RowBoxes<'_> {
    /// `v` CSS px rounded to the nearest device pixel.
    pub fn snap(&self, v: f64) -> f64 {
        (v * self.dpr).round() / self.dpr
    }

    /// The canvas y of depth row `row`'s top, on a device pixel.
    pub fn row_top(&self, row: usize) -> f64 {
        self.snap(self.model.screen_y(self.lane.row_top(row, &LANE)))
    }

    /// The box (x, y, w, h) a rectangle is filled in.
    pub fn span(&self, r: &SpanRect) -> (f64, f64, f64, f64) {
        let y = self.row_top(usize::from(r.depth));
        let w = gapped_width(r.w, r.count);
        let x = self.snap(f64::from(r.x));
        let w = (self.snap(f64::from(r.x) + w) - x).max(1.0 / self.dpr);
        (x, y, w, LANE.row - 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::model::{Format, TimeUnit, TraceBuilder};

    fn trace() -> Trace {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        b.intern("main");
        b.intern("work");
        b.finish()
    }

    #[test]
    fn the_search_greys_before_off_cpu_hatches() {
        let main = 1;
        assert_eq!(span_fill(0, main, None), Fill::Named(main));
        assert_eq!(span_fill(SPAN_OFF_CPU, main, None), Fill::OffCpu);
        let marks = [false, true, false];
        assert_eq!(span_fill(0, main, Some(&marks)), Fill::Named(main));
        assert_eq!(span_fill(SPAN_OFF_CPU, 2, Some(&marks)), Fill::Greyed);
        // A name beyond the marks does not match.
        assert_eq!(span_fill(0, 7, Some(&marks)), Fill::Greyed);
    }

    #[test]
    fn names_take_their_palette_slot_once() {
        let trace = trace();
        let strings = trace.strings.len();
        let mut slots = PaletteSlots::default();
        assert!(slots.reset_for(strings, false));
        assert!(!slots.reset_for(strings, false));
        let id = (0..strings as StrId)
            .find(|&i| trace.str(i) == "work")
            .unwrap();
        let slot = usize::from(colors::palette_index("work"));
        assert_eq!(slots.bucket(Fill::Named(id), &trace), slot);
        assert_eq!(slots.bucket(Fill::Named(id), &trace), slot);
        assert_eq!(slots.bucket(Fill::Named(9999), &trace), 0);
        assert_eq!(slots.bucket(Fill::OffCpu, &trace), OFF_CPU);
        assert_eq!(slots.bucket(Fill::Greyed, &trace), GREYED);
        assert!(
            slots.reset_for(strings, true),
            "a new colouring starts over"
        );
    }

    #[test]
    fn single_spans_keep_a_gap_and_runs_do_not() {
        assert_eq!(gapped_width(10.0, 1), 9.0);
        assert_eq!(gapped_width(10.0, 5), 10.0);
        assert_eq!(gapped_width(2.5, 1), 2.5);
        assert_eq!(gapped_width(0.2, 3), 1.0);
    }

    #[test]
    fn boxes_sit_on_device_pixels() {
        let mut model = ChartModel::new(1000.0, [(0, 3)], None);
        model.resize(1000.0, 400.0);
        let lane = model.lanes[0];
        let boxes = RowBoxes {
            model: &model,
            lane: &lane,
            dpr: 2.0,
        };
        let r = SpanRect {
            x: 10.3,
            w: 20.0,
            depth: 1,
            span: 0,
            count: 1,
        };
        let (x, y, w, h) = boxes.span(&r);
        assert_eq!(x, 10.5);
        assert_eq!(w, 19.0);
        assert_eq!(y, model.screen_y(lane.row_top(1, &LANE)));
        assert_eq!(h, LANE.row - 1.0);
        let thin = SpanRect { w: 0.01, ..r };
        assert_eq!(boxes.span(&thin).2, 1.0, "at least one CSS px");
    }
}
