//! SELogger values and omniscient steps (`analysis::values`) against the
//! text SELogger's own `LogPrinter` printed for each omniscient binary
//! fixture: every data id's history equals the values the reference prints
//! for it, in order; named variables and fields gather the reference's
//! lines of their data ids (names read from dataids.txt here); stepping
//! forward through a thread visits exactly its reference lines; step over /
//! out hand-picked, and every field / array read's last write replayed from
//! the reference text.

mod common;

use common::{checked, fixtures, read_folder, reference};
use flamedrop_core::analysis::values::{
    last_write, line_values, locations, values, Location, Stepper, PARTIAL_NOTE,
};
use flamedrop_core::{decode_files, Trace};
use std::collections::{BTreeMap, HashMap};

const GROUP: &str = "selogger";

const OMNISCIENT: [&str; 4] = [
    "demo-v040-omni",
    "demo-v051-omnibinary",
    "demo-v060-omnibinary",
    "bridge-v060-omnibinary",
];

/// One LogPrinter line.
#[derive(Debug, Clone, PartialEq)]
struct Line {
    id: i64,
    kind: String,
    thread: String,
    data_id: u32,
    value: String,
}

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split(',')
        .find_map(|f| f.strip_prefix(key))
        .unwrap_or("")
}

/// The reference's lines; the value is the text between `Value=` and the
/// place (the last two fields), for events that print no `method:`.
fn parse_reference(text: &str) -> Vec<Line> {
    text.lines()
        .map(|line| {
            let before_place = line.rsplitn(3, ',').nth(2).unwrap_or("");
            let value = before_place.split_once(",Value=").map_or("", |(_, v)| v);
            Line {
                id: field(line, "EventId=").parse().expect("EventId"),
                kind: field(line, "EventType=").to_owned(),
                thread: field(line, "ThreadId=").to_owned(),
                data_id: field(line, "DataId=").parse().expect("DataId"),
                value: value.to_owned(),
            }
        })
        .collect()
}

fn decode(case: &str) -> Trace {
    checked(decode_files(&read_folder(&fixtures().join(GROUP).join(case))).expect("decodes"))
}

fn case(case: &str) -> (Trace, Vec<Line>) {
    let trace = decode(case);
    let lines = parse_reference(&reference(GROUP, case, "LogPrinter.txt"));
    (trace, lines)
}

fn thread_id(trace: &Trace, thread: u32) -> String {
    trace.threads[thread as usize].id.clone()
}

/// (EventId, ThreadId, value) of a history.
fn history_of(trace: &Trace, location: &Location) -> Vec<(i64, String, String)> {
    let history = values(trace, location);
    assert!(history.complete, "{location:?}");
    history
        .points
        .iter()
        .map(|p| (p.seq, thread_id(trace, p.thread), p.text.clone()))
        .collect()
}

fn reference_history(lines: &[Line], ids: &[u32]) -> Vec<(i64, String, String)> {
    lines
        .iter()
        .filter(|l| ids.contains(&l.data_id))
        .map(|l| (l.id, l.thread.clone(), l.value.clone()))
        .collect()
}

const NO_VALUE_TEXT: [&str; 3] = ["METHOD_ENTRY", "CALL", "INVOKE_DYNAMIC"];

#[test]
fn every_data_id_has_the_values_logprinter_prints() {
    for name in OMNISCIENT {
        let (trace, lines) = case(name);
        let mut ids: BTreeMap<u32, &str> = BTreeMap::new();
        for line in &lines {
            ids.insert(line.data_id, &line.kind);
        }
        let mut checked = 0;
        for (&id, kind) in &ids {
            if NO_VALUE_TEXT.contains(kind) {
                continue;
            }
            let ours = history_of(&trace, &Location::DataId(id));
            assert_eq!(
                ours,
                reference_history(&lines, &[id]),
                "{name} data id {id}"
            );
            checked += 1;
        }
        assert!(checked > 300, "{name}: {checked} data ids");
    }
}

