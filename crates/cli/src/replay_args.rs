//! `flamedrop replay`'s command line: the options of each format's own text
//! tool, under their own headings — `uftrace replay`'s, SELogger
//! `LogPrinter`'s (also in its single-dash spelling, see
//! `log_printer_words`) and `sp-rtrace-postproc`'s — and the
//! narrowing options `report` and `convert` share.
//!
//! Where two tools use one letter, uftrace keeps it (its filters came
//! first) and the other tool's option is long only: postproc's `-C`
//! (context mask) is `--context`, its `-r` (resolve) `--resolve`.

use crate::narrow_args::NarrowArgs;
use clap::Args;
use flamedrop_core::analysis::listing::{
    parse_hex_mask, ListingError, PostprocRelease, PostprocSort,
};

/// Which text tool an option belongs to, and so which traces it fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// `uftrace replay`'s layout: uftrace, Scaler and SWAP traces.
    Replay,
    /// SELogger's `LogPrinter`.
    LogPrinter,
    /// `sp-rtrace-postproc`.
    Postproc,
}

/// `flamedrop replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The trace: a file, several files, a folder or an archive.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
    #[command(flatten)]
    pub replay: UftraceReplayArgs,
    #[command(flatten)]
    pub log_printer: LogPrinterArgs,
    #[command(flatten)]
    pub postproc: PostprocArgs,
    #[command(flatten)]
    pub narrow: NarrowArgs,
}

/// `uftrace replay`'s options that change its text.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "uftrace replay (uftrace, Scaler and SWAP traces)")]
pub struct UftraceReplayArgs {
    /// The columns left of '|' (duration, tid, addr, time, delta, elapsed,
    /// task, module or all; '+FIELD' adds to the default duration,tid;
    /// 'none' removes all).
    #[arg(
        short = 'f',
        long = "output-fields",
        value_name = "FIELD[,FIELD]...",
        allow_hyphen_values = true
    )]
    pub fields: Option<String>,
    /// No arguments or return values.
    #[arg(long = "no-args")]
    pub no_args: bool,
    /// No 'linux:schedule' rows.
    #[arg(long = "no-sched")]
    pub no_sched: bool,
    /// Each task's rows in a column of their own.
    #[arg(long = "column-view")]
    pub column_view: bool,
    /// A blank line where the task changes.
    #[arg(long = "task-newline")]
    pub task_newline: bool,
}

/// SELogger `LogPrinter`'s options. LogPrinter spells them with one dash
/// (`-thread=1,2`, `-processparams`); both spellings work.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "SELogger LogPrinter (SELogger omniscient traces)")]
pub struct LogPrinterArgs {
    /// Only the events of these SELogger thread ids (also -thread=ID,...).
    #[arg(
        long = "thread",
        value_name = "ID[,ID]...",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = parse_thread_id
    )]
    pub threads: Option<Vec<i64>>,
    /// Each call's parameters under its entry (also -processparams).
    #[arg(long = "processparams")]
    pub process_params: bool,
    /// Start at the event with EventId N (also -from=N).
    #[arg(long = "from", value_name = "N", value_parser = parse_event_id)]
    pub from: Option<u64>,
    /// Stop before the first event whose EventId is N + M or more (also
    /// -num=M).
    #[arg(long = "num", value_name = "M", value_parser = parse_event_id)]
    pub num: Option<u64>,
}

/// `--from`, `--num`: an event count. LogPrinter takes a non-number as
/// "from the start" / "no limit"; here it is refused, so a typo does not
/// pass for a result.
fn parse_event_id(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("invalid event number: {text:?}"))
}

