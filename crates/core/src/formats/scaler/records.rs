//! The packed little-endian node records of a `thread_*.bin` file.
//!
//! There is no header: records follow each other to the end of the file. The
//! first byte of a record is its type, which fixes its size (NORMAL 49,
//! PTHREAD 65, SEMAPHORE 57 bytes). An unknown type leaves no way to find the
//! next record, so reading stops there. [`RecordReader`] is fed chunks and
//! keeps only the unfinished tail of a record between them.

use crate::formats::common::{ByteCursor, Carry};

/// Size of the fields every record has: type + six int64s.
pub const BASE_SIZE: usize = 49;

/// What a record's type byte says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An ordinary hooked call.
    Normal,
    /// A call to one of Scaler's known pthread functions (two extra fields).
    Pthread,
    /// A call to one of Scaler's known semaphore functions (one extra field).
    Semaphore,
}

impl Kind {
    /// The kind of type byte `byte`, if it is one Scaler writes.
    pub fn from_byte(byte: u8) -> Option<Kind> {
        match byte {
            1 => Some(Kind::Normal),
            2 => Some(Kind::Pthread),
            3 => Some(Kind::Semaphore),
            _ => None,
        }
    }

    /// Bytes a record of this kind takes.
    pub fn size(self) -> usize {
        match self {
            Kind::Normal => BASE_SIZE,
            Kind::Pthread => BASE_SIZE + 16,
            Kind::Semaphore => BASE_SIZE + 8,
        }
    }
}

/// One node of a thread's invocation tree, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub kind: Kind,
    /// Byte offset of the record in its file.
    pub offset: u64,
    /// V1: file id of the callee's library (as the hook saw it); V2: `realFileID`.
    pub file_id: i64,
    /// V1: `.rela.plt` index in the executable; V2: the callee's address.
    pub func_id: i64,
    /// Microseconds since the Unix epoch, or -1.
    pub start: i64,
    /// Microseconds since the Unix epoch, or -1 when the call never returned.
    pub end: i64,
    /// Record number of the first child, or -1.
    pub first_child: i64,
    /// Number of children the node had when the record was written.
    pub children: i64,
    /// The extra fields (PTHREAD: two, SEMAPHORE: one), raw.
    pub extra: [Option<i64>; 2],
}

/// Why reading a file stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A type byte that is not 1, 2 or 3, at this offset.
    UnknownType { offset: u64, byte: u8 },
    /// The file ended inside a record that starts at this offset.
    Truncated { offset: u64, missing: usize },
}

/// Reads records from chunks of one file.
#[derive(Default)]
pub struct RecordReader {
    /// A record split across chunks, and the file offset reached.
    carry: Carry,
    records: Vec<Record>,
    stop: Option<Stop>,
}

impl RecordReader {
    /// Reads what `chunk` completes; ignores everything after a bad type byte.
    pub fn feed(&mut self, chunk: &[u8]) {
        if self.stop.is_some() {
            return;
        }
        let mut carry = std::mem::take(&mut self.carry);
        carry.feed(chunk, |bytes, offset| self.take_records(bytes, offset));
        self.carry = carry;
    }

    /// The records read, and why reading stopped early, if it did.
    pub fn finish(mut self) -> (Vec<Record>, Option<Stop>) {
        if self.stop.is_none() {
            if let Some(cut) = self.carry.take_unfinished() {
                let size = cut
                    .bytes
                    .first()
                    .and_then(|&b| Kind::from_byte(b))
                    .map_or(BASE_SIZE, Kind::size);
                self.stop = Some(Stop::Truncated {
                    offset: cut.offset,
                    missing: size.saturating_sub(cut.bytes.len()),
                });
            }
        }
        (self.records, self.stop)
    }

    /// Decodes the whole records at the front of `bytes` (the first at file
    /// offset `offset`) until a bad type byte; how many bytes they took.
    fn take_records(&mut self, bytes: &[u8], offset: u64) -> usize {
        let mut at = 0;
        while self.stop.is_none() {
            let Some(&byte) = bytes.get(at) else { break };
            let Some(kind) = Kind::from_byte(byte) else {
                self.stop = Some(Stop::UnknownType {
                    offset: offset + at as u64,
                    byte,
                });
                break;
            };
            let Some(record) = bytes.get(at..at + kind.size()) else {
                break;
            };
            self.take_record(kind, record, offset + at as u64);
            at += kind.size();
        }
        at
    }

