//! One line of uftrace options made ready for a trace: the patterns matched
//! once against the trace's function names (the filter table uftrace builds
//! from its symbol tables), the times read into the trace's unit, the tasks
//! chosen — with uftrace's complaints as notes where uftrace only warns and
//! goes on, and errors where it stops.

use super::fstack::{DEFAULT_DEPTH, NAME_HIDE, NAME_IN, NAME_OUT};
use super::patterns::Pattern;
use super::times::{parse_time, parse_time_range, to_unit, ParsedTime, RangeEnd};
use crate::analysis::transform::UftraceFilter;
use crate::model::{Trace, SPAN_OFF_CPU};

/// uftrace's `OPT_DEPTH_MAX`.
const DEPTH_MAX: u32 = 65535;

/// What the passes need.
pub struct Plan {
    /// Per string id, `NAME_*` bits.
    pub name_flags: Vec<u8>,
    /// Per string id, a caller-filter function; `None` without `-C`.
    pub callers: Option<Vec<bool>>,
    pub filter_in: bool,
    pub depth: i32,
    pub no_sched: bool,
    /// `-t` in the trace's unit (0: none).
    pub threshold: i64,
    /// `-r`'s ends, in the trace's unit, elapsed ends made absolute.
    pub start: Option<i64>,
    pub stop: Option<i64>,
    /// `-r`'s end as uftrace closes still-open calls with it (an elapsed
    /// end unconverted).
    pub raw_stop: Option<i64>,
    /// Per thread, kept; `None` without `--tid`.
    pub threads: Option<Vec<bool>>,
    /// Messages uftrace would print and go on after.
    pub warnings: Vec<String>,
}

impl Plan {
    /// Reads `filter` for `trace`; `Err` where uftrace stops.
    pub fn new(trace: &Trace, filter: &UftraceFilter) -> Result<Plan, String> {
        let mut plan = Plan {
            name_flags: vec![0; trace.strings.len()],
            callers: None,
            filter_in: false,
            depth: DEFAULT_DEPTH,
            no_sched: !filter.caller.is_empty(),
            threshold: 0,
            start: None,
            stop: None,
            raw_stop: None,
            threads: None,
            warnings: Vec::new(),
        };
        plan.read_patterns(trace, filter);
        if let Some(d) = filter.depth {
            if d == 0 || d >= DEPTH_MAX {
                plan.warnings
                    .push(format!("invalid depth given: {d} (ignoring..)"));
            } else {
                plan.depth = d as i32;
            }
        }
        plan.read_times(trace, filter)?;
        plan.read_tids(trace, filter);
        Ok(plan)
    }

    /// The filter table, set up group by group as uftrace's
    /// `setup_fstack_filters` does: `-F`/`-N`, then `-C`, then `-H`; a
    /// group that matches nothing stops the ones after it.
    fn read_patterns(&mut self, trace: &Trace, filter: &UftraceFilter) {
        let functions = function_names(trace);
        let ids = |p: &str| Pattern::new(p, filter.glob).matching_ids(&trace.strings, &functions);
        let mut in_table = vec![false; self.name_flags.len()];
        let mut failed = false;
        if !filter.filter.is_empty() || !filter.notrace.is_empty() {
            let groups = [(&filter.filter, NAME_IN), (&filter.notrace, NAME_OUT)];
            for (patterns, mode) in groups {
                for p in patterns {
                    let matched = ids(p);
                    if mode == NAME_IN && !matched.is_empty() {
                        self.filter_in = true;
                    }
                    for id in matched {
                        self.mark(id, mode, NAME_IN | NAME_OUT);
                        in_table[id as usize] = true;
                    }
                }
            }
            failed = !in_table.contains(&true);
        }
        let mut callers = 0;
        if !failed && !filter.caller.is_empty() {
            let mut table = vec![false; self.name_flags.len()];
            let mut added = false;
            for id in filter.caller.iter().flat_map(|p| ids(p)) {
                added |= !in_table[id as usize];
                in_table[id as usize] = true;
                if !table[id as usize] {
                    callers += 1;
                }
                table[id as usize] = true;
            }
            failed = !added;
            if callers > 0 {
                self.callers = Some(table);
            }
        }
        if !failed && !filter.hide.is_empty() {
            let mut hides = 0;
            for id in filter.hide.iter().flat_map(|p| ids(p)) {
                hides += usize::from(self.name_flags[id as usize] & NAME_HIDE == 0);
                self.mark(id, NAME_HIDE, 0);
            }
            failed = callers + hides == 0;
        }
        if failed {
            self.warnings.push(failure_message(filter));
        }
    }

