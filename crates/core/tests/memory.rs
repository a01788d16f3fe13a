//! The memory analyses (`analysis::memory`) against the real sp-rtrace
//! fixtures and the SWAP recordings: peak and end live totals against a
//! replay of the calls written here (the spans' `call` / `resource` / `id`
//! / `size` details, with a plain map of live ids), live-at-end against the
//! leak totals `sp-rtrace-postproc -l` printed, the context filter against
//! `postproc -C`, and the histograms, filters and `rtrace-calltree`
//! weightings on hand-checked cases.

mod common;

use common::{fixtures, rtrace_cases as case_names, rtrace_file};
use flamedrop_core::analysis::memory::{
    self, call_tree, group_by_stack, live_at, live_series, select, size_histogram, summarize,
    MemoryFilter, MemoryQuery, Moment, Weighting,
};
use flamedrop_core::{decode_files, Trace};
use std::collections::{BTreeMap, HashMap};

fn decode(case: &str) -> Trace {
    common::checked(decode_files(&[rtrace_file(case)]).expect("decodes"))
}

fn reference(case: &str, name: &str) -> String {
    common::reference("rtrace", case, name)
}

fn resource_index(trace: &Trace, name: &str) -> u32 {
    trace
        .allocations
        .iter()
        .position(|a| a.resource == name)
        .unwrap_or_else(|| panic!("resource {name}")) as u32
}

fn query(resource: u32) -> MemoryQuery {
    MemoryQuery {
        resource,
        ..MemoryQuery::default()
    }
}

/// Totals of a replay: (peak bytes, blocks at that peak, call of the peak),
/// (end bytes, end blocks), allocations.
#[derive(Debug, Default)]
struct Replay {
    peak: (u64, u64, i64),
    end: (u64, u64),
    allocations: u64,
}

/// Replays one resource's calls from the spans' details: an `alloc` adds
/// its `size` under its `id`, a `free` removes the block of its `id` if
/// one is live (the first live one: ids are reused only after a free).
/// Calls of sp-rtrace's refcounted resources are not in these fixtures.
fn replay(trace: &Trace, resource: &str) -> Replay {
    let spans = &trace.threads[0].spans;
    let mut live: HashMap<String, u64> = HashMap::new();
    let (mut bytes, mut blocks) = (0u64, 0u64);
    let mut out = Replay::default();
    for i in 0..spans.len() {
        let fields = spans.details_of(i as u32, &trace.strings);
        let get = |k: &str| fields.iter().find(|f| f.key == k).map(|f| f.value.clone());
        if get("resource").as_deref() != Some(resource) {
            continue;
        }
        let id = get("id").expect("id");
        match get("call").as_deref() {
            Some("alloc") => {
                let size: u64 = get("size").expect("size").parse().expect("size number");
                live.insert(id, size);
                bytes += size;
                blocks += 1;
                out.allocations += 1;
                if bytes > out.peak.0 {
                    out.peak = (bytes, blocks, spans.start[i]);
                }
            }
            Some("free") => {
                if let Some(size) = live.remove(&id) {
                    bytes -= size;
                    blocks -= 1;
                }
            }
            _ => {}
        }
    }
    out.end = (bytes, blocks);
    out
}

/// Resource → (blocks, bytes).
type Totals = BTreeMap<String, (u64, u64)>;

/// The `-l` summaries: resource → (blocks, bytes), and the leaked calls'
/// sizes per resource from the call lines (`N. [@T] [time] fn<res>(size) = 0x…`).
fn leak_totals(text: &str) -> (Totals, Totals) {
    let mut summary = BTreeMap::new();
    let mut current = None;
    let mut calls: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let default = text
        .lines()
        .find(|l| l.starts_with('<'))
        .and_then(|l| {
            l.split_once(" : ")?
                .1
                .split_once(" (")
                .map(|(t, _)| t.to_owned())
        })
        .unwrap_or_default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# Resource - ") {
            current = rest.split_once(" (").map(|(t, _)| t.to_owned());
        } else if let (Some(r), Some(rest)) = (&current, line.strip_prefix("# ")) {
            let words: Vec<&str> = rest.split_whitespace().collect();
            if words.get(1) == Some(&"block(s)") {
                let blocks = words[0].parse().expect("blocks");
                let bytes = words[words.len() - 2].parse().expect("bytes");
                summary.insert(r.clone(), (blocks, bytes));
            }
        } else if let Some(call) = allocating_call(line) {
            let open = call.find('(').expect("call (");
            let resource = call[..open]
                .split_once('<')
                .map_or(default.clone(), |(_, r)| r.trim_end_matches('>').to_owned());
            let size: u64 = call[open + 1..call.find(')').expect(")")]
                .parse()
                .expect("size");
            let entry = calls.entry(resource).or_default();
            entry.0 += 1;
            entry.1 += size;
        }
    }
    (summary, calls)
}

