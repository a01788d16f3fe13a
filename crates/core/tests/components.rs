//! Issue 19's Scaler acceptance for time by component, on every Scaler
//! fixture: the numbers `analysis::components` gives are replayed here from
//! the case's `reference/tree.txt` (the independent decoder's dump), not
//! from our decoder:
//! - each thread's time (its top-level calls' durations, as Scaler's
//!   analyzer sums a thread) is split without remainder into the libraries'
//!   self and wait times, and the per-library inclusive times add up to it;
//! - wait time equals the summed durations of the wait calls;
//! - the caller-library → callee-library matrix holds exactly the calls
//!   `tree.txt` shows between those libraries (cross-library ones counted
//!   apart).

mod common;

use common::{fixtures, read_folder};
use flamedrop_core::analysis::components::{
    components, ComponentsOptions, ComponentsReport, ThreadComponents, UNNAMED_PROGRAM,
};
use flamedrop_core::decode_files;
use std::collections::BTreeMap;

/// The calls that wait, by name (pthread joins, condition, barrier and
/// semaphore waits, lock acquisitions; `try` variants never block).
const WAITS: [&str; 17] = [
    "pthread_join",
    "pthread_timedjoin_np",
    "pthread_clockjoin_np",
    "pthread_cond_wait",
    "pthread_cond_timedwait",
    "pthread_cond_clockwait",
    "pthread_barrier_wait",
    "sem_wait",
    "sem_timedwait",
    "sem_clockwait",
    "pthread_mutex_lock",
    "pthread_mutex_timedlock",
    "pthread_mutex_clocklock",
    "pthread_rwlock_rdlock",
    "pthread_rwlock_wrlock",
    "pthread_rwlock_timedwrlock",
    "pthread_spin_lock",
];

/// One call of `tree.txt`.
#[derive(Debug)]
struct Node {
    depth: usize,
    name: String,
    library: String,
    /// `None` when the dump prints `-` (untimed or never returned).
    duration: Option<i64>,
    parent: Option<usize>,
}

/// `key=value` of a node line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key).and_then(|w| w.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

/// Per thread id (`0x…` from the file name), its calls (the root left out).
fn parse_tree(text: &str) -> BTreeMap<String, Vec<Node>> {
    let mut threads: BTreeMap<String, Vec<Node>> = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut stack: Vec<usize> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("== ") {
            let file = rest.split_whitespace().next().unwrap();
            let id = file.rsplit('_').next().unwrap().trim_end_matches(".bin");
            current = Some(id.to_owned());
            threads.insert(id.to_owned(), Vec::new());
            continue;
        }
        let trimmed = line.trim_start();
        let (Some(id), true) = (&current, trimmed.starts_with('[')) else {
            continue;
        };
        let depth = (line.len() - trimmed.len()) / 2;
        if depth == 0 {
            continue; // the root: the thread itself
        }
        let nodes = threads.get_mut(id).unwrap();
        stack.truncate(depth - 1);
        let library = match field(line, "lib") {
            "-" => format!("file{}", field(line, "fileID")),
            lib => lib.to_owned(),
        };
        nodes.push(Node {
            depth,
            name: field(line, "name").to_owned(),
            library,
            duration: field(line, "dur").parse().ok(),
            parent: stack.last().copied(),
        });
        stack.push(nodes.len() - 1);
    }
    threads
}

/// The executable's name: the base name of the one `symbol.json` entry
/// that lists function names (Scaler hooks only the executable).
fn executable(case: &str) -> String {
    let path = fixtures().join("scaler").join(case).join("symbol.json");
    let Ok(text) = std::fs::read_to_string(path) else {
        return UNNAMED_PROGRAM.to_owned();
    };
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let exe = json
        .as_object()
        .unwrap()
        .values()
        .find(|image| image["funcNames"].is_object())
        .unwrap();
    let path = exe["fileName"].as_str().unwrap();
    path.rsplit('/').next().unwrap().to_owned()
}

/// A case's `reference/tree.txt`.
fn tree_text(case: &str) -> String {
    let path = fixtures()
        .join("scaler")
        .join(case)
        .join("reference/tree.txt");
    std::fs::read_to_string(path).expect("tree.txt")
}

fn analyse(case: &str) -> ComponentsReport {
    let files = read_folder(&fixtures().join("scaler").join(case));
    let trace = decode_files(&files).expect("decodes");
    components(&trace, &ComponentsOptions::default())
}

fn thread<'a>(report: &'a ComponentsReport, id: &str) -> &'a ThreadComponents {
    report
        .threads
        .iter()
        .find(|t| t.id == id)
        .unwrap_or_else(|| panic!("no thread {id}"))
}

