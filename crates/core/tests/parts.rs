//! Decoding in parts (as the page does with two workers) gives the same
//! trace as decoding in one go: same report, same spans and markers per
//! thread, same diagnostics.

mod common;

use common::{cases, fixtures, read_folder};
use flamedrop_core::analysis::report::report;
use flamedrop_core::input::parts_decoded_whole_after_all;
use flamedrop_core::input::{decode_files_in_parts, decode_files_in_parts_chunked, open_decoder};
use flamedrop_core::input::{FileProbe, PROBE_BYTES};
use flamedrop_core::model::codec;
use flamedrop_core::model::Format;
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

/// What part 0 alone makes for the whole input (tables, the event log,
/// allocations, counters, samples).
fn trace_level_of(trace: &Trace) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{} sample sets, {} stacks",
        trace.tables,
        trace.event_log,
        trace.allocations,
        trace.counters,
        trace.sample_sets.len(),
        trace.stacks.len()
    )
}

fn diagnostics_of(trace: &Trace) -> Vec<String> {
    let mut all: Vec<String> = trace.diagnostics.iter().map(|d| format!("{d:?}")).collect();
    all.sort();
    all
}

fn assert_same(files: &[(String, Vec<u8>)], label: &str) {
    assert_same_in(files, label, &[2, 3], 8 << 20);
}

/// Decoding `files` in each of `counts` parts, fed in chunks of `chunk`
/// bytes, gives what decoding them whole gives.
fn assert_same_in(files: &[(String, Vec<u8>)], label: &str, counts: &[usize], chunk: usize) {
    let whole = decode_files(files).expect("decodes");
    for &parts in counts {
        let split = decode_files_in_parts_chunked(files, parts, chunk).expect("decodes in parts");
        // A split uftrace decode's part 0 sees only its own task files (its
        // summary counts and the order of its symbols table follow them);
        // the other formats' part 0 reads the whole input.
        if whole.format != Some(Format::Uftrace) {
            assert_eq!(
                trace_level_of(&split),
                trace_level_of(&whole),
                "{label}, {parts} parts"
            );
            assert_eq!(split.metadata, whole.metadata, "{label}, {parts} parts");
        }
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

/// True when the input's decoder splits it into `parts` parts.
fn splits(files: &[(String, Vec<u8>)], parts: usize) -> bool {
    let probes = files
        .iter()
        .map(|(path, data)| FileProbe {
            path: path.clone(),
            size: data.len() as u64,
            head: data[..data.len().min(PROBE_BYTES)].to_vec(),
        })
        .collect();
    open_decoder(probes).expect("opens").keep_part(0, parts)
}

/// The case folders of fixture group `group` (every sub-folder).
fn folders(group: &str) -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(fixtures().join(group))
        .expect("fixture group")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_selogger_fixture_decodes_the_same_in_one_to_four_parts() {
    let mut split_cases = 0;
    for dir in folders("selogger") {
        let files = read_folder(&dir);
        split_cases += usize::from(splits(&files, 2));
        let label = dir.display().to_string();
        assert_same_in(&files, &label, &[1, 2, 3, 4], 8 << 20);
        // Chunks that cut records and lines at odd places.
        assert_same_in(&files, &label, &[2, 3], 4093);
    }
    // Every omniscient recording (binary or text event stream) was split.
    assert!(split_cases >= 8, "only {split_cases} SELogger cases split");
}

#[test]
fn a_selogger_stream_in_several_files_with_a_cut_record_decodes_the_same_in_parts() {
    let dir = fixtures().join("selogger/demo-v060-omnibinary");
    let mut files = read_folder(&dir);
    let at = files
        .iter()
        .position(|(p, _)| p.ends_with("log-00001.slg"))
        .expect("the event stream");
    let stream = files.remove(at);
    // Three stream files, as SELogger rotates them, the last cut mid-record.
    let (a, rest) = stream.1.split_at(stream.1.len() / 3 / 16 * 16);
    let (b, c) = rest.split_at(rest.len() / 2 / 16 * 16);
    let base = stream.0.trim_end_matches("log-00001.slg").to_owned();
    for (n, bytes) in [a, b, &c[..c.len() - 5]].into_iter().enumerate() {
        files.push((format!("{base}log-0000{}.slg", n + 1), bytes.to_vec()));
    }
    assert!(splits(&files, 2));
    let whole = decode_files(&files).expect("decodes");
    assert!(whole
        .diagnostics
        .iter()
        .any(|d| d.kind == "truncated-record"));
    assert_same_in(&files, "demo-v060-omnibinary in 3 files", &[2, 3, 4], 1000);
}

#[test]
fn a_damaged_selogger_stream_decodes_the_same_in_parts() {
    let dir = fixtures().join("selogger/demo-v051-omnibinary");
    let pristine = read_folder(&dir);
    let stream = pristine
        .iter()
        .position(|(p, _)| p.ends_with(".slg"))
        .expect("the event stream");
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for round in 0..6 {
        let mut files = pristine.clone();
        let bytes = &mut files[stream].1;
        // Overwrite bytes anywhere (garbage thread and data ids, values),
        // then cut the stream at an odd place.
        for _ in 0..40 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let at = (seed >> 33) as usize % bytes.len();
            bytes[at] = (seed >> 17) as u8;
        }
        let keep = bytes.len() - 1 - round * 7;
        bytes.truncate(keep);
        assert_same_in(&files, &format!("damaged stream {round}"), &[2, 3], 777);
    }
}

/// An input's files: path and bytes.
type Files = Vec<(String, Vec<u8>)>;

/// Every SWAP input the tests have: the fixtures written by the encoder's
/// scenarios (`examples/swap-scenarios`), the one without `swap.cpus` both
/// with and without it, and the page's demo.
fn swap_inputs() -> Vec<(String, Files)> {
    let dir = fixtures().join("swap");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("swap fixtures")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "swap"))
        .collect();
    names.sort();
    let mut inputs: Vec<(String, Files)> = names
        .into_iter()
        .map(|p| {
            let name = p.display().to_string();
            let bytes = std::fs::read(&p).expect("swap fixture");
            (name.clone(), vec![(name, bytes)])
        })
        .collect();
    let no_cpus = read_folder(&dir.join("no-cpu-count"));
    let stream_only: Vec<_> = no_cpus
        .iter()
        .filter(|(p, _)| p.ends_with(".swap"))
        .cloned()
        .collect();
    inputs.push(("no-cpu-count with swap.cpus".into(), no_cpus));
    inputs.push(("no-cpu-count alone".into(), stream_only));
    let demo =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/demos/swap-gallery");
    let gallery = read_folder(&demo)
        .into_iter()
        .filter(|(p, _)| p.ends_with(".swap"))
        .collect();
    inputs.push(("swap-gallery demo".into(), gallery));
    inputs
}

