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

/// One recorded command: options and the reference file it wrote.
struct Command {
    options: String,
    output: String,
}

fn commands(case: &str) -> Vec<Command> {
    let path = fixtures()
        .join("uftrace")
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

/// A row as printed: total and self (blank for a zero time, as uftrace
/// prints it), calls, name.
fn rows(text: &str) -> Vec<(String, String, u64, String)> {
    let normal = |t: &str| {
        if t.trim().is_empty() {
            "0.000 us".to_owned()
        } else {
            t.trim().to_owned()
        }
    };
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
fn ours(case: &str, options: &str) -> Vec<(String, String, u64, String)> {
    let trace = decode_case("uftrace", case);
    let (line, keys) = split_sort(options);
    let filter = UftraceFilter::parse(&line).expect("options parse");
    let narrowed = transform::apply(&trace, &[Step::Uftrace(filter)]).expect("applies");
    let trace = checked(narrowed.trace);
    let mut r = report(&trace);
    sort_functions(&mut r.functions, &keys).expect("sort keys");
    // Read back from the text, laid out as uftrace lays its report out.
    rows(&r.to_text())
}

#[test]
fn filtered_reports_equal_uftrace_report_for_every_shared_case() {
    let mut failures = Vec::new();
    let mut checked_count = 0;
    for case in cases("uftrace") {
        let recorded = commands(&case);
        assert!(recorded.len() >= 8, "{case}: references missing");
        for command in recorded {
            let path = fixtures().join("uftrace").join(&case).join(&command.output);
            let expected = rows(&std::fs::read_to_string(path).expect("reference"));
            let got = ours(&case, &command.options);
            checked_count += 1;
            if got != expected {
                failures.push(format!(
                    "{case} `{}`:\n  uftrace: {expected:?}\n  ours:    {got:?}",
                    command.options
                ));
            }
        }
    }
    assert!(checked_count >= 63, "only {checked_count} references");
    assert!(
        failures.is_empty(),
        "{} of {checked_count} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
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
