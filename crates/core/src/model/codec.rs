//! A compact binary form of a [`Trace`]. The viewer's worker uses it for
//! everything but the big columns (the string table, spans, markers,
//! details, stacks, sample sets, allocations, counters), which travel to the
//! page as typed arrays of their own (empty columns encode to a few bytes).
//!
//! Columns are written as raw little-endian arrays, so encoding and decoding
//! cost about one memory copy. Decoding checks every length and never panics.

mod bytes;
mod parts;

use super::{Format, Process, Severity, StringTable, TimeUnit, Trace};
use bytes::{Reader, Writer};

const MAGIC: &[u8; 8] = b"FLMDRP04";

/// Encodes a trace.
pub fn encode(trace: &Trace) -> Vec<u8> {
    encode_first_counters(trace, trace.counters.len())
}

/// Encodes a trace with only its first `counters` counter tracks (the
/// viewer leaves out the tracks it added itself, which it adds again when
/// it opens the trace: `.flamedrop` files).
pub fn encode_first_counters(trace: &Trace, counters: usize) -> Vec<u8> {
    let spans: usize = trace.threads.iter().map(|t| t.spans.len()).sum();
    let mut w = Writer(Vec::with_capacity(64 + spans * 23));
    w.0.extend_from_slice(MAGIC);
    w.u8(trace.format.map_or(0, format_code));
    w.u8(trace.time_unit.map_or(0, unit_code));
    w.strings(trace.strings.all());
    w.u64(trace.processes.len() as u64);
    for p in &trace.processes {
        w.str(&p.id);
        w.str(&p.name);
    }
    w.u64(trace.threads.len() as u64);
    for t in &trace.threads {
        w.thread(t);
    }
    w.u64(trace.diagnostics.len() as u64);
    for d in &trace.diagnostics {
        w.diagnostic(d);
    }
    w.u64(trace.metadata.len() as u64);
    for (k, v) in &trace.metadata {
        w.str(k);
        w.str(v);
    }
    trace.stacks.visit_columns(&mut w);
    w.each(&trace.sample_sets, Writer::sample_set);
    w.each(&trace.allocations, Writer::allocations);
    let counters = trace.counters.get(..counters).unwrap_or(&trace.counters);
    w.each(counters, Writer::counter);
    w.each(&trace.tables, Writer::table);
    trace.event_log.visit_columns(&mut w);
    w.0
}

/// Decodes what [`encode`] wrote; `None` if the bytes are not such a trace.
pub fn decode(bytes: &[u8]) -> Option<Trace> {
    let mut r = Reader::new(bytes);
    if r.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let mut trace = Trace {
        format: format_from(r.u8()?),
        time_unit: unit_from(r.u8()?),
        strings: StringTable::from_vec(r.strings()?),
        ..Trace::default()
    };
    trace.processes = r.each(|r| {
        Some(Process {
            id: r.str()?,
            name: r.str()?,
        })
    })?;
    trace.threads = r.each(Reader::thread)?;
    trace.diagnostics = r.each(Reader::diagnostic)?;
    trace.metadata = r.each(|r| Some((r.str()?, r.str()?)))?;
    r.columns(|v| trace.stacks.visit_columns_mut(v))?;
    trace.sample_sets = r.each(Reader::sample_set)?;
    trace.allocations = r.each(Reader::allocations)?;
    trace.counters = r.each(Reader::counter)?;
    trace.tables = r.each(Reader::table)?;
    r.columns(|v| trace.event_log.visit_columns_mut(v))?;
    Some(trace)
}

fn format_code(f: Format) -> u8 {
    f.code()
}

fn format_from(code: u8) -> Option<Format> {
    Format::from_code(code)
}

fn unit_code(u: TimeUnit) -> u8 {
    match u {
        TimeUnit::Ns => 1,
        TimeUnit::Us => 2,
        TimeUnit::Events => 3,
    }
}

fn unit_from(code: u8) -> Option<TimeUnit> {
    Some(match code {
        1 => TimeUnit::Ns,
        2 => TimeUnit::Us,
        3 => TimeUnit::Events,
        _ => return None,
    })
}

fn severity_code(s: Severity) -> u8 {
    match s {
        Severity::Info => 0,
        Severity::DataLoss => 1,
        Severity::Error => 2,
    }
}

fn severity_from(code: u8) -> Option<Severity> {
    Some(match code {
        0 => Severity::Info,
        1 => Severity::DataLoss,
        2 => Severity::Error,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Field, TraceBuilder};

    fn sample() -> Trace {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("7", "prog");
        let t = b.thread(p, "7", "prog");
        let main = b.intern("main");
        let s = b.begin(t, 100, main, 0);
        b.add_detail(t, s, Field::new("args", "1, 2"));
        b.end(t, 200);
        b.instant(t, 150, main, vec![Field::new("cpu", "1")]);
        b.metadata("cmdline", "uftrace record ./prog");
        let stack = b.stack(&[main]).expect("stack");
        let set = b.sample_set("samples", Some(t), &["samples"]);
        b.sample(set, Some(120), stack, &[1]);
        let heap = b.resource("memory", "bytes");
        b.allocate(heap, t, 130, 64, 0x10, stack);
        let c = b.counter("live heap", "bytes", Some(p), None);
        b.counter_value(c, 130, 64.0);
        b.table(crate::model::Table {
            id: "locks".into(),
            title: "Locks".into(),
            columns: vec![crate::model::Column::text("id")],
            rows: vec![vec!["0x1".into()]],
            row_highlight: vec![Some(Field::new("mutex", "0x1"))],
            note: String::new(),
        });
        b.diagnose(
            Severity::DataLoss,
            "lost",
            Some("7.dat"),
            Some(32),
            5,
            || "lost".into(),
        );
        let mut trace = b.finish();
        trace.event_log.push(0, 0, 1, -5);
        trace.event_log.push(3, 0, 0, 1 << 40);
        let label = trace.event_log.add_text("LABEL");
        trace.event_log.site_type = vec![label, label];
        trace.event_log.site_line = vec![7, u32::MAX];
        trace.event_log.object_type_default = vec![label];
        trace
    }

    #[test]
    fn a_trace_survives_the_round_trip() {
        let trace = sample();
        let back = decode(&encode(&trace)).expect("decodes");
        assert_eq!(back.threads[0].spans.start, trace.threads[0].spans.start);
        assert_eq!(
            back.threads[0].spans.details,
            trace.threads[0].spans.details
        );
        assert_eq!(
            back.threads[0].instants.details,
            trace.threads[0].instants.details
        );
        assert_eq!(back.diagnostics, trace.diagnostics);
        assert_eq!(back.metadata, trace.metadata);
        assert_eq!(back.str(0), "main");
        assert_eq!(back.stacks, trace.stacks);
        assert_eq!(back.sample_sets, trace.sample_sets);
        assert_eq!(back.allocations, trace.allocations);
        assert_eq!(back.counters, trace.counters);
        assert_eq!(back.tables, trace.tables);
        assert_eq!(back.event_log, trace.event_log);
    }

    #[test]
    fn every_truncation_is_refused_without_panic() {
        let bytes = encode(&sample());
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_none(), "cut at {cut}");
        }
    }
}
