//! What the narrowing options do to `report` and `convert`, run through the
//! built binary on real fixtures.

mod common;

use common::{fixture, flamedrop};

/// Without a narrowing option the report's table is `uftrace report`'s, as
/// uftrace printed it (`reference/report.txt`, see the case's COMMANDS.txt).
#[test]
fn without_options_the_table_is_uftrace_report() {
    for case in [
        "a-simple-nested",
        "b-recursion-hot",
        "c-pthreads-mutex",
        "e-dlopen-plugin",
        "g-finstrument-functions",
    ] {
        let run = flamedrop(&["report", &fixture(&format!("uftrace/{case}/uftrace.data"))]);
        assert_eq!(run.code, 0, "{case}: {}", run.stderr);
        let reference =
            std::fs::read_to_string(fixture(&format!("uftrace/{case}/reference/report.txt")))
                .expect("reference report");
        let table: String = run
            .stdout
            .split_inclusive('\n')
            .take(reference.lines().count())
            .collect();
        assert_eq!(table, reference, "{case}");
    }
}

/// The table rows of a report as text (after the `====` line).
fn table_rows(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.trim_start().starts_with("=========="))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// References where one function's row differs, as the core's
/// `filters_golden` test lists them (the reason is written there): (case,
/// options, function). The other rows must still be equal.
const KNOWN_DIFFERENCES: [(&str, &str, &str); 2] = [
    ("b-recursion-hot", "-F 'recurse;mutual_b'", "mutual_a"),
    (
        "c-pthreads-mutex",
        "-r 266.560546222~266.561114514",
        "linux:schedule (pre-empted)",
    ),
];

/// The `uftrace report` commands a shared case's `reference/COMMANDS.txt`
/// recorded into `reference/filters/`: (options, output file).
fn recorded(case: &str) -> Vec<(String, String)> {
    let commands =
        std::fs::read_to_string(fixture(&format!("uftrace/{case}/reference/COMMANDS.txt")))
            .expect("COMMANDS.txt");
    commands
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("uftrace report -d uftrace.data ")?;
            let (options, output) = rest.split_once(" > ")?;
            output
                .starts_with("reference/filters/")
                .then(|| (options.to_owned(), output.to_owned()))
        })
        .collect()
}

/// `flamedrop report` with one recorded command's options against what
/// uftrace printed: the same rows, and uftrace's warning (its `Usage: …`
/// line) as our note — or, for a value uftrace only warns about and then
/// ignores (`-D 0`), the same words as our error, exit 2.
fn compare_with_uftrace(case: &str, options: &str, output: &str) -> Result<(), String> {
    let path = fixture(&format!("uftrace/{case}/uftrace.data"));
    let mut args = vec!["report", path.as_str()];
    args.extend(options.split_whitespace().map(|w| w.trim_matches('\'')));
    let run = flamedrop(&args);
    let reference =
        std::fs::read_to_string(fixture(&format!("uftrace/{case}/{output}"))).expect("reference");
    let warning = reference
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("Usage: "));
    if run.code == 2 {
        let refused = run
            .stderr
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("flamedrop: "));
        return match (warning, refused) {
            (Some(w), Some(r)) if w.starts_with(r) => Ok(()),
            _ => Err(format!("refused: {}", run.stderr)),
        };
    }
    if let Some(w) = warning {
        if !run.stderr.contains(&format!("flamedrop: note: {w}\n")) {
            return Err(format!("uftrace warned {w:?}, we said {:?}", run.stderr));
        }
    }
    let (mut ours, mut theirs) = (table_rows(&run.stdout), table_rows(&reference));
    let known = KNOWN_DIFFERENCES
        .iter()
        .find(|(c, o, _)| *c == case && *o == options);
    if let Some((_, _, function)) = known {
        let other = |row: &String| !row.ends_with(&format!("  {function}"));
        ours.retain(other);
        theirs.retain(other);
    }
    if run.code != 0 || ours != theirs {
        return Err(format!("exit {}, rows differ", run.code));
    }
    Ok(())
}

/// Every `uftrace report OPTIONS` recorded in a shared case (filters and
/// `-s`), given to `flamedrop report` with the same words.
#[test]
fn filtered_reports_print_what_uftrace_printed() {
    let mut compared = 0;
    let mut differ = Vec::new();
    for case in [
        "a-simple-nested",
        "b-recursion-hot",
        "c-pthreads-mutex",
        "e-dlopen-plugin",
        "f-args-auto-dwarf",
        "f-args-explicit",
        "g-finstrument-functions",
    ] {
        for (options, output) in recorded(case) {
            compared += 1;
            if let Err(why) = compare_with_uftrace(case, &options, &output) {
                differ.push(format!("{case} `{options}`: {why}"));
            }
        }
    }
    assert!(compared >= 90, "only {compared} references");
    assert!(differ.is_empty(), "differ from uftrace: {differ:#?}");
}

/// `report --json` of the narrowed trace (what the page's
/// `window.flamedrop.report()` returns under the same stack).
fn json(args: &[&str]) -> serde_json::Value {
    let path = fixture("uftrace/c-pthreads-mutex/uftrace.data");
    let mut line = vec!["report", path.as_str(), "--json"];
    line.extend_from_slice(args);
    let run = flamedrop(&line);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    serde_json::from_str(&run.stdout).expect("report --json is JSON")
}

/// (name, calls) of every function in a JSON report, sorted by name.
fn calls(report: &serde_json::Value) -> Vec<(String, u64)> {
    let mut calls: Vec<(String, u64)> = report["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .map(|f| {
            let name = f["name"].as_str().expect("name").to_owned();
            (name, f["calls"].as_u64().expect("calls"))
        })
        .collect();
    calls.sort();
    calls
}

