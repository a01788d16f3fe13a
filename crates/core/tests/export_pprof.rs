//! `convert --to pprof`: the gzipped profile of fixtures of every format,
//! gunzipped and decoded, adds up to the report (`report --json` is
//! `analysis::report`): per function, flat time is the self time, flat calls
//! the calls and cum time the total; per allocated resource, the allocated
//! and live objects and sizes are its totals; per thread, the sample counts
//! are its samples. Each location's mapping, address and file agree with
//! the recording's own files: uftrace's `.sym` and `.map` files and
//! `task.txt`, the mappings and return addresses `sp-rtrace-postproc`
//! printed, Scaler's `lib=` in the reference dump, SELogger's `methods.txt`.

mod common;

use common::{decode_input, fixture_inputs, reference, rtrace_cases, rtrace_file};
use flamedrop_core::analysis::report::report;
use flamedrop_core::export::pprof::proto::Profile;
use flamedrop_core::export::pprof::to_pprof;
use flamedrop_core::model::{Trace, SPAN_ABANDONED};
use prost::Message;
use std::collections::{HashMap, HashSet};
use std::io::Read;

fn read_back(trace: &Trace) -> Profile {
    let gz = to_pprof(trace);
    assert_eq!(gz.get(..2), Some(&[0x1f, 0x8b][..]), "gzip magic");
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_end(&mut bytes)
        .expect("gunzips");
    Profile::decode(&bytes[..]).expect("a pprof Profile message")
}

/// The profile's strings, locations' functions, and column indices by name.
struct Reader<'p> {
    profile: &'p Profile,
    function_of_location: HashMap<u64, &'p str>,
}

impl<'p> Reader<'p> {
    fn new(profile: &'p Profile) -> Self {
        assert_eq!(profile.string_table.first().map(String::as_str), Some(""));
        let functions: HashMap<u64, &str> = profile
            .function
            .iter()
            .map(|f| (f.id, profile.string_table[f.name as usize].as_str()))
            .collect();
        let function_of_location = profile
            .location
            .iter()
            .map(|l| {
                assert!(
                    l.mapping_id == 0 || profile.mapping.iter().any(|m| m.id == l.mapping_id),
                    "location {} in mapping {}",
                    l.id,
                    l.mapping_id
                );
                (l.id, functions[&l.line[0].function_id])
            })
            .collect();
        Reader {
            profile,
            function_of_location,
        }
    }

    fn str(&self, index: i64) -> &'p str {
        &self.profile.string_table[index as usize]
    }

    fn column(&self, name: &str) -> Option<usize> {
        self.profile
            .sample_type
            .iter()
            .position(|t| self.str(t.r#type) == name)
    }

    /// Per function: (flat, cum) of column `column`, pprof's way (cum counts
    /// a function once per sample however often it recurs).
    fn by_function(&self, column: usize) -> HashMap<&'p str, (i64, i64)> {
        let mut out: HashMap<&str, (i64, i64)> = HashMap::new();
        for sample in &self.profile.sample {
            let value = sample.value[column];
            let names: Vec<&str> = sample
                .location_id
                .iter()
                .map(|l| self.function_of_location[l])
                .collect();
            out.entry(names[0]).or_default().0 += value;
            for name in names.iter().collect::<HashSet<_>>() {
                out.entry(name).or_default().1 += value;
            }
        }
        out
    }

    fn sum(&self, column: usize) -> i64 {
        self.profile.sample.iter().map(|s| s.value[column]).sum()
    }
}

fn has_abandoned(trace: &Trace) -> bool {
    trace
        .threads
        .iter()
        .any(|t| t.spans.flags.iter().any(|f| f & SPAN_ABANDONED != 0))
}

