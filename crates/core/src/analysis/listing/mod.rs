//! The listing: a trace as the time-ordered text its format's own tool
//! prints — `uftrace replay`, SELogger's `LogPrinter`, `sp-rtrace-postproc`
//! — and, for Scaler and SWAP, which have no text tool, the same text in
//! uftrace's replay layout.
//!
//! A [`Listing`] is an index of rows over a [`Trace`]; it holds no text.
//! Each row is written on demand ([`Listing::write_row`]), so a 20 M-row
//! listing costs a few bytes a row and the page's virtual list writes only
//! the rows on screen. The CLI's `flamedrop replay` writes every row in
//! order ([`Listing::write_to`]); the page's "Copy" / "Save" use the same
//! call, so both give the same bytes.
//!
//! The rows come from a format's [`Rows`]: one implementation per text
//! layout, chosen by the trace's format in [`ListingBuild::new`]. Building
//! the index of a big trace takes a while, so it runs in slices
//! ([`ListingBuild::advance`]) the way a narrowing does.

mod log_printer;
mod options;
mod postproc;
mod replay;

pub use options::{
    parse_hex_mask, ListingOptions, LogPrinterOptions, PostprocOptions, PostprocRelease,
    PostprocSort, ReplayField, ReplayOptions,
};

use crate::analysis::meter::{run_to_end, Meter};
use crate::model::{Format, StrId, Trace};
use std::fmt;
use std::future::Future;
use std::io::{self, Write};
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// What a row is, for the page's folding and colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// Opens a call that has rows inside it (`f() {`); folds up to its
    /// [`RowInfo::closed_by`] row.
    Entry,
    /// Closes a call (`} /* f */`).
    Exit,
    /// A call with nothing inside it, on one row (`f();`).
    Leaf,
    /// An event or marker (`/* read:proc/statm … */`, a SELogger event).
    Event,
    /// A record of its own (an sp-rtrace call, a SELogger event line) that
    /// may have rows under it (its backtrace).
    Record,
    /// A row that belongs to the record above it (a backtrace frame).
    Continuation,
    /// Anything else: a LOST line, a blank line between records, a
    /// section heading.
    Note,
}

/// What the page needs to know of a row besides its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowInfo {
    pub kind: RowKind,
    /// The thread (index into `Trace::threads`) the row belongs to.
    pub thread: Option<u32>,
    /// The span of that thread the row opens, closes or is.
    pub span: Option<u32>,
    /// The time of the row, in the trace's unit.
    pub time: Option<i64>,
    /// Nesting depth: how far the row is indented.
    pub depth: u16,
    /// The name the row is coloured by (as the timeline colours it).
    pub name: Option<StrId>,
    /// For a row that can fold: the last row folding it hides (the
    /// matching exit of an entry, the last backtrace frame of a record).
    pub closed_by: Option<usize>,
}

impl RowInfo {
    /// A row of `kind` with nothing else known.
    pub fn new(kind: RowKind) -> RowInfo {
        RowInfo {
            kind,
            thread: None,
            span: None,
            time: None,
            depth: 0,
            name: None,
            closed_by: None,
        }
    }
}

/// Why a trace has no listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListingError {
    /// The trace's format has no listing (a SELogger folder without an
    /// event stream, …); the text says why.
    Unavailable(String),
    /// An option does not apply or is malformed; the text says which.
    BadOption(String),
}

impl fmt::Display for ListingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListingError::Unavailable(why) => write!(f, "no listing: {why}"),
            ListingError::BadOption(why) => write!(f, "bad listing option: {why}"),
        }
    }
}

impl std::error::Error for ListingError {}

/// The rows of one text layout over one trace. The index is built once
/// (by the layout's `async` builder, see [`ListingBuild`]); every call
/// takes the same trace it was built over.
pub trait Rows {
    /// Number of rows.
    fn len(&self) -> usize;
    /// True when there are no rows.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The lines printed before the first row (uftrace's `# DURATION …`
    /// heading, sp-rtrace's header), each without its newline.
    fn header(&self, trace: &Trace) -> Vec<String>;
    /// The lines printed after the last row.
    fn footer(&self, _trace: &Trace) -> Vec<String> {
        Vec::new()
    }
    /// Appends row `row`'s text, without its newline, to `out`. A row
    /// past the end writes nothing.
    fn write_row(&self, trace: &Trace, row: usize, out: &mut String);
    /// What row `row` is (a plain [`RowKind::Note`] past the end).
    fn info(&self, trace: &Trace, row: usize) -> RowInfo;
    /// The row of span `span` of thread `thread` (its entry or leaf row),
    /// if the listing shows it.
    fn row_of_span(&self, trace: &Trace, thread: u32, span: u32) -> Option<usize>;
    /// The row of event `event` of the trace's event log (SELogger), if
    /// the listing prints events.
    fn row_of_event(&self, _event: u32) -> Option<usize> {
        None
    }
    /// The event of the event log row `row` prints, if it prints one.
    fn event_of_row(&self, _row: usize) -> Option<u32> {
        None
    }
}

/// A built listing.
pub struct Listing {
    rows: Box<dyn Rows>,
}

