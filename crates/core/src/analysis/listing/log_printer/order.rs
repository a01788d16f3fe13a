//! The order in which SELogger's LogPrinter prints events, and which
//! events it prints as parameters under an entry (`-processparams`).
//!
//! LogPrinter reads events one by one (`EventReader.nextEvent`). With
//! `-processparams`, reading a METHOD_ENTRY, CALL or INVOKE_DYNAMIC goes on
//! reading events (each of them read the same way, so an entry met while
//! looking for parameters gathers its own first) for as many parameters as
//! the reader counts: each one of the same thread and parameter type is
//! kept; the first other one ends the search and goes to the END of the
//! queue of events read but not printed, which the next reads take from
//! first. So events may come out of order where parameters are missing.
//! Events of other threads are printed as they come (`-thread=` only
//! skips them when printing); `-from=` starts reading at an event,
//! `-num=` stops at the first printed event at or past `from + num`.
//!
//! This simulates that reader without recursion (an explicit stack of
//! entries looking for their parameters).

use crate::fast_hash::FastMap;
use crate::model::{site_role, EventLog};
use std::collections::VecDeque;

/// An entry, call or dynamic call still gathering its parameters.
struct Gathering {
    main: u32,
    /// The site role its parameters have.
    param_role: u8,
    wanted: u16,
    params: Vec<u32>,
    /// A non-parameter ended the search.
    stopped: bool,
}

/// The reader's state over one event log.
pub(super) struct ReaderOrder<'a> {
    log: &'a EventLog,
    process_params: bool,
    next: usize,
    queue: VecDeque<u32>,
    /// Each entry, call or dynamic call whose parameters were searched for:
    /// where its parameters start in `params` and how many there are.
    linked: FastMap<u32, (u32, u32)>,
    params: Vec<u32>,
}

impl<'a> ReaderOrder<'a> {
    /// A reader starting at event `first`.
    pub(super) fn new(log: &'a EventLog, first: usize, process_params: bool) -> Self {
        ReaderOrder {
            log,
            process_params,
            next: first,
            queue: VecDeque::new(),
            linked: FastMap::default(),
            params: Vec::new(),
        }
    }

    /// The next event to print (`EventReader.nextEvent`).
    pub(super) fn next_event(&mut self) -> Option<u32> {
        let first = self.take()?;
        if self.process_params {
            self.link(first);
        }
        Some(first)
    }

    /// The parameter events linked to `main`, in their order.
    pub(super) fn params_of(&self, main: u32) -> &[u32] {
        let Some(&(start, len)) = self.linked.get(&main) else {
            return &[];
        };
        let start = start as usize;
        self.params.get(start..start + len as usize).unwrap_or(&[])
    }

    /// The next event read: from the queue, else from the stream.
    fn take(&mut self) -> Option<u32> {
        if let Some(event) = self.queue.pop_front() {
            return Some(event);
        }
        if self.next >= self.log.len() {
            return None;
        }
        let event = u32::try_from(self.next).ok()?;
        self.next += 1;
        Some(event)
    }

    fn role(&self, event: u32) -> u8 {
        let site = self.log.site_of(event as usize).unwrap_or(u32::MAX);
        let role = self.log.site_role.get(site as usize).copied();
        role.unwrap_or(site_role::MISSING)
    }

    fn thread(&self, event: u32) -> Option<u32> {
        self.log.thread_of(event as usize)
    }

