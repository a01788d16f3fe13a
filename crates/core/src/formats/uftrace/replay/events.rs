//! Events: SDT and read-trigger records, and perf's task events (new, exit,
//! name), as instants with their payloads.

use super::{RecordingState, TaskStream};
use crate::formats::common::{u16_at, u32_at, u64_at, Endian};
use crate::formats::uftrace::perf::{PerfEvent, PerfKind};
use crate::formats::uftrace::records::Record;
use crate::model::Field;
use std::collections::HashMap;

impl TaskStream {
    /// An event record as an instant with its payload.
    pub(super) fn event(&mut self, record: Record, extra: &[u8], rec: &mut RecordingState) {
        let id = record.addr;
        let name = event_name(id, &rec.event_names);
        let fields = event_fields(id, extra, rec.info.big_endian);
        let name = rec.builder.intern(&name);
        rec.builder
            .instant(self.thread, record.time as i64, name, fields);
    }

    /// A task event from perf (new, exit, name) as an instant.
    pub(super) fn task_event(&mut self, event: PerfEvent, rec: &mut RecordingState) {
        let t = self.thread;
        match event.kind {
            PerfKind::TaskNew | PerfKind::TaskExit => {
                let label = if event.kind == PerfKind::TaskNew {
                    "linux:task-new"
                } else {
                    "linux:task-exit"
                };
                let name = rec.builder.intern(label);
                rec.builder.instant(t, event.time, name, Vec::new());
            }
            PerfKind::Comm(comm) => {
                let name = rec.builder.intern("linux:task-name");
                rec.builder
                    .instant(t, event.time, name, vec![Field::new("comm", comm.clone())]);
                rec.builder.set_thread_name(t, &comm);
            }
            PerfKind::SchedOut | PerfKind::SchedOutPreempted | PerfKind::SchedIn => {}
        }
    }
}

/// The name `uftrace replay` gives an event id.
fn event_name(id: u64, sdt: &HashMap<u64, String>) -> String {
    let builtin = match id {
        100_001 => "read:proc/statm",
        100_002 => "read:page-fault",
        100_003 => "diff:proc/statm",
        100_004 => "diff:page-fault",
        100_005 => "read:pmu-cycle",
        100_006 => "diff:pmu-cycle",
        100_007 => "read:pmu-cache",
        100_008 => "diff:pmu-cache",
        100_009 => "read:pmu-branch",
        100_010 => "diff:pmu-branch",
        100_011 => "watch:cpu",
        _ => "",
    };
    if !builtin.is_empty() {
        return builtin.to_owned();
    }
    sdt.get(&id)
        .cloned()
        .unwrap_or_else(|| format!("event {id}"))
}

/// The payload of a built-in event as named fields.
fn event_fields(id: u64, extra: &[u8], big_endian: bool) -> Vec<Field> {
    let endian = Endian::big_if(big_endian);
    let payload = u16_at(extra, 0, endian)
        .and_then(|n| extra.get(2..2 + usize::from(n)))
        .unwrap_or_default();
    let names: &[&str] = match id {
        100_001 | 100_003 => &["vmsize KB", "vmrss KB", "shared KB"],
        100_002 | 100_004 => &["major faults", "minor faults"],
        100_005 | 100_006 => &["cycles", "instructions"],
        100_007 | 100_008 => &["cache references", "cache misses"],
        100_009 | 100_010 => &["branches", "branch misses"],
        _ => &[],
    };
    if id == 100_011 {
        if let Some(cpu) = u32_at(payload, 0, endian) {
            return vec![Field::new("cpu", cpu.to_string())];
        }
    }
    let is_diff = matches!(id, 100_003 | 100_004 | 100_006 | 100_008 | 100_010);
    let mut fields: Vec<Field> = names
        .iter()
        .enumerate()
        .map_while(|(i, name)| Some((name, u64_at(payload, i * 8, endian)?)))
        .map(|(name, v)| {
            let shown = if is_diff {
                (v as i64).to_string()
            } else {
                v.to_string()
            };
            Field::new(*name, shown)
        })
        .collect();
    if fields.is_empty() && !payload.is_empty() {
        fields.push(Field::new("payload bytes", payload.len().to_string()));
    }
    fields
}
