//! How much narrowing work the page does between two pauses: a budget of
//! spans that follows how fast the last slices went, so that each slice
//! takes about [`SLICE_MS`] of the main thread (a long task is 50 ms),
//! and what the slices took, for `narrowing().timing`. No web types.

/// The time one slice aims at, in ms.
pub const SLICE_MS: f64 = 15.0;

/// Spans in the first slice, and the bounds. The first slice also holds
/// a step's set-up (a pass over the names, allocating the columns), so it
/// starts small; the budget at most doubles from slice to slice.
const FIRST_BUDGET: usize = 50_000;
const MIN_BUDGET: usize = 5_000;
const MAX_BUDGET: usize = 4_000_000;

/// The next slice's budget and what the slices so far took.
#[derive(Clone, Debug)]
pub struct SliceBudget {
    /// Spans (or records) of work for the next slice.
    pub budget: usize,
    /// Slices run.
    pub slices: usize,
    /// The longest slice, in ms.
    pub longest_ms: f64,
    /// All slices together, in ms (pauses not counted).
    pub busy_ms: f64,
    /// The time one slice aims at, in ms.
    target_ms: f64,
}

impl Default for SliceBudget {
    fn default() -> Self {
        SliceBudget {
            budget: FIRST_BUDGET,
            slices: 0,
            longest_ms: 0.0,
            busy_ms: 0.0,
            target_ms: SLICE_MS,
        }
    }
}

impl SliceBudget {
    /// Budgets whose slices aim at `target_ms` (still under the 50 ms of a
    /// long task): fewer pauses for work the user waits on.
    pub fn aiming(target_ms: f64) -> SliceBudget {
        SliceBudget {
            target_ms,
            ..SliceBudget::default()
        }
    }

    /// A slice of `budget` spans took `ms`: the next one gets the spans
    /// that fit the target ([`SLICE_MS`] unless chosen) at that pace (at most doubling, so that one
    /// fast slice of cheap work does not make the next one long).
    pub fn took(&mut self, ms: f64) {
        self.slices += 1;
        self.busy_ms += ms;
        self.longest_ms = self.longest_ms.max(ms);
        let fitting = if ms > 0.5 {
            (self.budget as f64 * self.target_ms / ms) as usize
        } else {
            self.budget.saturating_mul(2)
        };
        self.budget = fitting
            .min(self.budget.saturating_mul(2))
            .clamp(MIN_BUDGET, MAX_BUDGET);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_follows_the_pace() {
        let mut b = SliceBudget::default();
        b.took(40.0); // slow: the next slice gets less
        assert_eq!(b.budget, FIRST_BUDGET * 15 / 40);
        b.took(1.0); // fast: at most twice as much
        assert_eq!(b.budget, FIRST_BUDGET * 15 / 40 * 2);
        assert_eq!((b.slices, b.longest_ms, b.busy_ms), (2, 40.0, 41.0));
    }
}
