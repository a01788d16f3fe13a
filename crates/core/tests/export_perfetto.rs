//! `convert --to perfetto`: every fixture's export decoded as a protobuf
//! `Trace` (prost, with Perfetto's field numbers), its tracks, slices,
//! instants and counter values counted and compared with counts taken from
//! the decoded trace here, its slices rebuilt from begin and end events and
//! compared with the spans, and its structure checked the way trace_processor
//! reads it: every event on a declared track, slices only on thread tracks and
//! balanced there, counter values only on counter tracks, timestamps in order
//! on every packet sequence.

mod common;

use common::{decode_input, fixture_inputs};
use flamedrop_core::export::perfetto::proto::{
    Trace as PerfettoTrace, TrackDescriptor, TrackEvent, TYPE_COUNTER, TYPE_INSTANT,
    TYPE_SLICE_BEGIN, TYPE_SLICE_END,
};
use flamedrop_core::export::perfetto::to_perfetto;
use flamedrop_core::model::{
    TimeUnit, Trace, NEVER_FREED, SPAN_ABANDONED, SPAN_CONTINUED, SPAN_CUT, SPAN_OFF_CPU,
    SPAN_OPEN_AT_END, SPAN_START_REPAIRED,
};
use prost::Message;
use std::collections::{BTreeSet, HashMap, HashSet};

/// What the export holds, counted from the decoded protobuf.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    process_tracks: usize,
    thread_tracks: usize,
    counter_tracks: usize,
    slices: usize,
    instants: usize,
    counter_values: usize,
}

/// The same, counted from the trace the export was made from.
fn model_counts(trace: &Trace) -> Counts {
    let live_points: usize = trace
        .allocations
        .iter()
        .map(|a| {
            let freed = a.free_time.iter().filter(|&&t| t != NEVER_FREED);
            a.time.iter().chain(freed).collect::<BTreeSet<_>>().len()
        })
        .sum();
    Counts {
        process_tracks: trace.processes.len(),
        thread_tracks: trace.threads.len(),
        counter_tracks: trace.counters.len() + trace.allocations.len(),
        slices: trace.threads.iter().map(|t| t.spans.len()).sum(),
        instants: trace.threads.iter().map(|t| t.instants.len()).sum(),
        counter_values: trace.counters.iter().map(|c| c.time.len()).sum::<usize>() + live_points,
    }
}

fn decode(trace: &Trace) -> PerfettoTrace {
    PerfettoTrace::decode(&to_perfetto(trace)[..]).expect("a Perfetto Trace message")
}

fn descriptors(exported: &PerfettoTrace) -> Vec<&TrackDescriptor> {
    exported
        .packet
        .iter()
        .filter_map(|p| p.track_descriptor.as_ref())
        .collect()
}

/// (sequence, timestamp, event) of every track event, in file order.
fn events(exported: &PerfettoTrace) -> Vec<(u32, u64, &TrackEvent)> {
    exported
        .packet
        .iter()
        .filter_map(|p| {
            let event = p.track_event.as_ref()?;
            let sequence = p.trusted_packet_sequence_id.expect("a sequence");
            Some((sequence, p.timestamp.expect("a timestamp"), event))
        })
        .collect()
}

fn counts(exported: &PerfettoTrace) -> Counts {
    let mut counts = Counts::default();
    for d in descriptors(exported) {
        counts.process_tracks += usize::from(d.process.is_some());
        counts.thread_tracks += usize::from(d.thread.is_some());
        counts.counter_tracks += usize::from(d.counter.is_some());
    }
    for (_, _, e) in events(exported) {
        match e.r#type {
            Some(TYPE_SLICE_BEGIN) => counts.slices += 1,
            Some(TYPE_INSTANT) => counts.instants += 1,
            Some(TYPE_COUNTER) => counts.counter_values += 1,
            _ => {}
        }
    }
    counts
}

