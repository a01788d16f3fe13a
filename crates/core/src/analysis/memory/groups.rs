//! [`group_by_stack`](super::group_by_stack): allocations sharing one
//! backtrace, as `sp-rtrace-postproc -c` groups leaks, ordered as its
//! `-s size-desc` orders them (`src/rtrace-postproc/leaks_sort.c`,
//! `leaks_compare_by_size_desc`), ties broken so the order is stable.

use super::StackGroup;
use crate::model::Trace;
use std::collections::HashMap;

/// See [`super::group_by_stack`].
pub(super) fn group_by_stack(trace: &Trace, resource: u32, allocations: &[u32]) -> Vec<StackGroup> {
    let Some(a) = trace.allocations.get(resource as usize) else {
        return Vec::new();
    };
    let mut by_stack: HashMap<u32, StackGroup> = HashMap::new();
    for &at in allocations {
        let (Some(&stack), Some(&size)) = (a.stack.get(at as usize), a.size.get(at as usize))
        else {
            continue;
        };
        let group = by_stack.entry(stack).or_insert(StackGroup {
            stack,
            ..StackGroup::default()
        });
        group.bytes = group.bytes.saturating_add(size);
        group.blocks += 1;
    }
    let mut groups: Vec<StackGroup> = by_stack.into_values().collect();
    groups.sort_by(|x, y| {
        y.bytes
            .cmp(&x.bytes)
            .then(y.blocks.cmp(&x.blocks))
            .then(x.stack.cmp(&y.stack))
    });
    groups
}
