//! The same options on sample sets and allocation stacks, which have no
//! calls to time: a stack is read from the outermost frame down as uftrace
//! reads nested entries (`-F` starts it and restores the depth budget, `-N`
//! drops the sample, `-H` lifts the frames below, `-D` cuts the stack, whose
//! deeper frames' weight stays with the last frame kept); `-C` keeps a stack
//! through its innermost caller-filter frame and drops the others. `-r`
//! keeps the samples and allocations timed inside the range; `--tid` keeps
//! the sets of the chosen threads. `-t` has no durations to compare: it
//! leaves them as they were, with a note.

use super::fstack::{NAME_HIDE, NAME_IN, NAME_OUT};
use super::settings::Plan;
use crate::analysis::transform::edit::map_stacks;
use crate::model::{SampleSet, StrId, Trace};

/// Applies `plan` to every sample set and allocation resource; `note`
/// receives what could not apply.
pub fn apply(trace: &mut Trace, plan: &Plan, filter_time: bool, mut note: impl FnMut(String)) {
    let has_stacks = !trace.sample_sets.is_empty() || !trace.allocations.is_empty();
    if !has_stacks {
        return;
    }
    if filter_time && plan.threshold > 0 {
        note("-t: samples and allocations have no durations; left as they were".into());
    }
    if plan.start.is_some() || plan.stop.is_some() {
        restrict_to_range(trace, plan, &mut note);
    }
    if let Some(keep) = &plan.threads {
        restrict_to_threads(trace, keep, &mut note);
    }
    let names_matter = plan.filter_in
        || plan.callers.is_some()
        || plan.name_flags.iter().any(|&f| f != 0)
        || plan.depth < super::fstack::DEFAULT_DEPTH;
    if names_matter {
        map_stacks(trace, |frames| project(frames, plan));
    }
}

/// A stack as uftrace would show it; `None` drops the sample.
pub fn project(frames: &[StrId], plan: &Plan) -> Option<Vec<StrId>> {
    let mut kept = Vec::with_capacity(frames.len());
    let mut inside_filter = 0;
    let mut budget = plan.depth;
    let mut cut = false;
    for &frame in frames {
        let flags = plan.name_flags.get(frame as usize).copied().unwrap_or(0);
        if flags & NAME_OUT != 0 {
            return None;
        }
        if cut {
            continue;
        }
        if flags & NAME_IN != 0 {
            inside_filter += 1;
            budget = plan.depth;
        } else if plan.filter_in && inside_filter == 0 {
            continue;
        }
        if budget <= 0 {
            cut = true;
            continue;
        }
        if flags & NAME_HIDE != 0 {
            continue;
        }
        budget -= 1;
        kept.push(frame);
    }
    if plan.filter_in && inside_filter == 0 {
        return None;
    }
    if let Some(callers) = &plan.callers {
        let last = kept
            .iter()
            .rposition(|&f| callers.get(f as usize).copied().unwrap_or(false))?;
        kept.truncate(last + 1);
    }
    Some(kept)
}

fn in_range(plan: &Plan, time: i64) -> bool {
    plan.start.is_none_or(|s| time >= s) && plan.stop.is_none_or(|s| time <= s)
}

fn restrict_to_range(trace: &mut Trace, plan: &Plan, note: &mut impl FnMut(String)) {
    for set in &mut trace.sample_sets {
        if set.time.is_empty() && !set.stack.is_empty() {
            note(format!(
                "-r: the sample set {} has no times; left as it was",
                set.name
            ));
            continue;
        }
        let keep: Vec<bool> = set.time.iter().map(|&t| in_range(plan, t)).collect();
        retain_samples(set, &keep);
    }
    for a in &mut trace.allocations {
        let keep: Vec<bool> = a.time.iter().map(|&t| in_range(plan, t)).collect();
        a.retain_where(&keep);
    }
}

fn restrict_to_threads(trace: &mut Trace, keep: &[bool], note: &mut impl FnMut(String)) {
    for set in &mut trace.sample_sets {
        match set.thread {
            Some(t) if !keep.get(t as usize).copied().unwrap_or(false) => {
                let none = vec![false; set.len()];
                retain_samples(set, &none);
            }
            Some(_) => {}
            None => note(format!(
                "--tid: the sample set {} is not per thread; left as it was",
                set.name
            )),
        }
    }
    for a in &mut trace.allocations {
        let mask: Vec<bool> = a
            .thread
            .iter()
            .map(|&t| keep.get(t as usize).copied().unwrap_or(false))
            .collect();
        a.retain_where(&mask);
    }
}

/// Keeps the samples where `keep` says so.
fn retain_samples(set: &mut SampleSet, keep: &[bool]) {
    retain(&mut set.stack, keep);
    if !set.time.is_empty() {
        retain(&mut set.time, keep);
    }
    for w in &mut set.weights {
        retain(w, keep);
    }
}

fn retain<T>(column: &mut Vec<T>, keep: &[bool]) {
    let mut i = 0;
    column.retain(|_| {
        i += 1;
        keep.get(i - 1).copied().unwrap_or(false)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(flags: &[(u32, u8)], callers: &[u32], depth: i32) -> Plan {
        let mut name_flags = vec![0; 8];
        for &(id, f) in flags {
            name_flags[id as usize] = f;
        }
        let filter_in = flags.iter().any(|&(_, f)| f & NAME_IN != 0);
        let callers = (!callers.is_empty()).then(|| {
            let mut c = vec![false; 8];
            for &id in callers {
                c[id as usize] = true;
            }
            c
        });
        Plan {
            name_flags,
            callers,
            filter_in,
            depth,
            ..Plan::unfiltered(8)
        }
    }

    #[test]
    fn stacks_read_as_nested_entries() {
        let stack = [0, 1, 2, 3];
        // -F 1: from the filter frame down.
        assert_eq!(
            project(&stack, &plan(&[(1, NAME_IN)], &[], 1024)),
            Some(vec![1, 2, 3])
        );
        // -F 5 (not in the stack): dropped.
        assert_eq!(project(&stack, &plan(&[(5, NAME_IN)], &[], 1024)), None);
        // -N 2: dropped.
        assert_eq!(project(&stack, &plan(&[(2, NAME_OUT)], &[], 1024)), None);
        // -H 1: lifted out; it spends no depth, so -D 2 keeps 0 and 2.
        assert_eq!(
            project(&stack, &plan(&[(1, NAME_HIDE)], &[], 2)),
            Some(vec![0, 2])
        );
        // -F 1 restores the depth budget: -D 1 keeps only 1.
        assert_eq!(
            project(&stack, &plan(&[(1, NAME_IN)], &[], 1)),
            Some(vec![1])
        );
        // -C 2: through the caller frame, the rest merged into it.
        assert_eq!(project(&stack, &plan(&[], &[2], 1024)), Some(vec![0, 1, 2]));
        assert_eq!(project(&[0, 1], &plan(&[], &[2], 1024)), None);
    }
}
