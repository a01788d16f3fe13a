//! The weaver's attribute files: `classes.txt`, `methods.txt` and
//! `dataids.txt`, in the three dialects (0.4: no header and `Key=Value`
//! attributes as extra columns; 0.5: header, quoted attributes; 0.6: header,
//! class and method names repeated in dataids.txt, annotation columns).
//!
//! Row k of each file has ID k; rows are stored by the ID column so a missing
//! or damaged row leaves a gap instead of shifting the rest.

use super::signature::dotted;

/// Which SELogger release wrote the static files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    V04,
    V05,
    V06,
}

impl Dialect {
    /// The version shown in the summary.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::V04 => "0.4 (no header lines, Key=Value attributes)",
            Dialect::V05 => "0.5 (header lines, quoted attributes)",
            Dialect::V06 => "0.6 (header lines, class and method names in dataids.txt)",
        }
    }
}

/// The kinds of event that shape the call tree; everything else is `Other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Reserved,
    MethodEntry,
    MethodParam,
    NormalExit,
    ExceptionalExit,
    Throw,
    Call,
    CallParam,
    CallReturn,
    Catch,
    CatchLabel,
    Other,
}

impl EventKind {
    /// The kind named by an `EventType` column.
    pub fn from_name(name: &str) -> EventKind {
        match name {
            "RESERVED" => EventKind::Reserved,
            "METHOD_ENTRY" => EventKind::MethodEntry,
            "METHOD_PARAM" => EventKind::MethodParam,
            "METHOD_NORMAL_EXIT" => EventKind::NormalExit,
            "METHOD_EXCEPTIONAL_EXIT" => EventKind::ExceptionalExit,
            "METHOD_THROW" => EventKind::Throw,
            "CALL" => EventKind::Call,
            "CALL_PARAM" => EventKind::CallParam,
            "CALL_RETURN" => EventKind::CallReturn,
            "CATCH" => EventKind::Catch,
            "CATCH_LABEL" => EventKind::CatchLabel,
            _ => EventKind::Other,
        }
    }
}

/// How the 64-bit value of an event is to be read (`ValueDesc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDesc {
    Boolean,
    Byte,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
    Void,
    Object,
}

impl ValueDesc {
    /// The descriptor letter or `Ljava/lang/Object;`; unknown text reads as a long.
    pub fn from_text(text: &str) -> ValueDesc {
        match text {
            "Z" => ValueDesc::Boolean,
            "B" => ValueDesc::Byte,
            "C" => ValueDesc::Char,
            "S" => ValueDesc::Short,
            "I" => ValueDesc::Int,
            "J" => ValueDesc::Long,
            "F" => ValueDesc::Float,
            "D" => ValueDesc::Double,
            "V" => ValueDesc::Void,
            t if t.starts_with('L') || t.starts_with('[') => ValueDesc::Object,
            _ => ValueDesc::Long,
        }
    }
}

/// A row of methods.txt.
#[derive(Clone, Debug, Default)]
pub struct MethodInfo {
    /// Dotted class name.
    pub class: String,
    pub name: String,
    pub desc: String,
    /// JVM access flags (`Access` column; written by every release).
    pub access: Option<u32>,
    pub source: String,
}

/// A row of dataids.txt.
#[derive(Clone, Debug)]
pub struct DataInfo {
    pub method: u32,
    pub line: i64,
    /// The `EventType` column as written.
    pub event: String,
    pub kind: EventKind,
    pub value: ValueDesc,
    /// Attributes with lower-case keys (0.4's `CallParent` becomes `callparent`).
    pub attributes: Vec<(String, String)>,
}

