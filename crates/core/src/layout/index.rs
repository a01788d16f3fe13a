//! [`ThreadIndex`]: one thread's span indices grouped by depth, so the spans
//! of one row can be found by binary search.

use crate::model::Spans;

/// Every this many spans a row keeps a copy of the span's end time, so that
/// searches first probe a small, dense array instead of jumping around the
/// (much larger) span columns.
const STRIDE: usize = 32;

/// Span indices per depth, each row in start order. Within a row spans never
/// overlap, so both their starts and their ends are sorted: that is what lets
/// [`crate::layout::layout_spans`] binary-search the visible window.
#[derive(Clone, Debug, Default)]
pub struct ThreadIndex {
    rows: Vec<Row>,
}

#[derive(Clone, Debug, Default)]
struct Row {
    spans: Vec<u32>,
    /// `ends[j]` is the end time of `spans[j * STRIDE]`.
    ends: Vec<i64>,
}

impl ThreadIndex {
    /// Groups the spans of one thread by depth (one pass, exact capacities).
    pub fn new(spans: &Spans) -> Self {
        let mut counts: Vec<usize> = Vec::new();
        for &d in &spans.depth {
            let d = usize::from(d);
            if counts.len() <= d {
                counts.resize(d + 1, 0);
            }
            counts[d] += 1;
        }
        let mut rows: Vec<Vec<u32>> = counts.iter().map(|&n| Vec::with_capacity(n)).collect();
        for (i, &d) in spans.depth.iter().enumerate() {
            rows[usize::from(d)].push(i as u32);
        }
        let rows = rows
            .into_iter()
            .map(|row| Row {
                ends: row
                    .iter()
                    .step_by(STRIDE)
                    .map(|&k| spans.end.get(k as usize).copied().unwrap_or(i64::MAX))
                    .collect(),
                spans: row,
            })
            .collect();
        ThreadIndex { rows }
    }

    /// Number of rows (the deepest depth + 1, or 0 without spans).
    pub fn depths(&self) -> usize {
        self.rows.len()
    }

    /// The span indices at `depth`, in start order (empty past the deepest row).
    pub fn row(&self, depth: usize) -> &[u32] {
        self.rows.get(depth).map_or(&[], |r| r.spans.as_slice())
    }

    /// The first position at or after `from` in row `depth` whose span ends at
    /// or after `t` (the row's length if none does). `end` must be the column
    /// the index was built from.
    pub fn seek_end(&self, depth: usize, end: &[i64], from: usize, t: i64) -> usize {
        let Some(row) = self.rows.get(depth) else {
            return 0;
        };
        // The coarse array narrows the answer to one stride…
        let j = row.ends.partition_point(|&e| e < t);
        let (coarse_lo, coarse_hi) = (
            if j == 0 { 0 } else { (j - 1) * STRIDE + 1 },
            (j * STRIDE + 1).min(row.spans.len()),
        );
        // …where a short binary search over nearby memory finishes.
        let lo = from.max(coarse_lo).min(row.spans.len());
        let hi = coarse_hi.max(lo);
        lo + row.spans[lo..hi]
            .partition_point(|&k| end.get(k as usize).copied().unwrap_or(i64::MAX) < t)
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
        assert_eq!(index.row(0), &[0]);
        assert_eq!(index.row(1), &[1, 3]);
        assert_eq!(index.row(2), &[2]);
        assert_eq!(index.row(7), &[] as &[u32]);
    }

    #[test]
    fn an_empty_thread_has_no_rows() {
        let index = ThreadIndex::new(&Spans::default());
        assert_eq!(index.depths(), 0);
        assert!(index.row(0).is_empty());
        assert_eq!(index.seek_end(0, &[], 0, 5), 0);
    }

    #[test]
    fn seeking_by_end_agrees_with_a_plain_search() {
        let spans = flat(1000, 10); // span k ends at 10k + 10
        let index = ThreadIndex::new(&spans);
        let row = index.row(0);
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
