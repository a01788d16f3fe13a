//! Framing and recovery: records read straight from each chunk, a record cut
//! by the chunk's end carried over to the next, the size of the data after a
//! record, and the search for the next plausible record after garbage.

use super::{RecordingState, TaskStream};
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
    while at + RECORD_SIZE <= buf.len() {
        let mut head = [0u8; RECORD_SIZE];
        head.copy_from_slice(&buf[at..at + RECORD_SIZE]);
        if records::plausible(&head, big_endian, min_time) {
            return Some(at);
        }
        at += 8;
    }
    None
}

impl TaskStream {
    /// Decodes the next bytes of the file.
    pub fn feed(&mut self, chunk: &[u8], rec: &mut RecordingState) {
        // Records are read straight from the chunk; only a record cut by the
        // chunk's end is carried over and joined with the next chunk.
        let mut joined = std::mem::take(&mut self.carry);
        let buf: &[u8] = if joined.is_empty() {
            chunk
        } else {
            joined.extend_from_slice(chunk);
            &joined
        };
        let at = self.feed_buffer(buf, rec);
        let rest = buf.get(at..).unwrap_or(&[]);
        self.carry = rest.to_vec();
        self.carry_offset += at as u64;
    }

    /// Decodes the whole records at the front of `buf` (which starts at file
    /// offset `carry_offset`); how many bytes were used up.
    fn feed_buffer(&mut self, buf: &[u8], rec: &mut RecordingState) -> usize {
        let big_endian = rec.info.big_endian;
        let mut at = 0usize;
        while buf.len() - at >= RECORD_SIZE {
            at = self.plain_run(buf, at, rec);
            if buf.len() - at < RECORD_SIZE {
                break;
            }
            let mut head = [0u8; RECORD_SIZE];
            head.copy_from_slice(&buf[at..at + RECORD_SIZE]);
            let record = records::parse(&head, big_endian);
            let extra = if records::sane(&record, self.started.then_some(self.last_time)) {
                self.extra_size(&record, &buf[at + RECORD_SIZE..], rec)
            } else {
                Extra::Unknown
            };
            match extra {
                Extra::NeedMore => break,
                Extra::Unknown => match find_next_record(buf, at + 8, big_endian, self.last_time) {
                    Some(next) => {
                        self.skipping_from
                            .get_or_insert(self.carry_offset + at as u64);
                        at = next;
                    }
                    None => {
                        self.skipping_from
                            .get_or_insert(self.carry_offset + at as u64);
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
                    if buf.len() - at < RECORD_SIZE + n {
                        break;
                    }
                    self.end_skipping(at, rec);
                    let start = at + RECORD_SIZE;
                    self.process(record, &buf[start..start + n], rec);
                    at = start + n;
                }
            }
        }
        at
    }

    /// The file is complete: reports a tail that is garbage or a cut record.
    pub(super) fn report_tail(&mut self, rec: &mut RecordingState) {
        if let Some(from) = self.skipping_from.take() {
            let lost = self.carry_offset + self.carry.len() as u64 - from;
            rec.builder.diagnose(Severity::DataLoss, "unreadable-bytes", Some(&self.file), Some(from), lost, || {
                "bytes that are not valid records (bad magic, or argument data no spec explains) were skipped".into()
            });
        } else if !self.carry.is_empty() {
            let cut = self.carry.len() as u64;
            rec.builder.diagnose(Severity::DataLoss, "truncated-record", Some(&self.file), Some(self.carry_offset), 1, || {
                format!("the file ends inside a record ({cut} of its bytes present): 1 record cut short, and any records after it are missing")
            });
        }
    }

    fn end_skipping(&mut self, at: usize, rec: &mut RecordingState) {
        if let Some(from) = self.skipping_from.take() {
            let lost = self.carry_offset + at as u64 - from;
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
            Kind::Event => match after.get(..2) {
                Some(len) => {
                    let raw = [len[0], len[1]];
                    let n = usize::from(if rec.info.big_endian {
                        u16::from_be_bytes(raw)
                    } else {
                        u16::from_le_bytes(raw)
                    });
                    Extra::Bytes((2 + n).div_ceil(8) * 8)
                }
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
