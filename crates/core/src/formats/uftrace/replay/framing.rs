//! Framing and recovery: records read straight from each chunk, a record cut
//! by the chunk's end carried over to the next, the size of the data after a
//! record, and the search for the next plausible record after garbage.

use super::{RecordingState, TaskStream};
use crate::formats::common::u16_at;
use crate::formats::uftrace::argdata::split_block;
use crate::formats::uftrace::records::{self, Kind, Record, RECORD_SIZE};
use crate::model::Severity;

/// How much extra data follows a record.
enum Extra {
    Bytes(usize),
    NeedMore,
    Unknown,
}

/// Where the next plausible record starts in `buf`, searching from `from`
/// in steps of 8 bytes (records are 8-byte aligned).
fn find_next_record(buf: &[u8], from: usize, big_endian: bool, last_time: i64) -> Option<usize> {
    let min_time = u64::try_from(last_time).unwrap_or(0);
    let mut at = from;
    while let Some(head) = record_at(buf, at) {
        if records::plausible(&head, big_endian, min_time) {
            return Some(at);
        }
        at += 8;
    }
    None
}

/// The 16 bytes of the record at `at`, if they are all in `buf`.
fn record_at(buf: &[u8], at: usize) -> Option<[u8; RECORD_SIZE]> {
    buf.get(at..at + RECORD_SIZE)?.try_into().ok()
}

impl TaskStream {
    /// Decodes the next bytes of the file.
    pub fn feed(&mut self, chunk: &[u8], rec: &mut RecordingState) {
        // Records are read straight from the chunk; only a record cut by the
        // chunk's end is carried over and joined with the next chunk.
        let mut carry = std::mem::take(&mut self.carry);
        carry.feed(chunk, |buf, offset| {
            self.buffer_offset = offset;
            self.feed_buffer(buf, rec)
        });
        self.carry = carry;
    }

    /// Decodes the whole records at the front of `buf` (which starts at file
    /// offset `buffer_offset`); how many bytes were used up.
    fn feed_buffer(&mut self, buf: &[u8], rec: &mut RecordingState) -> usize {
        let big_endian = rec.info.big_endian;
        let mut at = 0usize;
        while buf.len() - at >= RECORD_SIZE {
            at = self.plain_run(buf, at, rec);
            let Some(head) = record_at(buf, at) else {
                break;
            };
            let record = records::parse(&head, big_endian);
            let after = buf.get(at + RECORD_SIZE..).unwrap_or_default();
            let extra = if records::sane(&record, self.started.then_some(self.last_time)) {
                self.extra_size(&record, after, rec)
            } else {
                Extra::Unknown
            };
            match extra {
                Extra::NeedMore => break,
                Extra::Unknown => match find_next_record(buf, at + 8, big_endian, self.last_time) {
                    Some(next) => {
                        self.skipping_from
                            .get_or_insert(self.buffer_offset + at as u64);
                        at = next;
                    }
                    None => {
                        self.skipping_from
                            .get_or_insert(self.buffer_offset + at as u64);
                        // Keep the tail not yet searched: the next record may start there.
                        let mut next = at + 8;
                        while next + RECORD_SIZE <= buf.len() {
                            next += 8;
                        }
                        at = next.min(buf.len());
                        break;
                    }
                },
                Extra::Bytes(n) => {
                    let Some(extra) = after.get(..n) else {
                        break;
                    };
                    self.end_skipping(at, rec);
                    if self.keeps(record.time) {
                        self.process(record, extra, rec);
                    }
                    at += RECORD_SIZE + n;
                }
            }
        }
        at
    }

    /// The file is complete: reports a tail that is garbage or a cut record.
    pub(super) fn report_tail(&mut self, rec: &mut RecordingState) {
        let unfinished = self.carry.take_unfinished();
        if let Some(from) = self.skipping_from.take() {
            let lost = self.carry.offset() - from;
            rec.builder.diagnose(Severity::DataLoss, "unreadable-bytes", Some(&self.file), Some(from), lost, || {
                "bytes that are not valid records (bad magic, or argument data no spec explains) were skipped".into()
            });
        } else if let Some(cut) = unfinished {
            let present = cut.bytes.len();
            rec.builder.diagnose(Severity::DataLoss, "truncated-record", Some(&self.file), Some(cut.offset), 1, || {
                format!("the file ends inside a record ({present} of its bytes present): 1 record cut short, and any records after it are missing")
            });
        }
    }

    fn end_skipping(&mut self, at: usize, rec: &mut RecordingState) {
        if let Some(from) = self.skipping_from.take() {
            let lost = self.buffer_offset + at as u64 - from;
            rec.builder.diagnose(Severity::DataLoss, "unreadable-bytes", Some(&self.file), Some(from), lost, || {
                "bytes that are not valid records (bad magic, or argument data no spec explains) were skipped".into()
            });
        }
    }

    fn extra_size(&self, record: &Record, after: &[u8], rec: &mut RecordingState) -> Extra {
        if !record.more {
            return Extra::Bytes(0);
        }
        match record.kind {
            Kind::Lost => Extra::Bytes(0),
            Kind::Event => match u16_at(after, 0, rec.info.endian()) {
                Some(n) => Extra::Bytes((2 + usize::from(n)).div_ceil(8) * 8),
                None => Extra::NeedMore,
            },
            Kind::Entry | Kind::Exit => {
                let time = record.time as i64;
                let info = rec.addr_info(self.space_at(time, rec), time, record.addr);
                let spec = rec.spec(info);
                let specs: &[_] = if record.kind == Kind::Entry {
                    &spec.args
                } else {
                    spec.retval.as_slice()
                };
                if specs.is_empty() {
                    return Extra::Unknown;
                }
                match split_block(after, specs, rec.info.big_endian) {
                    Some((size, _)) => Extra::Bytes(size),
                    None if after.len() > usize::from(u16::MAX) * 8 => Extra::Unknown,
                    None => Extra::NeedMore,
                }
            }
        }
    }
}
