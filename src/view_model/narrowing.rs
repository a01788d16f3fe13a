//! The narrowing stack's results on the page ([`Narrowing`]): what each
//! applied step gave, so that popping back is instant while the results fit
//! a budget, where a new stack starts from ([`Narrowing::plan`]: the deepest
//! kept result it shares), the notes of the steps that could not apply to
//! some data, and the error of the last request that could not apply.
//!
//! Each result is a [`Loaded`] of its own (the narrowed trace with its own
//! row indices and its own aggregated trees), so every view reads it as it
//! reads a decoded trace. No web types: it is tested natively.

use super::loaded::Loaded;
use flamedrop_core::analysis::transform::{Stack, Step, StepNote};
use std::rc::Rc;

/// Spans the kept results below the shown one may hold together (the shown
/// one and the decoded trace are always kept): about 1 GB of wasm memory
/// for the whole budget, less than one copy of the 320 MB benchmark trace.
pub const KEPT_SPANS: usize = 8_000_000;

/// One applied step and what it gave.
struct Level {
    step: Step,
    /// The trace after this step, if kept.
    trace: Option<Rc<Loaded>>,
    /// What this step could not do.
    notes: Vec<StepNote>,
}

/// What a narrowing took, in ms of the page's main thread.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NarrowTiming {
    /// Carrying out the steps: from the first slice to the last, pauses
    /// between them included.
    pub apply_ms: f64,
    /// The main thread's time in those slices, and the longest of them.
    pub apply_busy_ms: f64,
    pub longest_slice_ms: f64,
    /// Slices the steps were carried out in.
    pub slices: usize,
    /// Indexing the narrowed trace's rows (in slices, with pauses).
    pub index_ms: f64,
    /// Steps carried out (0: a kept result was shown).
    pub steps: usize,
}

/// The applied stack's results and the state of the next request.
#[derive(Default)]
pub struct Narrowing {
    levels: Vec<Level>,
    /// The stack being applied, while a narrowing runs.
    pub busy: Option<Stack>,
    /// Why the last request did not apply (the stack is unchanged).
    pub error: Option<String>,
    /// What the last narrowing took.
    pub timing: Option<NarrowTiming>,
    /// Counts the requests; a result for an older one is dropped.
    generation: u32,
}

/// Where a narrowing to a stack starts.
pub struct Plan {
    /// Steps of the target already carried out in `from`.
    pub done: usize,
    /// The trace to carry out the rest on: a kept result, or the decoded
    /// trace.
    pub from: Rc<Loaded>,
    /// The steps left to carry out.
    pub rest: Vec<Step>,
}

impl Narrowing {
    /// The applied stack.
    pub fn applied(&self) -> Stack {
        Stack {
            steps: self.levels.iter().map(|l| l.step.clone()).collect(),
        }
    }

    /// The notes of every applied step, in step order.
    pub fn notes(&self) -> impl Iterator<Item = &StepNote> {
        self.levels.iter().flat_map(|l| l.notes.iter())
    }

    /// The trace the views show: the last step's result, or `base`.
    pub fn shown(&self, base: &Rc<Loaded>) -> Rc<Loaded> {
        self.kept(self.levels.len()).unwrap_or_else(|| base.clone())
    }

    /// The kept trace after the first `steps` steps (`None` for 0).
    fn kept(&self, steps: usize) -> Option<Rc<Loaded>> {
        let level = self.levels.get(steps.checked_sub(1)?)?;
        level.trace.clone()
    }

    /// Where narrowing `base` to `target` starts: the deepest kept result
    /// of a prefix the target shares with the applied stack.
    pub fn plan(&self, base: &Rc<Loaded>, target: &Stack) -> Plan {
        let shared = self
            .levels
            .iter()
            .zip(&target.steps)
            .take_while(|(level, step)| level.step == **step)
            .count();
        let (done, from) = (1..=shared)
            .rev()
            .find_map(|n| self.kept(n).map(|t| (n, t)))
            .unwrap_or_else(|| (0, base.clone()));
        Plan {
            done,
            from,
            rest: target.steps.get(done..).unwrap_or_default().to_vec(),
        }
    }

