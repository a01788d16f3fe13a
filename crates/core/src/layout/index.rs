//! [`ThreadIndex`]: one thread's span indices grouped by depth, so the spans
//! of one row can be found by binary search; and [`IndexBuilder`], which makes
//! one in bounded steps so a page can index a 20-million-span thread without
//! freezing.
//!
//! A small look-up table per row (every 8th span's end time) narrows every
//! search before it touches the (much larger, randomly accessed) span
//! columns. With the whole trace on screen a pixel covers thousands of spans
//! per row and [`ThreadIndex::seek_end`] runs once per pixel and row, each
//! time a little right of the last: it gallops forward from there.
//!
//! A thread whose spans all lie at one depth (sp-rtrace's calls) has one row
//! holding every span in order: that row is implied, not listed, so it costs
//! no memory beside the model ([`RowSpans::All`]).

use crate::model::Spans;

/// Every this many spans a row keeps a copy of the span's end time, so that
/// searches first probe a small, dense array instead of jumping around the
/// (much larger) span columns.
const STRIDE: usize = 8;

/// Span indices per depth, each row in start order. Within a row spans never
/// overlap, so both their starts and their ends are sorted: that is what lets
/// [`crate::layout::layout_spans`] binary-search the visible window.
#[derive(Clone, Debug, Default)]
pub struct ThreadIndex {
    rows: Vec<Row>,
}

#[derive(Clone, Debug, Default)]
struct Row {
    /// The row's span indices; empty when the row is every span in order.
    spans: Vec<u32>,
    /// The row's length (the listed spans', or all the thread's).
    len: usize,
    /// `ends[j]` is the end time of the row's span number `j * STRIDE`.
    ends: Vec<i64>,
}

impl Row {
    fn spans(&self) -> RowSpans<'_> {
        match self.spans.len() == self.len {
            true => RowSpans::Listed(&self.spans),
            false => RowSpans::All(self.len),
        }
    }
}

/// The span indices of one row, in start order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowSpans<'a> {
    /// Listed.
    Listed(&'a [u32]),
    /// Spans `0..n`: the thread's spans all lie in this row.
    All(usize),
}

impl RowSpans<'_> {
    /// Number of spans in the row.
    pub fn len(&self) -> usize {
        match self {
            RowSpans::Listed(spans) => spans.len(),
            RowSpans::All(n) => *n,
        }
    }

    /// True when the row has no span.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The span at position `i` of the row.
    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            RowSpans::Listed(spans) => spans.get(i).copied(),
            RowSpans::All(n) => (i < *n).then_some(i as u32),
        }
    }

    /// The row's last span.
    pub fn last(&self) -> Option<u32> {
        self.get(self.len().checked_sub(1)?)
    }

    /// The spans at positions `range` (clipped to the row), in order.
    pub fn range(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = u32> + '_ {
        let end = range.end.min(self.len());
        (range.start.min(end)..end).filter_map(|i| self.get(i))
    }

    /// The number of leading spans for which `pred` holds (it must hold
    /// for a prefix of the row), as [`slice::partition_point`].
    pub fn partition_point(&self, mut pred: impl FnMut(u32) -> bool) -> usize {
        match self {
            RowSpans::Listed(spans) => spans.partition_point(|&k| pred(k)),
            RowSpans::All(n) => {
                let (mut lo, mut hi) = (0, *n);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    match pred(mid as u32) {
                        true => lo = mid + 1,
                        false => hi = mid,
                    }
                }
                lo
            }
        }
    }

    /// The row's spans, listed.
    pub fn to_vec(&self) -> Vec<u32> {
        self.range(0..self.len()).collect()
    }
}

impl ThreadIndex {
    /// Groups the spans of one thread by depth, all at once.
    pub fn new(spans: &Spans) -> Self {
        let mut builder = IndexBuilder::new();
        while !builder.advance(spans, usize::MAX) {}
        builder.finish()
    }

    /// Number of rows (the deepest depth + 1, or 0 without spans).
    pub fn depths(&self) -> usize {
        self.rows.len()
    }

