//! Narrowing in slices: [`Narrowing`] carries out a stack of steps a budget
//! of spans at a time, so that a page can give way to the browser between
//! two slices of a long narrowing (a 20 M-span thread takes seconds).
//!
//! The passes are written once, as `async` functions that spend a
//! [`Meter`] as they go (see `meter`); between two slices their state is
//! the future's own (the locals a pass run to the end holds, so slicing
//! costs no memory). `advance` refills the meter and polls the future until
//! it pauses or ends.

use super::{apply, Narrowed, Step, StepError};
use crate::analysis::meter::Meter;
use crate::model::Trace;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

type Work<'a> = Pin<Box<dyn Future<Output = Result<Narrowed, StepError>> + 'a>>;

/// A narrowing under way: [`Narrowing::advance`] carries out about a budget
/// of spans of it per call. Dropping it cancels the narrowing.
pub struct Narrowing<'a> {
    meter: Meter,
    work: Option<Work<'a>>,
}

impl<'a> Narrowing<'a> {
    /// Narrowing `trace` by `steps` (as [`apply`](super::apply)).
    pub fn new(trace: &'a Trace, steps: &'a [Step]) -> Narrowing<'a> {
        let meter = Meter::unlimited();
        let work = Box::pin(apply::apply_metered(trace, steps, meter.clone()));
        Narrowing {
            meter,
            work: Some(work),
        }
    }

    /// Narrowing further a trace already narrowed, by `more` steps
    /// numbered from `first` (as [`apply_more`](super::apply_more)).
    pub fn more(narrowed: Narrowed, more: &'a [Step], first: usize) -> Narrowing<'a> {
        let meter = Meter::unlimited();
        let work = Box::pin(apply::apply_more_metered(
            narrowed,
            more,
            first,
            meter.clone(),
        ));
        Narrowing {
            meter,
            work: Some(work),
        }
    }

    /// Carries out about `budget_spans` spans (or records) of work more;
    /// `Some` with the result once the narrowing is done (then `None`
    /// forever).
    pub fn advance(&mut self, budget_spans: usize) -> Option<Result<Narrowed, StepError>> {
        let work = self.work.as_mut()?;
        self.meter.refill(budget_spans.max(1));
        let mut context = Context::from_waker(Waker::noop());
        match work.as_mut().poll(&mut context) {
            Poll::Ready(result) => {
                self.work = None;
                Some(result)
            }
            Poll::Pending => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::transform::apply;
    use crate::model::{Spans, Thread};

    /// One thread: main { 300 × (f { g }) }.
    fn trace() -> Trace {
        let mut t = Trace::default();
        let (main, f, g) = (
            t.strings.intern("main"),
            t.strings.intern("f"),
            t.strings.intern("g"),
        );
        let mut spans = Spans::default();
        let mut push = |start: i64, end: i64, depth: u16, name: u32| {
            spans.start.push(start);
            spans.end.push(end);
            spans.depth.push(depth);
            spans.name.push(name);
            spans.flags.push(0);
        };
        push(0, 10_000, 0, main);
        for i in 0..300 {
            push(i * 30 + 1, i * 30 + 20, 1, f);
            push(i * 30 + 2, i * 30 + 2 + i % 7, 2, g);
        }
        t.threads.push(Thread {
            spans,
            ..Thread::default()
        });
        t
    }

    #[test]
    fn small_slices_give_what_one_block_gives() {
        let trace = trace();
        let steps: Vec<Step> = ["u:-t 5", "mf:f", "u:-D 2"]
            .iter()
            .flat_map(|s| {
                s.parse::<crate::analysis::transform::Stack>()
                    .unwrap()
                    .steps
            })
            .collect();
        let whole = apply(&trace, &steps).unwrap();
        let mut narrowing = Narrowing::new(&trace, &steps);
        let mut slices = 1;
        let sliced = loop {
            if let Some(result) = narrowing.advance(100) {
                break result.unwrap();
            }
            slices += 1;
        };
        assert!(slices > 5, "{slices} slices");
        let (a, b) = (
            &sliced.trace.threads[0].spans,
            &whole.trace.threads[0].spans,
        );
        assert!(a.len() > 1 && a.len() < 601, "{} spans kept", a.len());
        assert_eq!(
            (&a.start, &a.end, &a.depth, &a.name, &a.taken_self),
            (&b.start, &b.end, &b.depth, &b.name, &b.taken_self)
        );
        assert_eq!(sliced.notes, whole.notes);
        assert!(narrowing.advance(100).is_none());
    }
}
