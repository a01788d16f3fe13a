//! Narrowing: an ordered stack of steps applied to a trace before any view or
//! report is computed — uftrace's filter options (`-F -N -H -C -D -t -r
//! --tid`, one [`Step::Uftrace`] per typed line, applied together as uftrace
//! applies them) and Firefox Profiler's call-tree transforms (merge, focus,
//! collapse, drop). [`apply`] gives a new [`Trace`] in which every step has
//! been carried out on the spans of every thread, on every sample set and on
//! every allocation stack; the views, the report and the exports read it as
//! they read a decoded trace.
//!
//! The stack has one text form ([`text`]): the page's URL fragment holds it
//! and `flamedrop report --transform` takes it. What each Firefox Profiler
//! transform does to spans and stacks is told in the `firefox` module; a
//! step that finds nothing to act on in some data says so in a
//! [`StepNote`] rather than silently doing nothing.

mod apply;
pub mod edit;
mod firefox;
mod progress;
pub mod text;
mod uftrace;
pub mod uftrace_options;

pub use apply::{apply, apply_more};
pub use firefox::{resource_of, resources_by_name};
pub use progress::Narrowing;
pub use uftrace_options::UftraceFilter;

use crate::model::Trace;

/// One narrowing step. Functions are named by their text (the trace's
/// display name), so a step survives a reload of the same trace; a call path
/// lists names from the outermost call down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// One line of uftrace's filter options, applied in one pass as
    /// `uftrace replay` / `report` apply them.
    Uftrace(UftraceFilter),
    /// Firefox Profiler's "merge function": the function's calls go, their
    /// callees move up to the caller, their self time goes to the caller.
    MergeFunction(String),
    /// "Merge node only": as [`Step::MergeFunction`], for the calls on this
    /// path only.
    MergeCallNode(Vec<String>),
    /// "Focus on subtree only": only what runs under this path, with the
    /// path's last function as the root.
    FocusSubtree(Vec<String>),
    /// "Focus on function": every outermost call of the function becomes a
    /// root; everything outside them goes.
    FocusFunction(String),
    /// "Focus on self only": only the time the function spends in itself.
    /// Its outermost calls become childless roots whose self time is that
    /// of every call of it inside them (Firefox Profiler keeps the samples
    /// whose leaf is the function, under one root).
    FocusSelf(String),
    /// "Collapse function": the function's callees go; their time becomes
    /// the function's self time.
    CollapseFunctionSubtree(String),
    /// "Collapse library/module/class": consecutive calls inside one
    /// resource (uftrace / SWAP / sp-rtrace module, Scaler library,
    /// SELogger class; see [`resource_of`]) become one call named after it.
    CollapseResource(String),
    /// "Collapse direct recursion only": a call of the function made
    /// directly by the function merges into its caller.
    CollapseDirectRecursion(String),
    /// "Collapse recursion": every call of the function under another call
    /// of it merges into the outer one, also through other functions; the
    /// calls in between are cut into pieces around the inner calls (they
    /// are not on the stack while an inner call runs; a later piece is
    /// flagged `SPAN_CONTINUED` and counts as no new call).
    CollapseRecursion(String),
    /// "Drop samples with this function": the function's calls and their
    /// callees go, with their time (as uftrace's `-N`: callers keep their
    /// own length, not the dropped time as self).
    DropFunction(String),
}

/// An ordered list of steps; empty means the trace as decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stack {
    pub steps: Vec<Step>,
}

/// What [`apply`] gives: the narrowed trace and what it could not do.
#[derive(Clone, Debug, Default)]
pub struct Narrowed {
    pub trace: Trace,
    /// Steps that could not apply to some data, one sentence each ("step 2,
    /// time filter 5us: the sample set CPU samples has no durations; left as
    /// it was"). The page shows them beside the breadcrumb.
    pub notes: Vec<StepNote>,
}

/// A step that did not apply to a part of the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepNote {
    /// Index of the step in the stack.
    pub step: usize,
    pub message: String,
}

/// A step that cannot be carried out at all (a bad pattern, a time unit the
/// trace does not have).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepError {
    /// Index of the step in the stack.
    pub step: usize,
    pub message: String,
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step {}: {}", self.step + 1, self.message)
    }
}

impl std::error::Error for StepError {}

impl Step {
    /// The step as a breadcrumb names it ("Merge: foo", "Focus: main › work",
    /// "uftrace -F main -D 4").
    pub fn label(&self) -> String {
        let path = |p: &[String]| p.join(" › ");
        match self {
            Step::Uftrace(f) => format!("uftrace {f}"),
            Step::MergeFunction(n) => format!("Merge: {n}"),
            Step::MergeCallNode(p) => format!("Merge node: {}", path(p)),
            Step::FocusSubtree(p) => format!("Focus: {}", path(p)),
            Step::FocusFunction(n) => format!("Focus function: {n}"),
            Step::FocusSelf(n) => format!("Focus self: {n}"),
            Step::CollapseFunctionSubtree(n) => format!("Collapse: {n}"),
            Step::CollapseResource(n) => format!("Collapse resource: {n}"),
            Step::CollapseDirectRecursion(n) => format!("Collapse direct recursion: {n}"),
            Step::CollapseRecursion(n) => format!("Collapse recursion: {n}"),
            Step::DropFunction(n) => format!("Drop: {n}"),
        }
    }
}