#[test]
fn peak_and_end_agree_with_a_replay_of_the_calls() {
    let cases = case_names();
    assert_eq!(cases.len(), 5, "{cases:?}");
    for case in cases {
        let trace = decode(&case);
        for (r, a) in trace.allocations.iter().enumerate() {
            let q = query(r as u32);
            let selected = select(&trace, &q).expect("resource");
            assert_eq!(selected.len(), a.len(), "{case} {}", a.resource);
            let series = live_series(&trace, &q, &selected);
            let expected = replay(&trace, &a.resource);
            let what = format!("{case} {}", a.resource);
            assert_eq!(expected.allocations, a.len() as u64, "{what}");
            assert_eq!(series.peak.bytes, expected.peak.0, "{what}: peak bytes");
            assert_eq!(series.peak.blocks, expected.peak.1, "{what}: peak blocks");
            assert_eq!(series.peak.time, expected.peak.2, "{what}: peak call");
            assert_eq!(
                (series.end.bytes, series.end.blocks),
                expected.end,
                "{what}: end"
            );
            let live = live_at(&trace, &q, &selected, Moment::Peak);
            assert_eq!(live.len() as u64, expected.peak.1, "{what}: live at peak");
            let groups = group_by_stack(&trace, r as u32, &live);
            assert_eq!(groups.iter().map(|g| g.bytes).sum::<u64>(), expected.peak.0);
        }
    }
}

#[test]
fn live_at_end_equals_postproc_leak_totals() {
    for case in case_names() {
        let trace = decode(&case);
        let text = reference(&case, "postproc-l.txt");
        let (summary, calls) = leak_totals(&text);
        assert!(!calls.is_empty(), "{case}: leaked calls parsed");
        for (name, &(blocks, bytes)) in &calls {
            let r = resource_index(&trace, name);
            let s = summarize(&trace, &query(r), Moment::End, 10).expect("summary");
            assert_eq!(
                (s.series.end.blocks, s.series.end.bytes),
                (blocks, bytes),
                "{case} {name}"
            );
            let live: u64 = s.live_groups.iter().map(|g| g.blocks).sum();
            assert_eq!(live, blocks, "{case} {name}: live groups at the end");
            // The summary lines are right for the resource ids postproc
            // indexes correctly (see rtrace_golden.rs: ids 1 and 2 only);
            // `memory` is the only resource of the leak cases.
            if calls.len() == 1 {
                assert_eq!(
                    summary.get(name),
                    Some(&(blocks, bytes)),
                    "{case} {name} summary"
                );
            }
        }
    }
}

#[test]
fn size_histogram_counts_every_allocation_once() {
    for case in case_names() {
        let trace = decode(&case);
        for (r, a) in trace.allocations.iter().enumerate() {
            let q = query(r as u32);
            let selected = select(&trace, &q).expect("resource");
            let buckets = size_histogram(&trace, &q, &selected);
            let count: u64 = buckets.iter().map(|b| b.freed_count + b.live_count).sum();
            assert_eq!(count, a.len() as u64, "{case} {}", a.resource);
            let bytes: u64 = buckets.iter().map(|b| b.freed_bytes + b.live_bytes).sum();
            assert_eq!(bytes, a.size.iter().sum::<u64>(), "{case} {}", a.resource);
            let live: u64 = buckets.iter().map(|b| b.live_count).sum();
            let never = a.free_time.iter().filter(|&&f| f == i64::MAX).count() as u64;
            assert_eq!(live, never, "{case} {}", a.resource);
            for b in &buckets {
                let sizes = a.size.iter().filter(|&&s| b.low <= s && s < b.high).count() as u64;
                assert_eq!(b.freed_count + b.live_count, sizes, "{case} bucket {b:?}");
            }
        }
    }
}

