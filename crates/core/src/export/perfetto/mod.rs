//! Perfetto's protobuf trace format (what ui.perfetto.dev and
//! trace_processor open): a `Trace` of `TracePacket`s. Track descriptors name
//! every process, thread and counter track; each thread's spans are
//! `TYPE_SLICE_BEGIN` / `TYPE_SLICE_END` track events on its track, with the
//! span's details and flags as debug annotations, its markers are
//! `TYPE_INSTANT` events, and counters (the trace's own and the live size of
//! each allocated resource) are `TYPE_COUNTER` events on counter tracks. Each
//! thread and counter writes on its own packet sequence, in time order.
//! Causal links between slices the trace keeps are flows (`flows.rs`).
//! Samples have no place here: `--to pprof` carries them.

mod flows;
pub mod proto;
mod tracks;

use crate::export::chrome::live_over_time;
use crate::model::{Details, StringTable, Thread, TimeUnit, Trace};
use crate::model::{
    SPAN_ABANDONED, SPAN_CONTINUED, SPAN_CUT, SPAN_OFF_CPU, SPAN_OPEN_AT_END, SPAN_START_REPAIRED,
};
use flows::Flows;
use proto::{DebugAnnotation, TracePacket, TrackEvent};
use tracks::Tracks;

/// The span flags written as boolean annotations, with their names.
const FLAG_NAMES: [(u8, &str); 6] = [
    (SPAN_OPEN_AT_END, "open_at_end"),
    (SPAN_START_REPAIRED, "start_repaired"),
    (SPAN_CUT, "cut_by_data_loss"),
    (SPAN_OFF_CPU, "off_cpu"),
    (SPAN_ABANDONED, "abandoned"),
    (SPAN_CONTINUED, "continued"),
];

/// The trace as a Perfetto protobuf trace (`.perfetto-trace`).
pub fn to_perfetto(trace: &Trace) -> Vec<u8> {
    let clock = Clock::of(trace);
    let tracks = Tracks::of(trace);
    let flows = Flows::of(trace);
    let mut out = Writer {
        bytes: Vec::with_capacity(1 << 16),
    };
    for descriptor in tracks.descriptors(trace) {
        out.packet(&TracePacket {
            trusted_packet_sequence_id: Some(tracks::DESCRIPTOR_SEQUENCE),
            track_descriptor: Some(descriptor),
            ..TracePacket::default()
        });
    }
    for (t, thread) in trace.threads.iter().enumerate() {
        let track = tracks.thread(t);
        let mut events = ThreadEvents {
            trace,
            flows: &flows,
            thread: t,
            clock,
            track,
            sequence: tracks.thread_sequence(t),
            out: &mut out,
        };
        events.write(thread);
    }
    for (c, counter) in trace.counters.iter().enumerate() {
        let points = counter
            .time
            .iter()
            .copied()
            .zip(counter.value.iter().copied());
        out.counter(clock, tracks.counter(c), tracks.counter_sequence(c), points);
    }
    for (a, allocations) in trace.allocations.iter().enumerate() {
        let points = live_over_time(allocations)
            .into_iter()
            .map(|(time, live)| (time, live as f64));
        out.counter(clock, tracks.live(a), tracks.live_sequence(a), points);
    }
    out.bytes
}

/// Trace times to Perfetto's unsigned nanoseconds: scaled from the trace's
/// unit (logical clocks taken as nanoseconds) and shifted only when a time
/// would be negative.
#[derive(Clone, Copy)]
struct Clock {
    origin: i64,
    ns_per_unit: i64,
}

impl Clock {
    fn of(trace: &Trace) -> Self {
        let ns_per_unit = match trace.time_unit {
            Some(TimeUnit::Us) => 1000,
            _ => 1,
        };
        let lowest = trace.time_range().map_or(0, |(start, _)| start);
        let counters = trace.counters.iter().flat_map(|c| c.time.first().copied());
        let allocations = trace
            .allocations
            .iter()
            .flat_map(|a| a.time.iter().copied());
        let lowest = counters.chain(allocations).fold(lowest, i64::min);
        Clock {
            origin: lowest.min(0),
            ns_per_unit,
        }
    }

    fn ns(self, time: i64) -> u64 {
        let since = time.saturating_sub(self.origin).max(0);
        u64::try_from(since.saturating_mul(self.ns_per_unit)).unwrap_or(0)
    }
}

