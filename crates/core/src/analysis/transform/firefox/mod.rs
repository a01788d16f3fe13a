//! Firefox Profiler's call-tree transforms (its `transforms.js`) on spans,
//! sample sets and allocation stacks.
//!
//! On stacks (samples, allocations) each transform rewrites the frame list
//! exactly as Firefox Profiler rewrites its stack table ([`stacks`]). On
//! spans each one is defined so that the call tree / flame graph built from
//! the narrowed spans is the one Firefox Profiler would show for the same
//! calls taken as samples (a span's self time being the samples whose leaf
//! it is). A removed span's time goes to its nearest kept ancestor's self
//! time, or is taken from it (`Spans::taken_self`):
//!
//! | transform | on spans |
//! |---|---|
//! | merge function F | every call of F goes; its children move up to its caller (one level per merged call), its self time becomes the caller's; a merged root leaves its children as roots and its self time goes |
//! | merge call node A›B›C | the same, only for the calls whose path from a root is exactly A›B›C |
//! | focus on subtree A›B›C | the calls at exactly that path become roots, with their subtrees; everything else goes |
//! | focus on function F | every outermost call of F becomes a root with its subtree (calls of F inside it stay as they are); everything outside goes |
//! | focus on self F | every outermost call of F becomes a root with no children; its self time is the sum of the self times of all calls of F in its subtree (Firefox Profiler keeps the samples whose leaf is F, all under one root F) |
//! | collapse function subtree F | everything under a call of F goes; the time becomes F's self time |
//! | collapse resource R | every call of a function of R is shown as R (its details kept); a call of R made directly by another call of R merges into it, as Firefox Profiler collapses consecutive frames of one resource |
//! | collapse direct recursion F | a call of F made directly by F merges into the caller |
//! | collapse recursion F | every call of F under another call of F merges into the outermost one; the calls between them are off the stack while the inner one runs, so they are cut into pieces around it, a later piece flagged `SPAN_CONTINUED` and not counted as another call (see `recursion`) |
//! | drop function F | every call of F goes with its subtree; callers keep their length but not the dropped time as self (as uftrace's `-N`, and as Firefox Profiler drops the samples) |
//!
//! A step naming a function (or path, or resource) that is nowhere in the
//! trace leaves the trace as it was and says so in a [`StepNote`]; so does a
//! step that finds its function in the spans but not in the stacks, or the
//! other way round (a focus then empties the part that lacks it).

mod engine;
mod focus_self;
mod recursion;
mod resources;
mod rules;
mod stacks;

pub use resources::{resource_of, resources_by_name};

use super::edit::{map_stacks, rebuild_spans, SpanEdit};
use super::{Step, StepError, StepNote};
use crate::analysis::meter::Meter;
use crate::model::{Spans, StackTable, StrId, Trace};
use resources::Resources;
use std::borrow::Cow;

