//! The binary event stream `log-NNNNN.slg`: no header, fixed 16-byte
//! big-endian records (int32 dataId, int32 threadId, int64 value). The record
//! index over all files, in file-number order, is the event's position.

use super::replay::{Event, Origin, Replay};
use crate::model::Severity;

/// Bytes per record.
pub const RECORD_BYTES: usize = 16;

/// One `.slg` file being fed in chunks.
pub struct BinaryStream {
    file: String,
    /// Bytes of a record split across chunks.
    carry: Vec<u8>,
    /// Bytes of this file consumed so far.
    offset: u64,
}

impl BinaryStream {
    /// Starts reading `file`.
    pub fn new(file: &str) -> Self {
        BinaryStream {
            file: file.to_owned(),
            carry: Vec::with_capacity(RECORD_BYTES),
            offset: 0,
        }
    }

    /// Decodes every complete record in `chunk` (plus what was carried over).
    pub fn feed(&mut self, mut chunk: &[u8], replay: &mut Replay) {
        if !self.carry.is_empty() {
            let need = RECORD_BYTES - self.carry.len();
            let take = need.min(chunk.len());
            self.carry
                .extend_from_slice(chunk.get(..take).unwrap_or(&[]));
            chunk = chunk.get(take..).unwrap_or(&[]);
            if self.carry.len() < RECORD_BYTES {
                return;
            }
            let record = std::mem::take(&mut self.carry);
            self.record(&record, replay);
        }
        let mut records = chunk.chunks_exact(RECORD_BYTES);
        for record in &mut records {
            self.record(record, replay);
        }
        self.carry.extend_from_slice(records.remainder());
    }

    fn record(&mut self, record: &[u8], replay: &mut Replay) {
        let (Some(data), Some(thread), Some(value)) = (
            record.get(0..4).and_then(|b| b.try_into().ok()),
            record.get(4..8).and_then(|b| b.try_into().ok()),
            record.get(8..16).and_then(|b| b.try_into().ok()),
        ) else {
            return;
        };
        let event = Event {
            seq: replay.events as i64,
            data_id: i64::from(i32::from_be_bytes(data)),
            thread: i64::from(i32::from_be_bytes(thread)),
            value: i64::from_be_bytes(value),
            millis: None,
        };
        let origin = Origin {
            file: &self.file,
            offset: self.offset,
        };
        replay.event(event, &origin);
        self.offset += RECORD_BYTES as u64;
    }

    /// The file ended: a partial last record is reported.
    pub fn finish(self, replay: &mut Replay) {
        if !self.carry.is_empty() {
            let lost = self.carry.len() as u64;
            replay.builder.diagnose(
                Severity::DataLoss,
                "truncated-record",
                Some(&self.file),
                Some(self.offset),
                lost,
                || format!("the file ends inside a 16-byte record ({lost} bytes left over; the JVM probably stopped before SELogger closed the stream)"),
            );
        }
    }
}
