//! The table under a page's chart, for a time range (the Dynamic Analyzer's
//! range inspection): per row, the API calls made in the range, the bytes
//! read and written by them, and the time each state overlaps the range.

use super::{Activity, State};

/// One row of the table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowSummary {
    /// Index into `Activity::rows`.
    pub row: u32,
    /// API calls in the range.
    pub calls: u64,
    /// Of which failed.
    pub failed: u64,
    /// Bytes read (received) by the calls in the range.
    pub read: u64,
    /// Bytes written (sent) by the calls in the range.
    pub written: u64,
    /// Per API (in first-seen order), its calls in the range.
    pub apis: Vec<(&'static str, u64)>,
    /// Time spent open, reading, writing, waiting and holding within the
    /// range (in [`STATES`] order).
    pub time: [i64; 5],
    /// Intervals of each state overlapping the range.
    pub intervals: [u64; 5],
}

/// The states in the order of `RowSummary::time`.
pub const STATES: [State; 5] = [
    State::Open,
    State::Read,
    State::Write,
    State::Wait,
    State::Held,
];

impl RowSummary {
    /// Time spent in `state` within the range.
    pub fn time_in(&self, state: State) -> i64 {
        let at = STATES.iter().position(|s| *s == state).unwrap_or(0);
        self.time.get(at).copied().unwrap_or(0)
    }

    /// Intervals of `state` overlapping the range.
    pub fn intervals_of(&self, state: State) -> u64 {
        let at = STATES.iter().position(|s| *s == state).unwrap_or(0);
        self.intervals.get(at).copied().unwrap_or(0)
    }

    /// Calls of `api` in the range.
    pub fn calls_of(&self, api: &str) -> u64 {
        self.apis
            .iter()
            .find(|(a, _)| *a == api)
            .map_or(0, |(_, n)| *n)
    }
}

/// Per row of `activity` (in row order, every row even when nothing of it
/// falls in the range), what happened within `range` (inclusive; `None`:
/// the whole trace).
pub fn summarize(activity: &Activity, range: Option<(i64, i64)>) -> Vec<RowSummary> {
    let (from, to) = range.unwrap_or((i64::MIN, i64::MAX));
    let mut rows: Vec<RowSummary> = (0..activity.rows.len() as u32)
        .map(|row| RowSummary {
            row,
            ..RowSummary::default()
        })
        .collect();
    for m in &activity.marks {
        if m.time < from || m.time > to {
            continue;
        }
        let Some(r) = rows.get_mut(m.row as usize) else {
            continue;
        };
        r.calls += 1;
        r.failed += u64::from(m.failed);
        r.read += m.read;
        r.written += m.written;
        match r.apis.iter_mut().find(|(a, _)| *a == m.api) {
            Some((_, n)) => *n += 1,
            None => r.apis.push((m.api, 1)),
        }
    }
    for i in &activity.intervals {
        let (start, end) = (i.start.max(from), i.end.min(to));
        let overlaps = i.start <= to && i.end >= from;
        let (Some(r), true) = (rows.get_mut(i.row as usize), overlaps) else {
            continue;
        };
        let at = STATES.iter().position(|s| *s == i.state).unwrap_or(0);
        if let (Some(time), Some(n)) = (r.time.get_mut(at), r.intervals.get_mut(at)) {
            *time = time.saturating_add(end.saturating_sub(start).max(0));
            *n += 1;
        }
    }
    rows
}
