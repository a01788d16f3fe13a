//! uftrace's read triggers (`-T FUNC@read=proc/statm`, `page-fault`,
//! `pmu-cycle`, `pmu-cache`, `pmu-branch`) as numbers: counter tracks from
//! the values read, and per call the difference between its entry and exit.
//!
//! What uftrace v0.13 records (`libmcount/record.c`, `save_trigger_read`):
//! at the entry of a triggered function a `read:<event>` marker holds the
//! values read then (entry timestamp, written right after the ENTRY record);
//! at its exit libmcount reads again, subtracts the entry values in unsigned
//! 64-bit arithmetic (`diff_proc_statm`, `diff_page_fault`, `diff_pmu_*`) and
//! writes a `diff:<event>` marker (exit timestamp, right before the EXIT
//! record). `uftrace replay` prints the difference as `+%PRIu64`
//! (`utils/event.c`, `event_get_data_str`), so a shrink shows as a huge
//! number; here it is the signed value it stands for (the decoder keeps it
//! as `i64`).
//!
//! The decoder keeps these markers as instants with numeric detail fields;
//! everything here is computed from the [`Trace`], after
//! the parts of a split decode are merged (counters are trace-level data a
//! part must not make, see `model/merge.rs`).

mod counters;
mod deltas;
mod tree;

pub use counters::read_counters;
pub use deltas::{call_deltas, CallDelta, CallDeltas};
pub use tree::{bottom_up_deltas, top_down_deltas, DeltaColumn, TreeDeltas};

use crate::model::{Details, StrId, Trace, Value};

/// One value a read trigger records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quantity {
    VmSize,
    VmRss,
    Shared,
    MajorFaults,
    MinorFaults,
    Cycles,
    Instructions,
    CacheReferences,
    CacheMisses,
    Branches,
    BranchMisses,
}

impl Quantity {
    /// Every quantity, in order.
    pub const ALL: [Quantity; 11] = [
        Quantity::VmSize,
        Quantity::VmRss,
        Quantity::Shared,
        Quantity::MajorFaults,
        Quantity::MinorFaults,
        Quantity::Cycles,
        Quantity::Instructions,
        Quantity::CacheReferences,
        Quantity::CacheMisses,
        Quantity::Branches,
        Quantity::BranchMisses,
    ];

    /// The quantity named `name` (as [`Quantity::name`] gives it).
    pub fn from_name(name: &str) -> Option<Quantity> {
        Quantity::ALL.into_iter().find(|q| q.name() == name)
    }

    /// The name shown ("vmrss", "minor faults").
    pub fn name(self) -> &'static str {
        match self {
            Quantity::VmSize => "vmsize",
            Quantity::VmRss => "vmrss",
            Quantity::Shared => "shared",
            Quantity::MajorFaults => "major faults",
            Quantity::MinorFaults => "minor faults",
            Quantity::Cycles => "cycles",
            Quantity::Instructions => "instructions",
            Quantity::CacheReferences => "cache references",
            Quantity::CacheMisses => "cache misses",
            Quantity::Branches => "branches",
            Quantity::BranchMisses => "branch misses",
        }
    }

    /// The unit of its values: uftrace keeps `/proc/self/statm`'s pages
    /// as KB; the others are counts.
    pub fn unit(self) -> &'static str {
        match self {
            Quantity::VmSize | Quantity::VmRss | Quantity::Shared => "KB",
            Quantity::MajorFaults | Quantity::MinorFaults => "faults",
            _ => "events",
        }
    }

    /// True when the value is the whole process's (`/proc/self/statm`,
    /// `getrusage(RUSAGE_SELF)`), false when it is the reading thread's
    /// own (the PMU counters libmcount opens with `perf_event_open` for the
    /// calling thread).
    pub fn per_process(self) -> bool {
        matches!(
            self,
            Quantity::VmSize
                | Quantity::VmRss
                | Quantity::Shared
                | Quantity::MajorFaults
                | Quantity::MinorFaults
        )
    }

    /// A value with its sign and unit: `+64 KB`, `-516 KB`, `+16`.
    pub fn signed_text(self, value: i64) -> String {
        match self.unit() {
            "KB" => format!("{value:+} KB"),
            _ => format!("{value:+}"),
        }
    }
}

/// Whether a marker holds values read at an entry or a difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Read,
    Diff,
}

/// An event a read trigger records: `proc/statm`, `page-fault`, `pmu-*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReadEvent {
    ProcStatm,
    PageFault,
    PmuCycle,
    PmuCache,
    PmuBranch,
}