    /// Decodes one complete record (`bytes` is exactly its size).
    fn take_record(&mut self, kind: Kind, bytes: &[u8], offset: u64) {
        let mut fields = ByteCursor::le(bytes.get(1..).unwrap_or_default());
        let mut field = || fields.i64().unwrap_or(-1);
        let (file_id, func_id, start, end, first_child, children) =
            (field(), field(), field(), field(), field(), field());
        let extra = match kind {
            Kind::Normal => [None, None],
            Kind::Pthread => [Some(field()), Some(field())],
            Kind::Semaphore => [Some(field()), None],
        };
        self.records.push(Record {
            kind,
            offset,
            file_id,
            func_id,
            start,
            end,
            first_child,
            children,
            extra,
        });
    }
}

/// True when `head` (a file's first bytes) looks like the root record of a
/// Scaler tree: type NORMAL, start -1, a first child at record 1 (or none),
/// a plausible child count, and a known type byte after it if the file
/// goes on.
pub fn looks_like_tree(head: &[u8], size: u64) -> bool {
    let field = |i: usize| -> Option<i64> {
        let at = 1 + 8 * i;
        Some(i64::from_le_bytes(head.get(at..at + 8)?.try_into().ok()?))
    };
    let (Some(file_id), Some(start), Some(first_child), Some(children)) =
        (field(0), field(2), field(4), field(5))
    else {
        return false;
    };
    let root_ok = head.first() == Some(&1)
        && start == -1
        && (-1..1 << 24).contains(&file_id)
        && (first_child == 1 || first_child == -1)
        && (0..1 << 40).contains(&children);
    let next_ok = size <= BASE_SIZE as u64
        || head
            .get(BASE_SIZE)
            .is_some_and(|&b| Kind::from_byte(b).is_some());
    root_ok && next_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(kind: u8, fields: &[i64]) -> Vec<u8> {
        let mut out = vec![kind];
        for f in fields {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out
    }

    #[test]
    fn records_are_sized_by_their_type_across_chunk_borders() {
        let mut bytes = record(1, &[-1, -1, -1, -1, 1, 2]);
        bytes.extend(record(2, &[0, 8, 10, 12, -1, 0, 0x55, 0]));
        bytes.extend(record(3, &[0, 3, 4, 6, -1, 0, 0x66]));
        for chunk in [1, 7, 49, 1000] {
            let mut reader = RecordReader::default();
            for part in bytes.chunks(chunk) {
                reader.feed(part);
            }
            let (records, stop) = reader.finish();
            assert_eq!(stop, None);
            assert_eq!(records.len(), 3);
            assert_eq!(records[1].offset, 49);
            assert_eq!(records[1].extra, [Some(0x55), Some(0)]);
            assert_eq!(records[2].offset, 49 + 65);
            assert_eq!(records[2].extra, [Some(0x66), None]);
        }
    }

    #[test]
    fn an_unknown_type_stops_at_its_offset_and_a_short_tail_is_reported() {
        let mut bytes = record(1, &[-1, -1, -1, -1, 1, 1]);
        bytes.push(9);
        let mut reader = RecordReader::default();
        reader.feed(&bytes);
        assert_eq!(
            reader.finish().1,
            Some(Stop::UnknownType {
                offset: 49,
                byte: 9
            })
        );
        let mut reader = RecordReader::default();
        reader.feed(&bytes[..30]);
        assert_eq!(
            reader.finish().1,
            Some(Stop::Truncated {
                offset: 0,
                missing: 19
            })
        );
    }

    #[test]
    fn a_root_record_is_recognised_from_the_first_bytes() {
        let mut bytes = record(1, &[-1, -1, -1, -1, 1, 9]);
        bytes.extend(record(1, &[0, 10, 5, 6, -1, 0]));
        assert!(looks_like_tree(&bytes[..64], bytes.len() as u64));
        assert!(!looks_like_tree(b"SESS pid=1", 10));
        bytes[17] = 0;
        assert!(!looks_like_tree(&bytes[..64], bytes.len() as u64));
    }
}
