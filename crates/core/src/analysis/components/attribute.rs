//! One thread's calls walked once, each instant given to one component: the
//! component of the innermost call, except that the time of a waiting call
//! goes to its caller's component as waiting.
//!
//! This is Scaler's attribution (`XFA.py`): a call into a library counts for
//! that library until it calls into another (the callee's time leaves the
//! caller); `pthread_join` and the waits leave the caller's time for its
//! wait column and go to no library. A thread's time is the time of its
//! top-level calls (Scaler's analyzer `getThreadRootExe`), so the parts add
//! up to it exactly. Every call is clipped to the range and to its caller.

use super::naming::Components;
use super::waits::{wait_kind, WaitKind};
use crate::analysis::calltree::TimeRange;
use crate::fast_hash::FastMap;
use crate::model::{StrId, Thread, Trace};

/// Times of one component on one thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Acc {
    /// Working time given to the component.
    pub self_time: i64,
    /// Time its calls spent waiting (joins included).
    pub wait: i64,
    /// The part of `wait` spent in joins.
    pub join: i64,
    /// Time under its outermost calls, callees and waits included.
    pub inclusive: i64,
    /// Calls of its functions.
    pub calls: u64,
}

impl Acc {
    /// Working plus waiting: the component's part of the thread's time.
    pub(super) fn attributed(&self) -> i64 {
        self.self_time + self.wait
    }

    pub(super) fn add(&mut self, other: &Acc) {
        self.self_time += other.self_time;
        self.wait += other.wait;
        self.join += other.join;
        self.inclusive += other.inclusive;
        self.calls += other.calls;
    }
}

/// (calls, time) per (caller component, callee component).
pub(super) type Edges = FastMap<(u32, u32), (u64, i64)>;

/// One function's time where it was attributed: under its own component
/// (work) or under its caller's (a wait).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct FunctionKey {
    pub component: u32,
    pub function: StrId,
    pub wait: Option<WaitKind>,
}

/// What walking one thread gave.
#[derive(Debug, Default)]
pub(super) struct Tally {
    /// Sum of the top-level calls' (clipped) durations.
    pub time: i64,
    /// When the thread first called `pthread_create` (Scaler's analyzer
    /// takes the thread that did so first as the main thread).
    pub first_create: Option<i64>,
    /// By component number.
    pub by_component: Vec<Acc>,
    /// (time, calls) per function where it was attributed.
    pub functions: FastMap<FunctionKey, (i64, u64)>,
    /// (calls, time) per (caller component, callee component); a call's
    /// time counts once when calls along the same edge nest.
    pub edges: Edges,
}

impl Tally {
    fn acc(&mut self, component: u32) -> &mut Acc {
        let at = component as usize;
        if self.by_component.len() <= at {
            self.by_component.resize(at + 1, Acc::default());
        }
        &mut self.by_component[at]
    }
}

/// A call entered and not yet finished.
struct Frame {
    depth: u16,
    component: u32,
    caller: u32,
    function: StrId,
    wait: Option<WaitKind>,
    from: i64,
    to: i64,
    child_time: i64,
    /// No call of the same component is below it on the stack.
    outermost: bool,
    /// No call along the same caller → callee edge is below it.
    outermost_on_edge: bool,
}

/// Calls on the stack, per component and per caller → callee edge.
#[derive(Default)]
struct Open {
    components: Vec<u32>,
    edges: FastMap<(u32, u32), u32>,
}

impl Open {
    /// Counts a call in; says whether it is the outermost of its component
    /// and of its edge.
    fn enter(&mut self, component: u32, caller: u32) -> (bool, bool) {
        let at = component as usize;
        if self.components.len() <= at {
            self.components.resize(at + 1, 0);
        }
        let c = &mut self.components[at];
        *c += 1;
        let outermost = *c == 1;
        let e = self.edges.entry((caller, component)).or_default();
        *e += 1;
        (outermost, *e == 1)
    }

