//! Splits the byte stream after the handshake into packets.
//!
//! Protocol 2.0 heads each packet with `[type u32][len u32]` (len = payload
//! bytes); protocol 1.x with `[size u32][type u32]` (size = 4 + payload). Both
//! fields are in the recording system's byte order. Type codes are four ASCII
//! characters packed little-end-first into a native u32, so on big-endian
//! systems the bytes on disk are reversed. Protocol 1.0 wrote the codes with the
//! second character repeated (`CAAA` for `CALL`); those are mapped back here.

use super::handshake::{Handshake, HandshakeError};
use crate::formats::common::{u32_at, Carry, Endian};

/// Every packet tag the protocol defines.
pub const TAGS: [&[u8; 4]; 12] = [
    b"PINF", b"MINF", b"MMAP", b"CTXR", b"CALL", b"BTRC", b"ARGS", b"NLIB", b"HINF", b"OCFG",
    b"RESR", b"FILE",
];

/// A packet payload larger than this is taken as a sign of damage: the
/// biggest real packets are strings of at most 64 KiB and backtraces of a few
/// hundred frames.
pub const MAX_PAYLOAD: usize = 1 << 20;

/// One framed packet; its payload is borrowed from the framer's buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet<'a> {
    /// The tag as four ASCII bytes in reading order (`CALL`), after undoing
    /// byte order and the protocol 1.0 spelling.
    pub tag: [u8; 4],
    /// Byte offset of the packet header in the file.
    pub offset: u64,
    pub payload: &'a [u8],
}

/// What the framer found besides whole packets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    Packet(Packet<'a>),
    /// A header with a plausible length but a tag the protocol does not
    /// define: the packet was skipped by its length.
    Unknown {
        tag: [u8; 4],
        offset: u64,
        len: usize,
    },
    /// Bytes that do not frame as a packet (impossible length); skipped while
    /// looking for the next known tag.
    Garbage {
        offset: u64,
        len: usize,
    },
    /// A second handshake: another recording session was appended. Framing stops.
    SecondHandshake {
        offset: u64,
    },
}

/// Turns chunks of the stream into packets, keeping only the unfinished tail.
pub struct Framer {
    endian: Endian,
    old_header: bool,
    odd_codes: bool,
    /// The unfinished packet held back, and its file offset.
    carry: Carry,
    /// Set after damage: only a known tag ends the search for the next packet.
    resyncing: bool,
    /// Bytes skipped in the current damaged stretch, and where it began.
    garbage: Option<(u64, usize)>,
    stopped: bool,
}

impl Framer {
    /// A framer for the stream after `handshake`, which began at file offset 0.
    pub fn new(handshake: &Handshake) -> Self {
        Framer {
            endian: Endian::big_if(handshake.big_endian),
            old_header: handshake.major < 2,
            odd_codes: handshake.major == 1 && handshake.minor < 2,
            carry: Carry::at(handshake.len as u64),
            resyncing: false,
            garbage: None,
            stopped: false,
        }
    }

    /// A framer for the same stream whose next packet starts at file offset
    /// `offset` (a part's first border, see `parts.rs`).
    pub fn starting_at(handshake: &Handshake, offset: u64) -> Self {
        let mut framer = Framer::new(handshake);
        framer.carry = Carry::at(offset);
        framer
    }

    /// For a border search: the whole size of the known packet that starts
    /// at `at` of `bytes`, as this framer would frame it whatever its state.
    pub fn known_packet_at(&self, bytes: &[u8], at: usize) -> KnownAt {
        match self.next_at(bytes, at) {
            Step::Frame {
                len, known: true, ..
            } => KnownAt::Packet(8 + len),
            Step::NeedMore => KnownAt::NeedMore,
            _ => KnownAt::No,
        }
    }

    /// Bytes held back because they do not yet make a whole packet.
    pub fn pending(&self) -> usize {
        self.carry.held().len()
    }

    /// File offset of the first held-back byte.
    pub fn pending_offset(&self) -> u64 {
        self.carry.offset()
    }

