//! A counter track as the timeline draws it: one column per pixel holding
//! the largest value the counter takes inside that pixel's time slice (a
//! counter holds each value until its next sample), so spikes narrower than
//! a pixel still show.
//!
//! A [`CounterIndex`] (built once per counter) keeps the value range and a
//! pyramid of block maxima, so that a frame finds each column's samples by
//! binary search and their largest value in O(log n): a frame costs about
//! the track's width, however many samples lie in the window.

use super::Viewport;
use crate::model::Counter;

/// Each pyramid level keeps the maximum of this many entries of the level below.
const FANOUT: usize = 8;

/// Per counter: its value range and the largest value of every block of
/// samples, at block sizes `FANOUT`, `FANOUT²`, …
#[derive(Clone, Debug, Default)]
pub struct CounterIndex {
    range: (f64, f64),
    /// `levels[l][j]`: the largest finite value among samples
    /// `j·FANOUT^(l+1) .. (j+1)·FANOUT^(l+1)`, `-∞` if none is finite.
    levels: Vec<Vec<f64>>,
}

impl CounterIndex {
    /// Indexes `counter`'s values (O(n), about n/7 extra values).
    pub fn new(counter: &Counter) -> Self {
        let mut builder = CounterIndexBuilder::default();
        while !builder.advance(counter, usize::MAX) {}
        builder.finish()
    }

    /// The counter's value range, as [`counter_range`] gives it.
    pub fn range(&self) -> (f64, f64) {
        self.range
    }

    /// The largest finite value among `values[a..b]` (`values` being the
    /// indexed counter's), or `None` if there is none.
    fn max_between(&self, values: &[f64], a: usize, b: usize) -> Option<f64> {
        let (mut a, mut b) = (a, b.min(values.len()));
        let mut best = f64::NEG_INFINITY;
        let mut level: &[f64] = values;
        let mut above = self.levels.iter();
        while a < b {
            let (up, down) = (a.div_ceil(FANOUT), b / FANOUT);
            let next = above.next();
            if next.is_none() || up >= down {
                best = larger(
                    best,
                    finite_max(level.get(a..b).unwrap_or(&[]).iter().copied()),
                );
                break;
            }
            // The ragged ends on this level; the whole blocks between, one level up.
            let head = level.get(a..up * FANOUT).unwrap_or(&[]);
            let tail = level.get(down * FANOUT..b).unwrap_or(&[]);
            best = larger(best, finite_max(head.iter().chain(tail).copied()));
            level = next.map_or(&[], Vec::as_slice);
            (a, b) = (up, down);
        }
        best.is_finite().then_some(best)
    }
}

/// The largest finite value, `-∞` if none. Compares rather than calling
/// `f64::max`, whose NaN rules make it a function call in wasm (the page
/// runs this for millions of samples while loading and every frame).
/// Builds a [`CounterIndex`] in bounded steps, so that a page can index a
/// counter of millions of samples without freezing.
#[derive(Clone, Debug, Default)]
pub struct CounterIndexBuilder {
    /// Block maxima of the lowest level so far.
    blocks: Vec<f64>,
    /// Samples looked at so far.
    done: usize,
    /// Smallest and largest finite value so far (0 included).
    lo: f64,
    hi: f64,
}

impl CounterIndexBuilder {
    /// Looks at about `budget` more samples of `counter` (the one every call
    /// gets); true once all of them are indexed.
    pub fn advance(&mut self, counter: &Counter, budget: usize) -> bool {
        let n = counter.time.len().min(counter.value.len());
        let step = budget.max(FANOUT) / FANOUT * FANOUT;
        let end = self.done.saturating_add(step).min(n);
        let values = counter.value.get(self.done..end).unwrap_or(&[]);
        self.blocks
            .extend(values.chunks(FANOUT).map(|c| finite_max(c.iter().copied())));
        self.take_range(values);
        self.done = end;
        if end < n {
            return false;
        }
        // Values past the last time still count toward the range.
        self.take_range(counter.value.get(n..).unwrap_or(&[]));
        true
    }

