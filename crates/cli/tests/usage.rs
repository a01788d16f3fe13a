//! The command line itself: help per subcommand, uftrace's spellings of its
//! options, and the errors a wrong line gets (uftrace's wording, exit 2).

mod common;

use common::{flamedrop, pthreads, Run};

#[test]
fn each_subcommand_has_its_own_help() {
    let report = flamedrop(&["report", "--help"]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    for option in [
        "Usage: flamedrop report [OPTIONS] <PATH>...",
        "--json",
        "-s, --sort <KEY[,KEY]...>",
        "-F, --filter <FUNC>",
        "-N, --notrace <FUNC>",
        "-H, --hide <FUNC>",
        "-C, --caller-filter <FUNC>",
        "-D, --depth <DEPTH>",
        "-t, --time-filter <TIME>",
        "-r, --time-range <RANGE>",
        "--tid <TID[,TID]...>",
        "--match <TYPE>",
        "--transform <STEPS>",
        "-o, --output <FILE>",
    ] {
        assert!(
            report.stdout.contains(option),
            "report --help lacks {option}"
        );
    }

    let convert = flamedrop(&["convert", "--help"]);
    assert_eq!(convert.code, 0);
    assert!(convert.stdout.contains("--to <FORMAT>"));
    assert!(convert.stdout.contains("-F, --filter <FUNC>"));
    assert!(convert.stdout.contains("--transform <STEPS>"));
    assert!(!convert.stdout.contains("--sort"), "sorting is report's");

    let diff = flamedrop(&["diff", "--help"]);
    assert_eq!(diff.code, 0);
    assert!(diff
        .stdout
        .contains("Usage: flamedrop diff [OPTIONS] <BASE> <NEW>"));
    assert!(!diff.stdout.contains("--filter"));

    // `help report` is the same text as `report --help`.
    assert_eq!(flamedrop(&["help", "report"]).stdout, report.stdout);
    let top = flamedrop(&["--help"]);
    for command in ["report", "diff", "convert", "replay"] {
        assert!(top.stdout.contains(command));
    }
}

/// Every spelling uftrace (getopt) takes reads the same: `-FX`, `-F X`,
/// `--filter=X`, `--filter X`, several patterns by repeating or with `;`.
#[test]
fn uftrace_spellings_read_alike() {
    let path = pthreads();
    let plain = flamedrop(&["report", path.as_str(), "--json"]);
    let same = |lines: &[&[&str]]| {
        let runs: Vec<Run> = lines
            .iter()
            .map(|options| {
                let mut args = vec!["report", path.as_str(), "--json"];
                args.extend_from_slice(options);
                flamedrop(&args)
            })
            .collect();
        assert_eq!(runs[0].code, 0, "{:?}: {}", lines[0], runs[0].stderr);
        assert_ne!(
            runs[0].stdout, plain.stdout,
            "{:?} changed nothing",
            lines[0]
        );
        for (options, run) in lines.iter().zip(&runs) {
            assert!(
                !run.stderr.contains("--help"),
                "{options:?}: {}",
                run.stderr
            );
            assert_eq!(
                (&run.stdout, &run.stderr, run.code),
                (&runs[0].stdout, &runs[0].stderr, runs[0].code),
                "{options:?} reads unlike {:?}",
                lines[0]
            );
        }
    };
    same(&[
        &["-F", "worker"],
        &["-Fworker"],
        &["--filter=worker"],
        &["--filter", "worker"],
    ]);
    same(&[
        &["-F", "worker", "-F", "compute"],
        &["-F", "worker;compute"],
        &["--filter=worker", "-Fcompute"],
    ]);
    same(&[&["-N", "compute"], &["-Ncompute"], &["--notrace=compute"]]);
    same(&[&["-H", "compute"], &["-Hcompute"], &["--hide", "compute"]]);
    same(&[
        &["-C", "compute"],
        &["-Ccompute"],
        &["--caller-filter=compute"],
    ]);
    // The last -D wins, as with getopt.
    same(&[
        &["-D", "2"],
        &["-D2"],
        &["--depth=2"],
        &["-D", "5", "--depth", "2"],
    ]);
    same(&[&["-t", "10us"], &["-t10us"], &["--time-filter=10us"]]);
    same(&[
        &["-r", "568.292us~1.137ms"],
        &["-r568.292us~1.137ms"],
        &["--time-range=568.292us~1.137ms"],
    ]);
    same(&[
        &["--tid", "21712,21713"],
        &["--tid=21712", "--tid", "21713"],
    ]);
    same(&[
        &["--match=glob", "-F", "work*"],
        &["--match", "glob", "-Fwork*"],
    ]);
}

/// Runs `report` on the fixture with `options` and expects a usage error.
fn refused(options: &[&str]) -> Run {
    let path = pthreads();
    let mut args = vec!["report", path.as_str()];
    args.extend_from_slice(options);
    let run = flamedrop(&args);
    assert_eq!(
        run.code, 2,
        "{options:?} should exit with 2: {}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "{options:?} printed a report");
    run
}

/// The wording is uftrace's (`uftrace report -D x` says "invalid depth
/// given: x", `-j` "invalid option -- 'j'", `--bogus` "unrecognized option
/// '--bogus'", `-F` at the end "option requires an argument -- 'F'",
/// `--depth` at the end "option '--depth' requires an argument", `-s foo`
/// "invalid sort key: foo", `--match foo` "invalid match pattern: foo");
/// uftrace goes on where it can, flamedrop stops with 2.
#[test]
fn bad_options_are_told_as_uftrace_tells_them() {
    let first_line = |options: &[&str]| refused(options).stderr.lines().next().map(str::to_owned);
    let cases: [(&[&str], &str); 13] = [
        (&["-D", "x"], "flamedrop: invalid depth given: x"),
        (&["-D", "0"], "flamedrop: invalid depth given: 0"),
        (&["-D", "-1"], "flamedrop: invalid depth given: -1"),
        (&["-j"], "flamedrop: invalid option -- 'j'"),
        (&["--bogus"], "flamedrop: unrecognized option '--bogus'"),
        (&["-F"], "flamedrop: option requires an argument -- 'F'"),
        (
            &["--depth"],
            "flamedrop: option '--depth' requires an argument",
        ),
        (&["-s"], "flamedrop: option requires an argument -- 's'"),
        (&["-s", "foo"], "flamedrop: invalid sort key: foo"),
        (&["-s", ""], "flamedrop: invalid sort key: "),
        (
            &["--sort=total,bar"],
            "flamedrop: invalid sort key: total,bar",
        ),
        (&["--match", "foo"], "flamedrop: invalid match pattern: foo"),
        (
            &["--match=regexp"],
            "flamedrop: invalid match pattern: regexp",
        ),
    ];
    for (options, expected) in cases {
        assert_eq!(
            first_line(options).as_deref(),
            Some(expected),
            "{options:?}"
        );
    }
    assert!(refused(&["--bogus"])
        .stderr
        .contains("Try 'flamedrop report --help' for more information."));
}

/// `convert` takes the filters but not `-s`; `diff` takes neither.
#[test]
fn options_belong_to_their_subcommands() {
    let path = pthreads();
    let run = flamedrop(&["convert", &path, "--to", "collapsed", "-s", "self"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("flamedrop: invalid option -- 's'"));
    let run = flamedrop(&["diff", &path, &path, "-F", "main"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("flamedrop: invalid option -- 'F'"));
    let run = flamedrop(&["convert", &path, "--to", "svg"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with(
        "flamedrop: cannot convert to \"svg\" (chrome, speedscope, collapsed, perfetto or pprof)"
    ));
}

/// clap's own mistakes exit with 2 too, and say what is missing.
#[test]
fn missing_pieces_exit_with_2() {
    let cases: [(&[&str], &str); 6] = [
        (&[], "Usage: flamedrop <COMMAND>"),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (&["report"], "<PATH>"),
        (&["convert", "x.dat"], "--to <FORMAT>"),
        (&["diff", "a"], "<NEW>"),
        (&["diff", "a", "b", "c"], "unexpected argument 'c'"),
    ];
    for (args, says) in cases {
        let run = flamedrop(args);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    let run = flamedrop(&["report", "/no/such/trace"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "flamedrop: /no/such/trace: no such file or folder\n"
    );
}

/// A wrong `--transform` names the step that is wrong, before the trace is
/// read.
#[test]
fn transform_errors_name_the_step() {
    let first = refused(&["--transform", "zz:main"]).stderr;
    assert!(first.starts_with("flamedrop: invalid --transform: step 1: unknown step \"zz\""));
    let second = refused(&["--transform", "mf:malloc~ff:"]).stderr;
    assert!(
        second.starts_with("flamedrop: invalid --transform: step 2:"),
        "{second}"
    );
    assert!(second.contains("needs a function name"));
    let escape = refused(&["--transform", "ff:main~mf:ma%4"]).stderr;
    assert!(escape.starts_with("flamedrop: invalid --transform: step 2: bad %-escape"));
    let uftrace = refused(&["--transform", "u:-D%20x"]).stderr;
    assert!(
        uftrace.starts_with("flamedrop: invalid --transform: step 1:"),
        "{uftrace}"
    );
    assert!(uftrace.contains("depth"));
    // Several --transform options are one list, numbered through.
    let across = refused(&["--transform", "mf:a", "--transform", "zz"]).stderr;
    assert!(
        across.starts_with("flamedrop: invalid --transform: step 2:"),
        "{across}"
    );
}
