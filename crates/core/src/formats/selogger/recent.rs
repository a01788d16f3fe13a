//! Near-omniscient and frequency outputs: per code location, how often it ran
//! and (near-omniscient) its most recent values with their sequence numbers
//! and threads. Read from `recentdata.json` / `trace.json` (0.4 with a
//! `dataid` field; 0.5/0.6 with the location written out), `recentdata.txt`
//! (0.4 CSV without header), `trace.txt` (0.6 CSV with header) and
//! `eventfreq.txt` (0.4 `dataId,count`).

use super::signature::dotted;
use super::statics::lines_with_offsets;
use super::tolerant_json::{read_events, Broken};
use serde_json::Value;

/// A code location written out (0.5+ files carry it instead of a data ID).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// Dotted class name.
    pub class: String,
    pub method: String,
    pub desc: String,
    pub line: i64,
    pub event: String,
}

/// Which location an entry is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Where {
    DataId(u64),
    Named(Location),
}

/// One location's counts and recent values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub at: Where,
    pub freq: u64,
    /// Recent values, oldest first, as text.
    pub values: Vec<String>,
    pub seqnums: Vec<i64>,
    pub threads: Vec<i64>,
}

/// Entries of one file and what went wrong reading it.
#[derive(Debug, Default)]
pub struct Parsed {
    /// `nearomni` or `freq` (from the JSON's `format`, or the file kind).
    pub kind: String,
    pub entries: Vec<Entry>,
    /// Lines or entries that could not be read: (byte offset, count).
    pub bad: Option<(u64, u64)>,
    /// Where the file stopped making sense, if it did.
    pub stopped: Option<Broken>,
}

fn json_value_text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::String(s) => s.clone(),
        Value::Object(map) => {
            let content = map.get("str").or_else(|| map.get("string"));
            if let Some(Value::String(s)) = content {
                return serde_json::to_string(s).unwrap_or_default();
            }
            let id = map.get("id").map(json_value_text).unwrap_or_default();
            match map.get("type") {
                Some(Value::String(ty)) => format!("{ty}@{id}"),
                _ => id,
            }
        }
        other => other.to_string(),
    }
}

fn numbers(v: Option<&Value>) -> Vec<i64> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

fn str_field(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_owned()
}

/// One JSON element of either layout.
fn entry_from_json(v: &Value) -> Option<Entry> {
    let at = match v.get("dataid").and_then(Value::as_u64) {
        Some(id) => Where::DataId(id),
        None => Where::Named(Location {
            class: dotted(v.get("cname")?.as_str()?),
            method: str_field(v, "mname"),
            desc: str_field(v, "mdesc"),
            line: v.get("line").and_then(Value::as_i64).unwrap_or(-1),
            event: str_field(v, "event"),
        }),
    };
    Some(Entry {
        at,
        freq: v.get("freq")?.as_u64()?,
        values: v
            .get("value")
            .and_then(Value::as_array)
            .map(|a| a.iter().map(json_value_text).collect())
            .unwrap_or_default(),
        seqnums: numbers(v.get("seqnum")),
        threads: numbers(v.get("thread")),
    })
}

/// `recentdata.json` / `trace.json`.
pub fn parse_json(bytes: &[u8]) -> Parsed {
    let read = read_events(bytes);
    let mut parsed = Parsed {
        kind: read.format.unwrap_or_else(|| "nearomni".into()),
        stopped: read.stopped,
        ..Parsed::default()
    };
    let mut bad: Vec<u64> = read.skipped.iter().map(|b| b.offset).collect();
    for value in &read.values {
        match entry_from_json(value) {
            Some(entry) => parsed.entries.push(entry),
            // Element offsets are not kept; the file start is the best we know.
            None => bad.push(0),
        }
    }
    if let Some(&first) = bad.iter().min() {
        parsed.bad = Some((first, bad.len() as u64));
    }
    parsed
}

/// Splits a CSV line at commas outside double quotes; inside quotes a
/// backslash escapes the next character (SELogger JSON-escapes string
/// contents, and in 0.4 the quote may open in the middle of a field).
pub fn split_fields(line: &str) -> Vec<&str> {
    let mut fields = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
        } else if quoted && c == '\\' {
            escaped = true;
        } else if c == '"' {
            quoted = !quoted;
        } else if c == ',' && !quoted {
            fields.push(line.get(start..i).unwrap_or(""));
            start = i + 1;
        }
    }
    fields.push(line.get(start..).unwrap_or(""));
    fields
}

/// A CSV value: strings (`"java.lang.String@h:\"..\""` or
/// `java.lang.String@h:"..."`) shown by their content.
fn csv_value_text(field: &str) -> String {
    let unwrapped = field
        .strip_prefix('"')
        .and_then(|f| f.strip_suffix('"'))
        .unwrap_or(field);
    let string = unwrapped
        .split_once(':')
        .filter(|(object, _)| object.starts_with("java.lang.String@"));
    if let Some((_, content)) = string {
        let json = if content.starts_with('"') {
            content.to_owned()
        } else {
            format!("\"{content}\"")
        };
        if let Ok(s) = serde_json::from_str::<String>(&json) {
            return serde_json::to_string(&s).unwrap_or(s);
        }
    }
    unwrapped.to_owned()
}

/// Value/seqnum/thread triples starting at `fields[from]`; empty triples end the list.
fn triples(fields: &[&str], from: usize, entry: &mut Entry) {
    let mut at = from;
    while let (Some(v), Some(s), Some(t)) = (fields.get(at), fields.get(at + 1), fields.get(at + 2))
    {
        let (Ok(seq), Ok(thread)) = (s.parse::<i64>(), t.parse::<i64>()) else {
            break;
        };
        entry.values.push(csv_value_text(v));
        entry.seqnums.push(seq);
        entry.threads.push(thread);
        at += 3;
    }
}

