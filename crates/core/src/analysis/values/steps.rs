//! Omniscient stepping within one thread, by events: previous / next, step
//! into (the next event, whatever frame), step over (the next event not in
//! a deeper frame), step out (the first event after the current frame
//! returned) and their backward forms. Frames come from METHOD_ENTRY and
//! the method exits; an event of a method found lower on the stack (an
//! exception unwound frames without an exit event) closes the frames above.

use crate::model::{site_role, EventLog};

/// The per-thread order and frame depth of every event of an event log:
/// 8 bytes an event. An event's thread is the log's, and its place among
/// its thread's events is found by search, so neither is copied
/// ([`Stepper::on`] pairs the two for stepping).
pub struct Stepper {
    /// Per thread (an index into `Trace::threads`), its events in order.
    by_thread: Vec<Vec<u32>>,
    /// Per event, the depth of the frame it belongs to (an entry and its
    /// exit belong to the frame they open and close; 0 outside any method).
    depth: Vec<u32>,
}

impl Stepper {
    /// Indexes `log`.
    pub fn new(log: &EventLog) -> Self {
        // Counted first, so that each thread's list is allocated once at its
        // size (grown by doubling, they would hold up to twice the events).
        let mut counts: Vec<usize> = Vec::new();
        for thread in log.threads() {
            let thread = thread as usize;
            if thread >= counts.len() {
                counts.resize(thread + 1, 0);
            }
            counts[thread] += 1;
        }
        let threads = counts.len();
        let mut by_thread: Vec<Vec<u32>> = counts.iter().map(|&n| Vec::with_capacity(n)).collect();
        let mut stacks: Vec<Vec<u32>> = vec![Vec::new(); threads];
        let mut depth = Vec::with_capacity(log.len());
        for (event, (thread, site)) in log.threads().zip(log.sites()).enumerate() {
            let (Some(events), Some(stack)) = (
                by_thread.get_mut(thread as usize),
                stacks.get_mut(thread as usize),
            ) else {
                continue;
            };
            events.push(event as u32);
            let method = log
                .site_method
                .get(site as usize)
                .copied()
                .unwrap_or(u32::MAX);
            let role = log.site_role.get(site as usize).copied();
            if role == Some(site_role::ENTRY) {
                stack.push(method);
                depth.push(stack.len() as u32);
                continue;
            }
            if stack.last() != Some(&method) && stack.contains(&method) {
                while stack.last().is_some_and(|&top| top != method) {
                    stack.pop();
                }
            }
            depth.push(stack.len() as u32);
            if role == Some(site_role::EXIT) {
                stack.pop();
            }
        }
        Stepper { by_thread, depth }
    }

    /// The steps through `log`, the log this stepper indexed.
    pub fn on<'a>(&'a self, log: &'a EventLog) -> Steps<'a> {
        Steps { stepper: self, log }
    }

    /// The events of thread `thread`, in order.
    pub fn thread_events(&self, thread: u32) -> &[u32] {
        self.by_thread
            .get(thread as usize)
            .map_or(&[], Vec::as_slice)
    }

    /// The frame depth of `event`.
    pub fn depth(&self, event: u32) -> Option<u32> {
        self.depth.get(event as usize).copied()
    }
}

/// Stepping from event to event: a [`Stepper`] with the log it indexed.
#[derive(Clone, Copy)]
pub struct Steps<'a> {
    stepper: &'a Stepper,
    log: &'a EventLog,
}

