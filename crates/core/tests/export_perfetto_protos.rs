//! Our Perfetto and pprof exports read back with Perfetto's own `.proto`
//! files: `perfetto/trace/trace.proto` and `third_party/pprof/profile.proto`
//! as the `perfetto_protos` crate ships them (its source is fetched through
//! `tests/perfetto-protos/Cargo.toml`, never built), compiled here with
//! protox and decoded as dynamic messages. Every field we write must be one
//! those files declare (no unknown fields anywhere), and the track, slice,
//! instant and counter counts must equal the trace's, the flows must be
//! Scaler's joins of recorded threads as its reference dump lists them
//! (none elsewhere), and the pprof profile's `calls` column the report's
//! calls.

mod common;

use common::{decode_input, fixture_inputs};
use flamedrop_core::analysis::report::report;
use flamedrop_core::export::perfetto::to_perfetto;
use flamedrop_core::export::pprof::to_pprof;
use flamedrop_core::model::{Trace, NEVER_FREED};
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, ReflectMessage, Value};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::PathBuf;
use std::process::Command;

/// The fetched `perfetto_protos` source: its `.proto` files import each
/// other as `protos/perfetto/...`.
fn protos_root() -> PathBuf {
    let manifest = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/perfetto-protos/Cargo.toml"
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(manifest)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let packages = metadata["packages"].as_array().expect("packages");
    let package = packages
        .iter()
        .find(|p| p["name"] == "perfetto_protos")
        .expect("perfetto_protos in the metadata");
    let manifest = PathBuf::from(package["manifest_path"].as_str().expect("a path"));
    manifest.parent().expect("its folder").to_owned()
}

fn compile(file: &str) -> DescriptorPool {
    let mut compiler = protox::Compiler::new([protos_root()]).expect("include path");
    compiler.include_imports(true);
    compiler
        .open_file(file)
        .expect("Perfetto's .proto compiles");
    compiler.descriptor_pool()
}

fn message(pool: &DescriptorPool, name: &str) -> MessageDescriptor {
    pool.get_message_by_name(name).expect("the message")
}

/// Fails on a field the `.proto` files do not declare, at any depth.
fn assert_all_known(message: &DynamicMessage, path: &str) {
    let unknown: Vec<u32> = message.unknown_fields().map(|f| f.number()).collect();
    assert!(unknown.is_empty(), "{path}: unknown fields {unknown:?}");
    for (field, value) in message.fields() {
        let inner = format!("{path}.{}", field.name());
        match value {
            Value::Message(m) => assert_all_known(m, &inner),
            Value::List(items) => {
                for item in items {
                    if let Value::Message(m) = item {
                        assert_all_known(m, &inner);
                    }
                }
            }
            _ => {}
        }
    }
}

fn list<'m>(message: &'m DynamicMessage, field: &str) -> Vec<&'m DynamicMessage> {
    let Some(descriptor) = message.descriptor().get_field_by_name(field) else {
        return Vec::new();
    };
    match message.get_field(&descriptor) {
        Cow::Borrowed(Value::List(items)) => items.iter().filter_map(Value::as_message).collect(),
        _ => Vec::new(),
    }
}

fn sub<'m>(message: &'m DynamicMessage, field: &str) -> Option<&'m DynamicMessage> {
    if !message.has_field_by_name(field) {
        return None;
    }
    let descriptor = message.descriptor().get_field_by_name(field)?;
    match message.get_field(&descriptor) {
        Cow::Borrowed(Value::Message(m)) => Some(m),
        _ => None,
    }
}

#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    process_tracks: usize,
    thread_tracks: usize,
    counter_tracks: usize,
    slices: usize,
    instants: usize,
    counter_values: usize,
}

