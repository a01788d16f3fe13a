//! The cheap look at a uftrace recording before decoding it (the page's
//! "does it fit" question): which tasks it holds, how many bytes of records
//! each has, and when each task's records begin and end — read from
//! `task.txt`, each `<tid>.dat`'s size, its first record (in the bytes the
//! probe already holds) and its last (found in the file's last
//! [`TAIL_BYTES`]), whatever the recording's size.

use super::records::{self, Kind, RECORD_SIZE};
use super::roles::{role_of, Role};
use super::{info, symbols, task};
use crate::decoder::FileProbe;
use crate::formats::common::Recording;

/// Bytes read from the end of each task data file to find its last record.
pub const TAIL_BYTES: u64 = 64 << 10;

/// Largest `task.txt` read for the names (a long recording's list of
/// forks stays far below this).
const TASK_TXT_MAX: u64 = 4 << 20;

/// One task as the pre-scan sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskScan {
    pub tid: String,
    /// The program the task ran (its session's executable's file name).
    pub name: String,
    /// Bytes of its `<tid>.dat`.
    pub bytes: u64,
    /// Times of its first and last records, when they could be read.
    pub first: Option<i64>,
    pub last: Option<i64>,
}

/// A byte range of one offered file that the pre-scan wants: (file index,
/// offset, length).
pub type Want = (usize, u64, u64);

fn recording(probes: &[FileProbe]) -> Recording<Role> {
    let folder = Recording::<Role>::folder_of(probes, |p| p.head.starts_with(info::MAGIC))
        .or_else(|| Recording::<Role>::folder_of(probes, |p| p.name() == "task.txt"))
        .unwrap_or_default();
    Recording::new(probes.to_vec(), &folder, role_of)
}

/// The byte ranges to read: `task.txt` whole (for the task names), the tail
/// of every task data file. Tails start 8-byte aligned, as records do.
pub fn wants(probes: &[FileProbe]) -> Vec<Want> {
    let files = recording(probes);
    files
        .roles()
        .filter_map(|(index, role)| {
            let size = files.probe(index)?.size;
            match role {
                Role::TaskText => Some((index, 0, size.min(TASK_TXT_MAX))),
                Role::Data { .. } => {
                    let from = size.saturating_sub(TAIL_BYTES) / 8 * 8;
                    Some((index, from, size - from))
                }
                _ => None,
            }
        })
        .collect()
}

/// The tasks of the recording, from the probes and the bytes [`wants`]
/// asked for (`read(index)`: the bytes read of file `index`, if any).
pub fn tasks<'a>(probes: &[FileProbe], read: impl Fn(usize) -> Option<&'a [u8]>) -> Vec<TaskScan> {
    let files = recording(probes);
    let big_endian = files
        .probes()
        .iter()
        .find(|p| p.head.starts_with(info::MAGIC))
        .is_some_and(|p| p.head.get(14) == Some(&2));
    let task_file = files
        .roles()
        .find(|(_, r)| **r == Role::TaskText)
        .and_then(|(index, _)| read(index))
        .map(|bytes| task::parse(&String::from_utf8_lossy(bytes)))
        .unwrap_or_default();
    files
        .roles()
        .filter_map(|(index, role)| {
            let Role::Data { tid } = role else {
                return None;
            };
            let probe = files.probe(index)?;
            let first = first_time(&probe.head, big_endian);
            let last = first.and_then(|f| last_time(read(index)?, big_endian, f));
            Some(TaskScan {
                tid: tid.clone(),
                name: task_name(&task_file, tid),
                bytes: probe.size,
                first,
                last: last.or(first),
            })
        })
        .collect()
}

/// The program a task ran, as the decoder names its thread.
fn task_name(tasks: &task::TaskFile, tid: &str) -> String {
    let pid = tasks.tasks.get(tid).map_or(tid, |t| t.pid.as_str());
    tasks
        .sessions
        .iter()
        .find(|s| s.pid == pid)
        .map(|s| symbols::basename(&s.exename).to_owned())
        .unwrap_or_default()
}

/// The time of the record at the start of `head`.
fn first_time(head: &[u8], big_endian: bool) -> Option<i64> {
    let bytes: &[u8; RECORD_SIZE] = head.get(..RECORD_SIZE)?.try_into().ok()?;
    let record = records::parse(bytes, big_endian);
    if !records::sane(&record, None) || record.kind == Kind::Lost {
        return None;
    }
    i64::try_from(record.time).ok()
}

/// The time of the last plausible record in `tail` (which starts 8-byte
/// aligned): the last 16 aligned bytes that look like a record at or after
/// the task's first. Argument data could look like one; for an estimate
/// that is good enough.
fn last_time(tail: &[u8], big_endian: bool, first: i64) -> Option<i64> {
    let min_time = u64::try_from(first).ok()?;
    let mut at = tail.len().checked_sub(RECORD_SIZE)? / 8 * 8;
    loop {
        if let Some(bytes) = tail
            .get(at..at + RECORD_SIZE)
            .and_then(|b| <&[u8; RECORD_SIZE]>::try_from(b).ok())
        {
            let record = records::parse(bytes, big_endian);
            let plausible = record.magic == records::RECORD_MAGIC
                && record.kind != Kind::Lost
                && record.time >= min_time
                && record.time - min_time <= records::MAX_GAP_NS;
            if plausible {
                return i64::try_from(record.time).ok();
            }
        }
        at = at.checked_sub(8)?;
    }
}

/// A uftrace timestamp as `--time-range` takes it: seconds with 9 decimals.
pub fn uftrace_time(ns: i64) -> String {
    format!(
        "{}.{:09}",
        ns.div_euclid(1_000_000_000),
        ns.rem_euclid(1_000_000_000)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(time: u64, kind: u64, depth: u64) -> Vec<u8> {
        let word = kind | (5 << 3) | (depth << 6) | (0x4010 << 16);
        [time.to_le_bytes(), word.to_le_bytes()].concat()
    }

    #[test]
    fn first_and_last_records_give_the_span() {
        let mut data = record(1_000, 0, 0);
        data.extend(record(1_500, 0, 1));
        data.extend(record(2_000, 1, 1));
        data.extend(record(2_500, 1, 0));
        assert_eq!(first_time(&data, false), Some(1_000));
        assert_eq!(last_time(&data, false, 1_000), Some(2_500));
        assert_eq!(last_time(&data[..8], false, 1_000), None);
        assert_eq!(first_time(&[0; 16], false), None);
    }

    #[test]
    fn times_print_as_uftrace_reads_them() {
        assert_eq!(uftrace_time(228_861_432_502), "228.861432502");
        assert_eq!(uftrace_time(5), "0.000000005");
    }
}
