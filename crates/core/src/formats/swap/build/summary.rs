//! What only the whole stream knows, put first in the trace once it has
//! ended: its size and message count, the MSG_SYSTEM and function-call
//! layouts, the sequence gaps and the problems found while splitting it.

use super::super::stream::{Summary, WINDOW_BYTES};
use crate::model::{Severity, TraceBuilder};

/// The stream's metadata, its sequence gaps and its problems.
pub fn summarise(b: &mut TraceBuilder, stream: &Summary, file: &str) {
    b.metadata("stream bytes", stream.bytes.to_string());
    b.metadata("messages", stream.messages.to_string());
    if let Some((layout, inferred)) = stream.system_layout {
        let how = if inferred {
            "inferred from message lengths"
        } else {
            "from swap.cpus"
        };
        b.metadata(
            "MSG_SYSTEM layout",
            format!(
                "{} CPUs, {} energy devices{} ({how})",
                layout.cpus,
                layout.energy_devices,
                if layout.v42 {
                    ", protocol 4.2 memory fields"
                } else {
                    ""
                }
            ),
        );
    }
    if stream.legacy_calls {
        b.metadata(
            "function call layout",
            "pre-4.0 (probe type and sub-type after the tid)",
        );
    }
    let seq = &stream.sequence;
    if seq.missing > 0 {
        b.diagnose(Severity::DataLoss, "dropped-messages", Some(file), None, seq.missing, || {
            "messages are missing from the sequence numbering: the target dropped them when its buffer was full".into()
        });
    }
    if seq.wraps > 0 {
        b.diagnose(
            Severity::Info,
            "sequence-wrap",
            Some(file),
            None,
            seq.wraps,
            || "the sequence number wrapped from 0xFFFFFFFF to 0".into(),
        );
    }
    if seq.duplicates > 0 {
        b.diagnose(
            Severity::Info,
            "duplicate-sequence",
            Some(file),
            None,
            seq.duplicates,
            || {
                "messages repeat a sequence number already seen (a new session, or a reset counter)"
                    .into()
            },
        );
    }
    for p in &stream.problems {
        b.diagnose(p.severity, p.kind, Some(file), p.offset, p.count, || {
            p.message.clone()
        });
    }
    if stream.late > 0 {
        b.diagnose(Severity::Info, "out-of-order", Some(file), stream.first_late, stream.late, || {
            format!("messages came more than {} MiB of stream after messages with later times, too late to be put in time order; they were added where they came (times that went backwards within a thread were moved forward)", WINDOW_BYTES >> 20)
        });
    }
}