#[test]
fn every_fixture_exports_its_tracks_slices_instants_and_counters() {
    let inputs = fixture_inputs();
    let groups: HashSet<&str> = inputs.iter().map(|(g, _, _)| g.as_str()).collect();
    for format in ["uftrace", "scaler", "swap", "rtrace", "selogger"] {
        assert!(groups.contains(format), "a {format} fixture");
    }
    for (group, case, path) in &inputs {
        let trace = decode_input(path);
        let exported = decode(&trace);
        assert_eq!(counts(&exported), model_counts(&trace), "{group}/{case}");
        check_structure(&exported, &format!("{group}/{case}"));
    }
}

/// What trace_processor needs to place every event.
fn check_structure(exported: &PerfettoTrace, what: &str) {
    let descriptors = descriptors(exported);
    let mut kind: HashMap<u64, &str> = HashMap::new();
    for d in &descriptors {
        let k = if d.process.is_some() {
            "process"
        } else if d.thread.is_some() {
            "thread"
        } else if d.counter.is_some() {
            "counter"
        } else {
            "other"
        };
        let uuid = d.uuid.expect("a uuid");
        assert!(kind.insert(uuid, k).is_none(), "{what}: uuid used twice");
    }
    let mut threads = HashSet::new();
    for d in &descriptors {
        let Some(thread) = &d.thread else { continue };
        assert!(
            threads.insert((thread.pid, thread.tid)),
            "{what}: two thread tracks share pid and tid"
        );
        if let Some(parent) = d.parent_uuid {
            assert_eq!(kind.get(&parent), Some(&"process"), "{what}");
        }
    }
    let mut depth: HashMap<u64, usize> = HashMap::new();
    let mut last_time: HashMap<u32, u64> = HashMap::new();
    for (sequence, time, e) in events(exported) {
        let uuid = e.track_uuid.expect("a track");
        let track = kind.get(&uuid).copied();
        match e.r#type {
            Some(TYPE_SLICE_BEGIN | TYPE_SLICE_END | TYPE_INSTANT) => {
                assert_eq!(track, Some("thread"), "{what}: event off a thread track")
            }
            Some(TYPE_COUNTER) => assert_eq!(track, Some("counter"), "{what}"),
            other => panic!("{what}: unexpected event type {other:?}"),
        }
        let open = depth.entry(uuid).or_default();
        match e.r#type {
            Some(TYPE_SLICE_BEGIN) => *open += 1,
            Some(TYPE_SLICE_END) => {
                *open = open.checked_sub(1).expect("an end without a begin");
            }
            _ => {}
        }
        let last = last_time.entry(sequence).or_default();
        assert!(
            time >= *last,
            "{what}: time goes back on sequence {sequence}"
        );
        *last = time;
    }
    assert!(depth.values().all(|&d| d == 0), "{what}: unbalanced slices");
}

