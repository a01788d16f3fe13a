//! SWAP against what the Dynamic Analyzer is given: no original tool output
//! exists for SWAP, so each `tests/fixtures/swap/reference/<case>.txt` is
//! worked out by hand from the scenario and the rules of
//! `specs/notes/swap.md` (never from our output). `report`'s rows, the
//! lanes and every system call's span and fields must equal it.

mod common;

use common::fixtures;
use flamedrop_core::analysis::report;
use flamedrop_core::{decode_files, Trace};

/// A reference file: its `[section]`s, each a list of tab-separated rows
/// (comments and blank lines left out).
fn reference(case: &str) -> Vec<(String, Vec<Vec<String>>)> {
    let path = fixtures()
        .join("swap/reference")
        .join(format!("{case}.txt"));
    let text = std::fs::read_to_string(&path).expect("reference file");
    let mut sections: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    for line in text.lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            sections.push((name.to_owned(), Vec::new()));
        } else if let Some((_, rows)) = sections.last_mut() {
            rows.push(line.split('\t').map(str::to_owned).collect());
        }
    }
    sections
}

fn section(sections: &[(String, Vec<Vec<String>>)], name: &str) -> Vec<Vec<String>> {
    let (_, rows) = sections
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no [{name}] section"));
    let mut rows = rows.clone();
    rows.sort();
    rows
}

fn sorted(mut rows: Vec<Vec<String>>) -> Vec<Vec<String>> {
    rows.sort();
    rows
}

/// The stream and the time of its first message, in ns.
fn stream(case: &str) -> (Trace, i64) {
    let name = format!("{case}.swap");
    let bytes = std::fs::read(fixtures().join("swap").join(&name)).expect("swap fixture");
    let word = |at: usize| {
        let b: [u8; 4] = bytes[at..at + 4].try_into().expect("4 bytes");
        i64::from(u32::from_le_bytes(b))
    };
    let start = word(8) * 1_000_000_000 + word(12);
    let trace = decode_files(&[(name, bytes.clone())]).expect("decodes as SWAP");
    (trace, start)
}

/// `report`'s rows: function, calls, total, self.
fn report_rows(trace: &Trace) -> Vec<Vec<String>> {
    let r = report(trace);
    sorted(
        r.functions
            .iter()
            .map(|f| {
                vec![
                    f.name.clone(),
                    f.calls.to_string(),
                    f.total.to_string(),
                    f.self_time.to_string(),
                ]
            })
            .collect(),
    )
}

/// Lanes with spans: name, span count, deepest nesting.
fn lane_rows(trace: &Trace) -> Vec<Vec<String>> {
    let r = report(trace);
    sorted(
        r.threads
            .iter()
            .filter(|t| t.spans > 0)
            .map(|t| vec![t.name.clone(), t.spans.to_string(), t.max_depth.to_string()])
            .collect(),
    )
}

/// Every span of the `syscalls` lanes: lane, name, start, end (from the
/// stream's start), group, arguments and return value (`-`: none).
fn syscall_rows(trace: &Trace, start: i64) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for thread in trace
        .threads
        .iter()
        .filter(|t| t.name.ends_with("syscalls"))
    {
        let spans = &thread.spans;
        for i in 0..spans.len() {
            let fields = spans.details_of(i as u32, &trace.strings);
            let field = |key: &str| {
                fields
                    .iter()
                    .find(|f| f.key == key)
                    .map_or("-".to_owned(), |f| f.value.clone())
            };
            rows.push(vec![
                thread.name.clone(),
                trace.str(spans.name[i]).to_owned(),
                (spans.start[i] - start).to_string(),
                (spans.end[i] - start).to_string(),
                field("group"),
                field("args"),
                field("return"),
            ]);
        }
    }
    sorted(rows)
}

/// Protocol 3.0: system calls are FUNCTION_ENTRY / EXIT with probe type 3
/// and the group in the sub-type; they read as the 4.x SYSCALL messages do,
/// and a call still open at the end counts once, timed to its lane's end.
#[test]
fn pre_4_0_system_calls_match_the_reference() {
    let case = "legacy-syscalls-3.0";
    let expected = reference(case);
    let (trace, start) = stream(case);
    assert_eq!(report_rows(&trace), section(&expected, "report"));
    assert_eq!(lane_rows(&trace), section(&expected, "lanes"));
    assert_eq!(syscall_rows(&trace, start), section(&expected, "syscalls"));
    let kinds: Vec<&str> = trace.diagnostics.iter().map(|d| d.kind.as_str()).collect();
    assert_eq!(kinds, ["open-at-end"], "{:?}", trace.diagnostics);
}