impl Steps<'_> {
    /// `event`'s thread's events and `event`'s position among them.
    fn place(&self, event: u32) -> Option<(&[u32], usize)> {
        let thread = self.log.thread_of(event as usize)?;
        let events = self.stepper.thread_events(thread);
        let at = events.partition_point(|&e| e < event);
        (events.get(at) == Some(&event)).then_some((events, at))
    }

    /// The next event of the same thread.
    pub fn next(&self, event: u32) -> Option<u32> {
        let (events, at) = self.place(event)?;
        events.get(at + 1).copied()
    }

    /// The previous event of the same thread.
    pub fn previous(&self, event: u32) -> Option<u32> {
        let (events, at) = self.place(event)?;
        events.get(at.checked_sub(1)?).copied()
    }

    /// Step into: the next event, entering a callee if it is one.
    pub fn step_into(&self, event: u32) -> Option<u32> {
        self.next(event)
    }

    /// The first later event of the thread whose depth passes `keep`.
    fn forward(&self, event: u32, keep: impl Fn(u32) -> bool) -> Option<u32> {
        let (events, at) = self.place(event)?;
        let later = events.get(at + 1..)?;
        later
            .iter()
            .copied()
            .find(|&e| self.stepper.depth(e).is_some_and(&keep))
    }

    /// The last earlier event of the thread whose depth passes `keep`.
    fn backward(&self, event: u32, keep: impl Fn(u32) -> bool) -> Option<u32> {
        let (events, at) = self.place(event)?;
        let earlier = events.get(..at)?;
        earlier
            .iter()
            .rev()
            .copied()
            .find(|&e| self.stepper.depth(e).is_some_and(&keep))
    }

    /// Step over: the next event of this frame or a caller's, skipping
    /// every callee.
    pub fn step_over(&self, event: u32) -> Option<u32> {
        let depth = self.stepper.depth(event)?;
        self.forward(event, |d| d <= depth)
    }

    /// Step out: the first event after the current frame returned.
    pub fn step_out(&self, event: u32) -> Option<u32> {
        let depth = self.stepper.depth(event)?;
        self.forward(event, |d| d < depth)
    }

    /// Step back over: the previous event of this frame or a caller's.
    pub fn step_back_over(&self, event: u32) -> Option<u32> {
        let depth = self.stepper.depth(event)?;
        self.backward(event, |d| d <= depth)
    }

    /// Step back out: the caller's last event before the current frame
    /// was entered (its CALL).
    pub fn step_back_out(&self, event: u32) -> Option<u32> {
        let depth = self.stepper.depth(event)?;
        self.backward(event, |d| d < depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sites: 0 entry of method 0, 1 call in method 0, 2 entry of method 1,
    /// 3 line in method 1, 4 exit of method 1, 5 exit of method 0.
    fn log_of(events: &[(u32, u32)]) -> EventLog {
        use site_role::*;
        let mut log = EventLog {
            site_role: vec![ENTRY, CALL, ENTRY, PLAIN, EXIT, EXIT],
            site_method: vec![0, 0, 1, 1, 1, 0],
            ..EventLog::default()
        };
        for (at, &(thread, site)) in events.iter().enumerate() {
            log.push(at as i64, thread, site, 0);
        }
        log
    }

    #[test]
    fn steps_follow_the_frames_of_one_thread() {
        // Thread 1's events interleave with thread 0's.
        let log = log_of(&[
            (0, 0),
            (0, 1),
            (1, 3),
            (0, 2),
            (0, 3),
            (0, 4),
            (0, 1),
            (0, 5),
        ]);
        let stepper = Stepper::new(&log);
        assert_eq!(stepper.thread_events(0), [0, 1, 3, 4, 5, 6, 7]);
        let steps = stepper.on(&log);
        assert_eq!(steps.next(1), Some(3));
        assert_eq!(steps.previous(3), Some(1));
        assert_eq!(steps.step_into(1), Some(3));
        assert_eq!(steps.step_over(1), Some(6));
        assert_eq!(steps.step_out(4), Some(6));
        assert_eq!(steps.step_out(6), None);
        assert_eq!(steps.step_back_over(6), Some(1));
        assert_eq!(steps.step_back_out(4), Some(1));
        assert_eq!(steps.next(7), None);
    }

    #[test]
    fn an_event_of_a_lower_frame_closes_the_frames_above() {
        // Method 1 throws: no exit, the next event is method 0's call.
        let log = log_of(&[(0, 0), (0, 1), (0, 2), (0, 3), (0, 1), (0, 5)]);
        let stepper = Stepper::new(&log);
        assert_eq!(stepper.depth(3), Some(2));
        assert_eq!(stepper.depth(4), Some(1));
        assert_eq!(stepper.on(&log).step_out(3), Some(4));
    }
}