/// Carries out `step` on `trace`, whose threads' spans are `spans` (taken
/// out of it, or still in the trace the narrowing started from: a step
/// reads them there instead of copying them first), pausing whenever
/// `meter` is spent.
pub(super) async fn carry_out(
    trace: &mut Trace,
    spans: Vec<Cow<'_, Spans>>,
    step: &Step,
    step_index: usize,
    notes: &mut Vec<StepNote>,
    meter: &Meter,
) -> Result<(), StepError> {
    let mut note = |message: String| {
        notes.push(StepNote {
            step: step_index,
            message: format!("{}: {message}", step.label()),
        })
    };
    let threads: Vec<&Spans> = spans.iter().map(|s| s.as_ref()).collect();
    let resolved = Target::resolve(trace, &threads, step, step_index)?;
    drop(threads);
    let Some(target) = resolved else {
        put_back(trace, spans);
        note(match step {
            // uftrace keeps no module for a resolved symbol, Scaler's V1
            // output no library: say why nothing belongs to it.
            Step::CollapseResource(_) => {
                "not in this trace (no function of it is known to belong to this resource); nothing changed".into()
            }
            _ => "not in this trace; nothing changed".into(),
        });
        return Ok(());
    };
    let in_spans = spans.iter().any(|s| target.found_in_spans(s));
    let in_stacks = target.found_in_stacks(&trace.stacks);
    if !in_spans && !in_stacks {
        put_back(trace, spans);
        note("not in this trace; nothing changed".into());
        return Ok(());
    }
    let had_spans = spans.iter().any(|s| !s.is_empty());
    let target = target.interned(trace);
    let focus = target.empties_what_lacks_it();
    for (thread, old) in trace.threads.iter_mut().zip(spans) {
        let affected = focus || old.name.iter().any(|&n| target.mentions(n));
        thread.spans = if affected && !old.is_empty() {
            let edit = target.edit_spans(&old, meter).await;
            meter.spend(edit.len()).await;
            rebuild_spans(&old, edit)
        } else {
            old.into_owned()
        };
    }
    let has_stacks = trace.sample_sets.iter().any(|s| !s.is_empty())
        || trace.allocations.iter().any(|a| !a.stack.is_empty());
    if has_stacks && (in_stacks || focus) {
        map_stacks(trace, |frames| target.map_frames(frames));
    }
    if has_stacks && !in_stacks {
        note(target.missing("the sample and allocation stacks"));
    }
    if had_spans && !in_spans {
        note(target.missing("the calls (spans)"));
    }
    Ok(())
}

/// Puts untouched spans back into their threads.
fn put_back(trace: &mut Trace, spans: Vec<Cow<'_, Spans>>) {
    for (thread, old) in trace.threads.iter_mut().zip(spans) {
        thread.spans = old.into_owned();
    }
}

/// A step with its names turned into the trace's string ids.
enum Target {
    Merge(StrId),
    MergeNode(Vec<StrId>),
    FocusSubtree(Vec<StrId>),
    FocusFunction(StrId),
    FocusSelf(StrId),
    Collapse(StrId),
    Resource {
        resources: Resources,
        target: StrId,
        shown: StrId,
    },
    DirectRecursion(StrId),
    Recursion(StrId),
    Drop(StrId),
}

impl Target {
    /// The step's ids, or `None` when a name it holds is not in the trace.
    fn resolve(
        trace: &Trace,
        spans: &[&Spans],
        step: &Step,
        step_index: usize,
    ) -> Result<Option<Target>, StepError> {
        let id = |name: &str| trace.strings.find(name);
        let path = |names: &[String]| -> Result<Option<Vec<StrId>>, StepError> {
            if names.is_empty() {
                return Err(StepError {
                    step: step_index,
                    message: "an empty call path names no call".into(),
                });
            }
            Ok(names.iter().map(|n| id(n)).collect())
        };
        Ok(match step {
            Step::Uftrace(_) => {
                return Err(StepError {
                    step: step_index,
                    message: "a uftrace filter line is not a Firefox Profiler transform".into(),
                })
            }
            Step::MergeFunction(n) => id(n).map(Target::Merge),
            Step::MergeCallNode(p) => path(p)?.map(Target::MergeNode),
            Step::FocusSubtree(p) => path(p)?.map(Target::FocusSubtree),
            Step::FocusFunction(n) => id(n).map(Target::FocusFunction),
            Step::FocusSelf(n) => id(n).map(Target::FocusSelf),
            Step::CollapseFunctionSubtree(n) => id(n).map(Target::Collapse),
            Step::CollapseResource(n) => {
                let resources = Resources::build(trace, spans);
                resources.find(trace, n).map(|target| Target::Resource {
                    resources,
                    target,
                    shown: target,
                })
            }
            Step::CollapseDirectRecursion(n) => id(n).map(Target::DirectRecursion),
            Step::CollapseRecursion(n) => id(n).map(Target::Recursion),
            Step::DropFunction(n) => id(n).map(Target::Drop),
        })
    }

    /// The target with a collapsed resource's name interned in the trace.
    fn interned(self, trace: &mut Trace) -> Target {
        match self {
            Target::Resource {
                resources, target, ..
            } => {
                let shown = resources.intern(trace, target);
                Target::Resource {
                    resources,
                    target,
                    shown,
                }
            }
            other => other,
        }
    }