#[test]
fn call_totals_equal_the_report() {
    let mut formats = HashSet::new();
    for (group, case, path) in fixture_inputs() {
        let trace = decode_input(&path);
        let r = report(&trace);
        if r.functions.is_empty() {
            continue;
        }
        formats.insert(r.format.clone());
        let profile = read_back(&trace);
        let read = Reader::new(&profile);
        let what = format!("{group}/{case}");
        let time = read.column("time").expect("a time column");
        let calls = read.column("calls").expect("a calls column");
        assert_eq!(
            read.str(profile.sample_type[time].unit),
            match r.time_unit.as_str() {
                "ns" => "nanoseconds",
                "us" => "microseconds",
                _ => "events",
            }
        );
        assert_eq!(read.str(profile.default_sample_type), "time", "{what}");
        let times = read.by_function(time);
        let counts = read.by_function(calls);
        for f in &r.functions {
            let (flat, cum) = times.get(f.name.as_str()).copied().unwrap_or_default();
            assert_eq!(flat, f.self_time, "{what}: {} self", f.name);
            if !has_abandoned(&trace) {
                assert_eq!(cum, f.total, "{what}: {} total", f.name);
            }
            let (called, _) = counts.get(f.name.as_str()).copied().unwrap_or_default();
            assert_eq!(called as u64, f.calls, "{what}: {} calls", f.name);
        }
        let self_sum: i64 = r.functions.iter().map(|f| f.self_time).sum();
        assert_eq!(read.sum(time), self_sum, "{what}");
    }
    for format in ["uftrace", "scaler", "swap", "sp-rtrace", "selogger"] {
        assert!(formats.contains(format), "{format} has calls: {formats:?}");
    }
}

#[test]
fn allocation_totals_equal_the_report() {
    let mut seen = 0;
    for (group, case, path) in fixture_inputs() {
        let trace = decode_input(&path);
        let r = report(&trace);
        if r.resources.is_empty() {
            continue;
        }
        seen += 1;
        let profile = read_back(&trace);
        let read = Reader::new(&profile);
        for resource in &r.resources {
            let prefix = if resource.resource == "memory" {
                String::new()
            } else {
                format!("{} ", resource.resource)
            };
            let sum = |name: &str| {
                let column = read
                    .column(&format!("{prefix}{name}"))
                    .unwrap_or_else(|| panic!("{group}/{case}: {prefix}{name}"));
                read.sum(column) as u64
            };
            let what = format!("{group}/{case} {}", resource.resource);
            assert_eq!(sum("alloc_objects"), resource.totals.allocs, "{what}");
            assert_eq!(sum("alloc_space"), resource.totals.alloc_bytes, "{what}");
            assert_eq!(sum("inuse_objects"), resource.totals.live_blocks, "{what}");
            assert_eq!(sum("inuse_space"), resource.totals.live_bytes, "{what}");
        }
    }
    assert!(seen >= 3, "sp-rtrace and SWAP fixtures have allocations");
}

