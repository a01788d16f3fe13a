//! The File, Network and Thread pages (`analysis::activity`) against an
//! independent replay of the raw probe messages of the SWAP scenarios (the
//! stream parsed message by message, paired in the test by the api types of
//! `probeinfo.h`), over the whole trace and over a range; and Scaler's sync
//! objects against the reference dump of the fixture's records.

use flamedrop_core::analysis::activity::{build, summarize, Activity, ActivityKind, State};
use flamedrop_core::formats::swap::messages::{Message, ProbeTail};
use flamedrop_core::formats::swap::parse;
use flamedrop_core::formats::swap::stream::SystemHints;
use flamedrop_core::{decode_files, Trace};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// What the replay expects of one row.
#[derive(Debug, Default, PartialEq, Eq, Clone)]
struct Expected {
    calls: u64,
    failed: u64,
    read: u64,
    written: u64,
    /// Per api type, its probes.
    apis: BTreeMap<u32, u64>,
    /// (state, start, end) pairs.
    intervals: Vec<(State, i64, i64)>,
}

/// One call of a row: time, api type, errno, bytes read, bytes written.
type Call = (i64, u32, u64, u64, u64);

/// One raw probe: time (ns), tid, errno, tail.
type Raw = (i64, u32, u64, ProbeTail);

fn stream(case: &str) -> (Trace, Vec<Raw>) {
    let name = format!("{case}.swap");
    let bytes = std::fs::read(fixtures().join("swap").join(&name)).expect("swap fixture");
    let trace = decode_files(&[(name, bytes.clone())]).expect("decodes as SWAP");
    let probes = parse(&bytes, SystemHints::default())
        .frames
        .into_iter()
        .filter_map(|l| match l.frame.message {
            Message::Probe(p) => Some((l.frame.time.ns(), p.tid, p.errno, p.tail)),
            _ => None,
        })
        .collect();
    (trace, probes)
}

/// Pairs begin / end api types per key into intervals; `pairs` are
/// (begin, end, state); what never ends runs to `last`.
fn replay<K: Ord + Clone>(
    probes: &[(K, i64, u32, u64, u64, u64)],
    pairs: &[(u32, u32, State)],
    last: i64,
) -> BTreeMap<K, Expected> {
    let mut out: BTreeMap<K, Expected> = BTreeMap::new();
    let mut open: BTreeMap<(K, u32), i64> = BTreeMap::new();
    for (key, time, api, errno, read, written) in probes {
        let e = out.entry(key.clone()).or_default();
        e.calls += 1;
        *e.apis.entry(*api).or_default() += 1;
        e.failed += u64::from(*errno != 0);
        if *errno == 0 {
            e.read += read;
            e.written += written;
        }
        for (begin, end, state) in pairs {
            if api == end {
                if let Some(start) = open.remove(&(key.clone(), *begin)) {
                    e.intervals.push((*state, start, *time));
                }
            }
            if api == begin && *errno == 0 {
                open.entry((key.clone(), *begin)).or_insert(*time);
            }
        }
    }
    for ((key, begin), start) in open {
        let state = pairs.iter().find(|p| p.0 == begin).map(|p| p.2);
        if let (Some(e), Some(state)) = (out.get_mut(&key), state) {
            e.intervals.push((state, start, last));
        }
    }
    out
}

/// The calls, bytes and state times of `expected` within `range`.
fn clip(e: &Expected, raw: &[Call], range: (i64, i64)) -> (u64, u64, u64, [i64; 5]) {
    let inside: Vec<_> = raw
        .iter()
        .filter(|r| r.0 >= range.0 && r.0 <= range.1)
        .collect();
    let calls = inside.len() as u64;
    let ok = |r: &&&Call| r.2 == 0;
    let read = inside.iter().filter(ok).map(|r| r.3).sum();
    let written = inside.iter().filter(ok).map(|r| r.4).sum();
    let mut time = [0i64; 5];
    for (state, start, end) in &e.intervals {
        let at = [
            State::Open,
            State::Read,
            State::Write,
            State::Wait,
            State::Held,
        ]
        .iter()
        .position(|s| s == state)
        .unwrap();
        if *start <= range.1 && *end >= range.0 {
            time[at] += end.min(&range.1) - start.max(&range.0);
        }
    }
    (calls, read, written, time)
}

