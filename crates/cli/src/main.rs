//! The `flamedrop` command: `report`, `diff` and `convert` on top of flamedrop-core.

mod files;

use flamedrop_core::analysis::{compare, report};
use flamedrop_core::export;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage:
  flamedrop report PATH... [--json]
  flamedrop diff BASE NEW [--json]
  flamedrop convert PATH... --to chrome|speedscope|collapsed [-o FILE]

PATH is a trace file, several files, or a folder (for example uftrace.data/).
diff compares two traces of one program, function by function (BASE and NEW
are each a trace file or a folder; deltas are NEW - BASE).";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("flamedrop: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let Some((command, rest)) = args.split_first() else {
        return Err(USAGE.into());
    };
    let mut paths = Vec::new();
    let mut json = false;
    let mut to: Option<String> = None;
    let mut output: Option<String> = None;
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--to" => to = Some(it.next().ok_or("--to needs a format")?.clone()),
            "-o" | "--output" => output = Some(it.next().ok_or("-o needs a file")?.clone()),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}\n{USAGE}")),
            path => paths.push(path.to_owned()),
        }
    }
    if paths.is_empty() {
        return Err(format!("no PATH given\n{USAGE}"));
    }
    if command == "diff" {
        let [base, new] = paths.as_slice() else {
            return Err(format!(
                "diff needs exactly two traces, BASE and NEW\n{USAGE}"
            ));
        };
        let base = files::decode_paths(std::slice::from_ref(base))?;
        let new = files::decode_paths(std::slice::from_ref(new))?;
        let (comparison, _) = compare(&base, &new)?;
        let text = if json {
            serde_json::to_string_pretty(&comparison).map_err(|e| e.to_string())? + "\n"
        } else {
            comparison.to_text()
        };
        return write_out(output, &text);
    }
    let trace = files::decode_paths(&paths)?;
    let text = match command.as_str() {
        "report" => {
            let r = report(&trace);
            if json {
                serde_json::to_string_pretty(&r).map_err(|e| e.to_string())? + "\n"
            } else {
                r.to_text()
            }
        }
        "convert" => match to.as_deref() {
            Some("chrome") => export::chrome::to_chrome_json(&trace),
            Some("collapsed") => export::collapsed::to_collapsed(&trace),
            Some("speedscope") => export::speedscope::to_speedscope_json(&trace),
            Some(other) => {
                return Err(format!(
                    "cannot convert to {other:?} (chrome, speedscope or collapsed)"
                ))
            }
            None => return Err(format!("convert needs --to\n{USAGE}")),
        },
        other => return Err(format!("unknown command {other:?}\n{USAGE}")),
    };
    write_out(output, &text)
}

/// Writes `text` to the `-o` file, or to stdout.
fn write_out(output: Option<String>, text: &str) -> Result<(), String> {
    match output {
        Some(path) => std::fs::write(&path, text).map_err(|e| format!("cannot write {path}: {e}")),
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| format!("cannot write output: {e}")),
    }
}
