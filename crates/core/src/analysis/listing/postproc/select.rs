//! Which calls postproc lists and in what order, by its rules: the `-R`
//! and `-C` filters, the heap block's lowest and highest block, the leak
//! filter `-l`, the `-c` groups of calls with one backtrace (ordered by its
//! backtrace hash table, then stably sorted by `-s`), and `-l`'s summary.

use super::facts::{CallFacts, Kind};
use super::registry::Registry;
use crate::analysis::listing::{PostprocOptions, PostprocSort};
use crate::fast_hash::FastMap;

/// A call kept for the listing: its span and facts.
#[derive(Clone, Copy, Debug)]
pub(super) struct Kept {
    pub span: u32,
    pub facts: CallFacts,
}

/// True when `-R` keeps the call (the resource types it keeps already
/// marked in the registry by [`settle_resources`]).
pub(super) fn resource_kept(facts: &CallFacts, registry: &Registry) -> bool {
    facts
        .resource
        .and_then(|r| registry.resources.get(r))
        .is_none_or(|r| r.kept)
}

/// True when `-C` keeps the call.
pub(super) fn context_kept(facts: &CallFacts, options: &PostprocOptions) -> bool {
    match options.context {
        Some(0) => facts.context == 0,
        Some(mask) => facts.context & mask != 0,
        None => true,
    }
}

/// `-R`: drops the resource types out of the mask; one type left is
/// renumbered 1 and hidden from the call lines. True when call lines show
/// their resource type.
pub(super) fn settle_resources(registry: &mut Registry, options: &PostprocOptions) -> bool {
    if let Some(mask) = options.resources.filter(|&m| m != 0) {
        for r in &mut registry.resources {
            let bit = 1u32.checked_shl(r.id.wrapping_sub(1)).unwrap_or(0);
            r.kept = bit & mask != 0;
        }
    }
    let mut kept = registry.resources.iter_mut().filter(|r| r.kept);
    match (kept.next(), kept.next()) {
        (Some(only), None) => {
            only.id = 1;
            false
        }
        _ => true,
    }
}

/// Lowest and highest id of an allocation (postproc's "blocks"), before
/// `-l`; the lowest starts at all ones of a pointer.
pub(super) fn block_bounds(calls: &[Kept], pointer_size: u32) -> (u64, u64) {
    let mut low = if pointer_size == 4 {
        u64::from(u32::MAX)
    } else {
        u64::MAX
    };
    let mut high = 0;
    for call in calls.iter().filter(|c| c.facts.kind == Kind::Alloc) {
        low = low.min(call.facts.id);
        high = high.max(call.facts.id);
    }
    (low, high)
}

/// `-l`: the allocations no release matched. A release drops the latest
/// allocation of its (type, id), or one reference of a reference-counted
/// type; a repeated allocation of a counted type only adds a reference.
/// Every release is dropped, and calls of undefined type stay.
pub(super) fn leaks(calls: Vec<Kept>, registry: &Registry) -> Vec<Kept> {
    let mut keep = vec![true; calls.len()];
    // (type, id) → (position of the allocation, references).
    let mut live: FastMap<(Option<usize>, u64), (usize, u32)> = FastMap::default();
    for (at, call) in calls.iter().enumerate() {
        let key = (call.facts.resource, call.facts.id);
        let counted = call
            .facts
            .resource
            .and_then(|r| registry.resources.get(r))
            .is_some_and(|r| r.flags & 1 != 0);
        match call.facts.kind {
            Kind::Alloc => match live.get_mut(&key) {
                Some(entry) if counted => {
                    entry.1 += 1;
                    keep[at] = false;
                }
                _ => {
                    live.insert(key, (at, 1));
                }
            },
            Kind::Free => {
                if let Some(entry) = live.get_mut(&key) {
                    entry.1 = entry.1.saturating_sub(1);
                    if entry.1 == 0 || !counted {
                        if let Some(slot) = keep.get_mut(entry.0) {
                            *slot = false;
                        }
                        live.remove(&key);
                    }
                }
                keep[at] = false;
            }
            Kind::Undefined => {}
        }
    }
    calls
        .into_iter()
        .zip(keep)
        .filter_map(|(call, keep)| keep.then_some(call))
        .collect()
}

/// `-l`'s summary per listed resource type: `(type text, description,
/// blocks, bytes)`, with postproc's slip (it sums type N at N - 1 but reads
/// type N at the lowest set bit of N, minus one).
pub(super) fn leak_summary(calls: &[Kept], registry: &Registry) -> Vec<(String, String, i32, i32)> {
    let mut sums = [(0i32, 0i32); 32];
    for call in calls.iter().filter(|c| c.facts.kind == Kind::Alloc) {
        let id = call
            .facts
            .resource
            .and_then(|r| registry.resources.get(r))
            .map_or(1, |r| r.id);
        if let Some(sum) = sums.get_mut(id.wrapping_sub(1) as usize) {
            sum.0 = sum.0.wrapping_add(1);
            sum.1 = sum.1.wrapping_add(call.facts.size);
        }
    }
    registry
        .resources
        .iter()
        .filter(|r| r.kept)
        .map(|r| {
            let read = (r.id.trailing_zeros() as usize).min(31);
            let (blocks, bytes) = if r.id == 0 { (0, 0) } else { sums[read] };
            (r.text.clone(), r.description.clone(), blocks, bytes)
        })
        .collect()
}

/// A `-c` group: the calls (positions in the kept list) with one backtrace.
pub(super) struct Group {
    pub backtrace: u32,
    pub calls: Vec<u32>,
    pub count: i32,
    pub size: i32,
}

/// `-c`: groups by backtrace in postproc's hash table order (bucket of the
/// full backtrace's hash, then first appearance), stably sorted by `sort`.
pub(super) fn groups(calls: &[Kept], registry: &Registry, sort: PostprocSort) -> Vec<Group> {
    let mut by_backtrace: FastMap<u32, usize> = FastMap::default();
    let mut groups: Vec<Group> = Vec::new();
    for (at, call) in calls.iter().enumerate() {
        let number = call.facts.backtrace;
        let g = *by_backtrace.entry(number).or_insert_with(|| {
            groups.push(Group {
                backtrace: number,
                calls: Vec::new(),
                count: 0,
                size: 0,
            });
            groups.len() - 1
        });
        if let Some(group) = groups.get_mut(g) {
            group.calls.push(at as u32);
            group.count = group.count.wrapping_add(1);
            group.size = group.size.wrapping_add(call.facts.size);
        }
    }
    groups.sort_by_key(|g| (hash(registry.backtrace(g.backtrace)), g.backtrace));
    match sort {
        PostprocSort::SizeAsc => groups.sort_by_key(|g| g.size),
        PostprocSort::Size => groups.sort_by_key(|g| std::cmp::Reverse(g.size)),
        PostprocSort::CountAsc => groups.sort_by_key(|g| g.count),
        PostprocSort::Count => groups.sort_by_key(|g| std::cmp::Reverse(g.count)),
    }
    groups
}

/// postproc's backtrace hash: every frame's 16-bit pieces, shifted by 3
/// bits at a time, xored together (its table has 65536 buckets).
fn hash(frames: &[u64]) -> u64 {
    let mut hash = 0;
    for &frame in frames {
        let mut value = frame;
        while value != 0 {
            hash ^= value & 0xffff;
            value >>= 3;
        }
    }
    hash
}
