//! What a wrong command line prints: uftrace's (getopt's) wording where the
//! mistake is one uftrace also reports (`unrecognized option '--bogus'`,
//! `option requires an argument -- 'D'`, `invalid depth given: x`), clap's own
//! text otherwise. Every such error exits with 2; `--help` and `--version`
//! print to stdout and exit with 0.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::error::Error as _;
use std::process::ExitCode;

/// Prints what clap's `error` says and gives the exit code.
pub fn report(error: &clap::Error, argv: &[String]) -> ExitCode {
    if !error.use_stderr() {
        // --help, --version: not a mistake.
        print!("{}", error.render());
        return ExitCode::SUCCESS;
    }
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        // `flamedrop` alone: the help, as a mistake.
        eprint!("{}", error.render());
        return ExitCode::from(2);
    }
    match uftrace_wording(error, argv) {
        Some(message) => {
            eprintln!("flamedrop: {message}");
            eprintln!("Try '{}' for more information.", help_command(argv));
        }
        None => {
            let text = error.render().to_string();
            eprint!(
                "flamedrop: {}",
                text.strip_prefix("error: ").unwrap_or(&text)
            );
        }
    }
    ExitCode::from(2)
}

/// The message as uftrace words it, for the mistakes uftrace also knows.
fn uftrace_wording(error: &clap::Error, argv: &[String]) -> Option<String> {
    let invalid_arg = || match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => Some(arg.clone()),
        _ => None,
    };
    match error.kind() {
        ErrorKind::UnknownArgument => {
            let arg = invalid_arg()?;
            Some(if arg.starts_with("--") {
                format!("unrecognized option '{arg}'")
            } else if let Some(letter) = arg.strip_prefix('-').and_then(|s| s.chars().next()) {
                format!("invalid option -- '{letter}'")
            } else {
                format!("unexpected argument '{arg}'")
            })
        }
        ErrorKind::ValueValidation => error.source().map(ToString::to_string),
        ErrorKind::InvalidValue if error.get(ContextKind::InvalidValue).is_some_and(is_empty) => {
            // A value-taking option at the end of the line, as getopt says it.
            let last = argv.last()?;
            Some(match last.strip_prefix("--") {
                Some(long) => format!("option '--{long}' requires an argument"),
                None => format!(
                    "option requires an argument -- '{}'",
                    last.trim_start_matches('-')
                ),
            })
        }
        _ => None,
    }
}

fn is_empty(value: &ContextValue) -> bool {
    matches!(value, ContextValue::String(s) if s.is_empty())
}

/// `flamedrop report --help` for the subcommand on the line, else
/// `flamedrop --help`.
fn help_command(argv: &[String]) -> String {
    let command = argv
        .iter()
        .skip(1)
        .find(|a| matches!(a.as_str(), "report" | "diff" | "convert" | "replay"));
    match command {
        Some(c) => format!("flamedrop {c} --help"),
        None => "flamedrop --help".to_owned(),
    }
}
