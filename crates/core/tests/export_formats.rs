//! Exports: Chrome trace JSON that trace viewers load, collapsed stacks.

mod common;

use common::decode_case;
use flamedrop_core::export::chrome::to_chrome_json;
use flamedrop_core::export::collapsed::exact;
use flamedrop_core::export::speedscope::to_speedscope_json;
use flamedrop_core::model::{Format, TimeUnit, Trace, TraceBuilder};

#[test]
fn chrome_json_has_the_structure_perfetto_and_chrome_tracing_read() {
    for case in ["a-simple-nested", "c-pthreads-mutex", "f-args-explicit"] {
        let trace = decode_case("uftrace", case);
        let json: serde_json::Value =
            serde_json::from_str(&to_chrome_json(&trace)).expect("valid JSON");
        let events = json["traceEvents"].as_array().expect("traceEvents array");
        let spans: usize = trace.threads.iter().map(|t| t.spans.len()).sum();
        let complete: Vec<&serde_json::Value> = events.iter().filter(|e| e["ph"] == "X").collect();
        assert_eq!(complete.len(), spans, "{case}: one X event per span");
        for e in &complete {
            assert!(e["name"].is_string() && e["pid"].is_u64() && e["tid"].is_u64());
            assert!(e["ts"].as_f64().is_some() && e["dur"].as_f64().is_some_and(|d| d >= 0.0));
        }
        let names = events
            .iter()
            .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
            .count();
        assert_eq!(names, trace.threads.len());
        assert_eq!(json["displayTimeUnit"], "ns");
    }
}

#[test]
fn chrome_json_carries_arguments() {
    let trace = decode_case("uftrace", "f-args-explicit");
    let json: serde_json::Value =
        serde_json::from_str(&to_chrome_json(&trace)).expect("valid JSON");
    let add = json["traceEvents"]
        .as_array()
        .expect("array")
        .iter()
        .find(|e| e["name"] == "add_int")
        .expect("add_int");
    assert_eq!(add["args"]["args"], "1, 2");
    assert_eq!(add["args"]["return"], "3");
}

#[test]
fn exact_collapsed_stacks_add_up_to_the_thread_time() {
    let trace = decode_case("uftrace", "a-simple-nested");
    let text = exact(&trace);
    let total: i64 = text
        .lines()
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<i64>().ok())
        .sum();
    let s = &trace.threads[0].spans;
    let top: i64 = (0..s.len())
        .filter(|&i| s.depth[i] == 0)
        .map(|i| s.end[i] - s.start[i])
        .sum();
    assert_eq!(total, top);
    assert!(text.contains("main;top;mid;leaf "));
}

#[test]
fn speedscope_json_has_one_evented_profile_per_thread_with_balanced_events() {
    for case in ["a-simple-nested", "c-pthreads-mutex", "j-setjmp-longjmp"] {
        let group = if case.starts_with('j') {
            "uftrace-extra"
        } else {
            "uftrace"
        };
        let trace = decode_case(group, case);
        let doc: serde_json::Value =
            serde_json::from_str(&to_speedscope_json(&trace)).expect("valid JSON");
        let frames = doc["shared"]["frames"].as_array().expect("frames").len();
        let profiles = doc["profiles"].as_array().expect("profiles");
        let threads = trace.threads.iter().filter(|t| !t.spans.is_empty()).count();
        assert_eq!(profiles.len(), threads, "{case}");
        for profile in profiles {
            assert_eq!(profile["type"], "evented");
            assert_eq!(profile["unit"], "nanoseconds");
            let (start, end) = (
                profile["startValue"].as_i64().expect("startValue"),
                profile["endValue"].as_i64().expect("endValue"),
            );
            let mut stack = Vec::new();
            let mut last = start;
            for e in profile["events"].as_array().expect("events") {
                let at = e["at"].as_i64().expect("at");
                let frame = e["frame"].as_u64().expect("frame") as usize;
                assert!(frame < frames && at >= last && at <= end, "{case}: {e}");
                last = at;
                match e["type"].as_str() {
                    Some("O") => stack.push(frame),
                    Some("C") => assert_eq!(stack.pop(), Some(frame), "{case}: {e}"),
                    other => panic!("{case}: event type {other:?}"),
                }
            }
            assert!(stack.is_empty(), "{case}: every open frame closes");
        }
    }
}

/// A trace with only samples and allocations, as sampling formats produce.
fn samples_and_allocations() -> Trace {
    let mut b = TraceBuilder::new(Format::SpRtrace, TimeUnit::Us);
    let p = b.process("7", "app");
    let t = b.thread(p, "7", "app");
    let (main, alloc) = (b.intern("main"), b.intern("make;buffer"));
    let stack = b.stack(&[main, alloc]).expect("stack");
    let set = b.sample_set("CPU samples", Some(t), &["samples"]);
    b.sample(set, Some(5), stack, &[2]);
    b.sample(set, Some(9), stack, &[1]);
    let heap = b.resource("memory", "bytes");
    let block = b.allocate(heap, t, 3, 100, 0x10, stack);
    b.free(heap, block, 8);
    b.allocate(heap, t, 4, 50, 0x20, stack);
    b.finish()
}

#[test]
fn every_export_carries_samples_and_allocations() {
    let trace = samples_and_allocations();
    let chrome: serde_json::Value =
        serde_json::from_str(&to_chrome_json(&trace)).expect("chrome JSON");
    let samples = chrome["samples"].as_array().expect("samples");
    assert_eq!(samples.len(), 2);
    let frame = samples[0]["sf"].as_str().expect("sf");
    assert_eq!(chrome["stackFrames"][frame]["name"], "make;buffer");
    let live: Vec<i64> = chrome["traceEvents"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["ph"] == "C")
        .filter_map(|e| e["args"]["value"].as_i64())
        .collect();
    assert_eq!(live, [100, 150, 50]);

    let collapsed = exact(&trace);
    assert!(collapsed.contains("CPU samples (samples);main;make:buffer 3\n"));
    assert!(collapsed.contains("memory allocations (bytes);main;make:buffer 150\n"));

    let speedscope: serde_json::Value =
        serde_json::from_str(&to_speedscope_json(&trace)).expect("speedscope JSON");
    let kinds: Vec<&str> = speedscope["profiles"]
        .as_array()
        .expect("profiles")
        .iter()
        .filter_map(|p| p["unit"].as_str())
        .collect();
    assert_eq!(kinds, ["none", "bytes"]);
}
