//! The work budget of a long pass (a narrowing, a listing's row index): a
//! [`Meter`] the passes spend as they go (one unit a span or record),
//! pausing — returning `Pending` from the `async` pass — once the current
//! slice is spent (`transform::Narrowing` and `listing::ListingBuild` refill
//! it for the next slice). Run to the end with an unlimited meter
//! ([`run_to_end`]) the passes are the plain calls the CLI uses: they never
//! pause.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// The work left in the current slice, shared by a narrowing's passes.
#[derive(Clone, Debug)]
pub struct Meter {
    left: Rc<Cell<i64>>,
}

impl Meter {
    /// A meter that never runs out.
    pub fn unlimited() -> Meter {
        Meter {
            left: Rc::new(Cell::new(i64::MAX)),
        }
    }

    /// Spends `work` units (spans or records); pauses the pass once the
    /// slice is spent, to resume at the next slice.
    #[inline(always)]
    pub async fn spend(&self, work: usize) {
        let left = self.left.get().saturating_sub(work as i64);
        self.left.set(left);
        if left <= 0 {
            Pause { paused: false }.await;
        }
    }

    /// Spends one unit (a span, a record).
    #[inline(always)]
    pub async fn tick(&self) {
        self.spend(1).await;
    }

    pub(crate) fn refill(&self, budget: usize) {
        self.left.set(budget.min(i64::MAX as usize) as i64);
    }
}

/// Pending once, then ready: where a pass gives way.
struct Pause {
    paused: bool,
}

impl Future for Pause {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.paused {
            Poll::Ready(())
        } else {
            self.paused = true;
            Poll::Pending
        }
    }
}

/// Runs a metered pass to its end (its meter never runs out, so it never
/// pauses; polled again all the same if it did).
pub(crate) fn run_to_end<T>(work: impl Future<Output = T>) -> T {
    let mut work = std::pin::pin!(work);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = work.as_mut().poll(&mut context) {
            return out;
        }
    }
}
