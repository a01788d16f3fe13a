//! [`Trace::check`]: what every view assumes of a trace, checked in one
//! place, in the manner of Firefox Profiler's `assertProfileIntegrity`. The
//! builder keeps these invariants; the tests (golden, hostile, fuzz) hold
//! every decoder to them through this check.

use super::columns::{ColumnInfo, ColumnRef};
use super::{
    Allocations, Counter, Details, EventLog, SampleSet, Spans, Table, Thread, Trace, NO_PARENT,
};

impl Trace {
    /// Every broken invariant of the trace, one sentence each (empty when
    /// the trace is sound): string ids in range; per thread, spans in start
    /// order, nested in their parents, not overlapping within a depth, with
    /// consistent depths and within the thread's time range; markers in time
    /// order; detail groups consistent and owned by existing rows; stack
    /// parents before their children; sample and allocation stacks, threads
    /// and processes in range; counters in time order; tables' rows as wide
    /// as their columns.
    pub fn check(&self) -> Vec<String> {
        let mut problems = Problems {
            trace: self,
            out: Vec::new(),
        };
        if !self.lengths_agree() {
            problems.add("trace", "the columns of one part differ in length".into());
        }
        for (at, thread) in self.threads.iter().enumerate() {
            problems.thread(&format!("thread {at} ({})", thread.id), thread);
        }
        problems.stacks();
        for (at, set) in self.sample_sets.iter().enumerate() {
            problems.sample_set(&format!("sample set {at} ({})", set.name), set);
        }
        for (at, a) in self.allocations.iter().enumerate() {
            problems.allocations(&format!("allocations {at} ({})", a.resource), a);
        }
        for (at, c) in self.counters.iter().enumerate() {
            problems.counter(&format!("counter {at} ({})", c.name), c);
        }
        for t in &self.tables {
            problems.table(&format!("table {}", t.id), t);
        }
        problems.event_log(&self.event_log);
        for d in &self.diagnostics {
            if d.kind.is_empty() || d.count == 0 {
                problems.add("diagnostics", format!("{d:?} has no kind or a zero count"));
            }
        }
        problems.out
    }
}

struct Problems<'t> {
    trace: &'t Trace,
    out: Vec<String>,
}

