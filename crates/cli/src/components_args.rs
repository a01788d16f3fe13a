//! The options of `flamedrop components`: which threads, which range and
//! which share groups the small components as "other".

use clap::Args;

/// `flamedrop components`.
#[derive(Debug, Args)]
pub struct ComponentsArgs {
    /// The trace: a file, several files, a folder or an archive.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// Print the analysis as JSON (every number, the matrix, the serial vs
    /// parallel view and the thread → library → function tree).
    #[arg(long)]
    pub json: bool,
    /// Only this thread (its id as the trace names it); repeat or separate
    /// with commas for several.
    #[arg(long = "thread", value_name = "TID", value_delimiter = ',')]
    pub thread: Vec<String>,
    /// Sum the components under PCT percent of the time into one "other" row
    /// (of the thread's time in a thread's table, of the process's in the
    /// all-threads table).
    #[arg(long = "other", value_name = "PCT", default_value_t = 0.0, value_parser = parse_percent)]
    pub other: f64,
    /// Only the time from A to B, in the trace's unit (us for Scaler, ns for
    /// uftrace), counted from the trace's first timestamp; calls are clipped
    /// to it.
    #[arg(long = "range", value_name = "A-B", value_parser = parse_range)]
    pub range: Option<(i64, i64)>,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
}

/// Reads `--other`: a percentage from 0 to 100.
fn parse_percent(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim_end_matches('%')
        .parse()
        .map_err(|_| format!("{text:?} is not a percentage"))?;
    if (0.0..=100.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{text:?} is not between 0 and 100"))
    }
}

/// Reads `--range A-B` (whole numbers, A not after B).
fn parse_range(text: &str) -> Result<(i64, i64), String> {
    let (a, b) = text
        .split_once('-')
        .ok_or_else(|| format!("{text:?} is not A-B"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<i64>()
            .map_err(|_| format!("{s:?} in {text:?} is not a whole number"))
    };
    let (a, b) = (number(a)?, number(b)?);
    if a > b {
        return Err(format!("{text:?} starts after it ends"));
    }
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_percentages_are_checked() {
        assert_eq!(parse_range("10-250"), Ok((10, 250)));
        assert!(parse_range("250-10").is_err());
        assert!(parse_range("10").is_err());
        assert!(parse_range("a-b").is_err());
        assert_eq!(parse_percent("2.5"), Ok(2.5));
        assert_eq!(parse_percent("5%"), Ok(5.0));
        assert!(parse_percent("120").is_err());
    }
}
