//! Golden tests: with uftrace's filter options, the narrowed trace's report
//! prints what `uftrace report OPTIONS` (v0.13) printed for every shared
//! fixture. The option sets and their reference files are read from each
//! case's `reference/COMMANDS.txt` (the lines writing `reference/filters/`),
//! so a reference recorded there is a reference tested here.

mod common;

use common::{cases, checked, decode_case, fixtures};
use flamedrop_core::analysis::report::report;
use flamedrop_core::analysis::report_sort::sort_functions;
use flamedrop_core::analysis::transform::{self, Step, UftraceFilter};

/// A report row: total and self as printed, calls, name.
type Row = (String, String, u64, String);

/// One recorded command: options and the reference file it wrote.
struct Command {
    options: String,
    output: String,
}

fn commands(group: &str, case: &str) -> Vec<Command> {
    let path = fixtures()
        .join(group)
        .join(case)
        .join("reference/COMMANDS.txt");
    let text = std::fs::read_to_string(path).expect("COMMANDS.txt");
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("uftrace report -d uftrace.data ")?;
            let (options, output) = rest.split_once(" > ")?;
            output.starts_with("reference/filters/").then(|| Command {
                options: options.to_owned(),
                output: output.to_owned(),
            })
        })
        .collect()
}

/// A row as printed: total and self (blank for a zero time, in uftrace's
/// report and ours), calls, name.
fn rows(text: &str) -> Vec<Row> {
    let normal = |t: &str| t.trim().to_owned();
    text.lines()
        .skip_while(|l| !l.trim_start().starts_with("=========="))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|line| {
            let (times, rest) = line.split_at(24.min(line.len()));
            let (total, self_time) = times.split_at(12.min(times.len()));
            let mut words = rest.split_whitespace();
            let calls = words.next().and_then(|c| c.parse().ok()).expect("calls");
            let name = words.collect::<Vec<_>>().join(" ");
            (normal(total), normal(self_time), calls, name)
        })
        .collect()
}

/// The options split into the filter line and `-s` keys.
fn split_sort(options: &str) -> (String, String) {
    let words: Vec<&str> = options.split(' ').collect();
    let mut filter = Vec::new();
    let mut keys = String::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "-s" {
            keys = words.get(i + 1).copied().unwrap_or("").to_owned();
            i += 2;
        } else {
            filter.push(words[i]);
            i += 1;
        }
    }
    (filter.join(" "), keys)
}

/// Our report's rows for `options` on `case`.
fn ours(group: &str, case: &str, options: &str) -> Vec<Row> {
    ours_with_notes(group, case, options).0
}

/// Our rows and the notes (uftrace's warnings) for `options` on `case`.
fn ours_with_notes(group: &str, case: &str, options: &str) -> (Vec<Row>, Vec<String>) {
    let trace = decode_case(group, case);
    let (line, keys) = split_sort(options);
    let filter = UftraceFilter::parse(&line).expect("options parse");
    let narrowed = transform::apply(&trace, &[Step::Uftrace(filter)]).expect("applies");
    let notes = narrowed.notes.into_iter().map(|n| n.message).collect();
    let trace = checked(narrowed.trace);
    let mut r = report(&trace);
    sort_functions(&mut r.functions, &keys).expect("sort keys");
    // Read back from the text, laid out as uftrace lays its report out.
    (rows(&r.to_text()), notes)
}

/// References that differ in one row, with why: (case, options, the row's
/// function). Every other row must still be equal, in the same order.
const KNOWN_DIFFERENCES: [(&str, &str, &str); 2] = [
    // uftrace counts a call's total only when no call of the same function
    // is on its stack, shown or not: under -F mutual_b, every mutual_a runs
    // below the outermost mutual_a (which -F hides), so uftrace's mutual_a
    // total is 0; `report()` sees only the calls kept and counts the
    // outermost kept mutual_a calls (calls and self times are equal).
    ("b-recursion-hot", "-F 'recurse;mutual_b'", "mutual_a"),
    // With an absolute `-r` end, uftrace counts every call still open at
    // the end, also a context switch a worker makes after its last function
    // has returned; the decoder keeps no span for context switches outside
    // every function (uftrace never shows them otherwise), so that second
    // schedule cannot be counted here.
    (
        "c-pthreads-mutex",
        "-r 266.560546222~266.561114514",
        "linux:schedule (pre-empted)",
    ),
];

/// Rows without the ones of `function`.
fn without(rows: Vec<Row>, function: &str) -> Vec<Row> {
    rows.into_iter().filter(|r| r.3 != function).collect()
}

/// References of the extra cases that are not compared, with why: (case,
/// options or `None` for all of the case's, reason). They are still
/// narrowed (and the result checked against the model's rules).
const NOT_EMULATED: [(&str, Option<&str>, &str); 6] = [
    ("d-fork-exec", None, "exec: uftrace's stack reset at exec and its <address> name for the new image's code"),
    ("i-lost-nested", None, "LOST records: uftrace's filter state after a loss"),
    ("i-lost-records", None, "LOST records: uftrace's filter state after a loss"),
    ("i-lost-sched", None, "LOST records: uftrace's filter state after a loss"),
    ("j-setjmp-longjmp", None, "longjmp: uftrace's stack reset and the filter state after it"),
    (
        "d-fork-child",
        Some("-t 10us"),
        "with -t uftrace reads perf events apart, so the child's exit() that never returns ends at another record than the decoder's end",
    ),
];

