//! The 16-byte records of `<tid>.dat`: u64 time, then a u64 packing
//! type:2 | more:1 | magic:3 | depth:10 | addr:48.

/// Size of one record without its extra data.
pub const RECORD_SIZE: usize = 16;
/// The magic every record carries (`RECORD_MAGIC_V4`).
pub const RECORD_MAGIC: u8 = 5;

/// What a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Entry,
    Exit,
    Lost,
    Event,
}

/// A record's fixed part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub time: u64,
    pub kind: Kind,
    /// Extra data (arguments, return value, event payload) follows.
    pub more: bool,
    pub magic: u8,
    pub depth: u16,
    /// Function address, event id, or (for LOST) the number of lost records.
    pub addr: u64,
}

/// Reads the fixed part of a record.
pub fn parse(bytes: &[u8; RECORD_SIZE], big_endian: bool) -> Record {
    let mut time = [0u8; 8];
    let mut word = [0u8; 8];
    time.copy_from_slice(&bytes[..8]);
    word.copy_from_slice(&bytes[8..]);
    let (time, word) = if big_endian {
        (u64::from_be_bytes(time), u64::from_be_bytes(word))
    } else {
        (u64::from_le_bytes(time), u64::from_le_bytes(word))
    };
    Record {
        time,
        kind: match word & 3 {
            0 => Kind::Entry,
            1 => Kind::Exit,
            2 => Kind::Lost,
            _ => Kind::Event,
        },
        more: word & 4 != 0,
        magic: ((word >> 3) & 7) as u8,
        depth: ((word >> 6) & 0x3ff) as u16,
        addr: word >> 16,
    }
}

/// Longest gap between two records of one task that is still believed.
pub const MAX_GAP_NS: u64 = 10 * 24 * 3_600_000_000_000;

/// True when a record can be taken as read: the right magic, a LOST record
/// as libmcount writes it (time 0, no extra data), and no leap of days past
/// the task's previous record.
pub fn sane(record: &Record, previous_time: Option<i64>) -> bool {
    if record.magic != RECORD_MAGIC {
        return false;
    }
    if record.kind == Kind::Lost {
        return record.time == 0 && !record.more;
    }
    match previous_time {
        Some(prev) => record.time.saturating_sub(prev.max(0) as u64) <= MAX_GAP_NS,
        None => true,
    }
}

/// True when `bytes` could start a record at or after `min_time` (used to
/// find the next record after bytes that cannot be read).
pub fn plausible(bytes: &[u8; RECORD_SIZE], big_endian: bool, min_time: u64) -> bool {
    let r = parse(bytes, big_endian);
    r.magic == RECORD_MAGIC
        && r.kind != Kind::Lost
        && r.time >= min_time
        && r.time - min_time < 3_600_000_000_000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notes_example_record() {
        let bytes = [
            0x51, 0x2e, 0x34, 0x49, 0x35, 0, 0, 0, 0x28, 0x00, 0x50, 0x20, 0x8b, 0x50, 0x42, 0x56,
        ];
        let r = parse(&bytes, false);
        assert_eq!(r.time, 0x35_4934_2e51);
        assert_eq!(r.kind, Kind::Entry);
        assert_eq!(r.magic, 5);
        assert_eq!(r.depth, 0);
        assert!(!r.more);
        assert_eq!(r.addr, 0x5642_508b_2050);
    }

    #[test]
    fn an_sdt_event_word() {
        let mut bytes = [0u8; 16];
        bytes[8..].copy_from_slice(&[0x2b, 0x00, 0x40, 0x42, 0x0f, 0, 0, 0]);
        let r = parse(&bytes, false);
        assert_eq!((r.kind, r.addr, r.more), (Kind::Event, 1_000_000, false));
    }
}
