//! The static files as SELogger's own reader (`selogger.reader.DataIdMap`,
//! `ObjectTypeMap`, `TypeList`, used by `LogPrinter`) reads them, kept in
//! the trace's [`EventLog`] so the listing prints each event's line as
//! LogPrinter of the release that wrote the files does.
//!
//! The reader's rules, per release (0.4 and 0.5+ differ):
//! - dataids.txt and methods.txt are split at every comma; the text after
//!   `method:` on a CALL is the attribute list: 0.4 writes each attribute
//!   followed by a comma, 0.5+ keeps the `key=value` items (of a quoted
//!   list the first key keeps its opening quote and the last value its
//!   closing one) joined by commas.
//! - Attribute lookups are by exact key: `Desc` gives a CALL's or
//!   INVOKE_DYNAMIC's parameter count and `Index` a parameter's index, so
//!   in 0.5+, whose keys are lower case, a CALL takes no parameter events
//!   and every parameter prints index -1.
//! - A METHOD_ENTRY prints its methods.txt row rebuilt from its columns
//!   (0.6 adds the two annotation columns), and takes one METHOD_PARAM per
//!   argument of its descriptor.
//! - 0.4 prints every value as the recorded number; 0.5+ prints floats,
//!   doubles and booleans as Java does.
//! - An object's type comes from `LOG$ObjectTypes*.txt` and `LOG$Types.txt`:
//!   object 0 is `null`; an object the files do not list has type 0; a type
//!   id past the list is `null`; without a readable `LOG$Types.txt` every
//!   type is `N/A`.

use super::objects::Objects;
use super::statics::{lines_with_offsets, Dialect};
use crate::fast_hash::FastMap;
use crate::model::{site_role, value_form, EventLog, TextId};

/// One dataids.txt row as the reader keeps it.
#[derive(Clone, Debug, Default)]
struct Site {
    event_type: String,
    method: Option<u32>,
    line: i32,
    inst: i32,
    value: u8,
    role: u8,
    params: u16,
    param_index: i32,
    attributes: String,
}

/// One methods.txt row as the reader keeps it.
#[derive(Clone, Debug, Default)]
struct Method {
    place: String,
    source: String,
    text: String,
    params: u16,
}

/// The reader's view of the static files, until the trace is finished.
#[derive(Debug, Default)]
pub struct PrinterTables {
    sites: Vec<Option<Site>>,
    methods: Vec<Option<Method>>,
    /// Type names by type id; `None` when LOG$Types.txt could not be read.
    types: Option<Vec<String>>,
    /// Type id by object id.
    object_types: Vec<i32>,
}

