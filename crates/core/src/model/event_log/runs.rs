//! An [`EventLog`](super::EventLog)'s thread column as runs: a recording
//! switches threads every few hundred events, so "from event k on, thread
//! t" takes a fraction of a per-event column. The log is recorded per
//! event ([`super::narrow`]) and turned into runs once complete
//! ([`EventLog::compact_threads`](super::EventLog::compact_threads)), only
//! when that is smaller (a recording switching threads at nearly every
//! event keeps its per-event column).

/// Bytes a run takes (its first event as `u64`, its thread as `u32`).
const RUN_BYTES: usize = 12;

/// The runs of `threads` (each run's first event and its thread), if they
/// take fewer bytes than `dense_bytes`, the per-event column.
pub fn runs_of(
    threads: impl Iterator<Item = u32>,
    dense_bytes: usize,
) -> Option<(Vec<u64>, Vec<u32>)> {
    let (mut starts, mut runs) = (Vec::new(), Vec::new());
    for (event, thread) in threads.enumerate() {
        if runs.last() != Some(&thread) {
            if (runs.len() + 1) * RUN_BYTES >= dense_bytes {
                return None;
            }
            starts.push(event as u64);
            runs.push(thread);
        }
    }
    starts.shrink_to_fit();
    runs.shrink_to_fit();
    Some((starts, runs))
}

/// The thread of event `event` (below `events`) from the runs.
pub fn get(starts: &[u64], runs: &[u32], events: usize, event: usize) -> Option<u32> {
    if event >= events {
        return None;
    }
    let after = starts.partition_point(|&start| start <= event as u64);
    runs.get(after.checked_sub(1)?).copied()
}

/// True when `starts` begins at event 0, ascends strictly, stays below
/// `events` and has one thread each.
pub fn agree(starts: &[u64], runs: &[u32], events: usize) -> bool {
    starts.len() == runs.len()
        && starts.first().is_none_or(|&first| first == 0)
        && starts.windows(2).all(|w| w[0] < w[1])
        && starts.last().is_none_or(|&last| last < events as u64)
}

/// Every event's thread, from the runs, in order.
pub struct Runs<'a> {
    starts: &'a [u64],
    runs: &'a [u32],
    events: usize,
    event: usize,
    run: usize,
}

impl<'a> Runs<'a> {
    pub fn new(starts: &'a [u64], runs: &'a [u32], events: usize) -> Self {
        Runs {
            starts,
            runs,
            events,
            event: 0,
            run: 0,
        }
    }
}

impl Iterator for Runs<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.event >= self.events {
            return None;
        }
        while self
            .starts
            .get(self.run + 1)
            .is_some_and(|&next| next <= self.event as u64)
        {
            self.run += 1;
        }
        self.event += 1;
        self.runs.get(self.run).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_read_back_as_the_column_they_replace() {
        let column = [3u32, 3, 3, 1, 1, 3, 3, 3, 3, 3];
        let (starts, runs) = runs_of(column.iter().copied(), 1000).unwrap();
        assert_eq!(
            (starts.as_slice(), runs.as_slice()),
            (&[0, 3, 5][..], &[3, 1, 3][..])
        );
        assert!(agree(&starts, &runs, column.len()));
        let back: Vec<u32> = Runs::new(&starts, &runs, column.len()).collect();
        assert_eq!(back, column);
        for (event, &thread) in column.iter().enumerate() {
            assert_eq!(get(&starts, &runs, column.len(), event), Some(thread));
        }
        assert_eq!(get(&starts, &runs, column.len(), 10), None);
    }

    #[test]
    fn a_column_switching_often_stays_per_event() {
        assert_eq!(runs_of([1u32, 2, 1, 2].into_iter(), 8), None);
        assert!(!agree(&[1], &[0], 4));
    }
}
