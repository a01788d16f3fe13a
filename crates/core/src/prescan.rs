//! The pre-scan: what a trace will cost before it is decoded, read from its
//! metadata and a few bytes at each file's ends, cheap whatever its size —
//! and the [`Selection`] (threads, time window) that makes it fit.
//!
//! Two steps, so the browser can read the few bytes asynchronously:
//! [`wants`] lists the byte ranges to read, [`estimate`] takes them. For
//! uftrace it knows each task's bytes and the times of its first and last
//! records; for the single-stream formats only the total size (their
//! decoders cannot yet keep a part, so nothing can be offered but the whole).

use crate::decoder::{FileProbe, Selection};
use crate::formats::{detect, uftrace};
use crate::model::Format;

/// A byte range to read for the pre-scan: (file index, offset, length).
pub use uftrace::scan::Want;

/// One thread as the pre-scan sees it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ThreadEstimate {
    /// The thread's id in the decoded trace (a uftrace tid).
    pub id: String,
    /// The program it ran.
    pub name: String,
    /// Bytes of its records in the input.
    pub bytes: u64,
    /// When its records begin and end, in the trace's unit, if known.
    pub first: Option<i64>,
    pub last: Option<i64>,
}

/// What the pre-scan found.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Estimate {
    pub format: Option<Format>,
    /// Every offered byte.
    pub input_bytes: u64,
    /// Threads whose records can be kept or left out (empty when the
    /// format's decoder cannot keep a part).
    pub threads: Vec<ThreadEstimate>,
    /// Memory a decoded byte of this format's input takes in the tab
    /// (renderer and workers; `docs/performance.md`'s measured peaks).
    pub memory_per_byte: f64,
    /// For a format read as one stream, whose threads and times nothing
    /// tells before decoding (sp-rtrace, SWAP, SELogger's event files): the
    /// stream's files in order, whose beginning can be decoded alone.
    pub stream: Vec<StreamFile>,
}

/// A file of a trace read as one stream.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StreamFile {
    /// Its path among the offered files.
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
}

/// The byte ranges [`estimate`] needs, for these files.
pub fn wants(probes: &[FileProbe]) -> Vec<Want> {
    match detect(probes) {
        Ok(Format::Uftrace) => uftrace::scan::wants(probes),
        _ => Vec::new(),
    }
}

/// The estimate from the probes and the ranges [`wants`] listed, read:
/// `(file index, bytes)`.
pub fn estimate(probes: &[FileProbe], read: &[(usize, Vec<u8>)]) -> Estimate {
    let format = detect(probes).ok();
    let input_bytes = probes.iter().map(|p| p.size).sum();
    let threads = match format {
        Some(Format::Uftrace) => uftrace::scan::tasks(probes, |index| {
            read.iter()
                .find(|(i, _)| *i == index)
                .map(|(_, b)| b.as_slice())
        })
        .into_iter()
        .map(|t| ThreadEstimate {
            id: t.tid,
            name: t.name,
            bytes: t.bytes,
            first: t.first,
            last: t.last,
        })
        .collect(),
        _ => Vec::new(),
    };
    Estimate {
        format,
        input_bytes,
        threads,
        memory_per_byte: format.map_or(MOST_MEMORY_PER_BYTE, memory_per_byte),
        stream: stream_files(format, probes),
    }
}

/// The stream of a single-stream format: for sp-rtrace and SWAP the biggest
/// file (the symbol files or CPU list beside it are small), for SELogger its
/// event files (`log-00001.slg`, `.txt`, …, or `trace.json`) in order.
fn stream_files(format: Option<Format>, probes: &[FileProbe]) -> Vec<StreamFile> {
    let file = |p: &FileProbe| StreamFile {
        path: p.path.clone(),
        bytes: p.size,
    };
    match format {
        Some(Format::SpRtrace | Format::Swap) => probes
            .iter()
            .max_by_key(|p| p.size)
            .map(file)
            .into_iter()
            .collect(),
        Some(Format::Selogger) => {
            let mut events: Vec<StreamFile> = probes
                .iter()
                .filter(|p| {
                    let name = crate::input::file_name(&p.path);
                    name.starts_with("log-") || name == "trace.json"
                })
                .map(file)
                .collect();
            events.sort_by(|a, b| a.path.cmp(&b.path));
            events
        }
        _ => Vec::new(),
    }
}

/// Peak page memory (renderer and workers, above an empty page) per input
/// byte, rounded up from the measurements in `docs/performance.md` (issue
/// 20's table, session 17: uftrace 0.89–0.94, SELogger 1.17–1.20, SWAP
/// 0.97–0.98, sp-rtrace 1.37–1.38); formats not measured so get
/// [`MOST_MEMORY_PER_BYTE`].
fn memory_per_byte(format: Format) -> f64 {
    match format {
        Format::Uftrace => 1.0,
        Format::Selogger => 1.3,
        Format::Swap => 1.1,
        Format::SpRtrace => 1.5,
        _ => MOST_MEMORY_PER_BYTE,
    }
}