/// Checks every row of `activity` against the replay, keyed by `key_of`.
fn check<K: Ord + Clone + std::fmt::Debug>(
    activity: &Activity,
    expected: &BTreeMap<K, Expected>,
    raw: &BTreeMap<K, Vec<Call>>,
    key_of: impl Fn(usize) -> K,
    range: Option<(i64, i64)>,
) {
    let table = summarize(activity, range);
    let keys: Vec<K> = (0..activity.rows.len()).map(&key_of).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(sorted, expected.keys().cloned().collect::<Vec<_>>(), "rows");
    for (row, key) in keys.iter().enumerate() {
        let e = &expected[key];
        let got = &table[row];
        let (calls, read, written, time) =
            clip(e, &raw[key], range.unwrap_or((i64::MIN / 4, i64::MAX / 4)));
        assert_eq!(
            (got.calls, got.read, got.written),
            (calls, read, written),
            "{key:?} in {range:?}"
        );
        assert_eq!(got.time, time, "{key:?} state times in {range:?}");
        if range.is_none() {
            assert_eq!(got.failed, e.failed, "{key:?}");
            assert_eq!(got.calls, e.calls, "{key:?}");
        }
    }
}

const FILE_PAIRS: [(u32, u32, State); 5] = [
    (0, 1, State::Open),
    (2, 3, State::Read),
    (4, 5, State::Write),
    (14, 15, State::Wait),
    (15, 16, State::Held),
];

fn check_files(case: &str, ranges: &[(i64, i64)]) -> usize {
    let (trace, probes) = stream(case);
    let last = trace.time_range().unwrap().1;
    let mut flat = Vec::new();
    let mut raw: BTreeMap<(String, String), Vec<_>> = BTreeMap::new();
    for (time, tid, errno, tail) in &probes {
        if let ProbeTail::Resource {
            size,
            api_type,
            path,
            ..
        } = tail
        {
            let key = (path.clone(), tid.to_string());
            let (read, written) = match api_type {
                3 => (*size, 0),
                5 => (0, *size),
                _ => (0, 0),
            };
            flat.push((key.clone(), *time, *api_type, *errno, read, written));
            raw.entry(key)
                .or_default()
                .push((*time, *api_type, *errno, read, written));
        }
    }
    let expected = replay(&flat, &FILE_PAIRS, last);
    let activity = build(&trace, ActivityKind::Files);
    let key_of = |r: usize| {
        let row = &activity.rows[r];
        (
            row.object.clone(),
            trace.threads[row.thread as usize].id.clone(),
        )
    };
    check(&activity, &expected, &raw, key_of, None);
    for range in ranges {
        check(&activity, &expected, &raw, key_of, Some(*range));
    }
    expected.len()
}

#[test]
fn every_file_of_the_activity_scenario_per_thread_with_its_counts() {
    let (trace, _) = stream("activity");
    let start = trace.time_range().unwrap().0;
    let ms = 1_000_000;
    let rows = check_files(
        "activity",
        &[
            (start + 9 * ms, start + 41 * ms),
            (start + 60 * ms, start + 200 * ms),
        ],
    );
    // notes.db on main and worker, notes.log on main, the failed open.
    assert_eq!(rows, 4);
}

#[test]
fn every_image_file_of_the_demo_with_its_counts() {
    let (trace, _) = stream("demo");
    let start = trace.time_range().unwrap().0;
    let rows = check_files("demo", &[(start + 20_000_000, start + 45_000_000)]);
    assert_eq!(rows, 8);
}

