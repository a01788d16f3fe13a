//! `perf-cpu<N>.dat`: raw Linux perf ring-buffer records (context switches,
//! fork, exit, comm) recorded beside the user trace, on the same clock.

use crate::formats::common::{u16_at, u32_at, u64_at, Endian};

/// What a perf record means for a task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerfKind {
    SchedIn,
    SchedOut,
    SchedOutPreempted,
    TaskNew,
    TaskExit,
    /// The task's command name changed (or was first seen).
    Comm(String),
}

/// One perf record, with the task it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfEvent {
    pub time: i64,
    pub tid: u32,
    pub kind: PerfKind,
}

/// Problems found in a perf file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerfProblems {
    /// Offset of a record whose size is impossible; reading stopped there.
    pub broken_at: Option<u64>,
    /// Bytes left unread from `broken_at` on.
    pub bytes_lost: u64,
    /// Records of other types, skipped by their size.
    pub skipped: u64,
}

const COMM: u32 = 3;
const EXIT: u32 = 4;
const FORK: u32 = 7;
const SWITCH: u32 = 14;
const MISC_SWITCH_OUT: u16 = 0x2000;
const MISC_SWITCH_OUT_PREEMPT: u16 = 0x4000;

/// Parses one perf file.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn parse(data: &[u8], big_endian: bool) -> (Vec<PerfEvent>, PerfProblems) {
    let endian = Endian::big_if(big_endian);
    let mut events = Vec::new();
    let mut problems = PerfProblems::default();
    let mut at = 0usize;
    while let (Some(kind), Some(misc), Some(size)) = (
        u32_at(data, at, endian),
        u16_at(data, at + 4, endian),
        u16_at(data, at + 6, endian),
    ) {
        let size = usize::from(size);
        let body = match data.get(at..at + size).and_then(|r| r.get(8..)) {
            Some(body) => body,
            None => {
                problems.broken_at = Some(at as u64);
                problems.bytes_lost = (data.len() - at) as u64;
                return (events, problems);
            }
        };
        match event(kind, misc, body, endian) {
            Some(e) => events.push(e),
            None => problems.skipped += 1,
        }
        at += size;
    }
    if at < data.len() {
        problems.broken_at = Some(at as u64);
        problems.bytes_lost = (data.len() - at) as u64;
    }
    (events, problems)
}

/// The event a record of type `kind` holds in `body` (after its header).
fn event(kind: u32, misc: u16, body: &[u8], endian: Endian) -> Option<PerfEvent> {
    let time_at = |at: usize| u64_at(body, at, endian).map(|t| t as i64);
    match kind {
        SWITCH => Some(PerfEvent {
            tid: u32_at(body, 4, endian)?,
            time: time_at(8)?,
            kind: match (
                misc & MISC_SWITCH_OUT != 0,
                misc & MISC_SWITCH_OUT_PREEMPT != 0,
            ) {
                (true, true) => PerfKind::SchedOutPreempted,
                (true, false) => PerfKind::SchedOut,
                _ => PerfKind::SchedIn,
            },
        }),
        FORK | EXIT => Some(PerfEvent {
            tid: u32_at(body, 8, endian)?,
            time: time_at(16)?,
            kind: if kind == FORK {
                PerfKind::TaskNew
            } else {
                PerfKind::TaskExit
            },
        }),
        COMM => {
            // pid, tid, the name (NUL-padded), then the sample trailer.
            let trailer_at = body.len().checked_sub(16).filter(|&t| t >= 8)?;
            let name_area = body.get(8..trailer_at)?;
            let name = name_area.split(|&b| b == 0).next().unwrap_or(name_area);
            Some(PerfEvent {
                tid: u32_at(body, 4, endian)?,
                time: time_at(trailer_at + 8)?,
                kind: PerfKind::Comm(String::from_utf8_lossy(name).into_owned()),
            })
        }
        _ => None,
    }
}

/// Merges the events of several perf files into time order; at equal times
/// the earlier file (in uftrace's glob order) comes first.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn merge(files: Vec<Vec<PerfEvent>>) -> Vec<PerfEvent> {
    let mut all: Vec<(usize, PerfEvent)> = files
        .into_iter()
        .enumerate()
        .flat_map(|(i, events)| events.into_iter().map(move |e| (i, e)))
        .collect();
    all.sort_by_key(|(file, e)| (e.time, *file));
    all.into_iter().map(|(_, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn switch(misc: u16, tid: u32, time: u64) -> Vec<u8> {
        let mut r = SWITCH.to_le_bytes().to_vec();
        r.extend_from_slice(&misc.to_le_bytes());
        r.extend_from_slice(&24u16.to_le_bytes());
        r.extend_from_slice(&tid.to_le_bytes());
        r.extend_from_slice(&tid.to_le_bytes());
        r.extend_from_slice(&time.to_le_bytes());
        r
    }

    #[test]
    fn switches_and_comm_are_read_and_a_broken_tail_is_reported() {
        let mut data = switch(0x2000 | 0x4000, 5, 100);
        data.extend(switch(0, 5, 200));
        let mut comm = COMM.to_le_bytes().to_vec();
        comm.extend_from_slice(&0u16.to_le_bytes());
        comm.extend_from_slice(&40u16.to_le_bytes());
        comm.extend_from_slice(&5u32.to_le_bytes());
        comm.extend_from_slice(&5u32.to_le_bytes());
        comm.extend_from_slice(b"prog\0\0\0\0");
        comm.extend_from_slice(&5u32.to_le_bytes());
        comm.extend_from_slice(&5u32.to_le_bytes());
        comm.extend_from_slice(&300u64.to_le_bytes());
        data.extend(comm);
        data.extend_from_slice(&[1, 2, 3]);
        let (events, problems) = parse(&data, false);
        assert_eq!(events.len(), 3);
        assert_eq!(events[0].kind, PerfKind::SchedOutPreempted);
        assert_eq!(events[1].kind, PerfKind::SchedIn);
        assert_eq!(
            events[2],
            PerfEvent {
                time: 300,
                tid: 5,
                kind: PerfKind::Comm("prog".into())
            }
        );
        assert_eq!(problems.broken_at, Some(88));
        assert_eq!(problems.bytes_lost, 3);
    }
}