#[test]
fn distinct_values_and_range_of_a_numeric_location() {
    let (trace, lines) = case("demo-v060-omnibinary");
    // The local `fibN`'s store in main … and every LOCAL_STORE of data id 41.
    let history = values(&trace, &Location::DataId(41));
    let texts: Vec<&str> = lines
        .iter()
        .filter(|l| l.data_id == 41)
        .map(|l| l.value.as_str())
        .collect();
    let numbers: Vec<f64> = texts.iter().map(|t| t.parse().expect("int")).collect();
    let mut distinct = texts.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(!texts.is_empty());
    assert_eq!(history.distinct, distinct.len());
    assert_eq!(history.min, numbers.iter().copied().reduce(f64::min));
    assert_eq!(history.max, numbers.iter().copied().reduce(f64::max));
}

/// dataids.txt rows: data id → (method id, event type, attribute text).
fn dataids(case: &str) -> HashMap<u32, (u32, String, String)> {
    let path = fixtures().join(GROUP).join(case).join("dataids.txt");
    let text = std::fs::read_to_string(path).expect("dataids.txt");
    let v06 = case.contains("v060");
    text.lines()
        .filter(|l| !l.starts_with("DataID,"))
        .filter_map(|l| {
            let cols: Vec<&str> = l.split(',').collect();
            let skip = if v06 { 2 } else { 0 };
            let kind = cols.get(5 + skip)?.to_string();
            let rest = cols.get(7 + skip..)?.join(",").replace('"', "");
            Some((cols[0].parse().ok()?, (cols[2].parse().ok()?, kind, rest)))
        })
        .collect()
}

fn attribute<'a>(text: &'a str, keys: &[&str]) -> Option<&'a str> {
    text.split(',').find_map(|item| {
        let (k, v) = item.split_once('=')?;
        keys.contains(&k).then_some(v)
    })
}

#[test]
fn variables_and_fields_gather_the_data_ids_that_name_them() {
    for name in OMNISCIENT {
        let (trace, lines) = case(name);
        let rows = dataids(name);
        // Method of main's `fibN`, and the class of field `calls`.
        let fib = rows
            .iter()
            .filter(|(_, (_, kind, attrs))| {
                kind.starts_with("LOCAL_") && attribute(attrs, &["name", "Name"]) == Some("fibN")
            })
            .map(|(&id, (method, _, _))| (id, *method))
            .collect::<Vec<_>>();
        let calls: Vec<u32> = rows
            .iter()
            .filter(|(_, (kind, _, attrs))| {
                let _ = kind;
                attribute(attrs, &["name", "FieldName"]) == Some("calls")
            })
            .filter(|(_, (_, kind, _))| kind.ends_with("_RESULT") || kind.ends_with("_VALUE"))
            .map(|(&id, _)| id)
            .collect();
        if name.starts_with("bridge") {
            continue;
        }
        assert!(!fib.is_empty() && !calls.is_empty(), "{name}");
        let method = fib[0].1;
        let fib_ids: Vec<u32> = fib.iter().map(|&(id, _)| id).collect();
        let ours = history_of(
            &trace,
            &Location::Variable {
                method,
                name: "fibN".into(),
            },
        );
        assert_eq!(ours, reference_history(&lines, &fib_ids), "{name} fibN");
        let ours = history_of(
            &trace,
            &Location::Field {
                owner: "demo.TraceDemo".into(),
                name: "calls".into(),
            },
        );
        let theirs = reference_history(&lines, &calls);
        assert!(theirs.len() > 2, "{name}: calls is read and written");
        assert_eq!(ours, theirs, "{name} calls");
    }
}

#[test]
fn stepping_forward_visits_each_threads_lines_in_order() {
    for name in OMNISCIENT {
        let (trace, lines) = case(name);
        let stepper = Stepper::new(&trace.event_log);
        let steps = stepper.on(&trace.event_log);
        for thread in 0..trace.threads.len() as u32 {
            let id = thread_id(&trace, thread);
            let theirs: Vec<i64> = lines
                .iter()
                .filter(|l| l.thread == id)
                .map(|l| l.id)
                .collect();
            let Some(&first) = theirs.first() else {
                continue;
            };
            let mut at = u32::try_from(first).expect("binary event ids are indexes");
            let mut ours = vec![trace.event_log.seq_of(at as usize)];
            while let Some(next) = steps.next(at) {
                ours.push(trace.event_log.seq_of(next as usize));
                at = next;
            }
            assert_eq!(ours, theirs, "{name} thread {id}");
        }
    }
}

