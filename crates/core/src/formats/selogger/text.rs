//! The text event stream `log-NNNNN.txt` (0.5+): one `seqnum,dataId,threadId,value[,timestamp]`
//! line per event, with the header `Seqnum,DataId,ThreadId,Value[,Timestamp]`
//! in 0.6 and none in 0.5. Values are text (`true`, `-1.5`, object ids) and
//! are turned back into the 64-bit form the binary stream holds.

use super::objects::value_from_text;
use super::replay::{Event, Origin, Replay};
use super::statics::ValueDesc;
use crate::formats::common::Carry;
use crate::model::Severity;

/// Longest line kept while waiting for its end; longer ones are garbage.
const MAX_LINE: usize = 4096;

/// One text stream file being fed in chunks.
pub struct TextStream {
    file: String,
    /// The unfinished last line, and the file offset of every line.
    carry: Carry,
    /// Inside a line too long to be an event, already counted as bad: its
    /// bytes up to the next newline are dropped.
    skipping: bool,
    bad_lines: u64,
    first_bad: Option<u64>,
}

impl TextStream {
    /// Starts reading `file`.
    pub fn new(file: &str) -> Self {
        TextStream {
            file: file.to_owned(),
            carry: Carry::new(),
            skipping: false,
            bad_lines: 0,
            first_bad: None,
        }
    }

    /// Decodes every complete line.
    pub fn feed(&mut self, chunk: &[u8], replay: &mut Replay) {
        let mut carry = std::mem::take(&mut self.carry);
        carry.feed(chunk, |bytes, offset| {
            let mut used = 0;
            while let Some(end) = bytes
                .get(used..)
                .and_then(|b| b.iter().position(|&c| c == b'\n'))
            {
                let line = bytes.get(used..used + end).unwrap_or_default();
                // The tail of a line counted as bad when it grew too long is dropped.
                let tail = std::mem::take(&mut self.skipping);
                if !tail {
                    self.line(line, offset + used as u64, replay);
                }
                used += end + 1;
            }
            used
        });
        if carry.held().len() > MAX_LINE {
            if !std::mem::replace(&mut self.skipping, true) {
                self.bad(carry.offset());
            }
            carry.discard(usize::MAX);
        }
        self.carry = carry;
    }

    fn bad(&mut self, offset: u64) {
        self.bad_lines += 1;
        self.first_bad.get_or_insert(offset);
    }

    /// Decodes the line `raw`, which starts at file offset `at`.
    fn line(&mut self, raw: &[u8], at: u64, replay: &mut Replay) {
        if raw.len() > MAX_LINE {
            // Whatever the chunking, such a line is damage (see `feed`).
            self.bad(at);
            return;
        }
        let text = String::from_utf8_lossy(raw);
        let text = text.trim_end_matches('\r');
        if text.is_empty() || text.starts_with("Seqnum,") {
            return;
        }
        let cols: Vec<&str> = text.split(',').collect();
        let parsed = (|| {
            let seq: i64 = cols.first()?.parse().ok()?;
            let data_id: i64 = cols.get(1)?.parse().ok()?;
            let thread: i64 = cols.get(2)?.parse().ok()?;
            let value_text = *cols.get(3)?;
            let millis = match cols.get(4) {
                Some(t) => Some(t.parse::<i64>().ok()?),
                None => None,
            };
            if cols.len() > 5 {
                return None;
            }
            Some((seq, data_id, thread, value_text, millis))
        })();
        let Some((seq, data_id, thread, value_text, millis)) = parsed else {
            self.bad(at);
            return;
        };
        let desc = replay.value_desc(data_id).unwrap_or(ValueDesc::Long);
        let whole = replay.keeps_whole();
        let value = value_from_text(desc, value_text).unwrap_or_else(|| {
            if !whole {
                return 0;
            }
            replay.builder.diagnose(
                Severity::DataLoss,
                "bad-value",
                Some(&self.file),
                Some(at),
                1,
                || "event values that do not read as their data ID's type were shown as 0".into(),
            );
            0
        });
        let event = Event {
            seq,
            data_id,
            thread,
            value,
            millis,
        };
        let origin = Origin {
            file: &self.file,
            offset: at,
        };
        replay.event(event, &origin);
    }

    /// The file ended: a last line without newline is still decoded.
    pub fn finish(mut self, replay: &mut Replay) {
        if let Some(last) = self.carry.take_unfinished() {
            if !self.skipping {
                self.line(&last.bytes, last.offset, replay);
            }
        }
        if let (Some(offset), true) = (self.first_bad, replay.keeps_whole()) {
            let n = self.bad_lines;
            replay.builder.diagnose(
                Severity::DataLoss,
                "bad-line",
                Some(&self.file),
                Some(offset),
                n,
                || {
                    "lines that are not seqnum,dataId,threadId,value[,timestamp] were skipped"
                        .into()
                },
            );
        }
    }
}
