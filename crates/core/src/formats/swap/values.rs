//! Typed values: one type character then its payload (notes §2, "Argument /
//! return encoding" and the probe library's additions). `b c` take 1 byte,
//! `d f` 4, `x p w` 8, `s` a NUL-terminated string (which the probe library
//! may replace by `FILE:<path>` when it spilled a long one to the target's
//! disk), `v n` nothing, and the arrays `D F W` a pointer, a count and the
//! elements.

use super::reader::{ByteCursor, SwapText};

/// A typed value. Floating-point values keep their bits so a value read
/// back compares equal to the one written, NaNs included.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Bool(u8),
    Char(u8),
    Int(i32),
    /// `f`: binary32 bits.
    Float(u32),
    Long(i64),
    Pointer(u64),
    /// `w`: binary64 bits.
    Double(u64),
    Str(String),
    Void,
    None,
    IntArray {
        pointer: u64,
        items: Vec<u32>,
    },
    FloatArray {
        pointer: u64,
        items: Vec<u32>,
    },
    DoubleArray {
        pointer: u64,
        items: Vec<u64>,
    },
}

/// Strings the probe library wrote to a file on the target start with this.
pub const FILE_SPILL: &str = "FILE:";

impl Value {
    /// The type character written before the payload.
    pub fn type_char(&self) -> u8 {
        match self {
            Value::Bool(_) => b'b',
            Value::Char(_) => b'c',
            Value::Int(_) => b'd',
            Value::Float(_) => b'f',
            Value::Long(_) => b'x',
            Value::Pointer(_) => b'p',
            Value::Double(_) => b'w',
            Value::Str(_) => b's',
            Value::Void => b'v',
            Value::None => b'n',
            Value::IntArray { .. } => b'D',
            Value::FloatArray { .. } => b'F',
            Value::DoubleArray { .. } => b'W',
        }
    }

    /// Reads one value; `None` for an unknown type character or a payload
    /// that runs past the end.
    pub fn read(r: &mut ByteCursor) -> Option<Value> {
        Some(match r.u8()? {
            b'b' => Value::Bool(r.u8()?),
            b'c' => Value::Char(r.u8()?),
            b'd' => Value::Int(r.u32()? as i32),
            b'f' => Value::Float(r.u32()?),
            b'x' => Value::Long(r.u64()? as i64),
            b'p' => Value::Pointer(r.u64()?),
            b'w' => Value::Double(r.u64()?),
            b's' => Value::Str(r.string()?),
            b'v' => Value::Void,
            b'n' => Value::None,
            b'D' => {
                let pointer = r.u64()?;
                let n = r.count(4)?;
                let items = (0..n).map(|_| r.u32()).collect::<Option<_>>()?;
                Value::IntArray { pointer, items }
            }
            b'F' => {
                let pointer = r.u64()?;
                let n = r.count(4)?;
                let items = (0..n).map(|_| r.u32()).collect::<Option<_>>()?;
                Value::FloatArray { pointer, items }
            }
            b'W' => {
                let pointer = r.u64()?;
                let n = r.count(8)?;
                let items = (0..n).map(|_| r.u64()).collect::<Option<_>>()?;
                Value::DoubleArray { pointer, items }
            }
            _ => return None,
        })
    }

    /// Steps over one value as [`Value::read`] would read it, without
    /// building it: `None` where `read` fails, else whether the value's
    /// text, if any, reads as UTF-8 without replacement characters.
    pub fn skip(r: &mut ByteCursor) -> Option<bool> {
        let size = match r.u8()? {
            b'b' | b'c' => 1,
            b'd' | b'f' => 4,
            b'x' | b'p' | b'w' => 8,
            b's' => {
                let text = r.until_nul()?;
                return Some(
                    std::str::from_utf8(text)
                        .is_ok_and(|t| !t.contains(char::REPLACEMENT_CHARACTER)),
                );
            }
            b'v' | b'n' => 0,
            b'D' | b'F' => {
                r.u64()?;
                4 * r.count(4)? as usize
            }
            b'W' => {
                r.u64()?;
                8 * r.count(8)? as usize
            }
            _ => return None,
        };
        r.take(size)?;
        Some(true)
    }

    /// Reads up to `count` values, stopping early at an unknown type
    /// character or the end of the payload (the probe library counts letters
    /// it could not pack). The second result is false when fewer than
    /// `count` were read; the reader is then left inside the bad value.
    pub fn read_list(r: &mut ByteCursor, count: u32) -> (Vec<Value>, bool) {
        let mut out = Vec::new();
        for _ in 0..count {
            match Value::read(r) {
                Some(v) => out.push(v),
                None => return (out, false),
            }
        }
        (out, true)
    }

