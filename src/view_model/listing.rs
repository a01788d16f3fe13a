//! The Listing view's model without web types: which rows of a built
//! [`Listing`] show — the ruler's time range, cut by binary search (rows are
//! in time order), less the rows hidden by folds (a fold hides the rows of a
//! call up to its exit, [`RowInfo::closed_by`]) — the search through row
//! text, run in slices, and the `-f` columns offered.

use flamedrop_core::analysis::listing::{Listing, ReplayField, RowInfo};
use flamedrop_core::analysis::search::Matcher;
use flamedrop_core::model::Trace;
use serde::Serialize;
use std::collections::BTreeMap;

/// How the last listing build went, for `flamedrop.listingStatus()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ListingTiming {
    /// From the start of the build to the listing kept, pauses included.
    pub build_ms: f64,
    /// The main thread's part of it.
    pub busy_ms: f64,
    pub slices: usize,
    pub longest_slice_ms: f64,
}

/// Folded rows: the row that folds → the last row the fold hides.
pub type Folds = BTreeMap<usize, usize>;

/// The rows on screen: `first..end` of the listing, less hidden runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub first: usize,
    pub end: usize,
    /// Hidden runs (first, last row, inclusive): sorted, disjoint, inside
    /// `first..end`.
    hidden: Vec<(usize, usize)>,
    len: usize,
}

impl Shown {
    /// Rows `first..end` with `folds` applied (a fold inside a folded one
    /// counts no more; one reaching past `end` is cut there).
    pub fn new(first: usize, end: usize, folds: &Folds) -> Shown {
        let mut hidden: Vec<(usize, usize)> = Vec::new();
        for (&row, &last) in folds.range(first..end) {
            let (from, to) = (row + 1, last.min(end.saturating_sub(1)));
            if from > to || hidden.last().is_some_and(|&(_, b)| from <= b) {
                continue;
            }
            hidden.push((from, to));
        }
        let gone: usize = hidden.iter().map(|(a, b)| b - a + 1).sum();
        Shown {
            first,
            end,
            len: end.saturating_sub(first).saturating_sub(gone),
            hidden,
        }
    }

    /// Rows shown.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no row shows.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The listing row at place `at` of the shown rows.
    pub fn row_at(&self, at: usize) -> Option<usize> {
        if at >= self.len {
            return None;
        }
        let mut row = self.first + at;
        for &(a, b) in &self.hidden {
            if a > row {
                break;
            }
            row += b - a + 1;
        }
        (row < self.end).then_some(row)
    }

    /// The place of listing row `row` among the shown rows (`None` when it
    /// is outside the range or folded away).
    pub fn place_of(&self, row: usize) -> Option<usize> {
        if row < self.first || row >= self.end {
            return None;
        }
        let mut before = 0;
        for &(a, b) in &self.hidden {
            if row < a {
                break;
            }
            if row <= b {
                return None;
            }
            before += b - a + 1;
        }
        Some(row - self.first - before)
    }
}

/// The folds that hide `row`, to open so that it shows.
pub fn folds_hiding(folds: &Folds, row: usize) -> Vec<usize> {
    folds
        .range(..row)
        .filter(|(_, &last)| last >= row)
        .map(|(&at, _)| at)
        .collect()
}

/// The rows whose time lies in `range` (absolute, trace units): rows are
/// in time order, so both ends are found by binary search.
pub fn rows_in(listing: &Listing, trace: &Trace, range: Option<(i64, i64)>) -> (usize, usize) {
    let len = listing.len();
    let Some((from, to)) = range else {
        return (0, len);
    };
    let time = |row: usize| time_near(listing, trace, row);
    let first = partition(len, |row| time(row) < from);
    let end = partition(len, |row| time(row) <= to);
    (first, end.max(first))
}

/// Row `row`'s time, or that of the closest row before it that has one.
fn time_near(listing: &Listing, trace: &Trace, row: usize) -> i64 {
    (0..=row)
        .rev()
        .take(64)
        .find_map(|r| listing.info(trace, r).time)
        .unwrap_or(i64::MIN)
}

/// The first index in `0..len` where `before` is false (`before` is
/// true, then false along the range): the prefix of trues grows by halving
/// steps.
fn partition(len: usize, before: impl Fn(usize) -> bool) -> usize {
    let mut trues = 0;
    let mut step = len.next_power_of_two();
    while step > 0 {
        if trues + step <= len && before(trues + step - 1) {
            trues += step;
        }
        step /= 2;
    }
    trues
}

/// A search for the next (or previous) row whose text matches, in slices:
/// it looks through every row of `first..end` once, starting after `from`
/// and wrapping around.
#[derive(Clone, Debug)]
pub struct RowSearch {
    first: usize,
    end: usize,
    at: usize,
    left: usize,
    forward: bool,
}

impl RowSearch {
    /// A search through `first..end` after (or before) row `from` (from the
    /// first or last row when there is none).
    pub fn new(first: usize, end: usize, from: Option<usize>, forward: bool) -> RowSearch {
        let count = end.saturating_sub(first);
        let at = match from.filter(|r| (first..end).contains(r)) {
            Some(row) => row - first,
            None if forward => count.saturating_sub(1),
            None => 0,
        };
        RowSearch {
            first,
            end,
            at,
            left: count,
            forward,
        }
    }