impl DataInfo {
    /// The value of attribute `key` (lower case).
    pub fn attribute(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A line that could not be read, by byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    pub offset: u64,
}

/// Lines of `text` with the byte offset where each starts (line ends dropped).
pub fn lines_with_offsets(text: &str) -> impl Iterator<Item = (u64, &str)> {
    let mut offset = 0u64;
    text.split_inclusive('\n').map(move |raw| {
        let at = offset;
        offset += raw.len() as u64;
        (at, raw.trim_end_matches(['\n', '\r']))
    })
}

/// Puts `value` at index `id`, growing the table. Row k has ID k, so an ID
/// beyond the file's line count (`max_id`) is damage and is refused: a bad
/// number must not make the table huge.
fn place<T: Clone>(table: &mut Vec<Option<T>>, id: u64, value: T, max_id: u64) -> bool {
    if id > max_id {
        return false;
    }
    let id = id as usize;
    if table.len() <= id {
        table.resize(id + 1, None);
    }
    if let Some(slot) = table.get_mut(id) {
        *slot = Some(value);
    }
    true
}

/// methods.txt of any dialect: the first eight columns are the same.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn parse_methods(text: &str) -> (Vec<Option<MethodInfo>>, Vec<BadLine>) {
    let mut table = Vec::new();
    let mut bad = Vec::new();
    let max_id = text.lines().count() as u64;
    for (offset, line) in lines_with_offsets(text) {
        if line.is_empty() || line.starts_with("ClassID,") {
            continue;
        }
        let cols: Vec<&str> = line.splitn(9, ',').collect();
        let parsed = (|| {
            let id: u64 = cols.get(1)?.parse().ok()?;
            let info = MethodInfo {
                class: dotted(cols.get(2)?),
                name: (*cols.get(3)?).to_owned(),
                desc: (*cols.get(4)?).to_owned(),
                access: cols.get(5).and_then(|a| a.parse().ok()),
                source: cols.get(6).copied().unwrap_or("").to_owned(),
            };
            Some((id, info))
        })();
        let placed = parsed.is_some_and(|(id, info)| place(&mut table, id, info, max_id));
        if !placed {
            bad.push(BadLine { offset });
        }
    }
    (table, bad)
}

/// classes.txt: the number of woven classes (the rows carry nothing the
/// viewer needs beyond what methods.txt repeats).
pub fn count_classes(text: &str) -> usize {
    lines_with_offsets(text)
        .filter(|(_, l)| !l.is_empty() && !l.starts_with("ClassID,"))
        .count()
}

/// The dialect of a dataids.txt, from its first line.
pub fn dataids_dialect(text: &str) -> Dialect {
    let first = text.lines().next().unwrap_or("");
    if first.starts_with("DataID,ClassID,MethodID,ClassName,") {
        Dialect::V06
    } else if first.starts_with("DataID,") {
        Dialect::V05
    } else {
        Dialect::V04
    }
}

/// 0.5/0.6 attributes: `"k=v,k=v"` or `"null"`.
fn quoted_attributes(text: &str) -> Vec<(String, String)> {
    let inner = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    if inner == "null" || inner.is_empty() {
        return Vec::new();
    }
    key_values(inner.split(','))
}

/// `Key=Value` items (0.4's extra columns, or the inside of 0.5+'s quotes).
fn key_values<'a>(items: impl Iterator<Item = &'a str>) -> Vec<(String, String)> {
    items
        .filter(|item| !item.is_empty())
        .map(|item| match item.split_once('=') {
            Some((k, v)) => (k.to_ascii_lowercase(), v.to_owned()),
            None => (item.to_ascii_lowercase(), String::new()),
        })
        .collect()
}