/// The options and the same line as a `--transform` `u:` step narrow alike;
/// options then `--transform` equal one `--transform` list in that order.
#[test]
fn options_and_transform_text_agree() {
    assert_eq!(
        json(&["-F", "worker"]),
        json(&["--transform", "u:-F%20worker"])
    );
    assert_eq!(
        json(&["-D", "2", "--transform", "df:compute"]),
        json(&["--transform", "u:-D%202~df:compute"])
    );
    assert_ne!(
        json(&["-F", "worker"]),
        json(&[]),
        "-F narrows report --json"
    );
}

/// Firefox Profiler's transforms through `--transform`, on c-pthreads-mutex
/// (main → pthread_create / pthread_join; each of 4 workers → compute and
/// update_shared → pthread_mutex_lock / pthread_mutex_unlock, 800 each).
#[test]
fn transforms_change_the_report_as_they_say() {
    let whole = calls(&json(&[]));
    let without = |gone: &[&str]| -> Vec<(String, u64)> {
        whole
            .iter()
            .filter(|(name, _)| !gone.contains(&name.as_str()))
            .cloned()
            .collect()
    };
    // Drop a leaf: only it goes.
    assert_eq!(
        calls(&json(&["--transform", "df:compute"])),
        without(&["compute"])
    );
    // Drop update_shared: its callees (only called from it) go with it.
    assert_eq!(
        calls(&json(&["--transform", "df:update_shared"])),
        without(&[
            "update_shared",
            "pthread_mutex_lock",
            "pthread_mutex_unlock"
        ])
    );
    // Merge update_shared: it goes, its callees stay with their calls.
    assert_eq!(
        calls(&json(&["--transform", "mf:update_shared"])),
        without(&["update_shared"])
    );
    // Focus on worker: only worker and what it calls, counts unchanged.
    let focused = calls(&json(&["--transform", "ff:worker"]));
    let names: Vec<&str> = focused.iter().map(|(n, _)| n.as_str()).collect();
    assert!(
        names.contains(&"worker") && !names.contains(&"main"),
        "{names:?}"
    );
    for (name, count) in &focused {
        assert!(whole.contains(&(name.clone(), *count)), "{name}: {count}");
    }
}

/// `convert` writes the narrowed trace: under `-F worker` every collapsed
/// stack starts at worker.
#[test]
fn convert_writes_the_narrowed_trace() {
    let path = fixture("uftrace/c-pthreads-mutex/uftrace.data");
    let run = flamedrop(&["convert", &path, "--to", "collapsed", "-F", "worker"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.is_empty());
    for line in run.stdout.lines() {
        assert!(line.starts_with("worker"), "{line}");
    }
    let whole = flamedrop(&["convert", &path, "--to", "collapsed"]);
    assert!(whole.stdout.lines().any(|l| l.starts_with("main")));
}

/// What uftrace warns about and goes on after, when it depends on the trace,
/// is a note on stderr and the report goes on as uftrace's (a `-F` that
/// matches nothing sets no filter); a value wrong whatever the trace stops
/// with exit 2 and uftrace's words.
#[test]
fn notes_go_on_and_bad_values_stop() {
    let path = fixture("uftrace/c-pthreads-mutex/uftrace.data");
    let plain = flamedrop(&["report", &path]);
    let nomatch = flamedrop(&["report", &path, "-F", "no_such_function"]);
    assert_eq!(nomatch.code, 0);
    assert_eq!(
        nomatch.stderr,
        "flamedrop: note: failed to set filter or trigger: no_such_function\n"
    );
    assert_eq!(nomatch.stdout, plain.stdout);
    let note = flamedrop(&["report", &path, "--transform", "mf:no_such_function"]);
    assert_eq!(note.code, 0);
    assert!(note
        .stderr
        .starts_with("flamedrop: note: --transform step 1: Merge: no_such_function"));

    let cases: [(&[&str], &str); 6] = [
        (
            &["-F", "["],
            "flamedrop: failed to set filter or trigger: [",
        ),
        (&["-t", "5xs"], "flamedrop: invalid time filter: 5xs ("),
        (&["-r", "40us"], "flamedrop: invalid time range: 40us ("),
        (&["--tid", "x"], "flamedrop: invalid thread id: x"),
        (
            &["--transform", "df:main~u:-t%205xs"],
            "flamedrop: invalid --transform: step 2: invalid time filter: 5xs (",
        ),
        (
            &["--transform", "u:-N%20("],
            "flamedrop: invalid --transform: step 1: failed to set filter or trigger: (",
        ),
    ];
    for (options, says) in cases {
        let mut args = vec!["report", path.as_str()];
        args.extend_from_slice(options);
        let run = flamedrop(&args);
        assert_eq!(run.code, 2, "{options:?}");
        assert!(run.stdout.is_empty());
        assert!(run.stderr.starts_with(says), "{options:?}: {}", run.stderr);
    }
}

/// A step that cannot be carried out on this trace stops the command: a
/// time with a unit on a SELogger trace, which counts events.
#[test]
fn a_step_that_cannot_apply_stops() {
    let path = fixture("selogger/demo-v040-omni");
    let run = flamedrop(&["report", &path, "-t", "5us"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "flamedrop: -t: this trace counts events, not time; give a whole number of events\n"
    );
    let events = flamedrop(&["report", &path, "-t", "5", "--json"]);
    assert_eq!(events.code, 0, "{}", events.stderr);
}