/// Calls per (caller library, callee library): a top-level call is the
/// executable's, a nested one its parent's library.
fn reference_matrix(nodes: &[Node], exe: &str) -> BTreeMap<(String, String), u64> {
    let mut matrix = BTreeMap::new();
    for node in nodes {
        let caller = node
            .parent
            .map_or(exe.to_owned(), |p| nodes[p].library.clone());
        *matrix.entry((caller, node.library.clone())).or_default() += 1;
    }
    matrix
}

fn our_matrix(t: &ThreadComponents) -> BTreeMap<(String, String), u64> {
    t.matrix
        .iter()
        .map(|e| ((e.caller.clone(), e.callee.clone()), e.calls))
        .collect()
}

fn cross_library(matrix: &BTreeMap<(String, String), u64>) -> u64 {
    matrix
        .iter()
        .filter(|((caller, callee), _)| caller != callee)
        .map(|(_, calls)| calls)
        .sum()
}

#[test]
fn the_matrix_holds_the_calls_between_libraries_of_tree_txt() {
    for case in [
        "a-prodcons-mutex-cond-sem",
        "b-nested-callbacks-sync",
        "upstream-unittest-sample",
    ] {
        let text = tree_text(case);
        let exe = executable(case);
        let report = analyse(case);
        let mut all: BTreeMap<(String, String), u64> = BTreeMap::new();
        for (id, nodes) in parse_tree(&text) {
            let expected = reference_matrix(&nodes, &exe);
            let ours = our_matrix(thread(&report, &id));
            assert_eq!(ours, expected, "{case} thread {id}");
            assert_eq!(cross_library(&ours), cross_library(&expected));
            for (key, calls) in expected {
                *all.entry(key).or_default() += calls;
            }
        }
        let ours: BTreeMap<_, _> = report
            .matrix
            .iter()
            .map(|e| ((e.caller.clone(), e.callee.clone()), e.calls))
            .collect();
        assert_eq!(ours, all, "{case}: all threads");
    }
    // The unit-test sample names its images by id: 3 calls from the thread
    // into file21..23, and 4 from file21 and file23 into file31..34.
    let text = tree_text("upstream-unittest-sample");
    let nodes = parse_tree(&text).into_values().next().unwrap();
    assert_eq!(cross_library(&reference_matrix(&nodes, UNNAMED_PROGRAM)), 7);
}

/// Per library: (self, wait, inclusive), replayed from the reference.
fn reference_times(nodes: &[Node], exe: &str) -> BTreeMap<String, (i64, i64, i64)> {
    let mut times: BTreeMap<String, (i64, i64, i64)> = BTreeMap::new();
    for (i, node) in nodes.iter().enumerate() {
        let duration = node.duration.expect("every call returned");
        let children: i64 = nodes
            .iter()
            .filter(|c| c.parent == Some(i))
            .map(|c| c.duration.unwrap())
            .sum();
        let caller = node
            .parent
            .map_or(exe.to_owned(), |p| nodes[p].library.clone());
        if WAITS.contains(&node.name.as_str()) {
            times.entry(caller).or_default().1 += duration - children;
        } else {
            times.entry(node.library.clone()).or_default().0 += duration - children;
        }
        // Outermost call of its library: no ancestor of the same library.
        let mut up = node.parent;
        let mut outermost = true;
        while let Some(p) = up {
            outermost &= nodes[p].library != node.library;
            up = nodes[p].parent;
        }
        if outermost {
            times.entry(node.library.clone()).or_default().2 += duration;
        }
    }
    times
}