    /// The span indices at `depth`, in start order (empty past the deepest row).
    pub fn row(&self, depth: usize) -> RowSpans<'_> {
        self.rows
            .get(depth)
            .map_or(RowSpans::Listed(&[]), Row::spans)
    }

    /// The first position at or after `from` in row `depth` whose span ends at
    /// or after `t` (the row's length if none does). `end` must be the column
    /// the index was built from.
    pub fn seek_end(&self, depth: usize, end: &[i64], from: usize, t: i64) -> usize {
        let Some(row) = self.rows.get(depth) else {
            return 0;
        };
        let len = row.len;
        // The coarse array narrows the answer to one stride. Searching it by
        // galloping forward from `from` keeps successive seeks of one layout
        // (each a pixel further right) in memory the last one touched…
        let first = from / STRIDE;
        let j = first + gallop(row.ends.get(first..).unwrap_or(&[]), t);
        let lo = if j == first {
            from
        } else {
            (j - 1) * STRIDE + 1
        };
        let hi = (j * STRIDE + 1).min(len);
        // …where a short binary search over nearby memory finishes.
        let lo = from.max(lo).min(len);
        let hi = hi.max(lo);
        let ends_before = |k: &u32| end.get(*k as usize).copied().unwrap_or(i64::MAX) < t;
        lo + match row.spans() {
            RowSpans::Listed(spans) => spans[lo..hi].partition_point(ends_before),
            // Span `k` is at position `k`.
            RowSpans::All(_) => end.get(lo..hi).map_or(0, |e| e.partition_point(|&e| e < t)),
        }
    }
}

/// The number of leading elements of `sorted` below `t`, found by doubling
/// steps from the front and then a binary search: O(log d) for an answer at
/// distance d.
fn gallop(sorted: &[i64], t: i64) -> usize {
    let mut bound = 1;
    while bound <= sorted.len() && sorted[bound - 1] < t {
        bound *= 2;
    }
    let lo = bound / 2;
    let hi = bound.min(sorted.len());
    lo + sorted[lo..hi].partition_point(|&e| e < t)
}

/// Builds a [`ThreadIndex`] in steps: one pass over the depths to size the
/// rows, one over depths and ends to fill them.
#[derive(Default)]
pub struct IndexBuilder {
    counts: Vec<usize>,
    rows: Vec<Row>,
    /// More than one row: each lists its spans.
    listed: bool,
    counted: usize,
    filled: usize,
}

impl IndexBuilder {
    /// Starts an index (nothing is read yet).
    pub fn new() -> Self {
        IndexBuilder::default()
    }

    /// Does about `budget` spans' worth of work on `spans` (the same spans
    /// every call); true when the index is complete.
    pub fn advance(&mut self, spans: &Spans, budget: usize) -> bool {
        let n = spans.depth.len();
        let budget = budget.max(1);
        if self.counted < n {
            let stop = self.counted.saturating_add(budget).min(n);
            for &d in &spans.depth[self.counted..stop] {
                let d = usize::from(d);
                if self.counts.len() <= d {
                    self.counts.resize(d + 1, 0);
                }
                self.counts[d] += 1;
            }
            self.counted = stop;
            if stop < n {
                return false;
            }
        }
        if self.rows.len() != self.counts.len() {
            // One row only: it is every span in order, implied.
            let listed = self.counts.len() > 1;
            self.rows = self
                .counts
                .iter()
                .map(|&c| Row {
                    spans: Vec::with_capacity(if listed { c } else { 0 }),
                    len: if listed { 0 } else { c },
                    ends: Vec::with_capacity(c.div_ceil(STRIDE)),
                })
                .collect();
            self.listed = listed;
        }
        let stop = self.filled.saturating_add(budget).min(n);
        let rows = &mut self.rows;
        let depths = spans.depth.get(self.filled..stop).unwrap_or(&[]);
        let ends = spans.end.get(self.filled..stop).unwrap_or(&[]);
        if !self.listed {
            if let Some(row) = rows.first_mut() {
                let from = self.filled.next_multiple_of(STRIDE);
                row.ends
                    .extend(ends.iter().skip(from - self.filled).step_by(STRIDE));
            }
            self.filled = stop;
            return stop >= n;
        }
        for ((i, &d), &e) in (self.filled..).zip(depths).zip(ends) {
            let Some(row) = rows.get_mut(usize::from(d)) else {
                continue;
            };
            if row.spans.len() % STRIDE == 0 {
                row.ends.push(e);
            }
            row.spans.push(i as u32);
            row.len += 1;
        }
        self.filled = stop;
        stop >= n
    }

