//! The Perfetto export's tracks: a uuid and a packet sequence for every
//! process, thread, counter and live-size counter, and their descriptors.
//! Perfetto joins thread tracks by pid and tid, so ids that are not numbers,
//! or repeat, are given numbers of their own.

use super::proto::{
    CounterDescriptor, ProcessDescriptor, ThreadDescriptor, TrackDescriptor, UNIT_SIZE_BYTES,
};
use crate::model::Trace;
use std::collections::HashSet;

/// The sequence the descriptors are written on.
pub const DESCRIPTOR_SEQUENCE: u32 = 1;

/// Track uuids: a kind in the high bits, the index below.
const PROCESS: u64 = 1 << 40;
const THREAD: u64 = 2 << 40;
const COUNTER: u64 = 3 << 40;
const LIVE: u64 = 4 << 40;

/// The numbers the tracks of one trace get.
pub struct Tracks {
    /// Per process, its pid.
    pids: Vec<i32>,
    /// Per thread, its tid.
    tids: Vec<i32>,
    threads: u32,
    counters: u32,
}

impl Tracks {
    pub fn of(trace: &Trace) -> Self {
        let pids = unique_ids(trace.processes.iter().map(|p| p.id.as_str()));
        let tids = unique_ids(trace.threads.iter().map(|t| t.id.as_str()));
        Tracks {
            pids,
            tids,
            threads: len_u32(trace.threads.len()),
            counters: len_u32(trace.counters.len()),
        }
    }

    pub fn thread(&self, t: usize) -> u64 {
        THREAD + t as u64
    }

    pub fn counter(&self, c: usize) -> u64 {
        COUNTER + c as u64
    }

    pub fn live(&self, a: usize) -> u64 {
        LIVE + a as u64
    }

    pub fn thread_sequence(&self, t: usize) -> u32 {
        DESCRIPTOR_SEQUENCE + 1 + len_u32(t)
    }

    pub fn counter_sequence(&self, c: usize) -> u32 {
        self.thread_sequence(self.threads as usize) + len_u32(c)
    }

    pub fn live_sequence(&self, a: usize) -> u32 {
        self.counter_sequence(self.counters as usize) + len_u32(a)
    }

    /// Every track's descriptor: processes, threads, counters, live sizes.
    pub fn descriptors(&self, trace: &Trace) -> Vec<TrackDescriptor> {
        let mut out = Vec::new();
        for (p, process) in trace.processes.iter().enumerate() {
            out.push(TrackDescriptor {
                uuid: Some(PROCESS + p as u64),
                process: Some(ProcessDescriptor {
                    pid: self.pids.get(p).copied(),
                    process_name: Some(process.name.clone()),
                }),
                ..TrackDescriptor::default()
            });
        }
        for (t, thread) in trace.threads.iter().enumerate() {
            let process = thread.process as usize;
            let has_process = process < trace.processes.len();
            out.push(TrackDescriptor {
                uuid: Some(self.thread(t)),
                parent_uuid: has_process.then_some(PROCESS + process as u64),
                thread: Some(ThreadDescriptor {
                    pid: Some(self.pids.get(process).copied().unwrap_or(0)),
                    tid: self.tids.get(t).copied(),
                    thread_name: Some(thread.name.clone()),
                }),
                ..TrackDescriptor::default()
            });
        }
        for (c, counter) in trace.counters.iter().enumerate() {
            let process = counter
                .process
                .or_else(|| Some(trace.threads.get(counter.thread? as usize)?.process))
                .filter(|&p| (p as usize) < trace.processes.len());
            out.push(counter_track(
                self.counter(c),
                process.map(|p| PROCESS + u64::from(p)),
                &counter.name,
                &counter.unit,
            ));
        }
        for (a, allocations) in trace.allocations.iter().enumerate() {
            let name = format!("live {}", allocations.resource);
            out.push(counter_track(
                self.live(a),
                None,
                &name,
                &allocations.size_unit,
            ));
        }
        out
    }
}

fn counter_track(uuid: u64, parent: Option<u64>, name: &str, unit: &str) -> TrackDescriptor {
    let counter = if unit == "bytes" {
        CounterDescriptor {
            unit: Some(UNIT_SIZE_BYTES),
            unit_name: None,
        }
    } else {
        CounterDescriptor {
            unit: None,
            unit_name: Some(unit.to_owned()),
        }
    };
    TrackDescriptor {
        uuid: Some(uuid),
        parent_uuid: parent,
        name: Some(name.to_owned()),
        counter: Some(counter),
        ..TrackDescriptor::default()
    }
}

/// Each id as a positive number: itself when it is one not taken yet, else
/// the next number above every id that is one.
fn unique_ids<'a>(ids: impl Iterator<Item = &'a str>) -> Vec<i32> {
    let parsed: Vec<Option<i32>> = ids.map(|id| id.parse().ok().filter(|&n| n > 0)).collect();
    let mut next = parsed.iter().flatten().copied().max().unwrap_or(0);
    let mut taken = HashSet::new();
    parsed
        .into_iter()
        .map(|id| match id {
            Some(n) if taken.insert(n) => n,
            _ => {
                next = next.saturating_add(1);
                taken.insert(next);
                next
            }
        })
        .collect()
}

fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
