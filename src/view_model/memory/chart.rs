//! The Memory view's main chart as a [`Picture`]: live bytes over time (a
//! step area, as `sp-rtrace-timeline`'s "non-freed memory" graph) with the
//! live blocks as a line on their own axis at the right, the peak marked,
//! the moment the table lists as a cursor, and under it the allocations and
//! frees per slice (up and down bars). The time axis is the ruler's range
//! (or the whole trace) labelled as the timeline's ruler labels it: offsets
//! from the trace's start in its unit.

use super::shapes::{count_label, size_label, value_axis, Anchor, Ink, Picture, Shape};
use crate::view_model::Loaded;
use flamedrop_core::analysis::memory::{LivePoint, MemorySummary, Moment, RateSlice};
use flamedrop_core::layout::{ruler, Viewport};

const LEFT: f64 = 70.0;
const RIGHT: f64 = 58.0;
const TOP: f64 = 26.0;
/// The rates strip under the plot and the time labels under it.
const RATES: f64 = 46.0;
const GAP: f64 = 10.0;
const BOTTOM: f64 = 22.0;
/// A click this close to the peak marker picks the peak.
const PEAK_SNAP_PX: f64 = 6.0;

/// Where things are on the chart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartGeometry {
    pub width: f64,
    pub height: f64,
    /// The axis' time span (absolute, in the trace's unit).
    pub t0: i64,
    pub t1: i64,
}

impl ChartGeometry {
    pub fn plot_left(&self) -> f64 {
        LEFT
    }
    pub fn plot_right(&self) -> f64 {
        (self.width - RIGHT).max(LEFT + 1.0)
    }
    pub fn plot_top(&self) -> f64 {
        TOP
    }
    pub fn plot_bottom(&self) -> f64 {
        (self.height - BOTTOM - RATES - GAP).max(TOP + 1.0)
    }
    fn rates_top(&self) -> f64 {
        self.plot_bottom() + GAP
    }
    fn rates_bottom(&self) -> f64 {
        self.rates_top() + RATES
    }
    fn span(&self) -> f64 {
        (self.t1 - self.t0).max(1) as f64
    }

    /// The x of time `t`.
    pub fn x_of(&self, t: i64) -> f64 {
        let w = self.plot_right() - self.plot_left();
        self.plot_left() + (t.saturating_sub(self.t0)) as f64 / self.span() * w
    }

    /// The time at `x`, if `x` is on the plot.
    pub fn time_at(&self, x: f64) -> Option<i64> {
        if x < self.plot_left() - 1.0 || x > self.plot_right() + 1.0 {
            return None;
        }
        let w = self.plot_right() - self.plot_left();
        let f = ((x - self.plot_left()) / w).clamp(0.0, 1.0);
        Some(self.t0 + (f * self.span()).round() as i64)
    }

    /// What a click at `x` asks for: the peak near its marker, else that time.
    pub fn moment_at(&self, x: f64, peak: i64) -> Option<Moment> {
        if (x - self.x_of(peak)).abs() <= PEAK_SNAP_PX {
            return Some(Moment::Peak);
        }
        self.time_at(x).map(Moment::At)
    }
}

/// What the series says is live at time `t`: its last point at or before
/// `t` (nothing before the first).
pub fn live_at_time(points: &[LivePoint], t: i64) -> LivePoint {
    let after = points.partition_point(|p| p.time <= t);
    match after.checked_sub(1).and_then(|i| points.get(i)) {
        Some(p) => LivePoint { time: t, ..*p },
        None => LivePoint {
            time: t,
            bytes: 0,
            blocks: 0,
        },
    }
}

/// What the chart draws.
pub struct ChartInput<'a> {
    pub geometry: ChartGeometry,
    /// Times print as offsets from it.
    pub origin: i64,
    pub time_unit: &'a str,
    pub size_unit: &'a str,
    pub points: &'a [LivePoint],
    pub peak: LivePoint,
    pub rates: &'a [RateSlice],
    /// The allocator's bytes per live block (sp-rtrace-timeline's overhead
    /// line, dashed above the live bytes); 0 draws none.
    pub overhead_per_block: u64,
    /// The moment the table lists, when it is not the peak.
    pub cursor: Option<i64>,
}

