//! `convert --to perfetto` and `--to pprof` through the built binary: binary
//! output to a file or stdout, the narrowing options applied (uftrace's
//! filters, `--tid`, `-r`, Firefox Profiler's `--transform` steps), the
//! pprof profile's totals equal to `report --json`'s and the Perfetto
//! trace's slices and instants to `--to chrome`'s events under the same
//! options.

mod common;

use common::{fixture, flamedrop, pthreads};
use flamedrop_core::export::pprof::proto::Profile;
use prost::Message;
use std::io::Read;
use std::process::Command;

/// Runs `flamedrop ARGS` and returns its stdout as bytes.
fn flamedrop_bytes(args: &[&str]) -> Vec<u8> {
    let output = Command::new(env!("CARGO_BIN_EXE_flamedrop"))
        .args(args)
        .output()
        .expect("the flamedrop binary runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn profile(gz: &[u8]) -> Profile {
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut bytes)
        .expect("gzip");
    Profile::decode(&bytes[..]).expect("profile.proto")
}

/// The sum of one sample-type column.
fn column_sum(p: &Profile, name: &str) -> i64 {
    let column = p
        .sample_type
        .iter()
        .position(|t| p.string_table[t.r#type as usize] == name)
        .unwrap_or_else(|| panic!("no {name} column"));
    p.sample.iter().map(|s| s.value[column]).sum()
}

/// `report --json`'s self time and calls, summed over its functions.
fn report_sums(args: &[&str]) -> (i64, i64) {
    let run = flamedrop(args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let functions = json["functions"].as_array().expect("functions");
    let sum = |key: &str| functions.iter().map(|f| f[key].as_i64().expect(key)).sum();
    (sum("self"), sum("calls"))
}

#[test]
fn pprof_totals_equal_report_json_whole_and_narrowed() {
    let path = pthreads();
    for narrowing in [&[][..], &["-F", "worker"][..], &["-D", "2"][..]] {
        let convert: Vec<&str> = ["convert", path.as_str(), "--to", "pprof"]
            .into_iter()
            .chain(narrowing.iter().copied())
            .collect();
        let p = profile(&flamedrop_bytes(&convert));
        let report: Vec<&str> = ["report", path.as_str(), "--json"]
            .into_iter()
            .chain(narrowing.iter().copied())
            .collect();
        let (self_time, calls) = report_sums(&report);
        assert_eq!(column_sum(&p, "time"), self_time, "{narrowing:?}");
        assert_eq!(column_sum(&p, "calls"), calls, "{narrowing:?}");
    }
}

#[test]
fn pprof_of_an_rtrace_has_the_allocation_totals() {
    let path = fixture("rtrace/c-leaks");
    let p = profile(&flamedrop_bytes(&["convert", &path, "--to", "pprof"]));
    let run = flamedrop(&["report", &path, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let totals = &json["allocations"];
    assert_eq!(
        column_sum(&p, "alloc_objects"),
        totals["allocs"].as_i64().expect("allocs")
    );
    assert_eq!(
        column_sum(&p, "alloc_space"),
        totals["alloc_bytes"].as_i64().expect("bytes")
    );
    assert_eq!(
        column_sum(&p, "inuse_space"),
        totals["live_bytes"].as_i64().expect("live")
    );
}

/// Perfetto's file is a `Trace` message: a run of field-1 packets, to a file
/// with `-o` as to stdout, and smaller under `-F`.
#[test]
fn perfetto_goes_to_a_file_or_stdout_and_narrows() {
    let path = pthreads();
    let out =
        std::env::temp_dir().join(format!("flamedrop-perfetto-{}.pftrace", std::process::id()));
    let out_text = out.to_string_lossy().into_owned();
    let run = flamedrop(&["convert", &path, "--to", "perfetto", "-o", &out_text]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written = std::fs::read(&out).expect("the -o file");
    let _ = std::fs::remove_file(&out);
    let stdout = flamedrop_bytes(&["convert", &path, "--to", "perfetto"]);
    assert_eq!(written, stdout);
    assert_eq!(
        written.first(),
        Some(&0x0a),
        "Trace.packet, length-delimited"
    );
    let narrowed = flamedrop_bytes(&["convert", &path, "--to", "perfetto", "-F", "worker"]);
    assert!(!narrowed.is_empty() && narrowed.len() < written.len());
}

/// The slices (begin events) and instants of a Perfetto trace.
fn perfetto_events(bytes: &[u8]) -> (usize, usize) {
    use flamedrop_core::export::perfetto::proto;
    let trace = proto::Trace::decode(bytes).expect("a perfetto Trace");
    let kinds: Vec<Option<i32>> = trace
        .packet
        .iter()
        .filter_map(|p| p.track_event.as_ref())
        .map(|e| e.r#type)
        .collect();
    let count = |kind: i32| kinds.iter().filter(|&&k| k == Some(kind)).count();
    (count(proto::TYPE_SLICE_BEGIN), count(proto::TYPE_INSTANT))
}

/// The complete ("X") and instant ("i") events of `convert --to chrome`.
fn chrome_events(args: &[&str]) -> (usize, usize) {
    let text = String::from_utf8(flamedrop_bytes(args)).expect("UTF-8");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let events = json["traceEvents"].as_array().expect("traceEvents");
    let count = |ph: &str| events.iter().filter(|e| e["ph"] == ph).count();
    (count("X"), count("i"))
}

#[test]
fn every_narrowing_option_applies_to_both_exports_as_to_report_and_chrome() {
    let path = pthreads();
    let run = flamedrop(&["report", &path, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let tid = json["threads"][1]["id"]
        .as_str()
        .expect("a thread id")
        .to_owned();
    let whole = flamedrop_bytes(&["convert", &path, "--to", "perfetto"]);
    let narrowings: [&[&str]; 7] = [
        &["--transform", "df:compute"],
        &["--transform", "ff:worker"],
        &["--transform", "mf:pthread_mutex_lock~cr:libc.so.6"],
        &["--tid", &tid],
        &["-N", "pthread_mutex_unlock", "-H", "compute"],
        &["-C", "update_shared"],
        &["-t", "10us"],
    ];
    for narrowing in narrowings {
        let with = |command: &[&'static str]| -> Vec<&str> {
            let mut line = vec![command[0], path.as_str()];
            line.extend(&command[1..]);
            line.extend(narrowing);
            line
        };
        let pprof = profile(&flamedrop_bytes(&with(&["convert", "--to", "pprof"])));
        let (self_time, calls) = report_sums(&with(&["report", "--json"]));
        assert_eq!(column_sum(&pprof, "time"), self_time, "{narrowing:?}");
        assert_eq!(column_sum(&pprof, "calls"), calls, "{narrowing:?}");
        let perfetto = flamedrop_bytes(&with(&["convert", "--to", "perfetto"]));
        assert_ne!(perfetto, whole, "{narrowing:?} narrows");
        let chrome = chrome_events(&with(&["convert", "--to", "chrome"]));
        assert_eq!(perfetto_events(&perfetto), chrome, "{narrowing:?}");
    }
}
