//! What object IDs stand for: `LOG$Types.txt` (type table),
//! `LOG$ObjectTypes*.txt` (object → type), `LOG$String*.txt` (string
//! contents, JSON-escaped) and `LOG$Exceptions*.txt` (messages written raw, so
//! one may span several physical lines), and how an event's 64-bit value is
//! shown once its `ValueDesc` is known.

use super::statics::{lines_with_offsets, BadLine, ValueDesc};
use std::collections::HashMap;

/// Longest string content shown in a value (the rest is elided).
const SHOWN_CHARS: usize = 120;

/// Everything known about objects, filled from the side files.
#[derive(Default)]
pub struct Objects {
    /// Type id → name.
    pub types: HashMap<u64, String>,
    /// Object id → type id.
    pub object_types: HashMap<u64, u64>,
    pub strings: HashMap<u64, String>,
    /// Exception object id → message (`None` when the message was `null`).
    pub messages: HashMap<u64, Option<String>>,
    /// Exception object id → its cause's object id (the `CS` line; not
    /// kept when 0).
    pub causes: HashMap<u64, u64>,
}

impl Objects {
    /// `LOG$Types.txt`: `id,name,...` (the legacy two-column form too).
    pub fn add_types(&mut self, text: &str) -> Vec<BadLine> {
        let mut bad = Vec::new();
        for (offset, line) in lines_with_offsets(text) {
            if line.is_empty() {
                continue;
            }
            let mut cols = line.splitn(3, ',');
            match (cols.next().and_then(|c| c.parse().ok()), cols.next()) {
                (Some(id), Some(name)) => {
                    self.types.insert(id, name.to_owned());
                }
                _ => bad.push(BadLine { offset }),
            }
        }
        bad
    }

    /// `LOG$ObjectTypesNNNNN.txt`: `objectId,typeId`.
    pub fn add_object_types(&mut self, text: &str) -> Vec<BadLine> {
        let mut bad = Vec::new();
        for (offset, line) in lines_with_offsets(text) {
            if line.is_empty() {
                continue;
            }
            match line
                .split_once(',')
                .and_then(|(o, t)| Some((o.parse().ok()?, t.trim().parse().ok()?)))
            {
                Some((object, ty)) => {
                    self.object_types.insert(object, ty);
                }
                None => bad.push(BadLine { offset }),
            }
        }
        bad
    }

    /// `LOG$StringNNNNN.txt`: `objectId,length,"json-escaped content"`; the
    /// content may contain commas, so only the first two fields are split off.
    pub fn add_strings(&mut self, text: &str) -> Vec<BadLine> {
        let mut bad = Vec::new();
        for (offset, line) in lines_with_offsets(text) {
            if line.is_empty() {
                continue;
            }
            let mut cols = line.splitn(3, ',');
            let id = cols.next().and_then(|c| c.parse::<u64>().ok());
            let _length = cols.next();
            let content = cols
                .next()
                .and_then(|c| serde_json::from_str::<String>(c).ok());
            match (id, content) {
                (Some(id), Some(content)) => {
                    self.strings.insert(id, content);
                }
                _ => bad.push(BadLine { offset }),
            }
        }
        bad
    }

    /// `LOG$ExceptionsNNNNN.txt`: `id,M,<raw message>`, `id,CS,...` and
    /// `id,S,...` lines. A line that does not start a record continues the
    /// previous message (messages are not escaped).
    pub fn add_exceptions(&mut self, text: &str) -> Vec<BadLine> {
        let mut bad = Vec::new();
        let mut last_message: Option<u64> = None;
        for (offset, line) in lines_with_offsets(text) {
            let mut cols = line.splitn(3, ',');
            let id = cols.next().and_then(|c| c.parse::<u64>().ok());
            let tag = cols.next();
            match (id, tag) {
                (Some(id), Some("M")) => {
                    let message = cols.next().unwrap_or("");
                    let message = (message != "null").then(|| message.to_owned());
                    self.messages.insert(id, message);
                    last_message = Some(id);
                }
                (Some(id), Some("CS")) => {
                    let cause = cols.next().and_then(|c| c.split(',').next()?.parse().ok());
                    if let Some(cause) = cause.filter(|&c: &u64| c != 0) {
                        self.causes.insert(id, cause);
                    }
                    last_message = None;
                }
                (Some(_), Some("S")) => last_message = None,
                _ => match last_message.and_then(|id| self.messages.get_mut(&id)) {
                    Some(Some(message)) => {
                        message.push('\n');
                        message.push_str(line);
                    }
                    Some(None) => {
                        self.messages
                            .insert(last_message.unwrap_or(0), Some(format!("null\n{line}")));
                    }
                    None if line.is_empty() => {}
                    None => bad.push(BadLine { offset }),
                },
            }
        }
        bad
    }

    /// The type name of an object, if the side files know it.
    pub fn type_of(&self, object: u64) -> Option<&str> {
        let ty = self.object_types.get(&object)?;
        self.types.get(ty).map(String::as_str)
    }

    /// An object value as shown: `null`, `"string content"`,
    /// `java.lang.Integer@12`, or `@12` when its type is unknown.
    pub fn describe_object(&self, object: u64) -> String {
        if object == 0 {
            return "null".into();
        }
        if let Some(content) = self.strings.get(&object) {
            return quote_shortened(content);
        }
        let ty = self.type_of(object).unwrap_or("");
        match self.messages.get(&object) {
            Some(Some(message)) => format!("{ty}@{object}: {message}"),
            _ => format!("{ty}@{object}"),
        }
    }

