//! When the `open` server stops: once the last page that said it was open
//! has said it closed (and no page came back within a short grace, as a
//! reload does), or when no request at all has come for the idle timeout
//! (no page ever opened, or the browser went away without a word).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// How long after the last page closed the server waits for a reload.
pub const GRACE: Duration = Duration::from_secs(3);

/// What the server has heard from the pages.
pub struct Life {
    idle: Duration,
    last_request: Instant,
    /// Pages that said they were open and have not said they closed.
    open_pages: BTreeSet<String>,
    /// A page closed and no page has been asked for since.
    closed: bool,
}

/// Why the server stops.
#[derive(Debug, PartialEq, Eq)]
pub enum Stop {
    Closed,
    Idle,
}

impl Life {
    pub fn new(idle: Duration, now: Instant) -> Life {
        Life {
            idle,
            last_request: now,
            open_pages: BTreeSet::new(),
            closed: false,
        }
    }

    /// Any request.
    pub fn request(&mut self, now: Instant) {
        self.last_request = now;
    }

    /// The page itself was asked for: a page is coming (a reload, another tab).
    pub fn page_requested(&mut self, now: Instant) {
        self.request(now);
        self.closed = false;
    }

    pub fn alive(&mut self, page: String, now: Instant) {
        self.request(now);
        self.open_pages.insert(page);
    }

    pub fn closed(&mut self, page: &str, now: Instant) {
        self.request(now);
        self.open_pages.remove(page);
        self.closed = true;
    }

    /// Whether to stop now, and why.
    pub fn stop(&self, now: Instant) -> Option<Stop> {
        let quiet = now.saturating_duration_since(self.last_request);
        if self.closed && self.open_pages.is_empty() && quiet >= GRACE {
            Some(Stop::Closed)
        } else if quiet >= self.idle {
            Some(Stop::Idle)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDLE: Duration = Duration::from_secs(60);

    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn stops_a_grace_after_the_last_page_closed() {
        let t = Instant::now();
        let mut life = Life::new(IDLE, t);
        life.page_requested(t);
        life.alive("a".into(), t + secs(1));
        life.alive("b".into(), t + secs(1));
        life.closed("a", t + secs(2));
        assert_eq!(life.stop(t + secs(30)), None, "b is still open");
        life.alive("b".into(), t + secs(30));
        life.closed("b", t + secs(31));
        assert_eq!(life.stop(t + secs(31) + GRACE - secs(1)), None);
        assert_eq!(life.stop(t + secs(31) + GRACE), Some(Stop::Closed));
    }

    #[test]
    fn a_reload_keeps_it_going() {
        let t = Instant::now();
        let mut life = Life::new(IDLE, t);
        life.alive("a".into(), t);
        life.closed("a", t + secs(1));
        life.page_requested(t + secs(2));
        assert_eq!(
            life.stop(t + secs(20)),
            None,
            "the reloaded page has not pinged yet"
        );
        life.alive("c".into(), t + secs(5));
        assert_eq!(life.stop(t + secs(30)), None);
    }

    #[test]
    fn stops_when_idle_for_the_timeout() {
        let t = Instant::now();
        let mut life = Life::new(IDLE, t);
        assert_eq!(life.stop(t + IDLE - secs(1)), None);
        assert_eq!(life.stop(t + IDLE), Some(Stop::Idle), "no page ever came");
        life.alive("a".into(), t + secs(100));
        assert_eq!(life.stop(t + secs(159)), None);
        assert_eq!(
            life.stop(t + secs(160)),
            Some(Stop::Idle),
            "the page went silent"
        );
    }
}
