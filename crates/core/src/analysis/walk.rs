//! A pre-order walk over one thread's spans that knows each span's self time
//! and whether an ancestor has the same name (so recursion is counted once).

use crate::model::{Spans, StrId, SPAN_ABANDONED};

/// What the walk says about one span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpanVisit {
    pub index: u32,
    pub name: StrId,
    pub depth: u16,
    pub duration: i64,
    /// Duration minus the durations of its direct children.
    pub self_time: i64,
    /// True when no enclosing span has the same name.
    pub outermost: bool,
    /// The span's `SPAN_*` flags.
    pub flags: u8,
}

/// Calls `visit` for every span, children before their parent is finished
/// (post-order), with self time and recursion known.
pub fn walk_spans(spans: &Spans, mut visit: impl FnMut(SpanVisit)) {
    struct Open {
        index: u32,
        child_time: i64,
        outermost: bool,
    }
    let mut stack: Vec<Open> = Vec::new();
    let mut on_stack: Vec<u32> = Vec::new();
    let finish = |open: Open, on_stack: &mut Vec<u32>, visit: &mut dyn FnMut(SpanVisit)| {
        let i = open.index as usize;
        let name = spans.name[i];
        let duration = spans.end[i].saturating_sub(spans.start[i]);
        if let Some(n) = on_stack.get_mut(name as usize) {
            *n = n.saturating_sub(1);
        }
        visit(SpanVisit {
            index: open.index,
            name,
            depth: spans.depth[i],
            duration,
            self_time: duration
                .saturating_sub(open.child_time)
                .saturating_sub(spans.taken_self(i)),
            outermost: open.outermost,
            flags: spans.flags[i],
        });
        // An abandoned call never returned to its parent: it adds no child time.
        if spans.flags[i] & SPAN_ABANDONED != 0 {
            0
        } else {
            duration
        }
    };
    for i in 0..spans.len() {
        let depth = usize::from(spans.depth[i]);
        while stack.len() > depth {
            let Some(open) = stack.pop() else { break };
            let duration = finish(open, &mut on_stack, &mut visit);
            if let Some(parent) = stack.last_mut() {
                parent.child_time = parent.child_time.saturating_add(duration);
            }
        }
        let name = spans.name[i] as usize;
        if on_stack.len() <= name {
            on_stack.resize(name + 1, 0);
        }
        let outermost = on_stack[name] == 0;
        on_stack[name] += 1;
        stack.push(Open {
            index: i as u32,
            child_time: 0,
            outermost,
        });
    }
    while let Some(open) = stack.pop() {
        let duration = finish(open, &mut on_stack, &mut visit);
        if let Some(parent) = stack.last_mut() {
            parent.child_time = parent.child_time.saturating_add(duration);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_time_and_recursion_are_known() {
        // a(0..10) { b(1..9) { a(2..5) } }
        let spans = Spans {
            start: vec![0, 1, 2],
            end: vec![10, 9, 5],
            depth: vec![0, 1, 2],
            name: vec![0, 1, 0],
            flags: vec![0; 3],
            details: Default::default(),
            taken_self: Vec::new(),
        };
        let mut seen = Vec::new();
        walk_spans(&spans, |v| seen.push((v.index, v.self_time, v.outermost)));
        assert_eq!(seen, vec![(2, 3, false), (1, 5, true), (0, 2, true)]);
    }
}