/// The memory per input byte assumed where the format is not known yet
/// (or not measured): above every measured format's.
pub const MOST_MEMORY_PER_BYTE: f64 = 2.5;

/// What a tab may hold: an input size it was told, or memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Inputs over this many bytes are too big whatever their format (the
    /// page's `?max_input_mb=`).
    pub input: Option<f64>,
    /// Memory a decoded trace may take, in bytes.
    pub memory: f64,
}

impl Budget {
    /// Inputs over this size are pre-scanned before anything is decoded:
    /// at the costliest format's factor they might not fit.
    pub fn hold_back_above(&self) -> f64 {
        self.input.unwrap_or(self.memory / MOST_MEMORY_PER_BYTE)
    }

    /// The input size that fits, for files the pre-scan looked at (`None`:
    /// it could not read them, so the costliest format is assumed).
    pub fn input_limit(&self, estimate: Option<&Estimate>) -> f64 {
        self.input
            .unwrap_or_else(|| self.memory / Estimate::per_byte(estimate))
    }
}

impl Estimate {
    /// Memory per input byte of the files `estimate` describes (`None`:
    /// the pre-scan could not look, so the costliest format's).
    pub fn per_byte(estimate: Option<&Estimate>) -> f64 {
        estimate.map_or(MOST_MEMORY_PER_BYTE, |e| e.memory_per_byte)
    }

    /// True when a part can be chosen: threads and a time window (the
    /// decoder keeps a selection), or a stream's beginning.
    pub fn can_select(&self) -> bool {
        !self.threads.is_empty() || !self.stream.is_empty()
    }

    /// Bytes that are not any thread's records (metadata, symbols).
    fn shared_bytes(&self) -> u64 {
        let records: u64 = self.threads.iter().map(|t| t.bytes).sum();
        self.input_bytes.saturating_sub(records)
    }

    /// The first and last record times over every thread.
    pub fn time_range(&self) -> Option<(i64, i64)> {
        let first = self.threads.iter().filter_map(|t| t.first).min()?;
        let last = self.threads.iter().filter_map(|t| t.last).max()?;
        Some((first, last))
    }

    /// Input bytes a selection keeps: the shared files, and of each kept
    /// thread its bytes in the window, taking its records as evenly spread
    /// between its first and last.
    pub fn input_for(&self, selection: &Selection) -> f64 {
        let kept: f64 = self
            .threads
            .iter()
            .filter(|t| selection.keeps_thread(&t.id))
            .map(|t| t.bytes as f64 * share_in_window(t, selection.window))
            .sum();
        self.shared_bytes() as f64 + kept
    }

    /// Memory a selection is expected to take.
    pub fn memory_for(&self, selection: &Selection) -> f64 {
        self.input_for(selection) * self.memory_per_byte
    }

    /// The threads to offer first for a budget of `limit` input bytes: the
    /// smallest first while they fit (so as many as fit), in trace order.
    pub fn threads_that_fit(&self, limit: f64) -> Vec<String> {
        let mut by_size: Vec<&ThreadEstimate> = self.threads.iter().collect();
        by_size.sort_by_key(|t| t.bytes);
        let mut room = limit - self.shared_bytes() as f64;
        let mut kept = Vec::new();
        for t in by_size {
            if t.bytes as f64 <= room {
                room -= t.bytes as f64;
                kept.push(t.id.clone());
            }
        }
        self.threads
            .iter()
            .filter(|t| kept.contains(&t.id))
            .map(|t| t.id.clone())
            .collect()
    }

    /// The window to offer first for a budget of `limit` input bytes over
    /// `threads` (all when `None`): from the first record, as long as fits.
    pub fn window_that_fits(&self, limit: f64, threads: Option<Vec<String>>) -> Option<(i64, i64)> {
        let (first, last) = self.time_range()?;
        let fits = |until: i64| {
            let s = Selection {
                window: Some((first, until)),
                threads: threads.clone(),
            };
            self.input_for(&s) <= limit
        };
        if fits(last) {
            return Some((first, last));
        }
        // The kept bytes grow with the window's end: halve the interval.
        let (mut low, mut high) = (first, last);
        while high - low > 1 {
            let mid = low + (high - low) / 2;
            if fits(mid) {
                low = mid;
            } else {
                high = mid;
            }
        }
        Some((first, low))
    }
}

