//! Which data an aggregated view is built from, as a short key that fits in
//! the URL and in `data-source` attributes: `spans` (every thread merged),
//! `thread:<i>`, `samples:<set>:<weight>`, `alloc:<resource>:<bytes|count>`
//! and `leaks:<resource>:<bytes|count>`; the Memory view's
//! `mem:<resource>:<peak|end|range|at<time>>:<bytes|count|topmost>` (then
//! the view's filter, if any: `:size=a,b`, … see `memory::filter_key`).

use super::memory::filter_key::FilterKey;
use super::memory::sources::{parse_weighting, weighting_name, LiveWhen};
use flamedrop_core::analysis::memory::Weighting;
use flamedrop_core::analysis::{AllocationWeight, Source};
use flamedrop_core::Trace;

/// A source of call stacks for the aggregated views.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SourceKey {
    /// Spans of every thread, merged.
    #[default]
    AllThreads,
    /// Spans of one thread.
    Thread(u32),
    /// One weight column of a sample set.
    Samples { set: u32, weight: u32 },
    /// One weight column of every per-thread sample set named like set
    /// `set` (the first of them), merged: all threads' samples.
    MergedSamples { set: u32, weight: u32 },
    /// One allocation resource.
    Allocations {
        resource: u32,
        bytes: bool,
        only_live: bool,
    },
    /// One allocation resource's blocks live at a moment or allocated in
    /// the range, weighed as `rtrace-calltree` does (the Memory view's).
    Memory {
        resource: u32,
        when: LiveWhen,
        weighting: Weighting,
        /// The Memory view's filter when the source was chosen there.
        filter: FilterKey,
    },
}

impl SourceKey {
    /// The key's text form.
    pub fn name(self) -> String {
        let by = |bytes: bool| if bytes { "bytes" } else { "count" };
        match self {
            SourceKey::AllThreads => "spans".to_owned(),
            SourceKey::Thread(t) => format!("thread:{t}"),
            SourceKey::Samples { set, weight } => format!("samples:{set}:{weight}"),
            SourceKey::MergedSamples { set, weight } => format!("samples-all:{set}:{weight}"),
            SourceKey::Allocations {
                resource,
                bytes,
                only_live,
            } => format!(
                "{}:{resource}:{}",
                if only_live { "leaks" } else { "alloc" },
                by(bytes)
            ),
            SourceKey::Memory {
                resource,
                when,
                weighting,
                filter,
            } => format!(
                "mem:{resource}:{}:{}{}",
                when.name(),
                weighting_name(weighting),
                filter.name()
            ),
        }
    }

    /// Reads [`SourceKey::name`]'s form.
    pub fn parse(s: &str) -> Option<SourceKey> {
        let mut parts = s.split(':');
        let kind = parts.next()?;
        let mut number = || parts.next()?.parse::<u32>().ok();
        let key = match kind {
            "spans" => SourceKey::AllThreads,
            "thread" => SourceKey::Thread(number()?),
            "samples" => SourceKey::Samples {
                set: number()?,
                weight: number()?,
            },
            "samples-all" => SourceKey::MergedSamples {
                set: number()?,
                weight: number()?,
            },
            "alloc" | "leaks" => {
                let resource = number()?;
                let bytes = match parts.next()? {
                    "bytes" => true,
                    "count" => false,
                    _ => return None,
                };
                SourceKey::Allocations {
                    resource,
                    bytes,
                    only_live: kind == "leaks",
                }
            }
            "mem" => SourceKey::Memory {
                resource: number()?,
                when: LiveWhen::parse(parts.next()?)?,
                weighting: parse_weighting(parts.next()?)?,
                filter: FilterKey::parse(parts.by_ref())?,
            },
            _ => return None,
        };
        Some(key)
    }

    /// The core's description of this source.
    pub fn source(self, trace: &Trace) -> Source {
        match self {
            SourceKey::AllThreads => Source::Spans {
                threads: (0..trace.threads.len() as u32).collect(),
            },
            SourceKey::Thread(t) => Source::Spans { threads: vec![t] },
            SourceKey::Samples { set, weight } => Source::Samples { set, weight },
            SourceKey::MergedSamples { set, weight } => Source::SampleSets {
                sets: merged_sets(trace, set),
                weight,
            },
            SourceKey::Allocations {
                resource,
                bytes,
                only_live,
            } => Source::Allocations {
                resource,
                weight: if bytes {
                    AllocationWeight::Bytes
                } else {
                    AllocationWeight::Count
                },
                only_live,
            },
            // What the core's generic builder comes closest to (a diff
            // of two traces reads this); the trees come from
            // `memory::sources::tree`.
            SourceKey::Memory {
                resource,
                when,
                weighting,
                ..
            } => Source::Allocations {
                resource,
                weight: if weighting == Weighting::Count {
                    AllocationWeight::Count
                } else {
                    AllocationWeight::Bytes
                },
                only_live: when == LiveWhen::End,
            },
        }
    }

