//! The Memory view's two histograms as [`Picture`]s: sizes in power-of-two
//! buckets, each bar split into blocks freed by the range's end and blocks
//! still live (by count or by bytes: `sp-rtrace-timeline -c` / `-s`), and
//! lifetimes of the freed blocks in power-of-two buckets with the mean and
//! median marked.

use super::shapes::{count_label, size_label, value_axis, Anchor, Ink, Picture, Shape};
use crate::view_model::text;
use flamedrop_core::analysis::memory::{Lifetimes, SizeBucket};

const LEFT: f64 = 62.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 26.0;
const BOTTOM: f64 = 34.0;

/// A power of two as a short label: `512`, `4K`, `2M`, `1G`.
pub fn pow2_label(v: u64) -> String {
    match v {
        v if v >= 1 << 30 && v % (1 << 30) == 0 => format!("{}G", v >> 30),
        v if v >= 1 << 20 && v % (1 << 20) == 0 => format!("{}M", v >> 20),
        v if v >= 1 << 10 && v % (1 << 10) == 0 => format!("{}K", v >> 10),
        v => v.to_string(),
    }
}

/// One bar: its label and its stacked parts (bottom first).
struct Bar {
    label: String,
    parts: Vec<(f64, Ink)>,
}

/// Bars over labelled buckets with a value axis; labels thinned to fit.
fn bars(width: f64, height: f64, bars: &[Bar], value: &dyn Fn(f64) -> String) -> Picture {
    let mut shapes = Vec::new();
    let (l, r, top, bottom) = (
        LEFT,
        (width - RIGHT).max(LEFT + 1.0),
        TOP,
        (height - BOTTOM).max(TOP + 1.0),
    );
    shapes.push(Shape::plot(l, r, top, bottom));
    let most = bars
        .iter()
        .map(|b| b.parts.iter().map(|p| p.0).sum::<f64>())
        .fold(0.0, f64::max);
    let (ticks, top_value) = value_axis(most, 4);
    let y_of = |v: f64| bottom - v / top_value * (bottom - top);
    for v in &ticks {
        let y = y_of(*v).round() + 0.5;
        shapes.push(Shape::line((l, y), (r, y), Ink::Grid, false));
        shapes.push(Shape::text(
            l - 6.0,
            y + 4.0,
            value(*v),
            Ink::Text,
            Anchor::End,
        ));
    }
    let slot = (r - l) / bars.len().max(1) as f64;
    // Every `every`-th label, so labels of ~40 px do not overlap.
    let every = (44.0 / slot).ceil().max(1.0) as usize;
    for (i, bar) in bars.iter().enumerate() {
        let x = l + i as f64 * slot;
        let mut base = 0.0;
        for &(v, ink) in &bar.parts {
            if v > 0.0 {
                let (y0, y1) = (y_of(base), y_of(base + v));
                shapes.push(Shape::Rect {
                    x: x + 1.0,
                    y: y1,
                    w: (slot - 2.0).max(1.0),
                    h: (y0 - y1).max(1.0),
                    ink,
                });
            }
            base += v;
        }
        if i % every == 0 {
            shapes.push(Shape::line(
                (x + 0.5, bottom),
                (x + 0.5, bottom + 4.0),
                Ink::Axis,
                false,
            ));
            shapes.push(Shape::text(
                x,
                bottom + 16.0,
                bar.label.clone(),
                Ink::Text,
                Anchor::Middle,
            ));
        }
    }
    shapes.push(Shape::line(
        (l, bottom + 0.5),
        (r, bottom + 0.5),
        Ink::Axis,
        false,
    ));
    Picture {
        width,
        height,
        shapes,
    }
}

/// A legend entry at `x` on the top line; returns the x after it.
fn legend(shapes: &mut Vec<Shape>, x: f64, ink: Ink, what: &str) -> f64 {
    shapes.push(Shape::Rect {
        x,
        y: 8.0,
        w: 10.0,
        h: 10.0,
        ink,
    });
    shapes.push(Shape::text(x + 14.0, 17.0, what, Ink::Text, Anchor::Start));
    x + 22.0 + what.len() as f64 * 6.5
}

