//! The narrowing options `report`, `convert` and `replay` share: uftrace's
//! filter options with uftrace's spellings, and `--transform` with the step
//! list the page's URL holds.

use clap::Args;

/// The narrowing options of `report`, `convert` and `replay`. uftrace's options make
/// one filter step, applied first; `--transform`'s steps follow.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Filters (uftrace's options)")]
pub struct NarrowArgs {
    /// Only FUNC's calls and what they call (regex; several with ';' or by
    /// repeating the option).
    #[arg(
        short = 'F',
        long = "filter",
        value_name = "FUNC",
        allow_hyphen_values = true
    )]
    pub filter: Vec<String>,
    /// Drop FUNC's calls with what they call.
    #[arg(
        short = 'N',
        long = "notrace",
        value_name = "FUNC",
        allow_hyphen_values = true
    )]
    pub notrace: Vec<String>,
    /// Hide FUNC's calls; what they call moves up one level.
    #[arg(
        short = 'H',
        long = "hide",
        value_name = "FUNC",
        allow_hyphen_values = true
    )]
    pub hide: Vec<String>,
    /// Only the call paths that lead to FUNC.
    #[arg(
        short = 'C',
        long = "caller-filter",
        value_name = "FUNC",
        allow_hyphen_values = true
    )]
    pub caller: Vec<String>,
    /// Only calls nested at most DEPTH levels deep.
    #[arg(
        short = 'D',
        long = "depth",
        value_name = "DEPTH",
        allow_hyphen_values = true,
        value_parser = parse_depth
    )]
    pub depth: Option<u32>,
    /// Hide calls shorter than TIME (e.g. 5us; units ns, us, ms, s, m).
    #[arg(
        short = 't',
        long = "time-filter",
        value_name = "TIME",
        allow_hyphen_values = true
    )]
    pub time_filter: Option<String>,
    /// Only what runs in the time range (A~B, A~ or ~B; timestamps, or
    /// elapsed times with a unit such as 40us~2ms).
    #[arg(
        short = 'r',
        long = "time-range",
        value_name = "RANGE",
        allow_hyphen_values = true
    )]
    pub time_range: Option<String>,
    /// Only these tasks (comma-separated thread ids).
    #[arg(long = "tid", value_name = "TID[,TID]...", allow_hyphen_values = true)]
    pub tid: Vec<String>,
    /// How FUNC patterns match: regex (the default) or glob.
    #[arg(
        long = "match",
        value_name = "TYPE",
        allow_hyphen_values = true,
        value_parser = parse_match
    )]
    pub match_type: Option<String>,
    /// Then these steps, as the page's URL holds them (narrow=), e.g.
    /// mf:malloc~ff:main
    ///
    /// Steps are joined by '~', each CODE:ARGUMENT with CODE one of u (uftrace
    /// options, e.g. u:-F%20main), mf (merge function), mcn (merge call
    /// node: a path, names joined by ','), f (focus on subtree: a path), ff
    /// (focus on function), fs (focus on self), cfs (collapse function
    /// subtree), cr (collapse resource), drec (collapse direct recursion),
    /// rec (collapse recursion), df (drop function). Arguments may be
    /// percent-encoded. Repeated, the lists join in order.
    #[arg(
        long = "transform",
        value_name = "STEPS",
        allow_hyphen_values = true,
        help_heading = "Transforms (Firefox Profiler's)"
    )]
    pub transform: Vec<String>,
}

impl NarrowArgs {
    /// The first narrowing option on the line, as `--help` spells it.
    pub fn first_given(&self) -> Option<&'static str> {
        [
            (!self.filter.is_empty(), "-F/--filter"),
            (!self.notrace.is_empty(), "-N/--notrace"),
            (!self.hide.is_empty(), "-H/--hide"),
            (!self.caller.is_empty(), "-C/--caller-filter"),
            (self.depth.is_some(), "-D/--depth"),
            (self.time_filter.is_some(), "-t/--time-filter"),
            (self.time_range.is_some(), "-r/--time-range"),
            (!self.tid.is_empty(), "--tid"),
            (self.match_type.is_some(), "--match"),
            (!self.transform.is_empty(), "--transform"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }
}

/// `-D`: a positive depth, as uftrace accepts.
fn parse_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(depth) if depth > 0 => Ok(depth),
        _ => Err(format!("invalid depth given: {text}")),
    }
}

/// `--match`: uftrace's two pattern kinds.
fn parse_match(text: &str) -> Result<String, String> {
    match text {
        "regex" | "glob" => Ok(text.to_owned()),
        other => Err(format!("invalid match pattern: {other}")),
    }
}