/// Every sample of every set, its stack spelled out (part 0 makes the
/// stacks; its string table differs in order from the whole decode's).
fn samples_of(trace: &Trace) -> Vec<String> {
    let frames = |stack: u32| -> Vec<&str> {
        trace
            .stacks
            .frames(stack)
            .into_iter()
            .map(|f| trace.str(f))
            .collect()
    };
    trace
        .sample_sets
        .iter()
        .flat_map(|s| {
            let head = format!("{} {:?} {:?} {}", s.name, s.thread, s.weight_names, s.note);
            let rows = (0..s.stack.len()).map(move |i| {
                format!(
                    "{:?} {:?} {:?}",
                    s.time.get(i),
                    frames(s.stack[i]),
                    s.weights.iter().map(|w| w[i]).collect::<Vec<_>>()
                )
            });
            std::iter::once(head).chain(rows)
        })
        .collect()
}

/// The allocations' stacks spelled out, in order, for every resource.
fn allocation_stacks_of(trace: &Trace) -> Vec<Vec<String>> {
    trace
        .allocations
        .iter()
        .map(|a| {
            a.stack
                .iter()
                .map(|&s| {
                    let names: Vec<&str> = trace
                        .stacks
                        .frames(s)
                        .into_iter()
                        .map(|f| trace.str(f))
                        .collect();
                    names.join(";")
                })
                .collect()
        })
        .collect()
}

