//! The command line as clap reads it: the subcommands `report`, `diff`,
//! `convert`, `replay` and `memory`. The narrowing options they share are
//! in `narrow_args`, `replay`'s own in `replay_args`, `memory`'s in
//! `memory_args`.

use crate::components_args::ComponentsArgs;
use crate::memory_args::MemoryArgs;
use crate::narrow_args::NarrowArgs;
use crate::open_args::OpenArgs;
use crate::replay_args::ReplayArgs;
use clap::{Args, Parser, Subcommand};

/// The whole command line.
#[derive(Debug, Parser)]
#[command(
    name = "flamedrop",
    version,
    about = "Report, compare, convert and list traces (uftrace, Scaler, SELogger, sp-rtrace, SWAP).",
    after_help = "PATH is a trace file, several files, a folder (for example uftrace.data/) \
                  or an archive of one (.zip, .tar, .tar.gz).\n\
                  Run 'flamedrop COMMAND --help' for a command's options."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// What to do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Per-function calls with total and self time, per-thread counts,
    /// allocations and diagnostics, laid out like `uftrace report`.
    #[command(args_override_self = true)]
    Report(ReportArgs),
    /// Compare two traces of one program, function by function (deltas are
    /// NEW - BASE; largest changes first, like `uftrace report --diff`).
    #[command(args_override_self = true)]
    Diff(DiffArgs),
    /// Write the trace in another tool's format.
    #[command(args_override_self = true)]
    Convert(ConvertArgs),
    /// The time-ordered listing as the format's own tool prints it:
    /// `uftrace replay`, SELogger's LogPrinter, `sp-rtrace-postproc`
    /// (Scaler and SWAP in uftrace's replay layout).
    #[command(
        args_override_self = true,
        after_help = "Each tool's options apply to its format only; another format's option is \
                      refused. Where two tools share a letter, uftrace's filters keep it: \
                      postproc's -C and -r are --context and --resolve here. LogPrinter's \
                      -thread=, -processparams, -from= and -num= work in its own spelling."
    )]
    Replay(ReplayArgs),
    /// One allocation resource over time, as sp-rtrace-timeline and
    /// postproc tell it: the peak and the end, the live blocks at a moment
    /// grouped by backtrace, size and lifetime histograms, allocation and
    /// free rates; with sp-rtrace-timeline's filters.
    #[command(args_override_self = true)]
    Memory(MemoryArgs),
    /// Time by component (library, module) as Scaler's analyzer reports it:
    /// self, inclusive and waiting time per library, local and global
    /// shares, the caller -> callee matrix, per thread and serial vs
    /// parallel.
    #[command(args_override_self = true)]
    Components(ComponentsArgs),
    /// Open the trace in the viewer: serves the viewer built into this
    /// binary and the trace on 127.0.0.1 and opens the default browser;
    /// stops when the tab is closed.
    #[command(args_override_self = true)]
    Open(OpenArgs),
}

/// `flamedrop report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The trace: a file, several files, a folder or an archive.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// Print the report as JSON (the object window.flamedrop.report() returns).
    #[arg(long)]
    pub json: bool,
    /// Sort the functions by these keys, as uftrace: total, self, call, func
    /// (comma-separated; default total).
    #[arg(
        short = 's',
        long = "sort",
        value_name = "KEY[,KEY]...",
        allow_hyphen_values = true
    )]
    pub sort: Option<String>,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
    #[command(flatten)]
    pub narrow: NarrowArgs,
}

/// `flamedrop diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The trace before: a file, a folder or an archive.
    #[arg(value_name = "BASE")]
    pub base: String,
    /// The trace after: a file, a folder or an archive.
    #[arg(value_name = "NEW")]
    pub new: String,
    /// Print the comparison as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
}

/// `flamedrop convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The trace: a file, several files, a folder or an archive.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// The format to write: chrome (Chrome trace JSON, for Perfetto and
    /// chrome://tracing), speedscope (speedscope JSON), collapsed (collapsed
    /// stacks, for uftrace as `uftrace dump --flame-graph`), perfetto
    /// (Perfetto's protobuf trace, with counters and span arguments) or pprof
    /// (gzipped profile.proto, for `go tool pprof`).
    #[arg(long = "to", value_name = "FORMAT", value_parser = parse_format)]
    pub to: Format,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
    #[command(flatten)]
    pub narrow: NarrowArgs,
}

/// What `convert --to` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Chrome,
    Speedscope,
    Collapsed,
    Perfetto,
    Pprof,
}

/// Reads `--to`, with the wording the command has always used.
fn parse_format(text: &str) -> Result<Format, String> {
    match text {
        "chrome" => Ok(Format::Chrome),
        "speedscope" => Ok(Format::Speedscope),
        "collapsed" => Ok(Format::Collapsed),
        "perfetto" => Ok(Format::Perfetto),
        "pprof" => Ok(Format::Pprof),
        other => Err(format!(
            "cannot convert to {other:?} (chrome, speedscope, collapsed, perfetto or pprof)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(args: &[&str]) -> ReportArgs {
        let line = ["flamedrop", "report", "trace.dat"].iter().chain(args);
        match Cli::try_parse_from(line).map(|cli| cli.command) {
            Ok(Command::Report(report)) => report,
            other => panic!("{args:?} read as {other:?}"),
        }
    }

    #[test]
    fn patterns_repeat_and_single_values_take_the_last() {
        let r = report(&["-F", "a", "-Fb", "--filter=c;d", "-D", "3", "--depth=2"]);
        assert_eq!(r.narrow.filter, ["a", "b", "c;d"]);
        assert_eq!(r.narrow.depth, Some(2));
        let r = report(&[
            "--tid", "1,2", "--tid=3", "-t", "1us", "-t5us", "-s", "call",
        ]);
        assert_eq!(r.narrow.tid, ["1,2", "3"]);
        assert_eq!(r.narrow.time_filter.as_deref(), Some("5us"));
        assert_eq!(r.sort.as_deref(), Some("call"));
        // As getopt: the word after an option is its value even if it starts with '-'.
        let r = report(&["-N", "-weird", "-r", "~1ms"]);
        assert_eq!(r.narrow.notrace, ["-weird"]);
        assert_eq!(r.narrow.time_range.as_deref(), Some("~1ms"));
    }

    #[test]
    fn paths_and_options_mix_in_any_order() {
        let line = ["flamedrop", "report", "-F", "main", "a", "--json", "b"];
        let Ok(Command::Report(r)) = Cli::try_parse_from(line).map(|c| c.command) else {
            panic!("not read");
        };
        assert_eq!(r.paths, ["a", "b"]);
        assert!(r.json);
    }
}
