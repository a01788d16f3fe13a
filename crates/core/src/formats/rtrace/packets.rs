//! Packet payloads: the cursor that reads dwords, pointers and padded strings
//! in the stream's byte order, and one decoder per packet type.
//!
//! Field orders follow the writer in sp-rtrace's source (see
//! `specs/notes/sp-rtrace.md` §3), not the protocol text, which has the CALL
//! fields in the wrong order.

use super::handshake::Handshake;
use crate::formats::common::{ByteCursor, Endian};
use std::borrow::Cow;

/// Reads fields of one payload in the stream's byte order; every read is
/// bounds-checked.
pub struct Cursor<'a> {
    fields: ByteCursor<'a>,
    pointer_size: u8,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `data`.
    pub fn new(data: &'a [u8], handshake: &Handshake) -> Self {
        Cursor {
            fields: ByteCursor::new(data, Endian::big_if(handshake.big_endian)),
            pointer_size: handshake.pointer_size,
        }
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.fields.remaining()
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        self.fields.take(n)
    }

    /// A 16-bit word.
    pub fn u16(&mut self) -> Option<u16> {
        self.fields.u16()
    }

    /// A dword.
    pub fn u32(&mut self) -> Option<u32> {
        self.fields.u32()
    }

    /// An 8-byte value.
    pub fn u64(&mut self) -> Option<u64> {
        self.fields.u64()
    }

    /// A pointer of the handshake's size (read unaligned).
    pub fn pointer(&mut self) -> Option<u64> {
        if self.pointer_size == 8 {
            self.u64()
        } else {
            self.u32().map(u64::from)
        }
    }

    /// A string: `[len u16][len bytes]`, `len` counting the NUL padding, the
    /// whole field padded to 4 bytes; a NULL string is four zero bytes. The
    /// text ends at the first NUL.
    pub fn string(&mut self) -> Option<String> {
        self.text().map(Cow::into_owned)
    }

    /// [`Cursor::string`] borrowed from the payload when it is valid UTF-8.
    pub fn text(&mut self) -> Option<Cow<'a, str>> {
        let len = usize::from(self.u16()?);
        if len == 0 {
            self.take(2)?;
            return Some(Cow::Borrowed(""));
        }
        let bytes = self.take(len)?;
        // A well-formed writer makes 2 + len a multiple of 4; tolerate one
        // that did not by skipping to the next boundary when it is there.
        let misalign = (2 + len) % 4;
        if misalign != 0 {
            let pad = 4 - misalign;
            if self.remaining() >= pad {
                self.take(pad)?;
            }
        }
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        let text = bytes.get(..end).unwrap_or(&[]);
        // Names are ASCII in practice: checking is cheaper than the lossy pass.
        Some(match std::str::from_utf8(text) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(text),
        })
    }
}

/// The frames of a BTRC, read from the payload as they are walked (no copy
/// per packet: most backtraces repeat one seen before).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frames<'a> {
    bytes: &'a [u8],
    big_endian: bool,
    pointer_size: u8,
}

impl<'a> Frames<'a> {
    /// The frame addresses, innermost first.
    pub fn iter(&self) -> impl Iterator<Item = u64> + 'a {
        let big_endian = self.big_endian;
        self.bytes
            .chunks_exact(usize::from(self.pointer_size.max(1)))
            .map(
                move |word| match (<[u8; 8]>::try_from(word), <[u8; 4]>::try_from(word)) {
                    (Ok(b), _) if big_endian => u64::from_be_bytes(b),
                    (Ok(b), _) => u64::from_le_bytes(b),
                    (_, Ok(b)) if big_endian => u64::from(u32::from_be_bytes(b)),
                    (_, Ok(b)) => u64::from(u32::from_le_bytes(b)),
                    _ => 0,
                },
            )
    }
}

/// A decoded packet; the hot ones (CALL, BTRC) borrow from the payload bytes.
#[derive(Clone, Debug, PartialEq)]
pub enum Payload<'a> {
    ProcessInfo {
        pid: u32,
        seconds: u32,
        microseconds: u32,
        /// Absent before protocol 1.2.
        depth: Option<u32>,
        name: String,
    },
    ModuleInfo {
        id: u32,
        version: u32,
        name: String,
    },
    Mapping {
        from: u64,
        to: u64,
        path: String,
    },
    Context {
        id: u32,
        name: String,
    },
    Call(CallPacket<'a>),
    Backtrace(Frames<'a>),
    Arguments(Vec<(String, String)>),
    NewLibrary(String),
    HeapInfo(HeapInfo),
    OutputSettings {
        output_dir: String,
        options: String,
    },
    Resource {
        id: u32,
        /// Absent before protocol 1.3.
        flags: u32,
        name: String,
        description: String,
    },
    Attachment {
        name: String,
        path: String,
    },
}

/// A CALL: one allocation or release of a resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallPacket<'a> {
    pub resource_type: u32,
    pub context: u32,
    /// Milliseconds of CLOCK_MONOTONIC modulo 24 h; 0 when disabled.
    pub timestamp: u32,
    /// 1 free, 2 alloc, 0 undefined.
    pub kind: u32,
    pub function: Cow<'a, str>,
    pub size: i32,
    pub id: u64,
}