/// [`assert_same_in`], and also the samples and allocation stacks by name.
fn assert_same_swap(files: &[(String, Vec<u8>)], label: &str, counts: &[usize], chunk: usize) {
    assert_same_in(files, label, counts, chunk);
    let whole = decode_files(files).expect("decodes");
    for &parts in counts {
        let split = decode_files_in_parts_chunked(files, parts, chunk).expect("decodes in parts");
        assert_eq!(
            samples_of(&split),
            samples_of(&whole),
            "{label}, {parts} parts"
        );
        assert_eq!(
            allocation_stacks_of(&split),
            allocation_stacks_of(&whole),
            "{label}, {parts} parts"
        );
        assert_eq!(
            format!("{:?}", split.processes),
            format!("{:?}", whole.processes),
            "{label}, {parts} parts"
        );
        let lanes = |t: &Trace| -> Vec<(String, String, u32)> {
            t.threads
                .iter()
                .map(|l| (l.id.clone(), l.name.clone(), l.process))
                .collect()
        };
        assert_eq!(lanes(&split), lanes(&whole), "{label}, {parts} parts");
    }
}

#[test]
fn every_swap_fixture_decodes_the_same_in_one_to_four_parts() {
    let inputs = swap_inputs();
    assert!(inputs.len() >= 9, "only {} SWAP inputs", inputs.len());
    for (label, files) in &inputs {
        assert!(splits(files, 2), "{label} was not split");
        assert_same_swap(files, label, &[1, 2, 3, 4], 8 << 20);
        // Chunks that cut headers and payloads at odd places.
        assert_same_swap(files, label, &[2, 3], 4093);
        assert_same_swap(files, label, &[2], 37);
    }
}

/// The messages of a SWAP stream, each with its header (a cut tail kept).
fn swap_messages(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(len) = bytes.get(at + 16..at + 20) {
        let len = u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
        let end = (at + 20 + len).min(bytes.len());
        out.push(&bytes[at..end]);
        at = end;
    }
    out.push(&bytes[at..]);
    out
}

#[test]
fn a_swap_stream_out_of_time_order_decodes_the_same_in_parts() {
    let dir = fixtures().join("swap");
    for name in ["demo.swap", "activity.swap"] {
        let bytes = std::fs::read(dir.join(name)).expect("swap fixture");
        let mut shuffled = swap_messages(&bytes);
        // Neighbours swapped and messages moved far back, past the time of
        // many later ones.
        for i in (0..shuffled.len().saturating_sub(40)).step_by(5) {
            shuffled.swap(i, i + 1);
            if i % 35 == 0 {
                let m = shuffled.remove(i);
                shuffled.insert(i + 30, m);
            }
        }
        let files = vec![(name.to_owned(), shuffled.concat())];
        assert_ne!(files[0].1, bytes, "{name}: nothing was moved");
        assert_same_swap(&files, &format!("{name} reordered"), &[2, 3, 4], 1000);
    }
}

#[test]
fn a_damaged_swap_stream_decodes_the_same_in_parts() {
    let dir = fixtures().join("swap");
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for name in ["demo.swap", "activity.swap", "legacy-3.0.swap"] {
        let pristine = std::fs::read(dir.join(name)).expect("swap fixture");
        for round in 0..4 {
            let mut bytes = pristine.clone();
            // Overwrite bytes (headers, lengths, pids, addresses),
            // then cut the stream at an odd place.
            for _ in 0..30 {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                // The first two headers stay: the stream is still found.
                let at = 64 + (seed >> 33) as usize % (bytes.len() - 64);
                bytes[at] = (seed >> 17) as u8;
            }
            let keep = bytes.len() - 1 - round * 13;
            bytes.truncate(keep);
            let files = vec![(name.to_owned(), bytes)];
            let label = format!("{name} damaged, round {round}");
            let whole = decode_files(&files).expect("decodes");
            assert!(
                whole.diagnostics.iter().any(|d| d.kind == "bad-header"
                    || d.kind == "bad-payload"
                    || d.kind == "truncated-message"),
                "{label}: the damage went unnoticed"
            );
            assert_same_swap(&files, &label, &[2, 3], 777);
        }
    }
}

/// The sp-rtrace trace file of a case (the one file that starts with the
/// handshake's 0xf0).
fn rtrace_file(files: &[(String, Vec<u8>)]) -> usize {
    files
        .iter()
        .position(|(p, d)| !p.contains("reference") && d.first() == Some(&0xf0))
        .expect("an sp-rtrace file")
}

