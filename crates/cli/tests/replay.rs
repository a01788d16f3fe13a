//! `flamedrop replay` through the binary: its text against what the
//! original tools printed (the fixtures' `reference/` files), its options
//! and their errors, and how it ends when the reader stops early.

mod common;

use common::{fixture, flamedrop, Run};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// A reference output of a fixture, gunzipped when stored as `.gz`.
fn reference(case: &str, name: &str) -> Option<String> {
    let path = fixture(&format!("{case}/reference/{name}"));
    if let Ok(text) = std::fs::read_to_string(&path) {
        return Some(text);
    }
    let gz = std::fs::read(format!("{path}.gz")).ok()?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text)
        .expect("a gzipped reference");
    Some(text)
}

/// Runs `replay` with `args` and expects a usage error naming `says`.
fn refused(args: &[&str], says: &str) -> Run {
    let mut line = vec!["replay"];
    line.extend_from_slice(args);
    let run = flamedrop(&line);
    assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
    assert!(run.stdout.is_empty(), "{args:?} printed a listing");
    assert!(
        run.stderr.contains(says),
        "{args:?} should say {says:?}: {}",
        run.stderr
    );
    run
}

/// Every `uftrace replay` line of every uftrace case's `COMMANDS.txt` and
/// `replay/COMMANDS.txt`, as (case, options, reference file name under
/// `reference/`).
fn uftrace_replay_commands() -> Vec<(String, Vec<String>, String)> {
    let mut commands = Vec::new();
    for group in ["uftrace", "uftrace-extra"] {
        let Ok(cases) = std::fs::read_dir(fixture(group)) else {
            continue;
        };
        let mut cases: Vec<String> = cases
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        cases.sort();
        for case in cases {
            let case = format!("{group}/{case}");
            let text: String = ["COMMANDS.txt", "replay/COMMANDS.txt"]
                .iter()
                .filter_map(|f| {
                    std::fs::read_to_string(fixture(&format!("{case}/reference/{f}"))).ok()
                })
                .collect();
            for line in text.lines() {
                let Some(rest) = line.strip_prefix("uftrace replay ") else {
                    continue;
                };
                let Some((options, target)) = rest.split_once("-d uftrace.data > reference/")
                else {
                    continue;
                };
                let options = options.split_whitespace().map(str::to_owned).collect();
                commands.push((case.clone(), options, target.trim().to_owned()));
            }
        }
    }
    commands
}

/// The references `flamedrop replay` does not equal yet, by case and file:
/// what is left of the uftrace layout at this branch's last merge of it.
/// i-lost-records and j-setjmp-longjmp are not in the layout's own golden
/// tests either; d-fork-exec `--tid 18253` (the forked child alone) prints
/// the child's `} /* fork */` without the duration uftrace gives it.
const NOT_YET_EQUAL: &[(&str, &str)] = &[
    ("uftrace-extra/d-fork-exec", "replay-tid-18253.txt"),
    ("uftrace-extra/i-lost-records", "replay.txt"),
    ("uftrace-extra/j-setjmp-longjmp", "replay.txt"),
    // The recorded option references (reference/replay/) uft's
    // crates/core/tests/listing_uftrace.rs lists as not yet, with why:
    // `elapsed` from a sched-in before the first call, e-dlopen-plugin's
    // `module` of a dlopen'ed library, `-D 2` with events below the limit,
    // i-lost-nested's `-F main` task-exit.
    ("uftrace/a-simple-nested", "replay/f-elapsed.txt"),
    (
        "uftrace/a-simple-nested",
        "replay/f-plus-module-elapsed.txt",
    ),
    ("uftrace/e-dlopen-plugin", "replay/f-elapsed.txt"),
    ("uftrace/e-dlopen-plugin", "replay/f-module.txt"),
    (
        "uftrace/e-dlopen-plugin",
        "replay/f-plus-module-elapsed.txt",
    ),
    ("uftrace/f-args-auto-dwarf", "replay/f-elapsed.txt"),
    (
        "uftrace/f-args-auto-dwarf",
        "replay/f-plus-module-elapsed.txt",
    ),
    ("uftrace/f-args-explicit", "replay/f-elapsed.txt"),
    (
        "uftrace/f-args-explicit",
        "replay/f-plus-module-elapsed.txt",
    ),
    ("uftrace/g-finstrument-functions", "replay/f-elapsed.txt"),
    (
        "uftrace/g-finstrument-functions",
        "replay/f-plus-module-elapsed.txt",
    ),
    ("uftrace-extra/h-libcall-plt", "replay/f-elapsed.txt"),
    (
        "uftrace-extra/h-libcall-plt",
        "replay/f-plus-module-elapsed.txt",
    ),
    ("uftrace-extra/i-events", "replay/depth-2.txt"),
    ("uftrace-extra/i-lost-nested", "replay/f-elapsed.txt"),
    (
        "uftrace-extra/i-lost-nested",
        "replay/f-plus-module-elapsed.txt",
    ),
    ("uftrace-extra/i-lost-nested", "replay/depth-2.txt"),
    ("uftrace-extra/i-lost-nested", "replay/filter-main.txt"),
    ("uftrace-extra/i-max-stack", "replay/f-elapsed.txt"),
    (
        "uftrace-extra/i-max-stack",
        "replay/f-plus-module-elapsed.txt",
    ),
];

