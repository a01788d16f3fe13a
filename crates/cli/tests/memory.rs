//! `flamedrop memory` through the binary: what is live at the end (and its
//! groups by backtrace) against `sp-rtrace-postproc -l` / `-l -c` / `-C`,
//! the text report's parts, the options and their errors.

mod common;

use common::{fixture, flamedrop, pthreads};
use serde_json::Value;

fn rtrace(case: &str) -> String {
    let dir = fixture(&format!("rtrace/{case}"));
    let file = std::fs::read_dir(&dir)
        .expect("case folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "rtrace"))
        .expect("an .rtrace file");
    file.to_string_lossy().into_owned()
}

fn reference(case: &str, name: &str) -> String {
    std::fs::read_to_string(fixture(&format!("rtrace/{case}/reference/{name}"))).expect("reference")
}

fn json(args: &[&str]) -> Value {
    let run = flamedrop(args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    serde_json::from_str(&run.stdout).expect("JSON")
}

/// `N. [@T] [[time]] fn<resource>(size) = 0x…` lines: (resource, size);
/// a call without `<resource>` is of `default`.
fn leaked_calls(text: &str, default: &str) -> Vec<(String, u64)> {
    text.lines()
        .filter_map(|line| {
            let (n, mut rest) = line.split_once(". ")?;
            n.parse::<u32>().ok()?;
            if rest.starts_with('@') {
                rest = rest.split_once(' ')?.1;
            }
            if rest.starts_with('[') {
                rest = rest.split_once("] ")?.1;
            }
            if !rest.contains(") = 0x") {
                return None;
            }
            let open = rest.find('(')?;
            let resource = rest[..open]
                .split_once('<')
                .map_or(default.to_owned(), |(_, r)| {
                    r.trim_end_matches('>').to_owned()
                });
            let size = rest[open + 1..rest.find(')')?].parse().ok()?;
            Some((resource, size))
        })
        .collect()
}

/// `-c` groups: (blocks, total size), sorted.
fn groups(text: &str) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = text
        .lines()
        .filter_map(|l| {
            let words: Vec<&str> = l
                .strip_prefix("# allocation summary: ")?
                .split_whitespace()
                .collect();
            Some((words.first()?.parse().ok()?, words.last()?.parse().ok()?))
        })
        .collect();
    out.sort();
    out
}

fn live_groups(summary: &Value) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = summary["live_groups"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| {
            (
                g["blocks"].as_u64().expect("blocks"),
                g["bytes"].as_u64().expect("bytes"),
            )
        })
        .collect();
    out.sort();
    out
}

fn end_totals(summary: &Value) -> (u64, u64) {
    let end = &summary["series"]["end"];
    (
        end["blocks"].as_u64().expect("blocks"),
        end["bytes"].as_u64().expect("bytes"),
    )
}

#[test]
fn live_at_the_end_is_what_postproc_lists_as_leaked() {
    for case in [
        "c-leaks",
        "c-leaks-i686",
        "c-threads-contexts",
        "c-files-multi",
        "c-files-i686-proto14",
    ] {
        let path = rtrace(case);
        let leaked = leaked_calls(&reference(case, "postproc-l.txt"), "memory");
        let mut resources: Vec<&str> = leaked.iter().map(|(r, _)| r.as_str()).collect();
        resources.sort();
        resources.dedup();
        for resource in resources {
            let s = json(&[
                "memory",
                &path,
                "--resource",
                resource,
                "--at",
                "end",
                "--json",
            ]);
            let sizes: Vec<u64> = leaked
                .iter()
                .filter(|(r, _)| r == resource)
                .map(|l| l.1)
                .collect();
            let expected = (sizes.len() as u64, sizes.iter().sum::<u64>());
            assert_eq!(end_totals(&s), expected, "{case} {resource}");
            assert_eq!(s["resource"], resource);
            let in_groups = live_groups(&s)
                .iter()
                .fold((0, 0), |t, g| (t.0 + g.0, t.1 + g.1));
            assert_eq!(in_groups, expected, "{case} {resource}: groups");
        }
    }
}

#[test]
fn live_groups_at_the_end_are_postprocs_leak_groups() {
    // The cases of one resource: postproc -l -c groups their leaks by
    // backtrace as the live groups are.
    for case in ["c-leaks", "c-leaks-i686", "c-threads-contexts"] {
        let s = json(&["memory", &rtrace(case), "--at", "end", "--json"]);
        assert_eq!(
            live_groups(&s),
            groups(&reference(case, "postproc-lc.txt")),
            "{case}"
        );
    }
}