/// `fn<res>(size) = 0x…` of an allocating call line
/// `N. [@thread] [[time]] fn<res>(size) = 0x…`.
fn allocating_call(line: &str) -> Option<&str> {
    let (n, mut rest) = line.split_once(". ")?;
    n.parse::<u32>().ok()?;
    if rest.starts_with('@') {
        rest = rest.split_once(' ')?.1;
    }
    if rest.starts_with('[') {
        rest = rest.split_once("] ")?.1;
    }
    rest.contains(") = 0x").then_some(rest)
}

/// Ordinals of the allocating calls (`… = 0x…`) a postproc listing prints.
fn allocating_calls(text: &str) -> Vec<u64> {
    text.lines()
        .filter(|l| l.contains(") = 0x"))
        .filter_map(|l| l.split_once(". ")?.0.parse().ok())
        .collect()
}

#[test]
fn context_filter_keeps_what_postproc_minus_c_lists() {
    let case = "c-threads-contexts";
    let trace = decode(case);
    let r = resource_index(&trace, "memory");
    for mask in [1u32, 2] {
        let q = MemoryQuery {
            resource: r,
            filter: MemoryFilter {
                context: Some(mask),
                ..MemoryFilter::default()
            },
            range: None,
        };
        let selected = select(&trace, &q).expect("resource");
        let ours: Vec<u64> = selected
            .iter()
            .map(|&i| trace.allocations[r as usize].time[i as usize] as u64)
            .collect();
        let file = if mask == 1 {
            "postproc-C1.txt"
        } else {
            "postproc-C2-l.txt"
        };
        let theirs = allocating_calls(&reference(case, file));
        if mask == 1 {
            assert_eq!(ours, theirs, "-C 1: every allocation in context parse");
        } else {
            // -C 2 -l lists the leaked ones: they are ours still live at the end.
            let live = live_at(&trace, &q, &selected, Moment::End);
            let live: Vec<u64> = live
                .iter()
                .map(|&i| trace.allocations[r as usize].time[i as usize] as u64)
                .collect();
            assert_eq!(live, theirs, "-C 2 -l");
        }
    }
    // -C 0 -l: what leaked outside every context.
    let q = MemoryQuery {
        resource: r,
        filter: MemoryFilter {
            context: Some(0),
            ..MemoryFilter::default()
        },
        range: None,
    };
    let s = summarize(&trace, &q, Moment::End, 4).expect("summary");
    let (summary, _) = leak_totals(&reference(case, "postproc-C0-lc.txt"));
    assert_eq!(
        summary.get("memory"),
        Some(&(s.series.end.blocks, s.series.end.bytes))
    );
}

#[test]
fn the_context_column_travels_through_the_codec() {
    let trace = decode("c-threads-contexts");
    let a = &trace.allocations[0];
    assert_eq!(a.context.len(), a.len());
    // One allocation was made with both contexts entered (README).
    assert!(a.context.contains(&3), "{:?}", a.context);
    let back = flamedrop_core::model::codec::decode(&flamedrop_core::model::codec::encode(&trace))
        .expect("decodes");
    assert_eq!(back.allocations[0].context, a.context);
    assert!(decode("c-leaks").allocations[0].context.is_empty());
}

#[test]
fn formats_without_contexts_keep_all_or_nothing() {
    let trace = decode("c-leaks");
    let n = trace.allocations[0].len();
    let with = |context| {
        let q = MemoryQuery {
            resource: 0,
            filter: MemoryFilter {
                context,
                ..MemoryFilter::default()
            },
            range: None,
        };
        select(&trace, &q).expect("resource").len()
    };
    assert_eq!(with(None), n);
    assert_eq!(with(Some(0)), n);
    assert_eq!(with(Some(4)), 0);
}

