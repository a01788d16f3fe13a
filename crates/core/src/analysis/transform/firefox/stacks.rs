//! The transforms on one stack of a sample or allocation (frames outermost
//! first), exactly as Firefox Profiler rewrites its stack table: the new
//! frames, or `None` to drop the sample (an empty list drops it too).

use super::resources::Resources;
use crate::model::{StackTable, StrId, NO_PARENT};

/// Merge function: every `f` frame goes.
pub(super) fn merge_function(frames: &[StrId], f: StrId) -> Option<Vec<StrId>> {
    Some(frames.iter().copied().filter(|&x| x != f).collect())
}

/// Merge call node: the frame ending `path` at the stack's root goes.
pub(super) fn merge_call_node(frames: &[StrId], path: &[StrId]) -> Option<Vec<StrId>> {
    let mut out = frames.to_vec();
    if frames.starts_with(path) && !path.is_empty() {
        out.remove(path.len() - 1);
    }
    Some(out)
}

/// Focus on subtree: only stacks starting with `path`, re-rooted at its
/// last frame.
pub(super) fn focus_subtree(frames: &[StrId], path: &[StrId]) -> Option<Vec<StrId>> {
    if path.is_empty() || !frames.starts_with(path) {
        return None;
    }
    frames.get(path.len() - 1..).map(<[StrId]>::to_vec)
}

/// Focus on function: only stacks holding `f`, from its outermost frame.
pub(super) fn focus_function(frames: &[StrId], f: StrId) -> Option<Vec<StrId>> {
    let at = frames.iter().position(|&x| x == f)?;
    frames.get(at..).map(<[StrId]>::to_vec)
}

/// Focus on self: only samples whose leaf is `f`, as the one frame `f`.
pub(super) fn focus_self(frames: &[StrId], f: StrId) -> Option<Vec<StrId>> {
    (frames.last() == Some(&f)).then(|| vec![f])
}

/// Collapse function subtree: the frames below the outermost `f` go.
pub(super) fn collapse_function_subtree(frames: &[StrId], f: StrId) -> Option<Vec<StrId>> {
    let end = frames
        .iter()
        .position(|&x| x == f)
        .map_or(frames.len(), |at| at + 1);
    frames.get(..end).map(<[StrId]>::to_vec)
}

/// Collapse direct recursion: an `f` frame right below another goes.
pub(super) fn collapse_direct_recursion(frames: &[StrId], f: StrId) -> Option<Vec<StrId>> {
    let mut out: Vec<StrId> = Vec::with_capacity(frames.len());
    for &x in frames {
        if !(x == f && out.last() == Some(&f)) {
            out.push(x);
        }
    }
    Some(out)
}

/// Collapse recursion: the frames from below the outermost `f` down to the
/// innermost `f` go.
pub(super) fn collapse_recursion(frames: &[StrId], f: StrId) -> Option<Vec<StrId>> {
    let (Some(first), Some(last)) = (
        frames.iter().position(|&x| x == f),
        frames.iter().rposition(|&x| x == f),
    ) else {
        return Some(frames.to_vec());
    };
    let mut out = frames.get(..=first)?.to_vec();
    out.extend_from_slice(frames.get(last + 1..)?);
    Some(out)
}

/// Collapse resource: frames of resource `target` become `shown`, and a run
/// of them one frame.
pub(super) fn collapse_resource(
    frames: &[StrId],
    resources: &Resources,
    target: StrId,
    shown: StrId,
) -> Option<Vec<StrId>> {
    let mut out: Vec<StrId> = Vec::with_capacity(frames.len());
    let mut in_run = false;
    for &x in frames {
        let inside = resources.of(x) == Some(target);
        if !(inside && in_run) {
            out.push(if inside { shown } else { x });
        }
        in_run = inside;
    }
    Some(out)
}

/// Drop function: stacks holding `f` go.
pub(super) fn drop_function(frames: &[StrId], f: StrId) -> Option<Vec<StrId>> {
    (!frames.contains(&f)).then(|| frames.to_vec())
}

/// True when some stack of `table` starts with `path`.
pub(super) fn path_in_stacks(table: &StackTable, path: &[StrId]) -> bool {
    // Per stack: how many of the path's names it and its callers match
    // (`usize::MAX`: off the path). Parents come before their children.
    let mut matched: Vec<usize> = Vec::with_capacity(table.len());
    for (&frame, &parent) in table.frame.iter().zip(&table.parent) {
        let above = match parent {
            NO_PARENT => 0,
            p => matched.get(p as usize).copied().unwrap_or(usize::MAX),
        };
        let k = match path.get(above) {
            Some(&p) if p == frame => above + 1,
            _ => usize::MAX,
        };
        if k == path.len() {
            return true;
        }
        matched.push(k);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    // A=0 B=1 C=2 D=3
    #[test]
    fn stacks_change_as_firefox_profiler_changes_them() {
        assert_eq!(merge_function(&[0, 1, 2], 1), Some(vec![0, 2]));
        assert_eq!(merge_function(&[1], 1), Some(vec![]));
        assert_eq!(merge_call_node(&[0, 1, 1], &[0, 1]), Some(vec![0, 1]));
        assert_eq!(merge_call_node(&[2, 1], &[0, 1]), Some(vec![2, 1]));
        assert_eq!(focus_subtree(&[0, 1, 2], &[0, 1]), Some(vec![1, 2]));
        assert_eq!(focus_subtree(&[1, 2], &[0, 1]), None);
        assert_eq!(focus_function(&[0, 1, 2, 1], 1), Some(vec![1, 2, 1]));
        assert_eq!(focus_function(&[0, 2], 1), None);
        assert_eq!(focus_self(&[0, 1, 2, 1], 1), Some(vec![1]));
        assert_eq!(focus_self(&[0, 1, 2], 1), None);
        assert_eq!(
            collapse_function_subtree(&[0, 1, 2, 1], 1),
            Some(vec![0, 1])
        );
        assert_eq!(
            collapse_direct_recursion(&[0, 1, 1, 2, 1], 1),
            Some(vec![0, 1, 2, 1])
        );
        // A→B→C→B→D becomes A→B→D.
        assert_eq!(collapse_recursion(&[0, 1, 2, 1, 3], 1), Some(vec![0, 1, 3]));
        assert_eq!(drop_function(&[0, 1, 2], 2), None);
    }
}
