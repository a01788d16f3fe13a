//! sp-rtrace's listing: the text `sp-rtrace-postproc` (2.0.1, or 1.6 on
//! request) prints for a
//! binary trace with no option, `-l` (leaks), `-c` (calls grouped by
//! backtrace), `-s` (group order), `-C` (contexts), `-R` (resource types)
//! `-b` (backtrace depth) and `-r` (frames named as `sp-rtrace-resolve`
//! names them, from the ELF files dropped beside the trace; the modules
//! whose files were not dropped keep `from <module>`).
//!
//! The header lines come first ([`Rows::header`]); then a row per output
//! line: a call (`N. [hh:mm:ss.mmm] malloc(32) = 0x…`, a
//! [`RowKind::Record`]), its `$argument` and `0xframe` lines
//! ([`RowKind::Continuation`]), the blank line after each backtrace; with
//! `-c`, each group's calls, its `# allocation summary` line and its
//! frames. `-l`'s per-resource summary is the footer.

mod facts;
mod header;
mod registry;
mod select;

use super::{ListingError, PostprocOptions, PostprocRelease, RowInfo, RowKind, Rows};
use crate::analysis::meter::Meter;
use crate::model::Trace;
use facts::Keys;
use header::HeaderOptions;
use registry::Registry;
use select::{Group, Kept};
use std::fmt::Write;

/// What a row prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// A call line; `of` is the kept call.
    Call,
    /// The `at`-th `$argument` of the call.
    Argument,
    /// A frame: `at` is its place in [`Registry::frames`].
    Frame,
    /// `# allocation summary:` of group `of`.
    Summary,
    Blank,
}

/// One row: what it prints and of which call (or group).
#[derive(Clone, Copy, Debug)]
struct Row {
    line: Line,
    /// The kept call (or, for a summary, the group) the row belongs to;
    /// `u32::MAX` for a group's frames and blank line.
    of: u32,
    at: u32,
}

/// The rows of postproc's listing of one trace.
pub(super) struct PostprocRows {
    thread: usize,
    registry: Registry,
    /// The kept calls while the rows are built; emptied after.
    calls: Vec<Kept>,
    /// The span of each kept call (facts are read again when a row is
    /// written, so a call costs 4 bytes here).
    spans: Vec<u32>,
    keys: Keys,
    groups: Vec<Group>,
    rows: Vec<Row>,
    /// (span, row of its call line), by span.
    call_rows: Vec<(u32, u32)>,
    header: Vec<String>,
    footer: Vec<String>,
    show_type: bool,
    /// `-r`: frames named.
    resolve: bool,
}

impl PostprocRows {
    /// Builds the rows of `trace` for `options`.
    pub async fn build(
        trace: &Trace,
        options: &PostprocOptions,
        meter: &Meter,
    ) -> Result<PostprocRows, ListingError> {
        if options.sort.is_some() && !options.compress {
            return Err(ListingError::BadOption(
                "-s (sort) only orders the groups of -c".into(),
            ));
        }
        let mut registry = Registry::read(trace);
        let show_type = select::settle_resources(&mut registry, options);
        let thread = trace
            .threads
            .iter()
            .position(|t| !t.spans.is_empty())
            .unwrap_or(0);
        let (calls, blocks) = select_calls(trace, thread, &registry, options, meter).await;
        let mut footer = Vec::new();
        if options.leaks {
            for (text, description, blocks, bytes) in select::leak_summary(&calls, &registry) {
                footer.push(format!("# Resource - {text} ({description}):"));
                footer.push(format!(
                    "# {blocks} block(s) leaked with total size of {bytes} bytes"
                ));
            }
        }
        let filter = [
            (options.leaks, "leaks"),
            (options.compress, "compress"),
            (options.resolve, "resolve"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, tag)| *tag)
        .collect::<Vec<_>>()
        .join("|");
        let header = header::lines(
            trace,
            &registry,
            &HeaderOptions {
                filter: (!filter.is_empty()).then_some(filter),
                depth: options.depth,
                context: options.context,
                release: options.release,
                blocks,
            },
        );
        let mut built = PostprocRows {
            thread,
            registry,
            calls,
            spans: Vec::new(),
            keys: Keys::of(trace),
            groups: Vec::new(),
            rows: Vec::new(),
            call_rows: Vec::new(),
            header,
            footer,
            show_type,
            resolve: options.resolve,
        };
        if options.compress {
            let sort = options.sort.unwrap_or_default();
            built.groups = select::groups(&built.calls, &built.registry, sort);
            built.grouped_rows(options.depth, meter).await;
        } else {
            built.plain_rows(options.depth, meter).await;
        }
        built.call_rows.sort_unstable();
        built.spans = std::mem::take(&mut built.calls)
            .iter()
            .map(|c| c.span)
            .collect();
        Ok(built)
    }