impl Listing {
    /// The listing of `trace`, built to the end at once (the CLI's way).
    pub fn new(trace: &Trace, options: &ListingOptions) -> Result<Listing, ListingError> {
        let work = build(trace, options.clone(), Meter::unlimited());
        run_to_end(work)
    }

    /// A listing over rows built elsewhere (a layout's tests).
    pub fn from_rows(rows: Box<dyn Rows>) -> Listing {
        Listing { rows }
    }

    /// Number of rows (header and footer lines not counted).
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.len() == 0
    }

    /// The lines before the first row.
    pub fn header(&self, trace: &Trace) -> Vec<String> {
        self.rows.header(trace)
    }

    /// The lines after the last row.
    pub fn footer(&self, trace: &Trace) -> Vec<String> {
        self.rows.footer(trace)
    }

    /// Appends row `row`'s text (no newline) to `out`.
    pub fn write_row(&self, trace: &Trace, row: usize, out: &mut String) {
        self.rows.write_row(trace, row, out);
    }

    /// Row `row`'s text.
    pub fn row_text(&self, trace: &Trace, row: usize) -> String {
        let mut out = String::new();
        self.rows.write_row(trace, row, &mut out);
        out
    }

    /// What row `row` is.
    pub fn info(&self, trace: &Trace, row: usize) -> RowInfo {
        self.rows.info(trace, row)
    }

    /// The row showing span `span` of thread `thread`, if any.
    pub fn row_of_span(&self, trace: &Trace, thread: u32, span: u32) -> Option<usize> {
        self.rows.row_of_span(trace, thread, span)
    }

    /// The row of event `event` of the event log, if the listing prints it.
    pub fn row_of_event(&self, event: u32) -> Option<usize> {
        self.rows.row_of_event(event)
    }

    /// The event of the event log row `row` prints, if any.
    pub fn event_of_row(&self, row: usize) -> Option<u32> {
        self.rows.event_of_row(row)
    }

    /// The whole text — header, rows, footer, each line ended by `\n` —
    /// exactly as `flamedrop replay` prints it.
    pub fn write_to(&self, trace: &Trace, out: &mut impl Write) -> io::Result<()> {
        let mut line = String::with_capacity(256);
        for text in self.header(trace) {
            out.write_all(text.as_bytes())?;
            out.write_all(b"\n")?;
        }
        for row in 0..self.len() {
            line.clear();
            self.rows.write_row(trace, row, &mut line);
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        for text in self.footer(trace) {
            out.write_all(text.as_bytes())?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// [`Listing::write_to`] into a string.
    pub fn text(&self, trace: &Trace) -> String {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write_to(trace, &mut out);
        String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
    }
}

type Work<'a> = Pin<Box<dyn Future<Output = Result<Listing, ListingError>> + 'a>>;

/// A listing's index under way: [`ListingBuild::advance`] builds about a
/// budget of rows of it per call, so the page can give way to the browser
/// between two slices. Dropping it cancels the build.
pub struct ListingBuild<'a> {
    meter: Meter,
    work: Option<Work<'a>>,
}

impl<'a> ListingBuild<'a> {
    /// Starts building the listing of `trace`.
    pub fn new(trace: &'a Trace, options: ListingOptions) -> ListingBuild<'a> {
        let meter = Meter::unlimited();
        let work = Box::pin(build(trace, options, meter.clone()));
        ListingBuild {
            meter,
            work: Some(work),
        }
    }

    /// Builds about `budget_rows` rows more; `Some` with the listing once
    /// it is done (then `None` forever).
    pub fn advance(&mut self, budget_rows: usize) -> Option<Result<Listing, ListingError>> {
        let work = self.work.as_mut()?;
        self.meter.refill(budget_rows.max(1));
        let mut context = Context::from_waker(Waker::noop());
        match work.as_mut().poll(&mut context) {
            Poll::Ready(done) => {
                self.work = None;
                Some(done)
            }
            Poll::Pending => None,
        }
    }
}

/// The layout of `trace`'s format, built with `meter`.
async fn build(
    trace: &Trace,
    options: ListingOptions,
    meter: Meter,
) -> Result<Listing, ListingError> {
    let rows: Box<dyn Rows> = match trace.format {
        // Scaler and SWAP have no text tool: they take uftrace's layout.
        Some(Format::Uftrace | Format::Scaler | Format::Swap) => Box::new(
            replay::SpanRows::build(
                trace,
                replay::ReplayLayout::new(trace, &options.replay)?,
                &meter,
            )
            .await,
        ),
        Some(Format::SpRtrace) => {
            Box::new(postproc::PostprocRows::build(trace, &options.postproc, &meter).await?)
        }
        Some(Format::Selogger) => {
            Box::new(log_printer::LogPrinterRows::build(trace, &options.log_printer, &meter).await?)
        }
        #[cfg(feature = "example-format")]
        Some(Format::Example) => Box::new(
            replay::SpanRows::build(
                trace,
                replay::ReplayLayout::new(trace, &options.replay)?,
                &meter,
            )
            .await,
        ),
        None => return Err(ListingError::Unavailable("the trace has no format".into())),
    };
    Ok(Listing { rows })
}