/// CALL type 1: a release.
pub const CALL_FREE: u32 = 1;
/// CALL type 2: an allocation.
pub const CALL_ALLOC: u32 = 2;

/// `mallinfo()` at the end of the trace, with the heap's bounds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapInfo {
    pub heap_bottom: u64,
    pub heap_top: u64,
    /// arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks,
    /// fordblks, keepcost (glibc `struct mallinfo` ints).
    pub fields: [u32; 10],
    /// Bytes the packet had (48: all dwords; 56: 64-bit heap bounds).
    pub payload_len: usize,
}

/// Names of [`HeapInfo::fields`] and what they mean, after glibc.
pub const HEAP_FIELDS: [(&str, &str); 10] = [
    ("arena", "non-mmapped space allocated from the system"),
    ("ordblks", "number of free chunks"),
    ("smblks", "number of free fastbin blocks"),
    ("hblks", "number of mmapped regions"),
    ("hblkhd", "space in mmapped regions"),
    ("usmblks", "maximum total allocated space"),
    ("fsmblks", "space in freed fastbin blocks"),
    ("uordblks", "total allocated space"),
    ("fordblks", "total free space"),
    ("keepcost", "top-most releasable space (malloc_trim)"),
];

/// Decodes the payload of a packet tagged `tag`; `None` when it is too short
/// or malformed for that type.
pub fn decode<'a>(tag: &[u8; 4], payload: &'a [u8], handshake: &Handshake) -> Option<Payload<'a>> {
    let mut c = Cursor::new(payload, handshake);
    Some(match tag {
        b"PINF" => Payload::ProcessInfo {
            pid: c.u32()?,
            seconds: c.u32()?,
            microseconds: c.u32()?,
            depth: if handshake.at_least(1, 2) {
                Some(c.u32()?)
            } else {
                None
            },
            name: c.string()?,
        },
        b"MINF" => Payload::ModuleInfo {
            id: c.u32()?,
            version: c.u32()?,
            name: c.string()?,
        },
        b"MMAP" => Payload::Mapping {
            from: c.pointer()?,
            to: c.pointer()?,
            path: c.string()?,
        },
        b"CTXR" => Payload::Context {
            id: c.u32()?,
            name: c.string()?,
        },
        b"CALL" => Payload::Call(CallPacket {
            resource_type: c.u32()?,
            context: c.u32()?,
            timestamp: c.u32()?,
            kind: c.u32()?,
            function: c.text()?,
            size: c.u32()? as i32,
            id: c.pointer()?,
        }),
        b"BTRC" => {
            let n = c.u32()? as usize;
            let pointer_size = if handshake.pointer_size == 8 { 8 } else { 4 };
            Payload::Backtrace(Frames {
                bytes: c.take(n.checked_mul(pointer_size)?)?,
                big_endian: handshake.big_endian,
                pointer_size: pointer_size as u8,
            })
        }
        b"ARGS" => Payload::Arguments(arguments(payload, handshake)?),
        b"NLIB" => Payload::NewLibrary(c.string()?),
        b"HINF" => Payload::HeapInfo(heap_info(&mut c, payload.len())?),
        b"OCFG" => Payload::OutputSettings {
            output_dir: c.string()?,
            options: c.string()?,
        },
        b"RESR" => Payload::Resource {
            id: c.u32()?,
            flags: if handshake.at_least(1, 3) {
                c.u32()?
            } else {
                0
            },
            name: c.string()?,
            description: c.string()?,
        },
        b"FILE" => Payload::Attachment {
            name: c.string()?,
            path: c.string()?,
        },
        _ => return None,
    })
}

/// ARGS: name/value pairs since 1.3; before that (and in some 1.2 builds)
/// one preformatted string per argument. Whichever reading uses the payload
/// exactly wins.
fn arguments(payload: &[u8], handshake: &Handshake) -> Option<Vec<(String, String)>> {
    let pairs = |c: &mut Cursor| -> Option<Vec<(String, String)>> {
        let n = c.u32()? as usize;
        let mut out = Vec::with_capacity(n.min(c.remaining() / 8));
        for _ in 0..n {
            out.push((c.string()?, c.string()?));
        }
        Some(out)
    };
    let singles = |c: &mut Cursor| -> Option<Vec<(String, String)>> {
        let n = c.u32()? as usize;
        let mut out = Vec::with_capacity(n.min(c.remaining() / 4));
        for i in 0..n {
            out.push((format!("arg{}", i + 1), c.string()?));
        }
        Some(out)
    };
    let mut c = Cursor::new(payload, handshake);
    if let Some(args) = pairs(&mut c).filter(|_| c.remaining() == 0) {
        return Some(args);
    }
    let mut c = Cursor::new(payload, handshake);
    if let Some(args) = singles(&mut c).filter(|_| c.remaining() == 0) {
        return Some(args);
    }
    let mut c = Cursor::new(payload, handshake);
    if handshake.at_least(1, 3) {
        pairs(&mut c)
    } else {
        singles(&mut c)
    }
}