    /// True when a span or frame named `name` is one the step is about (a
    /// path's last name).
    fn mentions(&self, name: StrId) -> bool {
        match self {
            Target::MergeNode(p) | Target::FocusSubtree(p) => p.last() == Some(&name),
            Target::Resource {
                resources, target, ..
            } => resources.of(name) == Some(*target),
            Target::Merge(f)
            | Target::FocusFunction(f)
            | Target::FocusSelf(f)
            | Target::Collapse(f)
            | Target::DirectRecursion(f)
            | Target::Recursion(f)
            | Target::Drop(f) => *f == name,
        }
    }

    /// True for the focus steps, which remove what does not hold the target.
    fn empties_what_lacks_it(&self) -> bool {
        matches!(
            self,
            Target::FocusSubtree(_) | Target::FocusFunction(_) | Target::FocusSelf(_)
        )
    }

    /// True when some span is one the step is about (for a path: a call
    /// at exactly that path).
    fn found_in_spans(&self, spans: &Spans) -> bool {
        match self {
            Target::MergeNode(p) | Target::FocusSubtree(p) => rules::path_in_spans(spans, p),
            _ => spans.name.iter().any(|&n| self.mentions(n)),
        }
    }

    /// True when some stack holds what the step is about.
    fn found_in_stacks(&self, table: &StackTable) -> bool {
        match self {
            Target::MergeNode(p) | Target::FocusSubtree(p) => stacks::path_in_stacks(table, p),
            _ => table.frame.iter().any(|&n| self.mentions(n)),
        }
    }

    /// The note for a part of the trace the step found nothing in.
    fn missing(&self, part: &str) -> String {
        if self.empties_what_lacks_it() {
            format!("{part} never reach it, so focusing left them empty")
        } else {
            format!("{part} never reach it; they are left as they were")
        }
    }

    /// The step's edit of one thread's spans.
    async fn edit_spans(&self, spans: &Spans, meter: &Meter) -> SpanEdit {
        let m = meter;
        match self {
            Target::Merge(f) => rules::merge_function(m, spans, *f).await,
            Target::MergeNode(p) => rules::merge_call_node(m, spans, p).await,
            Target::FocusSubtree(p) => rules::focus_subtree(m, spans, p).await,
            Target::FocusFunction(f) => rules::focus_function(m, spans, *f).await,
            Target::FocusSelf(f) => focus_self::focus_self(m, spans, *f).await,
            Target::Collapse(f) => rules::collapse_function_subtree(m, spans, *f).await,
            Target::Resource {
                resources,
                target,
                shown,
            } => rules::collapse_resource(m, spans, resources, *target, *shown).await,
            Target::DirectRecursion(f) => rules::collapse_direct_recursion(m, spans, *f).await,
            Target::Recursion(f) => recursion::collapse_recursion(m, spans, *f).await,
            Target::Drop(f) => rules::drop_function(m, spans, *f).await,
        }
    }

    fn map_frames(&self, frames: &[StrId]) -> Option<Vec<StrId>> {
        match self {
            Target::Merge(f) => stacks::merge_function(frames, *f),
            Target::MergeNode(p) => stacks::merge_call_node(frames, p),
            Target::FocusSubtree(p) => stacks::focus_subtree(frames, p),
            Target::FocusFunction(f) => stacks::focus_function(frames, *f),
            Target::FocusSelf(f) => stacks::focus_self(frames, *f),
            Target::Collapse(f) => stacks::collapse_function_subtree(frames, *f),
            Target::Resource {
                resources,
                target,
                shown,
            } => stacks::collapse_resource(frames, resources, *target, *shown),
            Target::DirectRecursion(f) => stacks::collapse_direct_recursion(frames, *f),
            Target::Recursion(f) => stacks::collapse_recursion(frames, *f),
            Target::Drop(f) => stacks::drop_function(frames, *f),
        }
    }
}