#[test]
fn library_times_split_each_threads_time_and_waits_are_the_wait_calls() {
    for case in ["a-prodcons-mutex-cond-sem", "b-nested-callbacks-sync"] {
        let text = tree_text(case);
        let exe = executable(case);
        let report = analyse(case);
        let mut process = 0;
        for (id, nodes) in parse_tree(&text) {
            let ours = thread(&report, &id);
            // The thread's recorded time: its top-level calls.
            let recorded: i64 = nodes
                .iter()
                .filter(|n| n.depth == 1)
                .map(|n| n.duration.unwrap())
                .sum();
            process += recorded;
            assert_eq!(ours.time, recorded, "{case} {id}");
            let inclusive: i64 = ours.libraries.iter().map(|l| l.inclusive).sum();
            assert_eq!(inclusive, recorded, "{case} {id}: inclusive");
            let parts: i64 = ours.libraries.iter().map(|l| l.self_time + l.wait).sum();
            assert_eq!(parts, recorded, "{case} {id}: self + wait");
            // Wait time: the wait calls' durations (they call nothing).
            let wait_calls: Vec<&Node> = nodes
                .iter()
                .filter(|n| WAITS.contains(&n.name.as_str()))
                .collect();
            assert!(!wait_calls.is_empty(), "{case} {id} waits");
            let waited: i64 = wait_calls.iter().map(|n| n.duration.unwrap()).sum();
            let our_wait: i64 = ours.libraries.iter().map(|l| l.wait).sum();
            assert_eq!(our_wait, waited, "{case} {id}: wait");
            let expected = reference_times(&nodes, &exe);
            let ours: BTreeMap<String, (i64, i64, i64)> = ours
                .libraries
                .iter()
                .map(|l| (l.library.clone(), (l.self_time, l.wait, l.inclusive)))
                .collect();
            assert_eq!(ours, expected, "{case} {id}");
            let percent: f64 = thread(&report, &id)
                .libraries
                .iter()
                .map(|l| l.local_percent)
                .sum();
            assert!((percent - 100.0).abs() < 1e-6, "{case} {id}: {percent}");
        }
        assert_eq!(report.time, process, "{case}");
    }
}

#[test]
fn the_main_thread_is_the_one_that_created_the_others() {
    for (case, main) in [
        ("a-prodcons-mutex-cond-sem", "0x7f05e24a6800"),
        ("b-nested-callbacks-sync", "0x7f21368d8800"),
    ] {
        let report = analyse(case);
        let sp = report.serial_parallel.as_ref().expect("several threads");
        assert_eq!(sp.main_thread, main, "{case}");
        assert_eq!(sp.workers as usize, report.threads.len() - 1);
        assert!(thread(&report, main).main);
    }
}

/// uftrace's modules and sp-rtrace's: on every case of theirs, each
/// thread's time (its top-level spans, summed here from the decoded spans)
/// is split without remainder into its components' self and wait times,
/// and every call is counted once.
#[test]
fn uftrace_and_sp_rtrace_threads_are_split_without_remainder() {
    let mut folders = Vec::new();
    for group in ["uftrace", "uftrace-extra"] {
        for case in common::cases(group) {
            folders.push(fixtures().join(group).join(case).join("uftrace.data"));
        }
    }
    for case in ["c-leaks", "c-files-multi", "c-threads-contexts"] {
        folders.push(fixtures().join("rtrace").join(case));
    }
    for folder in folders {
        let trace = decode_files(&read_folder(&folder)).expect("decodes");
        let report = components(&trace, &ComponentsOptions::default());
        for t in &report.threads {
            let spans = &trace.threads[t.index as usize].spans;
            let top: i64 = (0..spans.len())
                .filter(|&i| spans.depth[i] == 0)
                .map(|i| spans.end[i] - spans.start[i])
                .sum();
            assert_eq!(t.time, top, "{folder:?} {}", t.id);
            let parts: i64 = t.libraries.iter().map(|l| l.self_time + l.wait).sum();
            assert_eq!(parts, top, "{folder:?} {}", t.id);
            let calls: u64 = t.libraries.iter().map(|l| l.calls).sum();
            assert_eq!(calls, spans.len() as u64, "{folder:?} {}", t.id);
        }
    }
}

/// sp-rtrace: each call counts for the module of its first backtrace
/// frame, as `sp-rtrace-postproc -r` prints it (`… from /path/module`);
/// calls recorded without a backtrace (here the releases) count for the
/// program (`process=` in the header).
#[test]
fn sp_rtrace_calls_count_for_the_module_that_made_them() {
    let text = common::reference("rtrace", "c-leaks", "postproc-r.txt");
    let program = text
        .split("process=")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|command| command.rsplit('/').next())
        .unwrap()
        .to_owned();
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let is_call = line
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !is_call {
            continue;
        }
        let first_frame = lines.peek().filter(|l| l.starts_with('\t')).copied();
        let module = match first_frame {
            Some(frame) => frame
                .rsplit(" from ")
                .next()
                .and_then(|path| path.rsplit('/').next())
                .unwrap()
                .to_owned(),
            None => program.clone(),
        };
        *expected.entry(module).or_default() += 1;
    }
    let files = read_folder(&fixtures().join("rtrace/c-leaks"));
    let trace = decode_files(&files).expect("decodes");
    let report = components(&trace, &ComponentsOptions::default());
    let ours: BTreeMap<String, u64> = report
        .libraries
        .iter()
        .map(|l| (l.library.clone(), l.calls))
        .collect();
    assert_eq!(ours, expected);
    assert_eq!(expected.get("libc.so.6"), Some(&3));
}
