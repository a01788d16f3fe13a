//! The state of a decoder working on one part of a trace file
//! (`parts.rs`), what a part after the first hands to part 0, and part 0's
//! join of those hand-overs, in file order, into its own session and
//! diagnostics.

use super::handshake::Handshake;
use super::postproc_buffer::PartReplay;
use super::said::Record;
use super::session::{Awaiting, Session};
use crate::model::TraceBuilder;

/// A decoder's part of the file and what it learnt about it.
pub struct PartMode {
    /// This part's number (from 0) and how many there are.
    pub index: usize,
    pub parts: usize,
    pub handshake: Handshake,
    /// Diagnostics of a part after the first, for part 0 to replay.
    pub record: Record,
    /// The framer met unknown packets or unreadable bytes.
    pub damaged: bool,
    /// Where the part's first packet starts, and the border it ended at.
    pub start: u64,
    pub end: u64,
    /// postproc's read buffer replayed over the part (see `postproc_buffer.rs`).
    pub replay: Option<PartReplay>,
    /// Part 0's ELF files, read once the parts are joined (their
    /// diagnostics come after the trace file's, as in a whole decode).
    pub elves: Vec<(String, Vec<u8>)>,
    /// The part framed on to the end of the file.
    pub to_the_end: bool,
    joined: Joined,
}

/// Where part 0's join stands.
#[derive(Default)]
struct Joined {
    /// Parts joined so far, part 0 included.
    parts: usize,
    /// The joined parts framed on to the end of the file.
    to_the_end: bool,
}

/// What a part after the first hands to part 0.
pub struct HandOver {
    pub session: Option<Session>,
    pub record: Record,
    pub replay: Option<PartReplay>,
    pub start: u64,
    pub end: u64,
    pub to_the_end: bool,
    pub damaged: bool,
}

impl PartMode {
    /// Part `index` of `parts` of a file of `size` bytes.
    pub fn new(handshake: Handshake, size: u64, index: usize, parts: usize) -> Self {
        PartMode {
            index,
            parts,
            handshake,
            record: Record::default(),
            damaged: false,
            start: 0,
            end: size,
            replay: None,
            elves: Vec::new(),
            to_the_end: true,
            joined: Joined {
                parts: 1,
                to_the_end: false,
            },
        }
    }

    /// This part's hand-over, once its bytes are framed.
    pub fn hand_over(self, session: Option<Session>) -> HandOver {
        HandOver {
            session,
            to_the_end: self.to_the_end,
            record: self.record,
            replay: self.replay,
            start: self.start,
            end: self.end,
            damaged: self.damaged,
        }
    }

    /// Part 0 takes in the next part's hand-over (parts come in file order).
    /// Fails when the parts do not join exactly; then the file must be
    /// decoded whole.
    pub fn join(
        &mut self,
        session: &mut Session,
        builder: &mut TraceBuilder,
        file: Option<&str>,
        next: HandOver,
    ) -> Result<(), String> {
        self.joined.parts += 1;
        let last = self.joined.parts >= self.parts;
        if self.joined.to_the_end {
            return self.check_replay(last);
        }
        if next.start != self.end {
            return Err(format!(
                "part {} starts at {} but the parts before end at {}",
                self.joined.parts - 1,
                next.start,
                self.end
            ));
        }
        self.join_replay(next.replay)?;
        let awaited = session.awaiting() == Awaiting::Yes;
        if let Some(next_session) = next.session {
            session.append(next_session);
        }
        next.record.replay(builder, file, awaited);
        self.end = next.end;
        self.joined.to_the_end = next.to_the_end;
        self.damaged = next.damaged;
        self.check_replay(last)
    }

    /// Part 0's own bytes are framed.
    pub fn ended(&mut self) {
        self.joined.to_the_end = self.to_the_end;
    }

    /// postproc's replay goes on into the next part, whose own replay
    /// started at its first packet: that holds if postproc had not stopped
    /// and read the same packets as the framer up to there (no damage).
    fn join_replay(&mut self, next: Option<PartReplay>) -> Result<(), String> {
        let (Some(mine), Some(next)) = (self.replay.as_mut(), next) else {
            return Ok(());
        };
        if mine.stopped {
            return Ok(());
        }
        if self.damaged {
            return Err("postproc's buffer cannot be followed across a damaged border".into());
        }
        if next.past_heap_info.is_some() {
            mine.past_heap_info = next.past_heap_info;
        }
        mine.stopped = next.stopped;
        Ok(())
    }

    /// After the last part: the bytes past the last HINF must be known.
    fn check_replay(&self, last: bool) -> Result<(), String> {
        match &self.replay {
            Some(PartReplay {
                past_heap_info: Some(None),
                ..
            }) if last => Err("the bytes after the last HINF lie in another part".into()),
            _ => Ok(()),
        }
    }

    /// The bytes postproc read past the last 48-byte HINF, once joined.
    pub fn past_heap_info(&self) -> Option<[u8; 8]> {
        self.replay
            .as_ref()
            .and_then(|r| r.past_heap_info.flatten())
    }
}