/// Counted from the trace: a slice per span, an instant per marker, a
/// counter track per counter and per allocated resource (its live total,
/// one value per distinct allocation or free time).
fn model_counts(trace: &Trace) -> Counts {
    let live_points: usize = trace
        .allocations
        .iter()
        .map(|a| {
            let freed = a.free_time.iter().filter(|&&t| t != NEVER_FREED);
            a.time.iter().chain(freed).collect::<BTreeSet<_>>().len()
        })
        .sum();
    Counts {
        process_tracks: trace.processes.len(),
        thread_tracks: trace.threads.len(),
        counter_tracks: trace.counters.len() + trace.allocations.len(),
        slices: trace.threads.iter().map(|t| t.spans.len()).sum(),
        instants: trace.threads.iter().map(|t| t.instants.len()).sum(),
        counter_values: trace.counters.iter().map(|c| c.time.len()).sum::<usize>() + live_points,
    }
}

/// Counted from the decoded `perfetto.protos.Trace`, by Perfetto's names.
fn exported_counts(exported: &DynamicMessage) -> Counts {
    let mut counts = Counts::default();
    for packet in list(exported, "packet") {
        if let Some(track) = sub(packet, "track_descriptor") {
            counts.process_tracks += usize::from(track.has_field_by_name("process"));
            counts.thread_tracks += usize::from(track.has_field_by_name("thread"));
            counts.counter_tracks += usize::from(track.has_field_by_name("counter"));
        }
        if let Some(event) = sub(packet, "track_event") {
            let kind = event.get_field_by_name("type").map(|v| v.into_owned());
            let kind = kind.and_then(|v| v.as_enum_number());
            let name = |n: i32| {
                event
                    .descriptor()
                    .get_field_by_name("type")
                    .and_then(|f| f.kind().as_enum().and_then(|e| e.get_value(n)))
                    .map(|v| v.name().to_owned())
            };
            match kind.and_then(name).as_deref() {
                Some("TYPE_SLICE_BEGIN") => counts.slices += 1,
                Some("TYPE_INSTANT") => counts.instants += 1,
                Some("TYPE_COUNTER") => counts.counter_values += 1,
                _ => {}
            }
        }
    }
    counts
}

#[test]
fn perfetto_exports_read_back_with_perfettos_own_trace_proto() {
    let pool = compile("protos/perfetto/trace/trace.proto");
    let trace_message = message(&pool, "perfetto.protos.Trace");
    for (group, case, path) in fixture_inputs() {
        let trace = decode_input(&path);
        let bytes = to_perfetto(&trace);
        let exported = DynamicMessage::decode(trace_message.clone(), &bytes[..])
            .unwrap_or_else(|e| panic!("{group}/{case}: {e}"));
        assert_all_known(&exported, &format!("{group}/{case}"));
        assert_eq!(
            exported_counts(&exported),
            model_counts(&trace),
            "{group}/{case}"
        );
    }
}

/// A flow's events: (timestamp, track) where it leaves and where it ends.
#[derive(Debug, Default)]
struct FlowEnds {
    leaves: Vec<(u64, u64)>,
    ends: Vec<(u64, u64)>,
}

fn numbers(message: &DynamicMessage, field: &str) -> Vec<u64> {
    match message.get_field_by_name(field).as_deref() {
        Some(Value::List(items)) => items.iter().filter_map(Value::as_u64).collect(),
        _ => Vec::new(),
    }
}

/// Every flow id of the decoded trace with where it leaves and ends.
fn exported_flows(exported: &DynamicMessage) -> BTreeMap<u64, FlowEnds> {
    let mut flows: BTreeMap<u64, FlowEnds> = BTreeMap::new();
    for packet in list(exported, "packet") {
        let Some(event) = sub(packet, "track_event") else {
            continue;
        };
        let time = packet
            .get_field_by_name("timestamp")
            .and_then(|v| v.as_u64());
        let track = event
            .get_field_by_name("track_uuid")
            .and_then(|v| v.as_u64());
        let at = (time.unwrap_or_default(), track.unwrap_or_default());
        for id in numbers(event, "flow_ids") {
            flows.entry(id).or_default().leaves.push(at);
        }
        for id in numbers(event, "terminating_flow_ids") {
            flows.entry(id).or_default().ends.push(at);
        }
    }
    flows
}