/// Compares every recorded reference of `group`; the number compared.
fn check_group(group: &str, cases: &[String]) -> usize {
    let mut failures = Vec::new();
    let mut checked_count = 0;
    for case in cases {
        let recorded = commands(group, case);
        assert!(recorded.len() >= 5, "{case}: references missing");
        for command in recorded {
            let skipped = NOT_EMULATED
                .iter()
                .any(|(c, options, _)| c == case && options.is_none_or(|o| o == command.options));
            if skipped {
                ours(group, case, &command.options);
                continue;
            }
            let path = fixtures().join(group).join(case).join(&command.output);
            let text = std::fs::read_to_string(path).expect("reference");
            let mut expected = rows(&text);
            let (mut got, notes) = ours_with_notes(group, case, &command.options);
            // uftrace's warnings ("Usage: failed to set filter or trigger: …")
            // are our notes, word for word.
            for warning in text.lines().filter_map(|l| l.strip_prefix("Usage: ")) {
                assert!(
                    notes.iter().any(|n| n == warning),
                    "{case} `{}`: no note {warning:?} in {notes:?}",
                    command.options
                );
            }
            let known = KNOWN_DIFFERENCES
                .iter()
                .find(|(c, o, _)| c == case && *o == command.options);
            if let Some((_, _, function)) = known {
                assert_ne!(got, expected, "{case} `{}` now matches", command.options);
                got = without(got, function);
                expected = without(expected, function);
            }
            checked_count += 1;
            if got != expected {
                failures.push(format!(
                    "{case} `{}`:\n  uftrace: {expected:?}\n  ours:    {got:?}",
                    command.options
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked_count} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    checked_count
}

#[test]
fn filtered_reports_equal_uftrace_report_for_every_shared_case() {
    let all = cases("uftrace");
    assert_eq!(all.len(), 7);
    let checked_count = check_group("uftrace", &all);
    assert!(checked_count >= 90, "only {checked_count} references");
}

/// Forks, exec, PLT calls, events, lost records, the stack limit and
/// longjmp, with a few option sets each.
#[test]
fn filtered_reports_equal_uftrace_report_for_the_extra_cases() {
    let checked_count = check_group("uftrace-extra", &cases("uftrace-extra"));
    assert!(checked_count >= 28, "only {checked_count} references");
}

/// A depth no call reaches changes nothing: replaying every record through
/// uftrace's stack reproduces the decoded report exactly.
#[test]
fn a_filter_that_removes_nothing_keeps_the_report() {
    for case in cases("uftrace") {
        let trace = decode_case("uftrace", &case);
        let filter = UftraceFilter::parse("-D 1000").expect("parses");
        let narrowed = transform::apply(&trace, &[Step::Uftrace(filter)]).expect("applies");
        assert_eq!(report(&checked(narrowed.trace)), report(&trace), "{case}");
    }
}

/// A rough timing on 20 million spans (run with `--release -- --ignored`):
/// one pass per thread, whatever the options.
#[test]
#[ignore]
fn twenty_million_spans() {
    use flamedrop_core::model::{Format, TimeUnit, TraceBuilder};
    let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
    let p = b.process("1", "big");
    let t = b.thread(p, "1", "big");
    let names: Vec<_> = ["main", "outer", "work", "leaf", "std::vector::push"]
        .iter()
        .map(|n| b.intern(n))
        .collect();
    let mut time = 0;
    b.begin(t, time, names[0], 0);
    let mut spans = 1;
    while spans < 20_000_000 {
        time += 1;
        b.begin(t, time, names[1], 0);
        for i in 0..4 {
            time += 3;
            b.begin(t, time, names[2], 0);
            time += 2;
            b.begin(t, time, names[3 + i % 2], 0);
            time += 1 + i as i64;
            b.end(t, time);
            time += 1;
            b.end(t, time);
        }
        time += 1;
        b.end(t, time);
        spans += 9;
    }
    b.end(t, time + 1);
    let trace = b.finish();
    let started = std::time::Instant::now();
    let copy = trace.clone();
    eprintln!(
        "clone of {} spans: {:?}",
        copy.threads[0].spans.len(),
        started.elapsed()
    );
    drop(copy);
    for options in [
        "-D 1000",
        "-F work",
        "-N leaf -H outer",
        "-D 3",
        "-t 10",
        "-C leaf",
        "-r 1us~9ms",
    ] {
        let filter = UftraceFilter::parse(options).expect("parses");
        let started = std::time::Instant::now();
        let narrowed = transform::apply(&trace, &[Step::Uftrace(filter)]).expect("applies");
        let spans: usize = narrowed.trace.threads.iter().map(|t| t.spans.len()).sum();
        eprintln!("{options}: {spans} spans kept in {:?}", started.elapsed());
    }
}