impl PrinterTables {
    /// Reads dataids.txt of `dialect`.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    pub fn add_dataids(&mut self, text: &str, dialect: Dialect) {
        for (_, line) in lines_with_offsets(text) {
            if line.is_empty() || line.starts_with("DataID,") {
                continue;
            }
            if let Some((id, site)) = parse_site(line, dialect) {
                place(&mut self.sites, id, site, text.len());
            }
        }
    }

    /// Reads methods.txt of `dialect`.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    pub fn add_methods(&mut self, text: &str, dialect: Dialect) {
        for (_, line) in lines_with_offsets(text) {
            if line.is_empty() || line.starts_with("ClassID,") {
                continue;
            }
            if let Some((id, method)) = parse_method(line, dialect) {
                place(&mut self.methods, id, method, text.len());
            }
        }
    }

    /// Reads `LOG$Types.txt`: row k must have type id k, else the reader
    /// gives up on the whole file.
    pub fn add_types(&mut self, text: &str) {
        let mut names = Vec::new();
        for line in text.lines() {
            let tokens: Vec<&str> = line.split(',').collect();
            let id = match tokens.len() {
                n if n >= 5 || n == 2 => tokens.first().and_then(|t| t.parse::<usize>().ok()),
                _ => Some(0),
            };
            if id != Some(names.len()) {
                self.types = None;
                return;
            }
            names.push(tokens.get(1).copied().unwrap_or("null").to_owned());
        }
        self.types = Some(names);
    }

    /// Reads one `LOG$ObjectTypes*.txt`: `objectId,typeId` lines.
    pub fn add_object_types(&mut self, text: &str) {
        // Object 0 (null) is registered with type -1 before the files are read.
        if self.object_types.is_empty() {
            self.object_types.push(-1);
        }
        for line in text.lines() {
            let Some((object, type_id)) = line.split_once(',') else {
                continue;
            };
            let (Ok(object), Ok(type_id)) = (object.parse::<u64>(), type_id.parse::<i32>()) else {
                continue;
            };
            // Ids are sequential in a sound file; a wild one must not make the table huge.
            let Ok(at) = usize::try_from(object) else {
                continue;
            };
            if at > self.object_types.len() + text.len() {
                continue;
            }
            if self.object_types.len() <= at {
                self.object_types.resize(at + 1, 0);
            }
            if let Some(slot) = self.object_types.get_mut(at) {
                *slot = type_id;
            }
        }
    }

    /// Writes the tables into `log`, each distinct text once in its text table.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    pub fn fill(mut self, log: &mut EventLog) {
        // A row the replay could read but this reader could not still has
        // its events in the log: it gets a missing site.
        let needed = log.sites().max().map_or(0, |site| site as usize + 1);
        if self.sites.len() < needed {
            self.sites.resize_with(needed, || None);
        }
        let mut strings = Texts::default();
        for site in &self.sites {
            let site = site.clone().unwrap_or_else(|| Site {
                role: site_role::MISSING,
                ..Site::default()
            });
            let id = strings.intern(log, &site.event_type);
            log.site_type.push(id);
            log.site_method.push(site.method.unwrap_or(u32::MAX));
            log.site_line.push(site.line as u32);
            log.site_inst.push(site.inst as u32);
            log.site_value.push(site.value);
            log.site_role.push(site.role);
            log.site_params.push(site.params);
            log.site_param_index.push(site.param_index as u32);
            // Kept for every site: the values analysis names variables and
            // fields by them (LogPrinter prints them only on a CALL).
            let attributes = strings.intern(log, &site.attributes);
            log.site_attributes.push(attributes);
        }
        for method in &self.methods {
            let method = method.clone().unwrap_or_default();
            let id = strings.intern(log, &method.place);
            log.method_place.push(id);
            let id = strings.intern(log, &method.source);
            log.method_source.push(id);
            let id = strings.intern(log, &method.text);
            log.method_text.push(id);
            log.method_params.push(method.params);
        }
        let type_name = |type_id: i32| -> String {
            match &self.types {
                None => "N/A".into(),
                Some(names) => usize::try_from(type_id)
                    .ok()
                    .and_then(|at| names.get(at))
                    .map_or("null".into(), Clone::clone),
            }
        };
        let mut object_types = self.object_types.clone();
        if object_types.is_empty() {
            object_types.push(-1);
        }
        let mut names_by_type: FastMap<i32, TextId> = FastMap::default();
        for type_id in object_types {
            let id = *names_by_type
                .entry(type_id)
                .or_insert_with(|| strings.intern(log, &type_name(type_id)));
            log.object_type.push(id);
        }
        let id = strings.intern(log, &type_name(0));
        log.object_type_default.push(id);
    }
}

/// Adds the strings' contents and the exceptions' messages and causes to
/// `log` (for the values analysis; LogPrinter prints none of them).
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn fill_objects(objects: &Objects, log: &mut EventLog) {
    let mut ids: Vec<u64> = objects
        .strings
        .keys()
        .chain(objects.messages.keys())
        .copied()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let mut strings = Texts::default();
    for id in ids {
        let (Ok(object), Some(text)) = (i64::try_from(id), objects.object_text(id)) else {
            continue;
        };
        let text = strings.intern(log, &text);
        log.object_id.push(object);
        log.object_text.push(text);
        let cause = objects.causes.get(&id).and_then(|&c| i64::try_from(c).ok());
        log.object_cause.push(cause.unwrap_or(0));
    }
}

/// The texts already in a log's text table.
#[derive(Default)]
struct Texts(FastMap<String, TextId>);

impl Texts {
    fn intern(&mut self, log: &mut EventLog, text: &str) -> TextId {
        if let Some(&id) = self.0.get(text) {
            return id;
        }
        let id = log.add_text(text);
        self.0.insert(text.to_owned(), id);
        id
    }
}