    /// Writes the value (type character and payload).
    pub fn write(&self, out: &mut Vec<u8>) {
        out.push(self.type_char());
        match self {
            Value::Bool(v) | Value::Char(v) => out.push(*v),
            Value::Int(v) => out.extend_from_slice(&v.to_le_bytes()),
            Value::Float(v) => out.extend_from_slice(&v.to_le_bytes()),
            Value::Long(v) => out.extend_from_slice(&v.to_le_bytes()),
            Value::Pointer(v) | Value::Double(v) => out.extend_from_slice(&v.to_le_bytes()),
            Value::Str(s) => {
                out.extend_from_slice(s.as_bytes());
                out.push(0);
            }
            Value::Void | Value::None => {}
            Value::IntArray { pointer, items } | Value::FloatArray { pointer, items } => {
                out.extend_from_slice(&pointer.to_le_bytes());
                out.extend_from_slice(&(items.len() as u32).to_le_bytes());
                for item in items {
                    out.extend_from_slice(&item.to_le_bytes());
                }
            }
            Value::DoubleArray { pointer, items } => {
                out.extend_from_slice(&pointer.to_le_bytes());
                out.extend_from_slice(&(items.len() as u32).to_le_bytes());
                for item in items {
                    out.extend_from_slice(&item.to_le_bytes());
                }
            }
        }
    }

    /// How the value reads in a tooltip.
    pub fn display(&self) -> String {
        match self {
            Value::Bool(v) => (if *v != 0 { "true" } else { "false" }).to_owned(),
            Value::Char(v) if v.is_ascii_graphic() || *v == b' ' => {
                format!("'{}'", char::from(*v))
            }
            Value::Char(v) => format!("0x{v:02x}"),
            Value::Int(v) => v.to_string(),
            Value::Float(v) => format!("{}", f32::from_bits(*v)),
            Value::Long(v) => v.to_string(),
            Value::Pointer(v) => format!("{v:#x}"),
            Value::Double(v) => format!("{}", f64::from_bits(*v)),
            Value::Str(s) => match s.strip_prefix(FILE_SPILL) {
                Some(path) => format!("(long string kept on the target in {path})"),
                None => format!("{s:?}"),
            },
            Value::Void => "void".to_owned(),
            Value::None => "-".to_owned(),
            Value::IntArray { pointer, items } => {
                array(*pointer, items.iter().map(|v| v.to_string()))
            }
            Value::FloatArray { pointer, items } => array(
                *pointer,
                items.iter().map(|v| format!("{}", f32::from_bits(*v))),
            ),
            Value::DoubleArray { pointer, items } => array(
                *pointer,
                items.iter().map(|v| format!("{}", f64::from_bits(*v))),
            ),
        }
    }
}

/// `[1, 2, 3] @0x…`, shortened past 16 items.
fn array(pointer: u64, items: impl ExactSizeIterator<Item = String>) -> String {
    let n = items.len();
    let shown: Vec<String> = items.take(16).collect();
    let more = if n > 16 {
        format!(", … {} more", n - 16)
    } else {
        String::new()
    };
    format!("[{}{more}] @{pointer:#x}", shown.join(", "))
}

/// Values joined for a detail field.
pub fn display_list(values: &[Value]) -> String {
    values
        .iter()
        .map(Value::display)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_round_trips() {
        let values = vec![
            Value::Bool(1),
            Value::Char(b'a'),
            Value::Int(-5),
            Value::Float(1.5f32.to_bits()),
            Value::Long(-1),
            Value::Pointer(0xdead),
            Value::Double(2.5f64.to_bits()),
            Value::Str("FILE:/tmp/x".into()),
            Value::Void,
            Value::None,
            Value::IntArray {
                pointer: 8,
                items: vec![1, 2],
            },
            Value::FloatArray {
                pointer: 9,
                items: vec![3],
            },
            Value::DoubleArray {
                pointer: 10,
                items: vec![4, 5],
            },
        ];
        let mut bytes = Vec::new();
        for v in &values {
            v.write(&mut bytes);
        }
        let mut r = ByteCursor::le(&bytes);
        let (back, complete) = Value::read_list(&mut r, values.len() as u32);
        assert!(complete);
        assert_eq!(back, values);
        assert_eq!(r.remaining(), 0);
        assert!(back[7].display().contains("/tmp/x"));
    }

    #[test]
    fn unknown_type_and_short_payload_stop_the_list() {
        let mut r = ByteCursor::le(b"d\x01\x00\x00\x00Q");
        let (values, complete) = Value::read_list(&mut r, 3);
        assert_eq!(values, vec![Value::Int(1)]);
        assert!(!complete);
        let mut r = ByteCursor::le(b"W\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff");
        assert_eq!(Value::read(&mut r), None);
    }
}