    fn leave(&mut self, component: u32, caller: u32) {
        if let Some(c) = self.components.get_mut(component as usize) {
            *c = c.saturating_sub(1);
        }
        if let Some(e) = self.edges.get_mut(&(caller, component)) {
            *e = e.saturating_sub(1);
        }
    }
}

/// Walks `thread`'s spans in `range` (the whole thread without one).
pub(super) fn tally_thread(
    trace: &Trace,
    index: u32,
    thread: &Thread,
    names: &mut Components,
    range: Option<TimeRange>,
) -> Tally {
    let program = names.program_of(trace, thread);
    let spans = &thread.spans;
    let mut tally = Tally::default();
    let mut stack: Vec<Frame> = Vec::new();
    // Per component and per edge, how many of their calls are on the stack.
    let mut open = Open::default();
    let columns = (spans.start.iter().zip(&spans.end))
        .zip(spans.depth.iter().zip(&spans.name))
        .zip(&spans.flags);
    for (((&start, &end), (&depth, &function)), &flags) in columns {
        while stack.last().is_some_and(|f| f.depth >= depth) {
            if let Some(frame) = stack.pop() {
                finish(frame, &mut stack, &mut tally, &mut open);
            }
        }
        let Some((from, to)) = clip(start, end, range, stack.last()) else {
            continue;
        };
        let name = trace.str(function);
        if name == "pthread_create" {
            tally.first_create = Some(tally.first_create.map_or(start, |t| t.min(start)));
        }
        let component = names.of_call(index, start, function, program);
        let caller = stack.last().map_or(program, |f| f.component);
        let (outermost, outermost_on_edge) = open.enter(component, caller);
        tally.acc(component).calls += 1;
        tally.edges.entry((caller, component)).or_default().0 += 1;
        stack.push(Frame {
            depth,
            component,
            caller,
            function,
            wait: wait_kind(name, flags),
            from,
            to,
            child_time: 0,
            outermost,
            outermost_on_edge,
        });
    }
    while let Some(frame) = stack.pop() {
        finish(frame, &mut stack, &mut tally, &mut open);
    }
    tally
}

/// The part of a call inside `range` and inside its caller; a call that
/// took no time counts when it happened inside both.
fn clip(
    start: i64,
    end: i64,
    range: Option<TimeRange>,
    caller: Option<&Frame>,
) -> Option<(i64, i64)> {
    let (mut from, mut to) = (start, end.max(start));
    if let Some((lo, hi)) = range {
        from = from.max(lo);
        to = to.min(hi);
    }
    if let Some(c) = caller {
        from = from.max(c.from);
        to = to.min(c.to);
    }
    if to > from || (start == end && to == from) {
        Some((from, to))
    } else {
        None
    }
}

/// Gives a finished call's own time to its component (or its caller's, as
/// waiting) and its duration to its caller's children.
fn finish(frame: Frame, stack: &mut [Frame], tally: &mut Tally, open: &mut Open) {
    let duration = frame.to - frame.from;
    let own = (duration - frame.child_time).max(0);
    let key = match frame.wait {
        Some(kind) => {
            let acc = tally.acc(frame.caller);
            acc.wait += own;
            if kind == WaitKind::Join {
                acc.join += own;
            }
            FunctionKey {
                component: frame.caller,
                function: frame.function,
                wait: Some(kind),
            }
        }
        None => {
            tally.acc(frame.component).self_time += own;
            FunctionKey {
                component: frame.component,
                function: frame.function,
                wait: None,
            }
        }
    };
    let f = tally.functions.entry(key).or_default();
    f.0 += own;
    f.1 += 1;
    if frame.outermost {
        tally.acc(frame.component).inclusive += duration;
    }
    if frame.outermost_on_edge {
        tally
            .edges
            .entry((frame.caller, frame.component))
            .or_default()
            .1 += duration;
    }
    open.leave(frame.component, frame.caller);
    match stack.last_mut() {
        Some(caller) => caller.child_time += duration,
        None => tally.time += duration,
    }
}