impl Problems<'_> {
    fn add(&mut self, part: &str, problem: String) {
        self.out.push(format!("{part}: {problem}"));
    }

    /// String ids of the name columns (`ColumnInfo::names`) of a part.
    fn names(&mut self, part: &str, columns: Vec<(ColumnInfo, ColumnRef<'_>)>) {
        let strings = self.trace.strings.len();
        for (info, column) in columns {
            if let (true, ColumnRef::U32(ids)) = (info.names, column) {
                if let Some(id) = ids.iter().find(|&&id| id as usize >= strings) {
                    let name = info.name;
                    self.add(part, format!("{name} holds string id {id} of {strings}"));
                }
            }
        }
    }

    /// `what` (a count of items) is at most `limit`, unless it is `NO_PARENT`
    /// where `none_ok` says "none" is allowed.
    fn index(&mut self, part: &str, what: &str, ids: &[u32], limit: usize, none_ok: bool) {
        let bad = ids
            .iter()
            .find(|&&id| id as usize >= limit && !(none_ok && id == NO_PARENT));
        if let Some(id) = bad {
            self.add(part, format!("{what} {id} out of range (of {limit})"));
        }
    }

    fn thread(&mut self, part: &str, thread: &Thread) {
        let processes = self.trace.processes.len();
        self.index(part, "process", &[thread.process], processes, false);
        let mut columns = Vec::new();
        thread.visit_columns(&mut columns);
        self.names(part, columns);
        self.spans(part, thread);
        if !thread.instants.time.windows(2).all(|w| w[0] <= w[1]) {
            self.add(part, "markers are not in time order".into());
        }
        let rows = [thread.spans.len(), thread.instants.len()];
        for (details, rows) in thread.details().into_iter().zip(rows) {
            self.details(part, details, rows);
        }
    }

    fn spans(&mut self, part: &str, thread: &Thread) {
        let spans = &thread.spans;
        if let Some(problem) = nesting(spans) {
            self.add(part, problem);
        }
        if !spans.taken_self.is_empty() && spans.taken_self.len() != spans.len() {
            self.add(
                part,
                format!(
                    "{} taken-self times for {} spans",
                    spans.taken_self.len(),
                    spans.len()
                ),
            );
        }
        let Some(first) = spans.start.iter().min() else {
            return;
        };
        let last = spans.end.iter().max().unwrap_or(first);
        match thread.time_range() {
            Some((from, to)) if from <= *first && *last <= to => {}
            range => self.add(
                part,
                format!("spans run {first}..{last}, outside the thread's range {range:?}"),
            ),
        }
    }

    fn details(&mut self, part: &str, details: &Details, rows: usize) {
        if !details.is_consistent() {
            self.add(part, "detail groups are not consistent".into());
            return;
        }
        if details.last_owner().is_some_and(|o| o as usize >= rows) {
            self.add(part, format!("a detail group belongs to a row past {rows}"));
        }
        let strings = self.trace.strings.len();
        let mut bad = None;
        details.each_text(|id| {
            if id as usize >= strings {
                bad = Some(id);
            }
        });
        if let Some(id) = bad {
            self.add(part, format!("a detail holds string id {id} of {strings}"));
        }
    }

    fn stacks(&mut self) {
        let stacks = &self.trace.stacks;
        let mut columns = Vec::new();
        stacks.visit_columns(&mut columns);
        self.names("stacks", columns);
        let bad = stacks
            .parent
            .iter()
            .enumerate()
            .find(|&(at, &p)| p != NO_PARENT && p as usize >= at);
        if let Some((at, p)) = bad {
            self.add(
                "stacks",
                format!("stack {at}'s parent {p} does not come before it"),
            );
        }
    }

    fn sample_set(&mut self, part: &str, set: &SampleSet) {
        let (stacks, threads) = (self.trace.stacks.len(), self.trace.threads.len());
        self.index(part, "stack", &set.stack, stacks, true);
        self.index(part, "thread", set.thread.as_slice(), threads, false);
        if set.weights.len() != set.weight_names.len() {
            self.add(
                part,
                "weight columns and weight names differ in number".into(),
            );
        }
    }

    fn allocations(&mut self, part: &str, a: &Allocations) {
        let (stacks, threads) = (self.trace.stacks.len(), self.trace.threads.len());
        self.index(part, "stack", &a.stack, stacks, true);
        self.index(part, "thread", &a.thread, threads, false);
        if !a.threads_agree() {
            let n = (a.thread.len(), a.len());
            self.add(
                part,
                format!("{} thread entries for {} allocations", n.0, n.1),
            );
        }
    }

    fn counter(&mut self, part: &str, c: &Counter) {
        let (processes, threads) = (self.trace.processes.len(), self.trace.threads.len());
        self.index(part, "process", c.process.as_slice(), processes, false);
        self.index(part, "thread", c.thread.as_slice(), threads, false);
        if !c.time.windows(2).all(|w| w[0] <= w[1]) {
            self.add(part, "values are not in time order".into());
        }
    }

    /// Every event's thread and data id exist; every text id is in the
    /// log's text table.
    fn event_log(&mut self, log: &EventLog) {
        let threads = self.trace.threads.len();
        if !log.narrow_columns_agree() {
            self.add(
                "event log",
                "its narrow and wide event columns disagree".into(),
            );
        }
        if let Some(t) = log.threads().find(|&t| t as usize >= threads) {
            self.add(
                "event log",
                format!("an event names thread {t} of {threads}"),
            );
        }
        let sites = log.site_type.len();
        if let Some(s) = log.sites().find(|&s| s as usize >= sites) {
            self.add(
                "event log",
                format!("an event names data id {s} of {sites}"),
            );
        }
        let texts = log.text_ends.len();
        let text_columns = [
            &log.site_type,
            &log.site_attributes,
            &log.method_place,
            &log.method_source,
            &log.method_text,
            &log.object_type,
            &log.object_type_default,
            &log.object_text,
        ];
        if text_columns
            .iter()
            .any(|c| c.iter().any(|&id| id as usize >= texts))
        {
            self.add("event log", format!("a text id is past the {texts} texts"));
        }
    }

    fn table(&mut self, part: &str, t: &Table) {
        if let Some(row) = t.rows.iter().position(|r| r.len() != t.columns.len()) {
            self.add(part, format!("row {row} is not as wide as the columns"));
        }
        if !t.row_highlight.is_empty() && t.row_highlight.len() != t.rows.len() {
            self.add(part, "row highlights and rows differ in number".into());
        }
    }
}