#[test]
fn size_time_index_and_through_filters_pick_by_hand() {
    let trace = decode("c-leaks");
    let a = &trace.allocations[0];
    let pick = |filter: MemoryFilter| {
        let q = MemoryQuery {
            resource: 0,
            filter,
            range: None,
        };
        select(&trace, &q).expect("resource")
    };
    let by_hand = |keep: &dyn Fn(usize) -> bool| -> Vec<u32> {
        (0..a.len())
            .filter(|&i| keep(i))
            .map(|i| i as u32)
            .collect()
    };
    let sized = pick(MemoryFilter {
        size: Some((64, 1024)),
        ..MemoryFilter::default()
    });
    assert_eq!(sized, by_hand(&|i| (64..=1024).contains(&a.size[i])));
    assert!(!sized.is_empty() && sized.len() < a.len());
    // sp-rtrace: the index is postproc's call number, which is also the
    // decoder's time; the first allocation is call 1.
    let first_ten = pick(MemoryFilter {
        index: Some((1, 10)),
        ..MemoryFilter::default()
    });
    assert_eq!(first_ten, by_hand(&|i| a.time[i] <= 10));
    assert_eq!(
        first_ten,
        pick(MemoryFilter {
            time: Some((0, 10)),
            ..MemoryFilter::default()
        })
    );
    // Through a frame: the allocations whose stack holds a frame of that
    // name (here the caller of the first allocation's function).
    let first = trace.stacks.frames(a.stack[0]);
    let caller = trace.str(first[first.len() - 2]).to_owned();
    let through = by_hand(&|i| {
        trace
            .stacks
            .frames(a.stack[i])
            .iter()
            .any(|&f| trace.str(f) == caller)
    });
    assert!(!through.is_empty() && through.len() < a.len(), "{caller}");
    assert_eq!(
        pick(MemoryFilter {
            through: Some(caller.clone()),
            ..MemoryFilter::default()
        }),
        through
    );
    assert!(pick(MemoryFilter {
        through: Some("no such function".into()),
        ..MemoryFilter::default()
    })
    .is_empty());
}

#[test]
fn a_range_counts_blocks_allocated_before_it_while_live() {
    let trace = decode("c-leaks");
    let a = &trace.allocations[0];
    let (lo, hi) = (a.time[a.len() / 2], a.time[a.len() - 1]);
    let q = MemoryQuery {
        resource: 0,
        filter: MemoryFilter::default(),
        range: Some((lo, hi)),
    };
    let selected = select(&trace, &q).expect("resource");
    let series = live_series(&trace, &q, &selected);
    let live_then = |t: i64| -> (u64, u64) {
        (0..a.len())
            .filter(|&i| a.time[i] <= t && a.free_time[i] > t)
            .fold((0, 0), |(b, n), i| (b + a.size[i], n + 1))
    };
    assert_eq!(series.points[0].time, lo);
    assert_eq!(
        (series.points[0].bytes, series.points[0].blocks),
        live_then(lo)
    );
    for p in &series.points {
        assert!(lo <= p.time && p.time <= hi);
        assert_eq!((p.bytes, p.blocks), live_then(p.time), "at {}", p.time);
    }
    assert_eq!((series.end.bytes, series.end.blocks), live_then(hi));
    let made = memory::allocated_in_range(&trace, &q, &selected);
    assert_eq!(
        made,
        (0..a.len() as u32)
            .filter(|&i| a.time[i as usize] >= lo)
            .collect::<Vec<_>>()
    );
}

#[test]
fn call_tree_weighs_by_bytes_count_and_topmost() {
    let trace = decode("c-leaks");
    let a = &trace.allocations[0];
    let all: Vec<u32> = (0..a.len() as u32).collect();
    let bytes = call_tree(&trace, 0, &all, Weighting::Bytes);
    assert_eq!(bytes.root().total as u64, a.size.iter().sum::<u64>());
    let count = call_tree(&trace, 0, &all, Weighting::Count);
    assert_eq!(count.root().total as usize, a.len());
    assert_eq!(
        count.root().total,
        bytes.nodes.iter().map(|n| n.calls as i64).sum::<i64>()
    );
    // Topmost 1: the backtrace of the highest address, all its blocks.
    let top = (0..a.len())
        .max_by_key(|&i| a.address[i])
        .expect("an allocation");
    let stack = a.stack[top];
    let expected: u64 = (0..a.len())
        .filter(|&i| a.stack[i] == stack)
        .map(|i| a.size[i])
        .sum();
    let topmost = call_tree(&trace, 0, &all, Weighting::Topmost { count: 1 });
    assert_eq!(topmost.root().total as u64, expected);
    let path: Vec<_> = trace.stacks.frames(stack);
    let mut at = 0u32;
    for frame in path {
        at = *topmost.nodes[at as usize]
            .children
            .iter()
            .find(|&&c| topmost.nodes[c as usize].name == frame)
            .expect("the topmost backtrace's frames");
    }
    assert_eq!(topmost.nodes[at as usize].total as u64, expected);
}

