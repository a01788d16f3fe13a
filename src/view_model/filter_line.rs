//! Reading the filter box's line: uftrace's options (`UftraceFilter::parse`)
//! whose values uftrace would refuse whatever the trace holds — a regular
//! expression that does not compile, a task id that is not a positive
//! number, a time it cannot read — are refused here with uftrace's words,
//! as `flamedrop report` refuses them, so a typo never becomes a step.
//! (What depends on the trace, a pattern that matches nothing, is a note of
//! the applied step instead.) No web types: it is tested natively.

use flamedrop_core::analysis::search::Matcher;
use flamedrop_core::analysis::transform::{self, Stack, Step, UftraceFilter};
use flamedrop_core::Trace;

/// The characters that make uftrace read a pattern as a regular expression
/// (its `utils/filter.c`); other patterns name one function exactly.
const REGEX_CHARS: &str = ".?*+-^$|()[]{}";

/// The typed line as a filter, or what is wrong with it.
pub fn read_filter_line(line: &str) -> Result<UftraceFilter, String> {
    let filter = UftraceFilter::parse(line)?;
    check_filter(&filter)?;
    Ok(filter)
}

/// `Err` with uftrace's words if `filter` holds a value uftrace refuses.
pub fn check_filter(filter: &UftraceFilter) -> Result<(), String> {
    bad_pattern(filter)
        .or_else(|| bad_task(filter))
        .or_else(|| bad_time(filter))
        .map_or(Ok(()), Err)
}

/// The first step of `stack` holding a value uftrace refuses, told as the
/// filter bar tells a step's error.
pub fn check_stack(stack: &Stack) -> Result<(), String> {
    for (index, step) in stack.steps.iter().enumerate() {
        if let Step::Uftrace(filter) = step {
            check_filter(filter)
                .map_err(|e| format!("step {} ({}): {e}", index + 1, step.label()))?;
        }
    }
    Ok(())
}

fn bad_pattern(filter: &UftraceFilter) -> Option<String> {
    if filter.glob {
        return None;
    }
    let lists = [
        &filter.filter,
        &filter.notrace,
        &filter.hide,
        &filter.caller,
    ];
    lists.into_iter().flatten().find_map(|pattern| {
        let regex = pattern.contains(|c| REGEX_CHARS.contains(c));
        let error = Matcher::parse(&format!("/{pattern}/")).err()?;
        // regex-lite's text ends with "error: <what is wrong>".
        let reason = error.rsplit("error: ").next().unwrap_or(&error).trim();
        regex.then(|| format!("failed to set filter or trigger: {pattern} ({reason})"))
    })
}

fn bad_task(filter: &UftraceFilter) -> Option<String> {
    let bad = |tid: &&String| tid.trim().parse::<i64>().map_or(true, |t| t <= 0);
    filter
        .tids
        .iter()
        .find(bad)
        .map(|tid| format!("invalid thread id: {tid}"))
}

/// What the time options' reader says of them on an empty trace: it would
/// say it of any trace.
fn bad_time(filter: &UftraceFilter) -> Option<String> {
    let times = UftraceFilter {
        time_filter: filter.time_filter.clone(),
        time_range: filter.time_range.clone(),
        ..UftraceFilter::default()
    };
    if times.is_empty() {
        return None;
    }
    match transform::apply(&Trace::default(), &[Step::Uftrace(times)]) {
        Err(error) => Some(error.message),
        Ok(probe) => probe.notes.into_iter().next().map(|n| n.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_lines_read() {
        for line in [
            "-F main -N ^std:: -D 4 -t 5us",
            "-F [ --match=glob",
            "--tid 1,2 -r 40us~2ms",
        ] {
            assert!(read_filter_line(line).is_ok(), "{line}");
        }
    }

    #[test]
    fn bad_values_are_refused_with_uftrace_words() {
        let error = read_filter_line("-F worker(").unwrap_err();
        assert!(
            error.starts_with("failed to set filter or trigger: worker( ("),
            "{error}"
        );
        assert_eq!(
            read_filter_line("--tid x").unwrap_err(),
            "invalid thread id: x"
        );
        assert!(read_filter_line("-F")
            .unwrap_err()
            .contains("requires an argument"));
        assert!(read_filter_line("-t 5parsecs").is_err());
        let stack: Stack = "mf:x~u:-N%20%5B".parse().unwrap();
        let error = check_stack(&stack).unwrap_err();
        assert!(
            error.starts_with("step 2 (uftrace -N [): failed to set"),
            "{error}"
        );
    }
}