impl ReadEvent {
    /// The event named after `read:` / `diff:` in a marker's name.
    fn from_name(name: &str) -> Option<ReadEvent> {
        Some(match name {
            "proc/statm" => ReadEvent::ProcStatm,
            "page-fault" => ReadEvent::PageFault,
            "pmu-cycle" => ReadEvent::PmuCycle,
            "pmu-cache" => ReadEvent::PmuCache,
            "pmu-branch" => ReadEvent::PmuBranch,
            _ => return None,
        })
    }

    /// Its values: (the decoder's detail field name, the quantity).
    pub fn fields(self) -> &'static [(&'static str, Quantity)] {
        match self {
            ReadEvent::ProcStatm => &[
                ("vmsize KB", Quantity::VmSize),
                ("vmrss KB", Quantity::VmRss),
                ("shared KB", Quantity::Shared),
            ],
            ReadEvent::PageFault => &[
                ("major faults", Quantity::MajorFaults),
                ("minor faults", Quantity::MinorFaults),
            ],
            ReadEvent::PmuCycle => &[
                ("cycles", Quantity::Cycles),
                ("instructions", Quantity::Instructions),
            ],
            ReadEvent::PmuCache => &[
                ("cache references", Quantity::CacheReferences),
                ("cache misses", Quantity::CacheMisses),
            ],
            ReadEvent::PmuBranch => &[
                ("branches", Quantity::Branches),
                ("branch misses", Quantity::BranchMisses),
            ],
        }
    }
}

/// The phase and event of a marker named `read:…` or `diff:…`.
pub fn parse_marker(name: &str) -> Option<(Phase, ReadEvent)> {
    let (phase, event) = name.split_once(':')?;
    let phase = match phase {
        "read" => Phase::Read,
        "diff" => Phase::Diff,
        _ => return None,
    };
    Some((phase, ReadEvent::from_name(event)?))
}

/// Per string id of the trace, the read-trigger marker it names (most
/// ids name none); `None` when the trace has no such marker name at all,
/// so a trace without read triggers costs one pass over its names.
fn marker_names(trace: &Trace) -> Option<Vec<Option<(Phase, ReadEvent)>>> {
    let strings = &trace.strings;
    let mut any = false;
    let names: Vec<_> = (0..strings.len() as StrId)
        .map(|id| {
            let parsed = parse_marker(strings.get(id));
            any |= parsed.is_some();
            parsed
        })
        .collect();
    any.then_some(names)
}

/// The values of marker `instant` for `event`, in its field order (`None`
/// for a field the marker lacks).
fn marker_values(
    trace: &Trace,
    details: &Details,
    instant: u32,
    event: ReadEvent,
) -> Vec<(Quantity, Option<i64>)> {
    let mut out: Vec<(Quantity, Option<i64>)> =
        event.fields().iter().map(|&(_, q)| (q, None)).collect();
    details.each_of(instant, |key, value| {
        let key = trace.str(key);
        if let Some(at) = event.fields().iter().position(|(k, _)| *k == key) {
            if let Some(slot) = out.get_mut(at) {
                slot.1 = number(trace, value);
            }
        }
    });
    out
}

/// A detail value as a number: the decoder writes read values as unsigned
/// and differences as signed decimal text.
fn number(trace: &Trace, value: Value) -> Option<i64> {
    match value {
        Value::Int(n) => Some(n),
        Value::Hex(n) => Some(n as i64),
        Value::Text(id) | Value::Fixed(id) => {
            let text = trace.str(id);
            text.parse::<i64>()
                .ok()
                .or_else(|| text.parse::<u64>().ok().map(|n| n as i64))
        }
        Value::Numbered(..) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_names_parse_as_uftrace_names_them() {
        assert_eq!(
            parse_marker("diff:proc/statm"),
            Some((Phase::Diff, ReadEvent::ProcStatm))
        );
        assert_eq!(
            parse_marker("read:pmu-branch"),
            Some((Phase::Read, ReadEvent::PmuBranch))
        );
        assert_eq!(parse_marker("watch:cpu"), None);
        assert_eq!(parse_marker("fixture:tick"), None);
    }

    #[test]
    fn signed_values_carry_their_unit() {
        assert_eq!(Quantity::VmRss.signed_text(64), "+64 KB");
        assert_eq!(Quantity::VmRss.signed_text(-516), "-516 KB");
        assert_eq!(Quantity::MinorFaults.signed_text(0), "+0");
    }
}