#[test]
fn a_range_changes_the_file_table() {
    let (trace, _) = stream("activity");
    let start = trace.time_range().unwrap().0;
    let activity = build(&trace, ActivityKind::Files);
    let all: u64 = summarize(&activity, None).iter().map(|r| r.calls).sum();
    let some: u64 = summarize(&activity, Some((start + 9_000_000, start + 41_000_000)))
        .iter()
        .map(|r| r.calls)
        .sum();
    assert!(some > 0 && some < all, "{some} of {all}");
}

#[test]
fn every_socket_of_the_activity_scenario_with_bytes_and_payload() {
    let (trace, probes) = stream("activity");
    let last = trace.time_range().unwrap().1;
    let mut flat = Vec::new();
    let mut raw: BTreeMap<String, Vec<_>> = BTreeMap::new();
    let mut payloads = Vec::new();
    for (time, _, errno, tail) in &probes {
        if let ProbeTail::Network {
            object,
            fd,
            api_type,
            total,
            data,
            ..
        } = tail
        {
            let key = format!("{object:#x} fd {fd}");
            let (read, written) = match api_type {
                3 => (*total, 0),
                5 => (0, *total),
                _ => (0, 0),
            };
            if !data.is_empty() {
                payloads.push(data.clone());
            }
            flat.push((key.clone(), *time, *api_type, *errno, read, written));
            raw.entry(key)
                .or_default()
                .push((*time, *api_type, *errno, read, written));
        }
    }
    // fd open or connect opens (the first one stands), fd close closes.
    let mut opened: Vec<_> = flat.clone();
    for f in &mut opened {
        if f.2 == 8 {
            f.2 = 0;
        }
    }
    let mut expected = replay(
        &opened,
        &[
            (0, 1, State::Open),
            (2, 3, State::Read),
            (4, 5, State::Write),
        ],
        last,
    );
    for (key, e) in &mut expected {
        e.apis = raw[key].iter().fold(BTreeMap::new(), |mut m, r| {
            *m.entry(r.1).or_default() += 1;
            m
        });
    }
    assert_eq!(expected.len(), 2);
    let activity = build(&trace, ActivityKind::Network);
    let key_of = |r: usize| activity.rows[r].object.clone();
    let start = trace.time_range().unwrap().0;
    check(&activity, &expected, &raw, key_of, None);
    check(
        &activity,
        &expected,
        &raw,
        key_of,
        Some((start + 25_000_000, start + 55_000_000)),
    );
    let table = summarize(&activity, None);
    for (row, key) in (0..activity.rows.len()).map(|r| (r, key_of(r))) {
        let sends = expected[&key].apis.get(&5).copied().unwrap_or(0);
        assert_eq!(table[row].calls_of("send end"), sends, "{key}");
        assert_eq!(table[row].calls_of("connect"), 1, "{key}");
    }
    // Each payload is kept whole (all are under the 256 bytes kept) as hex.
    let kept: Vec<String> = activity
        .marks
        .iter()
        .filter_map(|m| {
            let flamedrop_core::analysis::activity::Source::Instant { thread, index } = m.source
            else {
                return None;
            };
            trace.threads[thread as usize]
                .instants
                .details_of(index, &trace.strings)
                .into_iter()
                .find(|f| f.key == "data")
                .map(|f| f.value)
        })
        .collect();
    let hex: Vec<String> = payloads
        .iter()
        .map(|d| d.iter().map(|b| format!("{b:02x}")).collect())
        .collect();
    let (mut kept, mut hex) = (kept, hex);
    kept.sort();
    hex.sort();
    assert_eq!(kept, hex);
}