    /// What the event log keeps of an object beside its type: a string's
    /// content (quoted, shortened) or an exception's message (`null` when
    /// it had none).
    pub fn object_text(&self, object: u64) -> Option<String> {
        if let Some(content) = self.strings.get(&object) {
            return Some(quote_shortened(content));
        }
        let message = self.messages.get(&object)?;
        Some(message.clone().unwrap_or_else(|| "null".into()))
    }

    /// An exception for a span detail: `Type: message` (or just the type).
    pub fn describe_exception(&self, object: u64) -> String {
        let ty = self.type_of(object).unwrap_or("exception");
        match self.messages.get(&object) {
            Some(Some(message)) => format!("{ty}: {message}"),
            _ => format!("{ty}@{object}"),
        }
    }
}

/// `"content"` with quotes and control characters escaped, cut to a readable length.
fn quote_shortened(content: &str) -> String {
    let mut shown: String = content.chars().take(SHOWN_CHARS).collect();
    if shown.len() < content.len() {
        shown.push('…');
    }
    serde_json::to_string(&shown).unwrap_or(shown)
}

/// An event value as shown, by its `ValueDesc`; `None` for void events.
pub fn describe_value(desc: ValueDesc, raw: i64, objects: &Objects) -> Option<String> {
    Some(match desc {
        ValueDesc::Void => return None,
        ValueDesc::Boolean => (raw != 0).to_string(),
        ValueDesc::Byte | ValueDesc::Short | ValueDesc::Int | ValueDesc::Long => raw.to_string(),
        ValueDesc::Char => {
            let code = raw as u32 & 0xffff;
            match char::from_u32(code) {
                Some(c) if !c.is_control() => format!("'{c}' ({code})"),
                _ => format!("{code}"),
            }
        }
        // Floats are stored as int bits sign-extended to 64: the low 32 bits count.
        ValueDesc::Float => format!("{:?}", f32::from_bits(raw as u32)),
        ValueDesc::Double => format!("{:?}", f64::from_bits(raw as u64)),
        ValueDesc::Object => objects.describe_object(raw as u64),
    })
}

/// The text stream's value column as the 64-bit value the binary stream
/// would hold: `true`/`false`, decimal numbers, Java's float text.
pub fn value_from_text(desc: ValueDesc, text: &str) -> Option<i64> {
    match desc {
        ValueDesc::Boolean => match text {
            "true" => Some(1),
            "false" => Some(0),
            other => other.parse().ok(),
        },
        ValueDesc::Float => Some(i64::from(java_float(text)?.to_bits() as i32)),
        ValueDesc::Double => Some(java_double(text)?.to_bits() as i64),
        _ => text.parse().ok(),
    }
}

fn java_double(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        other => other.parse().ok(),
    }
}

fn java_float(text: &str) -> Option<f32> {
    java_double(text).map(|d| d as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exception_messages_span_lines_and_strings_keep_commas() {
        let mut o = Objects::default();
        let bad = o.add_exceptions(
            "83,M,need 500, have 100\n83,CS,0\n83,S,F,demo.Bank,withdraw,T.java,297\n102,M,wrapped: line1\nline2, with comma\n102,CS,98\n7,M,null\n",
        );
        assert!(bad.is_empty());
        assert_eq!(o.messages[&83].as_deref(), Some("need 500, have 100"));
        assert_eq!(
            o.messages[&102].as_deref(),
            Some("wrapped: line1\nline2, with comma")
        );
        assert_eq!(o.messages[&7], None);
        o.add_strings("1,5,\"a,\\\"b\\\"\\n\"\n");
        assert_eq!(o.strings[&1], "a,\"b\"\n");
        o.add_types("0,void,,-1,-1,Loader@0:void\n11,demo.Bank,file:/x,9,-1,L\n");
        o.add_object_types("2,11\n");
        assert_eq!(o.describe_object(2), "demo.Bank@2");
        assert_eq!(o.describe_object(0), "null");
        assert_eq!(o.describe_object(1), "\"a,\\\"b\\\"\\n\"");
    }

    #[test]
    fn values_by_descriptor() {
        let o = Objects::default();
        // -1.5f stored sign-extended.
        let neg = 0xffff_ffff_bfc0_0000u64 as i64;
        assert_eq!(describe_value(ValueDesc::Float, neg, &o).unwrap(), "-1.5");
        assert_eq!(
            describe_value(ValueDesc::Double, std::f64::consts::PI.to_bits() as i64, &o).unwrap(),
            "3.141592653589793"
        );
        assert_eq!(describe_value(ValueDesc::Char, 90, &o).unwrap(), "'Z' (90)");
        assert_eq!(describe_value(ValueDesc::Boolean, 1, &o).unwrap(), "true");
        assert_eq!(describe_value(ValueDesc::Void, 0, &o), None);
        assert_eq!(value_from_text(ValueDesc::Float, "-1.5"), Some(neg));
        assert_eq!(value_from_text(ValueDesc::Boolean, "false"), Some(0));
        assert_eq!(
            value_from_text(ValueDesc::Double, "1.0E10"),
            Some(1e10f64.to_bits() as i64)
        );
        assert_eq!(
            value_from_text(ValueDesc::Long, "-9223372036854775808"),
            Some(i64::MIN)
        );
    }
}