/// The first way `spans` break the nesting rules, if any: start order,
/// `start <= end`, a depth at most one below the previous span's, inside the
/// parent (the latest span one level up), after the previous span of the
/// same depth. A depth at the `u16` limit is where the builder stops
/// counting: those spans are only held to start order.
fn nesting(spans: &Spans) -> Option<String> {
    // Per depth: the latest span's (start, end).
    let mut open: Vec<(i64, i64)> = Vec::new();
    let rows = spans.start.iter().zip(&spans.end).zip(&spans.depth);
    let mut previous_start = i64::MIN;
    for (at, ((&start, &end), &depth)) in rows.enumerate() {
        if start < previous_start || end < start {
            return Some(format!("span {at} ({start}..{end}) is out of start order"));
        }
        previous_start = start;
        if depth == u16::MAX {
            continue;
        }
        let depth = usize::from(depth);
        if depth > open.len() {
            return Some(format!("span {at} is at depth {depth}, below no parent"));
        }
        if let Some(&(_, previous_end)) = open.get(depth) {
            if start < previous_end {
                return Some(format!(
                    "span {at} overlaps the previous span of depth {depth}"
                ));
            }
        }
        if let Some(&(parent_start, parent_end)) = depth.checked_sub(1).and_then(|d| open.get(d)) {
            if start < parent_start || end > parent_end {
                return Some(format!(
                    "span {at} ({start}..{end}) is not inside its parent"
                ));
            }
        }
        open.truncate(depth);
        open.push((start, end));
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::model::{Format, TimeUnit, TraceBuilder};

    #[test]
    fn a_built_trace_is_sound_and_damage_is_named() {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "p");
        let f = b.intern("f");
        b.begin(t, 1, f, 0);
        b.begin(t, 2, f, 0);
        b.end(t, 3);
        b.begin(t, 4, f, 0);
        b.end(t, 5);
        b.end(t, 6);
        let stack = b.stack(&[f, f]).expect("stack");
        let set = b.sample_set("s", Some(t), &["n"]);
        b.sample(set, Some(2), stack, &[1]);
        let trace = b.finish();
        assert_eq!(trace.check(), Vec::<String>::new());

        let mut overlap = trace.clone();
        overlap.threads[0].spans.start[2] = 2;
        assert!(
            overlap.check()[0].contains("overlaps"),
            "{:?}",
            overlap.check()
        );
        let mut outside = trace.clone();
        outside.threads[0].spans.end[1] = 7;
        assert!(outside.check()[0].contains("not inside its parent"));
        let mut deep = trace.clone();
        deep.threads[0].spans.depth[1] = 2;
        assert!(deep.check()[0].contains("below no parent"));
        let mut name = trace.clone();
        name.threads[0].spans.name[0] = 9;
        assert!(name.check()[0].contains("string id 9"));
        let mut parent = trace.clone();
        parent.stacks.parent[0] = 1;
        assert!(parent.check()[0].contains("does not come before"));
        let mut sample = trace.clone();
        sample.sample_sets[0].stack[0] = 5;
        assert!(sample.check()[0].contains("stack 5 out of range"));
        let mut short = trace;
        short.threads[0].spans.flags.pop();
        assert!(short.check()[0].contains("differ in length"));
    }
}

#[cfg(test)]
mod event_log_tests {
    use crate::model::{Format, TimeUnit, TraceBuilder};

    #[test]
    fn an_event_log_names_only_what_exists() {
        let mut b = TraceBuilder::new(Format::Selogger, TimeUnit::Events);
        let p = b.process("jvm", "JVM");
        b.thread(p, "0", "thread 0");
        let mut trace = b.finish();
        let entry = trace.event_log.add_text("METHOD_ENTRY");
        trace.event_log.site_type = vec![entry];
        trace.event_log.push(0, 0, 0, 0);
        assert_eq!(trace.check(), Vec::<String>::new());
        let mut bad = trace.clone();
        bad.event_log.push(1, 3, 0, 0);
        assert!(
            bad.check()[0].contains("thread 3 of 1"),
            "{:?}",
            bad.check()
        );
        let mut bad = trace.clone();
        bad.event_log.push(1, 0, 2, 0);
        assert!(
            bad.check()[0].contains("data id 2 of 1"),
            "{:?}",
            bad.check()
        );
        let mut bad = trace;
        bad.event_log.site_type = vec![entry + 1];
        assert!(bad.check()[0].contains("text id"), "{:?}", bad.check());
    }
}