/// `sp-rtrace-postproc`'s options that change its text, with postproc's
/// spellings, except `-C` and `-r` (uftrace's `--caller-filter` and
/// `--time-range`), long only here.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "sp-rtrace-postproc (sp-rtrace traces)")]
pub struct PostprocArgs {
    /// Only the allocations never freed (postproc's -l).
    #[arg(short = 'l', long = "filter-leaks")]
    pub leaks: bool,
    /// Calls with the same backtrace as one record (postproc's -c).
    #[arg(short = 'c', long = "compress")]
    pub compress: bool,
    /// The order of -c's groups: size, size-asc (the default), count or
    /// count-asc (postproc's -s; needs -c).
    #[arg(
        short = 's',
        long = "sort",
        value_name = "ORDER",
        allow_hyphen_values = true,
        value_parser = parse_sort
    )]
    pub sort: Option<PostprocSort>,
    /// Only the calls made in these contexts (a hexadecimal mask; 0: in
    /// none). postproc's -C, which is uftrace's --caller-filter here.
    #[arg(long = "context", value_name = "MASK", allow_hyphen_values = true, value_parser = parse_mask)]
    pub context: Option<u32>,
    /// Only the calls of these resource types (a hexadecimal mask, bit
    /// 1 << (id - 1); 0: all). postproc's -R.
    #[arg(
        short = 'R',
        long = "resource",
        value_name = "MASK",
        allow_hyphen_values = true,
        value_parser = parse_mask
    )]
    pub resources: Option<u32>,
    /// Backtraces cut to DEPTH frames (postproc's -b).
    #[arg(
        short = 'b',
        long = "backtrace-depth",
        value_name = "DEPTH",
        allow_hyphen_values = true,
        value_parser = parse_backtrace_depth
    )]
    pub backtrace_depth: Option<u32>,
    /// Frames named from the ELF files given beside the trace, as
    /// sp-rtrace-resolve -telf names them. postproc's -r, which is
    /// uftrace's --time-range here.
    #[arg(long = "resolve")]
    pub resolve: bool,
    /// Whose text: 2.0.1 (the default) or 1.6, the protocol 1.4
    /// post-processor (not a postproc option).
    #[arg(
        long = "postproc-release",
        value_name = "RELEASE",
        value_parser = parse_release
    )]
    pub release: Option<PostprocRelease>,
}

/// `-s`: postproc's group orders.
fn parse_sort(text: &str) -> Result<PostprocSort, String> {
    PostprocSort::parse(text).map_err(|e| error_text(&e))
}

/// `--postproc-release`: 1.6 or 2.0.1.
fn parse_release(text: &str) -> Result<PostprocRelease, String> {
    PostprocRelease::parse(text).map_err(|e| error_text(&e))
}

/// `--context`, `-R`: hexadecimal masks, as postproc reads them.
fn parse_mask(text: &str) -> Result<u32, String> {
    parse_hex_mask(text).map_err(|e| error_text(&e))
}

/// `-b`: a frame count.
fn parse_backtrace_depth(text: &str) -> Result<u32, String> {
    text.parse()
        .map_err(|_| format!("invalid backtrace depth: {text}"))
}

/// The core's message without its "bad listing option: " lead.
fn error_text(error: &ListingError) -> String {
    match error {
        ListingError::BadOption(why) | ListingError::Unavailable(why) => why.clone(),
    }
}

/// `--thread`: a thread id as LogPrinter reads it (a Java int).
fn parse_thread_id(text: &str) -> Result<i64, String> {
    text.trim()
        .parse::<i32>()
        .map(i64::from)
        .map_err(|_| format!("invalid thread id: {text:?}"))
}

impl ReplayArgs {
    /// The tool options on the line, each with the spelling the user sees
    /// in `--help` and the tool it belongs to.
    pub fn tool_options(&self) -> Vec<(&'static str, Tool)> {
        let r = &self.replay;
        let l = &self.log_printer;
        let p = &self.postproc;
        [
            (r.fields.is_some(), "-f/--output-fields", Tool::Replay),
            (r.no_args, "--no-args", Tool::Replay),
            (r.no_sched, "--no-sched", Tool::Replay),
            (r.column_view, "--column-view", Tool::Replay),
            (r.task_newline, "--task-newline", Tool::Replay),
            (l.threads.is_some(), "-thread=", Tool::LogPrinter),
            (l.process_params, "-processparams", Tool::LogPrinter),
            (l.from.is_some(), "-from=", Tool::LogPrinter),
            (l.num.is_some(), "-num=", Tool::LogPrinter),
            (p.leaks, "-l/--filter-leaks", Tool::Postproc),
            (p.compress, "-c/--compress", Tool::Postproc),
            (p.sort.is_some(), "-s/--sort", Tool::Postproc),
            (p.context.is_some(), "--context", Tool::Postproc),
            (p.resources.is_some(), "-R/--resource", Tool::Postproc),
            (
                p.backtrace_depth.is_some(),
                "-b/--backtrace-depth",
                Tool::Postproc,
            ),
            (p.resolve, "--resolve", Tool::Postproc),
            (p.release.is_some(), "--postproc-release", Tool::Postproc),
        ]
        .into_iter()
        .filter(|(given, _, _)| *given)
        .map(|(_, name, tool)| (name, tool))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_ids_are_java_ints() {
        assert_eq!(parse_thread_id("7"), Ok(7));
        assert_eq!(parse_thread_id("-1"), Ok(-1));
        assert!(parse_thread_id("x").is_err());
        assert!(parse_thread_id("4294967296").is_err());
    }
}