#[test]
fn the_context_filter_answers_as_postproc_minus_c() {
    let path = rtrace("c-threads-contexts");
    for (mask, file) in [("2", "postproc-C2-l.txt"), ("0", "postproc-C0-lc.txt")] {
        let s = json(&["memory", &path, "--context", mask, "--at", "end", "--json"]);
        let sizes: Vec<u64> = leaked_calls(&reference("c-threads-contexts", file), "memory")
            .into_iter()
            .map(|l| l.1)
            .collect();
        assert_eq!(
            end_totals(&s),
            (sizes.len() as u64, sizes.iter().sum()),
            "-C {mask}"
        );
    }
}

#[test]
fn the_text_report_has_peak_end_groups_histograms_and_rates() {
    let run = flamedrop(&["memory", &rtrace("c-leaks"), "--slices", "4"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.starts_with("Resource memory (bytes): 55 of 55 allocations selected\n"),
        "{out}"
    );
    let line = |state: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(state))
            .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>())
            .unwrap_or_else(|| panic!("a {state} line: {out}"))
    };
    // State, time, total count and size, non-freed count and size (as
    // sp-rtrace-timeline's table); postproc -l: 14 blocks, 10446 bytes
    // non-freed at the end, of the 55 allocations postproc.txt lists.
    let calls = reference("c-leaks", "postproc.txt");
    let made: Vec<u64> = calls
        .lines()
        .filter(|l| l.contains(") = 0x"))
        .filter_map(|l| l[l.find('(')? + 1..l.find(')')?].parse().ok())
        .collect();
    let end = line("end");
    assert_eq!(
        end[1..],
        [
            made.len().to_string(),
            made.iter().sum::<u64>().to_string(),
            "14".into(),
            "10446".into()
        ]
    );
    assert_eq!(line("peak").len(), 5);
    for heading in [
        "Live at call ",
        "Sizes (",
        "Lifetimes (calls):",
        "Rates per slice",
    ] {
        assert!(out.contains(heading), "{heading}: {out}");
    }
    let rates = out.split("Rates per slice\n").nth(1).expect("rates");
    assert_eq!(rates.lines().count(), 1 + 4, "{rates}");
}

#[test]
fn size_and_index_filters_narrow_the_selection() {
    let path = rtrace("c-leaks");
    let s = json(&["memory", &path, "--size", "4k-", "--json"]);
    let sizes = &s["sizes"];
    let smallest = sizes[0]["low"].as_u64().expect("low");
    assert!(smallest >= 2048, "{sizes}");
    let s = json(&["memory", &path, "--index", "1-10", "--json"]);
    // The first ten calls of c-leaks are ten allocations (postproc.txt).
    let first_ten = reference("c-leaks", "postproc.txt")
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok_and(|n| n <= 10))
        })
        .filter(|l| l.contains(") = 0x"))
        .count();
    assert_eq!(s["selected"].as_u64(), Some(first_ten as u64));
    assert_eq!(s["total"].as_u64(), Some(55));
}

#[test]
fn a_range_and_a_time_recompute_the_moment() {
    let path = rtrace("c-leaks");
    let s = json(&["memory", &path, "--range", "1-40", "--at", "end", "--json"]);
    assert_eq!(s["at"].as_i64(), Some(40));
    assert_eq!(s["series"]["points"][0]["time"].as_i64(), Some(1));
    let s = json(&["memory", &path, "--at", "20", "--json"]);
    assert_eq!(s["at"].as_i64(), Some(20));
}

#[test]
fn a_trace_without_allocations_is_told_and_fails() {
    let run = flamedrop(&["memory", &pthreads()]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("has no allocations"), "{}", run.stderr);
}

#[test]
fn unknown_resources_and_bad_options_are_refused() {
    let path = rtrace("c-files-multi");
    let run = flamedrop(&["memory", &path, "--resource", "sockets"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("no resource \"sockets\""),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("fd"),
        "names the resources: {}",
        run.stderr
    );
    for bad in [["--at", "later"], ["--size", "big"], ["--context", "zz"]] {
        let run = flamedrop(&["memory", &path, bad[0], bad[1]]);
        assert_eq!(run.code, 2, "{bad:?}");
        assert!(run.stdout.is_empty());
    }
}