    /// Each call with its arguments, frames and a blank line.
    async fn plain_rows(&mut self, depth: Option<u32>, meter: &Meter) {
        for (of, call) in self.calls.iter().enumerate() {
            meter.tick().await;
            let of = of as u32;
            push_call(&mut self.rows, &mut self.call_rows, of, call);
            let (start, frames) = self.frames(call.facts.backtrace, depth);
            for at in start..start + frames {
                self.rows.push(Row {
                    line: Line::Frame,
                    of,
                    at,
                });
            }
            self.rows.push(Row {
                line: Line::Blank,
                of,
                at: 0,
            });
        }
    }

    /// Each group's calls with their arguments, its summary, its frames and
    /// a blank line.
    async fn grouped_rows(&mut self, depth: Option<u32>, meter: &Meter) {
        for (g, group) in self.groups.iter().enumerate() {
            for &of in &group.calls {
                meter.tick().await;
                if let Some(call) = self.calls.get(of as usize) {
                    push_call(&mut self.rows, &mut self.call_rows, of, call);
                }
            }
            self.rows.push(Row {
                line: Line::Summary,
                of: g as u32,
                at: 0,
            });
            let (start, frames) = self.frames(group.backtrace, depth);
            for at in start..start + frames {
                self.rows.push(Row {
                    line: Line::Frame,
                    of: u32::MAX,
                    at,
                });
            }
            self.rows.push(Row {
                line: Line::Blank,
                of: u32::MAX,
                at: 0,
            });
        }
    }

    /// Where backtrace `number`'s frames start and how many are shown.
    fn frames(&self, number: u32, depth: Option<u32>) -> (u32, u32) {
        let count = self.registry.backtrace(number).len() as u32;
        let shown = depth.map_or(count, |d| count.min(d));
        (self.registry.backtrace_start(number), shown)
    }

    /// The span of kept call `of`.
    fn span_of(&self, of: u32) -> Option<u32> {
        self.spans.get(of as usize).copied()
    }
}

/// The calls postproc lists, in file order, and the heap block's block
/// bounds, after `-R`, `-C` and `-l` in the release's order: 2.0.1 filters
/// contexts, takes the bounds, then leaks; 1.6 filters leaks, then
/// contexts, then takes the bounds.
async fn select_calls(
    trace: &Trace,
    thread: usize,
    registry: &Registry,
    options: &PostprocOptions,
    meter: &Meter,
) -> (Vec<Kept>, (u64, u64)) {
    let keys = Keys::of(trace);
    let spans = trace.threads.get(thread).map_or(0, |t| t.spans.len());
    let mut calls = Vec::with_capacity(spans);
    for span in 0..spans as u32 {
        meter.tick().await;
        let facts = facts::read(trace, thread, span, &keys, registry);
        if select::resource_kept(&facts, registry) {
            calls.push(Kept { span, facts });
        }
    }
    let by_context = |calls: Vec<Kept>| -> Vec<Kept> {
        calls
            .into_iter()
            .filter(|c| select::context_kept(&c.facts, options))
            .collect()
    };
    if options.release == PostprocRelease::V1_6 {
        if options.leaks {
            calls = select::leaks(calls, registry);
        }
        calls = by_context(calls);
        let blocks = select::block_bounds(&calls, registry.pointer_size);
        (calls, blocks)
    } else {
        calls = by_context(calls);
        let blocks = select::block_bounds(&calls, registry.pointer_size);
        if options.leaks {
            calls = select::leaks(calls, registry);
        }
        (calls, blocks)
    }
}

