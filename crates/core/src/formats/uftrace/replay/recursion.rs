//! uftrace's recursion rule, where it differs from the span names.
//!
//! `uftrace report` adds a call's total time only when the call is not
//! recursive, and it decides that at the return (`report_update_node()` in
//! `utils/report.c`): the call is recursive when a lower stack slot holds the
//! address the call's own slot was ENTERED with (`fstack->addr`, set by
//! `fstack_update()` in `utils/fstack.c` at the entry), while the row it is
//! counted in is named after the RETURN's address. flamedrop's report tells
//! recursion by the span names (the functions the calls returned as). The two
//! agree until a return names its call after another function than its slot
//! was entered as (after a LOST record, or a mismatched return); then the
//! thread's spans are walked once at the end and every call whose answer
//! differs gets [`SPAN_RECURSION_INVERTED`].

use super::{RecordingState, TaskStream};
use crate::model::{Spans, StrId, SPAN_RECURSION_INVERTED};

impl TaskStream {
    /// Call `span` returned as another function than `entered` (the function
    /// its stack slot was entered as).
    pub(super) fn note_entered_as(&mut self, span: u32, entered: StrId) {
        self.entered_as.push((span, entered));
    }

    /// Marks the calls whose recursion uftrace answers otherwise than the
    /// span names do.
    pub(super) fn mark_inverted_recursion(&mut self, rec: &mut RecordingState) {
        if self.entered_as.is_empty() {
            return;
        }
        self.entered_as.sort_unstable();
        let inverted = match rec.builder.spans(self.thread) {
            Some(spans) => inverted_spans(spans, &self.entered_as),
            None => Vec::new(),
        };
        for span in inverted {
            rec.builder
                .add_flags(self.thread, span, SPAN_RECURSION_INVERTED);
        }
    }
}

/// The spans whose recursion differs between the two rules; `entered_as`
/// (sorted by span) gives the function a renamed span's slot was entered as.
fn inverted_spans(spans: &Spans, entered_as: &[(u32, StrId)]) -> Vec<u32> {
    // Per open span: its name and its slot's function.
    let mut stack: Vec<(StrId, StrId)> = Vec::new();
    let mut by_name = Counts::default();
    let mut by_slot = Counts::default();
    let mut renamed = entered_as.iter().peekable();
    let mut inverted = Vec::new();
    for (i, (&name, &depth)) in spans.name.iter().zip(&spans.depth).enumerate() {
        while stack.len() > usize::from(depth) {
            if let Some((n, s)) = stack.pop() {
                by_name.leave(n);
                by_slot.leave(s);
            }
        }
        while renamed.next_if(|&&(span, _)| (span as usize) < i).is_some() {}
        let slot = renamed
            .next_if(|&&(span, _)| span as usize == i)
            .map_or(name, |&(_, entered)| entered);
        if by_name.has(name) != by_slot.has(slot) {
            inverted.push(i as u32);
        }
        by_name.enter(name);
        by_slot.enter(slot);
        stack.push((name, slot));
    }
    inverted
}

/// How many open spans have each function.
#[derive(Default)]
struct Counts(Vec<u32>);

impl Counts {
    fn has(&self, f: StrId) -> bool {
        self.0.get(f as usize).is_some_and(|&n| n > 0)
    }

    fn enter(&mut self, f: StrId) {
        let i = f as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, 0);
        }
        if let Some(n) = self.0.get_mut(i) {
            *n += 1;
        }
    }

    fn leave(&mut self, f: StrId) {
        if let Some(n) = self.0.get_mut(f as usize) {
            *n = n.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(depth: &[u16], name: &[StrId]) -> Spans {
        let n = depth.len();
        Spans {
            start: vec![0; n],
            end: vec![0; n],
            depth: depth.to_vec(),
            name: name.to_vec(),
            flags: vec![0; n],
            details: Default::default(),
            taken_self: Vec::new(),
        }
    }

    #[test]
    fn a_call_whose_slot_was_entered_as_its_caller_is_recursive() {
        // batch { small→returned as batch }: uftrace compares the slot's
        // entry (small) with batch: not recursive; the names say recursive.
        let s = spans(&[0, 1], &[1, 1]);
        assert_eq!(inverted_spans(&s, &[(1, 2)]), vec![1]);
    }

    #[test]
    fn a_caller_renamed_at_its_return_changes_its_callees_answer() {
        // main(entered as batch) { batch }: the slots say recursive, the
        // names (main, batch) do not; main itself is the same either way.
        let s = spans(&[0, 1, 1], &[0, 1, 3]);
        assert_eq!(inverted_spans(&s, &[(0, 1)]), vec![1]);
    }

    #[test]
    fn without_renames_nothing_differs() {
        let s = spans(&[0, 1, 2, 1], &[0, 1, 1, 2]);
        assert!(inverted_spans(&s, &[]).is_empty());
    }
}