/// The output: packets appended as `Trace.packet` fields, one by one.
struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    fn packet(&mut self, packet: &TracePacket) {
        prost::encoding::message::encode(1, packet, &mut self.bytes);
    }

    fn event(&mut self, sequence: u32, time: u64, event: TrackEvent) {
        self.packet(&TracePacket {
            timestamp: Some(time),
            trusted_packet_sequence_id: Some(sequence),
            track_event: Some(event),
            ..TracePacket::default()
        });
    }

    /// One `TYPE_COUNTER` event per point.
    fn counter(
        &mut self,
        clock: Clock,
        track: u64,
        sequence: u32,
        points: impl Iterator<Item = (i64, f64)>,
    ) {
        for (time, value) in points {
            let event = TrackEvent {
                r#type: Some(proto::TYPE_COUNTER),
                track_uuid: Some(track),
                double_counter_value: Some(value),
                ..TrackEvent::default()
            };
            self.event(sequence, clock.ns(time), event);
        }
    }
}

/// One thread's slices and instants, merged in time order on its sequence.
struct ThreadEvents<'a> {
    trace: &'a Trace,
    flows: &'a Flows,
    /// The thread's index.
    thread: usize,
    clock: Clock,
    track: u64,
    sequence: u32,
    out: &'a mut Writer,
}

impl ThreadEvents<'_> {
    fn write(&mut self, thread: &Thread) {
        let spans = &thread.spans;
        let mut open: Vec<usize> = Vec::new();
        let mut next_instant = 0;
        for i in 0..spans.len() {
            let depth = spans.depth.get(i).map_or(0, |&d| usize::from(d));
            while open.len() > depth {
                let Some(done) = open.pop() else { break };
                let end = spans.end.get(done).copied().unwrap_or_default();
                next_instant = self.instants_before(thread, next_instant, end);
                self.end(done, end);
            }
            let start = spans.start.get(i).copied().unwrap_or_default();
            next_instant = self.instants_before(thread, next_instant, start);
            self.begin(thread, i);
            open.push(i);
        }
        while let Some(done) = open.pop() {
            let end = spans.end.get(done).copied().unwrap_or_default();
            next_instant = self.instants_before(thread, next_instant, end);
            self.end(done, end);
        }
        next_instant = self.instants_before(thread, next_instant, i64::MAX);
        // The markers at i64::MAX itself, if any.
        for m in next_instant..thread.instants.len() {
            self.instant(thread, m);
        }
    }

    fn begin(&mut self, thread: &Thread, i: usize) {
        let spans = &thread.spans;
        let mut annotations = details(&spans.details, i, &self.trace.strings);
        let flags = spans.flags.get(i).copied().unwrap_or(0);
        for (bit, name) in FLAG_NAMES {
            if flags & bit != 0 {
                annotations.push(DebugAnnotation {
                    name: Some(name.to_owned()),
                    bool_value: Some(true),
                    ..DebugAnnotation::default()
                });
            }
        }
        let name = spans.name.get(i).map_or("", |&n| self.trace.str(n));
        let event = TrackEvent {
            r#type: Some(proto::TYPE_SLICE_BEGIN),
            track_uuid: Some(self.track),
            name: Some(name.to_owned()),
            debug_annotations: annotations,
            ..TrackEvent::default()
        };
        let start = spans.start.get(i).copied().unwrap_or_default();
        self.out.event(self.sequence, self.clock.ns(start), event);
    }

    /// The end of span `i`, with the flows leaving and ending there.
    fn end(&mut self, i: usize, time: i64) {
        let (flow_ids, terminating_flow_ids) = self
            .flows
            .at_end(self.thread, i)
            .cloned()
            .unwrap_or_default();
        let event = TrackEvent {
            r#type: Some(proto::TYPE_SLICE_END),
            track_uuid: Some(self.track),
            flow_ids,
            terminating_flow_ids,
            ..TrackEvent::default()
        };
        self.out.event(self.sequence, self.clock.ns(time), event);
    }

    /// Writes the markers from `from` on that come before `time`; returns
    /// the first one left.
    fn instants_before(&mut self, thread: &Thread, from: usize, time: i64) -> usize {
        let mut m = from;
        while thread.instants.time.get(m).is_some_and(|&at| at < time) {
            self.instant(thread, m);
            m += 1;
        }
        m
    }

    fn instant(&mut self, thread: &Thread, m: usize) {
        let instants = &thread.instants;
        let name = instants.name.get(m).map_or("", |&n| self.trace.str(n));
        let event = TrackEvent {
            r#type: Some(proto::TYPE_INSTANT),
            track_uuid: Some(self.track),
            name: Some(name.to_owned()),
            debug_annotations: details(&instants.details, m, &self.trace.strings),
            ..TrackEvent::default()
        };
        let time = instants.time.get(m).copied().unwrap_or_default();
        self.out.event(self.sequence, self.clock.ns(time), event);
    }
}

/// The detail fields of span or marker `owner` as string annotations.
fn details(details: &Details, owner: usize, strings: &StringTable) -> Vec<DebugAnnotation> {
    details
        .fields_of(owner as u32, strings)
        .into_iter()
        .map(|field| DebugAnnotation {
            name: Some(field.key),
            string_value: Some(field.value),
            ..DebugAnnotation::default()
        })
        .collect()
}
