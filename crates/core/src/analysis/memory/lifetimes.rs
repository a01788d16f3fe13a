//! [`lifetimes`](super::lifetimes): how long blocks lived.
//!
//! `sp-rtrace-timeline`'s lifetime report (`src/rtrace-timeline/
//! lifetime_generator.cpp`) draws one line per block from its allocation
//! to its free, or to the report's end for a block never freed; its
//! average and median markers are of sizes. Here the same lifelines are
//! measured: a freed block's lifetime is its free time minus its
//! allocation time; a block not freed by the range's end is counted as
//! live, not measured. The median follows `HistogramGenerator::Stats::
//! getMedian` (`histogram_generator.cpp`): the middle value, or for an even
//! count the mean of the two middle ones (the tool reads the one after the
//! upper middle there, an off-by-one not copied).

use super::{LifetimeBucket, Lifetimes, MemoryQuery};
use crate::model::{Trace, NEVER_FREED};

/// The bucket `[low, high)` of lifetime number `k`: `[0, 1)` for 0, else
/// `[2^(k-1), 2^k)`.
fn bucket_bounds(k: u32) -> (i64, i64) {
    if k == 0 {
        return (0, 1);
    }
    let low = 1i64.checked_shl(k - 1).unwrap_or(i64::MAX);
    (low, low.saturating_mul(2))
}

/// See [`super::lifetimes`]: the selected blocks allocated in range; freed
/// at or before the range's end (ever, without a range).
pub(super) fn lifetimes(trace: &Trace, query: &MemoryQuery, selected: &[u32]) -> Lifetimes {
    let Some(a) = trace.allocations.get(query.resource as usize) else {
        return Lifetimes::default();
    };
    let end = query.range.map_or(NEVER_FREED - 1, |(_, hi)| hi);
    let mut spans: Vec<i64> = Vec::new();
    let mut live = 0u64;
    for at in super::live::allocated_in(trace, query.resource, query.range, selected) {
        let at = at as usize;
        let (Some(&time), Some(&freed)) = (a.time.get(at), a.free_time.get(at)) else {
            continue;
        };
        if freed <= end {
            spans.push(freed.saturating_sub(time).max(0));
        } else {
            live += 1;
        }
    }
    spans.sort_unstable();
    let mut counts = [0u64; 64];
    for &s in &spans {
        let k = 64 - s.leading_zeros();
        if let Some(c) = counts.get_mut(k as usize) {
            *c += 1;
        }
    }
    let first = counts.iter().position(|&c| c > 0);
    let last = counts.iter().rposition(|&c| c > 0);
    let buckets = match (first, last) {
        (Some(first), Some(last)) => (first..=last)
            .map(|k| {
                let (low, high) = bucket_bounds(k as u32);
                LifetimeBucket {
                    low,
                    high,
                    count: counts.get(k).copied().unwrap_or(0),
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    let n = spans.len();
    let mean = (n > 0).then(|| spans.iter().map(|&s| s as f64).sum::<f64>() / n as f64);
    let median = match n {
        0 => None,
        n if n % 2 == 1 => spans.get(n / 2).copied(),
        n => match (spans.get(n / 2 - 1), spans.get(n / 2)) {
            (Some(&x), Some(&y)) => Some(((i128::from(x) + i128::from(y)) / 2) as i64),
            _ => None,
        },
    };
    Lifetimes {
        buckets,
        freed: n as u64,
        live,
        mean,
        median,
    }
}
