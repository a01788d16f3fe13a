//! `flamedrop open`'s command line.

use clap::Args;

/// `flamedrop open`.
#[derive(Debug, Args)]
pub struct OpenArgs {
    /// The trace: a file, several files, a folder (for example uftrace.data/)
    /// or an archive of one.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// Print the page's address instead of opening the default browser.
    #[arg(long)]
    pub no_browser: bool,
    /// Serve on this port of 127.0.0.1 (default: a free one).
    #[arg(long, value_name = "N")]
    pub port: Option<u16>,
    /// Stop after this many seconds with no page open (an open page tells
    /// the server every 5 s, once a minute in a long-hidden tab).
    #[arg(long, value_name = "SECS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: u64,
}