/// The chart.
pub fn live_chart(input: &ChartInput) -> Picture {
    let g = input.geometry;
    let mut shapes = Vec::new();
    let (l, r, top, bottom) = (g.plot_left(), g.plot_right(), g.plot_top(), g.plot_bottom());
    shapes.push(Shape::plot(l, r, top, bottom));
    let overhead = input.overhead_per_block;
    let max_bytes = input
        .points
        .iter()
        .map(|p| p.with_overhead(overhead))
        .max()
        .unwrap_or(0);
    let max_blocks = input.points.iter().map(|p| p.blocks).max().unwrap_or(0);
    let (bytes_ticks, bytes_top) = value_axis(max_bytes as f64, 4);
    let (blocks_ticks, blocks_top) = value_axis(max_blocks as f64, 4);
    let y_of = |v: f64, top_value: f64| bottom - v / top_value * (bottom - top);
    for v in &bytes_ticks {
        let y = y_of(*v, bytes_top).round() + 0.5;
        shapes.push(Shape::line((l, y), (r, y), Ink::Grid, false));
        shapes.push(Shape::text(
            l - 6.0,
            y + 4.0,
            size_label(*v, input.size_unit),
            Ink::Text,
            Anchor::End,
        ));
    }
    for v in &blocks_ticks {
        let y = y_of(*v, blocks_top);
        shapes.push(Shape::text(
            r + 6.0,
            y + 4.0,
            count_label(*v as u64),
            Ink::Blocks,
            Anchor::Start,
        ));
    }
    time_axis(input, &mut shapes);
    let bytes_line = steps(input.points, &g, |p| y_of(p.bytes as f64, bytes_top));
    if let (Some(first), Some(last)) = (bytes_line.first(), bytes_line.last()) {
        let mut area = vec![(first.0, bottom)];
        area.extend(bytes_line.iter().copied());
        area.push((last.0, bottom));
        shapes.push(Shape::Area {
            points: area,
            ink: Ink::LiveArea,
        });
    }
    shapes.push(Shape::Polyline {
        points: bytes_line,
        ink: Ink::LiveLine,
        dashed: false,
    });
    if overhead > 0 {
        let with_overhead = steps(input.points, &g, |p| {
            y_of(p.with_overhead(overhead) as f64, bytes_top)
        });
        shapes.push(Shape::Polyline {
            points: with_overhead,
            ink: Ink::LiveLine,
            dashed: true,
        });
    }
    let blocks_line = steps(input.points, &g, |p| y_of(p.blocks as f64, blocks_top));
    shapes.push(Shape::Polyline {
        points: blocks_line,
        ink: Ink::Blocks,
        dashed: false,
    });
    rates(input, &mut shapes);
    markers(input, y_of(input.peak.bytes as f64, bytes_top), &mut shapes);
    legend(input, &mut shapes);
    Picture {
        width: g.width,
        height: g.height,
        shapes,
    }
}

/// The step line through the series from the plot's left to its right edge,
/// at most a few points per pixel column (first, highest, lowest, last).
fn steps(
    points: &[LivePoint],
    g: &ChartGeometry,
    y: impl Fn(&LivePoint) -> f64,
) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut column: Option<(i64, f64, f64, f64, f64)> = None; // (px, first, min, max, last)
    let flush = |out: &mut Vec<(f64, f64)>, c: (i64, f64, f64, f64, f64)| {
        let x = c.0 as f64;
        // Through the extremes in the order that ends at the last value.
        let order = if c.4 >= c.1 {
            [c.1, c.2, c.3, c.4]
        } else {
            [c.1, c.3, c.2, c.4]
        };
        for v in order {
            if out.last() != Some(&(x, v)) {
                out.push((x, v));
            }
        }
    };
    for p in points {
        let x = g.x_of(p.time).clamp(g.plot_left(), g.plot_right()).round() as i64;
        let v = y(p);
        // The step: the previous value holds until this point's time.
        column = match column {
            Some(c) if c.0 == x => Some((x, c.1, c.2.min(v), c.3.max(v), v)),
            Some(c) => {
                flush(&mut out, c);
                Some((x, c.4, v.min(c.4), v.max(c.4), v))
            }
            None => Some((x, v, v, v, v)),
        };
    }
    if let Some(c) = column {
        flush(&mut out, c);
    }
    if let Some(&(x, v)) = out.last() {
        if x < g.plot_right() {
            out.push((g.plot_right(), v));
        }
    }
    out
}

