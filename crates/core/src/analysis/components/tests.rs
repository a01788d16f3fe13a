//! The attribution on a small made-up Scaler trace whose calls cross
//! libraries (as a BIND_NOW program's do), every number worked out by hand.

use super::*;
use crate::model::{Field, Format, ThreadRef, TimeUnit, TraceBuilder};

/// One call: (start, end, name, library detail, depth-first children).
struct Call(i64, i64, &'static str, Option<&'static str>, Vec<Call>);

fn emit(b: &mut TraceBuilder, t: ThreadRef, call: &Call) {
    let name = b.intern(call.2);
    let span = b.begin(t, call.0, name, 0);
    if let Some(library) = call.3 {
        b.add_detail(t, span, Field::new("library", library));
    }
    for child in &call.4 {
        emit(b, t, child);
    }
    b.end(t, call.1);
}

/// Thread 1 (main): libz's `compress` calls libc's `malloc` and waits on a
/// lock; the program joins, prints and creates a thread. Thread 2: libz's
/// `deflate` calls libc's `memcpy`.
fn trace() -> Trace {
    let mut b = TraceBuilder::new(Format::Scaler, TimeUnit::Us);
    let p = b.process("?", "app");
    let main = b.thread(p, "0x1", "app");
    let worker = b.thread(p, "0x2", "app");
    let libc = Some("libc.so.6");
    let libz = Some("libz.so.1");
    let calls = [
        Call(
            0,
            100,
            "compress",
            libz,
            vec![
                Call(10, 20, "malloc", libc, vec![]),
                Call(30, 50, "pthread_mutex_lock", libc, vec![]),
            ],
        ),
        Call(100, 160, "pthread_join", libc, vec![]),
        Call(160, 170, "printf", None, vec![]),
        Call(170, 175, "pthread_create", None, vec![]),
    ];
    for call in &calls {
        emit(&mut b, main, call);
    }
    let work = Call(
        50,
        90,
        "deflate",
        libz,
        vec![Call(60, 70, "memcpy", libc, vec![])],
    );
    emit(&mut b, worker, &work);
    b.finish()
}

fn row<'a>(rows: &'a [LibraryTime], library: &str) -> &'a LibraryTime {
    rows.iter()
        .find(|r| r.library == library)
        .unwrap_or_else(|| panic!("no {library} in {rows:?}"))
}

#[test]
fn a_call_counts_for_its_library_until_it_calls_another_and_waits_go_to_the_caller() {
    let r = components(&trace(), &ComponentsOptions::default());
    let main = &r.threads[0];
    assert_eq!(main.time, 175);
    assert!(main.main, "the thread that called pthread_create");
    let libz = row(&main.libraries, "libz.so.1");
    assert_eq!(
        (libz.self_time, libz.wait, libz.inclusive, libz.calls),
        (70, 20, 100, 1)
    );
    let libc = row(&main.libraries, "libc.so.6");
    assert_eq!(
        (libc.self_time, libc.wait, libc.inclusive, libc.calls),
        (10, 0, 90, 3)
    );
    let app = row(&main.libraries, "app");
    assert_eq!(
        (app.self_time, app.wait, app.join, app.inclusive),
        (15, 60, 60, 15)
    );
    let parts: i64 = main.libraries.iter().map(|l| l.self_time + l.wait).sum();
    assert_eq!(parts, main.time);
    assert_eq!(r.time, 175 + 40);
    let all_libz = row(&r.libraries, "libz.so.1");
    assert_eq!((all_libz.self_time, all_libz.inclusive), (100, 140));
    assert!((app.local_percent - 75.0 * 100.0 / 175.0).abs() < 1e-9);
    assert!((app.global_percent - 75.0 * 100.0 / 215.0).abs() < 1e-9);
}

#[test]
fn the_matrix_counts_calls_from_caller_library_to_callee_library() {
    let r = components(&trace(), &ComponentsOptions::default());
    let edge = |caller: &str, callee: &str| {
        r.matrix
            .iter()
            .find(|e| e.caller == caller && e.callee == callee)
            .map(|e| (e.calls, e.time))
    };
    assert_eq!(edge("app", "libz.so.1"), Some((2, 140)));
    assert_eq!(edge("libz.so.1", "libc.so.6"), Some((3, 40)));
    assert_eq!(edge("app", "libc.so.6"), Some((1, 60)));
    assert_eq!(edge("app", "app"), Some((2, 15)));
    assert_eq!(r.matrix.len(), 4);
}