#[test]
fn swap_memory_probes_replay_like_the_calls() {
    let dir = fixtures().join("swap");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("swap fixtures") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|x| x != "swap") {
            continue;
        }
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let Ok(trace) = decode_files(&[(name.clone(), std::fs::read(&path).expect("swap"))]) else {
            continue;
        };
        for (r, a) in trace.allocations.iter().enumerate() {
            // A replay of the columns in time order with a plain map.
            let mut events: Vec<(i64, i64, u64)> = Vec::new();
            for i in 0..a.len() {
                events.push((a.time[i], 1, a.size[i]));
                if a.free_time[i] != i64::MAX {
                    events.push((a.free_time[i], -1, a.size[i]));
                }
            }
            events.sort_by_key(|e| e.0);
            let (mut bytes, mut blocks, mut peak) = (0i64, 0i64, (0i64, 0i64, 0i64));
            for (k, e) in events.iter().enumerate() {
                bytes += e.1 * e.2 as i64;
                blocks += e.1;
                let last_at_time = events.get(k + 1).is_none_or(|n| n.0 != e.0);
                if last_at_time && bytes > peak.0 {
                    peak = (bytes, blocks, e.0);
                }
            }
            let q = query(r as u32);
            let selected = select(&trace, &q).expect("resource");
            let s = live_series(&trace, &q, &selected);
            let what = format!("{name} {}", a.resource);
            assert_eq!(
                (s.peak.bytes as i64, s.peak.blocks as i64, s.peak.time),
                peak,
                "{what}"
            );
            assert_eq!(
                (s.end.bytes as i64, s.end.blocks as i64),
                (bytes, blocks),
                "{what}"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "a SWAP fixture with memory or fd probes");
}

/// A small trace by hand (SWAP-like clock): blocks (time, size, freed).
fn hand_built(blocks: &[(i64, u64, Option<i64>)]) -> Trace {
    use flamedrop_core::model::{Format, TimeUnit, TraceBuilder};
    let mut b = TraceBuilder::new(Format::Swap, TimeUnit::Ns);
    let p = b.process("1", "prog");
    let t = b.thread(p, "1", "prog");
    let main = b.intern("main");
    let stack = b.stack(&[main]).expect("stack");
    let heap = b.resource("memory", "bytes");
    for (i, &(time, size, freed)) in blocks.iter().enumerate() {
        let at = b.allocate(heap, t, time, size, 0x1000 + i as u64, stack);
        if let Some(freed) = freed {
            b.free(heap, at, freed);
        }
    }
    b.finish()
}

#[test]
fn rates_count_each_allocation_and_free_in_its_slice() {
    let trace = decode("c-leaks");
    let a = &trace.allocations[0];
    let q = MemoryQuery {
        resource: 0,
        filter: MemoryFilter::default(),
        range: Some((1, 40)),
    };
    let selected = select(&trace, &q).expect("resource");
    let slices = memory::rates(&trace, &q, &selected, 4);
    assert_eq!(slices.len(), 4);
    // [1, 11), [11, 21), [21, 31), [31, 41): ten calls each.
    for (k, s) in slices.iter().enumerate() {
        let (lo, hi) = (1 + 10 * k as i64, 11 + 10 * k as i64);
        assert_eq!((s.start, s.end), (lo, hi));
        let made = (0..a.len()).filter(|&i| lo <= a.time[i] && a.time[i] < hi);
        let freed = (0..a.len()).filter(|&i| lo <= a.free_time[i] && a.free_time[i] < hi);
        assert_eq!(s.allocations, made.clone().count() as u64);
        assert_eq!(s.allocated_bytes, made.map(|i| a.size[i]).sum::<u64>());
        assert_eq!(s.frees, freed.clone().count() as u64);
        assert_eq!(s.freed_bytes, freed.map(|i| a.size[i]).sum::<u64>());
    }
    // Uneven slices still cover the range once: 3 slices of 10 times.
    let q = MemoryQuery {
        range: Some((0, 9)),
        ..q
    };
    let three = memory::rates(&trace, &q, &selected, 3);
    assert_eq!(three.first().map(|s| s.start), Some(0));
    assert_eq!(three.last().map(|s| s.end), Some(10));
    assert!(three.windows(2).all(|w| w[0].end == w[1].start));
    let made: u64 = three.iter().map(|s| s.allocations).sum();
    assert_eq!(
        made,
        (0..a.len()).filter(|&i| a.time[i] <= 9).count() as u64
    );
}

