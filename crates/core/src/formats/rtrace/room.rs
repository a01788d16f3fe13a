//! Room for the collected calls, made once the first megabytes of the
//! stream tell how many calls a byte holds: the vector of calls then never
//! moves. In the page a wasm memory never shrinks, so each block a doubling
//! vector leaves behind stays in the page's memory, and joining the parts
//! of a split decode copied part 0's calls into a block big enough for all;
//! room made ahead is only reserved, never touched, until calls fill it.

use super::session::Session;

/// The room is made once this much of the stream was read: enough calls to
/// judge their density by, few enough that the doubling before is small.
const JUDGE_AFTER_BYTES: u64 = 4 << 20;

/// The fewest bytes a CALL packet takes (its header, four numbers, an empty
/// function name, a size and a 4-byte id): no stream holds more calls than
/// its bytes over this, whatever its first megabytes say.
const MIN_CALL_BYTES: u64 = 32;

/// Counts the bytes fed to one session and makes its room once.
#[derive(Clone, Debug, Default)]
pub struct CallRoom {
    /// The bytes the session's calls will come from: the whole file for a
    /// whole decode and for part 0 of a split one (it takes the other
    /// parts' calls in), about its share for a later part.
    expected: u64,
    fed: u64,
    made: bool,
}

impl CallRoom {
    /// Room for the calls of a stream of `expected` bytes.
    pub fn new(expected: u64) -> Self {
        CallRoom {
            expected,
            ..CallRoom::default()
        }
    }

    /// `bytes` more of the stream were fed to `session`.
    pub fn fed(&mut self, bytes: usize, session: Option<&mut Session>) {
        self.fed = self.fed.saturating_add(bytes as u64);
        if self.made || self.fed < JUDGE_AFTER_BYTES {
            return;
        }
        let Some(session) = session else {
            return;
        };
        self.made = true;
        let so_far = session.collected.len() as u64;
        // A sixteenth more than the density so far says, and never more
        // than the stream could hold.
        let judged = so_far.saturating_mul(self.expected) / self.fed.max(1);
        let total = (judged + judged / 16 + 1024).min(self.expected / MIN_CALL_BYTES);
        let more = usize::try_from(total.saturating_sub(so_far)).unwrap_or(0);
        // A hint: a machine that cannot reserve it doubles as before.
        let _ = session.collected.try_reserve_exact(more);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::rtrace::collected::Call;
    use crate::formats::rtrace::handshake::parse;

    fn session() -> Session {
        Session::new(parse(b"\xf0\x0e\x02\x00\x06x86_64\x00\x08\x00\x00").expect("handshake"))
    }

    #[test]
    fn room_is_made_once_from_the_density_so_far() {
        let mut session = session();
        let mut room = CallRoom::new(64 << 20);
        let call = Call::new(0, 0, 0, 0);
        session.collected.extend(std::iter::repeat_n(call, 50_000));
        room.fed(1 << 20, Some(&mut session));
        assert!(session.collected.capacity() < 100_000, "judged too early");
        room.fed(3 << 20, Some(&mut session));
        // 50,000 calls in 4 MiB: 800,000 in 64 MiB, and a sixteenth more.
        let capacity = session.collected.capacity();
        assert!((850_000..=851_100).contains(&capacity), "{capacity}");
        session
            .collected
            .extend(std::iter::repeat_n(call, 1_000_000));
        room.fed(60 << 20, Some(&mut session));
        assert!(session.collected.len() == 1_050_000);
    }

    #[test]
    fn room_never_exceeds_what_the_stream_could_hold() {
        let mut session = session();
        let mut room = CallRoom::new(8 << 20);
        let call = Call::new(0, 0, 0, 0);
        session.collected.extend(std::iter::repeat_n(call, 200_000));
        room.fed(4 << 20, Some(&mut session));
        assert!(session.collected.capacity() <= (8 << 20) / MIN_CALL_BYTES as usize);
    }
}