    /// Looks through about `budget` rows: `Some(Some(row))` found, `Some(None)`
    /// no row matches, `None` not done yet.
    pub fn advance(
        &mut self,
        listing: &Listing,
        trace: &Trace,
        matcher: &Matcher,
        budget: usize,
    ) -> Option<Option<usize>> {
        let count = self.end.saturating_sub(self.first);
        let mut text = String::with_capacity(256);
        for _ in 0..budget.max(1) {
            if self.left == 0 || count == 0 {
                return Some(None);
            }
            self.left -= 1;
            self.at = if self.forward {
                (self.at + 1) % count
            } else {
                (self.at + count - 1) % count
            };
            let row = self.first + self.at;
            text.clear();
            listing.write_row(trace, row, &mut text);
            if matcher.matches(&text) {
                return Some(Some(row));
            }
        }
        None
    }
}

/// The `-f` value of `fields` (`none` for no column).
pub fn fields_spec(fields: &[ReplayField]) -> String {
    if fields.is_empty() {
        return "none".to_owned();
    }
    let names: Vec<&str> = fields.iter().map(|f| f.name()).collect();
    names.join(",")
}

/// `fields` with `field` added at the end, or taken out.
pub fn toggled(fields: &[ReplayField], field: ReplayField) -> Vec<ReplayField> {
    if fields.contains(&field) {
        fields.iter().copied().filter(|&f| f != field).collect()
    } else {
        fields.iter().copied().chain([field]).collect()
    }
}

/// True when the row can fold (it has rows under it).
pub fn folds(info: &RowInfo, row: usize) -> bool {
    info.closed_by.is_some_and(|last| last > row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_hide_rows_and_places_map_both_ways() {
        let mut folds = Folds::new();
        folds.insert(2, 5); // hides 3..=5
        folds.insert(3, 4); // inside the first: no effect
        folds.insert(8, 20); // cut at the end
        let shown = Shown::new(1, 10, &folds);
        // 1 2 6 7 8
        assert_eq!(shown.len(), 5);
        let rows: Vec<_> = (0..shown.len()).filter_map(|i| shown.row_at(i)).collect();
        assert_eq!(rows, [1, 2, 6, 7, 8]);
        for (place, &row) in rows.iter().enumerate() {
            assert_eq!(shown.place_of(row), Some(place));
        }
        assert_eq!(shown.place_of(4), None);
        assert_eq!(shown.place_of(9), None);
        assert_eq!(shown.place_of(0), None);
        assert_eq!(shown.row_at(5), None);
        assert_eq!(folds_hiding(&folds, 4), [2, 3]);
        assert!(folds_hiding(&folds, 6).is_empty());
    }

    /// main(0..100) calling work(10..20): `main() {`, `work();`, `} /* main */`.
    #[test]
    fn the_range_cuts_rows_by_time_and_the_search_wraps() {
        use flamedrop_core::analysis::listing::ListingOptions;
        let loaded = crate::view_model::loaded::test_traces::main_and_work();
        let trace = &loaded.trace;
        let listing = Listing::new(trace, &ListingOptions::default()).unwrap();
        assert_eq!(listing.len(), 3);
        assert_eq!(rows_in(&listing, trace, None), (0, 3));
        assert_eq!(rows_in(&listing, trace, Some((5, 50))), (1, 2));
        assert_eq!(rows_in(&listing, trace, Some((0, 10))), (0, 2));
        assert_eq!(rows_in(&listing, trace, Some((101, 200))), (3, 3));
        let matcher = Matcher::parse("main").unwrap().unwrap();
        let find = |from, forward| {
            let mut search = RowSearch::new(0, 3, from, forward);
            std::iter::repeat_with(|| search.advance(&listing, trace, &matcher, 1))
                .find_map(|found| found)
                .unwrap()
        };
        assert_eq!(find(None, true), Some(0));
        assert_eq!(find(Some(0), true), Some(2));
        assert_eq!(find(Some(2), true), Some(0), "wraps around");
        assert_eq!(find(Some(2), false), Some(0));
        let none = Matcher::parse("nowhere").unwrap().unwrap();
        let mut search = RowSearch::new(0, 3, None, true);
        assert_eq!(search.advance(&listing, trace, &none, 10), Some(None));
    }

    #[test]
    fn partition_finds_the_first_false() {
        for len in 0..40 {
            for trues in 0..=len {
                assert_eq!(partition(len, |i| i < trues), trues, "{trues} of {len}");
            }
        }
    }

    #[test]
    fn columns_toggle_in_the_order_chosen() {
        use ReplayField::*;
        let fields = toggled(&[Duration, Tid], Time);
        assert_eq!(fields, [Duration, Tid, Time]);
        assert_eq!(fields_spec(&fields), "duration,tid,time");
        assert_eq!(toggled(&fields, Duration), [Tid, Time]);
        assert_eq!(fields_spec(&[]), "none");
    }
}
