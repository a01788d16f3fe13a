//! A picture as a list of shapes in CSS pixels, coloured by role ([`Ink`])
//! rather than by colour, so the canvas painter and the SVG writer draw the
//! same thing in either theme. Also the axis helpers the charts share: nice
//! value ticks and how a value prints.

use crate::view_model::text;
use flamedrop_core::layout::{ruler, Viewport};

/// What a shape is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// The plot's backdrop.
    Plot,
    Grid,
    Axis,
    Text,
    Muted,
    /// Live bytes: the filled area and its outline.
    LiveArea,
    LiveLine,
    /// Live blocks (its own axis, on the right).
    Blocks,
    /// The peak's marker.
    Peak,
    /// The moment the table lists.
    Cursor,
    /// Allocations and frees per slice.
    Alloc,
    Free,
    /// Histogram bars: blocks freed by the end, blocks still live.
    Freed,
    Live,
}

/// Where a text sits relative to its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// One shape of a picture.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        ink: Ink,
    },
    /// A filled polygon.
    Area { points: Vec<(f64, f64)>, ink: Ink },
    /// An open line through the points.
    Polyline {
        points: Vec<(f64, f64)>,
        ink: Ink,
        dashed: bool,
    },
    /// Text whose baseline is at `y`.
    Text {
        x: f64,
        y: f64,
        text: String,
        ink: Ink,
        anchor: Anchor,
        bold: bool,
    },
}

impl Shape {
    /// A straight line.
    pub fn line(a: (f64, f64), b: (f64, f64), ink: Ink, dashed: bool) -> Shape {
        Shape::Polyline {
            points: vec![a, b],
            ink,
            dashed,
        }
    }

    /// The plot's backdrop between these edges.
    pub fn plot(left: f64, right: f64, top: f64, bottom: f64) -> Shape {
        Shape::Rect {
            x: left,
            y: top,
            w: right - left,
            h: bottom - top,
            ink: Ink::Plot,
        }
    }

    /// Plain text.
    pub fn text(x: f64, y: f64, text: impl Into<String>, ink: Ink, anchor: Anchor) -> Shape {
        Shape::Text {
            x,
            y,
            text: text.into(),
            ink,
            anchor,
            bold: false,
        }
    }
}

/// A picture: its size and shapes, painted in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picture {
    pub width: f64,
    pub height: f64,
    pub shapes: Vec<Shape>,
}

/// Tick values from 0 to at least `max` at a 1-2-5 step (the timeline
/// ruler's rule), about `count` of them (0 and one step when `max` is 0).
pub fn value_ticks(max: f64, count: usize) -> Vec<f64> {
    let view = Viewport::new(0.0, max.max(1.0), count.max(1) as f64);
    let step = ruler::ticks(&view, 1.0).step;
    let steps = (max / step).ceil().max(1.0) as usize;
    (0..=steps).map(|i| i as f64 * step).collect()
}

/// Ticks for values up to `max` and the value at the axis' top.
pub fn value_axis(max: f64, count: usize) -> (Vec<f64>, f64) {
    let ticks = value_ticks(max, count);
    let top = ticks.last().copied().unwrap_or(1.0).max(1.0);
    (ticks, top)
}

/// A size in the resource's unit: bytes as `4.2 KB`, other units as counts.
pub fn size_label(value: f64, unit: &str) -> String {
    if unit == "bytes" {
        text::bytes(value)
    } else {
        format!("{value:.0}")
    }
}

/// A count with thousands apart: `12 345`.
pub fn count_label(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_cover_the_maximum_at_a_round_step() {
        assert_eq!(value_ticks(10446.0, 4), vec![0.0, 5e3, 10e3, 15e3]);
        assert_eq!(value_ticks(0.0, 4), vec![0.0, 1.0]);
        assert_eq!(value_ticks(14.0, 4), vec![0.0, 5.0, 10.0, 15.0]);
    }

    #[test]
    fn labels_read_as_people_write_them() {
        assert_eq!(size_label(10446.0, "bytes"), "10.4 KB");
        assert_eq!(size_label(3.0, "handles"), "3");
        assert_eq!(count_label(1234567), "1\u{2009}234\u{2009}567");
        assert_eq!(count_label(12), "12");
    }
}