    /// The Memory view's parts of this key, if it is one of its sources.
    pub fn memory(self) -> Option<(u32, LiveWhen, Weighting, FilterKey)> {
        match self {
            SourceKey::Memory {
                resource,
                when,
                weighting,
                filter,
            } => Some((resource, when, weighting, filter)),
            _ => None,
        }
    }

    /// This key if `trace` offers it and it holds something; else the
    /// merged spans, or — when no thread has any (a trace of samples,
    /// allocations or tables only) — the first other source the trace
    /// offers, so the aggregated views open on data rather than empty. A key
    /// left from the previous trace (or a URL) that this one lacks falls back
    /// the same way.
    pub fn or_available(self, trace: &Trace) -> SourceKey {
        let offered: Vec<SourceKey> = SourceKey::offered(trace, |_| String::new())
            .into_iter()
            .map(|(key, _)| key)
            .collect();
        let has_spans = trace.threads.iter().any(|t| !t.spans.is_empty());
        if offered.contains(&self) && (has_spans || !self.is_time()) {
            return self;
        }
        // A clicked moment or a filtered source is never in the picker's list.
        if let Some((resource, when, _, filter)) = self.memory() {
            let listed = !matches!(when, LiveWhen::At(_)) && filter.is_empty();
            if !listed && (resource as usize) < trace.allocations.len() {
                return self;
            }
        }
        if has_spans {
            return SourceKey::AllThreads;
        }
        offered
            .into_iter()
            .find(|key| !key.is_time())
            .unwrap_or(SourceKey::AllThreads)
    }

    /// True when the weights are times (so they print as durations).
    pub fn is_time(self) -> bool {
        matches!(self, SourceKey::AllThreads | SourceKey::Thread(_))
    }

    /// Every source the trace offers, with a label for the picker.
    pub fn offered(
        trace: &Trace,
        thread_title: impl Fn(usize) -> String,
    ) -> Vec<(SourceKey, String)> {
        let mut out = vec![(
            SourceKey::AllThreads,
            "Calls: all threads merged".to_owned(),
        )];
        if trace.threads.len() > 1 {
            for t in 0..trace.threads.len() {
                out.push((
                    SourceKey::Thread(t as u32),
                    format!("Calls: {}", thread_title(t)),
                ));
            }
        }
        for (s, set) in trace.sample_sets.iter().enumerate() {
            let merged = merged_sets(trace, s as u32);
            if merged.len() > 1 && merged.first() == Some(&(s as u32)) {
                for (w, weight) in set.weight_names.iter().enumerate() {
                    out.push((
                        SourceKey::MergedSamples {
                            set: s as u32,
                            weight: w as u32,
                        },
                        format!("{}, all threads merged ({weight})", set.name),
                    ));
                }
            }
            for (w, weight) in set.weight_names.iter().enumerate() {
                out.push((
                    SourceKey::Samples {
                        set: s as u32,
                        weight: w as u32,
                    },
                    match set.thread {
                        // Sets of one thread each (SWAP's CPU samples) would read alike.
                        Some(t) => format!("{}: {} ({weight})", set.name, thread_title(t as usize)),
                        None => format!("{} ({weight})", set.name),
                    },
                ));
            }
        }
        for (r, a) in trace.allocations.iter().enumerate() {
            for only_live in [false, true] {
                for bytes in [true, false] {
                    if bytes && a.size_unit != "bytes" {
                        continue;
                    }
                    let what = if only_live { "leaks" } else { "allocations" };
                    let by = if bytes { "bytes" } else { "count" };
                    out.push((
                        SourceKey::Allocations {
                            resource: r as u32,
                            bytes,
                            only_live,
                        },
                        format!("{} {what} by {by}", a.resource),
                    ));
                }
            }
            memory_sources(r as u32, a, &mut out);
        }
        out
    }

