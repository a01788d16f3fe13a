//! uftrace's filter options carried out as `uftrace report` (v0.13) carries
//! them out, so that `report()` of the narrowed trace prints what `uftrace
//! report OPTIONS` prints.
//!
//! uftrace filters while it replays a task's records, in two stages, and so
//! does this module, over each thread's spans turned back into their entry /
//! exit records (one pass per thread, nothing per record but a few integer
//! tests; patterns are matched once per string id):
//!
//! 1. [`records`]: what reading keeps (`-r`, `-t`, `-C`): a call not read
//!    leaves its time in its caller's self time;
//! 2. [`fstack`]: uftrace's function stack over the records read (`-F`,
//!    `-N`, `-H`, `-D`, and the `-C` rule that context switches are not
//!    shown): a call read but not shown still counts as its caller's child,
//!    so its time leaves the caller's self time without going anywhere —
//!    [`Spans::taken_self`](crate::model::Spans::taken_self) carries that.
//!
//! [`rebuild`] writes the calls uftrace counts back as spans (new depth,
//! taken self time); [`stacks`] projects the same options onto sample and
//! allocation stacks. Choices where uftrace has no answer:
//!
//! - every format's spans are read the same way; off-CPU spans play
//!   uftrace's `linux:schedule` (patterns never match them);
//! - in a trace that counts events (no clock) `-t` and `-r` take bare whole
//!   numbers of events; a time unit is an error;
//! - `--tid` compares the thread's id as the trace names it;
//! - a pattern that matches nothing is a note, as uftrace's "failed to set
//!   filter or trigger" warning (and, as in uftrace, the option groups after
//!   it are not set up);
//! - `-F` and `-N` patterns are applied `-F` first: where both match a
//!   function, `-N` wins (uftrace takes the one typed last);
//! - uftrace decides recursion (a total counted once) by the whole stack,
//!   shown or not; `report()` looks at the calls kept, which differs only
//!   where a `-F` function calls back into a function above it.

mod check;
mod fstack;
mod patterns;
mod rebuild;
mod records;
mod settings;
mod stacks;
mod times;

use super::edit::rebuild_spans;
use super::{StepError, StepNote, UftraceFilter};
use crate::analysis::meter::Meter;
use crate::model::{Spans, Trace};
use fstack::{Fstack, Settings};
use records::{read_records, ReadFilter};
pub(super) use settings::Plan;
use std::borrow::Cow;

/// What `filter` selects in `trace` (read before its spans are taken out);
/// `None` for an empty line, which changes nothing.
pub(super) fn plan(
    trace: &Trace,
    filter: &UftraceFilter,
    step: usize,
) -> Result<Option<Plan>, StepError> {
    if filter.is_empty() {
        return Ok(None);
    }
    let plan = Plan::new(trace, filter).map_err(|message| StepError { step, message })?;
    Ok(Some(plan))
}

/// Carries out `plan` (of `filter`, step `step`) on `trace`, whose
/// threads' spans are `spans` (taken out of it, or still in the trace the
/// narrowing started from), pausing whenever `meter` is spent.
pub(super) async fn filter_spans(
    trace: &mut Trace,
    spans: Vec<Cow<'_, Spans>>,
    plan: Option<Plan>,
    filter: &UftraceFilter,
    step: usize,
    notes: &mut Vec<StepNote>,
    meter: &Meter,
) {
    let Some(plan) = plan else {
        for (thread, old) in trace.threads.iter_mut().zip(spans) {
            thread.spans = old.into_owned();
        }
        return;
    };
    let mut note = |message: String| notes.push(StepNote { step, message });
    for w in &plan.warnings {
        note(w.clone());
    }
    let unknown_name = if plan.start.is_some() || plan.stop.is_some() {
        trace.strings.intern("<0>")
    } else {
        u32::MAX
    };
    let settings = Settings {
        unknown_name,
        name_flags: &plan.name_flags,
        filter_in: plan.filter_in,
        depth: plan.depth,
        no_sched: plan.no_sched,
        skip_events_outside: trace.format == Some(crate::model::Format::Uftrace),
        range_stop: plan.raw_stop,
    };
    for (index, (thread, spans)) in trace.threads.iter_mut().zip(spans).enumerate() {
        let chosen = plan
            .threads
            .as_ref()
            .is_none_or(|keep| keep.get(index).copied().unwrap_or(false));
        if !chosen {
            thread.spans = Default::default();
            thread.instants = Default::default();
            continue;
        }
        let spans = spans.as_ref();
        let mut fs = Fstack::new(&settings, spans);
        let mut reader = ReadFilter::new(plan.start, plan.stop, plan.threshold, &spans.name);
        reader.callers = plan.callers.as_deref();
        let read = |r: records::Record| reader.push(r, &mut |kept| fs.read(kept));
        read_records(spans, meter, read).await;
        reader.finish(&mut |kept| fs.read(kept));
        fs.finish();
        let edit = rebuild::edit(spans, &fs, meter).await;
        drop(fs);
        if let (Some(&first), Some(&last)) = (edit.start.iter().min(), edit.end.iter().max()) {
            thread.first_time = Some(thread.first_time.map_or(first, |t| t.min(first)));
            thread.last_time = Some(thread.last_time.map_or(last, |t| t.max(last)));
        }
        // One block (measured in the page: slicing it made the slices longer).
        meter.spend(edit.len()).await;
        thread.spans = rebuild_spans(spans, edit);
        if plan.start.is_some() || plan.stop.is_some() {
            keep_instants_in_range(thread, plan.start, plan.stop);
        }
    }
    stacks::apply(trace, &plan, filter.time_filter.is_some(), &mut note);
}

/// Markers outside `-r` go, as every other record outside it.
fn keep_instants_in_range(
    thread: &mut crate::model::Thread,
    start: Option<i64>,
    stop: Option<i64>,
) {
    let keep: Vec<bool> = thread
        .instants
        .time
        .iter()
        .map(|&t| start.is_none_or(|s| t >= s) && stop.is_none_or(|s| t <= s))
        .collect();
    if keep.iter().all(|&k| k) {
        return;
    }
    let instants = &thread.instants;
    let mut kept = crate::model::Instants::default();
    let mut details = instants.details.clone();
    let mut new_index = vec![u32::MAX; instants.len()];
    for (i, (&time, &name)) in instants.time.iter().zip(&instants.name).enumerate() {
        if keep.get(i).copied().unwrap_or(false) {
            if let Some(slot) = new_index.get_mut(i) {
                *slot = kept.time.len() as u32;
            }
            kept.time.push(time);
            kept.name.push(name);
        }
    }
    let groups: Vec<bool> = details
        .owners()
        .map(|o| new_index.get(o as usize).is_some_and(|&n| n != u32::MAX))
        .collect();
    for owner in details.owners_mut() {
        *owner = new_index.get(*owner as usize).copied().unwrap_or(u32::MAX);
    }
    let pick = |column: &mut Vec<u32>| {
        let mut i = 0;
        column.retain(|_| {
            i += 1;
            groups.get(i - 1).copied().unwrap_or(false)
        });
    };
    pick(details.owners_mut());
    pick(&mut details.shape);
    pick(&mut details.first);
    kept.details = details;
    thread.instants = kept;
}
