//! Option values uftrace complains about whatever the trace holds — a
//! regular expression that does not compile, a task id that is not a number
//! — refused before the trace is read (times are checked as they are read,
//! by `UftraceFilter::from_args`). `uftrace report` warns and goes on
//! without the option; the command line stops with uftrace's words and exit
//! 2, so a typo never passes for a result. Complaints that depend on the
//! trace (a pattern that matches nothing, a task not in it) stay notes.

use flamedrop_core::analysis::transform::UftraceFilter;

/// The characters that make uftrace read a pattern as a regular expression
/// (its `utils/filter.c`); other patterns name one function exactly.
const REGEX_CHARS: &str = ".?*+-^$|()[]{}";

/// `Err` with the message to print when `filter` holds a value uftrace
/// would refuse.
pub fn check(filter: &UftraceFilter) -> Result<(), String> {
    check_patterns(filter)?;
    check_tids(filter)
}

fn check_patterns(filter: &UftraceFilter) -> Result<(), String> {
    if filter.glob {
        return Ok(());
    }
    let patterns = [
        &filter.filter,
        &filter.notrace,
        &filter.hide,
        &filter.caller,
    ];
    for pattern in patterns.into_iter().flatten() {
        let is_regex =
            pattern.contains(|c| REGEX_CHARS.contains(c)) && !pattern.starts_with("operator ");
        if let (true, Err(error)) = (is_regex, regex_lite::Regex::new(pattern)) {
            // regex-lite's text ends with "error: <what is wrong>".
            let text = error.to_string();
            let reason = text.rsplit("error: ").next().unwrap_or(&text).trim();
            return Err(format!(
                "failed to set filter or trigger: {pattern} ({reason})"
            ));
        }
    }
    Ok(())
}

/// uftrace takes positive task ids only.
fn check_tids(filter: &UftraceFilter) -> Result<(), String> {
    match filter
        .tids
        .iter()
        .find(|tid| tid.trim().parse::<i64>().map_or(true, |t| t <= 0))
    {
        Some(tid) => Err(format!("invalid thread id: {tid}")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(line: &str) -> Result<(), String> {
        check(&UftraceFilter::parse(line).unwrap())
    }

    #[test]
    fn well_formed_values_pass() {
        for line in [
            "-F main -N ^std:: -H a.b -C (x|y)",
            "-F operator[] -F [ --match=glob",
            "-t 5us -D 3",
            "-r 40us~2ms",
            "-r ~1.5ms",
            "-r 502716.38~502716.39",
            "--tid 1,2",
        ] {
            assert_eq!(checked(line), Ok(()), "{line}");
        }
    }

    #[test]
    fn malformed_values_are_told_as_uftrace_tells_them() {
        let error = checked("-F main -N [").unwrap_err();
        assert!(
            error.starts_with("failed to set filter or trigger: [ ("),
            "{error}"
        );
        assert_eq!(checked("--tid 1,x"), Err("invalid thread id: x".into()));
        assert_eq!(checked("--tid 0"), Err("invalid thread id: 0".into()));
    }
}
