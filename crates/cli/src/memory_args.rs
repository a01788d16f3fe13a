//! `flamedrop memory`'s command line: the resource, the moment, the output
//! form and `sp-rtrace-timeline`'s filters (`--filter-size`, `-time`,
//! `-index`, `-context`, here without the `filter-` prefix) plus
//! `rtrace-calltree`'s "backtraces through FUNC".

use clap::Args;
use flamedrop_core::analysis::listing::parse_hex_mask;
use flamedrop_core::analysis::memory::{MemoryFilter, Moment};

/// `flamedrop memory`.
#[derive(Debug, Args)]
pub struct MemoryArgs {
    /// The trace: a file, several files, a folder or an archive.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// The resource type, by name (memory, fd, fp, file descriptor, …) or
    /// by number from 0 (default: memory, else the first).
    #[arg(long = "resource", value_name = "NAME|INDEX")]
    pub resource: Option<String>,
    /// The moment whose live blocks are listed: peak, end or a time in the
    /// trace's unit (sp-rtrace: a call number).
    #[arg(long = "at", value_name = "peak|end|TIME", value_parser = parse_moment, default_value = "peak")]
    pub at: Moment,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Only allocations of these sizes (both bounds included; either may be
    /// left out; k and m suffixes count 1024s, as sp-rtrace-timeline).
    #[arg(long = "size", value_name = "A-B", value_parser = parse_size_range)]
    pub size: Option<(u64, u64)>,
    /// Only allocations made at these times (trace's unit; both included).
    #[arg(long = "time", value_name = "A-B", value_parser = parse_time_range)]
    pub time: Option<(i64, i64)>,
    /// Only allocations of these indices: sp-rtrace's call numbers, else
    /// the allocation's number from 0 (k and m suffixes count 1000s).
    #[arg(long = "index", value_name = "A-B", value_parser = parse_index_range)]
    pub index: Option<(u64, u64)>,
    /// Only allocations made in a context sharing a bit with this
    /// hexadecimal mask (0: outside every context), as postproc's -C.
    #[arg(long = "context", value_name = "MASK", value_parser = parse_mask)]
    pub context: Option<u32>,
    /// Only allocations whose backtrace has a frame named FUNC.
    #[arg(long = "through", value_name = "FUNC")]
    pub through: Option<String>,
    /// Recompute every number for this time range (both included).
    #[arg(long = "range", value_name = "A-B", value_parser = parse_time_range)]
    pub range: Option<(i64, i64)>,
    /// How many time slices the allocation and free rates use.
    #[arg(long = "slices", value_name = "N", default_value_t = 10)]
    pub slices: usize,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
}

impl MemoryArgs {
    /// The filter the options ask for.
    pub fn filter(&self) -> MemoryFilter {
        MemoryFilter {
            size: self.size,
            time: self.time,
            index: self.index,
            context: self.context,
            through: self.through.clone(),
        }
    }
}

fn parse_moment(text: &str) -> Result<Moment, String> {
    match text {
        "peak" => Ok(Moment::Peak),
        "end" => Ok(Moment::End),
        other => other
            .parse()
            .map(Moment::At)
            .map_err(|_| format!("not peak, end or a time: {other}")),
    }
}

fn parse_mask(text: &str) -> Result<u32, String> {
    parse_hex_mask(text).map_err(|_| format!("not a hexadecimal mask: {text}"))
}

/// `A-B`, `A-` or `-B`: the two texts (an empty side is open).
fn split_range(text: &str) -> Result<(&str, &str), String> {
    text.split_once('-')
        .ok_or_else(|| format!("not a range A-B: {text}"))
}

/// A number with an optional k / m suffix worth `unit` / `unit²`.
fn scaled(text: &str, unit: u64) -> Result<u64, String> {
    let lower = text.to_ascii_lowercase();
    let (digits, factor) = match lower.as_bytes().last() {
        Some(b'k') => (&lower[..lower.len() - 1], unit),
        Some(b'm') => (&lower[..lower.len() - 1], unit * unit),
        _ => (lower.as_str(), 1),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(factor))
        .ok_or_else(|| format!("not a number: {text}"))
}

fn unsigned_range(text: &str, unit: u64) -> Result<(u64, u64), String> {
    let (lo, hi) = split_range(text)?;
    let lo = if lo.is_empty() { 0 } else { scaled(lo, unit)? };
    let hi = if hi.is_empty() {
        u64::MAX
    } else {
        scaled(hi, unit)?
    };
    Ok((lo, hi))
}

fn parse_size_range(text: &str) -> Result<(u64, u64), String> {
    unsigned_range(text, 1024)
}

fn parse_index_range(text: &str) -> Result<(u64, u64), String> {
    unsigned_range(text, 1000)
}

fn parse_time_range(text: &str) -> Result<(i64, i64), String> {
    let (lo, hi) = split_range(text)?;
    let number = |t: &str, open: i64| -> Result<i64, String> {
        if t.is_empty() {
            return Ok(open);
        }
        t.parse().map_err(|_| format!("not a time: {t}"))
    };
    Ok((number(lo, i64::MIN)?, number(hi, i64::MAX - 1)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_like_sp_rtrace_timeline_filters() {
        assert_eq!(parse_size_range("100-200"), Ok((100, 200)));
        assert_eq!(parse_size_range("10k-"), Ok((10240, u64::MAX)));
        assert_eq!(parse_size_range("-1M"), Ok((0, 1 << 20)));
        assert_eq!(parse_index_range("2k-3k"), Ok((2000, 3000)));
        assert_eq!(parse_time_range("5-"), Ok((5, i64::MAX - 1)));
        assert!(parse_size_range("100").is_err());
        assert!(parse_time_range("a-b").is_err());
        assert_eq!(parse_moment("end"), Ok(Moment::End));
        assert_eq!(parse_moment("42"), Ok(Moment::At(42)));
        assert!(parse_moment("later").is_err());
        assert_eq!(parse_mask("0x3"), Ok(3));
    }
}
