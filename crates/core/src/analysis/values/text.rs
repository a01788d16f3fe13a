//! One event's value as SELogger's LogPrinter prints it after `Value=`
//! (the number, a Java float / double / boolean, or an object id followed by
//! `,objectType=<type>`), its number when it is one, and which event types
//! carry a value of the program at all.

use super::java_text;
use crate::model::{value_form, EventLog};
use std::fmt::Write;

/// Event types whose value is a value of the program (not a label, line
/// marker or instruction index): parameters, returns, field and array reads
/// and writes, local variables, constants, new objects and exceptions.
const WITH_VALUE: [&str; 33] = [
    "METHOD_PARAM",
    "METHOD_NORMAL_EXIT",
    "METHOD_EXCEPTIONAL_EXIT",
    "METHOD_THROW",
    "METHOD_OBJECT_INITIALIZED",
    "CALL_PARAM",
    "CALL_RETURN",
    "INVOKE_DYNAMIC_PARAM",
    "INVOKE_DYNAMIC_RESULT",
    "CATCH",
    "GET_INSTANCE_FIELD",
    "GET_INSTANCE_FIELD_RESULT",
    "GET_STATIC_FIELD",
    "PUT_INSTANCE_FIELD",
    "PUT_INSTANCE_FIELD_VALUE",
    "PUT_STATIC_FIELD",
    "ARRAY_LOAD",
    "ARRAY_LOAD_INDEX",
    "ARRAY_LOAD_RESULT",
    "ARRAY_STORE",
    "ARRAY_STORE_INDEX",
    "ARRAY_STORE_VALUE",
    "ARRAY_LENGTH_RESULT",
    "LOCAL_LOAD",
    "LOCAL_STORE",
    "LOCAL_INCREMENT",
    "OBJECT_CONSTANT_LOAD",
    "NEW_OBJECT_CREATED",
    "NEW_ARRAY_RESULT",
    "MULTI_NEW_ARRAY_OWNER",
    "MULTI_NEW_ARRAY_ELEMENT",
    "INSTANCEOF_RESULT",
    "CONSTANT_LOAD",
];

/// The `EventType` name of data id `site` ("" when unknown).
pub fn event_type(log: &EventLog, site: u32) -> &str {
    log.site_type
        .get(site as usize)
        .map_or("", |&id| log.text(id))
}

/// True when events of data id `site` carry a value of the program.
pub fn has_value(log: &EventLog, site: u32) -> bool {
    let kind = event_type(log, site);
    let void = log.site_value.get(site as usize) == Some(&value_form::VOID);
    !void && WITH_VALUE.contains(&kind)
}

/// Appends event `event`'s value as LogPrinter prints it after `Value=`.
pub fn write_value(log: &EventLog, event: usize, out: &mut String) {
    let site = log.site_of(event).unwrap_or(u32::MAX) as usize;
    let value = log.value_of(event).unwrap_or(0);
    match log.site_value.get(site).copied().unwrap_or(value_form::RAW) {
        value_form::OBJECT => {
            let _ = write!(out, "{value},objectType=");
            out.push_str(log.object_type_of(value).map_or("null", |id| log.text(id)));
        }
        value_form::FLOAT => java_text::write_float(out, f32::from_bits(value as u32)),
        value_form::DOUBLE => java_text::write_double(out, f64::from_bits(value as u64)),
        value_form::BOOLEAN => out.push_str(if value != 0 { "true" } else { "false" }),
        _ => {
            let _ = write!(out, "{value}");
        }
    }
}

/// Event `event`'s value as LogPrinter prints it after `Value=`.
pub fn value_text(log: &EventLog, event: usize) -> String {
    let mut out = String::new();
    write_value(log, event, &mut out);
    out
}

/// Causes followed from an exception (a cycle or a long chain stops there).
const CAUSES_SHOWN: usize = 4;

/// What the recording wrote about the object event `event` holds: a
/// string's content (quoted) or an exception's message, then its causes
/// (`; cause: <type>@<id>: <message>`). `None` for other values.
pub fn value_detail(log: &EventLog, event: usize) -> Option<String> {
    let site = log.site_of(event)? as usize;
    if log.site_value.get(site) != Some(&value_form::OBJECT) {
        return None;
    }
    let (text, mut cause) = log.object_info(log.value_of(event)?)?;
    let mut out = text.to_owned();
    for _ in 0..CAUSES_SHOWN {
        if cause == 0 {
            break;
        }
        let type_name = log.object_type_of(cause).map_or("", |id| log.text(id));
        let _ = write!(out, "; cause: {type_name}@{cause}");
        let (message, next) = log.object_info(cause).unwrap_or(("", 0));
        if !message.is_empty() {
            let _ = write!(out, ": {message}");
        }
        cause = next;
    }
    Some(out)
}

/// Event `event`'s value as a number, when it is one (ints, longs, chars,
/// floats, doubles; not objects, booleans or a void return). Floats and
/// doubles of 0.4 recordings are raw bits, as that reader prints them.
pub fn number_of(log: &EventLog, event: usize) -> Option<f64> {
    let site = log.site_of(event)? as usize;
    let value = log.value_of(event)?;
    match *log.site_value.get(site)? {
        value_form::RAW => Some(value as f64),
        value_form::FLOAT => Some(f64::from(f32::from_bits(value as u32))),
        value_form::DOUBLE => Some(f64::from_bits(value as u64)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_of(forms: &[u8], values: &[(u32, i64)]) -> EventLog {
        let mut log = EventLog {
            site_value: forms.to_vec(),
            ..EventLog::default()
        };
        let string = log.add_text("java.lang.String");
        log.object_type = vec![string, string];
        for (at, &(site, value)) in values.iter().enumerate() {
            log.push(at as i64, 0, site, value);
        }
        log
    }

    #[test]
    fn values_are_printed_by_their_form() {
        use value_form::*;
        let log = log_of(
            &[RAW, OBJECT, DOUBLE, BOOLEAN, FLOAT],
            &[
                (0, -7),
                (1, 1),
                (2, 2.5f64.to_bits() as i64),
                (3, 1),
                (4, 0.1f32.to_bits() as i64),
            ],
        );
        let texts: Vec<String> = (0..5).map(|e| value_text(&log, e)).collect();
        assert_eq!(
            texts,
            ["-7", "1,objectType=java.lang.String", "2.5", "true", "0.1"]
        );
        assert_eq!(number_of(&log, 0), Some(-7.0));
        assert_eq!(number_of(&log, 1), None);
        assert_eq!(number_of(&log, 2), Some(2.5));
        assert_eq!(number_of(&log, 3), None);
    }

    #[test]
    fn objects_bring_their_content_message_and_causes() {
        use value_form::*;
        let mut log = log_of(&[OBJECT, RAW], &[(0, 1), (0, 2), (0, 3), (1, 2)]);
        let hello = log.add_text("\"hello\"");
        let outer = log.add_text("wrapped");
        let inner = log.add_text("null");
        log.object_type_default = log.object_type.clone();
        (log.object_id, log.object_text, log.object_cause) =
            (vec![1, 2, 3], vec![hello, outer, inner], vec![0, 3, 0]);
        assert_eq!(value_detail(&log, 0).as_deref(), Some("\"hello\""));
        assert_eq!(
            value_detail(&log, 1).as_deref(),
            Some("wrapped; cause: java.lang.String@3: null")
        );
        assert_eq!(value_detail(&log, 3), None);
    }
}