#[test]
fn step_over_and_out_land_on_the_call_return() {
    let (trace, lines) = case("demo-v060-omnibinary");
    let stepper = Stepper::new(&trace.event_log);
    let steps = stepper.on(&trace.event_log);
    let kind = |id: u32| lines[id as usize].kind.as_str();
    // 1155 CALL primitives (main, line 50); 1163 its entry; 1179 a
    // LOCAL_LOAD in it; 1224 its exit; 1225 main's CALL_RETURN.
    assert_eq!(
        (kind(1155), kind(1163), kind(1225)),
        ("CALL", "METHOD_ENTRY", "CALL_RETURN")
    );
    assert_eq!(steps.step_over(1155), Some(1156));
    assert_eq!(steps.step_over(1162), Some(1225));
    assert_eq!(steps.step_into(1162), Some(1163));
    assert_eq!(steps.step_out(1179), Some(1225));
    assert_eq!(steps.step_out(1224), Some(1225));
    assert_eq!(steps.step_back_out(1179), Some(1162));
    assert_eq!(steps.step_back_over(1225), Some(1162));
    assert_eq!(steps.previous(1225), Some(1224));
}

/// What a field or array access line touches, replayed from the reference
/// lines of one thread before it: (field owner/name or "[]", object, index).
type Target = (String, String, String);

fn target_of(
    lines: &[Line],
    rows: &HashMap<u32, (u32, String, String)>,
    at: usize,
) -> Option<Target> {
    let line = &lines[at];
    let before = |back: usize| {
        lines[..at]
            .iter()
            .rev()
            .filter(|l| l.thread == line.thread)
            .nth(back - 1)
    };
    // Instance fields by object and name (a subclass names an inherited
    // field with its own class), static ones by class and name.
    let field_name = |with_owner: bool| {
        let attrs = &rows.get(&line.data_id)?.2;
        let owner = attribute(attrs, &["owner", "Owner"])?.replace('/', ".");
        let owner = if with_owner { owner } else { String::new() };
        Some(format!(
            "{owner}.{}",
            attribute(attrs, &["name", "FieldName"])?
        ))
    };
    let object = |l: Option<&Line>| l.map(|l| l.value.split(',').next().unwrap_or("").to_owned());
    match line.kind.as_str() {
        "GET_INSTANCE_FIELD_RESULT" | "PUT_INSTANCE_FIELD_VALUE" => {
            Some((field_name(false)?, object(before(1))?, String::new()))
        }
        "GET_STATIC_FIELD" | "PUT_STATIC_FIELD" => {
            Some((field_name(true)?, String::new(), String::new()))
        }
        "ARRAY_LOAD_RESULT" | "ARRAY_STORE_VALUE" => {
            Some(("[]".into(), object(before(2))?, object(before(1))?))
        }
        _ => None,
    }
}

#[test]
fn last_write_of_every_read_is_the_latest_matching_write_of_the_reference() {
    for name in [
        "demo-v040-omni",
        "demo-v051-omnibinary",
        "demo-v060-omnibinary",
    ] {
        let (trace, lines) = case(name);
        let rows = dataids(name);
        let steps = Stepper::new(&trace.event_log);
        let mut found = 0;
        for at in 0..lines.len() {
            let kind = lines[at].kind.as_str();
            if !matches!(
                kind,
                "GET_INSTANCE_FIELD_RESULT" | "GET_STATIC_FIELD" | "ARRAY_LOAD_RESULT"
            ) {
                continue;
            }
            let wanted = target_of(&lines, &rows, at);
            let expected = (0..at).rev().find(|&w| {
                matches!(
                    lines[w].kind.as_str(),
                    "PUT_INSTANCE_FIELD_VALUE" | "PUT_STATIC_FIELD" | "ARRAY_STORE_VALUE"
                ) && target_of(&lines, &rows, w) == wanted
            });
            let ours = last_write(&trace.event_log, &steps, at as u32);
            assert_eq!(ours.map(|e| e as usize), expected, "{name} EventId {at}");
            found += usize::from(expected.is_some());
        }
        assert!(found > 100, "{name}: {found} reads with a last write");
    }
    // Hand-picked (0.6): `calls` read in primitives ← written in <init>;
    // int[] 10 at index 3 ← the store at line 76.
    let (trace, _) = case("demo-v060-omnibinary");
    let steps = Stepper::new(&trace.event_log);
    assert_eq!(last_write(&trace.event_log, &steps, 1174), Some(59));
    assert_eq!(last_write(&trace.event_log, &steps, 1403), Some(1309));
    assert_eq!(last_write(&trace.event_log, &steps, 1401), Some(1309));
}

