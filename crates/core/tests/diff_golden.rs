//! `flamedrop diff` against `uftrace report --diff` (v0.13) on two real
//! recordings of one program (`tests/fixtures/uftrace-diff/`): call counts
//! equal, times within the reference's printed rounding. Also: diffing two
//! real traces of other formats (Scaler, SELogger) works.

mod common;

use common::{decode_case, fixtures, read_folder, reference};
use flamedrop_core::analysis::{compare, FunctionDiff};
use flamedrop_core::{decode_files, Trace};
use std::collections::HashMap;

/// One row of `--diff-policy full`: (base, new, delta) for total and self
/// in ns (`None` where uftrace prints `-`: absent from that trace), the
/// base and new call counts, and the name.
#[derive(Debug)]
struct Row {
    total: [Option<(i64, i64)>; 3],
    self_time: [Option<(i64, i64)>; 3],
    calls: (u64, u64),
}

/// A printed time as (ns, the value of one unit of its last digit in ns).
fn time(number: &str, unit: &str) -> (i64, i64) {
    let scale: f64 = match unit {
        "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        other => panic!("unit {other}"),
    };
    let v: f64 = number.parse().expect("number");
    let digits = number.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    (
        (v * scale).round() as i64,
        (scale / 10f64.powi(digits)) as i64,
    )
}

fn parse_full(text: &str) -> HashMap<String, Row> {
    let mut rows = HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() || tokens[0].starts_with("Total") || tokens[0].starts_with('=') {
            continue;
        }
        let mut at = 0;
        let mut next_time = || -> Option<(i64, i64)> {
            let t = tokens[at];
            at += 1;
            if t == "-" {
                return None;
            }
            let unit = tokens[at];
            at += 1;
            Some(time(t, unit))
        };
        let total = [next_time(), next_time(), next_time()];
        let self_time = [next_time(), next_time(), next_time()];
        let calls = (tokens[at].parse().unwrap(), tokens[at + 1].parse().unwrap());
        let name = tokens[at + 3..].join(" ");
        rows.insert(
            name,
            Row {
                total,
                self_time,
                calls,
            },
        );
    }
    rows
}

/// `ours` (ns) equals a printed value within its last digit (uftrace
/// truncates; `0 us` prints with no decimals).
fn close(ours: i64, printed: Option<(i64, i64)>, what: &str) {
    let (value, step) = printed.unwrap_or((0, 1));
    let step = step.max(1000); // the finest uftrace prints is 0.001 us
    assert!(
        (ours - value).abs() < step,
        "{what}: ours {ours} ns, uftrace {value} ns (±{step})"
    );
}

#[test]
fn diff_matches_uftrace_report_diff() {
    let base = decode_case("uftrace-diff", "base");
    let new = decode_case("uftrace-diff", "new");
    let (comparison, _) = compare(&base, &new).expect("same unit");
    assert_eq!(comparison.unit, "ns");
    let reference = parse_full(&reference("uftrace-diff", ".", "report-diff-full.txt"));
    let ours: HashMap<&str, &FunctionDiff> = comparison
        .functions
        .iter()
        .map(|f| (f.name.as_str(), f))
        .collect();
    // uftrace's diff also lists the perf scheduler events of the new run,
    // which its plain `report` (and so ours, which equals it) leaves out.
    let schedule = "linux:schedule (pre-empted)";
    assert_eq!(reference[schedule].calls, (0, 6));
    assert!(!ours.contains_key(schedule));
    assert_eq!(ours.len(), reference.len() - 1);
    for (name, row) in reference.iter().filter(|(n, _)| n.as_str() != schedule) {
        let f = ours
            .get(name.as_str())
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!((f.base.calls, f.new.calls), row.calls, "{name} calls");
        close(f.base.total, row.total[0], &format!("{name} base total"));
        close(f.new.total, row.total[1], &format!("{name} new total"));
        close(
            f.base.self_time,
            row.self_time[0],
            &format!("{name} base self"),
        );
        close(
            f.new.self_time,
            row.self_time[1],
            &format!("{name} new self"),
        );
        // v0.13 prints time differences as base − new; ours are new − base.
        let negate = |v: Option<(i64, i64)>| v.map(|(a, s)| (-a, s));
        close(
            f.delta_total,
            negate(row.total[2]),
            &format!("{name} Δ total"),
        );
        close(
            f.delta_self,
            negate(row.self_time[2]),
            &format!("{name} Δ self"),
        );
    }
    // The largest change in self time is the busy loop.
    assert_eq!(comparison.functions[0].name, "spin");
    assert_eq!(
        comparison.functions[0].new.calls - comparison.functions[0].base.calls,
        13
    );
}

#[test]
fn default_policy_prints_the_same_call_differences() {
    let base = decode_case("uftrace-diff", "base");
    let new = decode_case("uftrace-diff", "new");
    let (comparison, _) = compare(&base, &new).unwrap();
    let text = reference("uftrace-diff", ".", "report-diff.txt");
    let mut checked = 0;
    for f in &comparison.functions {
        let line = text
            .lines()
            .find(|l| l.ends_with(&format!("   {}", f.name)))
            .unwrap_or_else(|| panic!("{} not in report-diff.txt", f.name));
        let calls: Vec<&str> = line.split_whitespace().collect();
        let printed = calls[calls.len() - 2];
        assert_eq!(
            printed,
            format!("{:+}", f.new.calls as i64 - f.base.calls as i64),
            "{line}"
        );
        checked += 1;
    }
    assert_eq!(checked, 13);
}

fn decode_folder(group: &str, case: &str) -> Trace {
    let files: Vec<(String, Vec<u8>)> = read_folder(&fixtures().join(group).join(case))
        .into_iter()
        .filter(|(path, _)| !path.contains("/reference/"))
        .collect();
    common::checked(decode_files(&files).expect("decodes"))
}

#[test]
fn other_formats_diff_over_their_function_trees() {
    // Two different Scaler programs: functions of both appear, each side
    // summing to its own trace.
    let a = decode_folder("scaler", "a-prodcons-mutex-cond-sem");
    let b = decode_folder("scaler", "b-nested-callbacks-sync");
    let (c, tree) = compare(&a, &b).expect("both in one unit");
    assert!(c
        .functions
        .iter()
        .any(|f| f.base.calls > 0 && f.new.calls == 0));
    assert!(c
        .functions
        .iter()
        .any(|f| f.new.calls > 0 && f.base.calls == 0));
    let base_self: i64 = c.functions.iter().map(|f| f.base.self_time).sum();
    assert_eq!(base_self, tree.nodes[0].base.total);
    // Two SELogger releases recording the same demo: same methods, same
    // call counts (the clock counts events, so both are in `events`).
    let v5 = decode_folder("selogger", "demo-v051-omni-text");
    let v6 = decode_folder("selogger", "demo-v060-omni-text");
    let (c, _) = compare(&v5, &v6).expect("both in events");
    assert_eq!(c.unit, "events");
    assert!(!c.functions.is_empty());
    assert!(
        c.functions.iter().all(|f| f.base.calls == f.new.calls),
        "{:?}",
        c.functions
            .iter()
            .filter(|f| f.base.calls != f.new.calls)
            .collect::<Vec<_>>()
    );
}