/// Golden: each `uftrace replay [OPTIONS]` a case's `COMMANDS.txt` ran is
/// run as `flamedrop replay PATH [OPTIONS]` (the same words: `-f …`,
/// `--tid …`) and its stdout compared with the reference byte for byte.
#[test]
fn uftrace_cases_replay_as_uftrace_replay() {
    let commands = uftrace_replay_commands();
    assert!(
        commands.len() >= 20,
        "found {} replay commands",
        commands.len()
    );
    let mut equal = 0;
    let mut unequal = Vec::new();
    let mut now_equal: Vec<String> = Vec::new();
    for (case, options, target) in &commands {
        let expected = reference(case, target).unwrap_or_else(|| panic!("{case}: {target}"));
        let path = fixture(&format!("{case}/uftrace.data"));
        let mut args = vec!["replay", path.as_str()];
        args.extend(options.iter().map(String::as_str));
        let run = flamedrop(&args);
        assert_eq!(run.code, 0, "{case} {options:?}: {}", run.stderr);
        let known = NOT_YET_EQUAL.contains(&(case.as_str(), target.as_str()));
        if run.stdout == expected {
            if known {
                now_equal.push(format!("{case} {target}"));
            }
            equal += 1;
        } else if !known {
            let line = run
                .stdout
                .lines()
                .zip(expected.lines())
                .position(|(ours, theirs)| ours != theirs)
                .map_or(0, |i| i + 1);
            unequal.push(format!("{case} {target} (first difference at line {line})"));
        }
    }
    assert!(unequal.is_empty(), "not equal to uftrace: {unequal:#?}");
    assert!(
        now_equal.is_empty(),
        "equal now, take them off NOT_YET_EQUAL: {now_equal:#?}"
    );
    assert!(equal >= 10, "only {equal} references equal");
}