    fn mark(&mut self, id: u32, bit: u8, clear: u8) {
        if let Some(f) = self.name_flags.get_mut(id as usize) {
            *f = (*f & !clear) | bit;
        }
    }

    fn read_times(&mut self, trace: &Trace, filter: &UftraceFilter) -> Result<(), String> {
        let unit = trace.time_unit;
        if let Some(text) = &filter.time_filter {
            let (t, bad_unit) = parse_time(text)?;
            if let Some(u) = bad_unit {
                self.warnings
                    .push(format!("The unit '{u}' isn't supported"));
            }
            self.threshold = to_unit(t, unit, "-t")?;
        }
        let Some(text) = &filter.time_range else {
            return Ok(());
        };
        let Some(range) = parse_time_range(text)? else {
            self.warnings
                .push(format!("invalid time range: {text} (ignoring...)"));
            return Ok(());
        };
        if self.threshold != 0 {
            self.warnings
                .push("--time-filter cannot be used with --time-range".into());
            self.threshold = 0;
        }
        let first = first_time(trace);
        let resolve = |end: RangeEnd| -> Result<Option<(i64, ParsedTime)>, String> {
            let Some(t) = end.value else { return Ok(None) };
            let v = to_unit(t, unit, "-r")?;
            Ok(Some((if t.with_unit { first + v } else { v }, t)))
        };
        self.start = resolve(range.start)?.map(|(v, _)| v);
        if let Some((v, t)) = resolve(range.stop)? {
            self.stop = Some(v);
            self.raw_stop = Some(to_unit(t, unit, "-r")?);
        }
        Ok(())
    }

    fn read_tids(&mut self, trace: &Trace, filter: &UftraceFilter) {
        if filter.tids.is_empty() {
            return;
        }
        let mut wanted: Vec<&str> = Vec::new();
        for tid in &filter.tids {
            if tid.trim().parse::<i64>().map_or(true, |t| t <= 0) {
                self.warnings.push(format!("invalid thread id: {tid}"));
            } else {
                wanted.push(tid.trim());
            }
        }
        if wanted.is_empty() {
            return;
        }
        let keep: Vec<bool> = trace
            .threads
            .iter()
            .map(|t| wanted.contains(&t.id.as_str()))
            .collect();
        for tid in &wanted {
            if !trace.threads.iter().any(|t| t.id == *tid) {
                self.warnings
                    .push(format!("no task with id {tid} in this trace"));
            }
        }
        self.threads = Some(keep);
    }
}

/// Per string id: true when some span (not an off-CPU one) or stack frame
/// is named by it — the names a pattern can select.
fn function_names(trace: &Trace) -> Vec<bool> {
    let mut used = vec![false; trace.strings.len()];
    for t in &trace.threads {
        for (&name, &flags) in t.spans.name.iter().zip(&t.spans.flags) {
            if flags & SPAN_OFF_CPU == 0 {
                if let Some(u) = used.get_mut(name as usize) {
                    *u = true;
                }
            }
        }
    }
    for &frame in &trace.stacks.frame {
        if let Some(u) = used.get_mut(frame as usize) {
            *u = true;
        }
    }
    used
}

/// The time uftrace counts elapsed times from: the first function record.
fn first_time(trace: &Trace) -> i64 {
    trace
        .threads
        .iter()
        .filter_map(|t| {
            t.spans
                .start
                .iter()
                .zip(&t.spans.flags)
                .find(|(_, &f)| f & SPAN_OFF_CPU == 0)
                .map(|(&s, _)| s)
        })
        .min()
        .or_else(|| trace.time_range().map(|(from, _)| from))
        .unwrap_or(0)
}

/// uftrace's "failed to set filter or trigger: …" with the options as it
/// lists them (`-N` patterns prefixed with `!`).
fn failure_message(filter: &UftraceFilter) -> String {
    let mut parts = Vec::new();
    let filters: Vec<String> = filter
        .filter
        .iter()
        .cloned()
        .chain(filter.notrace.iter().map(|p| format!("!{p}")))
        .collect();
    for list in [filters, filter.caller.clone(), filter.hide.clone()] {
        if !list.is_empty() {
            parts.push(list.join(";"));
        }
    }
    format!("failed to set filter or trigger: {}", parts.join(" or "))
}