/// dataids.txt of any dialect.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn parse_dataids(text: &str, dialect: Dialect) -> (Vec<Option<DataInfo>>, Vec<BadLine>) {
    // Columns before EventType: DataID, ClassID, MethodID, [ClassName, MethodName,] Line,
    // InstructionIndex (an ASM list index, not shown).
    let names = usize::from(dialect == Dialect::V06) * 2;
    let fixed = 7 + names;
    let mut table = Vec::new();
    let mut bad = Vec::new();
    let max_id = text.lines().count() as u64;
    for (offset, line) in lines_with_offsets(text) {
        if line.is_empty() || line.starts_with("DataID,") {
            continue;
        }
        let cols: Vec<&str> = line.splitn(fixed + 1, ',').collect();
        let parsed = (|| {
            let id: u64 = cols.first()?.parse().ok()?;
            let event = *cols.get(5 + names)?;
            let rest = cols.get(fixed).copied().unwrap_or("");
            let attributes = match dialect {
                Dialect::V04 => key_values(rest.split(',')),
                _ => quoted_attributes(rest),
            };
            let info = DataInfo {
                method: cols.get(2)?.parse().ok()?,
                line: cols.get(3 + names)?.parse().ok()?,
                event: event.to_owned(),
                kind: EventKind::from_name(event),
                value: ValueDesc::from_text(cols.get(6 + names)?),
                attributes,
            };
            Some((id, info))
        })();
        let placed = parsed.is_some_and(|(id, info)| place(&mut table, id, info, max_id));
        if !placed {
            bad.push(BadLine { offset });
        }
    }
    (table, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dataids_of_all_three_dialects() {
        let v04 = "0,0,0,-1,-1,RESERVED,V,demo/T#f#()V#size=3\n1,0,0,0,0,METHOD_ENTRY,V,\n2,0,0,5,3,CALL_RETURN,I,CallParent=1,Instruction=INVOKESTATIC\n";
        assert_eq!(dataids_dialect(v04), Dialect::V04);
        let (rows, bad) = parse_dataids(v04, Dialect::V04);
        assert!(bad.is_empty());
        let ret = rows[2].as_ref().unwrap();
        assert_eq!(ret.kind, EventKind::CallReturn);
        assert_eq!(ret.attribute("callparent"), Some("1"));
        assert_eq!(ret.value, ValueDesc::Int);
        assert!(rows[1].as_ref().unwrap().attributes.is_empty());

        let v05 = "DataID,ClassID,MethodID,Line,InstructionIndex,EventType,ValueDesc,Attributes\n0,0,0,35,-1,RESERVED,V,\"null\"\n1,0,0,35,0,CALL,V,\"owner=java/lang/Object,name=<init>,desc=()V\"\n";
        assert_eq!(dataids_dialect(v05), Dialect::V05);
        let (rows, _) = parse_dataids(v05, Dialect::V05);
        let call = rows[1].as_ref().unwrap();
        assert_eq!(call.attribute("owner"), Some("java/lang/Object"));
        assert_eq!(call.attribute("desc"), Some("()V"));
        assert_eq!(call.line, 35);

        let v06 = "DataID,ClassID,MethodID,ClassName,MethodName,Line,InstructionIndex,EventType,ValueDesc,Attributes\n1,0,3,demo/T,f,40,2,METHOD_PARAM,Ljava/lang/Object;,\"type=java.lang.String,name=label,index=1\"\nbroken\n";
        assert_eq!(dataids_dialect(v06), Dialect::V06);
        let (rows, bad) = parse_dataids(v06, Dialect::V06);
        let param = rows[1].as_ref().unwrap();
        assert_eq!(param.method, 3);
        assert_eq!(param.value, ValueDesc::Object);
        assert_eq!(param.attribute("name"), Some("label"));
        assert!(rows[0].is_none());
        assert_eq!(bad, vec![BadLine { offset: 193 }]);
    }

    #[test]
    fn methods_with_and_without_header() {
        let text = "ClassID,MethodID,ClassName,MethodName,MethodDesc,Access,SourceFileName,MethodHash\n0,1,demo/T,main,([Ljava/lang/String;)V,9,T.java,abc\n";
        let (rows, bad) = parse_methods(text);
        assert!(bad.is_empty());
        let m = rows[1].as_ref().unwrap();
        assert_eq!((m.class.as_str(), m.name.as_str()), ("demo.T", "main"));
        let (rows, _) = parse_methods("0,0,demo/T,<init>,()V,1,,\n");
        assert_eq!(rows[0].as_ref().unwrap().source, "");
        let (rows, bad) = parse_methods("0,999999999,demo/T,f,()V,1,,\n");
        assert!(rows.is_empty());
        assert_eq!(bad, vec![BadLine { offset: 0 }]);
    }
}