fn check_sync(case: &str, rows: usize) {
    let (trace, probes) = stream(case);
    let last = trace.time_range().unwrap().1;
    let mut flat = Vec::new();
    let mut raw: BTreeMap<(String, String), Vec<_>> = BTreeMap::new();
    for (time, tid, errno, tail) in &probes {
        if let ProbeTail::Sync {
            object, api_type, ..
        } = tail
        {
            let key = (format!("{object:#x}"), tid.to_string());
            // Condition waits are waits like acquire waits (5/6 as 1/2).
            flat.push((key.clone(), *time, *api_type, *errno, 0, 0));
            raw.entry(key)
                .or_default()
                .push((*time, *api_type, *errno, 0, 0));
        }
    }
    let pairs = [
        (1, 2, State::Wait),
        (2, 3, State::Held),
        (5, 6, State::Wait),
    ];
    let expected = replay(&flat, &pairs, last);
    assert_eq!(expected.len(), rows);
    let activity = build(&trace, ActivityKind::Sync);
    let key_of = |r: usize| {
        let row = &activity.rows[r];
        (
            row.object.clone(),
            trace.threads[row.thread as usize].id.clone(),
        )
    };
    let start = trace.time_range().unwrap().0;
    check(&activity, &expected, &raw, key_of, None);
    check(
        &activity,
        &expected,
        &raw,
        key_of,
        Some((start + 31_000_000, start + 52_000_000)),
    );
}

#[test]
fn every_sync_object_of_the_activity_scenario_per_thread_held_and_waited() {
    // The mutex on main and worker, the condition on main and worker.
    check_sync("activity", 4);
}

#[test]
fn the_demo_workers_mutex_held_and_waited() {
    check_sync("demo", 1);
}

/// Scaler's records of one thread in the reference dump: (name, start,
/// end, first extra field).
fn scaler_records() -> BTreeMap<String, Vec<(String, i64, i64, String)>> {
    let dir = fixtures().join("scaler/a-prodcons-mutex-cond-sem");
    let text = std::fs::read_to_string(dir.join("reference/tree.txt")).unwrap();
    let mut out: BTreeMap<String, Vec<_>> = BTreeMap::new();
    let mut thread = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("== thread_") {
            thread = rest.split(".bin").next().unwrap().to_owned();
            continue;
        }
        let word = |key: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key))
                .map(str::to_owned)
        };
        let (Some(name), Some(start), Some(end), Some(extra)) =
            (word("name="), word("start="), word("end="), word("extra="))
        else {
            continue;
        };
        let first = extra.split(',').next().unwrap().to_owned();
        out.entry(thread.clone()).or_default().push((
            name,
            start.parse().unwrap(),
            end.parse().unwrap(),
            first,
        ));
    }
    out
}

