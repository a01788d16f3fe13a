//! Narrowing on the command line: the uftrace options of one command line
//! become one filter step, placed first, then the `--transform` steps; the
//! stack is applied to the trace and what it could not do is said on stderr.

use crate::narrow_args::NarrowArgs;
use flamedrop_core::analysis::transform::{self, Stack, Step, StepError, StepNote, UftraceFilter};
use flamedrop_core::Trace;

/// The steps a command line asks for.
#[derive(Debug, Default)]
pub struct Steps {
    steps: Vec<Step>,
    /// True when the first step is the uftrace options' filter line.
    from_options: bool,
}

impl Steps {
    /// Reads the narrowing options; the error is the message to print.
    pub fn from_args(args: &NarrowArgs) -> Result<Steps, String> {
        let filter = UftraceFilter::from_args(&uftrace_words(args))?;
        filter.check()?;
        let transform: Stack = args
            .transform
            .join("~")
            .parse()
            .map_err(|e| format!("invalid --transform: {e}"))?;
        for (index, step) in transform.steps.iter().enumerate() {
            if let Step::Uftrace(line) = step {
                line.check()
                    .map_err(|e| format!("invalid --transform: step {}: {e}", index + 1))?;
            }
        }
        let from_options = !filter.is_empty();
        let mut steps = Vec::with_capacity(transform.steps.len() + 1);
        if from_options {
            steps.push(Step::Uftrace(filter));
        }
        steps.extend(transform.steps);
        Ok(Steps {
            steps,
            from_options,
        })
    }

    /// The trace narrowed by every step; notes go to stderr. Without steps
    /// the trace is given back untouched.
    pub fn apply(&self, trace: Trace) -> Result<Trace, String> {
        if self.steps.is_empty() {
            return Ok(trace);
        }
        let narrowed = transform::apply(&trace, &self.steps).map_err(|e| self.error_text(&e))?;
        for note in &narrowed.notes {
            eprintln!("flamedrop: note: {}", self.note_text(note));
        }
        Ok(narrowed.trace)
    }

    /// `message` about step `step`, naming the step as the user wrote it:
    /// the uftrace options' complaints alone (as uftrace words them), a
    /// `--transform` step by its place in the `--transform` text and its
    /// label (unless the message starts with it already).
    fn about_step(&self, step: usize, message: &str) -> String {
        let Some(which) = self.steps.get(step) else {
            return format!("step {}: {message}", step + 1);
        };
        if self.from_options && step == 0 {
            return message.to_owned();
        }
        let place = step + 1 - usize::from(self.from_options);
        let label = which.label();
        if message.starts_with(&label) {
            format!("--transform step {place}: {message}")
        } else {
            format!("--transform step {place} ({label}): {message}")
        }
    }

    fn error_text(&self, error: &StepError) -> String {
        self.about_step(error.step, &error.message)
    }

    fn note_text(&self, note: &StepNote) -> String {
        self.about_step(note.step, &note.message)
    }
}

/// The uftrace options as words for [`UftraceFilter::from_args`], which
/// splits `;`-separated patterns and comma-separated task lists as uftrace.
fn uftrace_words(args: &NarrowArgs) -> Vec<String> {
    let mut words = Vec::new();
    let mut push = |option: &str, value: &str| {
        words.push(option.to_owned());
        words.push(value.to_owned());
    };
    for (option, values) in [
        ("--filter", &args.filter),
        ("--notrace", &args.notrace),
        ("--hide", &args.hide),
        ("--caller-filter", &args.caller),
        ("--tid", &args.tid),
    ] {
        for value in values {
            push(option, value);
        }
    }
    if let Some(depth) = args.depth {
        push("--depth", &depth.to_string());
    }
    if let Some(time) = &args.time_filter {
        push("--time-filter", time);
    }
    if let Some(range) = &args.time_range {
        push("--time-range", range);
    }
    if let Some(kind) = &args.match_type {
        push("--match", kind);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_make_one_filter_step_before_the_transforms() {
        let args = NarrowArgs {
            filter: vec!["main".into(), "a;b".into()],
            depth: Some(4),
            tid: vec!["1,2".into()],
            match_type: Some("glob".into()),
            transform: vec!["mf:malloc".into(), "ff:main~df:free".into()],
            ..NarrowArgs::default()
        };
        let steps = Steps::from_args(&args).unwrap();
        let expected = UftraceFilter {
            filter: vec!["main".into(), "a".into(), "b".into()],
            depth: Some(4),
            tids: vec!["1".into(), "2".into()],
            glob: true,
            ..UftraceFilter::default()
        };
        assert_eq!(
            steps.steps,
            [
                Step::Uftrace(expected),
                Step::MergeFunction("malloc".into()),
                Step::FocusFunction("main".into()),
                Step::DropFunction("free".into()),
            ]
        );
        // Errors of the options' step read as uftrace's; a --transform step
        // is counted within --transform.
        let error = |step| StepError {
            step,
            message: "bad".into(),
        };
        assert_eq!(steps.error_text(&error(0)), "bad");
        assert_eq!(
            steps.error_text(&error(2)),
            "--transform step 2 (Focus function: main): bad"
        );
    }

    #[test]
    fn no_options_no_steps() {
        let steps = Steps::from_args(&NarrowArgs::default()).unwrap();
        assert!(steps.steps.is_empty());
        let only_transform = NarrowArgs {
            transform: vec!["rec:fib".into()],
            ..NarrowArgs::default()
        };
        let steps = Steps::from_args(&only_transform).unwrap();
        assert_eq!(steps.steps, [Step::CollapseRecursion("fib".into())]);
        assert_eq!(
            steps.note_text(&StepNote {
                step: 0,
                message: "no span".into()
            }),
            "--transform step 1 (Collapse recursion: fib): no span"
        );
        assert_eq!(
            steps.note_text(&StepNote {
                step: 0,
                message: "Collapse recursion: fib: not in this trace".into()
            }),
            "--transform step 1: Collapse recursion: fib: not in this trace"
        );
    }
}