/// HINF by length: 48 bytes are twelve dwords (every 2.0 writer, and 1.x on
/// 32-bit systems); 56 bytes start with two 8-byte heap bounds (1.x on 64-bit).
fn heap_info(c: &mut Cursor, len: usize) -> Option<HeapInfo> {
    let (heap_bottom, heap_top) = if len >= 56 {
        (c.u64()?, c.u64()?)
    } else {
        (u64::from(c.u32()?), u64::from(c.u32()?))
    };
    let mut fields = [0u32; 10];
    for f in &mut fields {
        *f = c.u32()?;
    }
    Some(HeapInfo {
        heap_bottom,
        heap_top,
        fields,
        payload_len: len,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::rtrace::handshake::parse;

    fn x86_64() -> Handshake {
        parse(b"\xf0\x0e\x02\x00\x06x86_64\x00\x08\x00\x00").expect("handshake")
    }

    #[test]
    fn strings_follow_the_padding_rules() {
        let h = x86_64();
        let data = b"\x06\x00memory\x06\x00main\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x02\x00ls";
        let mut c = Cursor::new(data, &h);
        assert_eq!(c.string().as_deref(), Some("memory"));
        assert_eq!(c.string().as_deref(), Some("main"));
        assert_eq!(c.string().as_deref(), Some(""));
        assert_eq!(c.string().as_deref(), Some(""));
        assert_eq!(c.string().as_deref(), Some("ls"));
        assert_eq!(c.string(), None);
    }

    #[test]
    fn call_fields_in_writer_order_with_an_unaligned_pointer() {
        let h = x86_64();
        let mut p = Vec::new();
        for v in [1u32, 3, 1_064_149, 2] {
            p.extend_from_slice(&v.to_le_bytes());
        }
        p.extend_from_slice(b"\x06\x00malloc");
        p.extend_from_slice(&32i32.to_le_bytes());
        p.extend_from_slice(&0xe3b_32a0u64.to_le_bytes());
        let Some(Payload::Call(call)) = decode(b"CALL", &p, &h) else {
            panic!("not a call");
        };
        assert_eq!(
            (call.resource_type, call.context, call.timestamp, call.kind),
            (1, 3, 1_064_149, CALL_ALLOC)
        );
        assert_eq!(
            (call.function.as_ref(), call.size, call.id),
            ("malloc", 32, 0xe3b_32a0)
        );
        assert_eq!(decode(b"CALL", &p[..p.len() - 1], &h), None);
    }

    #[test]
    fn heap_info_is_read_by_length() {
        let h = x86_64();
        let dwords: Vec<u8> = (1u32..=12).flat_map(u32::to_le_bytes).collect();
        let Some(Payload::HeapInfo(i)) = decode(b"HINF", &dwords, &h) else {
            panic!("no heap info");
        };
        assert_eq!(
            (i.heap_bottom, i.heap_top, i.fields[0], i.fields[9]),
            (1, 2, 3, 12)
        );
        let mut wide: Vec<u8> = [0x10u64, 0x20]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        wide.extend((3u32..=12).flat_map(u32::to_le_bytes));
        let Some(Payload::HeapInfo(i)) = decode(b"HINF", &wide, &h) else {
            panic!("no heap info");
        };
        assert_eq!(
            (i.heap_bottom, i.heap_top, i.fields[0], i.payload_len),
            (0x10, 0x20, 3, 56)
        );
    }

    #[test]
    fn arguments_as_pairs_or_as_old_single_strings() {
        let h = x86_64();
        let mut p = 1u32.to_le_bytes().to_vec();
        p.extend_from_slice(b"\x06\x00path\x00\x00\x02\x00/a");
        assert_eq!(
            decode(b"ARGS", &p, &h),
            Some(Payload::Arguments(vec![("path".into(), "/a".into())]))
        );
        let mut old = 2u32.to_le_bytes().to_vec();
        old.extend_from_slice(b"\x02\x00/a\x02\x00/b");
        assert_eq!(
            decode(b"ARGS", &old, &h),
            Some(Payload::Arguments(vec![
                ("arg1".into(), "/a".into()),
                ("arg2".into(), "/b".into())
            ]))
        );
    }
}