#[test]
fn small_components_are_grouped_and_the_range_clips_calls() {
    let options = ComponentsOptions {
        other_below: 10.0,
        ..ComponentsOptions::default()
    };
    let r = components(&trace(), &options);
    // libc keeps 10 + 10 of 215: under 10 %.
    let other = r.libraries.last().expect("an other row");
    assert_eq!(other.library, "other");
    assert_eq!(other.grouped, ["libc.so.6"]);
    assert_eq!(other.self_time, 20);
    let clipped = components(
        &trace(),
        &ComponentsOptions {
            range: Some((15, 40)),
            threads: Some(vec![0]),
            ..ComponentsOptions::default()
        },
    );
    assert_eq!(clipped.time, 25);
    let libc = row(&clipped.libraries, "libc.so.6");
    assert_eq!(libc.self_time, 5);
    let libz = row(&clipped.libraries, "libz.so.1");
    assert_eq!((libz.self_time, libz.wait), (10, 10));
}

#[test]
fn serial_parallel_keeps_the_main_thread_and_averages_the_workers() {
    let r = components(&trace(), &ComponentsOptions::default());
    let sp = r.serial_parallel.expect("two threads");
    assert_eq!((sp.main_thread.as_str(), sp.workers), ("0x1", 1));
    let libz = sp
        .libraries
        .iter()
        .find(|l| l.library == "libz.so.1")
        .unwrap();
    assert_eq!((libz.self_time, libz.wait), (70.0 + 30.0, 20.0));
}

#[test]
fn the_drill_down_tree_adds_up_thread_by_thread() {
    let r = components(&trace(), &ComponentsOptions::default());
    assert_eq!(r.drill.time, r.time);
    let main = &r.drill.children[0];
    assert_eq!(
        (main.kind, main.name.as_str(), main.time),
        (DrillKind::Thread, "0x1", 175)
    );
    let app = main.children.iter().find(|c| c.name == "app").unwrap();
    let join = app
        .children
        .iter()
        .find(|f| f.name == "pthread_join (wait)")
        .unwrap();
    assert_eq!((join.time, join.wait, join.calls), (60, 60, 1));
}

#[test]
fn the_drill_down_tree_groups_small_libraries_and_functions_as_other() {
    let options = ComponentsOptions {
        other_below: 10.0,
        ..ComponentsOptions::default()
    };
    let r = components(&trace(), &options);
    let main = &r.drill.children[0];
    assert_eq!(main.time, 175);
    let names: Vec<&str> = main.children.iter().map(|c| c.name.as_str()).collect();
    // libz 90, app 75, libc 10 (under 10 % of 175).
    assert_eq!(names, ["libz.so.1", "app", "other"]);
    let app = &main.children[1];
    let functions: Vec<(&str, i64)> = app
        .children
        .iter()
        .map(|f| (f.name.as_str(), f.time))
        .collect();
    // printf (10) and pthread_create (5) are each under 17.5.
    assert_eq!(functions, [("pthread_join (wait)", 60), ("other", 15)]);
    let other: Vec<&str> = app.children[1]
        .children
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(other, ["printf", "pthread_create"]);
}

#[test]
fn the_report_goes_through_json_and_back_unchanged() {
    let options = ComponentsOptions {
        other_below: 10.0,
        ..ComponentsOptions::default()
    };
    let r = components(&trace(), &options);
    let text = serde_json::to_string(&r).expect("serializes");
    let back: ComponentsReport = serde_json::from_str(&text).expect("reads back");
    assert_eq!(back, r);
}

#[test]
fn a_thread_chosen_twice_counts_once() {
    let options = ComponentsOptions {
        threads: Some(vec![1, 0, 1, 7]),
        ..ComponentsOptions::default()
    };
    let r = components(&trace(), &options);
    let ids: Vec<&str> = r.threads.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["0x1", "0x2"]);
    assert_eq!(r.time, 215);
}