    /// The unit of this source's weights ("ns", "bytes", "samples", …).
    pub fn unit(self, trace: &Trace) -> String {
        match self {
            SourceKey::AllThreads | SourceKey::Thread(_) => {
                trace.time_unit.map_or("ns", |u| u.name()).to_owned()
            }
            SourceKey::Samples { set, weight } | SourceKey::MergedSamples { set, weight } => trace
                .sample_sets
                .get(set as usize)
                .and_then(|s| s.weight_names.get(weight as usize))
                .cloned()
                .unwrap_or_default(),
            SourceKey::Allocations { bytes, .. } => {
                if bytes { "bytes" } else { "count" }.to_owned()
            }
            SourceKey::Memory { weighting, .. } => if weighting == Weighting::Count {
                "count"
            } else {
                "bytes"
            }
            .to_owned(),
        }
    }
}

/// The Memory view's sources of resource `r` (`a`), for the picker.
fn memory_sources(
    r: u32,
    a: &flamedrop_core::model::Allocations,
    out: &mut Vec<(SourceKey, String)>,
) {
    let topmost = Weighting::Topmost {
        count: super::memory::sources::TOPMOST,
    };
    for when in [LiveWhen::Peak, LiveWhen::End, LiveWhen::InRange] {
        for weighting in [Weighting::Bytes, Weighting::Count, topmost] {
            if weighting != Weighting::Count && a.size_unit != "bytes" {
                continue;
            }
            let label = format!(
                "{}: {} by {}",
                a.resource,
                when.label(),
                weighting_name(weighting)
            );
            let key = SourceKey::Memory {
                resource: r,
                when,
                weighting,
                filter: FilterKey::default(),
            };
            out.push((key, label));
        }
    }
}

/// The per-thread sample sets that merge with set `set`: every set of one
/// thread with its name and weight names, in trace order (none when `set`
/// is a whole-trace set).
fn merged_sets(trace: &Trace, set: u32) -> Vec<u32> {
    let Some(first) = trace.sample_sets.get(set as usize) else {
        return Vec::new();
    };
    if first.thread.is_none() {
        return Vec::new();
    }
    trace
        .sample_sets
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            s.thread.is_some() && s.name == first.name && s.weight_names == first.weight_names
        })
        .map(|(i, _)| i as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_through_text() {
        for key in [
            SourceKey::AllThreads,
            SourceKey::Thread(3),
            SourceKey::Samples { set: 1, weight: 2 },
            SourceKey::MergedSamples { set: 0, weight: 0 },
            SourceKey::Allocations {
                resource: 0,
                bytes: false,
                only_live: true,
            },
            SourceKey::Memory {
                resource: 1,
                when: LiveWhen::At(42),
                weighting: Weighting::Topmost {
                    count: super::super::memory::sources::TOPMOST,
                },
                filter: FilterKey {
                    size: Some((8, 64)),
                    through: Some(2),
                    ..Default::default()
                },
            },
        ] {
            assert_eq!(SourceKey::parse(&key.name()), Some(key));
        }
        assert_eq!(SourceKey::parse("alloc:1:kg"), None);
        assert_eq!(SourceKey::parse("thread:x"), None);
    }

    #[test]
    fn a_trace_without_spans_opens_on_its_samples() {
        let mut trace = Trace::default();
        assert_eq!(
            SourceKey::AllThreads.or_available(&trace),
            SourceKey::AllThreads
        );
        trace.sample_sets.push(flamedrop_core::model::SampleSet {
            name: "event frequency".to_owned(),
            weight_names: vec!["events".to_owned()],
            ..Default::default()
        });
        let samples = SourceKey::Samples { set: 0, weight: 0 };
        assert_eq!(SourceKey::AllThreads.or_available(&trace), samples);
        assert_eq!(samples.or_available(&trace), samples);
        // A key this trace does not offer (left from the previous one) falls back.
        assert_eq!(
            SourceKey::Samples { set: 3, weight: 0 }.or_available(&trace),
            samples
        );
        assert_eq!(SourceKey::Thread(2).or_available(&trace), samples);
    }

    #[test]
    fn per_thread_sample_sets_are_offered_merged() {
        let mut trace = Trace::default();
        for thread in [Some(0), Some(1), None] {
            trace.sample_sets.push(flamedrop_core::model::SampleSet {
                name: "CPU samples".to_owned(),
                thread,
                weight_names: vec!["samples".to_owned()],
                ..Default::default()
            });
        }
        let offered = SourceKey::offered(&trace, |t| format!("t{t}"));
        let merged = SourceKey::MergedSamples { set: 0, weight: 0 };
        assert_eq!(offered.iter().filter(|(k, _)| *k == merged).count(), 1);
        assert_eq!(
            merged.source(&trace),
            Source::SampleSets {
                sets: vec![0, 1],
                weight: 0
            }
        );
        assert_eq!(merged.unit(&trace), "samples");
    }
}
