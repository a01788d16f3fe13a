//! A compact binary form of a [`Trace`]. The viewer's worker uses it for
//! everything but the big columns (the string table, spans, markers,
//! details, stacks, sample sets, allocations, counters), which travel to the
//! page as typed arrays of their own (empty columns encode to a few bytes).
//!
//! Columns are written as raw little-endian arrays, so encoding and decoding
//! cost about one memory copy. Decoding checks every length and never panics.

use super::{
    Allocations, Column, Counter, Details, Diagnostic, Field, Format, Instants, Process, SampleSet,
    Severity, Spans, StackTable, StringTable, Table, Thread, TimeUnit, Trace,
};

const MAGIC: &[u8; 8] = b"FLMDRP03";

/// Encodes a trace.
pub fn encode(trace: &Trace) -> Vec<u8> {
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
        w.str(&t.id);
        w.str(&t.name);
        w.u64(u64::from(t.process));
        w.u64(t.events);
        w.opt_i64(t.first_time);
        w.opt_i64(t.last_time);
        let s = &t.spans;
        w.i64s(&s.start);
        w.i64s(&s.end);
        w.u16s(&s.depth);
        w.u32s(&s.name);
        w.bytes(&s.flags);
        w.details(&s.details);
        w.i64s(&t.instants.time);
        w.u32s(&t.instants.name);
        w.details(&t.instants.details);
    }
    w.u64(trace.diagnostics.len() as u64);
    for d in &trace.diagnostics {
        w.u8(severity_code(d.severity));
        w.str(&d.kind);
        w.str(&d.message);
        w.opt_str(d.file.as_deref());
        w.opt_i64(d.offset.map(|o| o as i64));
        w.u64(d.count);
    }
    w.u64(trace.metadata.len() as u64);
    for (k, v) in &trace.metadata {
        w.str(k);
        w.str(v);
    }
    w.u32s(&trace.stacks.frame);
    w.u32s(&trace.stacks.parent);
    w.u64(trace.sample_sets.len() as u64);
    for s in &trace.sample_sets {
        w.sample_set(s);
    }
    w.u64(trace.allocations.len() as u64);
    for a in &trace.allocations {
        w.allocations(a);
    }
    w.u64(trace.counters.len() as u64);
    for c in &trace.counters {
        w.counter(c);
    }
    w.u64(trace.tables.len() as u64);
    for t in &trace.tables {
        w.table(t);
    }
    w.0
}

/// Decodes what [`encode`] wrote; `None` if the bytes are not such a trace.
pub fn decode(bytes: &[u8]) -> Option<Trace> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let format = format_from(r.u8()?);
    let time_unit = unit_from(r.u8()?);
    let strings = StringTable::from_vec(r.strings()?);
    let mut processes = Vec::new();
    for _ in 0..r.count()? {
        processes.push(Process {
            id: r.str()?,
            name: r.str()?,
        });
    }
    let mut threads = Vec::new();
    for _ in 0..r.count()? {
        let id = r.str()?;
        let name = r.str()?;
        let process = u32::try_from(r.u64()?).ok()?;
        let events = r.u64()?;
        let first_time = r.opt_i64()?;
        let last_time = r.opt_i64()?;
        let spans = Spans {
            start: r.i64s()?,
            end: r.i64s()?,
            depth: r.u16s()?,
            name: r.u32s()?,
            flags: r.bytes()?,
            details: r.details()?,
        };
        let instants = Instants {
            time: r.i64s()?,
            name: r.u32s()?,
            details: r.details()?,
        };
        threads.push(Thread {
            id,
            name,
            process,
            events,
            spans,
            instants,
            first_time,
            last_time,
        });
    }
    let mut diagnostics = Vec::new();
    for _ in 0..r.count()? {
        diagnostics.push(Diagnostic {
            severity: severity_from(r.u8()?)?,
            kind: r.str()?,
            message: r.str()?,
            file: r.opt_str()?,
            offset: r.opt_i64()?.map(|o| o as u64),
            count: r.u64()?,
        });
    }
    let mut metadata = Vec::new();
    for _ in 0..r.count()? {
        metadata.push((r.str()?, r.str()?));
    }
    let stacks = StackTable {
        frame: r.u32s()?,
        parent: r.u32s()?,
    };
    let sample_sets = (0..r.count()?)
        .map(|_| r.sample_set())
        .collect::<Option<_>>()?;
    let allocations = (0..r.count()?)
        .map(|_| r.allocations())
        .collect::<Option<_>>()?;
    let counters = (0..r.count()?)
        .map(|_| r.counter())
        .collect::<Option<_>>()?;
    let tables = (0..r.count()?).map(|_| r.table()).collect::<Option<_>>()?;
    Some(Trace {
        format,
        time_unit,
        strings,
        processes,
        threads,
        diagnostics,
        metadata,
        stacks,
        sample_sets,
        allocations,
        counters,
        tables,
    })
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

struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.0.extend_from_slice(b);
    }
    fn opt_str(&mut self, s: Option<&str>) {
        self.u8(u8::from(s.is_some()));
        if let Some(s) = s {
            self.str(s);
        }
    }
    fn opt_i64(&mut self, v: Option<i64>) {
        self.u8(u8::from(v.is_some()));
        if let Some(v) = v {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
    }
    fn strings(&mut self, all: &[String]) {
        self.u64(all.len() as u64);
        for s in all {
            self.str(s);
        }
    }
    fn i64s(&mut self, v: &[i64]) {
        self.u64(v.len() as u64);
        for x in v {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
    }
    fn u32s(&mut self, v: &[u32]) {
        self.u64(v.len() as u64);
        for x in v {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
    }
    fn u16s(&mut self, v: &[u16]) {
        self.u64(v.len() as u64);
        for x in v {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
    }
    fn u64s(&mut self, v: &[u64]) {
        self.u64(v.len() as u64);
        for x in v {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
    }
    fn f64s(&mut self, v: &[f64]) {
        self.u64(v.len() as u64);
        for x in v {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
    }
    fn opt_u32(&mut self, v: Option<u32>) {
        self.opt_i64(v.map(i64::from));
    }
    fn field(&mut self, f: &Field) {
        self.str(&f.key);
        self.str(&f.value);
    }
    fn sample_set(&mut self, s: &SampleSet) {
        self.str(&s.name);
        self.opt_u32(s.thread);
        self.strings(&s.weight_names);
        self.i64s(&s.time);
        self.u32s(&s.stack);
        self.u64(s.weights.len() as u64);
        for column in &s.weights {
            self.i64s(column);
        }
        self.str(&s.note);
    }
    fn allocations(&mut self, a: &Allocations) {
        self.str(&a.resource);
        self.str(&a.size_unit);
        self.u32s(&a.thread);
        self.i64s(&a.time);
        self.u64s(&a.size);
        self.u64s(&a.address);
        self.u32s(&a.stack);
        self.i64s(&a.free_time);
        self.u64(a.unmatched_frees);
    }
    fn counter(&mut self, c: &Counter) {
        self.str(&c.name);
        self.str(&c.unit);
        self.opt_u32(c.process);
        self.opt_u32(c.thread);
        self.i64s(&c.time);
        self.f64s(&c.value);
    }
    fn table(&mut self, t: &Table) {
        self.str(&t.id);
        self.str(&t.title);
        self.u64(t.columns.len() as u64);
        for c in &t.columns {
            self.str(&c.name);
            self.u8(u8::from(c.numeric));
        }
        self.u64(t.rows.len() as u64);
        for row in &t.rows {
            self.strings(row);
        }
        self.u64(t.row_highlight.len() as u64);
        for h in &t.row_highlight {
            self.u8(u8::from(h.is_some()));
            if let Some(f) = h {
                self.field(f);
            }
        }
        self.str(&t.note);
    }
    fn details(&mut self, d: &Details) {
        self.u32s(&d.owner);
        self.u32s(&d.shape);
        self.u32s(&d.first);
        self.u32s(&d.payload);
        self.u32s(&d.shapes.parent);
        self.u32s(&d.shapes.key);
        self.bytes(&d.shapes.kind);
        self.u32s(&d.shapes.prefix);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    /// A count of items that each take at least one byte: never more than remain.
    fn count(&mut self) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n <= self.bytes.len() - self.at).then_some(n)
    }
    fn bytes(&mut self) -> Option<Vec<u8>> {
        let n = self.count()?;
        Some(self.take(n)?.to_vec())
    }
    fn str(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?).ok()
    }
    fn opt_str(&mut self) -> Option<Option<String>> {
        Some(if self.u8()? == 1 {
            Some(self.str()?)
        } else {
            None
        })
    }
    fn opt_i64(&mut self) -> Option<Option<i64>> {
        Some(if self.u8()? == 1 {
            Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
        } else {
            None
        })
    }
    fn strings(&mut self) -> Option<Vec<String>> {
        (0..self.count()?).map(|_| self.str()).collect()
    }
    fn array<const N: usize, T>(&mut self, f: impl Fn([u8; N]) -> T) -> Option<Vec<T>> {
        let n = self.count()?;
        let raw = self.take(n.checked_mul(N)?)?;
        Some(
            raw.chunks_exact(N)
                .map(|c| f(c.try_into().unwrap_or([0; N])))
                .collect(),
        )
    }
    fn i64s(&mut self) -> Option<Vec<i64>> {
        self.array(i64::from_le_bytes)
    }
    fn u32s(&mut self) -> Option<Vec<u32>> {
        self.array(u32::from_le_bytes)
    }
    fn u16s(&mut self) -> Option<Vec<u16>> {
        self.array(u16::from_le_bytes)
    }
    fn u64s(&mut self) -> Option<Vec<u64>> {
        self.array(u64::from_le_bytes)
    }
    fn f64s(&mut self) -> Option<Vec<f64>> {
        self.array(f64::from_le_bytes)
    }
    fn opt_u32(&mut self) -> Option<Option<u32>> {
        match self.opt_i64()? {
            Some(v) => Some(Some(u32::try_from(v).ok()?)),
            None => Some(None),
        }
    }
    fn field(&mut self) -> Option<Field> {
        Some(Field {
            key: self.str()?,
            value: self.str()?,
        })
    }
    fn sample_set(&mut self) -> Option<SampleSet> {
        Some(SampleSet {
            name: self.str()?,
            thread: self.opt_u32()?,
            weight_names: self.strings()?,
            time: self.i64s()?,
            stack: self.u32s()?,
            weights: (0..self.count()?)
                .map(|_| self.i64s())
                .collect::<Option<_>>()?,
            note: self.str()?,
        })
    }
    fn allocations(&mut self) -> Option<Allocations> {
        Some(Allocations {
            resource: self.str()?,
            size_unit: self.str()?,
            thread: self.u32s()?,
            time: self.i64s()?,
            size: self.u64s()?,
            address: self.u64s()?,
            stack: self.u32s()?,
            free_time: self.i64s()?,
            unmatched_frees: self.u64()?,
        })
    }
    fn counter(&mut self) -> Option<Counter> {
        Some(Counter {
            name: self.str()?,
            unit: self.str()?,
            process: self.opt_u32()?,
            thread: self.opt_u32()?,
            time: self.i64s()?,
            value: self.f64s()?,
        })
    }
    fn table(&mut self) -> Option<Table> {
        let id = self.str()?;
        let title = self.str()?;
        let columns = (0..self.count()?)
            .map(|_| {
                Some(Column {
                    name: self.str()?,
                    numeric: self.u8()? == 1,
                })
            })
            .collect::<Option<_>>()?;
        let rows = (0..self.count()?)
            .map(|_| self.strings())
            .collect::<Option<_>>()?;
        let row_highlight = (0..self.count()?)
            .map(|_| {
                Some(if self.u8()? == 1 {
                    Some(self.field()?)
                } else {
                    None
                })
            })
            .collect::<Option<_>>()?;
        Some(Table {
            id,
            title,
            columns,
            rows,
            row_highlight,
            note: self.str()?,
        })
    }
    fn details(&mut self) -> Option<Details> {
        let mut details = Details {
            owner: self.u32s()?,
            shape: self.u32s()?,
            first: self.u32s()?,
            payload: self.u32s()?,
            ..Details::default()
        };
        details.shapes.parent = self.u32s()?;
        details.shapes.key = self.u32s()?;
        details.shapes.kind = self.bytes()?;
        details.shapes.prefix = self.u32s()?;
        details.is_consistent().then_some(details)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TraceBuilder;

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
        b.finish()
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
    }

    #[test]
    fn every_truncation_is_refused_without_panic() {
        let bytes = encode(&sample());
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_none(), "cut at {cut}");
        }
    }
}
