//! What each file of a SELogger output folder is for, told by content
//! where it is distinctive (header lines, the JSON head, a 0.4 dataids row)
//! and by name otherwise, and the order the files are read in.

use crate::decoder::FileProbe;

/// What a file of the output folder is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    DataIds,
    Methods,
    Classes,
    Types,
    ObjectTypes,
    Strings,
    Exceptions,
    WeavingProperties,
    WeaverLog,
    Binary(u64),
    Text(u64),
    RecentJson,
    RecentCsv,
    EventFreq,
}

impl Role {
    /// Reading order: static files, then streams, then the summaries.
    pub(super) fn rank(self) -> (u8, u64) {
        match self {
            Role::DataIds => (0, 0),
            Role::Methods => (1, 0),
            Role::Classes => (2, 0),
            Role::Types => (3, 0),
            Role::ObjectTypes => (4, 0),
            Role::Strings => (5, 0),
            Role::Exceptions => (6, 0),
            Role::WeavingProperties => (7, 0),
            Role::WeaverLog => (8, 0),
            Role::Binary(n) => (9, n),
            Role::Text(n) => (10, n),
            Role::RecentJson => (11, 0),
            Role::RecentCsv => (12, 0),
            Role::EventFreq => (13, 0),
        }
    }

    pub(super) fn is_stream(self) -> bool {
        matches!(self, Role::Binary(_) | Role::Text(_))
    }
}

/// A 0.4 `dataids.txt` row (no header): ids, line, instruction, event type, value type.
fn looks_like_v04_dataids(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let first = text.lines().next().unwrap_or("");
    let cols: Vec<&str> = first.split(',').collect();
    cols.len() >= 7
        && cols.iter().take(3).all(|c| c.parse::<u64>().is_ok())
        && cols
            .iter()
            .skip(3)
            .take(2)
            .all(|c| c.parse::<i64>().is_ok())
        && cols.get(5).is_some_and(|c| {
            !c.is_empty() && c.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        })
}

/// `log-00001.slg` → 1 (for `ext` = `.slg`).
fn stream_number(name: &str, ext: &str) -> Option<u64> {
    let digits = name.strip_prefix("log-")?.strip_suffix(ext)?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

fn json_head(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    compact.starts_with("{\"format\":\"nearomni\"")
        || compact.starts_with("{\"format\":\"freq\"")
        || compact.starts_with("{\"events\":[{\"dataid\"")
}

/// The role of a file, by content where it is distinctive, else by name.
pub(super) fn role_of(probe: &FileProbe) -> Option<Role> {
    let head = &probe.head;
    let name = probe.name();
    if head.starts_with(b"DataID,ClassID,MethodID,") {
        return Some(Role::DataIds);
    }
    if head.starts_with(b"ClassID,MethodID,") {
        return Some(Role::Methods);
    }
    if head.starts_with(b"ClassID,LoadedFrom,") {
        return Some(Role::Classes);
    }
    if let Some(n) = stream_number(name, ".slg") {
        return Some(Role::Binary(n));
    }
    if let Some(n) = stream_number(name, ".txt") {
        return Some(Role::Text(n));
    }
    if json_head(head) {
        return Some(Role::RecentJson);
    }
    match name {
        "dataids.txt" => return Some(Role::DataIds),
        "methods.txt" => return Some(Role::Methods),
        "classes.txt" => return Some(Role::Classes),
        "LOG$Types.txt" => return Some(Role::Types),
        "weaving.properties" => return Some(Role::WeavingProperties),
        "log.txt" | "weaverlog.txt" => return Some(Role::WeaverLog),
        "recentdata.json" | "trace.json" => return Some(Role::RecentJson),
        "recentdata.txt" => return Some(Role::RecentCsv),
        "trace.txt" if head.starts_with(b"{") => return Some(Role::RecentJson),
        "trace.txt" => return Some(Role::RecentCsv),
        "eventfreq.txt" => return Some(Role::EventFreq),
        _ => {}
    }
    if name.ends_with(".txt") {
        if name.starts_with("LOG$ObjectTypes") {
            return Some(Role::ObjectTypes);
        }
        if name.starts_with("LOG$String") {
            return Some(Role::Strings);
        }
        if name.starts_with("LOG$Exception") {
            return Some(Role::Exceptions);
        }
    }
    looks_like_v04_dataids(head).then_some(Role::DataIds)
}

/// A file that on its own says "SELogger output".
pub(super) fn is_distinctive(probe: &FileProbe) -> bool {
    match role_of(probe) {
        Some(Role::DataIds) => {
            probe.head.starts_with(b"DataID,") || looks_like_v04_dataids(&probe.head)
        }
        Some(Role::Binary(_)) => true,
        Some(Role::RecentJson) => json_head(&probe.head),
        _ => false,
    }
}
