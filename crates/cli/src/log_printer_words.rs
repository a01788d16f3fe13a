//! SELogger `LogPrinter` spells its options with one dash (`-thread=1,2`,
//! `-processparams`, `-from=N`, `-num=M`), which clap would read as
//! clusters of short options;
//! `flamedrop replay` takes them in that spelling by rewriting them as long
//! options before clap sees the command line.

use crate::args::Cli;
use clap::CommandFactory;

/// LogPrinter's own spellings, `-thread=ID,...`, `-processparams`,
/// `-from=N` and `-num=M`, rewritten as the long options clap reads
/// (`--thread=…`, …), in the words after the `replay` subcommand and
/// before a `--`. A word that is the value of the option before it
/// (`-F -processparams`) stays as it is.
pub fn long_form_of_log_printer_words(argv: Vec<String>) -> Vec<String> {
    let subcommand = argv
        .iter()
        .skip(1)
        .position(|word| !word.starts_with('-'))
        .map(|place| place + 1);
    let Some(subcommand) = subcommand.filter(|&i| argv.get(i).is_some_and(|w| w == "replay"))
    else {
        return argv;
    };
    let takes_value = value_options();
    let mut value_expected = false;
    let mut after_dashes = false;
    argv.into_iter()
        .enumerate()
        .map(|(index, word)| {
            if index <= subcommand || after_dashes || std::mem::take(&mut value_expected) {
                return word;
            }
            after_dashes = word == "--";
            let rewritten = if word == "-processparams" {
                "--processparams".to_owned()
            } else if LOG_PRINTER_VALUED.iter().any(|w| word.starts_with(w)) {
                format!("-{word}")
            } else {
                word
            };
            value_expected = takes_value.next_word_is_value(&rewritten);
            rewritten
        })
        .collect()
}

/// LogPrinter's options with a value, as it spells them.
const LOG_PRINTER_VALUED: [&str; 3] = ["-thread=", "-from=", "-num="];

/// The options of `replay` that take a value, to tell an option's value
/// from an option.
struct ValueOptions {
    shorts: Vec<char>,
    longs: Vec<String>,
}

/// Read from the command's own definition, so it cannot drift.
fn value_options() -> ValueOptions {
    let mut options = ValueOptions {
        shorts: Vec::new(),
        longs: Vec::new(),
    };
    let command = Cli::command();
    let Some(replay) = command.find_subcommand("replay") else {
        return options;
    };
    for arg in replay.get_arguments() {
        if arg.is_positional() || !arg.get_action().takes_values() {
            continue;
        }
        options.shorts.extend(arg.get_short());
        options.longs.extend(arg.get_long().map(str::to_owned));
    }
    options
}

impl ValueOptions {
    /// True when `word` is an option whose value is the next word (`-F`,
    /// `--filter`, `-lF`), not one with its value attached (`-Fmain`,
    /// `--filter=main`).
    fn next_word_is_value(&self, word: &str) -> bool {
        if let Some(long) = word.strip_prefix("--") {
            return !long.contains('=') && self.longs.iter().any(|l| l == long);
        }
        let Some(cluster) = word.strip_prefix('-') else {
            return false;
        };
        // In a cluster of short flags the first that takes a value takes
        // the rest of the word, or the next word if nothing is left.
        let mut letters = cluster.chars();
        while let Some(letter) = letters.next() {
            if self.shorts.contains(&letter) {
                return letters.as_str().is_empty();
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &[&str]) -> Vec<String> {
        line.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn log_printer_words_become_long_options_after_replay() {
        let line = [
            "flamedrop",
            "replay",
            "dir",
            "-thread=1,2",
            "-processparams",
        ];
        assert_eq!(
            long_form_of_log_printer_words(words(&line)),
            [
                "flamedrop",
                "replay",
                "dir",
                "--thread=1,2",
                "--processparams"
            ]
        );
        // An option's value stays, attached or not; so do words after `--`
        // and other subcommands' words.
        for line in [
            &["flamedrop", "replay", "-F", "-processparams", "dir"][..],
            &["flamedrop", "replay", "-lF", "-thread=1", "dir"],
            &["flamedrop", "replay", "--filter", "-thread=1", "dir"],
            &["flamedrop", "replay", "--", "-processparams"],
            &["flamedrop", "report", "-processparams"],
            &["flamedrop", "-processparams"],
        ] {
            assert_eq!(long_form_of_log_printer_words(words(line)), line);
        }
        let attached = [
            "flamedrop",
            "replay",
            "-Fmain",
            "--filter=x",
            "-processparams",
        ];
        assert_eq!(
            long_form_of_log_printer_words(words(&attached))
                .last()
                .map(String::as_str),
            Some("--processparams")
        );
    }
}