/// sp-rtrace parts are joined before the trace is built, so the trace in
/// parts is the very same trace: its encoding is compared byte for byte,
/// besides [`assert_same_in`]'s checks.
fn assert_rtrace_same_in(files: &[(String, Vec<u8>)], label: &str, counts: &[usize], chunk: usize) {
    let whole = codec::encode(&decode_files(files).expect("decodes"));
    for &parts in counts {
        let split = decode_files_in_parts_chunked(files, parts, chunk).expect("decodes in parts");
        assert!(
            codec::encode(&split) == whole,
            "{label}, {parts} parts of {chunk}-byte chunks"
        );
    }
    assert_same_in(files, label, counts, chunk);
}

#[test]
fn every_rtrace_fixture_decodes_the_same_in_one_to_four_parts() {
    let mut cases = 0;
    let before = parts_decoded_whole_after_all();
    for dir in folders("rtrace")
        .into_iter()
        .filter(|d| !d.ends_with("elf"))
    {
        let mut files = read_folder(&dir);
        // The ELF files that name the frames go with the case.
        files.extend(read_folder(&fixtures().join("rtrace/elf")));
        rtrace_file(&files);
        assert!(splits(&files, 2));
        cases += 1;
        let label = dir.display().to_string();
        assert_rtrace_same_in(&files, &label, &[1, 2, 3, 4], 8 << 20);
        // Chunks that cut packets and the handshake at odd places.
        assert_rtrace_same_in(&files, &label, &[2, 3, 4], 777);
        assert_rtrace_same_in(&files, &label, &[2, 3], 61);
    }
    assert!(cases >= 5, "only {cases} sp-rtrace cases");
    // Most joins held (a part's border inside postproc's first reads of a
    // 64-bit trace can make a small file decode whole after all).
    let whole_after_all = parts_decoded_whole_after_all() - before;
    eprintln!("sp-rtrace fixtures: {whole_after_all} decodes in parts decoded whole after all");
    assert!(
        whole_after_all <= cases * 8 / 2,
        "{whole_after_all} decoded whole after all"
    );
}

#[test]
fn a_long_rtrace_stream_decodes_the_same_in_parts() {
    // Every case's calls repeated until the file is large enough for many
    // of postproc's 4 KiB reads per part: the borders fall between calls,
    // backtraces and arguments, and each join must hold.
    for dir in folders("rtrace")
        .into_iter()
        .filter(|d| !d.ends_with("elf"))
    {
        let mut files = read_folder(&dir);
        let at = rtrace_file(&files);
        let bytes = &files[at].1;
        let handshake = (2 + usize::from(bytes[1])).min(bytes.len());
        let body = bytes[handshake..].to_vec();
        let mut long = bytes.clone();
        while long.len() < 200_000 {
            long.extend_from_slice(&body);
        }
        files[at].1 = long;
        let before = parts_decoded_whole_after_all();
        assert_rtrace_same_in(&files, &dir.display().to_string(), &[2, 3, 4], 5000);
        // Every one of the 2 + 3 + 4 part decodes joined (none was decoded
        // whole after all).
        let whole_after_all = parts_decoded_whole_after_all() - before;
        assert_eq!(whole_after_all, 0, "{}", dir.display());
    }
}

#[test]
fn a_damaged_rtrace_stream_decodes_the_same_in_parts() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for dir in folders("rtrace")
        .into_iter()
        .filter(|d| !d.ends_with("elf"))
    {
        let pristine = read_folder(&dir);
        let at = rtrace_file(&pristine);
        for round in 0..4 {
            let mut files = pristine.clone();
            let bytes = &mut files[at].1;
            // Overwrite bytes past the handshake (tags, lengths, payloads),
            // then cut the stream at an odd place.
            for _ in 0..12 {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let i = 16 + (seed >> 33) as usize % (bytes.len() - 16);
                bytes[i] = (seed >> 17) as u8;
            }
            let keep = bytes.len() - 1 - round * 5;
            bytes.truncate(keep);
            let label = format!("{} damaged {round}", dir.display());
            assert_rtrace_same_in(&files, &label, &[2, 3, 4], 333);
        }
    }
}
