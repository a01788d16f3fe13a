//! The bookkeeping every page shares while it reads the trace: rows by key,
//! intervals opened by one call and closed by a later one, marks, and what
//! is still open when the trace ends.

use super::{Activity, ActivityKind, Interval, Mark, Row, State};
use std::collections::HashMap;

/// Rows, intervals and marks being collected.
#[derive(Default)]
pub struct Book {
    rows: Vec<Row>,
    by_key: HashMap<(u32, String), u32>,
    intervals: Vec<Interval>,
    marks: Vec<Mark>,
    /// Per (row, state): when the interval still open began.
    open: HashMap<(u32, State), i64>,
    /// The trace's last timestamp: where open intervals end.
    end: i64,
}

impl Book {
    /// A book for a trace ending at `end`.
    pub fn new(end: i64) -> Book {
        Book {
            end,
            ..Book::default()
        }
    }

    /// The row of `object` used by thread `thread`; `shared` rows (sockets)
    /// are one per object whatever the thread.
    pub fn row(&mut self, thread: u32, object: &str, note: &str, shared: bool) -> u32 {
        let key = (if shared { u32::MAX } else { thread }, object.to_owned());
        if let Some(&row) = self.by_key.get(&key) {
            if let Some(r) = self.rows.get_mut(row as usize) {
                if r.note.is_empty() && !note.is_empty() {
                    r.note = note.to_owned();
                }
            }
            return row;
        }
        let row = self.rows.len() as u32;
        self.rows.push(Row {
            thread,
            object: object.to_owned(),
            note: note.to_owned(),
        });
        self.by_key.insert(key, row);
        row
    }

    /// `row` enters `state` at `time` (a second start while open is ignored:
    /// the first one stands).
    pub fn begin(&mut self, row: u32, state: State, time: i64) {
        self.open.entry((row, state)).or_insert(time);
    }

    /// `row` leaves `state` at `time`; false when it was not in it.
    pub fn end(&mut self, row: u32, state: State, time: i64) -> bool {
        match self.open.remove(&(row, state)) {
            Some(start) => {
                self.interval(row, state, start, time);
                true
            }
            None => false,
        }
    }

    /// A finished interval.
    pub fn interval(&mut self, row: u32, state: State, start: i64, end: i64) {
        self.intervals.push(Interval {
            row,
            start,
            end: end.max(start),
            state,
            open_at_end: false,
        });
    }

    pub fn mark(&mut self, mark: Mark) {
        self.marks.push(mark);
    }

    /// Everything collected, open intervals closed at the trace's end; rows
    /// sorted by (object, thread) for files and sockets, (thread, object)
    /// for sync objects.
    pub fn finish(mut self, kind: ActivityKind) -> Activity {
        let mut still_open: Vec<((u32, State), i64)> = self.open.drain().collect();
        still_open.sort_unstable();
        for ((row, state), start) in still_open {
            self.intervals.push(Interval {
                row,
                start,
                end: self.end.max(start),
                state,
                open_at_end: true,
            });
        }
        let mut order: Vec<u32> = (0..self.rows.len() as u32).collect();
        let rows = &self.rows;
        order.sort_by(|&a, &b| {
            let (Some(a), Some(b)) = (rows.get(a as usize), rows.get(b as usize)) else {
                return std::cmp::Ordering::Equal;
            };
            match kind {
                ActivityKind::Sync => (a.thread, &a.object).cmp(&(b.thread, &b.object)),
                _ => (&a.object, a.thread).cmp(&(&b.object, b.thread)),
            }
        });
        let mut place = vec![0u32; order.len()];
        for (new, &old) in order.iter().enumerate() {
            if let Some(p) = place.get_mut(old as usize) {
                *p = new as u32;
            }
        }
        let renumber = |row: u32| place.get(row as usize).copied().unwrap_or(row);
        let rows = order
            .iter()
            .filter_map(|&old| self.rows.get(old as usize).cloned())
            .collect();
        for i in &mut self.intervals {
            i.row = renumber(i.row);
        }
        for m in &mut self.marks {
            m.row = renumber(m.row);
        }
        self.intervals.sort_by_key(|i| (i.row, i.start, i.end));
        self.marks.sort_by_key(|m| (m.row, m.time));
        Activity {
            kind,
            rows,
            intervals: self.intervals,
            marks: self.marks,
        }
    }
}
