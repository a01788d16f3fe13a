//! `flamedrop components` through the binary: its tables and JSON on the
//! Scaler fixtures (numbers checked against the calls of
//! `reference/tree.txt`), its options and their errors.

mod common;

use common::{fixture, flamedrop, Run};

/// Per thread file of a Scaler case's `reference/tree.txt`: (thread id,
/// calls, summed duration of the top-level calls).
fn tree_threads(case: &str) -> Vec<(String, u64, i64)> {
    let text = std::fs::read_to_string(fixture(&format!("scaler/{case}/reference/tree.txt")))
        .expect("tree.txt");
    let mut out: Vec<(String, u64, i64)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("== thread_") {
            let id = rest.split(".bin").next().unwrap_or_default();
            out.push((id.to_owned(), 0, 0));
        } else if let (Some(last), Some(dur)) = (out.last_mut(), line.split(" dur=").nth(1)) {
            // Two spaces a level; the root (level 0) is the thread itself.
            let level = (line.len() - line.trim_start().len()) / 2;
            if level >= 1 {
                last.1 += 1;
            }
            if level == 1 {
                last.2 += dur.split(' ').next().unwrap().parse::<i64>().unwrap();
            }
        }
    }
    out
}

fn run_ok(args: &[&str]) -> Run {
    let run = flamedrop(args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&run_ok(args).stdout).expect("JSON")
}

#[test]
fn json_numbers_are_the_calls_and_times_of_tree_txt() {
    let case = "b-nested-callbacks-sync";
    let path = fixture(&format!("scaler/{case}"));
    let report = json(&["components", &path, "--json"]);
    assert_eq!(report["time_unit"], "us");
    let expected = tree_threads(case);
    let total: i64 = expected.iter().map(|t| t.2).sum();
    assert_eq!(report["time"], total);
    for (id, calls, time) in &expected {
        let thread = report["threads"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id.as_str())
            .unwrap_or_else(|| panic!("thread {id}"));
        assert_eq!(thread["time"], *time, "{id}");
        let matrix_calls: u64 = thread["matrix"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["calls"].as_u64().unwrap())
            .sum();
        assert_eq!(matrix_calls, *calls, "{id}");
    }
    assert_eq!(report["drill"]["time"], total);
    assert_eq!(report["serial_parallel"]["workers"], 2);
}

#[test]
fn the_text_has_a_table_per_thread_and_the_matrix() {
    let case = "a-prodcons-mutex-cond-sem";
    let run = run_ok(&["components", &fixture(&format!("scaler/{case}"))]);
    let out = &run.stdout;
    assert!(out.starts_with("Time by component: 4 thread(s)"), "{out}");
    for heading in [
        "All threads",
        "Calls between components (caller -> callee)",
        "Serial vs parallel: main thread 0x7f05e24a6800 kept, 3 worker thread(s) averaged",
    ] {
        assert!(out.contains(heading), "{heading}:\n{out}");
    }
    for (id, _, _) in tree_threads(case) {
        assert!(
            out.contains(&format!("\nThread {id} (prodcons")),
            "{id}:\n{out}"
        );
    }
    let header = out.lines().find(|l| l.contains("Local %")).unwrap();
    let columns: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(
        columns,
        [
            "Library",
            "Self",
            "Inclusive",
            "Wait",
            "Local",
            "%",
            "Global",
            "%",
            "Calls"
        ]
    );
    // All 4 threads' calls go from the executable into its own image id
    // (lazy binding): one matrix row with every call.
    let calls: u64 = tree_threads(case).iter().map(|t| t.1).sum();
    let row = out
        .lines()
        .find(|l| l.trim_start().starts_with("prodcons  ") && l.contains(&calls.to_string()));
    assert!(row.is_some(), "matrix row with {calls} calls:\n{out}");
}

#[test]
fn thread_and_range_narrow_what_is_counted() {
    let case = "b-nested-callbacks-sync";
    let path = fixture(&format!("scaler/{case}"));
    let (id, _, time) = tree_threads(case).remove(1);
    let one = json(&["components", &path, "--json", "--thread", &id]);
    assert_eq!(one["threads"].as_array().unwrap().len(), 1);
    assert_eq!(one["time"], time);
    let whole = json(&["components", &path, "--json"]);
    let wide = json(&["components", &path, "--json", "--range", "0-100000000"]);
    assert_eq!(wide, whole, "a range over everything changes nothing");
    let none = json(&["components", &path, "--json", "--range", "0-0"]);
    assert!(none["time"].as_i64().unwrap() < whole["time"].as_i64().unwrap());
}

#[test]
fn small_components_are_grouped_as_other() {
    let path = fixture("uftrace/e-dlopen-plugin/uftrace.data");
    let report = json(&["components", &path, "--json", "--other", "1"]);
    let libraries = report["libraries"].as_array().unwrap();
    let other = libraries.last().unwrap();
    assert_eq!(other["library"], "other");
    assert_eq!(other["grouped"], serde_json::json!(["libplugin.so"]));
    let text = run_ok(&["components", &path, "--other", "1"]).stdout;
    assert!(text.contains("  other (1) "), "{text}");
}

#[test]
fn bad_options_are_refused() {
    let path = fixture("scaler/b-nested-callbacks-sync");
    for (args, says) in [
        (vec!["--thread", "0x1"], "no thread 0x1"),
        (vec!["--range", "9-3"], "starts after it ends"),
        (vec!["--other", "150"], "between 0 and 100"),
    ] {
        let mut line = vec!["components", path.as_str()];
        line.extend(args.iter().copied());
        let run = flamedrop(&line);
        assert_eq!(run.code, 2, "{line:?}");
        assert!(run.stderr.contains(says), "{line:?}: {}", run.stderr);
        assert!(run.stdout.is_empty());
    }
}