/// Time ticks and labels under the rates, as the timeline's ruler has them.
fn time_axis(input: &ChartInput, shapes: &mut Vec<Shape>) {
    let g = input.geometry;
    let view = Viewport::new(
        (g.t0 - input.origin) as f64,
        (g.t1 - input.origin) as f64,
        g.plot_right() - g.plot_left(),
    );
    let ticks = ruler::ticks(&view, 96.0);
    let mut label = String::new();
    let (top, bottom) = (g.plot_top(), g.rates_bottom());
    for t in ticks.iter(&view) {
        let x = (g.plot_left() + view.x_of(t)).round() + 0.5;
        shapes.push(Shape::line((x, top), (x, bottom), Ink::Grid, false));
        ruler::tick_label(t, ticks.step, input.time_unit, &mut label);
        shapes.push(Shape::text(
            x,
            bottom + 15.0,
            label.clone(),
            Ink::Text,
            Anchor::Middle,
        ));
    }
    shapes.push(Shape::line(
        (g.plot_left(), g.plot_bottom() + 0.5),
        (g.plot_right(), g.plot_bottom() + 0.5),
        Ink::Axis,
        false,
    ));
    shapes.push(Shape::line(
        (g.plot_left(), bottom + 0.5),
        (g.plot_right(), bottom + 0.5),
        Ink::Axis,
        false,
    ));
}

/// Allocations (up) and frees (down) per slice, each scaled to the busiest.
fn rates(input: &ChartInput, shapes: &mut Vec<Shape>) {
    let g = input.geometry;
    let (top, bottom) = (g.rates_top(), g.rates_bottom());
    let middle = (top + bottom) / 2.0;
    let most = input
        .rates
        .iter()
        .map(|s| s.allocations.max(s.frees))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let half = middle - top;
    for s in input.rates {
        let (x0, x1) = (g.x_of(s.start), g.x_of(s.end).min(g.plot_right()));
        if x0 >= g.plot_right() {
            continue;
        }
        let w = (x1 - x0 - 1.0).max(1.0);
        let up = s.allocations as f64 / most * half;
        let down = s.frees as f64 / most * half;
        if up > 0.0 {
            shapes.push(Shape::Rect {
                x: x0,
                y: middle - up,
                w,
                h: up,
                ink: Ink::Alloc,
            });
        }
        if down > 0.0 {
            shapes.push(Shape::Rect {
                x: x0,
                y: middle,
                w,
                h: down,
                ink: Ink::Free,
            });
        }
    }
    shapes.push(Shape::line(
        (g.plot_left(), middle + 0.5),
        (g.plot_right(), middle + 0.5),
        Ink::Grid,
        false,
    ));
    shapes.push(Shape::text(
        g.plot_left() - 6.0,
        top + 10.0,
        format!("{} allocs", count_label(most as u64)),
        Ink::Alloc,
        Anchor::End,
    ));
    shapes.push(Shape::text(
        g.plot_left() - 6.0,
        bottom - 2.0,
        "frees",
        Ink::Free,
        Anchor::End,
    ));
}

