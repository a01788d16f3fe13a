//! The recorded event sequence of an event-stream trace (SELogger's
//! omniscient `log-*.slg` / `log-*.txt`), kept whole so the listing can print
//! every event as the tracer's own reader (`selogger.reader.LogPrinter`)
//! does. Spans and markers only keep what shapes the call tree; this keeps
//! the rest, compactly: three numbers an event in 8 bytes or less
//! ([`narrow`], [`runs`]:
//! callers read them through [`EventLog::thread_of`], [`EventLog::site_of`]
//! and [`EventLog::value_of`], never the raw columns), and the static
//! tables the reader looks its text up in, once per data id, method and
//! object.
//!
//! Texts are ids into the log's own text table ([`EventLog::text`]), not
//! the trace's string table, which holds the names the views show and
//! search; numbers that are Java `int`s (lines, instruction indexes,
//! parameter indexes) are kept as their 32 bits in a `u32` (read them back
//! with `as i32`).

mod narrow;
mod runs;

use serde::{Deserialize, Serialize};

/// An id into an [`EventLog`]'s text table.
pub type TextId = u32;

/// How a site's 64-bit value is printed ([`EventLog::site_value`]).
pub mod value_form {
    /// The number as recorded (ints, longs, chars, … and every value of
    /// readers that do not decode floats).
    pub const RAW: u8 = 0;
    /// An object id, followed by `,objectType=<type>`.
    pub const OBJECT: u8 = 1;
    /// The low 32 bits as a Java `float`.
    pub const FLOAT: u8 = 2;
    /// The 64 bits as a Java `double`.
    pub const DOUBLE: u8 = 3;
    /// `true` when not zero.
    pub const BOOLEAN: u8 = 4;
    /// No value (a `V` descriptor: a void return); printed as recorded.
    pub const VOID: u8 = 5;
}

/// What a site is to the reader's parameter linking ([`EventLog::site_role`]).
pub mod site_role {
    /// Nothing to link.
    pub const PLAIN: u8 = 0;
    /// METHOD_ENTRY: takes METHOD_PARAM events.
    pub const ENTRY: u8 = 1;
    /// CALL: takes CALL_PARAM events.
    pub const CALL: u8 = 2;
    /// INVOKE_DYNAMIC: takes INVOKE_DYNAMIC_PARAM events.
    pub const INVOKE_DYNAMIC: u8 = 3;
    /// METHOD_PARAM.
    pub const METHOD_PARAM: u8 = 4;
    /// CALL_PARAM.
    pub const CALL_PARAM: u8 = 5;
    /// INVOKE_DYNAMIC_PARAM.
    pub const INVOKE_DYNAMIC_PARAM: u8 = 6;
    /// METHOD_NORMAL_EXIT or METHOD_EXCEPTIONAL_EXIT.
    pub const EXIT: u8 = 7;
    /// A data id the static files do not have.
    pub const MISSING: u8 = 8;
}

