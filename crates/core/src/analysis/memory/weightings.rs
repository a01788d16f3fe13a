//! [`call_tree`](super::call_tree): `rtrace-calltree`'s weightings of an
//! allocation graph (`scripts/rtrace-calltree` in sp-rtrace).
//!
//! `--type=graph` weighs every function by the bytes allocated through it,
//! `--type=count` by the number of allocations. `--type=topmost` keeps,
//! for each backtrace, the highest address allocated from it, sorts the
//! backtraces by that address, highest first, and draws only the first
//! `--depth` of them (`TopmostGraphReport`): [`Weighting::Topmost`]'s
//! `count` is that depth, and the kept backtraces' allocations are weighed
//! by bytes (the report shows the graph nodes' sizes).

use super::Weighting;
use crate::analysis::calltree::{CallTree, TreeBuilder};
use crate::model::{Allocations, Trace};
use std::collections::{BTreeMap, HashSet};

/// See [`super::call_tree`].
pub(super) fn call_tree(
    trace: &Trace,
    resource: u32,
    allocations: &[u32],
    weighting: Weighting,
) -> CallTree {
    let Some(a) = trace.allocations.get(resource as usize) else {
        return CallTree::new();
    };
    let kept = match weighting {
        Weighting::Topmost { count } => Some(topmost_stacks(a, allocations, count)),
        _ => None,
    };
    // Per stack: weight and allocation count, in stack order.
    let mut weighted: BTreeMap<u32, (i64, u64)> = BTreeMap::new();
    for &at in allocations {
        let (Some(&stack), Some(&size)) = (a.stack.get(at as usize), a.size.get(at as usize))
        else {
            continue;
        };
        if kept.as_ref().is_some_and(|k| !k.contains(&stack)) {
            continue;
        }
        let w = match weighting {
            Weighting::Count => 1,
            Weighting::Bytes | Weighting::Topmost { .. } => i64::try_from(size).unwrap_or(i64::MAX),
        };
        let entry = weighted.entry(stack).or_default();
        entry.0 = entry.0.saturating_add(w);
        entry.1 += 1;
    }
    let mut b = TreeBuilder::new();
    for (stack, (weight, count)) in weighted {
        let node = b.path(&trace.stacks.frames(stack));
        if let Some(n) = b.tree.nodes.get_mut(node as usize) {
            n.self_time = n.self_time.saturating_add(weight);
            n.calls += count;
        }
    }
    let mut tree = b.tree;
    tree.sum_totals();
    tree.sort_left_heavy();
    tree
}

/// The `count` backtraces whose highest allocated address is highest
/// (ties: the lower stack index first).
fn topmost_stacks(a: &Allocations, allocations: &[u32], count: u32) -> HashSet<u32> {
    let mut highest: BTreeMap<u32, u64> = BTreeMap::new();
    for &at in allocations {
        let (Some(&stack), Some(&address)) = (a.stack.get(at as usize), a.address.get(at as usize))
        else {
            continue;
        };
        let top = highest.entry(stack).or_insert(address);
        *top = (*top).max(address);
    }
    let mut by_address: Vec<(u32, u64)> = highest.into_iter().collect();
    by_address.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    by_address
        .into_iter()
        .take(count as usize)
        .map(|(stack, _)| stack)
        .collect()
}
