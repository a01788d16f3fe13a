//! [`size_histogram`](super::size_histogram): allocation sizes in
//! power-of-two buckets, freed vs still live.
//!
//! `sp-rtrace-timeline -c` / `-s` (`src/rtrace-timeline/
//! histogram_generator.cpp`) counts, per exact size, the allocations and
//! how many of them were freed (`reportFree` adds to the freed count of the
//! block's size), and draws unfreed and freed bars per size (by count, or
//! count × size). The same split is kept here with the sizes gathered into
//! power-of-two buckets, so a trace with thousands of sizes still reads.

use super::{MemoryQuery, SizeBucket};
use crate::model::{Trace, NEVER_FREED};

/// The bucket `[low, high)` holding `size`: `[0, 1)` for 0, else
/// `[2^k, 2^(k+1))` (the top one ends at `u64::MAX`).
pub fn size_bucket(size: u64) -> (u64, u64) {
    if size == 0 {
        return (0, 1);
    }
    let k = 63 - size.leading_zeros();
    let low = 1u64 << k;
    (low, low.saturating_mul(2))
}

/// Bucket order number of `size`: 0 for size 0, `k + 1` for `[2^k, 2^(k+1))`.
fn bucket_number(size: u64) -> u32 {
    64 - size.leading_zeros()
}

/// See [`super::size_histogram`]. "In range": allocated within the range;
/// "freed": freed at or before the range's end (ever, without a range).
pub(super) fn size_histogram(
    trace: &Trace,
    query: &MemoryQuery,
    selected: &[u32],
) -> Vec<SizeBucket> {
    let Some(a) = trace.allocations.get(query.resource as usize) else {
        return Vec::new();
    };
    let end = query.range.map_or(NEVER_FREED - 1, |(_, hi)| hi);
    let mut counts: [SizeBucket; 65] = [SizeBucket::default(); 65];
    let mut used = false;
    for &at in super::live::allocated_in(trace, query.resource, query.range, selected).iter() {
        let at = at as usize;
        let (Some(&size), Some(&freed)) = (a.size.get(at), a.free_time.get(at)) else {
            continue;
        };
        let Some(bucket) = counts.get_mut(bucket_number(size) as usize) else {
            continue;
        };
        used = true;
        if freed <= end {
            bucket.freed_count += 1;
            bucket.freed_bytes = bucket.freed_bytes.saturating_add(size);
        } else {
            bucket.live_count += 1;
            bucket.live_bytes = bucket.live_bytes.saturating_add(size);
        }
    }
    if !used {
        return Vec::new();
    }
    let filled = |b: &SizeBucket| b.freed_count + b.live_count > 0;
    let first = counts.iter().position(filled).unwrap_or(0);
    let last = counts.iter().rposition(filled).unwrap_or(0);
    (first..=last)
        .filter_map(|k| {
            let b = counts.get(k)?;
            let low = if k == 0 { 0 } else { 1u64 << (k - 1) };
            let (low, high) = size_bucket(low);
            Some(SizeBucket { low, high, ..*b })
        })
        .collect()
}