/// The joins of a Scaler case's reference dump whose joined `pthread_t`
/// (the record's first extra field) has a thread file in the case.
fn joins_of_recorded_threads(case: &std::path::Path) -> usize {
    let Ok(tree) = std::fs::read_to_string(case.join("reference/tree.txt")) else {
        return 0;
    };
    let joins = [
        "name=pthread_join",
        "name=pthread_tryjoin_np",
        "name=pthread_timedjoin_np",
        "name=pthread_clockjoin_np",
    ];
    tree.lines()
        .filter(|line| line.split_whitespace().any(|w| joins.contains(&w)))
        .filter_map(|line| {
            let extra = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("extra="))?;
            let joined = extra.split(',').next()?;
            Some(case.join(format!("thread_{joined}.bin")).is_file())
        })
        .filter(|&recorded| recorded)
        .count()
}

#[test]
fn perfetto_flows_are_scalers_joins_of_recorded_threads() {
    let pool = compile("protos/perfetto/trace/trace.proto");
    let trace_message = message(&pool, "perfetto.protos.Trace");
    let mut joins = 0;
    for (group, case, path) in fixture_inputs() {
        let trace = decode_input(&path);
        let exported = DynamicMessage::decode(trace_message.clone(), &to_perfetto(&trace)[..])
            .unwrap_or_else(|e| panic!("{group}/{case}: {e}"));
        let flows = exported_flows(&exported);
        let expected = if group == "scaler" {
            joins_of_recorded_threads(&path)
        } else {
            0
        };
        assert_eq!(flows.len(), expected, "{group}/{case}: {flows:?}");
        for (id, ends) in &flows {
            let what = format!("{group}/{case} flow {id}");
            assert_eq!((ends.leaves.len(), ends.ends.len()), (1, 1), "{what}");
            let ((left, from), (ended, to)) = (ends.leaves[0], ends.ends[0]);
            assert!(left <= ended, "{what}: ends before it leaves");
            assert_ne!(from, to, "{what}: between two threads");
        }
        joins += expected;
    }
    assert!(joins >= 4, "{joins} joins in the Scaler fixtures");
}

#[test]
fn pprof_exports_read_back_with_the_profile_proto_perfetto_ships() {
    let pool = compile("protos/third_party/pprof/profile.proto");
    let profile_message = message(&pool, "perfetto.third_party.perftools.profiles.Profile");
    let mut with_calls = 0;
    for (group, case, path) in fixture_inputs() {
        let trace = decode_input(&path);
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(&to_pprof(&trace)[..])
            .read_to_end(&mut bytes)
            .expect("gunzips");
        let profile = DynamicMessage::decode(profile_message.clone(), &bytes[..])
            .unwrap_or_else(|e| panic!("{group}/{case}: {e}"));
        assert_all_known(&profile, &format!("{group}/{case}"));
        // The `calls` column adds up to the report's calls.
        let strings: Vec<String> = match profile.get_field_by_name("string_table") {
            Some(v) => match v.as_ref() {
                Value::List(items) => items
                    .iter()
                    .map(|s| s.as_str().unwrap_or_default().to_owned())
                    .collect(),
                _ => Vec::new(),
            },
            None => Vec::new(),
        };
        let column = list(&profile, "sample_type").iter().position(|t| {
            let id = t.get_field_by_name("type").and_then(|v| v.as_i64());
            id.and_then(|i| strings.get(i as usize)).map(String::as_str) == Some("calls")
        });
        let Some(column) = column else { continue };
        let calls: i64 = list(&profile, "sample")
            .iter()
            .filter_map(|s| match s.get_field_by_name("value")?.as_ref() {
                Value::List(values) => values.get(column)?.as_i64(),
                _ => None,
            })
            .sum();
        let expected: u64 = report(&trace).functions.iter().map(|f| f.calls).sum();
        assert_eq!(calls as u64, expected, "{group}/{case}: calls");
        with_calls += 1;
    }
    assert!(with_calls >= 20, "only {with_calls} fixtures had calls");
}
