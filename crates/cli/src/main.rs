//! The `flamedrop` command: `report`, `diff`, `convert`, `replay`,
//! `memory` and `components` on top of flamedrop-core, with uftrace's filter
//! options and the page's transforms narrowing the trace first; `open`
//! shows a trace in the viewer built into the binary.

mod args;
mod components;
mod components_args;
mod files;
mod log_printer_words;
mod memory;
mod memory_args;
mod memory_text;
mod narrow;
mod narrow_args;
mod open;
mod open_args;
mod replay;
mod replay_args;
mod saved_input;
mod usage_errors;

use args::{Cli, Command, ConvertArgs, DiffArgs, Format, ReportArgs};
use clap::Parser;
use flamedrop_core::analysis::report_sort::sort_functions;
use flamedrop_core::analysis::{compare, report};
use flamedrop_core::export;
use narrow::Steps;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Named "flamedrop" in usage lines whatever the file is called.
    let argv: Vec<String> = std::iter::once("flamedrop".to_owned())
        .chain(std::env::args().skip(1))
        .collect();
    let argv = log_printer_words::long_form_of_log_printer_words(argv);
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(error) => return usage_errors::report(&error, &argv),
    };
    let result = match cli.command {
        Command::Report(args) => run_report(args),
        Command::Diff(args) => run_diff(args),
        Command::Convert(args) => run_convert(args),
        Command::Replay(args) => replay::run(args),
        Command::Memory(args) => {
            let output = args.output.clone();
            memory::run(args).and_then(|text| write_out(output, &text))
        }
        Command::Components(args) => components::run(args),
        Command::Open(args) => open::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("flamedrop: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_report(args: ReportArgs) -> Result<(), String> {
    let steps = Steps::from_args(&args.narrow)?;
    if let Some(keys) = &args.sort {
        // Bad keys are told before the trace is read; uftrace refuses an
        // empty list too (the core takes it as "no sorting").
        if keys.is_empty() {
            return Err("invalid sort key: ".into());
        }
        sort_functions(&mut [], keys)?;
    }
    let trace = steps.apply(files::decode_paths(&args.paths)?)?;
    let mut r = report(&trace);
    if let Some(keys) = &args.sort {
        sort_functions(&mut r.functions, keys)?;
    }
    let text = if args.json {
        serde_json::to_string_pretty(&r).map_err(|e| e.to_string())? + "\n"
    } else {
        r.to_text()
    };
    write_out(args.output, &text)
}

fn run_diff(args: DiffArgs) -> Result<(), String> {
    let base = files::decode_paths(std::slice::from_ref(&args.base))?;
    let new = files::decode_paths(std::slice::from_ref(&args.new))?;
    let (comparison, _) = compare(&base, &new)?;
    let text = if args.json {
        serde_json::to_string_pretty(&comparison).map_err(|e| e.to_string())? + "\n"
    } else {
        comparison.to_text()
    };
    write_out(args.output, &text)
}

fn run_convert(args: ConvertArgs) -> Result<(), String> {
    let steps = Steps::from_args(&args.narrow)?;
    let trace = steps.apply(files::decode_paths(&args.paths)?)?;
    let bytes = match args.to {
        Format::Chrome => export::chrome::to_chrome_json(&trace).into_bytes(),
        Format::Collapsed => export::collapsed::to_collapsed(&trace).into_bytes(),
        Format::Speedscope => export::speedscope::to_speedscope_json(&trace).into_bytes(),
        Format::Perfetto => export::perfetto::to_perfetto(&trace),
        Format::Pprof => export::pprof::to_pprof(&trace),
    };
    write_out(args.output, &bytes)
}

/// Writes `text` to the `-o` file, or to stdout.
fn write_out(output: Option<String>, text: impl AsRef<[u8]>) -> Result<(), String> {
    match output {
        Some(path) => std::fs::write(&path, text).map_err(|e| format!("cannot write {path}: {e}")),
        None => std::io::stdout()
            .write_all(text.as_ref())
            .map_err(|e| format!("cannot write output: {e}")),
    }
}