/// The slices of each thread track, rebuilt from begin and end events, are
/// the thread's spans: name, start, end, details and flags.
#[test]
fn slices_are_the_spans_with_their_arguments() {
    for (group, case, path) in fixture_inputs() {
        let trace = decode_input(&path);
        let exported = decode(&trace);
        let scale = match trace.time_unit {
            Some(TimeUnit::Us) => 1000,
            _ => 1,
        };
        assert!(trace.time_range().is_none_or(|(start, _)| start >= 0));
        let thread_uuid: Vec<u64> = descriptors(&exported)
            .iter()
            .filter(|d| d.thread.is_some())
            .filter_map(|d| d.uuid)
            .collect();
        let mut slices: HashMap<u64, Vec<Slice>> = HashMap::new();
        let mut open: HashMap<u64, Vec<usize>> = HashMap::new();
        for (_, time, e) in events(&exported) {
            let uuid = e.track_uuid.unwrap_or_default();
            let list = slices.entry(uuid).or_default();
            let stack = open.entry(uuid).or_default();
            match e.r#type {
                Some(TYPE_SLICE_BEGIN) => {
                    stack.push(list.len());
                    list.push(Slice {
                        name: e.name.clone().unwrap_or_default(),
                        start: time,
                        end: 0,
                        args: e
                            .debug_annotations
                            .iter()
                            .map(|a| {
                                let value = match a.bool_value {
                                    Some(b) => b.to_string(),
                                    None => a.string_value.clone().unwrap_or_default(),
                                };
                                (a.name.clone().unwrap_or_default(), value)
                            })
                            .collect(),
                    });
                }
                Some(TYPE_SLICE_END) => {
                    let begun = stack.pop().expect("balanced");
                    list[begun].end = time;
                }
                _ => {}
            }
        }
        assert_eq!(thread_uuid.len(), trace.threads.len());
        for (thread, uuid) in trace.threads.iter().zip(&thread_uuid) {
            let got = slices.remove(uuid).unwrap_or_default();
            let s = &thread.spans;
            assert_eq!(got.len(), s.len(), "{group}/{case}");
            for (i, slice) in got.iter().enumerate() {
                let mut args: Vec<(String, String)> = s
                    .details_of(i as u32, &trace.strings)
                    .into_iter()
                    .map(|f| (f.key, f.value))
                    .collect();
                for (bit, name) in FLAGS {
                    if s.flags[i] & bit != 0 {
                        args.push((name.into(), "true".into()));
                    }
                }
                let what = format!("{group}/{case} span {i}");
                assert_eq!(slice.name, trace.str(s.name[i]), "{what}");
                assert_eq!(slice.start, (s.start[i] * scale) as u64, "{what}");
                assert_eq!(slice.end, (s.end[i] * scale) as u64, "{what}");
                assert_eq!(slice.args, args, "{what}");
            }
        }
    }
}

/// The span flags and the annotation each is written as.
const FLAGS: [(u8, &str); 6] = [
    (SPAN_OPEN_AT_END, "open_at_end"),
    (SPAN_START_REPAIRED, "start_repaired"),
    (SPAN_CUT, "cut_by_data_loss"),
    (SPAN_OFF_CPU, "off_cpu"),
    (SPAN_ABANDONED, "abandoned"),
    (SPAN_CONTINUED, "continued"),
];

struct Slice {
    name: String,
    start: u64,
    end: u64,
    args: Vec<(String, String)>,
}

/// The arguments uftrace recorded for `add_int` arrive as annotations.
#[test]
fn uftrace_arguments_are_debug_annotations() {
    let trace = common::decode_case("uftrace", "f-args-explicit");
    let exported = decode(&trace);
    let add = events(&exported)
        .into_iter()
        .map(|(_, _, e)| e)
        .find(|e| e.name.as_deref() == Some("add_int"))
        .expect("add_int");
    let args: Vec<(&str, &str)> = add
        .debug_annotations
        .iter()
        .map(|a| {
            let name = a.name.as_deref().unwrap_or("");
            (name, a.string_value.as_deref().unwrap_or(""))
        })
        .collect();
    assert!(args.contains(&("args", "1, 2")), "{args:?}");
    assert!(args.contains(&("return", "3")), "{args:?}");
}

/// Counter tracks carry the counters' names and values in time order.
#[test]
fn counter_values_are_the_trace_counters() {
    let input = fixture_inputs()
        .into_iter()
        .find(|(g, c, _)| g == "swap" && c == "demo.swap")
        .expect("the SWAP demo");
    let trace = decode_input(&input.2);
    assert!(!trace.counters.is_empty(), "the demo has counters");
    let exported = decode(&trace);
    let tracks: Vec<&TrackDescriptor> = descriptors(&exported)
        .into_iter()
        .filter(|d| d.counter.is_some())
        .collect();
    for (counter, track) in trace.counters.iter().zip(tracks) {
        assert_eq!(track.name.as_deref(), Some(counter.name.as_str()));
        let values: Vec<f64> = events(&exported)
            .into_iter()
            .filter(|(_, _, e)| e.track_uuid == track.uuid)
            .map(|(_, _, e)| e.double_counter_value.expect("a value"))
            .collect();
        assert_eq!(values.len(), counter.value.len(), "{}", counter.name);
        for (got, want) in values.iter().zip(&counter.value) {
            assert!(got == want || (got.is_nan() && want.is_nan()));
        }
    }
}
