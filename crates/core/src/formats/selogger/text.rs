//! The text event stream `log-NNNNN.txt` (0.5+): one `seqnum,dataId,threadId,value[,timestamp]`
//! line per event, with the header `Seqnum,DataId,ThreadId,Value[,Timestamp]`
//! in 0.6 and none in 0.5. Values are text (`true`, `-1.5`, object ids) and
//! are turned back into the 64-bit form the binary stream holds.

use super::objects::value_from_text;
use super::replay::{Event, Origin, Replay};
use super::statics::ValueDesc;
use crate::model::Severity;

/// Longest line kept while waiting for its end; longer ones are garbage.
const MAX_LINE: usize = 4096;

/// One text stream file being fed in chunks.
pub struct TextStream {
    file: String,
    /// The unfinished last line.
    partial: Vec<u8>,
    /// Byte offset of `partial`'s start.
    line_start: u64,
    bad_lines: u64,
    first_bad: Option<u64>,
}

impl TextStream {
    /// Starts reading `file`.
    pub fn new(file: &str) -> Self {
        TextStream {
            file: file.to_owned(),
            partial: Vec::new(),
            line_start: 0,
            bad_lines: 0,
            first_bad: None,
        }
    }

    /// Decodes every complete line.
    pub fn feed(&mut self, chunk: &[u8], replay: &mut Replay) {
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            let (line, after) = rest.split_at(end);
            let owned;
            let whole: &[u8] = if self.partial.is_empty() {
                line
            } else {
                self.partial.extend_from_slice(line);
                owned = std::mem::take(&mut self.partial);
                &owned
            };
            let length = whole.len() as u64 + 1;
            self.line(whole, replay);
            self.line_start += length;
            rest = after.get(1..).unwrap_or(&[]);
        }
        if self.partial.len() + rest.len() > MAX_LINE {
            self.bad(self.line_start);
            self.line_start += (self.partial.len() + rest.len()) as u64;
            self.partial.clear();
            return;
        }
        self.partial.extend_from_slice(rest);
    }

    fn bad(&mut self, offset: u64) {
        self.bad_lines += 1;
        self.first_bad.get_or_insert(offset);
    }

    fn line(&mut self, raw: &[u8], replay: &mut Replay) {
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
            self.bad(self.line_start);
            return;
        };
        let desc = replay.value_desc(data_id).unwrap_or(ValueDesc::Long);
        let value = value_from_text(desc, value_text).unwrap_or_else(|| {
            let offset = self.line_start;
            let file = self.file.clone();
            replay.builder.diagnose(
                Severity::DataLoss,
                "bad-value",
                Some(&file),
                Some(offset),
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
            offset: self.line_start,
        };
        replay.event(event, &origin);
    }

    /// The file ended: a last line without newline is still decoded.
    pub fn finish(mut self, replay: &mut Replay) {
        if !self.partial.is_empty() {
            let last = std::mem::take(&mut self.partial);
            self.line(&last, replay);
        }
        if let Some(offset) = self.first_bad {
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
