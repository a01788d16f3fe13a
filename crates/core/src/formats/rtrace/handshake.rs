//! The handshake that opens every sp-rtrace stream: magic `0xF0`, protocol
//! version, the recording system's architecture name, byte order and pointer
//! size. It is byte-order independent and padded to a multiple of 4 bytes.

/// The first byte of every binary sp-rtrace stream.
pub const MAGIC: u8 = 0xF0;

/// What the handshake says about the stream that follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handshake {
    pub major: u8,
    pub minor: u8,
    /// `uname -m` of the recording system (`x86_64`, `i686`, `armv7l`).
    pub arch: String,
    pub big_endian: bool,
    /// 4 or 8.
    pub pointer_size: u8,
    /// Bytes the handshake takes in the file, padding included.
    pub len: usize,
}

impl Handshake {
    /// True when the protocol is at least `major.minor`.
    pub fn at_least(&self, major: u8, minor: u8) -> bool {
        (self.major, self.minor) >= (major, minor)
    }

    /// `2.0`, `1.4`, …
    pub fn version(&self) -> String {
        format!("{}.{}", self.major, self.minor)
    }
}

/// Why the first bytes are not an sp-rtrace handshake (or not yet one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandshakeError {
    /// More bytes are needed to tell.
    Short,
    /// Not a handshake flamedrop can read.
    Invalid(String),
}

/// Reads the handshake at the start of `bytes`.
pub fn parse(bytes: &[u8]) -> Result<Handshake, HandshakeError> {
    let byte = |i: usize| bytes.get(i).copied().ok_or(HandshakeError::Short);
    if byte(0)? != MAGIC {
        return Err(HandshakeError::Invalid("first byte is not 0xF0".into()));
    }
    let len = usize::from(byte(1)?) + 2;
    let (major, minor) = (byte(2)?, byte(3)?);
    if !(1..=2).contains(&major) || (major == 2 && minor != 0) {
        return Err(HandshakeError::Invalid(format!(
            "protocol version {major}.{minor} is not one sp-rtrace wrote (1.0–1.4, 2.0)"
        )));
    }
    let arch_len = usize::from(byte(4)?);
    if 5 + arch_len + 2 > len {
        return Err(HandshakeError::Invalid(format!(
            "handshake length {len} cannot hold an architecture name of {arch_len} bytes"
        )));
    }
    let arch_bytes = bytes.get(5..5 + arch_len).ok_or(HandshakeError::Short)?;
    if !arch_bytes.iter().all(|b| b.is_ascii_graphic()) {
        return Err(HandshakeError::Invalid(
            "architecture name is not printable text".into(),
        ));
    }
    let big_endian = match byte(5 + arch_len)? {
        0 => false,
        1 => true,
        other => {
            return Err(HandshakeError::Invalid(format!(
                "byte order flag {other} is neither 0 (little) nor 1 (big)"
            )))
        }
    };
    let pointer_size = byte(6 + arch_len)?;
    if pointer_size != 4 && pointer_size != 8 {
        return Err(HandshakeError::Invalid(format!(
            "pointer size {pointer_size} is neither 4 nor 8"
        )));
    }
    if !len.is_multiple_of(4) {
        return Err(HandshakeError::Invalid(format!(
            "handshake length {len} is not padded to a multiple of 4"
        )));
    }
    Ok(Handshake {
        major,
        minor,
        arch: String::from_utf8_lossy(arch_bytes).into_owned(),
        big_endian,
        pointer_size,
        len,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_x86_64_and_i686_handshakes() {
        let x86_64 = b"\xf0\x0e\x02\x00\x06x86_64\x00\x08\x00\x00";
        let h = parse(x86_64).expect("x86_64");
        assert_eq!((h.major, h.minor, h.pointer_size, h.len), (2, 0, 8, 16));
        assert_eq!(h.arch, "x86_64");
        assert!(!h.big_endian);
        let i686 = b"\xf0\x0a\x01\x04\x04i686\x01\x04";
        let h = parse(i686).expect("i686");
        assert_eq!((h.major, h.minor, h.pointer_size, h.len), (1, 4, 4, 12));
        assert!(h.big_endian);
        assert!(h.at_least(1, 3) && !h.at_least(2, 0));
    }

    #[test]
    fn short_and_foreign_bytes_are_told_apart() {
        assert_eq!(parse(b"\xf0\x0e\x02"), Err(HandshakeError::Short));
        assert!(matches!(parse(b"\x7fELF"), Err(HandshakeError::Invalid(_))));
        assert!(matches!(
            parse(b"\xf0\x0e\x03\x00\x06x86_64\x00\x08\x00\x00"),
            Err(HandshakeError::Invalid(_))
        ));
        assert!(matches!(
            parse(b"\xf0\x0e\x02\x00\x06x86_64\x00\x06\x00\x00"),
            Err(HandshakeError::Invalid(_))
        ));
    }
}
