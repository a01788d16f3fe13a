//! `flamedrop replay`: the listing of a trace as its format's own tool
//! prints it. The options are checked against the trace's format before
//! the trace is read; the narrowing options make the trace the listing is
//! made of; the text streams out through a buffer, and a reader that stops
//! early (`flamedrop replay … | head`) ends the command quietly.

use crate::files;
use crate::narrow::Steps;
use crate::replay_args::{ReplayArgs, Tool};
use flamedrop_core::analysis::listing::{Listing, ListingOptions, ReplayField};
use flamedrop_core::model::Format;
use flamedrop_core::Trace;
use std::io::{self, BufWriter, Write};

/// Output buffer: large enough that the 20 M-row benchmark trace is
/// written in few system calls.
const BUFFER_BYTES: usize = 1 << 18;

/// Runs `flamedrop replay`; the error is the message to print.
pub fn run(args: ReplayArgs) -> Result<(), String> {
    let steps = Steps::from_args(&args.narrow)?;
    let options = listing_options(&args)?;
    let given = args.tool_options();
    let narrowing = args.narrow.first_given();
    let trace = files::decode_paths_checked(&args.paths, |format| {
        check_tools(&given, format)?;
        check_narrowing(narrowing, format)
    })?;
    let trace = steps.apply(trace)?;
    let listing = Listing::new(&trace, &options).map_err(|e| e.to_string())?;
    write_listing(&listing, &trace, args.output.as_deref())
}

/// The listing options the command line asks for.
fn listing_options(args: &ReplayArgs) -> Result<ListingOptions, String> {
    let mut options = ListingOptions::default();
    let replay = &mut options.replay;
    if let Some(fields) = &args.replay.fields {
        check_field_names(fields)?;
        replay.set_fields(fields).map_err(|e| e.to_string())?;
    }
    replay.no_args = args.replay.no_args;
    replay.no_sched = args.replay.no_sched;
    replay.column_view = args.replay.column_view;
    replay.task_newline = args.replay.task_newline;
    let log_printer = &mut options.log_printer;
    log_printer.threads.clone_from(&args.log_printer.threads);
    log_printer.process_params = args.log_printer.process_params;
    log_printer.from = args.log_printer.from.unwrap_or(0);
    log_printer.num = args.log_printer.num;
    let postproc = &mut options.postproc;
    postproc.leaks = args.postproc.leaks;
    postproc.compress = args.postproc.compress;
    postproc.sort = args.postproc.sort;
    postproc.context = args.postproc.context;
    postproc.resources = args.postproc.resources;
    postproc.depth = args.postproc.backtrace_depth;
    postproc.resolve = args.postproc.resolve;
    postproc.release = args.postproc.release.unwrap_or_default();
    Ok(options)
}

/// `-f`'s names, refused as uftrace refuses them: `none` alone, else an
/// optional `+` and known names (or `all`) between commas; an empty name is
/// unknown.
fn check_field_names(spec: &str) -> Result<(), String> {
    if spec == "none" {
        return Ok(());
    }
    let list = spec.strip_prefix('+').unwrap_or(spec);
    let known: Vec<&str> = ReplayField::ALL.iter().map(|(name, _)| *name).collect();
    match list
        .split(',')
        .find(|name| *name != "all" && !known.contains(name))
    {
        Some(unknown) => Err(format!(
            "Unknown field name '{unknown}'\n  Possible fields are: {}",
            known.join(" ")
        )),
        None => Ok(()),
    }
}

/// The text tool whose layout a format's listing takes.
fn tool_of(format: Format) -> Tool {
    match format {
        Format::SpRtrace => Tool::Postproc,
        Format::Selogger => Tool::LogPrinter,
        _ => Tool::Replay,
    }
}

/// What traces a tool's options are for, as the error message says it.
fn tool_text(tool: Tool) -> &'static str {
    match tool {
        Tool::Replay => "uftrace replay's option, for uftrace, Scaler and SWAP traces",
        Tool::LogPrinter => "SELogger LogPrinter's option, for SELogger traces",
        Tool::Postproc => "sp-rtrace-postproc's option, for sp-rtrace traces",
    }
}