/// Puts `value` at `id`; an id past the file's size is damage and skipped.
fn place<T>(table: &mut Vec<Option<T>>, id: usize, value: T, limit: usize) {
    if id > limit {
        return;
    }
    if table.len() <= id {
        table.resize_with(id + 1, || None);
    }
    if let Some(slot) = table.get_mut(id) {
        *slot = Some(value);
    }
}

/// The tokens of a line split at every comma, as `java.util.Scanner` with
/// a comma delimiter gives them: no empty token after a final comma.
fn tokens(line: &str) -> Vec<&str> {
    let mut all: Vec<&str> = line.split(',').collect();
    if all.len() > 1 && all.last() == Some(&"") {
        all.pop();
    }
    all
}

fn parse_site(line: &str, dialect: Dialect) -> Option<(usize, Site)> {
    let all = tokens(line);
    let names = usize::from(dialect == Dialect::V06) * 2;
    let id: usize = all.first()?.parse().ok()?;
    let method: u32 = all.get(2)?.parse().ok()?;
    let line_no: i32 = all.get(3 + names)?.parse().ok()?;
    let inst: i32 = all.get(4 + names)?.parse().ok()?;
    let event_type = (*all.get(5 + names)?).to_owned();
    let desc = *all.get(6 + names)?;
    let rest = all.get(7 + names..).unwrap_or(&[]);
    let attributes = match dialect {
        Dialect::V04 => rest.iter().map(|t| format!("{t},")).collect::<String>(),
        _ => rest
            .iter()
            .filter(|t| t.contains('='))
            .map(|t| java_key_value(t))
            .collect::<Vec<_>>()
            .join(","),
    };
    let lookup = |key: &str| attribute(&attributes, rest, key, dialect);
    let role = role_of(&event_type);
    let params = match role {
        site_role::CALL | site_role::INVOKE_DYNAMIC => {
            argument_count(lookup("Desc").as_deref().unwrap_or("()V"))
        }
        _ => 0,
    };
    let param_index = lookup("Index").and_then(|i| i.parse().ok()).unwrap_or(-1);
    let site = Site {
        event_type,
        method: Some(method),
        line: line_no,
        inst,
        value: value_form_of(desc, dialect),
        role,
        params,
        param_index,
        attributes,
    };
    Some((id, site))
}

/// `key=value` as the 0.5+ reader keeps an attribute: the text split at
/// `=`, trailing empty pieces dropped, the first two pieces kept.
fn java_key_value(token: &str) -> String {
    let mut pieces: Vec<&str> = token.split('=').collect();
    while pieces.len() > 1 && pieces.last() == Some(&"") {
        pieces.pop();
    }
    match (pieces.first(), pieces.get(1)) {
        (Some(key), Some(value)) => format!("{key}={value}"),
        _ => token.to_owned(),
    }
}

/// The reader's attribute lookup: 0.4 searches the attribute text for
/// `key=` at its start or after a comma; 0.5+ takes the first item whose
/// key is `key`.
fn attribute(text: &str, items: &[&str], key: &str, dialect: Dialect) -> Option<String> {
    match dialect {
        Dialect::V04 => {
            let mut from = 0;
            while let Some(found) = text.get(from..)?.find(key) {
                let at = from + found;
                let after = at + key.len();
                let starts_item = at == 0 || text.as_bytes().get(at - 1) == Some(&b',');
                let first_equals = text.get(at..)?.find('=').map(|e| at + e);
                if starts_item && first_equals == Some(after) {
                    let value = text.get(after + 1..)?;
                    return Some(value.split(',').next().unwrap_or("").to_owned());
                }
                from = at + 1;
            }
            None
        }
        _ => items.iter().filter(|t| t.contains('=')).find_map(|t| {
            let kept = java_key_value(t);
            let (k, v) = kept.split_once('=')?;
            (k == key).then(|| v.to_owned())
        }),
    }
}

