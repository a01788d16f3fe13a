//! Exports: Chrome trace JSON that trace viewers load, collapsed stacks.

mod common;

use common::decode_case;
use flamedrop_core::export::chrome::to_chrome_json;
use flamedrop_core::export::collapsed::exact;

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