/// The share of a thread's records inside `window`, spread evenly.
fn share_in_window(thread: &ThreadEstimate, window: Option<(i64, i64)>) -> f64 {
    let Some((from, until)) = window else {
        return 1.0;
    };
    let (Some(first), Some(last)) = (thread.first, thread.last) else {
        return 1.0;
    };
    if last <= first {
        return if from <= first && first <= until {
            1.0
        } else {
            0.0
        };
    }
    let overlap = (until.min(last) - from.max(first)).max(0);
    overlap as f64 / (last - first) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thread(id: &str, bytes: u64, first: i64, last: i64) -> ThreadEstimate {
        ThreadEstimate {
            id: id.into(),
            name: "prog".into(),
            bytes,
            first: Some(first),
            last: Some(last),
        }
    }

    fn two_threads() -> Estimate {
        Estimate {
            format: Some(Format::Uftrace),
            input_bytes: 1_100,
            threads: vec![thread("1", 100, 0, 100), thread("2", 900, 0, 1_000)],
            memory_per_byte: 1.6,
            stream: Vec::new(),
        }
    }

    /// A probe of a fixture file, as the page makes it.
    fn probe(fixture: &str) -> FileProbe {
        let path = format!(
            "{}/../../tests/fixtures/{fixture}",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).unwrap();
        FileProbe {
            path: fixture.rsplit('/').next().unwrap().to_owned(),
            size: bytes.len() as u64,
            head: bytes[..bytes.len().min(crate::input::PROBE_BYTES)].to_vec(),
        }
    }

    #[test]
    fn a_single_stream_offers_its_biggest_file() {
        let rtrace = estimate(&[probe("rtrace/c-threads-contexts/20325-0.rtrace")], &[]);
        assert_eq!(rtrace.format, Some(Format::SpRtrace));
        assert!(rtrace.can_select() && rtrace.threads.is_empty());
        assert_eq!(
            rtrace.stream,
            vec![StreamFile {
                path: "20325-0.rtrace".into(),
                bytes: 34_876
            }]
        );
        let swap = estimate(&[probe("swap/demo.swap")], &[]);
        assert_eq!(swap.format, Some(Format::Swap));
        assert_eq!(swap.stream.iter().map(|s| s.bytes).sum::<u64>(), 41_006);
        let dir = "selogger/demo-v060-omnibinary";
        let selogger = estimate(
            &[
                probe(&format!("{dir}/dataids.txt")),
                probe(&format!("{dir}/log-00001.slg")),
                probe(&format!("{dir}/methods.txt")),
            ],
            &[],
        );
        assert_eq!(selogger.format, Some(Format::Selogger));
        let names: Vec<&str> = selogger.stream.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(names, ["log-00001.slg"]);
        let uftrace = estimate(&[probe("uftrace/a-simple-nested/uftrace.data/info")], &[]);
        assert!(uftrace.stream.is_empty());
    }

    #[test]
    fn the_memory_budget_gives_each_format_its_own_input_limit() {
        let budget = Budget {
            input: None,
            memory: 3_000.0,
        };
        assert_eq!(budget.hold_back_above(), 3_000.0 / MOST_MEMORY_PER_BYTE);
        let mut e = two_threads();
        e.memory_per_byte = memory_per_byte(Format::Uftrace);
        assert_eq!(budget.input_limit(Some(&e)), 3_000.0);
        e.memory_per_byte = memory_per_byte(Format::SpRtrace);
        assert_eq!(budget.input_limit(Some(&e)), 2_000.0);
        assert_eq!(budget.input_limit(None), 3_000.0 / MOST_MEMORY_PER_BYTE);
        // Every measured format may take more input than the hold-back size.
        for format in [
            Format::Uftrace,
            Format::Selogger,
            Format::Swap,
            Format::SpRtrace,
        ] {
            assert!(memory_per_byte(format) < MOST_MEMORY_PER_BYTE, "{format:?}");
        }
    }

    #[test]
    fn an_input_limit_holds_whatever_the_format() {
        let budget = Budget {
            input: Some(100.0),
            memory: 3_000.0,
        };
        assert_eq!(budget.hold_back_above(), 100.0);
        assert_eq!(budget.input_limit(Some(&two_threads())), 100.0);
        assert_eq!(budget.input_limit(None), 100.0);
    }

    #[test]
    fn a_selection_keeps_its_share_of_the_bytes() {
        let e = two_threads();
        assert_eq!(e.input_for(&Selection::default()), 1_100.0);
        let one = Selection {
            threads: Some(vec!["1".into()]),
            window: None,
        };
        assert_eq!(e.input_for(&one), 200.0);
        let half = Selection {
            threads: None,
            window: Some((0, 500)),
        };
        assert_eq!(e.input_for(&half), 100.0 + 100.0 + 450.0);
    }

    #[test]
    fn the_offers_fit_the_budget() {
        let e = two_threads();
        assert_eq!(e.threads_that_fit(500.0), vec!["1".to_owned()]);
        let (from, until) = e.window_that_fits(500.0, None).unwrap();
        assert_eq!(from, 0);
        let kept = e.input_for(&Selection {
            threads: None,
            window: Some((from, until)),
        });
        assert!(kept <= 500.0 && kept > 490.0, "{kept}");
        assert_eq!(e.window_that_fits(5_000.0, None), Some((0, 1_000)));
    }
}