/// Every event of the recording, in recorded order, and the static tables
/// its text is made of. Empty for traces without an event sequence.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventLog {
    /// Per event: its place in the recording (the .slg record index, the
    /// text stream's Seqnum). Empty when event k's place is k.
    pub seq: Vec<i64>,
    /// Per event: its thread, an index into `Trace::threads`, while every
    /// thread index fits 16 bits; else empty ([`EventLog::thread_of`]).
    pub thread: Vec<u16>,
    /// Per event: its thread, once one index does not fit 16 bits.
    pub thread_wide: Vec<u32>,
    /// The threads as runs, when that is smaller (then `thread` and
    /// `thread_wide` are empty): the first event of each run, ascending
    /// from 0.
    pub thread_run_event: Vec<u64>,
    /// Per `thread_run_event`: the run's thread.
    pub thread_run: Vec<u32>,
    /// Per event: its data id (a row of the site columns), while every
    /// data id fits 16 bits; else empty ([`EventLog::site_of`]).
    pub site: Vec<u16>,
    /// Per event: its data id, once one does not fit 16 bits.
    pub site_wide: Vec<u32>,
    /// Per event: the recorded value's low 32 bits, when it fits an `i32`;
    /// else `i32::MIN`, and the value is in `value_wide`
    /// ([`EventLog::value_of`]).
    pub value: Vec<u32>,
    /// The events whose value is in `value_wide`, ascending.
    pub value_wide_event: Vec<u64>,
    /// Per `value_wide_event`: the recorded 64-bit value.
    pub value_wide: Vec<i64>,
    /// Per data id: the `EventType` name.
    pub site_type: Vec<TextId>,
    /// Per data id: the method (a row of the method columns), or `u32::MAX`.
    pub site_method: Vec<u32>,
    /// Per data id: the source line (Java int bits).
    pub site_line: Vec<u32>,
    /// Per data id: the instruction index (Java int bits).
    pub site_inst: Vec<u32>,
    /// Per data id: a [`value_form`].
    pub site_value: Vec<u8>,
    /// Per data id: a [`site_role`].
    pub site_role: Vec<u8>,
    /// Per data id: how many parameter events a CALL or INVOKE_DYNAMIC
    /// takes, as the reader counts them.
    pub site_params: Vec<u16>,
    /// Per data id: the parameter index the reader prints for a parameter
    /// event (Java int bits; -1 when it finds none).
    pub site_param_index: Vec<u32>,
    /// Per data id: its attribute text as the reader keeps it (a CALL
    /// prints it after `method:`; variables and fields are named by it).
    pub site_attributes: Vec<TextId>,
    /// Per method: `Class:method` as the reader prints it.
    pub method_place: Vec<TextId>,
    /// Per method: the source file name as the reader prints it.
    pub method_source: Vec<TextId>,
    /// Per method: the methods.txt row as the reader prints it after
    /// `method:` on a METHOD_ENTRY.
    pub method_text: Vec<TextId>,
    /// Per method: how many METHOD_PARAM events its entry takes.
    pub method_params: Vec<u16>,
    /// Per object id: its type name as the reader prints it.
    pub object_type: Vec<TextId>,
    /// The type name printed for an object id past `object_type` (none or
    /// one entry).
    pub object_type_default: Vec<TextId>,
    /// Objects with a text (strings, exceptions), ascending object ids.
    pub object_id: Vec<i64>,
    /// Per `object_id`: a string's content (quoted) or an exception's message.
    pub object_text: Vec<TextId>,
    /// Per `object_id`: an exception's cause (an object id), or 0.
    pub object_cause: Vec<i64>,
    /// The text table: every text's bytes, one after the other.
    pub text_bytes: Vec<u8>,
    /// The text table: where each text ends in `text_bytes`.
    pub text_ends: Vec<u32>,
}

impl EventLog {
    /// Number of events.
    pub fn len(&self) -> usize {
        self.value.len()
    }

    /// True when the log holds no event and no static table.
    pub fn is_empty(&self) -> bool {
        self.value.is_empty() && self.site_type.is_empty()
    }

    /// True when the log has no event.
    fn is_empty_of_events(&self) -> bool {
        self.value.is_empty()
    }

    /// The thread (an index into `Trace::threads`) of event `event`.
    pub fn thread_of(&self, event: usize) -> Option<u32> {
        if !self.thread_run.is_empty() {
            return runs::get(&self.thread_run_event, &self.thread_run, self.len(), event);
        }
        narrow::get(&self.thread, &self.thread_wide, event)
    }

    /// The data id (a row of the site columns) of event `event`.
    pub fn site_of(&self, event: usize) -> Option<u32> {
        narrow::get(&self.site, &self.site_wide, event)
    }

    /// The recorded value of event `event`.
    pub fn value_of(&self, event: usize) -> Option<i64> {
        let low = *self.value.get(event)?;
        narrow::value(low, &self.value_wide_event, &self.value_wide, event)
    }