/// A call line and its argument lines.
fn push_call(rows: &mut Vec<Row>, call_rows: &mut Vec<(u32, u32)>, of: u32, call: &Kept) {
    call_rows.push((call.span, rows.len() as u32));
    rows.push(Row {
        line: Line::Call,
        of,
        at: 0,
    });
    for at in 0..call.facts.arguments {
        rows.push(Row {
            line: Line::Argument,
            of,
            at,
        });
    }
}

impl Rows for PostprocRows {
    fn len(&self) -> usize {
        self.rows.len()
    }

    fn header(&self, _trace: &Trace) -> Vec<String> {
        self.header.clone()
    }

    fn footer(&self, _trace: &Trace) -> Vec<String> {
        self.footer.clone()
    }

    fn write_row(&self, trace: &Trace, row: usize, out: &mut String) {
        let Some(r) = self.rows.get(row) else {
            return;
        };
        match r.line {
            Line::Call => {
                if let Some(span) = self.span_of(r.of) {
                    let facts = facts::read(trace, self.thread, span, &self.keys, &self.registry);
                    let show_type = self.show_type;
                    facts::write_call(
                        trace,
                        self.thread,
                        span,
                        &facts,
                        &self.registry,
                        show_type,
                        out,
                    );
                }
            }
            Line::Argument => {
                if let Some(span) = self.span_of(r.of) {
                    facts::write_argument(trace, self.thread, span, r.at, out);
                }
            }
            Line::Frame => {
                let frame = self.registry.frames.get(r.at as usize).copied();
                let frame = frame.unwrap_or(0);
                let _ = write!(out, "\t0x{frame:x}");
                if self.resolve {
                    out.push(' ');
                    self.registry.write_resolved(frame, out);
                }
            }
            Line::Summary => {
                if let Some(g) = self.groups.get(r.of as usize) {
                    out.push_str(&format!(
                        "# allocation summary: {} block(s) with total size {}",
                        g.count, g.size
                    ));
                }
            }
            Line::Blank => {}
        }
    }

    fn info(&self, trace: &Trace, row: usize) -> RowInfo {
        let Some(r) = self.rows.get(row) else {
            return RowInfo::new(RowKind::Note);
        };
        let kind = match r.line {
            Line::Call | Line::Summary => RowKind::Record,
            Line::Argument | Line::Frame => RowKind::Continuation,
            Line::Blank => RowKind::Note,
        };
        let mut info = RowInfo::new(kind);
        if let (Some(span), false) = (self.span_of(r.of), r.line == Line::Summary) {
            let spans = self.thread_spans(trace);
            info.thread = Some(self.thread as u32);
            info.span = Some(span);
            info.time = spans.and_then(|s| s.start.get(span as usize).copied());
            info.name = spans.and_then(|s| s.name.get(span as usize).copied());
        }
        if kind == RowKind::Continuation {
            info.depth = 1;
        }
        if kind == RowKind::Record {
            let last = (row + 1..self.rows.len())
                .take_while(|&next| {
                    self.rows.get(next).is_some_and(|n| match r.line {
                        Line::Summary => n.line == Line::Frame,
                        _ => n.line == Line::Argument || n.line == Line::Frame,
                    })
                })
                .last();
            info.closed_by = last;
        }
        info
    }

    fn row_of_span(&self, _trace: &Trace, thread: u32, span: u32) -> Option<usize> {
        if thread as usize != self.thread {
            return None;
        }
        let at = self
            .call_rows
            .binary_search_by_key(&span, |&(s, _)| s)
            .ok()?;
        self.call_rows.get(at).map(|&(_, row)| row as usize)
    }
}

impl PostprocRows {
    fn thread_spans<'t>(&self, trace: &'t Trace) -> Option<&'t crate::model::Spans> {
        trace.threads.get(self.thread).map(|t| &t.spans)
    }
}
