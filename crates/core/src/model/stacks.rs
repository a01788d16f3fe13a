//! Call stacks shared by samples and allocations: a prefix tree of frames.
//!
//! A stack is one index into [`StackTable`]; its frame is `frame[i]` and its
//! caller is `parent[i]` (or [`NO_PARENT`] for a root). Equal stacks share one
//! index, so millions of samples cost one `u32` each.

use super::StrId;
use serde::{Deserialize, Serialize};

/// The parent of a root frame.
pub const NO_PARENT: u32 = u32::MAX;

/// Interned call stacks, as a prefix tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackTable {
    /// The frame's name (function, or `module+0xoffset` when unresolved).
    pub frame: Vec<StrId>,
    /// The caller's stack index, or [`NO_PARENT`].
    pub parent: Vec<u32>,
}

impl StackTable {
    /// Number of distinct stack prefixes.
    pub fn len(&self) -> usize {
        self.frame.len()
    }

    /// True when no stack was recorded.
    pub fn is_empty(&self) -> bool {
        self.frame.is_empty()
    }

    /// The frames of stack `index`, outermost (root) first. An index out of
    /// range, or a cycle in damaged data, yields what could be followed.
    pub fn frames(&self, index: u32) -> Vec<StrId> {
        let mut out = Vec::new();
        let mut at = index;
        while let (Some(&frame), Some(&parent)) =
            (self.frame.get(at as usize), self.parent.get(at as usize))
        {
            out.push(frame);
            // Parents always come before children, so a parent index not
            // below the child's would be a cycle.
            if parent == NO_PARENT || parent >= at {
                break;
            }
            at = parent;
        }
        out.reverse();
        out
    }
}

/// Stacks with weights: CPU samples, allocations by call site, or how often
/// each code location ran. One aggregated flame graph is drawn per set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SampleSet {
    /// What the set holds, shown as the view's title ("CPU samples",
    /// "memory allocations", "event frequency").
    pub name: String,
    /// The thread the samples were taken on (index into `Trace::threads`), or
    /// `None` for a whole-trace set.
    pub thread: Option<u32>,
    /// The unit of each weight column ("samples", "bytes", "count", "events").
    pub weight_names: Vec<String>,
    /// Time of each sample, in the trace's unit; empty when the set has no
    /// timeline (frequency counts).
    pub time: Vec<i64>,
    /// Stack of each sample, an index into `Trace::stacks`.
    pub stack: Vec<u32>,
    /// One column per weight name, each as long as `stack`.
    pub weights: Vec<Vec<i64>>,
    /// Why the set looks the way it does (for example "no timeline: the
    /// near-omniscient output keeps only recent values"), shown in the UI.
    pub note: String,
}

impl SampleSet {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.stack.len()
    }

    /// True when there are no samples.
    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }
}