/// The size histogram: freed and live blocks per bucket, by bytes or count.
pub fn size_chart(
    buckets: &[SizeBucket],
    by_bytes: bool,
    unit: &str,
    width: f64,
    height: f64,
) -> Picture {
    let list: Vec<Bar> = buckets
        .iter()
        .map(|b| {
            let (freed, live) = if by_bytes {
                (b.freed_bytes, b.live_bytes)
            } else {
                (b.freed_count, b.live_count)
            };
            Bar {
                label: pow2_label(b.low),
                parts: vec![(freed as f64, Ink::Freed), (live as f64, Ink::Live)],
            }
        })
        .collect();
    let unit = unit.to_owned();
    let value = move |v: f64| {
        if by_bytes {
            size_label(v, &unit)
        } else {
            count_label(v as u64)
        }
    };
    let mut picture = bars(width, height, &list, &value);
    let x = legend(&mut picture.shapes, LEFT, Ink::Freed, "freed");
    let x = legend(&mut picture.shapes, x, Ink::Live, "still live");
    let what = if by_bytes { "(bytes)" } else { "(blocks)" };
    picture
        .shapes
        .push(Shape::text(x, 17.0, what, Ink::Muted, Anchor::Start));
    picture.shapes.push(Shape::text(
        width - RIGHT,
        height - 4.0,
        "block size ≥",
        Ink::Muted,
        Anchor::End,
    ));
    picture
}

/// The lifetime histogram of freed blocks with its mean and median.
pub fn lifetime_chart(lifetimes: &Lifetimes, time_unit: &str, width: f64, height: f64) -> Picture {
    let list: Vec<Bar> = lifetimes
        .buckets
        .iter()
        .map(|b| Bar {
            label: if time_unit == "events" {
                pow2_label(b.low.max(0) as u64)
            } else {
                short_duration(b.low, time_unit)
            },
            parts: vec![(b.count as f64, Ink::Freed)],
        })
        .collect();
    let mut picture = bars(width, height, &list, &|v| count_label(v as u64));
    let x = legend(&mut picture.shapes, LEFT, Ink::Freed, "freed blocks");
    let stats = match (lifetimes.mean, lifetimes.median) {
        (Some(mean), Some(median)) => format!(
            "mean {}, median {}",
            text::duration(mean.round() as i64, time_unit),
            text::duration(median, time_unit)
        ),
        _ => "none freed".to_owned(),
    };
    picture
        .shapes
        .push(Shape::text(x, 17.0, stats, Ink::Muted, Anchor::Start));
    picture.shapes.push(Shape::text(
        width - RIGHT,
        height - 4.0,
        "lifetime ≥",
        Ink::Muted,
        Anchor::End,
    ));
    picture
}

/// A duration as a short axis label (`1 us`, `16 ms`).
fn short_duration(v: i64, unit: &str) -> String {
    let ns = if unit == "us" {
        v as f64 * 1e3
    } else {
        v as f64
    };
    let (scale, name) = [(1e9, "s"), (1e6, "ms"), (1e3, "us"), (1.0, "ns")]
        .into_iter()
        .find(|&(s, _)| ns >= s)
        .unwrap_or((1.0, "ns"));
    format!("{} {name}", (ns / scale).round())
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::analysis::memory::LifetimeBucket;

    #[test]
    fn powers_of_two_read_short() {
        assert_eq!(pow2_label(0), "0");
        assert_eq!(pow2_label(512), "512");
        assert_eq!(pow2_label(4096), "4K");
        assert_eq!(pow2_label(2 << 20), "2M");
        assert_eq!(short_duration(2048, "ns"), "2 us");
        assert_eq!(short_duration(16, "us"), "16 us");
    }

    fn rects(p: &Picture, ink: Ink) -> usize {
        p.shapes
            .iter()
            .filter(|s| matches!(s, Shape::Rect { ink: i, .. } if *i == ink))
            .count()
    }

    #[test]
    fn the_size_bars_split_freed_and_live() {
        let buckets = [
            SizeBucket {
                low: 8,
                high: 16,
                freed_count: 2,
                live_count: 1,
                freed_bytes: 20,
                live_bytes: 9,
            },
            SizeBucket {
                low: 16,
                high: 32,
                freed_count: 0,
                live_count: 3,
                freed_bytes: 0,
                live_bytes: 60,
            },
        ];
        let p = size_chart(&buckets, false, "bytes", 400.0, 200.0);
        // One freed part (the second bucket has none) and two live parts, plus the legend's.
        assert_eq!(rects(&p, Ink::Freed), 1 + 1);
        assert_eq!(rects(&p, Ink::Live), 2 + 1);
    }

    #[test]
    fn the_lifetimes_name_mean_and_median() {
        let l = Lifetimes {
            buckets: vec![LifetimeBucket {
                low: 1,
                high: 2,
                count: 3,
            }],
            freed: 3,
            live: 1,
            mean: Some(1.4),
            median: Some(1),
        };
        let p = lifetime_chart(&l, "events", 300.0, 150.0);
        let stats = p.shapes.iter().any(
            |s| matches!(s, Shape::Text { text, .. } if text == "mean 1 events, median 1 events"),
        );
        assert!(stats);
    }
}