#[test]
fn lifetimes_measure_freed_blocks_and_count_the_live_ones() {
    let trace = decode("c-leaks");
    let a = &trace.allocations[0];
    let q = query(0);
    let selected = select(&trace, &q).expect("resource");
    let l = memory::lifetimes(&trace, &q, &selected);
    let mut spans: Vec<i64> = (0..a.len())
        .filter(|&i| a.free_time[i] != i64::MAX)
        .map(|i| a.free_time[i] - a.time[i])
        .collect();
    spans.sort();
    assert_eq!(l.freed, spans.len() as u64);
    assert_eq!(l.live + l.freed, a.len() as u64);
    assert_eq!(l.buckets.iter().map(|b| b.count).sum::<u64>(), l.freed);
    let mean = spans.iter().sum::<i64>() as f64 / spans.len() as f64;
    assert!((l.mean.expect("mean") - mean).abs() < 1e-9);
    let n = spans.len();
    let median = if n % 2 == 1 {
        spans[n / 2]
    } else {
        (spans[n / 2 - 1] + spans[n / 2]) / 2
    };
    assert_eq!(l.median, Some(median));
    for b in &l.buckets {
        let inside = spans.iter().filter(|&&s| b.low <= s && s < b.high).count() as u64;
        assert_eq!(b.count, inside, "{b:?}");
    }
}

#[test]
fn hand_built_blocks_give_the_numbers_worked_out_here() {
    // 0: 100 B at 10, freed at 20; 1: 0 B at 12, never; 2: 300 B at 15,
    // freed at 40; 3: 5000 B at 20, never.
    let trace = hand_built(&[
        (10, 100, Some(20)),
        (12, 0, None),
        (15, 300, Some(40)),
        (20, 5000, None),
    ]);
    let q = query(0);
    let all = select(&trace, &q).expect("resource");
    let s = live_series(&trace, &q, &all);
    let points: Vec<(i64, u64, u64)> = s
        .points
        .iter()
        .map(|p| (p.time, p.bytes, p.blocks))
        .collect();
    // At 20 the free of block 0 and the allocation of block 3 are one point.
    assert_eq!(
        points,
        [
            (10, 100, 1),
            (12, 100, 2),
            (15, 400, 3),
            (20, 5300, 3),
            (40, 5000, 2)
        ]
    );
    assert_eq!((s.peak.time, s.peak.bytes), (20, 5300));
    assert_eq!((s.end.bytes, s.end.blocks), (5000, 2));
    assert_eq!(live_at(&trace, &q, &all, Moment::At(20)), [1, 2, 3]);
    assert_eq!(live_at(&trace, &q, &all, Moment::At(19)), [0, 1, 2]);
    let sizes = size_histogram(&trace, &q, &all);
    let rows: Vec<(u64, u64, u64, u64)> = sizes
        .iter()
        .filter(|b| b.freed_count + b.live_count > 0)
        .map(|b| (b.low, b.high, b.freed_count, b.live_count))
        .collect();
    assert_eq!(
        rows,
        [
            (0, 1, 0, 1),
            (64, 128, 1, 0),
            (256, 512, 1, 0),
            (4096, 8192, 0, 1)
        ]
    );
    assert_eq!(sizes.first().map(|b| b.low), Some(0));
    assert_eq!(sizes.last().map(|b| b.high), Some(8192));
    assert_eq!(sizes.len(), 14, "[0,1), [1,2), … [4096, 8192)");
    let l = memory::lifetimes(&trace, &q, &all);
    assert_eq!((l.freed, l.live, l.median), (2, 2, Some(17)));
    assert_eq!(l.mean, Some(17.5));
    // In the range [12, 30]: block 0 is live at its start; block 2 is not
    // freed by its end.
    let ranged = MemoryQuery {
        range: Some((12, 30)),
        ..query(0)
    };
    let s = live_series(&trace, &ranged, &all);
    assert_eq!(
        (s.points[0].time, s.points[0].bytes, s.points[0].blocks),
        (12, 100, 2)
    );
    assert_eq!((s.end.time, s.end.bytes, s.end.blocks), (30, 5300, 3));
    let l = memory::lifetimes(&trace, &ranged, &all);
    assert_eq!((l.freed, l.live), (0, 3));
    let summary = summarize(&trace, &ranged, Moment::End, 2).expect("summary");
    assert_eq!(summary.at, 30);
    assert_eq!(summary.live_groups.len(), 1);
    assert_eq!(summary.live_groups[0].bytes, 5300);
    assert_eq!(memory::allocated_in_range(&trace, &ranged, &all), [1, 2, 3]);
    assert_eq!(
        select(
            &trace,
            &MemoryQuery {
                resource: 7,
                ..query(0)
            }
        ),
        Err(memory::MemoryError::NoResource(7))
    );
}