    /// The search `event` starts, if it takes parameters and has not
    /// searched yet.
    fn gathering(&mut self, event: u32) -> Option<Gathering> {
        if self.linked.contains_key(&event) {
            return None;
        }
        let site = self.log.site_of(event as usize)? as usize;
        let (param_role, wanted) = match self.role(event) {
            site_role::ENTRY => {
                let method = *self.log.site_method.get(site)? as usize;
                let wanted = self.log.method_params.get(method).copied().unwrap_or(0);
                (site_role::METHOD_PARAM, wanted)
            }
            site_role::CALL => (site_role::CALL_PARAM, *self.log.site_params.get(site)?),
            site_role::INVOKE_DYNAMIC => (
                site_role::INVOKE_DYNAMIC_PARAM,
                *self.log.site_params.get(site)?,
            ),
            _ => return None,
        };
        self.linked.insert(event, (0, 0));
        (wanted > 0).then(|| Gathering {
            main: event,
            param_role,
            wanted,
            params: Vec::new(),
            stopped: false,
        })
    }

    /// `EventReader.readSubevents(first)`, with every nested search too.
    fn link(&mut self, first: u32) {
        let Some(search) = self.gathering(first) else {
            return;
        };
        let mut stack = vec![search];
        while let Some(top) = stack.last() {
            let done = top.stopped || top.params.len() >= usize::from(top.wanted);
            let candidate = if done { None } else { self.take() };
            match candidate {
                Some(event) => {
                    if let Some(nested) = self.gathering(event) {
                        stack.push(nested);
                    } else {
                        self.offer(&mut stack, event);
                    }
                }
                None => {
                    // Finished (or the stream ended): its main event is what
                    // the search below it read.
                    if let Some(search) = stack.pop() {
                        self.keep(&search);
                        self.offer(&mut stack, search.main);
                    }
                }
            }
        }
    }

    /// Hands `event` to the innermost search: a parameter of it, or the end
    /// of it (the event is queued).
    fn offer(&mut self, stack: &mut [Gathering], event: u32) {
        let Some(top) = stack.last_mut() else {
            return;
        };
        let same_thread = self.thread(event) == self.thread(top.main);
        if same_thread && self.role(event) == top.param_role {
            top.params.push(event);
        } else {
            self.queue.push_back(event);
            top.stopped = true;
        }
    }

    fn keep(&mut self, search: &Gathering) {
        let start = self.params.len() as u32;
        self.params.extend_from_slice(&search.params);
        self.linked
            .insert(search.main, (start, search.params.len() as u32));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::site_role::*;

    /// Sites: 0 entry of method 0 (2 params), 1 method param, 2 other.
    fn events_of(events: &[(u32, u32)]) -> EventLog {
        let mut log = EventLog {
            site_role: vec![ENTRY, METHOD_PARAM, PLAIN],
            site_method: vec![0, 0, 0],
            site_params: vec![0, 0, 0],
            method_params: vec![2],
            ..EventLog::default()
        };
        for (at, &(thread, site)) in events.iter().enumerate() {
            log.push(at as i64, thread, site, 0);
        }
        log
    }

    fn order(log: &EventLog) -> Vec<(u32, Vec<u32>)> {
        let mut reader = ReaderOrder::new(log, 0, true);
        let mut out = Vec::new();
        while let Some(event) = reader.next_event() {
            out.push((event, reader.params_of(event).to_vec()));
        }
        out
    }

    #[test]
    fn parameters_follow_their_entry() {
        let log = events_of(&[(0, 0), (0, 1), (0, 1), (0, 2)]);
        assert_eq!(order(&log), [(0, vec![1, 2]), (3, vec![])]);
    }

    #[test]
    fn a_missing_parameter_sends_the_event_to_the_end_of_the_queue() {
        // Entry 0 gets param 1; event 2 (thread 1) ends its search.
        let log = events_of(&[(0, 0), (0, 1), (1, 2), (0, 2)]);
        assert_eq!(order(&log), [(0, vec![1]), (2, vec![]), (3, vec![])]);
        // An entry read while searching gathers its own parameters first,
        // then ends the outer search and waits in the queue.
        let log = events_of(&[(0, 0), (1, 0), (1, 1), (1, 1), (0, 1)]);
        assert_eq!(order(&log), [(0, vec![]), (1, vec![2, 3]), (4, vec![])]);
    }
}
