//! Thread lanes stacked top to bottom: each lane is a header line (thread
//! name and markers) over one row per call depth.

use std::ops::Range;

/// Heights (px) that shape a lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LaneMetrics {
    /// The thread-name line at the top of a lane.
    pub header: f64,
    /// One depth row.
    pub row: f64,
    /// Space after a lane.
    pub gap: f64,
}

/// Where one thread's lane sits, in px from the top of the lane area.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lane {
    /// Index of the thread in the trace.
    pub thread: usize,
    pub top: f64,
    /// Number of depth rows.
    pub rows: usize,
    /// Header, rows and gap.
    pub height: f64,
}

impl Lane {
    /// The top of depth row 0.
    pub fn rows_top(&self, m: &LaneMetrics) -> f64 {
        self.top + m.header
    }

    /// The top of depth row `depth`.
    pub fn row_top(&self, depth: usize, m: &LaneMetrics) -> f64 {
        self.rows_top(m) + depth as f64 * m.row
    }

    /// The depth row under y, if y is on one.
    pub fn row_at(&self, y: f64, m: &LaneMetrics) -> Option<usize> {
        let dy = y - self.rows_top(m);
        let row = (dy / m.row).floor();
        (dy >= 0.0 && row < self.rows as f64).then_some(row as usize)
    }

    /// The depth rows that intersect the band `[y0, y1)`.
    pub fn rows_between(&self, y0: f64, y1: f64, m: &LaneMetrics) -> Range<usize> {
        let top = self.rows_top(m);
        let first = ((y0 - top) / m.row).floor().max(0.0) as usize;
        let last = ((y1 - top) / m.row).ceil().max(0.0) as usize;
        first.min(self.rows)..last.min(self.rows)
    }
}

/// Stacks one lane per `(thread, rows)` starting at `top`, replacing `out`.
pub fn stack_lanes(
    threads: impl IntoIterator<Item = (usize, usize)>,
    m: &LaneMetrics,
    top: f64,
    out: &mut Vec<Lane>,
) {
    out.clear();
    let mut y = top;
    for (thread, rows) in threads {
        let height = m.header + rows as f64 * m.row + m.gap;
        out.push(Lane {
            thread,
            top: y,
            rows,
            height,
        });
        y += height;
    }
}

/// The lane under y.
pub fn lane_at(lanes: &[Lane], y: f64) -> Option<&Lane> {
    let i = lanes.partition_point(|l| l.top + l.height <= y);
    lanes.get(i).filter(|l| l.top <= y)
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: LaneMetrics = LaneMetrics {
        header: 20.0,
        row: 10.0,
        gap: 4.0,
    };

    #[test]
    fn lanes_stack_with_their_rows() {
        let mut lanes = Vec::new();
        stack_lanes([(0, 3), (1, 0), (2, 1)], &M, 24.0, &mut lanes);
        let tops: Vec<(f64, f64)> = lanes.iter().map(|l| (l.top, l.height)).collect();
        assert_eq!(tops, vec![(24.0, 54.0), (78.0, 24.0), (102.0, 34.0)]);
        assert_eq!(lane_at(&lanes, 80.0).map(|l| l.thread), Some(1));
        assert_eq!(lane_at(&lanes, 10.0), None);
        assert_eq!(lane_at(&lanes, 200.0), None);
    }

    #[test]
    fn rows_are_found_by_y() {
        let lane = Lane {
            thread: 0,
            top: 100.0,
            rows: 3,
            height: 54.0,
        };
        assert_eq!(lane.row_at(110.0, &M), None); // header
        assert_eq!(lane.row_at(120.0, &M), Some(0));
        assert_eq!(lane.row_at(149.9, &M), Some(2));
        assert_eq!(lane.row_at(150.0, &M), None);
        assert_eq!(lane.rows_between(0.0, 125.0, &M), 0..1);
        assert_eq!(lane.rows_between(135.0, 1000.0, &M), 1..3);
        assert_eq!(lane.rows_between(500.0, 600.0, &M), 3..3);
    }
}