/// The peak's marker and label, and the cursor of the listed moment.
fn markers(input: &ChartInput, peak_y: f64, shapes: &mut Vec<Shape>) {
    let g = input.geometry;
    if let Some(t) = input.cursor {
        let x = g.x_of(t).round() + 0.5;
        shapes.push(Shape::line(
            (x, g.plot_top()),
            (x, g.plot_bottom()),
            Ink::Cursor,
            false,
        ));
    }
    if input.points.is_empty() {
        return;
    }
    let x = g.x_of(input.peak.time).round() + 0.5;
    shapes.push(Shape::line(
        (x, g.plot_top()),
        (x, g.plot_bottom()),
        Ink::Peak,
        true,
    ));
    shapes.push(Shape::Area {
        points: vec![
            (x - 5.0, peak_y - 9.0),
            (x + 5.0, peak_y - 9.0),
            (x, peak_y - 1.0),
        ],
        ink: Ink::Peak,
    });
    let text = format!(
        "peak {} in {} blocks",
        size_label(input.peak.bytes as f64, input.size_unit),
        count_label(input.peak.blocks)
    );
    // The label reads away from the nearer edge.
    let anchor = if x > (g.plot_left() + g.plot_right()) / 2.0 {
        Anchor::End
    } else {
        Anchor::Start
    };
    let dx = if anchor == Anchor::End { -8.0 } else { 8.0 };
    // A backdrop so the lines under the label do not cross it (about 6.5 px a character).
    let w = text.chars().count() as f64 * 6.5 + 6.0;
    let left = if anchor == Anchor::End {
        x + dx - w + 3.0
    } else {
        x + dx - 3.0
    };
    shapes.push(Shape::Rect {
        x: left,
        y: g.plot_top() + 3.0,
        w,
        h: 15.0,
        ink: Ink::Plot,
    });
    shapes.push(Shape::Text {
        x: x + dx,
        y: g.plot_top() + 14.0,
        text,
        ink: Ink::Peak,
        anchor,
        bold: true,
    });
}

/// What the colours mean, over the plot's left.
fn legend(input: &ChartInput, shapes: &mut Vec<Shape>) {
    let g = input.geometry;
    let y = g.plot_top() - 8.0;
    let what = if input.size_unit == "bytes" {
        "live bytes"
    } else {
        "live size"
    };
    shapes.push(Shape::Rect {
        x: 8.0,
        y: y - 8.0,
        w: 10.0,
        h: 8.0,
        ink: Ink::LiveLine,
    });
    shapes.push(Shape::text(22.0, y, what, Ink::Text, Anchor::Start));
    shapes.push(Shape::Rect {
        x: 100.0,
        y: y - 5.0,
        w: 12.0,
        h: 2.0,
        ink: Ink::Blocks,
    });
    shapes.push(Shape::text(
        116.0,
        y,
        "live blocks (right axis)",
        Ink::Text,
        Anchor::Start,
    ));
    if input.overhead_per_block > 0 {
        shapes.push(Shape::line(
            (270.0, y - 4.0),
            (284.0, y - 4.0),
            Ink::LiveLine,
            true,
        ));
        shapes.push(Shape::text(
            288.0,
            y,
            format!(
                "with the allocator's overhead ({} B a block)",
                input.overhead_per_block
            ),
            Ink::Text,
            Anchor::Start,
        ));
    }
}