/// Per thread, the sample counts of every set add up to the report's samples.
#[test]
fn sample_counts_equal_the_report_per_thread() {
    let mut seen = 0;
    for (group, case, path) in fixture_inputs() {
        let trace = decode_input(&path);
        if trace.sample_sets.is_empty() {
            continue;
        }
        seen += 1;
        let r = report(&trace);
        let profile = read_back(&trace);
        let read = Reader::new(&profile);
        let columns: Vec<usize> = profile
            .sample_type
            .iter()
            .enumerate()
            .filter(|(_, t)| read.str(t.r#type).ends_with(" samples"))
            .map(|(i, _)| i)
            .collect();
        let total: i64 = columns.iter().map(|&c| read.sum(c)).sum();
        let in_sets: usize = trace.sample_sets.iter().map(|s| s.len()).sum();
        assert_eq!(total as usize, in_sets, "{group}/{case}");
        for thread in &r.threads {
            let label = format!("{} {}", thread.name, thread.id);
            let on_thread: i64 = profile
                .sample
                .iter()
                .filter(|s| s.label.iter().any(|l| read.str(l.str) == label))
                .map(|s| columns.iter().map(|&c| s.value[c]).sum::<i64>())
                .sum();
            assert_eq!(on_thread as u64, thread.samples, "{group}/{case} {label}");
        }
    }
    assert!(seen > 0, "some fixture has sample sets");
}

/// Per location: function name, mapping file name (if any), range, address,
/// function file.
struct Place {
    function: String,
    mapping: Option<(String, u64, u64)>,
    address: u64,
    file: String,
}

fn places(profile: &Profile) -> Vec<Place> {
    let str = |i: i64| profile.string_table[i as usize].clone();
    profile
        .location
        .iter()
        .map(|l| {
            let f = profile
                .function
                .iter()
                .find(|f| f.id == l.line[0].function_id)
                .expect("its function");
            let mapping = profile.mapping.iter().find(|m| m.id == l.mapping_id);
            Place {
                function: str(f.name),
                mapping: mapping.map(|m| (str(m.filename), m.memory_start, m.memory_limit)),
                address: l.address,
                file: str(f.filename),
            }
        })
        .collect()
}

fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn hex(text: &str) -> u64 {
    u64::from_str_radix(text.trim_start_matches("0x"), 16).expect("hex")
}

/// uftrace: a function is in the module whose `.sym` file lists it, at an
/// address inside that module's executable mapping in a `sid-*.map` file
/// (or past its `dlopen` base in `task.txt`).
#[test]
fn uftrace_locations_are_in_the_modules_of_the_sym_and_map_files() {
    let mut modules_seen = HashSet::new();
    let mut with_address = 0;
    for (group, case, path) in fixture_inputs() {
        let data = path.clone();
        if !group.starts_with("uftrace") || !data.ends_with("uftrace.data") {
            continue;
        }
        let files: Vec<(String, String)> = std::fs::read_dir(&data)
            .expect("folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| {
                ["sym", "map", "txt"]
                    .iter()
                    .any(|x| p.extension().is_some_and(|e| e == *x))
            })
            .map(|p| {
                let name = p.file_name().expect("name").to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&p).unwrap_or_default())
            })
            .collect();
        let mut ranges: Vec<(String, u64, u64)> = Vec::new();
        for (name, text) in &files {
            if name.starts_with("sid-") && name.ends_with(".map") {
                for line in text.lines() {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    let (Some(range), Some(path)) = (words.first(), words.get(5)) else {
                        continue;
                    };
                    let (from, to) = range.split_once('-').expect("a range");
                    ranges.push((base_name(path).to_owned(), hex(from), hex(to)));
                }
            }
            if name == "task.txt" {
                for line in text.lines().filter(|l| l.starts_with("DLOP ")) {
                    let field = |key: &str| {
                        line.split_whitespace()
                            .find_map(|w| w.strip_prefix(key))
                            .expect("a DLOP field")
                            .trim_matches('"')
                            .to_owned()
                    };
                    ranges.push((
                        base_name(&field("libname=")).to_owned(),
                        hex(&field("base=")),
                        u64::MAX,
                    ));
                }
            }
        }
        let trace = decode_input(&path);
        if trace.threads.iter().all(|t| t.spans.is_empty()) {
            continue;
        }
        let what = format!("{group}/{case}");
        for place in places(&read_back(&trace)) {
            let Some((mapping, _, _)) = &place.mapping else {
                continue;
            };
            let module = base_name(mapping);
            let sym = files
                .iter()
                .find(|(name, _)| *name == format!("{module}.sym"))
                .unwrap_or_else(|| panic!("{what}: no {module}.sym for {}", place.function));
            let listed = sym
                .1
                .lines()
                .any(|l| l.split_whitespace().nth(2) == Some(place.function.as_str()));
            assert!(listed, "{what}: {} not in {module}.sym", place.function);
            modules_seen.insert(module.to_owned());
            if place.address != 0 {
                with_address += 1;
                let inside = ranges
                    .iter()
                    .any(|(m, from, to)| m == module && (*from..*to).contains(&place.address));
                assert!(
                    inside,
                    "{what}: {} at {:#x} outside {module}",
                    place.function, place.address
                );
            }
        }
    }
    assert!(modules_seen.contains("libplugin.so"), "{modules_seen:?}");
    assert!(modules_seen.len() >= 3, "{modules_seen:?}");
    assert!(with_address > 50, "{with_address} addresses");
}