fn role_of(event_type: &str) -> u8 {
    match event_type {
        "METHOD_ENTRY" => site_role::ENTRY,
        "CALL" => site_role::CALL,
        "INVOKE_DYNAMIC" => site_role::INVOKE_DYNAMIC,
        "METHOD_PARAM" => site_role::METHOD_PARAM,
        "CALL_PARAM" => site_role::CALL_PARAM,
        "INVOKE_DYNAMIC_PARAM" => site_role::INVOKE_DYNAMIC_PARAM,
        "METHOD_NORMAL_EXIT" | "METHOD_EXCEPTIONAL_EXIT" => site_role::EXIT,
        _ => site_role::PLAIN,
    }
}

/// How the reader prints a value of descriptor `desc`.
fn value_form_of(desc: &str, dialect: Dialect) -> u8 {
    let decoded = dialect != Dialect::V04;
    match desc {
        "F" if decoded => value_form::FLOAT,
        "D" if decoded => value_form::DOUBLE,
        "Z" if decoded => value_form::BOOLEAN,
        "V" => value_form::VOID,
        "Z" | "B" | "C" | "S" | "I" | "J" | "F" | "D" => value_form::RAW,
        _ => value_form::OBJECT,
    }
}

/// Arguments of a method descriptor, counted as ASM's `Type.getArgumentTypes`.
fn argument_count(desc: &str) -> u16 {
    let bytes = desc.as_bytes();
    let mut at = 1;
    let mut count: u16 = 0;
    while let Some(&b) = bytes.get(at) {
        if b == b')' {
            break;
        }
        while bytes.get(at) == Some(&b'[') {
            at += 1;
        }
        if bytes.get(at) == Some(&b'L') {
            at = match desc.get(at..).and_then(|t| t.find(';')) {
                Some(end) => at + end + 1,
                None => bytes.len(),
            };
        } else {
            at += 1;
        }
        count = count.saturating_add(1);
    }
    count
}

fn parse_method(line: &str, dialect: Dialect) -> Option<(usize, Method)> {
    let all = tokens(line);
    let class_id: i32 = all.first()?.parse().ok()?;
    let id: usize = all.get(1)?.parse().ok()?;
    let class = *all.get(2)?;
    let name = *all.get(3)?;
    let desc = *all.get(4)?;
    let access: i32 = all.get(5)?.parse().ok()?;
    let source = all.get(6).copied();
    let hash = all.get(7).copied().unwrap_or("");
    let mut text = format!(
        "{class_id},{id},{class},{name},{desc},{access},{},{hash}",
        source.unwrap_or("")
    );
    if dialect == Dialect::V06 {
        let visible = all.get(8).copied().unwrap_or("");
        let invisible = all.get(9).copied().unwrap_or("");
        text.push_str(&format!(",{visible},{invisible}"));
    }
    let method = Method {
        place: format!("{class}:{name}"),
        source: source.unwrap_or("null").to_owned(),
        text,
        params: argument_count(desc),
    };
    Some((id, method))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_count_their_arguments() {
        assert_eq!(argument_count("()V"), 0);
        assert_eq!(
            argument_count("(I[[JLjava/lang/String;[Ljava/lang/Object;D)V"),
            5
        );
        assert_eq!(argument_count("(Lbroken"), 1);
    }

    #[test]
    fn attributes_as_each_release_prints_them() {
        let v04 = "80,2,1,45,54,CALL,V,CallType=Static,Desc=(ILjava/lang/String;)V,";
        let (_, site) = parse_site(v04, Dialect::V04).unwrap();
        assert_eq!(
            site.attributes,
            "CallType=Static,Desc=(ILjava/lang/String;)V,"
        );
        assert_eq!(site.params, 2);
        let v06 = "78,0,1,demo/T,main,45,54,CALL,V,\"opcode=INVOKESPECIAL,desc=(I)V,created=51\"";
        let (_, site) = parse_site(v06, Dialect::V06).unwrap();
        assert_eq!(
            site.attributes,
            "\"opcode=INVOKESPECIAL,desc=(I)V,created=51\""
        );
        assert_eq!(site.params, 0);
        let param = "24,0,1,41,0,METHOD_PARAM,Ljava/lang/Object;,\"index=0\"";
        let (_, site) = parse_site(param, Dialect::V05).unwrap();
        assert_eq!((site.param_index, site.value), (-1, value_form::OBJECT));
    }
}
