//! Decoding in parts (as the page does with two workers) gives the same
//! trace as decoding in one go: same report, same spans and markers per
//! thread, same diagnostics.

mod common;

use common::{cases, fixtures, read_folder};
use flamedrop_core::analysis::report::report;
use flamedrop_core::input::decode_files_in_parts;
use flamedrop_core::{decode_files, Trace};

/// A thread's spans and markers with names spelled out, so traces whose
/// string tables differ in order can be compared.
fn threads_of(trace: &Trace) -> Vec<String> {
    trace
        .threads
        .iter()
        .map(|t| {
            let spans: Vec<String> = (0..t.spans.len())
                .map(|i| {
                    format!(
                        "{} {} {} {} {} {:?}",
                        t.spans.start[i],
                        t.spans.end[i],
                        t.spans.depth[i],
                        trace.str(t.spans.name[i]),
                        t.spans.flags[i],
                        t.spans.details_of(i as u32, &trace.strings)
                    )
                })
                .collect();
            let marks: Vec<String> = (0..t.instants.len())
                .map(|i| {
                    format!(
                        "{} {} {:?}",
                        t.instants.time[i],
                        trace.str(t.instants.name[i]),
                        t.instants.details_of(i as u32, &trace.strings)
                    )
                })
                .collect();
            format!(
                "{} {} {:?} {:?}\n{}\n{}",
                t.id,
                t.events,
                t.first_time,
                t.last_time,
                spans.join("\n"),
                marks.join("\n")
            )
        })
        .collect()
}

fn diagnostics_of(trace: &Trace) -> Vec<String> {
    let mut all: Vec<String> = trace.diagnostics.iter().map(|d| format!("{d:?}")).collect();
    all.sort();
    all
}

fn assert_same(files: &[(String, Vec<u8>)], label: &str) {
    let whole = decode_files(files).expect("decodes");
    for parts in [2, 3] {
        let split = decode_files_in_parts(files, parts).expect("decodes in parts");
        assert_eq!(
            threads_of(&split),
            threads_of(&whole),
            "{label}, {parts} parts"
        );
        assert_eq!(
            diagnostics_of(&split),
            diagnostics_of(&whole),
            "{label}, {parts} parts"
        );
        let (mut a, mut b) = (report(&split), report(&whole));
        a.diagnostics.sort_by(|x, y| x.message.cmp(&y.message));
        b.diagnostics.sort_by(|x, y| x.message.cmp(&y.message));
        assert_eq!(a, b, "{label}, {parts} parts");
    }
}

#[test]
fn every_uftrace_fixture_decodes_the_same_in_parts() {
    let mut split_cases = 0;
    for group in ["uftrace", "uftrace-extra"] {
        for case in cases(group) {
            let dir = fixtures().join(group).join(&case).join("uftrace.data");
            let files = read_folder(&dir);
            let tasks = files.iter().filter(|(p, _)| p.ends_with(".dat")).count();
            split_cases += usize::from(tasks >= 2);
            assert_same(&files, &format!("{group}/{case}"));
        }
    }
    // The multi-task recordings (threads, fork/exec) really were split.
    assert!(
        split_cases >= 2,
        "only {split_cases} cases have several tasks"
    );
}

#[test]
fn a_cut_task_file_decodes_the_same_in_parts() {
    let dir = fixtures().join("uftrace/c-pthreads-mutex/uftrace.data");
    let mut files = read_folder(&dir);
    let dat = files
        .iter_mut()
        .filter(|(p, _)| p.ends_with(".dat"))
        .max_by_key(|(_, d)| d.len())
        .expect("a task file");
    let cut = dat.1.len() / 2 + 5;
    dat.1.truncate(cut);
    assert_same(&files, "c-pthreads-mutex with a cut task file");
}

#[test]
fn an_input_of_another_format_is_decoded_whole() {
    let dir = fixtures().join("scaler");
    let case = std::fs::read_dir(&dir)
        .expect("scaler fixtures")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .expect("a scaler case");
    let files = read_folder(&case);
    let whole = decode_files(&files).expect("decodes");
    let split = decode_files_in_parts(&files, 2).expect("decodes");
    assert_eq!(threads_of(&split), threads_of(&whole));
}
