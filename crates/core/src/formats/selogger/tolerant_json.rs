//! Reads the elements of the `"events"` array of a near-omniscient or
//! frequency JSON file one by one, keeping every element that parses and
//! saying at which byte the file stopped making sense. SELogger 0.4 can leave
//! this file cut in the middle of an element (a writer crash), and 0.5+ write
//! `NaN`/`Infinity` unquoted, which no JSON parser accepts.

use serde_json::Value;

/// Where and why the JSON stopped parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// Byte offset in the file.
    pub offset: u64,
    pub message: String,
}

/// What could be read.
#[derive(Debug, Default)]
pub struct Elements {
    /// The top-level `"format"` field, when there is one.
    pub format: Option<String>,
    pub values: Vec<Value>,
    /// Elements skipped because they did not parse (recovery goes on at the
    /// next line that starts an element).
    pub skipped: Vec<Broken>,
    /// Set when reading stopped before the closing `]`.
    pub stopped: Option<Broken>,
}

/// The byte offset of `(line, column)` (1-based, as serde_json reports) in `text`.
fn offset_of(text: &[u8], line: usize, column: usize) -> usize {
    let mut at = 0;
    for _ in 1..line {
        match text
            .get(at..)
            .and_then(|t| t.iter().position(|&b| b == b'\n'))
        {
            Some(n) => at += n + 1,
            None => return text.len(),
        }
    }
    (at + column.saturating_sub(1)).min(text.len())
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The string value of a top-level `"format":"…"` field near the start.
fn format_field(bytes: &[u8]) -> Option<String> {
    let head = String::from_utf8_lossy(bytes.get(..bytes.len().min(200))?);
    let after = head.split_once("\"format\"")?.1;
    let value = after.trim_start().strip_prefix(':')?.trim_start();
    let value = value.strip_prefix('"')?;
    Some(value.split_once('"')?.0.to_owned())
}

/// Reads the `"events"` array of `bytes`.
pub fn read_events(bytes: &[u8]) -> Elements {
    let mut out = Elements {
        format: format_field(bytes),
        ..Elements::default()
    };
    let mut at = match array_start(bytes) {
        Ok(Some(at)) => at,
        Ok(None) => return out,
        Err(broken) => {
            out.stopped = Some(broken);
            return out;
        }
    };
    loop {
        match next_element(bytes, at, &mut out) {
            Step::Next(next) => at = next,
            Step::Closed => return out,
            Step::Stop(broken) => {
                out.stopped = Some(broken);
                return out;
            }
        }
    }
}

/// What follows one element of the array.
enum Step {
    /// The next element starts here.
    Next(usize),
    /// The array's closing `]` was reached.
    Closed,
    /// Reading cannot go on.
    Stop(Broken),
}

/// A `Broken` at byte `at`.
fn broken(at: usize, message: impl Into<String>) -> Broken {
    Broken {
        offset: at as u64,
        message: message.into(),
    }
}

/// Where the first element of the `"events": [` array starts, `None` for an
/// empty array.
fn array_start(bytes: &[u8]) -> Result<Option<usize>, Broken> {
    let key = b"\"events\"";
    let key_at = bytes
        .windows(key.len())
        .position(|w| w == key)
        .ok_or_else(|| broken(0, "no \"events\" array"))?;
    let expect = |at: usize, byte: u8| bytes.get(at) == Some(&byte);
    let at = skip_space(bytes, key_at + key.len());
    if !expect(at, b':') {
        return Err(broken(at, "expected ':' after \"events\""));
    }
    let at = skip_space(bytes, at + 1);
    if !expect(at, b'[') {
        return Err(broken(at, "expected '[' after \"events\":"));
    }
    let at = skip_space(bytes, at + 1);
    Ok((!expect(at, b']')).then_some(at))
}

/// Reads the element at `at` into `out` (or records it as skipped) and says
/// where reading goes on.
fn next_element(bytes: &[u8], at: usize, out: &mut Elements) -> Step {
    let rest = bytes.get(at..).unwrap_or(&[]);
    let mut stream = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
    match stream.next() {
        Some(Ok(value)) => {
            out.values.push(value);
            after_element(bytes, skip_space(bytes, at + stream.byte_offset()))
        }
        Some(Err(e)) => recover(bytes, at, &e, out),
        None => Step::Stop(broken(
            bytes.len(),
            "the file ends before the events array is closed",
        )),
    }
}

/// The separator after an element that parsed, at `at`.
fn after_element(bytes: &[u8], at: usize) -> Step {
    match bytes.get(at) {
        Some(b',') => Step::Next(skip_space(bytes, at + 1)),
        Some(b']') => Step::Closed,
        Some(_) => Step::Stop(broken(at, "expected ',' or ']' between events")),
        None => Step::Stop(broken(
            at,
            "the file ends before the events array is closed",
        )),
    }
}

/// An element starting at `at` did not parse: skip it when another element
/// follows on a later line (0.5+ start each on its own line), else stop.
fn recover(bytes: &[u8], at: usize, e: &serde_json::Error, out: &mut Elements) -> Step {
    let rest = bytes.get(at..).unwrap_or(&[]);
    let broken_at = if e.is_eof() {
        bytes.len()
    } else {
        at + offset_of(rest, e.line(), e.column())
    };
    let why = broken(
        broken_at,
        if e.is_eof() {
            "the file ends in the middle of an event entry".to_owned()
        } else {
            format!("an event entry is not valid JSON ({e})")
        },
    );
    let next = bytes
        .get(broken_at..)
        .and_then(|t| t.windows(2).position(|w| w == b"\n{"))
        .map(|n| broken_at + n + 1);
    match next {
        Some(next) if !e.is_eof() => {
            out.skipped.push(why);
            Step::Next(next)
        }
        _ => Step::Stop(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_files_parse_and_cut_ones_keep_what_came_before() {
        let whole = br#"{ "format":"freq", "events": [
{"a":1},
{"a":2}
]}"#;
        let e = read_events(whole);
        assert_eq!(e.values.len(), 2);
        assert_eq!(e.format.as_deref(), Some("freq"));
        assert!(e.stopped.is_none());

        let cut = br#"{"events":[{"dataid":1},{"dataid":2,"seqnum":["#;
        let e = read_events(cut);
        assert_eq!(e.values.len(), 1);
        assert_eq!(e.stopped.unwrap().offset, cut.len() as u64);
    }

    #[test]
    fn an_entry_with_nan_is_skipped_and_reading_goes_on() {
        let text = b"{ \"events\": [\n{\"v\":[NaN]},\n{\"v\":[1]}\n]}";
        let e = read_events(text);
        assert_eq!(e.values.len(), 1);
        assert_eq!(e.skipped.len(), 1);
        assert_eq!(e.skipped[0].offset, 20);
        assert!(e.stopped.is_none());
    }
}
