//! Reading the filter box's line: uftrace's options (`UftraceFilter::parse`)
//! whose values uftrace would refuse whatever the trace holds are refused
//! here with uftrace's words (`UftraceFilter::check`, which `flamedrop
//! report` uses too), so a typo never becomes a step.
//! (What depends on the trace, a pattern that matches nothing, is a note of
//! the applied step instead.) No web types: it is tested natively.

use flamedrop_core::analysis::transform::{Stack, Step, UftraceFilter};

/// The typed line as a filter, or what is wrong with it.
pub fn read_filter_line(line: &str) -> Result<UftraceFilter, String> {
    let filter = UftraceFilter::parse(line)?;
    filter.check()?;
    Ok(filter)
}

/// The first step of `stack` holding a value uftrace refuses, told as the
/// filter bar tells a step's error.
pub fn check_stack(stack: &Stack) -> Result<(), String> {
    for (index, step) in stack.steps.iter().enumerate() {
        if let Step::Uftrace(filter) = step {
            filter
                .check()
                .map_err(|e| format!("step {} ({}): {e}", index + 1, step.label()))?;
        }
    }
    Ok(())
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
