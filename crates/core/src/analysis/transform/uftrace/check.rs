//! The values of a filter line that uftrace refuses whatever the trace
//! holds — a regular expression that does not compile, a task id that is not
//! a positive number, a time it cannot read — told in uftrace's words, so the
//! command line and the page's filter box refuse a typo before it becomes a
//! step. (What depends on the trace, a pattern that matches nothing, is a
//! note of the applied step instead.)

use super::patterns::is_regex;
use super::settings::Plan;
use super::UftraceFilter;
use crate::model::Trace;

impl UftraceFilter {
    /// `Err` with uftrace's words when the line holds a value uftrace
    /// refuses on any trace.
    pub fn check(&self) -> Result<(), String> {
        bad_pattern(self)
            .or_else(|| bad_task(self))
            .or_else(|| bad_time(self))
            .map_or(Ok(()), Err)
    }
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
        let error = regex_lite::Regex::new(pattern).err()?;
        // regex-lite's text ends with "error: <what is wrong>".
        let text = error.to_string();
        let reason = text.rsplit("error: ").next().unwrap_or(&text).trim();
        is_regex(pattern).then(|| format!("failed to set filter or trigger: {pattern} ({reason})"))
    })
}

/// uftrace takes positive task ids only.
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
    match Plan::new(&Trace::default(), &times) {
        Err(message) => Some(message),
        Ok(plan) => plan.warnings.into_iter().next(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(line: &str) -> Result<(), String> {
        UftraceFilter::parse(line)?.check()
    }

    #[test]
    fn well_formed_values_pass() {
        for line in [
            "-F main -N ^std:: -H a.b -C (x|y) -D 4 -t 5us",
            "-F operator[] -F [ --match=glob",
            "-r 40us~2ms",
            "-r ~1.5ms",
            "-r 502716.38~502716.39",
            "--tid 1,2",
        ] {
            assert_eq!(checked(line), Ok(()), "{line}");
        }
    }

    #[test]
    fn refused_values_are_told_as_uftrace_tells_them() {
        let error = checked("-F main -N [").unwrap_err();
        assert!(
            error.starts_with("failed to set filter or trigger: [ ("),
            "{error}"
        );
        let error = checked("-F worker(").unwrap_err();
        assert!(
            error.starts_with("failed to set filter or trigger: worker( ("),
            "{error}"
        );
        assert_eq!(checked("--tid 1,x"), Err("invalid thread id: x".into()));
        assert_eq!(checked("--tid 0"), Err("invalid thread id: 0".into()));
        assert!(checked("-t 5parsecs").is_err());
    }
}
