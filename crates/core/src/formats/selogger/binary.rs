//! The binary event stream `log-NNNNN.slg`: no header, fixed 16-byte
//! big-endian records (int32 dataId, int32 threadId, int64 value). The record
//! index over all files, in file-number order, is the event's position.

use super::replay::{Event, Origin, Replay};
use crate::formats::common::{ByteCursor, Carry};
use crate::model::Severity;

/// Bytes per record.
pub const RECORD_BYTES: usize = 16;

/// One `.slg` file being fed in chunks.
pub struct BinaryStream {
    file: String,
    /// A record cut by a chunk's end, and the file offset.
    carry: Carry,
}

impl BinaryStream {
    /// Starts reading `file`.
    pub fn new(file: &str) -> Self {
        BinaryStream {
            file: file.to_owned(),
            carry: Carry::new(),
        }
    }

    /// Decodes every complete record in `chunk` (plus what was carried over).
    pub fn feed(&mut self, chunk: &[u8], replay: &mut Replay) {
        let file = self.file.as_str();
        self.carry.feed(chunk, |bytes, offset| {
            let mut records = bytes.chunks_exact(RECORD_BYTES);
            let mut at = offset;
            for record in &mut records {
                if let Some(event) = read_record(record, replay.events) {
                    replay.event(event, &Origin { file, offset: at });
                }
                at += RECORD_BYTES as u64;
            }
            bytes.len() - records.remainder().len()
        });
    }

    /// The file ended: a partial last record is reported.
    pub fn finish(mut self, replay: &mut Replay) {
        let cut = self.carry.take_unfinished();
        if let (Some(cut), true) = (cut, replay.keeps_whole()) {
            let lost = cut.bytes.len() as u64;
            replay.builder.diagnose(
                Severity::DataLoss,
                "truncated-record",
                Some(&self.file),
                Some(cut.offset),
                lost,
                || format!("the file ends inside a 16-byte record ({lost} bytes left over; the JVM probably stopped before SELogger closed the stream)"),
            );
        }
    }
}

/// The event of one 16-byte record, the `seq`-th of the recording.
fn read_record(record: &[u8], seq: u64) -> Option<Event> {
    let mut at = ByteCursor::be(record);
    Some(Event {
        seq: seq as i64,
        data_id: i64::from(at.i32()?),
        thread: i64::from(at.i32()?),
        value: at.i64()?,
        millis: None,
    })
}