    /// True after a second handshake ended the session.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Adds bytes and hands every completed packet (and problem) to `out`.
    pub fn feed(&mut self, chunk: &[u8], out: &mut impl FnMut(Event<'_>)) {
        if self.stopped {
            return;
        }
        let mut carry = std::mem::take(&mut self.carry);
        carry.feed(chunk, |bytes, offset| self.frame(bytes, offset, out));
        self.carry = carry;
    }

    /// Hands the packets at the front of `bytes` (the first at file offset
    /// `offset`) to `out`; how many bytes they took.
    fn frame(&mut self, bytes: &[u8], offset: u64, out: &mut impl FnMut(Event<'_>)) -> usize {
        let mut at = 0usize;
        while !self.stopped {
            match self.next_at(bytes, at) {
                Step::NeedMore => break,
                Step::Skip => {
                    let start = offset + at as u64;
                    self.garbage.get_or_insert((start, 0)).1 += 4;
                    self.resyncing = true;
                    at += 4;
                }
                Step::Frame { tag, len, known } => {
                    self.flush_garbage(out);
                    let packet_offset = offset + at as u64;
                    let payload = bytes.get(at + 8..at + 8 + len).unwrap_or(&[]);
                    if known {
                        self.resyncing = false;
                        out(Event::Packet(Packet {
                            tag,
                            offset: packet_offset,
                            payload,
                        }));
                    } else {
                        out(Event::Unknown {
                            tag,
                            offset: packet_offset,
                            len,
                        });
                    }
                    at += 8 + len;
                }
                Step::Stop => {
                    self.flush_garbage(out);
                    out(Event::SecondHandshake {
                        offset: offset + at as u64,
                    });
                    self.stopped = true;
                }
            }
        }
        at
    }

    /// Reports a damaged stretch that ended (by a good packet or the end).
    pub fn flush_garbage(&mut self, out: &mut impl FnMut(Event<'_>)) {
        if let Some((offset, len)) = self.garbage.take() {
            out(Event::Garbage { offset, len });
        }
    }

    /// What the bytes at `at` of `bytes` are.
    fn next_at(&self, bytes: &[u8], at: usize) -> Step {
        let Some(rest) = bytes.get(at..) else {
            return Step::NeedMore;
        };
        if rest.first() == Some(&super::handshake::MAGIC) {
            match super::handshake::parse(rest) {
                Ok(_) => return Step::Stop,
                Err(HandshakeError::Short) => return Step::NeedMore,
                Err(HandshakeError::Invalid(_)) => {}
            }
        }
        let (Some(first), Some(second)) = (
            u32_at(bytes, at, self.endian),
            u32_at(bytes, at + 4, self.endian),
        ) else {
            return Step::NeedMore;
        };
        let (code, len) = if self.old_header {
            match first.checked_sub(4) {
                Some(len) => (second, len),
                None => return Step::Skip,
            }
        } else {
            (first, second)
        };
        let len = len as usize;
        let tag = self.tag_of(code);
        let known = TAGS.iter().any(|t| **t == tag);
        if len > MAX_PAYLOAD || !len.is_multiple_of(4) || (self.resyncing && !known) {
            return Step::Skip;
        }
        if rest.len() < 8 + len {
            return Step::NeedMore;
        }
        Step::Frame { tag, len, known }
    }

    /// The tag of a type code, in reading order (`CALL`).
    fn tag_of(&self, code: u32) -> [u8; 4] {
        // The code is c1 | c2<<8 | c3<<16 | c4<<24 in the writer's native order,
        // so its little-endian bytes are the characters in order.
        let tag = code.to_le_bytes();
        if self.odd_codes {
            if let Some(t) = TAGS.iter().find(|t| tag == [t[0], t[1], t[1], t[1]]) {
                return **t;
            }
        }
        tag
    }
}

/// What [`Framer::known_packet_at`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnownAt {
    /// A known packet of this many bytes, header included.
    Packet(usize),
    /// Not a known packet (or a second handshake).
    No,
    /// The bytes end too early to tell.
    NeedMore,
}

/// A step of framing: a whole packet, 4 bytes to skip, wait for more, or stop.
enum Step {
    NeedMore,
    Skip,
    Frame {
        tag: [u8; 4],
        len: usize,
        known: bool,
    },
    Stop,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::rtrace::handshake::parse;

    /// An event with its payload copied out of the framer's buffer.
    #[derive(Debug)]
    enum Seen {
        Packet {
            tag: [u8; 4],
            offset: u64,
            payload: Vec<u8>,
        },
        Other(Event<'static>),
    }

    fn seen(event: Event<'_>) -> Seen {
        match event {
            Event::Packet(p) => Seen::Packet {
                tag: p.tag,
                offset: p.offset,
                payload: p.payload.to_vec(),
            },
            Event::Unknown { tag, offset, len } => Seen::Other(Event::Unknown { tag, offset, len }),
            Event::Garbage { offset, len } => Seen::Other(Event::Garbage { offset, len }),
            Event::SecondHandshake { offset } => Seen::Other(Event::SecondHandshake { offset }),
        }
    }

    fn collect(framer: &mut Framer, bytes: &[u8]) -> Vec<Seen> {
        let mut events = Vec::new();
        framer.feed(bytes, &mut |e| events.push(seen(e)));
        framer.flush_garbage(&mut |e| events.push(seen(e)));
        events
    }

    #[test]
    fn frames_2_0_little_endian_and_1_x_big_endian_headers() {
        let h = parse(b"\xf0\x0a\x02\x00\x04i686\x00\x04").expect("handshake");
        let mut f = Framer::new(&h);
        let events = collect(&mut f, b"CALL\x04\x00\x00\x00abcdBTRC\x00\x00\x00\x00");
        assert_eq!(events.len(), 2);
        assert!(
            matches!(&events[0], Seen::Packet { tag, payload, offset: 12 } if tag == b"CALL" && payload == b"abcd")
        );
        let h = parse(b"\xf0\x0a\x01\x04\x04i686\x01\x04").expect("handshake");
        let mut f = Framer::new(&h);
        let events = collect(&mut f, b"\x00\x00\x00\x08LLACwxyz");
        assert!(
            matches!(&events[0], Seen::Packet { tag, payload, .. } if tag == b"CALL" && payload == b"wxyz")
        );
    }

    #[test]
    fn protocol_1_0_codes_and_unknown_packets_and_garbage() {
        let h = parse(b"\xf0\x0a\x01\x00\x04i686\x00\x04").expect("handshake");
        let mut f = Framer::new(&h);
        let events = collect(
            &mut f,
            b"\x04\x00\x00\x00CAAA\x08\x00\x00\x00XYZW1234\xff\xff\xff\xffjunk\x04\x00\x00\x00BTTT",
        );
        assert!(matches!(&events[0], Seen::Packet { tag, .. } if tag == b"CALL"));
        assert!(
            matches!(&events[1], Seen::Other(Event::Unknown { tag, len: 4, .. }) if tag == b"XYZW")
        );
        assert!(matches!(
            &events[2],
            Seen::Other(Event::Garbage { len: 8, .. })
        ));
        assert!(matches!(&events[3], Seen::Packet { tag, .. } if tag == b"BTRC"));
    }

    #[test]
    fn packets_split_over_chunks_and_a_second_handshake_stops() {
        let h = parse(b"\xf0\x0a\x02\x00\x04i686\x00\x04").expect("handshake");
        let mut f = Framer::new(&h);
        let mut events = Vec::new();
        for byte in b"CALL\x04\x00\x00\x00abcd\xf0\x0a\x02\x00\x04i686\x00\x04" {
            f.feed(&[*byte], &mut |e| events.push(seen(e)));
        }
        assert_eq!(events.len(), 2);
        assert!(matches!(
            events[1],
            Seen::Other(Event::SecondHandshake { offset: 24 })
        ));
        assert!(f.stopped());
    }

    #[test]
    fn big_packets_frame_alike_whatever_the_chunking() {
        let h = parse(b"\xf0\x0a\x02\x00\x04i686\x00\x04").expect("handshake");
        let mut stream = Vec::new();
        for (tag, len) in [
            (b"CALL", 12usize),
            (b"ARGS", 10_000),
            (b"BTRC", 8),
            (b"FILE", 6_000),
        ] {
            stream.extend_from_slice(tag);
            stream.extend_from_slice(&(len as u32).to_le_bytes());
            stream.extend(std::iter::repeat_n(tag[0], len));
        }
        stream.extend_from_slice(b"\xff\xff\xff\xffCALL\x00\x00\x00\x00");
        let frame = |chunk: usize| {
            let mut f = Framer::new(&h);
            let mut events = Vec::new();
            for part in stream.chunks(chunk) {
                f.feed(part, &mut |e| events.push(format!("{:?}", seen(e))));
            }
            f.flush_garbage(&mut |e| events.push(format!("{:?}", seen(e))));
            (events, f.pending(), f.pending_offset())
        };
        let whole = frame(stream.len());
        assert_eq!(whole.0.len(), 6, "{:?}", whole.0);
        assert_eq!((whole.1, whole.2), (0, 12 + stream.len() as u64));
        for chunk in [1, 3, 100, 4095, 4096, 5000, 9999, 12_000] {
            assert_eq!(frame(chunk), whole, "chunks of {chunk}");
        }
    }
}
