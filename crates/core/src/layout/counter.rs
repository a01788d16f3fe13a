//! A counter track as the timeline draws it: one column per pixel holding
//! the largest value the counter takes inside that pixel's time slice (a
//! counter holds each value until its next sample), so spikes narrower than
//! a pixel still show and a frame costs about the track's width.

use super::Viewport;
use crate::model::Counter;

/// Per pixel column of `view`, the largest value held during it, or `None`
/// before the first sample. `origin` is the absolute time of view offset 0.
pub fn counter_columns(counter: &Counter, view: &Viewport, origin: i64) -> Vec<Option<f64>> {
    let width = view.width.ceil().max(1.0) as usize;
    let mut out = vec![None; width];
    let n = counter.time.len().min(counter.value.len());
    if n == 0 {
        return out;
    }
    let at = |t: f64| origin as f64 + t;
    // The sample in force at the window's start, then every later one.
    let first = counter.time[..n].partition_point(|&t| (t as f64) <= at(view.start));
    let mut i = first.saturating_sub(1);
    while i < n {
        let start = counter.time[i] as f64 - origin as f64;
        if start > view.end {
            break;
        }
        let end = counter
            .time
            .get(i + 1)
            .map_or(view.end, |&t| t as f64 - origin as f64);
        let x0 = view.x_of(start.max(view.start)).floor().max(0.0) as usize;
        let x1 = (view.x_of(end.min(view.end)).ceil().max(0.0) as usize)
            .max(x0 + 1)
            .min(width);
        let value = counter.value[i];
        if value.is_finite() {
            for slot in out.iter_mut().take(x1).skip(x0) {
                *slot = Some(slot.map_or(value, |v: f64| v.max(value)));
            }
        }
        i += 1;
    }
    out
}

/// The smallest and largest value of a counter (0 included, so areas rest
/// on a zero baseline), or `(0, 1)` when it has no finite value.
pub fn counter_range(counter: &Counter) -> (f64, f64) {
    let (lo, hi) = counter
        .value
        .iter()
        .filter(|v| v.is_finite())
        .fold((0.0f64, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    if hi > lo {
        (lo, hi)
    } else {
        (0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter() -> Counter {
        Counter {
            name: "live heap".into(),
            unit: "bytes".into(),
            time: vec![100, 110, 111, 150],
            value: vec![5.0, 50.0, 7.0, 0.0],
            ..Counter::default()
        }
    }

    #[test]
    fn a_spike_narrower_than_a_pixel_still_shows() {
        // 100 time units over 10 px: the 1-unit spike at 110 lands in column 1.
        let view = Viewport::new(0.0, 100.0, 10.0);
        let cols = counter_columns(&counter(), &view, 100);
        assert_eq!(cols[0], Some(5.0));
        assert_eq!(cols[1], Some(50.0));
        assert_eq!(cols[2], Some(7.0));
        assert_eq!(cols[5], Some(0.0));
    }

    #[test]
    fn nothing_before_the_first_sample_and_a_zero_baseline() {
        let view = Viewport::new(-50.0, 50.0, 10.0);
        let cols = counter_columns(&counter(), &view, 100);
        assert_eq!(cols[0], None);
        assert_eq!(cols[5], Some(5.0));
        assert_eq!(counter_range(&counter()), (0.0, 50.0));
    }
}