/// Golden: each `sp-rtrace-postproc -i FILE [OPTIONS]` of each sp-rtrace
/// case's `COMMANDS.txt` is run as `flamedrop replay CASE_FOLDER [OPTIONS]`
/// (postproc's `-C MASK` spelled `--context MASK`, since `-C` is uftrace's
/// `--caller-filter`) and compared with the reference byte for byte. Not
/// given the ELF files of `rtrace/elf/` beside the trace, postproc's
/// `-C MASK` spelled `--context MASK` and `-r` `--resolve` (uftrace's
/// `-C` and `-r` keep their letters); the 1.6 post-processor's references
/// with `--postproc-release 1.6`. With `-r`, the frames of the recording
/// machine's libraries (not in the data) stay unnamed (`0x… from libc…`)
/// where the resolver named them: those lines alone may differ so.
#[test]
fn rtrace_cases_replay_as_postproc() {
    let mut compared = 0;
    let mut cases: Vec<String> = std::fs::read_dir(fixture("rtrace"))
        .expect("rtrace fixtures")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    cases.sort();
    for case in cases {
        let case = format!("rtrace/{case}");
        let Ok(text) = std::fs::read_to_string(fixture(&format!("{case}/reference/COMMANDS.txt")))
        else {
            continue;
        };
        for line in text.lines() {
            let Some((target, rest)) = line.split_once(": TZ=UTC sp-rtrace-postproc -i ") else {
                continue;
            };
            let Some((command, build)) = rest.split_once('[') else {
                continue;
            };
            let options: Vec<&str> = command.split_whitespace().skip(1).collect();
            let expected = reference(&case, target).unwrap_or_else(|| panic!("{case}: {target}"));
            let (path, elf) = (fixture(&case), fixture("rtrace/elf"));
            let mut args = vec!["replay", path.as_str(), elf.as_str()];
            args.extend(options.iter().map(|&o| match o {
                "-C" => "--context",
                "-r" => "--resolve",
                other => other,
            }));
            if build.starts_with("sp-rtrace 1.6") {
                args.extend(["--postproc-release", "1.6"]);
            }
            let run = flamedrop(&args);
            assert_eq!(run.code, 0, "{case} {options:?}: {}", run.stderr);
            assert_eq!(
                run.stdout.lines().count(),
                expected.lines().count(),
                "{case} {target}"
            );
            for (ours, theirs) in run.stdout.lines().zip(expected.lines()) {
                let unnamed = options.contains(&"-r") && unnamed_foreign_frame(ours, theirs);
                assert!(
                    ours == theirs || unnamed,
                    "{case} {target}: {ours:?} is not {theirs:?}"
                );
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 34, "postproc references compared");
}

/// True when `ours` is `\t0xADDR from MODULE` and `theirs` the same frame
/// with the name the resolver found in its own machine's copy of MODULE.
fn unnamed_foreign_frame(ours: &str, theirs: &str) -> bool {
    let Some((address, module)) = ours.split_once(" from ") else {
        return false;
    };
    let Some((named, their_module)) = theirs.split_once(" from ") else {
        return false;
    };
    module == their_module
        && !address.contains(' ')
        && named
            .strip_prefix(address)
            .is_some_and(|name| name.starts_with(' '))
}

/// Golden: every SELogger case with a LogPrinter reference, as
/// `LogPrinter DIR` and (where recorded) `LogPrinter DIR -processparams`
/// printed it; LogPrinter's one-dash spellings read as the long options.
#[test]
fn selogger_cases_replay_as_logprinter() {
    let mut compared = 0;
    let mut cases: Vec<String> = std::fs::read_dir(fixture("selogger"))
        .expect("selogger fixtures")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    cases.sort();
    for case in cases {
        let case = format!("selogger/{case}");
        let path = fixture(&case);
        for (target, options) in [
            ("LogPrinter.txt", &[][..]),
            ("LogPrinter-processparams.txt", &["-processparams"][..]),
        ] {
            let Some(expected) = reference(&case, target) else {
                continue;
            };
            let mut args = vec!["replay", path.as_str()];
            args.extend_from_slice(options);
            let run = flamedrop(&args);
            assert_eq!(run.code, 0, "{case} {options:?}: {}", run.stderr);
            assert!(
                run.stdout == expected,
                "{case}: flamedrop replay {options:?} is not {target}"
            );
            compared += 1;
        }
    }
    assert!(
        compared >= 4,
        "only {compared} LogPrinter references compared"
    );

    let path = fixture("selogger/demo-v060-omnibinary");
    let one_dash = flamedrop(&[
        "replay",
        &path,
        "-thread=0",
        "-processparams",
        "-from=10",
        "-num=3",
    ]);
    let two_dashes = flamedrop(&[
        "replay",
        &path,
        "--thread",
        "0",
        "--processparams",
        "--from=10",
        "--num",
        "3",
    ]);
    assert_eq!(one_dash.code, 0, "{}", one_dash.stderr);
    // LogPrinter -processparams -from=10 -num=3: its lines from event 10 up
    // to the first event 13 or later (thread 0 is the only one there).
    let reference_text = reference(
        "selogger/demo-v060-omnibinary",
        "LogPrinter-processparams.txt",
    )
    .expect("reference");
    let event_id = |line: &str| -> Option<u64> {
        line.strip_prefix("EventId=")?
            .split(',')
            .next()?
            .parse()
            .ok()
    };
    let mut expected = String::new();
    let mut inside = false;
    for line in reference_text.lines() {
        if let Some(id) = event_id(line) {
            inside = (10..13).contains(&id);
        }
        if inside {
            expected.push_str(line);
            expected.push('\n');
        }
    }
    assert!(expected.starts_with("EventId=10,"));
    assert_eq!(one_dash.stdout, expected);
    assert_eq!(one_dash.stdout, two_dashes.stdout);
}

#[test]
fn help_lists_the_tools_options_under_their_tools() {
    let top = flamedrop(&["--help"]);
    assert!(top.stdout.contains("replay"), "{}", top.stdout);
    let help = flamedrop(&["replay", "--help"]);
    assert_eq!(help.code, 0, "{}", help.stderr);
    for text in [
        "Usage: flamedrop replay [OPTIONS] <PATH>...",
        "uftrace replay (uftrace, Scaler and SWAP traces):",
        "-f, --output-fields <FIELD[,FIELD]...>",
        "--no-args",
        "--no-sched",
        "--column-view",
        "--task-newline",
        "SELogger LogPrinter (SELogger omniscient traces):",
        "--thread <ID[,ID]...>",
        "-thread=",
        "--processparams",
        "--from <N>",
        "--num <M>",
        "sp-rtrace-postproc (sp-rtrace traces):",
        "-l, --filter-leaks",
        "-c, --compress",
        "-s, --sort <ORDER>",
        "--context <MASK>",
        "-R, --resource <MASK>",
        "-b, --backtrace-depth <DEPTH>",
        "-F, --filter <FUNC>",
        "-r, --time-range <RANGE>",
        "--tid <TID[,TID]...>",
        "--transform <STEPS>",
        "-o, --output <FILE>",
        "postproc's -C and -r are --context and --resolve here",
    ] {
        assert!(help.stdout.contains(text), "replay --help lacks {text}");
    }
    assert_eq!(flamedrop(&["help", "replay"]).stdout, help.stdout);
}

/// An option of another format's tool is refused before the trace is
/// read, naming the option and the trace's format.
#[test]
fn options_of_another_format_are_refused() {
    let uftrace = fixture("uftrace/a-simple-nested/uftrace.data");
    let rtrace = fixture("rtrace/c-leaks/20315-0.rtrace");
    let selogger = fixture("selogger/demo-v060-omnibinary");
    let scaler = fixture("scaler/a-prodcons-mutex-cond-sem");
    refused(
        &[&uftrace, "-l"],
        "flamedrop: -l/--filter-leaks does not apply to a uftrace trace \
         (sp-rtrace-postproc's option, for sp-rtrace traces)\n",
    );
    refused(
        &[&uftrace, "-thread=1"],
        "-thread= does not apply to a uftrace trace",
    );
    refused(
        &[&scaler, "--processparams"],
        "-processparams does not apply to a Scaler trace",
    );
    refused(
        &[&rtrace, "--no-args"],
        "flamedrop: --no-args does not apply to an sp-rtrace trace \
         (uftrace replay's option, for uftrace, Scaler and SWAP traces)\n",
    );
    refused(
        &[&rtrace, "-f", "time"],
        "-f/--output-fields does not apply to an sp-rtrace trace",
    );
    refused(
        &[&selogger, "--column-view"],
        "--column-view does not apply to a SELogger trace",
    );
    refused(
        &[&selogger, "-c"],
        "-c/--compress does not apply to a SELogger trace",
    );
    refused(
        &[&uftrace, "-b", "3"],
        "-b/--backtrace-depth does not apply to a uftrace",
    );
    refused(
        &[&scaler, "--context=1"],
        "--context does not apply to a Scaler trace",
    );
    // LogPrinter prints the event stream: a narrowing cannot change it.
    refused(
        &[&selogger, "-D", "1"],
        "flamedrop: -D/--depth does not apply to a SELogger trace's listing",
    );
    refused(
        &[&selogger, "--transform", "mf:main"],
        "--transform does not apply to a SELogger",
    );
}

/// Malformed values are told as the tool that owns the option tells them
/// (uftrace: `Unknown field name 'colour'`), before the trace is read.
#[test]
fn malformed_values_are_refused() {
    let path = fixture("uftrace/a-simple-nested/uftrace.data");
    refused(
        &[&path, "-f", "colour"],
        "flamedrop: Unknown field name 'colour'\n  Possible fields are: \
         duration tid addr time delta elapsed task module\n",
    );
    refused(&[&path, "-f", "+none"], "Unknown field name 'none'");
    refused(&[&path, "--output-fields=time,"], "Unknown field name ''");
    refused(&[&path, "-thread=x"], "flamedrop: invalid thread id: \"x\"");
    refused(
        &[&path, "-from=x"],
        "flamedrop: invalid event number: \"x\"",
    );
    refused(
        &[&path, "--thread"],
        "option '--thread' requires an argument",
    );
    refused(&[&path, "-D", "0"], "flamedrop: invalid depth given: 0");
    refused(&[&path, "--bogus"], "Try 'flamedrop replay --help'");
    let rtrace = fixture("rtrace/c-leaks");
    refused(
        &[&rtrace, "-s", "bogus"],
        "flamedrop: unknown sort order: bogus (size, size-asc, count, count-asc)\n",
    );
    refused(
        &[&rtrace, "-R", "zz"],
        "flamedrop: not a hexadecimal mask: zz\n",
    );
    refused(
        &[&rtrace, "-b", "x"],
        "flamedrop: invalid backtrace depth: x\n",
    );
    // As postproc: -s orders -c's groups, and is refused without -c.
    refused(
        &[&rtrace, "-s", "count"],
        "-s (sort) only orders the groups of -c",
    );
    refused(
        &["/no/such/trace"],
        "flamedrop: /no/such/trace: no such file or folder\n",
    );
}

/// `-o FILE` holds what stdout would.
#[test]
fn output_file_holds_the_listing() {
    let path = fixture("uftrace/c-pthreads-mutex/uftrace.data");
    let dir = std::env::temp_dir().join(format!("flamedrop-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("replay.txt");
    let run = flamedrop(&["replay", &path, "-o", file.to_str().unwrap()]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    let written = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let printed = flamedrop(&["replay", &path]);
    assert_eq!(printed.code, 0);
    assert!(written.starts_with("# DURATION     TID     FUNCTION\n"));
    assert_eq!(written, printed.stdout);
}

/// `flamedrop replay … | head`: the reader closes the pipe after a few
/// lines; the command stops writing and ends with 0, saying nothing.
#[test]
fn a_closed_pipe_ends_quietly() {
    let path = fixture("uftrace/b-recursion-hot/uftrace.data");
    let expected = reference("uftrace/b-recursion-hot", "replay.txt").expect("reference");
    assert!(expected.len() > 1 << 20, "bigger than a pipe's buffer");
    let mut child = Command::new(env!("CARGO_BIN_EXE_flamedrop"))
        .args(["replay", &path])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "# DURATION     TID     FUNCTION\n");
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).as_ref()
        ),
        (Some(0), "")
    );
}
