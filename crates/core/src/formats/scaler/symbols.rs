//! The JSON files beside the trees: `symbol.json` and `commonFuncId.json`
//! (July 2021, "V1") and the per-thread `symbol_0x<tid>.json` of the
//! 2021-07-25 data-structure change ("V2"), and how a node gets its name.
//!
//! V1 `funcID`s index the hooked executable's `.rela.plt`, so a name is looked
//! up under the executable's entry (the one whose `funcNames` is not null),
//! never under the node's `fileID` — that only works by accident for lazily
//! bound programs. V2 nodes carry the callee's library id and address, looked
//! up in the thread's own symbol file.

use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// One ELF image of a symbol file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// Absolute path at capture time (may be empty: anonymous mappings).
    pub file_name: String,
    /// Hooked symbols by id (V1: `.rela.plt` index; V2: address), if any.
    pub func_names: Option<HashMap<i64, String>>,
}

/// A parsed `symbol.json` or `symbol_<tid>.json`: images by file id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymbolFile {
    pub images: BTreeMap<i64, Image>,
    /// Entries that were not `{fileName, funcNames}` objects or had keys
    /// that are not numbers.
    pub skipped: u64,
}

impl SymbolFile {
    /// The executable's id: the image with hooked symbols ("0" in practice;
    /// the lowest id if, unexpectedly, several have them).
    pub fn executable(&self) -> Option<i64> {
        self.images
            .iter()
            .find(|(_, image)| image.func_names.as_ref().is_some_and(|n| !n.is_empty()))
            .map(|(&id, _)| id)
    }

    /// The name of symbol `func` of image `file`.
    pub fn name(&self, file: i64, func: i64) -> Option<&str> {
        self.images
            .get(&file)?
            .func_names
            .as_ref()?
            .get(&func)
            .map(String::as_str)
    }

    /// The base name of image `file`'s path.
    pub fn library(&self, file: i64) -> Option<&str> {
        let path = &self.images.get(&file)?.file_name;
        let base = crate::decoder::file_name(path);
        (!base.is_empty()).then_some(base)
    }
}

/// `commonFuncId.json`: per file id, the funcIDs Scaler treats as pthread
/// and semaphore functions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommonIds {
    pub pthread: HashMap<i64, Vec<i64>>,
    pub semaphore: HashMap<i64, Vec<i64>>,
}

/// A JSON file that could not be read, with the byte offset of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub offset: u64,
    pub message: String,
}

fn parse_object(bytes: &[u8]) -> Result<serde_json::Map<String, Value>, JsonError> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(JsonError {
            offset: 0,
            message: "the top level is not a JSON object".into(),
        }),
        Err(e) => Err(JsonError {
            offset: byte_offset(bytes, e.line(), e.column()),
            message: format!("not valid JSON: {e}"),
        }),
    }
}

/// Byte offset of a 1-based line and column, as serde_json reports them.
fn byte_offset(bytes: &[u8], line: usize, column: usize) -> u64 {
    let line_start: usize = bytes
        .split(|&b| b == b'\n')
        .take(line.saturating_sub(1))
        .map(|l| l.len() + 1)
        .sum();
    (line_start + column.saturating_sub(1)).min(bytes.len()) as u64
}

/// A JSON number, or a string holding a decimal number.
fn as_i64(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| n.as_u64().map(|u| u as i64)),
        Value::String(s) => parse_id(s),
        _ => None,
    }
}

/// A decimal key; V2 addresses may exceed `i64::MAX` and are kept as bits.
fn parse_id(s: &str) -> Option<i64> {
    s.parse::<i64>()
        .ok()
        .or_else(|| s.parse::<u64>().ok().map(|u| u as i64))
}

/// Parses `symbol.json` (V1) or `symbol_<tid>.json` (V2); both have the same shape.
pub fn parse_symbols(bytes: &[u8]) -> Result<SymbolFile, JsonError> {
    let top = parse_object(bytes)?;
    let mut out = SymbolFile::default();
    for (key, entry) in &top {
        let (Some(id), Some(entry)) = (parse_id(key), entry.as_object()) else {
            out.skipped += 1;
            continue;
        };
        let file_name = entry
            .get("fileName")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let func_names = entry
            .get("funcNames")
            .and_then(Value::as_object)
            .map(|names| {
                names
                    .iter()
                    .filter_map(|(k, v)| Some((parse_id(k)?, v.as_str()?.to_owned())))
                    .collect::<HashMap<_, _>>()
            });
        if let Some(names) = entry.get("funcNames").and_then(Value::as_object) {
            let usable = func_names.as_ref().map_or(0, HashMap::len);
            out.skipped += (names.len() - usable) as u64;
        }
        out.images.insert(
            id,
            Image {
                file_name,
                func_names,
            },
        );
    }
    Ok(out)
}

/// Parses `commonFuncId.json`.
pub fn parse_common_ids(bytes: &[u8]) -> Result<CommonIds, JsonError> {
    let top = parse_object(bytes)?;
    let mut out = CommonIds::default();
    let list = |v: Option<&Value>| -> Vec<i64> {
        v.and_then(Value::as_array)
            .map(|a| a.iter().filter_map(as_i64).collect())
            .unwrap_or_default()
    };
    for (key, entry) in &top {
        let Some(id) = parse_id(key) else { continue };
        out.pthread.insert(id, list(entry.get("pthread")));
        out.semaphore.insert(id, list(entry.get("semaphore")));
    }
    Ok(out)
}

/// The readable form of a C++ symbol, when `raw` is a mangled name.
pub fn demangle(raw: &str) -> Option<String> {
    if !raw.starts_with("_Z") {
        return None;
    }
    let symbol = cpp_demangle::Symbol::new(raw).ok()?;
    let text = symbol
        .demangle(&cpp_demangle::DemangleOptions::default())
        .ok()?;
    (text != raw).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_executable_is_the_image_with_names() {
        let json = br#"{"0":{"fileName":"/x/prog","funcNames":{"0":"printf","10":"qsort"}},"4":{"fileName":"","funcNames":null},"7":{"fileName":"/lib/libc.so.6","funcNames":null}}"#;
        let symbols = parse_symbols(json).unwrap();
        assert_eq!(symbols.executable(), Some(0));
        assert_eq!(symbols.name(0, 10), Some("qsort"));
        assert_eq!(symbols.name(7, 10), None);
        assert_eq!(symbols.library(7), Some("libc.so.6"));
        assert_eq!(symbols.library(4), None);
    }

    #[test]
    fn common_ids_keep_member_order_and_null_lists() {
        let json = br#"{"0":{"pthread":[12,6,8],"semaphore":null}}"#;
        let ids = parse_common_ids(json).unwrap();
        assert_eq!(ids.pthread[&0], vec![12, 6, 8]);
        assert!(ids.semaphore[&0].is_empty());
    }

    #[test]
    fn broken_json_reports_where() {
        let err = parse_symbols(b"{\"0\": {\"fileName\": }").unwrap_err();
        assert!(err.offset > 5, "{err:?}");
        assert!(parse_symbols(b"[1]").is_err());
    }

    #[test]
    fn mangled_names_are_demangled_and_c_names_left_alone() {
        assert_eq!(demangle("_Z3fooi").as_deref(), Some("foo(int)"));
        assert_eq!(demangle("printf"), None);
        assert_eq!(demangle("_Z"), None);
    }
}