    /// The index (complete once [`IndexBuilder::advance`] returned true).
    pub fn finish(self) -> ThreadIndex {
        ThreadIndex { rows: self.rows }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::test_util::{flat, thread_of};

    #[test]
    fn rows_hold_each_depth_in_start_order() {
        let t = thread_of(&[(0, 100), (10, 20), (12, 15), (30, 40)]);
        let index = ThreadIndex::new(&t.spans);
        assert_eq!(index.depths(), 3);
        assert_eq!(index.row(0).to_vec(), [0]);
        assert_eq!(index.row(1).to_vec(), [1, 3]);
        assert_eq!(index.row(2).to_vec(), [2]);
        assert!(index.row(7).is_empty());
    }

    #[test]
    fn an_empty_thread_has_no_rows() {
        let index = ThreadIndex::new(&Spans::default());
        assert_eq!(index.depths(), 0);
        assert!(index.row(0).is_empty());
        assert_eq!(index.seek_end(0, &[], 0, 5), 0);
    }

    #[test]
    fn seeks_from_anywhere_agree_with_a_plain_search() {
        // Many spans nested three deep, with gaps.
        let mut calls = Vec::new();
        for i in 0..3000i64 {
            let base = i * 100 + (i % 7) * 3;
            calls.push((base, base + 90));
            calls.push((base + 10, base + 50));
            calls.push((base + 20, base + 21));
        }
        let t = thread_of(&calls);
        let index = ThreadIndex::new(&t.spans);
        for depth in 0..3 {
            let row = index.row(depth).to_vec();
            for from in [0, 1, 40, 1000, 2999, 3000] {
                for t_at in (-50..310_000).step_by(997) {
                    let expect = from.min(row.len())
                        + row[from.min(row.len())..]
                            .partition_point(|&k| t.spans.end[k as usize] < t_at);
                    assert_eq!(
                        index.seek_end(depth, &t.spans.end, from, t_at),
                        expect,
                        "depth {depth} from {from} t {t_at}"
                    );
                }
            }
        }
    }

    #[test]
    fn building_in_small_steps_gives_the_same_index() {
        let spans = flat(5000, 10);
        let mut builder = IndexBuilder::new();
        let mut steps = 0;
        while !builder.advance(&spans, 333) {
            steps += 1;
        }
        assert!(steps > 20);
        let stepped = builder.finish();
        let whole = ThreadIndex::new(&spans);
        assert_eq!(stepped.row(0), whole.row(0));
        assert_eq!(whole.row(0), RowSpans::All(5000));
        assert_eq!(stepped.rows[0].ends, whole.rows[0].ends);
    }

    #[test]
    fn seeking_by_end_agrees_with_a_plain_search() {
        let spans = flat(1000, 10); // span k ends at 10k + 10
        let index = ThreadIndex::new(&spans);
        let row = index.row(0).to_vec();
        for from in [0, 1, 31, 32, 33, 500, 999, 1000] {
            for t in [-5, 0, 10, 11, 320, 321, 5000, 9_990, 10_000, 10_001] {
                let expect = from + row[from..].partition_point(|&k| spans.end[k as usize] < t);
                assert_eq!(
                    index.seek_end(0, &spans.end, from, t),
                    expect,
                    "from {from} t {t}"
                );
            }
        }
    }
}