#[test]
fn scalers_sync_objects_per_thread_against_the_reference_records() {
    let dir = fixtures().join("scaler/a-prodcons-mutex-cond-sem");
    let files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    let trace = decode_files(&files).expect("decodes as Scaler");
    let activity = build(&trace, ActivityKind::Sync);
    let table = summarize(&activity, None);
    // Expected per (thread, object): calls, wait time (blocking calls'
    // durations), held time (mutex lock return → next unlock's start).
    let mut expected: BTreeMap<(String, String), (u64, i64, i64)> = BTreeMap::new();
    for (thread, mut records) in scaler_records() {
        records.sort_by_key(|r| r.1);
        let mut locked: Option<i64> = None;
        for (name, start, end, first) in records {
            let kind = match name.as_str() {
                n if n.starts_with("pthread_mutex") => "mutex",
                n if n.starts_with("pthread_cond") => "cond",
                n if n.starts_with("sem_") => "sem",
                "pthread_join" => "thread",
                _ => continue,
            };
            let e = expected
                .entry((thread.clone(), format!("{kind} {first}")))
                .or_default();
            e.0 += 1;
            let waits = matches!(
                name.as_str(),
                "pthread_mutex_lock" | "pthread_cond_wait" | "sem_wait" | "pthread_join"
            );
            if waits {
                e.1 += end - start;
            }
            match name.as_str() {
                "pthread_mutex_lock" => locked = Some(end),
                "pthread_mutex_unlock" => {
                    if let Some(at) = locked.take() {
                        e.2 += start - at;
                    }
                }
                _ => {}
            }
        }
    }
    let got: BTreeMap<(String, String), (u64, i64, i64)> = activity
        .rows
        .iter()
        .zip(&table)
        .map(|(row, s)| {
            let tid = trace.threads[row.thread as usize].id.clone();
            (
                (tid, row.object.clone()),
                (s.calls, s.time_in(State::Wait), s.time_in(State::Held)),
            )
        })
        .collect();
    // The condition waits move the mutex's hold: compare calls and waits
    // everywhere, held time where no condition wait took the mutex.
    // Mutex, cond and sem on the three workers, joins on main.
    assert_eq!(expected.len(), 11, "{expected:?}");
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );
    let cond_waiters: Vec<&String> = expected
        .keys()
        .filter(|k| k.1.starts_with("cond"))
        .map(|k| &k.0)
        .collect();
    for (key, e) in &expected {
        let g = got[key];
        assert_eq!((g.0, g.1), (e.0, e.1), "{key:?}");
        if !(key.1.starts_with("mutex") && cond_waiters.contains(&&key.0)) {
            assert_eq!(g.2, e.2, "{key:?} held");
        }
    }
    // Per object, the calls over every thread are the sync-objects table's.
    let objects = trace
        .tables
        .iter()
        .find(|t| t.id == "sync-objects")
        .unwrap();
    assert_eq!(objects.rows.len(), 3);
    for row in &objects.rows {
        let object = format!("{} {}", row[0], row[1]);
        let calls: u64 = got
            .iter()
            .filter(|(k, _)| k.1 == object)
            .map(|(_, v)| v.0)
            .sum();
        assert_eq!(calls.to_string(), row[3], "{object}");
    }
}

#[test]
fn the_timeline_has_per_core_counters_startup_stages_and_screen_markers() {
    let (trace, probes) = stream("activity");
    // MSG_SYSTEM every 10 ms with two CPUs: a load and a frequency track per core.
    for name in [
        "CPU 0 load",
        "CPU 1 load",
        "CPU 0 frequency",
        "CPU 1 frequency",
    ] {
        let c = trace.counters.iter().find(|c| c.name == name).expect(name);
        // Twelve samples; a run of equal values keeps only its first and
        // last (`TraceBuilder::counter_level`), so the track still reaches
        // from the first sample to the last.
        let first_to_last = c.time.last().zip(c.time.first()).map(|(l, f)| l - f);
        assert_eq!(first_to_last, Some(110_000_000), "{name}");
        // The recording keeps core 1 at 800 MHz: two points; the rest change
        // at every sample.
        let points = if name == "CPU 1 frequency" { 2 } else { 12 };
        assert_eq!(c.time.len(), points, "{name}");
    }
    // The two setup stages are spans on the startup lane.
    let startup = trace
        .threads
        .iter()
        .find(|t| t.id.ends_with("startup"))
        .expect("startup lane");
    assert_eq!(startup.spans.len(), 2);
    // The touch and the screenshot are markers with their fields.
    let screen: Vec<&ProbeTail> = probes
        .iter()
        .map(|p| &p.3)
        .filter(|t| matches!(t, ProbeTail::UiEvent { .. } | ProbeTail::Screenshot { .. }))
        .collect();
    assert_eq!(screen.len(), 2);
    let main = trace.threads.iter().find(|t| t.id == "1234").unwrap();
    let names: Vec<&str> = main.instants.name.iter().map(|&n| trace.str(n)).collect();
    assert!(
        names.iter().any(|n| n.starts_with("UI event touch: ")),
        "{names:?}"
    );
    let shot = names
        .iter()
        .position(|n| n.starts_with("screenshot: "))
        .expect("screenshot");
    let fields = main.instants.details_of(shot as u32, &trace.strings);
    assert!(fields
        .iter()
        .any(|f| f.key == "image on target" && f.value == "/tmp/da/screenshot_1.png"));
}