/// The format's name with its article, as the error message says it.
fn shown(format: Format) -> &'static str {
    match format {
        Format::Uftrace => "a uftrace",
        Format::Scaler => "a Scaler",
        Format::Swap => "a SWAP",
        Format::SpRtrace => "an sp-rtrace",
        Format::Selogger => "a SELogger",
        #[allow(unreachable_patterns)]
        _ => "this",
    }
}

/// Refuses the first option on the line that belongs to another format's
/// tool, naming the option and the trace's format.
fn check_tools(given: &[(&'static str, Tool)], format: Format) -> Result<(), String> {
    let tool = tool_of(format);
    match given.iter().find(|(_, of)| *of != tool) {
        Some((option, of)) => Err(format!(
            "{option} does not apply to {} trace ({})",
            shown(format),
            tool_text(*of)
        )),
        None => Ok(()),
    }
}

/// Refuses narrowing for the one listing it cannot change: LogPrinter
/// prints SELogger's event stream, not the spans a narrowing keeps.
fn check_narrowing(option: Option<&str>, format: Format) -> Result<(), String> {
    match option {
        Some(option) if format == Format::Selogger => Err(format!(
            "{option} does not apply to {} trace's listing (LogPrinter prints the \
             event stream; it selects with -thread=, -from= and -num=)",
            shown(format)
        )),
        _ => Ok(()),
    }
}

/// Writes the whole listing to the `-o` file or to stdout. On stdout a
/// closed pipe is not an error: the reader has what it wanted.
fn write_listing(listing: &Listing, trace: &Trace, output: Option<&str>) -> Result<(), String> {
    match output {
        Some(path) => {
            let file =
                std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?;
            write_all(listing, trace, file).map_err(|e| format!("cannot write {path}: {e}"))
        }
        None => match write_all(listing, trace, io::stdout().lock()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            other => other.map_err(|e| format!("cannot write output: {e}")),
        },
    }
}

/// The listing through a buffer, flushed (so a late write error is told).
fn write_all(listing: &Listing, trace: &Trace, sink: impl Write) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(BUFFER_BYTES, sink);
    listing.write_to(trace, &mut out)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_are_checked_as_uftrace_does() {
        for good in [
            "none",
            "time",
            "+time,addr",
            "duration,tid,addr,time,delta,elapsed,task,module",
        ] {
            assert_eq!(check_field_names(good), Ok(()), "{good}");
        }
        for (bad, name) in [
            ("colour", "colour"),
            ("+none", "none"),
            (",time", ""),
            ("time,", ""),
        ] {
            let error = check_field_names(bad).unwrap_err();
            assert!(
                error.starts_with(&format!("Unknown field name '{name}'\n")),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn options_of_another_tool_are_refused_by_name() {
        let given = [
            ("--no-args", Tool::Replay),
            ("-l/--filter-leaks", Tool::Postproc),
        ];
        assert_eq!(
            check_tools(&given, Format::Uftrace),
            Err("-l/--filter-leaks does not apply to a uftrace trace \
                 (sp-rtrace-postproc's option, for sp-rtrace traces)"
                .into())
        );
        assert_eq!(
            check_tools(&given[..1], Format::Selogger),
            Err("--no-args does not apply to a SELogger trace \
                 (uftrace replay's option, for uftrace, Scaler and SWAP traces)"
                .into())
        );
        assert_eq!(check_tools(&given[..1], Format::Swap), Ok(()));
        assert_eq!(check_tools(&given[..1], Format::Scaler), Ok(()));
        assert_eq!(check_tools(&given[1..], Format::SpRtrace), Ok(()));
        assert_eq!(check_tools(&[], Format::Selogger), Ok(()));
    }

    #[test]
    fn narrowing_is_refused_only_for_logprinter() {
        assert!(check_narrowing(Some("-D/--depth"), Format::Selogger)
            .unwrap_err()
            .starts_with("-D/--depth does not apply to a SELogger trace's listing"));
        for format in [
            Format::Uftrace,
            Format::SpRtrace,
            Format::Scaler,
            Format::Swap,
        ] {
            assert_eq!(check_narrowing(Some("-D/--depth"), format), Ok(()));
        }
        assert_eq!(check_narrowing(None, Format::Selogger), Ok(()));
    }
}