#[test]
fn locations_and_lines_come_from_dataids() {
    let (trace, lines) = case("demo-v060-omnibinary");
    let all = locations(&trace.event_log);
    let store = all.iter().find(|l| l.data_id == 41).expect("fibN's store");
    assert_eq!(
        (
            store.event_type.as_str(),
            store.place.as_str(),
            store.source.as_str(),
            store.line
        ),
        ("LOCAL_STORE", "demo/TraceDemo:main", "TraceDemo.java", 41)
    );
    assert_eq!(store.name.as_deref(), Some("fibN"));
    assert_eq!(
        store.events as usize,
        lines.iter().filter(|l| l.data_id == 41).count()
    );
    let per_line = line_values(&trace.event_log, store.method);
    let line_41 = per_line.iter().find(|l| l.line == 41).expect("line 41");
    let entry = line_41
        .entries
        .iter()
        .find(|e| e.location.data_id == 41)
        .expect("entry");
    assert_eq!(
        entry.values,
        [lines
            .iter()
            .find(|l| l.data_id == 41)
            .unwrap()
            .value
            .clone()]
    );
}

#[test]
fn near_omniscient_and_frequency_outputs_say_their_values_are_partial() {
    for name in [
        "demo-v060-nearomni-json",
        "demo-v060-freq",
        "demo-v040-nearomni-txt",
    ] {
        let trace = decode(name);
        let history = values(&trace, &Location::DataId(41));
        assert!(!history.complete && history.points.is_empty(), "{name}");
        assert_eq!(history.note, PARTIAL_NOTE);
    }
}

/// LOG$Exceptions: `id,M,<message>` then `id,CS,<cause>`; LOG$String:
/// `id,length,"content"` — read here, independently of the decoder.
fn exception_file(case: &str) -> (HashMap<i64, String>, HashMap<i64, i64>) {
    let path = fixtures()
        .join(GROUP)
        .join(case)
        .join("LOG$Exceptions00001.txt");
    let text = std::fs::read_to_string(path).expect("exceptions file");
    let (mut messages, mut causes) = (HashMap::new(), HashMap::new());
    for line in text.lines() {
        let mut cols = line.splitn(3, ',');
        let (Some(Ok(id)), Some(tag), Some(rest)) =
            (cols.next().map(str::parse::<i64>), cols.next(), cols.next())
        else {
            continue;
        };
        match tag {
            "M" => {
                messages.insert(id, rest.to_owned());
            }
            "CS" => {
                causes.insert(id, rest.split(',').next().unwrap().parse().unwrap());
            }
            _ => {}
        }
    }
    (messages, causes)
}

#[test]
fn exceptions_and_strings_bring_their_message_cause_and_content() {
    let name = "demo-v060-omnibinary";
    let (trace, lines) = case(name);
    let (messages, causes) = exception_file(name);
    let mut thrown = 0;
    for line in lines
        .iter()
        .filter(|l| l.kind == "METHOD_THROW" || l.kind == "CATCH")
    {
        let object: i64 = line.value.split(',').next().unwrap().parse().unwrap();
        let history = values(&trace, &Location::DataId(line.data_id));
        let point = history
            .points
            .iter()
            .find(|p| p.seq == line.id)
            .expect("event");
        let detail = point.detail.as_deref().expect("an exception's message");
        let message = &messages[&object];
        if !message.contains('\n') {
            assert!(detail.starts_with(message.as_str()), "{detail} / {message}");
        }
        let cause = causes.get(&object).copied().unwrap_or(0);
        assert_eq!(detail.contains("; cause: "), cause != 0, "{detail}");
        if cause != 0 {
            assert!(detail.contains(&format!("@{cause}")), "{detail}");
        }
        thrown += 1;
    }
    assert!(thrown > 10, "{thrown} throws and catches");
    // The string constant `"gcd = 21"` is object 8.
    let shown = lines
        .iter()
        .filter(|l| l.value.starts_with("8,objectType=java.lang.String"))
        .map(|l| values(&trace, &Location::DataId(l.data_id)))
        .flat_map(|h| h.points)
        .find(|p| p.text.starts_with("8,"))
        .and_then(|p| p.detail);
    assert_eq!(shown.as_deref(), Some("\"gcd = 21\""));
}

