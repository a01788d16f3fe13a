//! Sharing a recording's threads between parts decoded side by side (one
//! per worker, see [`crate::decoder::Decoder::keep_part`]).
//!
//! What crosses a record border in the event stream is per thread (its stack
//! of open frames, its clock) or global (the event position, the lanes in
//! order of first appearance). So every part reads every record, keeps the
//! position and makes every lane in the same order, but replays only the
//! events of the threads it owns: no thread's stack is ever cut, and the
//! parts merge as whole threads. A new thread goes to the part that owns
//! the fewest events so far, counted the same way by every part, so all
//! parts agree on the owners without talking to each other.

/// This part's place among the parts and who owns which thread.
pub struct Split {
    part: usize,
    /// The owning part of each thread slot, in order of appearance.
    owners: Vec<usize>,
    /// Events of the threads each part owns, so far.
    load: Vec<u64>,
}

impl Split {
    /// Part `part` (from 0) of `parts`.
    pub fn new(part: usize, parts: usize) -> Self {
        Split {
            part,
            owners: Vec::new(),
            load: vec![0; parts.max(1)],
        }
    }

    /// True for part 0, which says what concerns the whole recording (the
    /// event log, problems of the files themselves).
    pub fn keeps_whole(&self) -> bool {
        self.part == 0
    }

    /// A thread got the next slot: it goes to the least loaded part.
    pub fn add_thread(&mut self) {
        let lightest = self
            .load
            .iter()
            .enumerate()
            .min_by_key(|(p, load)| (**load, *p))
            .map_or(0, |(p, _)| p);
        self.owners.push(lightest);
    }

    /// Counts an event of thread slot `slot`; true when this part replays it.
    pub fn owns_event(&mut self, slot: usize) -> bool {
        let Some(&owner) = self.owners.get(slot) else {
            return false;
        };
        if let Some(load) = self.load.get_mut(owner) {
            *load += 1;
        }
        owner == self.part
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_agrees_on_the_owners_and_new_threads_go_to_the_lightest() {
        let run = |part| {
            let mut split = Split::new(part, 2);
            let mut mine = Vec::new();
            for (slot, events) in [(0, 5), (1, 1), (2, 3)] {
                split.add_thread();
                for _ in 0..events {
                    mine.push((slot, split.owns_event(slot)));
                }
            }
            mine
        };
        let (a, b) = (run(0), run(1));
        // Each event is replayed by exactly one part.
        assert!(a.iter().zip(&b).all(|(x, y)| x.0 == y.0 && x.1 != y.1));
        // Thread 0 (5 events) on part 0; threads 1 and 2 on the lighter part 1.
        assert!(a.iter().all(|&(slot, mine)| mine == (slot == 0)));
    }
}