/// sp-rtrace: a frame is in the mapping `sp-rtrace-postproc` printed for its
/// module (`: path => from-to`), at a return address postproc printed under
/// some call, `offset` past the mapping's start.
#[test]
fn rtrace_locations_are_postprocs_mappings_and_return_addresses() {
    let mut placed = 0;
    for case in rtrace_cases() {
        let text = reference("rtrace", &case, "postproc.txt");
        let mappings: HashSet<(String, u64, u64)> = text
            .lines()
            .filter_map(|l| l.strip_prefix(": "))
            .filter_map(|l| {
                let (path, range) = l.split_once(" => ")?;
                let (from, to) = range.split_once('-')?;
                Some((path.to_owned(), hex(from), hex(to)))
            })
            .collect();
        let returns: HashSet<u64> = text
            .lines()
            .filter_map(|l| l.strip_prefix('\t'))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| w.starts_with("0x"))
            .map(hex)
            .collect();
        let (name, bytes) = rtrace_file(&case);
        let trace = flamedrop_core::decode_files(&[(name, bytes)]).expect("decodes");
        for place in places(&read_back(&trace)) {
            let Some(mapping) = place.mapping else {
                continue;
            };
            if mapping.2 == 0 {
                continue; // the program, without a mapping of its own
            }
            assert!(mappings.contains(&mapping), "{case}: {mapping:?}");
            if place.address == 0 {
                continue;
            }
            placed += 1;
            assert!(
                returns.contains(&place.address),
                "{case}: {:#x}",
                place.address
            );
            let offset = place.address - mapping.1;
            assert_eq!(
                place.function,
                format!("{}+{offset:#x}", base_name(&mapping.0)),
                "{case}"
            );
        }
    }
    assert!(placed > 10, "{placed} frames placed");
}

/// Scaler: a function's mapping is the `lib=` of its records in the
/// reference dump (the executable's for lazily bound calls).
#[test]
fn scaler_functions_are_in_the_library_the_dump_names() {
    let mut checked = 0;
    for (group, case, path) in fixture_inputs() {
        if group != "scaler" {
            continue;
        }
        let Ok(tree) = std::fs::read_to_string(path.join("reference/tree.txt")) else {
            continue;
        };
        let mut lib_of: HashMap<String, String> = HashMap::new();
        for line in tree.lines() {
            let field = |key: &str| line.split_whitespace().find_map(|w| w.strip_prefix(key));
            if let (Some(name), Some(lib)) = (field("name="), field("lib=")) {
                lib_of.insert(name.to_owned(), lib.to_owned());
            }
        }
        let trace = decode_input(&path);
        for place in places(&read_back(&trace)) {
            let Some(lib) = lib_of.get(&place.function) else {
                continue;
            };
            let (mapping, _, _) = place.mapping.expect("every Scaler call has a library");
            assert_eq!(base_name(&mapping), lib, "{case}: {}", place.function);
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");
}

/// SELogger: a method's file is the `SourceFileName` `methods.txt` gives its
/// class and method.
#[test]
fn selogger_functions_carry_their_source_file() {
    let mut checked = 0;
    for (group, case, path) in fixture_inputs() {
        let Ok(methods) = std::fs::read_to_string(path.join("methods.txt")) else {
            continue;
        };
        // (ClassName as dotted, MethodName, SourceFileName) per method.
        // (v0.4.0 files have no header line; a header matches no method.)
        let rows: Vec<(String, &str, &str)> = methods
            .lines()
            .filter_map(|l| {
                let cells: Vec<&str> = l.split(',').collect();
                Some((
                    cells.get(2)?.replace('/', "."),
                    *cells.get(3)?,
                    *cells.get(6)?,
                ))
            })
            .collect();
        let trace = decode_input(&path);
        for place in places(&read_back(&trace)) {
            if place.file.is_empty() {
                continue;
            }
            let declared = rows.iter().any(|(class, method, source)| {
                *source == place.file && place.function.starts_with(&format!("{class}.{method}"))
            });
            assert!(
                declared,
                "{group}/{case}: {} in {}",
                place.function, place.file
            );
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");
}