#[test]
fn a_calls_own_values_are_the_reference_lines_of_its_method() {
    let (trace, lines) = case("demo-v060-omnibinary");
    let thread = (0..trace.threads.len() as u32)
        .find(|&t| thread_id(&trace, t) == "0")
        .expect("thread 0");
    let spans = &trace.threads[thread as usize].spans;
    // `primitives` entered at EventId 1163, exits at 1224.
    let span = (0..spans.start.len())
        .filter(|&s| spans.start[s] == 1163)
        .find(|&s| trace.strings.get(spans.name[s]).contains("primitives"))
        .expect("the primitives span") as u32;
    let ours: Vec<(i64, String)> =
        flamedrop_core::analysis::values::span_values(&trace, thread, span, 1000)
            .into_iter()
            .map(|v| (v.seq, v.text))
            .collect();
    // Void returns (descriptor `V` in dataids.txt) carry no value.
    let path = fixtures()
        .join(GROUP)
        .join("demo-v060-omnibinary/dataids.txt");
    let void: Vec<u32> = std::fs::read_to_string(path)
        .expect("dataids.txt")
        .lines()
        .filter(|l| l.split(',').nth(8) == Some("V"))
        .filter_map(|l| l.split(',').next()?.parse().ok())
        .collect();
    let raw = reference(GROUP, "demo-v060-omnibinary", "LogPrinter.txt");
    let theirs: Vec<(i64, String)> = raw
        .lines()
        .zip(&lines)
        .filter(|(text, l)| {
            (1163..=1224).contains(&l.id)
                && l.thread == "0"
                && text.contains(",demo/TraceDemo:primitives,")
                && !void.contains(&l.data_id)
                && !matches!(
                    l.kind.as_str(),
                    "LABEL" | "LINE_NUMBER" | "METHOD_ENTRY" | "CALL" | "INVOKE_DYNAMIC"
                )
        })
        .map(|(_, l)| (l.id, l.value.clone()))
        .collect();
    assert!(theirs.len() > 20, "{}", theirs.len());
    assert_eq!(ours, theirs);
}

/// The call an event belongs to, as the page selects it, is the one the
/// LogPrinter listing attributes the event's row to; a call's first event
/// lies in the call, at its start.
#[test]
fn an_events_call_is_the_listings_and_a_call_starts_at_its_first_event() {
    use flamedrop_core::analysis::listing::{Listing, ListingOptions};
    use flamedrop_core::analysis::values::{first_event_of_span, span_of_event};
    for case in OMNISCIENT {
        let trace = decode(case);
        let listing = Listing::new(&trace, &ListingOptions::default()).expect("listing");
        let mut checked_rows = 0;
        for row in 0..listing.len() {
            let Some(event) = listing.event_of_row(row) else {
                continue;
            };
            let info = listing.info(&trace, row);
            let ours = span_of_event(&trace, event);
            assert_eq!(ours.map(|(_, s)| s), info.span, "{case} event {event}");
            assert_eq!(listing.row_of_event(event), Some(row), "{case}");
            if let Some((thread, span)) = ours {
                let first = first_event_of_span(&trace, thread, span).expect("first event");
                assert!(first <= event, "{case} event {event}");
                let start = trace.threads[thread as usize].spans.start[span as usize];
                assert_eq!(trace.event_log.seq_of(first as usize), start, "{case}");
            }
            checked_rows += 1;
        }
        assert!(checked_rows > 1000, "{case}: {checked_rows}");
    }
}
