//! Counter tracks from the values read triggers recorded.
//!
//! Each `read:` marker is a sample of the values at a call's entry; its
//! call's `diff:` adds one more at the exit (entry value + difference, the
//! value libmcount read there). Values are kept as read, so page faults are
//! cumulative (`getrusage` counts since the process started): the track
//! rises where faults happened, whatever calls the reads came from, and the
//! per-interval view is the per-call delta. `/proc/self/statm` and
//! `getrusage(RUSAGE_SELF)` describe the whole process, so their samples
//! from every thread of a process make one track; the PMU counters are the
//! reading thread's own, one track per thread.

use super::deltas::match_thread;
use super::{marker_names, marker_values, Phase, Quantity};
use crate::model::{Counter, Trace};
use std::collections::BTreeMap;

/// Whose values a track holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Owner {
    Process(u32),
    Thread(u32),
}

type Samples = BTreeMap<(Owner, Quantity), Vec<(i64, i64)>>;

/// One counter per quantity and process (memory, page faults) or thread
/// (PMU counters) that read triggers recorded, times ascending; empty for
/// a trace without read triggers.
pub fn read_counters(trace: &Trace) -> Vec<Counter> {
    let Some(names) = marker_names(trace) else {
        return Vec::new();
    };
    let mut samples: Samples = BTreeMap::new();
    for (t, thread) in trace.threads.iter().enumerate() {
        let owner = |q: Quantity| {
            if q.per_process() {
                Owner::Process(thread.process)
            } else {
                Owner::Thread(t as u32)
            }
        };
        let instants = &thread.instants;
        for (i, (&time, &name)) in instants.time.iter().zip(&instants.name).enumerate() {
            let Some((Phase::Read, event)) = names.get(name as usize).copied().flatten() else {
                continue;
            };
            for (q, value) in marker_values(trace, &instants.details, i as u32, event) {
                if let Some(value) = value {
                    samples
                        .entry((owner(q), q))
                        .or_default()
                        .push((time, value));
                }
            }
        }
        for m in match_thread(thread, &names) {
            let (Some(read), Some(&time)) = (m.read, instants.time.get(m.diff as usize)) else {
                continue;
            };
            let entry = marker_values(trace, &instants.details, read, m.event);
            let diff = marker_values(trace, &instants.details, m.diff, m.event);
            for ((q, before), (_, change)) in entry.into_iter().zip(diff) {
                if let (Some(before), Some(change)) = (before, change) {
                    let after = before.wrapping_add(change);
                    samples
                        .entry((owner(q), q))
                        .or_default()
                        .push((time, after));
                }
            }
        }
    }
    tracks(trace, samples)
}

/// The samples as counters, each sorted by time; a quantity read by more
/// than one owner names the owner in its title.
fn tracks(trace: &Trace, samples: Samples) -> Vec<Counter> {
    let mut owners: BTreeMap<Quantity, usize> = BTreeMap::new();
    for (_, q) in samples.keys() {
        *owners.entry(*q).or_default() += 1;
    }
    samples
        .into_iter()
        .map(|((owner, q), mut points)| {
            points.sort_by_key(|p| p.0);
            let (process, thread) = match owner {
                Owner::Process(p) => (Some(p), None),
                Owner::Thread(t) => (None, Some(t)),
            };
            let name = if owners.get(&q).copied().unwrap_or(0) > 1 {
                format!("{} · {}", q.name(), owner_name(trace, owner))
            } else {
                q.name().to_owned()
            };
            Counter {
                name,
                unit: q.unit().to_owned(),
                process,
                thread,
                time: points.iter().map(|p| p.0).collect(),
                value: points.iter().map(|p| p.1 as f64).collect(),
            }
        })
        .collect()
}

/// "pid 27379" or "tid 27380".
fn owner_name(trace: &Trace, owner: Owner) -> String {
    match owner {
        Owner::Process(p) => {
            let id = trace
                .processes
                .get(p as usize)
                .map_or("?", |p| p.id.as_str());
            format!("pid {id}")
        }
        Owner::Thread(t) => {
            let id = trace.threads.get(t as usize).map_or("?", |t| t.id.as_str());
            format!("tid {id}")
        }
    }
}