    fn take_range(&mut self, values: &[f64]) {
        for &v in values.iter().filter(|v| v.is_finite()) {
            if v < self.lo {
                self.lo = v;
            }
            if v > self.hi {
                self.hi = v;
            }
        }
    }

    /// The index, once [`Self::advance`] said every sample is in.
    pub fn finish(self) -> CounterIndex {
        let mut levels: Vec<Vec<f64>> = Vec::new();
        let mut below = self.blocks;
        while below.len() > 1 {
            let next = below
                .chunks(FANOUT)
                .map(|c| finite_max(c.iter().copied()))
                .collect();
            levels.push(below);
            below = next;
        }
        levels.push(below);
        let range = if self.hi > self.lo {
            (self.lo, self.hi)
        } else {
            (0.0, 1.0)
        };
        CounterIndex { range, levels }
    }
}

fn finite_max(values: impl Iterator<Item = f64>) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for v in values {
        if v.is_finite() && v > best {
            best = v;
        }
    }
    best
}

/// `a` or `b`, whichever is larger (`a` when equal); for values that are
/// finite or `-∞`.
fn larger(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Per pixel column of `view`, the largest value held during it, or `None`
/// before the first sample. `origin` is the absolute time of view offset 0.
/// Builds a [`CounterIndex`] first: for one-off use (an export); frames keep
/// the index and call [`counter_columns_into`].
pub fn counter_columns(counter: &Counter, view: &Viewport, origin: i64) -> Vec<Option<f64>> {
    let mut out = Vec::new();
    counter_columns_into(counter, &CounterIndex::new(counter), view, origin, &mut out);
    out
}

/// Fills `out` (cleared first) with one entry per pixel column of `view`:
/// the largest value the counter holds during that column's time slice, or
/// `None` before its first sample. `index` must have been built from
/// `counter`. Costs O(width · log n) and allocates only if `out` grows.
pub fn counter_columns_into(
    counter: &Counter,
    index: &CounterIndex,
    view: &Viewport,
    origin: i64,
    out: &mut Vec<Option<f64>>,
) {
    let width = view.width.ceil().max(1.0) as usize;
    out.clear();
    let n = counter.time.len().min(counter.value.len());
    let (times, values) = (&counter.time[..n], &counter.value[..n]);
    // Sample times as view offsets (subtracting first keeps absolute times precise).
    let offset = |t: i64| t.saturating_sub(origin) as f64;
    // The first sample at or after the start of column x.
    let mut from = 0;
    let first_at = |x: usize, from: &mut usize| {
        let edge = view.time_at(x as f64);
        let rest = times.get(*from..).unwrap_or(&[]);
        *from += gallop(rest, |t| offset(t) < edge);
        *from
    };
    let mut a = first_at(0, &mut from);
    for x in 0..width {
        let b = first_at(x + 1, &mut from);
        // The sample in force at the column's start, unless one starts right there.
        let edge = view.time_at(x as f64);
        let start = if times.get(a).is_some_and(|&t| offset(t) <= edge) {
            a
        } else {
            a.saturating_sub(1)
        };
        let held = a > 0 || start < b;
        out.push(if held {
            index.max_between(values, start, b.max(start + 1))
        } else {
            None
        });
        a = b;
    }
}

/// `slice.partition_point(before)` found from the front: 1, 2, 4, … entries
/// ahead, then a binary search in the last stretch. A frame's columns move
/// right a few samples at a time, so this reads a few neighbouring samples
/// where a search of the whole rest would jump across millions.
fn gallop(slice: &[i64], before: impl Fn(i64) -> bool) -> usize {
    let mut known = 0; // slice[..known] are all before
    let mut step = 1;
    while let Some(&t) = slice.get(step - 1) {
        if !before(t) {
            break;
        }
        known = step;
        step *= 2;
    }
    let end = step.min(slice.len());
    known
        + slice
            .get(known..end)
            .map_or(0, |stretch| stretch.partition_point(|&t| before(t)))
}

/// The smallest and largest value of a counter (0 included, so areas rest
/// on a zero baseline), or `(0, 1)` when it has no finite value.
pub fn counter_range(counter: &Counter) -> (f64, f64) {
    let mut builder = CounterIndexBuilder::default();
    builder.take_range(&counter.value);
    if builder.hi > builder.lo {
        (builder.lo, builder.hi)
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
    fn galloping_finds_what_a_binary_search_finds() {
        let times: Vec<i64> = (0..1000).map(|i| i * 3 / 2).collect();
        for edge in [-5, 0, 1, 2, 7, 64, 700, 1497, 1498, 1499, 5000] {
            let before = |t: i64| t < edge;
            assert_eq!(
                gallop(&times, before),
                times.partition_point(|&t| before(t))
            );
        }
        assert_eq!(gallop(&[], |_| true), 0);
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

    /// The columns by walking every sample in the window (what the index
    /// replaces): each sample raises the columns its hold time touches.
    fn columns_by_walking(counter: &Counter, view: &Viewport, origin: i64) -> Vec<Option<f64>> {
        let width = view.width.ceil() as usize;
        let mut out = vec![None; width];
        let n = counter.time.len();
        for i in 0..n {
            let start = (counter.time[i] - origin) as f64;
            let end = counter
                .time
                .get(i + 1)
                .map_or(f64::INFINITY, |&t| (t - origin) as f64);
            if end < view.start || start > view.end || !counter.value[i].is_finite() {
                continue;
            }
            let x0 = view.x_of(start.max(view.start)).floor().max(0.0) as usize;
            let x1 = (view.x_of(end.min(view.end)).ceil() as usize)
                .max(x0 + 1)
                .min(width);
            for slot in out.iter_mut().take(x1).skip(x0) {
                *slot = Some(slot.map_or(counter.value[i], |v: f64| v.max(counter.value[i])));
            }
        }
        out
    }

    #[test]
    fn the_index_gives_what_walking_every_sample_gives() {
        // 5000 samples at uneven times (some sharing a time), uneven values, a few NaN.
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        let (mut time, mut value) = (Vec::new(), Vec::new());
        let mut t = 1_000;
        for i in 0..5000 {
            t += (next() % 40) as i64;
            time.push(t);
            value.push(if i % 997 == 5 {
                f64::NAN
            } else {
                (next() % 10_000) as f64
            });
        }
        let counter = Counter {
            time,
            value,
            ..Counter::default()
        };
        let index = CounterIndex::new(&counter);
        let mut out = Vec::new();
        // Views in whole units per pixel, so both sides round alike.
        for (start, end, width) in [
            (0.0, 100_000.0, 1000.0),
            (0.0, 200_000.0, 100.0),
            (30_000.0, 40_000.0, 500.0),
            (50_123.0, 50_323.0, 200.0),
            (99_000.0, 199_000.0, 1000.0),
        ] {
            let view = Viewport::new(start, end, width);
            counter_columns_into(&counter, &index, &view, 1_000, &mut out);
            assert_eq!(out, columns_by_walking(&counter, &view, 1_000), "{view:?}");
        }
        assert_eq!(index.range(), counter_range(&counter));
        // Built in small steps, the index answers the same.
        let mut builder = CounterIndexBuilder::default();
        let mut steps = 0;
        while !builder.advance(&counter, 100) {
            steps += 1;
        }
        assert!(steps > 10);
        let stepped = builder.finish();
        assert_eq!(stepped.range(), index.range());
        let view = Viewport::new(0.0, 200_000.0, 700.0);
        let mut again = Vec::new();
        counter_columns_into(&counter, &stepped, &view, 1_000, &mut again);
        counter_columns_into(&counter, &index, &view, 1_000, &mut out);
        assert_eq!(again, out);
    }

    #[test]
    fn an_empty_counter_has_no_columns_with_values() {
        let counter = Counter::default();
        let index = CounterIndex::new(&counter);
        let mut out = vec![Some(1.0)];
        counter_columns_into(
            &counter,
            &index,
            &Viewport::new(0.0, 10.0, 5.0),
            0,
            &mut out,
        );
        assert_eq!(out, vec![None; 5]);
    }
}