/// The chart of `s` for the Memory view on `loaded`, `width` × `height`,
/// with the axis over `range` (or the trace) and, for a clicked moment, its
/// cursor.
pub fn live_picture(
    loaded: &Loaded,
    s: &MemorySummary,
    moment: Moment,
    range: Option<(i64, i64)>,
    width: f64,
    height: f64,
) -> Picture {
    let (t0, t1) = super::axis_span(&loaded.trace, range);
    live_chart(&ChartInput {
        geometry: ChartGeometry {
            width,
            height,
            t0,
            t1,
        },
        origin: loaded.origin,
        time_unit: loaded.unit(),
        size_unit: &s.unit,
        points: &s.series.points,
        peak: s.series.peak,
        rates: &s.rates,
        overhead_per_block: s.overhead_per_block,
        cursor: matches!(moment, Moment::At(_)).then_some(s.at),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry() -> ChartGeometry {
        ChartGeometry {
            width: 70.0 + 100.0 + 58.0,
            height: 300.0,
            t0: 100,
            t1: 200,
        }
    }

    #[test]
    fn time_maps_to_the_plot_and_back() {
        let g = geometry();
        assert_eq!(g.x_of(100), 70.0);
        assert_eq!(g.x_of(150), 120.0);
        assert_eq!(g.time_at(120.0), Some(150));
        assert_eq!(g.time_at(5.0), None);
        assert_eq!(g.moment_at(121.0, 150), Some(Moment::Peak));
        assert_eq!(g.moment_at(90.0, 150), Some(Moment::At(120)));
    }

    #[test]
    fn the_value_at_a_time_is_the_last_step_before_it() {
        let points = [
            LivePoint {
                time: 10,
                bytes: 5,
                blocks: 1,
            },
            LivePoint {
                time: 20,
                bytes: 9,
                blocks: 2,
            },
        ];
        assert_eq!(
            live_at_time(&points, 5),
            LivePoint {
                time: 5,
                bytes: 0,
                blocks: 0
            }
        );
        assert_eq!(
            live_at_time(&points, 10),
            LivePoint {
                time: 10,
                bytes: 5,
                blocks: 1
            }
        );
        assert_eq!(
            live_at_time(&points, 19),
            LivePoint {
                time: 19,
                bytes: 5,
                blocks: 1
            }
        );
        assert_eq!(
            live_at_time(&points, 99),
            LivePoint {
                time: 99,
                bytes: 9,
                blocks: 2
            }
        );
    }

    #[test]
    fn the_line_steps_and_the_peak_is_marked() {
        let points = [
            LivePoint {
                time: 100,
                bytes: 0,
                blocks: 0,
            },
            LivePoint {
                time: 150,
                bytes: 10,
                blocks: 1,
            },
            LivePoint {
                time: 180,
                bytes: 4,
                blocks: 1,
            },
        ];
        let peak = points[1];
        let picture = live_chart(&ChartInput {
            geometry: geometry(),
            origin: 100,
            time_unit: "events",
            size_unit: "bytes",
            points: &points,
            peak,
            rates: &[],
            overhead_per_block: 0,
            cursor: None,
        });
        let dashed = |p: &Picture| {
            p.shapes.iter().any(|s| {
                matches!(
                    s,
                    Shape::Polyline {
                        dashed: true,
                        ink: Ink::LiveLine,
                        ..
                    }
                )
            })
        };
        assert!(!dashed(&picture), "no overhead line without an overhead");
        let with_overhead = live_chart(&ChartInput {
            geometry: geometry(),
            origin: 100,
            time_unit: "events",
            size_unit: "bytes",
            points: &points,
            peak,
            rates: &[],
            overhead_per_block: 8,
            cursor: None,
        });
        assert!(dashed(&with_overhead), "sp-rtrace-timeline's overhead line");
        let line = picture.shapes.iter().find_map(|s| match s {
            Shape::Polyline {
                points,
                ink: Ink::LiveLine,
                ..
            } => Some(points.clone()),
            _ => None,
        });
        let line = line.expect("a live line");
        let g = geometry();
        let y = |v: f64| g.plot_bottom() - v / 10.0 * (g.plot_bottom() - g.plot_top());
        // 0 until 150, then 10 until 180, then 4 to the right edge.
        assert_eq!(
            line,
            vec![
                (70.0, y(0.0)),
                (120.0, y(0.0)),
                (120.0, y(10.0)),
                (150.0, y(10.0)),
                (150.0, y(4.0)),
                (170.0, y(4.0))
            ]
        );
        let label = picture.shapes.iter().any(|s| matches!(s, Shape::Text { text, ink: Ink::Peak, .. } if text == "peak 10 B in 1 blocks"));
        assert!(label, "the peak's label");
    }
}