    /// Every event's thread, in order.
    pub fn threads(&self) -> impl Iterator<Item = u32> + '_ {
        // One of the two forms is empty, so the chain is the other.
        let events = if self.thread_run.is_empty() {
            0
        } else {
            self.len()
        };
        runs::Runs::new(&self.thread_run_event, &self.thread_run, events)
            .chain(narrow::iter(&self.thread, &self.thread_wide))
    }

    /// Every event's data id, in order.
    pub fn sites(&self) -> impl Iterator<Item = u32> + '_ {
        narrow::iter(&self.site, &self.site_wide)
    }

    /// True when the paired columns are consistent: at most one of each
    /// narrow / wide pair filled, and the side table's events ascending,
    /// one value each, each an event whose low bits are the mark.
    pub fn narrow_columns_agree(&self) -> bool {
        let mark = narrow::WIDE_MARK as u32;
        (self.thread.is_empty() || self.thread_wide.is_empty())
            && (self.thread_run.is_empty() || self.thread.is_empty() && self.thread_wide.is_empty())
            && runs::agree(&self.thread_run_event, &self.thread_run, self.len())
            && (self.thread_run.len() + self.thread.len() + self.thread_wide.len() > 0
                || self.is_empty_of_events())
            && (self.site.is_empty() || self.site_wide.is_empty())
            && self.value_wide_event.len() == self.value_wide.len()
            && self.value_wide_event.windows(2).all(|w| w[0] < w[1])
            && self.value_wide_event.iter().all(|&event| {
                usize::try_from(event)
                    .ok()
                    .and_then(|event| self.value.get(event))
                    == Some(&mark)
            })
    }

    /// The place in the recording of event `event`.
    pub fn seq_of(&self, event: usize) -> i64 {
        match self.seq.get(event) {
            Some(&seq) => seq,
            None => event as i64,
        }
    }

    /// Makes room for `events` more events at once, when their number is
    /// known before reading (a binary stream's size): grown by doubling, the
    /// columns would end up to twice their size, and each growth briefly
    /// holds the old and the new column together. A room the allocator
    /// refuses is left to ordinary growth.
    pub fn reserve_exact(&mut self, events: usize) {
        // Threads are kept as runs until that stops paying (push_thread).
        if !self.thread.is_empty() {
            let _ = self.thread.try_reserve_exact(events);
        } else if !self.thread_wide.is_empty() {
            let _ = self.thread_wide.try_reserve_exact(events);
        }
        if self.site_wide.is_empty() {
            let _ = self.site.try_reserve_exact(events);
        } else {
            let _ = self.site_wide.try_reserve_exact(events);
        }
        let _ = self.value.try_reserve_exact(events);
    }

    /// Keeps the threads as runs when that is smaller than the per-event
    /// column they went to while being recorded.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    pub fn compact_threads(&mut self) {
        if !self.thread_run.is_empty() {
            return;
        }
        let dense = self.thread.len() * 2 + self.thread_wide.len() * 4;
        if let Some((starts, runs)) = runs::runs_of(self.threads(), dense) {
            self.thread_run_event = starts;
            self.thread_run = runs;
            self.thread = Vec::new();
            self.thread_wide = Vec::new();
        }
    }

    /// Appends one event.
    pub fn push(&mut self, seq: i64, thread: u32, site: u32, value: i64) {
        let at = self.len() as i64;
        if self.seq.is_empty() && seq != at {
            self.seq = (0..at).collect();
        }
        if !self.seq.is_empty() {
            self.seq.push(seq);
        }
        self.push_thread(at as usize, thread);
        narrow::push(&mut self.site, &mut self.site_wide, site);
        let low = narrow::low_bits(value);
        if low == narrow::WIDE_MARK as u32 {
            self.value_wide_event.push(at as u64);
            self.value_wide.push(value);
        }
        self.value.push(low);
    }

    /// Appends event `at`'s thread: as runs while they stay small (a run
    /// budget, then a sixth of the events: a run takes 12 bytes, an event
    /// 2), else per event from then on.
    fn push_thread(&mut self, at: usize, thread: u32) {
        const RUN_BUDGET: usize = 4096;
        let dense = !self.thread.is_empty() || !self.thread_wide.is_empty();
        if !dense {
            if self.thread_run.last() == Some(&thread) {
                return;
            }
            if self.thread_run.len() < RUN_BUDGET.max(at / 6) {
                self.thread_run_event.push(at as u64);
                self.thread_run.push(thread);
                return;
            }
            // The room reserved for the values is the room the events need.
            let _ = self.thread.try_reserve_exact(self.value.capacity());
            let runs = runs::Runs::new(&self.thread_run_event, &self.thread_run, at);
            for t in runs.collect::<Vec<_>>() {
                narrow::push(&mut self.thread, &mut self.thread_wide, t);
            }
            (self.thread_run_event, self.thread_run) = (Vec::new(), Vec::new());
        }
        narrow::push(&mut self.thread, &mut self.thread_wide, thread);
    }

    /// Text `id` of the text table (empty when there is none).
    pub fn text(&self, id: TextId) -> &str {
        let at = id as usize;
        let Some(&end) = self.text_ends.get(at) else {
            return "";
        };
        let start = match at.checked_sub(1) {
            Some(before) => self.text_ends.get(before).copied().unwrap_or(0),
            None => 0,
        };
        let bytes = self
            .text_bytes
            .get(start as usize..end as usize)
            .unwrap_or(&[]);
        std::str::from_utf8(bytes).unwrap_or("")
    }

    /// Adds `text` to the text table; its id.
    pub fn add_text(&mut self, text: &str) -> TextId {
        self.text_bytes.extend_from_slice(text.as_bytes());
        let id = self.text_ends.len() as TextId;
        self.text_ends.push(self.text_bytes.len() as u32);
        id
    }

    /// Object `object`'s text (string content or exception message) and
    /// its cause (0 when none), if the recording wrote one.
    pub fn object_info(&self, object: i64) -> Option<(&str, i64)> {
        let at = self.object_id.binary_search(&object).ok()?;
        let text = self.text(*self.object_text.get(at)?);
        Some((text, self.object_cause.get(at).copied().unwrap_or(0)))
    }

    /// The type name the reader prints for object `object`.
    pub fn object_type_of(&self, object: i64) -> Option<TextId> {
        let at = usize::try_from(object).ok();
        at.and_then(|at| self.object_type.get(at))
            .or_else(|| self.object_type_default.first())
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_kept_only_when_they_are_not_the_index() {
        let mut log = EventLog::default();
        log.push(0, 0, 1, 5);
        log.push(1, 0, 2, 6);
        assert!(log.seq.is_empty());
        assert_eq!(log.seq_of(1), 1);
        log.push(7, 1, 3, 0);
        assert_eq!(log.seq, [0, 1, 7]);
        assert_eq!(log.seq_of(2), 7);
        assert_eq!(log.len(), 3);
    }

    #[test]
    fn events_read_back_through_the_narrow_columns() {
        let mut log = EventLog::default();
        log.push(0, 2, 1, -5);
        log.push(1, 70_000, 2, 1 << 40);
        log.push(2, 1, 80_000, i64::from(i32::MIN));
        log.push(3, 1, 3, 7);
        assert_eq!(log.thread_of(0), Some(2));
        assert_eq!(log.thread_of(1), Some(70_000));
        assert_eq!(log.site_of(2), Some(80_000));
        assert_eq!(log.site_of(4), None);
        let values: Vec<_> = (0..4).map(|e| log.value_of(e)).collect();
        assert_eq!(
            values,
            [Some(-5), Some(1 << 40), Some(i64::from(i32::MIN)), Some(7)]
        );
        assert_eq!(log.threads().collect::<Vec<_>>(), [2, 70_000, 1, 1]);
        assert_eq!(log.sites().collect::<Vec<_>>(), [1, 2, 80_000, 3]);
        assert_eq!(log.value_wide_event, [1, 2]);
        assert!(log.narrow_columns_agree());
        log.thread = vec![0; 4];
        assert!(!log.narrow_columns_agree());
    }

    #[test]
    fn threads_are_kept_as_runs_while_they_pay() {
        let mut log = EventLog::default();
        let threads = [
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0,
        ];
        for (event, &t) in threads.iter().enumerate() {
            log.push(event as i64, t, 1, 5);
        }
        assert!(log.thread.is_empty());
        assert_eq!(log.thread_run, [0, 2, 0]);
        assert_eq!(log.threads().collect::<Vec<_>>(), threads);
        assert_eq!(log.thread_of(14), Some(2));
        assert_eq!(log.thread_of(24), None);
        assert!(log.narrow_columns_agree());
    }

    #[test]
    fn threads_switching_often_go_per_event_and_back_when_runs_pay() {
        let mut log = EventLog::default();
        let mut threads: Vec<u32> = (0..10_000).map(|e| e % 2).collect();
        threads.extend(std::iter::repeat_n(5, 100_000));
        for (event, &t) in threads.iter().enumerate().take(10_000) {
            log.push(event as i64, t, 1, 5);
        }
        assert!(log.thread_run.is_empty());
        assert_eq!(log.thread.len(), 10_000);
        for (event, &t) in threads.iter().enumerate().skip(10_000) {
            log.push(event as i64, t, 1, 5);
        }
        assert!(log.narrow_columns_agree());
        log.compact_threads();
        assert!(log.thread.is_empty());
        assert_eq!(log.thread_run.len(), 10_001);
        assert!(log.threads().eq(threads.iter().copied()));
        assert_eq!(log.thread_of(9_999), Some(1));
        assert_eq!(log.thread_of(10_000), Some(5));
        assert!(log.narrow_columns_agree());
    }

    #[test]
    fn texts_come_back_by_id() {
        let mut log = EventLog::default();
        let a = log.add_text("METHOD_ENTRY");
        let b = log.add_text("");
        let c = log.add_text("demo/T:main");
        assert_eq!(
            (log.text(a), log.text(b), log.text(c)),
            ("METHOD_ENTRY", "", "demo/T:main")
        );
        assert_eq!(log.text(9), "");
    }

    #[test]
    fn unknown_objects_take_the_default_type() {
        let log = EventLog {
            object_type: vec![4, 5],
            object_type_default: vec![9],
            ..EventLog::default()
        };
        assert_eq!(log.object_type_of(1), Some(5));
        assert_eq!(log.object_type_of(2), Some(9));
        assert_eq!(log.object_type_of(-1), Some(9));
    }
}