    /// A request starts: its generation number.
    pub fn begin(&mut self, target: Stack) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        self.busy = Some(target);
        self.error = None;
        self.generation
    }

    /// True if `generation` is the latest request.
    pub fn is_current(&self, generation: u32) -> bool {
        generation == self.generation
    }

    /// `target` is shown now: its first `done` steps were kept (see
    /// [`Narrowing::plan`]), the rest gave `trace` (none if there was no
    /// rest) with `notes` (numbered in the whole stack).
    pub fn finish(
        &mut self,
        target: Stack,
        done: usize,
        trace: Option<Rc<Loaded>>,
        notes: Vec<StepNote>,
    ) {
        self.busy = None;
        self.error = None;
        self.levels.truncate(done);
        let count = target.steps.len();
        for (index, step) in target.steps.into_iter().enumerate().skip(done) {
            self.levels.push(Level {
                step,
                trace: (index + 1 == count).then(|| trace.clone()).flatten(),
                notes: notes.iter().filter(|n| n.step == index).cloned().collect(),
            });
        }
        self.keep_within_budget();
    }

    /// The request failed: the applied stack stays.
    pub fn fail(&mut self, message: String) {
        self.busy = None;
        self.error = Some(message);
    }

    /// Forgets every result (a new trace).
    pub fn reset(&mut self) {
        self.levels.clear();
        self.busy = None;
        self.error = None;
        self.timing = None;
        self.generation = self.generation.wrapping_add(1);
    }

    /// Keeps the results nearest below the shown one (popping one step is
    /// the common case) while they hold at most [`KEPT_SPANS`] spans; drops
    /// the others.
    fn keep_within_budget(&mut self) {
        let Some((_, below)) = self.levels.split_last_mut() else {
            return;
        };
        let mut total = 0usize;
        for level in below.iter_mut().rev() {
            if let Some(trace) = &level.trace {
                total = total.saturating_add(trace.span_count());
                if total > KEPT_SPANS {
                    level.trace = None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::loaded::test_traces::main_and_work;

    fn stack(names: &[&str]) -> Stack {
        Stack {
            steps: names
                .iter()
                .map(|n| Step::DropFunction((*n).to_owned()))
                .collect(),
        }
    }

    #[test]
    fn pushing_starts_from_the_shown_result_and_popping_needs_no_work() {
        let base = Rc::new(main_and_work());
        let mut n = Narrowing::default();
        let plan = n.plan(&base, &stack(&["a"]));
        assert_eq!((plan.done, plan.rest.len()), (0, 1));
        assert!(Rc::ptr_eq(&plan.from, &base));

        let first = Rc::new(main_and_work());
        let note = StepNote {
            step: 0,
            message: "no samples".to_owned(),
        };
        n.begin(stack(&["a"]));
        n.finish(stack(&["a"]), 0, Some(first.clone()), vec![note.clone()]);
        assert!(n.busy.is_none());
        assert!(Rc::ptr_eq(&n.shown(&base), &first));
        assert_eq!(n.notes().collect::<Vec<_>>(), vec![&note]);

        // A push carries out only the new step, on the shown result.
        let plan = n.plan(&base, &stack(&["a", "b"]));
        assert_eq!(plan.done, 1);
        assert_eq!(plan.rest, stack(&["b"]).steps);
        assert!(Rc::ptr_eq(&plan.from, &first));
        let second = Rc::new(main_and_work());
        n.finish(stack(&["a", "b"]), 1, Some(second.clone()), Vec::new());
        assert_eq!(n.applied(), stack(&["a", "b"]));
        assert!(Rc::ptr_eq(&n.shown(&base), &second));

        // Popping back to a kept result carries out nothing.
        let plan = n.plan(&base, &stack(&["a"]));
        assert!(plan.rest.is_empty() && Rc::ptr_eq(&plan.from, &first));
        n.finish(stack(&["a"]), 1, None, Vec::new());
        assert!(Rc::ptr_eq(&n.shown(&base), &first));
        assert_eq!(n.notes().count(), 1, "the kept step keeps its notes");

        // Another branch starts from the shared prefix.
        let plan = n.plan(&base, &stack(&["c"]));
        assert_eq!(plan.done, 0);
        assert!(Rc::ptr_eq(&plan.from, &base));
    }

    #[test]
    fn a_failed_request_leaves_the_stack_and_stale_results_are_known() {
        let base = Rc::new(main_and_work());
        let mut n = Narrowing::default();
        let old = n.begin(stack(&["a"]));
        let new = n.begin(stack(&["b"]));
        assert!(!n.is_current(old) && n.is_current(new));
        n.fail("step 1: bad pattern".to_owned());
        assert_eq!(n.applied(), Stack::default());
        assert!(Rc::ptr_eq(&n.shown(&base), &base));
        assert_eq!(n.error.as_deref(), Some("step 1: bad pattern"));
    }
}
