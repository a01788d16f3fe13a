//! [`ThreadIndex`]: one thread's span indices grouped by depth, so the spans
//! of one row can be found by binary search.

use crate::model::Spans;

/// Span indices per depth, each row in start order. Within a row spans never
/// overlap, so both their starts and their ends are sorted: that is what lets
/// [`crate::layout::layout_spans`] binary-search the visible window.
#[derive(Clone, Debug, Default)]
pub struct ThreadIndex {
    rows: Vec<Vec<u32>>,
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
        ThreadIndex { rows }
    }

    /// Number of rows (the deepest depth + 1, or 0 without spans).
    pub fn depths(&self) -> usize {
        self.rows.len()
    }

    /// The span indices at `depth`, in start order (empty past the deepest row).
    pub fn row(&self, depth: usize) -> &[u32] {
        self.rows.get(depth).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::test_util::thread_of;

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
    }
}
