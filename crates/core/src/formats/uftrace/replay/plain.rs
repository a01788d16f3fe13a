//! The replay's fast path for the records that make up almost every trace:
//! a call or a return with no extra data, in time order, of a function the
//! recent-address table already knows, while nothing unusual is pending.
//! It does what the general path ([`TaskStream::feed_buffer`]) would do
//! for such a record, with one thread look-up per run instead of several
//! per record; the first record it is not sure of ends the run and goes
//! through the general path.

use super::{recent_slot, RecordingState, Special, TaskStream, MAX_GAP_NS};
use crate::formats::uftrace::records::{RECORD_MAGIC, RECORD_SIZE};
use crate::model::StrId;

/// The bits of a record's second word that must be zero or the magic for a
/// plain call or return: the type's upper bit (0 = entry or exit), `more`
/// and the magic.
const PLAIN_MASK: u64 = 0b11_1110;
const PLAIN_BITS: u64 = (RECORD_MAGIC as u64) << 3;

impl TaskStream {
    /// No stack rule is waiting to be applied to the next record.
    fn nothing_unusual_pending(&self) -> bool {
        self.started
            && !self.lost_seen
            && !self.sched_open
            && !self.pending_exec
            && self.pending_longjmp.is_none()
            && self.hidden == 0
            && self.zero_levels.is_empty()
            && self.skipping_from.is_none()
    }

    /// A plain call takes stack slot `level` over; false when the slot was
    /// never used (the general path sets it up).
    #[inline]
    fn plain_entry(&mut self, level: usize, name: StrId) -> bool {
        let Some(entered) = self.entered.get_mut(level) else {
            return false;
        };
        *entered = name;
        if let Some(slot) = self.stale.get_mut(level) {
            *slot = None;
        }
        self.user_count += 1;
        true
    }

    /// Decodes the run of plain records that starts at `at` in `buf`
    /// (little-endian data only); where the run ended.
    pub(super) fn plain_run(&mut self, buf: &[u8], at: usize, rec: &mut RecordingState) -> usize {
        if !self.nothing_unusual_pending() || rec.info.big_endian {
            return at;
        }
        let Some(memo) = self.space.get() else {
            return at;
        };
        let Some(space) = memo.space else {
            return at;
        };
        // A perf event due before a record is merged in by the general path.
        let perf_due = self.perf.front().map_or(i64::MAX, |e| e.time);
        let max_stack = rec.info.max_stack as usize;
        let RecordingState {
            builder, recent, ..
        } = rec;
        let Some(mut sink) = builder.call_sink(self.thread) else {
            return at;
        };
        let mut at = at;
        let mut last_time = self.last_time;
        // Records outside the session's stretch or the kept window go the general way.
        let low = memo.from.max(self.keep_from);
        let high = memo.until.min(self.keep_until.saturating_add(1));
        while let Some((time, word)) = buf
            .get(at..at + RECORD_SIZE)
            .and_then(|head| head.split_first_chunk::<8>())
            .and_then(|(time, rest)| Some((time, rest.first_chunk::<8>()?)))
        {
            let time = u64::from_le_bytes(*time);
            let word = u64::from_le_bytes(*word);
            if word & PLAIN_MASK != PLAIN_BITS {
                break;
            }
            // The general path's sanity check: no leap of days.
            if time.saturating_sub(last_time.max(0) as u64) > MAX_GAP_NS {
                break;
            }
            let Ok(time) = i64::try_from(time) else {
                break;
            };
            if !sink.fits(time) || time > perf_due || time < low || time >= high {
                break;
            }
            let addr = word >> 16;
            let Some(&(known, known_space, info)) = recent.get(recent_slot(addr)) else {
                break;
            };
            if known != addr || known_space != space || info.special != Special::None {
                break;
            }
            if word & 1 == 0 {
                if sink.depth() >= max_stack || !self.plain_entry(sink.depth(), info.name) {
                    break;
                }
                sink.record(time);
                sink.begin(time, info.name);
            } else {
                match sink.top() {
                    Some((_, name)) if name == info.name => {}
                    _ => break,
                }
                sink.record(time);
                self.user_count = self.user_count.saturating_sub(1);
                let start = sink.end(time);
                if sink.depth() == 0 {
                    if let Some(start) = start {
                        self.slot0_duration = time.saturating_sub(start);
                    }
                }
            }
            last_time = time;
            at += RECORD_SIZE;
        }
        self.last_time = last_time;
        at
    }
}