/// `recentdata.txt` (0.4, no header) or `trace.txt` (0.6, header).
pub fn parse_csv(text: &str) -> Parsed {
    let mut parsed = Parsed {
        kind: "nearomni".into(),
        ..Parsed::default()
    };
    let mut header: Option<Vec<String>> = None;
    let mut bad = Vec::new();
    for (offset, line) in lines_with_offsets(text) {
        if line.is_empty() {
            continue;
        }
        if header.is_none() && (line.starts_with("loadedFrom,") || line.starts_with("cname,")) {
            header = Some(split_fields(line).iter().map(|s| (*s).to_owned()).collect());
            continue;
        }
        let fields = split_fields(line);
        let entry = match &header {
            Some(names) => {
                let col = |name: &str| names.iter().position(|n| n == name);
                let get = |name: &str| col(name).and_then(|i| fields.get(i)).copied();
                (|| {
                    let mut entry = Entry {
                        at: Where::Named(Location {
                            class: dotted(get("cname")?),
                            method: get("mname")?.to_owned(),
                            desc: get("mdesc").unwrap_or("").to_owned(),
                            line: get("line").and_then(|l| l.parse().ok()).unwrap_or(-1),
                            event: get("event")?.to_owned(),
                        }),
                        freq: get("freq")?.parse().ok()?,
                        values: Vec::new(),
                        seqnums: Vec::new(),
                        threads: Vec::new(),
                    };
                    triples(&fields, col("value1")?, &mut entry);
                    Some(entry)
                })()
            }
            None => (|| {
                let mut entry = Entry {
                    at: Where::DataId(fields.first()?.parse().ok()?),
                    freq: fields.get(1)?.parse().ok()?,
                    values: Vec::new(),
                    seqnums: Vec::new(),
                    threads: Vec::new(),
                };
                triples(&fields, 3, &mut entry);
                Some(entry)
            })(),
        };
        match entry {
            Some(entry) => parsed.entries.push(entry),
            None => bad.push(offset),
        }
    }
    if let Some(&first) = bad.first() {
        parsed.bad = Some((first, bad.len() as u64));
    }
    parsed
}

/// `eventfreq.txt` (0.4): `dataId,count` lines.
pub fn parse_eventfreq(text: &str) -> Parsed {
    let mut parsed = Parsed {
        kind: "freq".into(),
        ..Parsed::default()
    };
    let mut bad = Vec::new();
    for (offset, line) in lines_with_offsets(text) {
        if line.is_empty() {
            continue;
        }
        match line
            .split_once(',')
            .and_then(|(d, c)| Some((d.parse().ok()?, c.trim().parse().ok()?)))
        {
            Some((id, freq)) => parsed.entries.push(Entry {
                at: Where::DataId(id),
                freq,
                values: Vec::new(),
                seqnums: Vec::new(),
                threads: Vec::new(),
            }),
            None => bad.push(offset),
        }
    }
    if let Some(&first) = bad.first() {
        parsed.bad = Some((first, bad.len() as u64));
    }
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_keep_quoted_commas_in_both_dialects() {
        let v04 = r#"12,2,2,java.lang.String@1b:"y,z",5,0,java.lang.String@1c:"a\"b",9,1"#;
        let p = parse_csv(v04);
        let e = &p.entries[0];
        assert_eq!(e.at, Where::DataId(12));
        assert_eq!(e.values, vec!["\"y,z\"", "\"a\\\"b\""]);
        assert_eq!(e.seqnums, vec![5, 9]);
        assert_eq!(e.threads, vec![0, 1]);

        let v06 = "loadedFrom,filename,cname,mname,mdesc,mhash,line,inst,attr,event,valuetype,freq,record,value1,seqnum1,thread1,value2,seqnum2,thread2\n\
f,demo/T,demo.T,f,()V,ab,7,3,\"type=int,name=x\",LOCAL_STORE,int,4,1,\"java.lang.String@8:q\\\"r,s\",3,0,,,\n";
        let p = parse_csv(v06);
        assert!(p.bad.is_none(), "{:?}", p.bad);
        let e = &p.entries[0];
        assert_eq!(e.freq, 4);
        assert_eq!(e.values, vec!["\"q\\\"r,s\""]);
        match &e.at {
            Where::Named(l) => assert_eq!((l.line, l.event.as_str()), (7, "LOCAL_STORE")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn eventfreq_and_json_layouts() {
        let p = parse_eventfreq("1,3\n2,x\n");
        assert_eq!(p.entries.len(), 1);
        assert_eq!(p.bad, Some((4, 1)));
        let json = br#"{"events":[{"dataid":4,"freq":2,"record":1,"type":"object","value":[{"id":"demo.T@3d"}],"seqnum":[7],"thread":[0]}]}"#;
        let p = parse_json(json);
        assert_eq!(p.entries[0].values, vec!["demo.T@3d"]);
        let json = br#"{ "format":"nearomni", "events": [
{"cname":"demo/T","mname":"f","mdesc":"()V","line":3,"inst":0,"event":"METHOD_PARAM","freq":1,"record":1,"value":[{"id":"8c","type":"java.lang.String","str":"d"}],"seqnum":[45],"thread":[0]}
]}"#;
        let p = parse_json(json);
        assert_eq!(p.entries[0].values, vec!["\"d\""]);
        assert_eq!(p.kind, "nearomni");
    }
}
