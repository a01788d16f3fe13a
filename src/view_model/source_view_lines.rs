//! The Source view's lines: a source file's lines numbered, or without a
//! file the method's lines from `dataids.txt`, each with its data ids'
//! observed values beside it; long value lists elided ("+N more"), the
//! values and lines of the selected call marked.

use super::source_view::{MethodValues, SeenValue};
use std::collections::{HashMap, HashSet};

/// Values shown per data id before "+N more".
pub const VALUES_SHOWN: usize = 5;

/// Lines shown above the method's first line when scrolling to it.
const CONTEXT_ABOVE: i32 = 2;

/// What the selection marks.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// (data id, value text) → the selected call's first event with it.
    pub call_values: HashMap<(u32, String), u32>,
    /// Lines the selected call recorded a value on.
    pub call_lines: HashSet<i32>,
    /// The selected event's data id and value text.
    pub selected: Option<(u32, String)>,
}

/// One value beside a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chip {
    pub text: String,
    /// Events that saw it (all calls).
    pub count: u32,
    /// The event a click selects: the selected call's, else the first.
    pub event: u32,
    /// The selected call saw it.
    pub in_call: bool,
    /// It is the selected event's value.
    pub selected: bool,
}

/// One data id beside a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub data_id: u32,
    /// The variable / field name, else [`kind_tag`].
    pub label: String,
    /// The `EventType` name.
    pub kind: String,
    /// What the value is to the name (`read`, `write`, `param`, …), or
    /// empty when the label is the tag itself.
    pub tag: String,
    pub chips: Vec<Chip>,
    /// Values not shown.
    pub more: usize,
}

/// One line of the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub line: i32,
    /// The source text (none without a source file).
    pub code: Option<String>,
    pub entries: Vec<Entry>,
    /// Between the method's first and last line in dataids.txt.
    pub in_method: bool,
    /// The selected call recorded a value on it.
    pub hit: bool,
}

/// The rows and the line to scroll to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    pub rows: Vec<Row>,
    pub scroll_to: i32,
}

/// A data id's chips, the selected and this call's values first (each
/// group in the order first seen), at most `shown`; and how many are left.
pub fn elide(
    data_id: u32,
    values: &[SeenValue],
    marks: &Marks,
    shown: usize,
) -> (Vec<Chip>, usize) {
    let mut chips: Vec<Chip> = values
        .iter()
        .map(|seen| {
            let key = (data_id, seen.text.clone());
            let in_call = marks.call_values.get(&key).copied();
            Chip {
                text: seen.text.clone(),
                count: seen.count,
                event: in_call.unwrap_or(seen.first_event),
                in_call: in_call.is_some(),
                selected: marks.selected.as_ref() == Some(&key),
            }
        })
        .collect();
    chips.sort_by_key(|chip| (!chip.selected, !chip.in_call));
    let more = chips.len().saturating_sub(shown);
    chips.truncate(shown);
    (chips, more)
}

/// A short word for what an event type's value is to its variable,
/// field, array or call (`LOCAL_STORE` → `write`); other types lowercased.
pub fn kind_tag(kind: &str) -> String {
    let word = match kind {
        "METHOD_PARAM" => "param",
        "METHOD_ENTRY" => "this",
        "METHOD_NORMAL_EXIT" => "return",
        "METHOD_EXCEPTIONAL_EXIT" | "THROW" => "thrown",
        "CALL" => "receiver",
        "CALL_PARAM" | "INVOKE_DYNAMIC_PARAM" => "arg",
        "CALL_RETURN" | "INVOKE_DYNAMIC_RESULT" => "returned",
        "LOCAL_LOAD" | "GET_INSTANCE_FIELD_RESULT" | "GET_STATIC_FIELD" | "ARRAY_LOAD_RESULT" => {
            "read"
        }
        "LOCAL_STORE" | "PUT_INSTANCE_FIELD_VALUE" | "PUT_STATIC_FIELD" | "ARRAY_STORE_VALUE" => {
            "write"
        }
        "LOCAL_INCREMENT" => "incremented",
        "GET_INSTANCE_FIELD" | "PUT_INSTANCE_FIELD" => "object",
        "ARRAY_LOAD" | "ARRAY_STORE" | "ARRAY_LENGTH" => "array",
        "ARRAY_LOAD_INDEX" | "ARRAY_STORE_INDEX" => "index",
        "ARRAY_LENGTH_RESULT" => "length",
        "MONITOR_ENTER" | "MONITOR_ENTER_RESULT" | "MONITOR_EXIT" => "lock",
        "NEW_OBJECT_CREATED" | "NEW_ARRAY_RESULT" => "new",
        "CONSTANT_LOAD" | "OBJECT_CONSTANT_LOAD" => "constant",
        "CATCH" => "caught",
        other => return other.to_lowercase().replace('_', " "),
    };
    word.to_owned()
}

fn entries_of(values: &MethodValues, line: i32, marks: &Marks) -> Vec<Entry> {
    let Ok(at) = values.lines.binary_search_by_key(&line, |(l, _)| *l) else {
        return Vec::new();
    };
    let Some((_, sites)) = values.lines.get(at) else {
        return Vec::new();
    };
    sites
        .iter()
        .map(|site| {
            let (chips, more) = elide(site.data_id, &site.values, marks, VALUES_SHOWN);
            let tag = kind_tag(&site.kind);
            let name = site
                .name
                .as_deref()
                .filter(|n| !n.is_empty() && !n.starts_with('('));
            Entry {
                data_id: site.data_id,
                label: name.map_or_else(|| tag.clone(), str::to_owned),
                tag: if name.is_some() { tag } else { String::new() },
                kind: site.kind.clone(),
                chips,
                more,
            }
        })
        .collect()
}

/// Lines looked at above a method's first recorded line for its declaration.
const DECLARATION_ABOVE: usize = 6;

/// The line declaring `name` (`deposit`, a constructor's class name,
/// `static` for a class initializer) at or just above line `first` of
/// `source`: the closest one holding `name(` (or `static {`).
pub fn declaration_line(source: &str, first: i32, name: &str) -> Option<i32> {
    let wanted = if name == "static" {
        "static {".to_owned()
    } else {
        format!("{name}(")
    };
    let upto = usize::try_from(first).ok()?;
    let lines: Vec<&str> = source.lines().take(upto).collect();
    let from = lines.len().saturating_sub(DECLARATION_ABOVE);
    let found = lines
        .get(from..)?
        .iter()
        .rposition(|l| l.contains(&wanted))?;
    Some((from + found) as i32 + 1)
}

/// The view's rows: every line of `source` when there is one (the method
/// from its declaration, found by `name`, to its last recorded line), else
/// the method's lines from dataids.txt.
pub fn layout(values: &MethodValues, source: Option<&str>, marks: &Marks, name: &str) -> Layout {
    let recorded = values.all_lines.first().copied().unwrap_or(1);
    let first = source
        .and_then(|text| declaration_line(text, recorded, name))
        .unwrap_or(recorded);
    let last = values.all_lines.last().copied().unwrap_or(first);
    let row = |line: i32, code: Option<String>| Row {
        line,
        code,
        entries: entries_of(values, line, marks),
        in_method: (first..=last).contains(&line),
        hit: marks.call_lines.contains(&line),
    };
    let rows = match source {
        Some(text) => text
            .lines()
            .enumerate()
            .map(|(i, code)| row(i as i32 + 1, Some(code.to_owned())))
            .collect(),
        None => values
            .all_lines
            .iter()
            .map(|&line| row(line, None))
            .collect(),
    };
    Layout {
        rows,
        scroll_to: (first - CONTEXT_ABOVE).max(1),
    }
}

#[cfg(test)]
mod tests {
    use super::super::source_view::SiteValues;
    use super::*;

    fn seen(text: &str, count: u32, first_event: u32) -> SeenValue {
        SeenValue {
            text: text.to_owned(),
            count,
            first_event,
        }
    }

    fn method() -> MethodValues {
        let site = |data_id, name: Option<&str>, values| SiteValues {
            data_id,
            kind: "LOCAL_STORE".to_owned(),
            name: name.map(str::to_owned),
            values,
        };
        let many = (0..8)
            .map(|i| seen(&i.to_string(), i + 1, 100 + i))
            .collect();
        MethodValues {
            method: 3,
            lines: vec![
                (
                    3,
                    vec![site(10, Some("x"), vec![seen("1", 2, 5), seen("2", 1, 9)])],
                ),
                (4, vec![site(11, None, many)]),
            ],
            all_lines: vec![2, 3, 4],
        }
    }

    #[test]
    fn long_lists_are_elided_with_the_calls_values_first() {
        let values: Vec<SeenValue> = (0..8).map(|i| seen(&format!("v{i}"), 1, i)).collect();
        let mut marks = Marks::default();
        let (chips, more) = elide(7, &values, &marks, VALUES_SHOWN);
        let texts: Vec<&str> = chips.iter().map(|c| c.text.as_str()).collect();
        assert_eq!((texts, more), (vec!["v0", "v1", "v2", "v3", "v4"], 3));
        // v6 seen by the selected call (its event 42), v7 selected.
        marks.call_values.insert((7, "v6".to_owned()), 42);
        marks.selected = Some((7, "v7".to_owned()));
        let (chips, more) = elide(7, &values, &marks, 3);
        let texts: Vec<&str> = chips.iter().map(|c| c.text.as_str()).collect();
        assert_eq!((texts, more), (vec!["v7", "v6", "v0"], 5));
        assert!(chips[0].selected && !chips[0].in_call);
        assert_eq!((chips[1].in_call, chips[1].event), (true, 42));
        assert_eq!((chips[2].in_call, chips[2].event), (false, 0));
        // Another data id's marks do not count.
        let (chips, _) = elide(8, &values, &marks, 3);
        assert!(chips.iter().all(|c| !c.in_call && !c.selected));
    }

    #[test]
    fn a_file_is_laid_out_line_by_line_with_values_on_their_lines() {
        let mut marks = Marks::default();
        marks.call_lines.insert(3);
        let source = "package p;\nclass A {\n  int x = 1;\n  y();\n}\n";
        let layout = layout(&method(), Some(source), &marks, "nothing");
        let lines: Vec<i32> = layout.rows.iter().map(|r| r.line).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5]);
        assert_eq!(layout.rows[2].code.as_deref(), Some("  int x = 1;"));
        let in_method: Vec<bool> = layout.rows.iter().map(|r| r.in_method).collect();
        assert_eq!(in_method, [false, true, true, true, false]);
        let hit: Vec<bool> = layout.rows.iter().map(|r| r.hit).collect();
        assert_eq!(hit, [false, false, true, false, false]);
        let x = &layout.rows[2].entries[0];
        assert_eq!((x.label.as_str(), x.tag.as_str()), ("x", "write"));
        assert_eq!((x.chips.len(), x.more), (2, 0));
        assert_eq!((x.chips[0].count, x.chips[0].event), (2, 5));
        // No name: what the value is; eight values, five shown.
        let unnamed = &layout.rows[3].entries[0];
        assert_eq!(
            (unnamed.label.as_str(), unnamed.tag.as_str()),
            ("write", "")
        );
        assert_eq!(unnamed.more, 3);
        assert!(layout.rows[0].entries.is_empty());
        assert_eq!(layout.scroll_to, 1);
    }

    #[test]
    fn a_method_starts_at_its_declaration() {
        let source = "class A {\n  int f(int x) {\n    // note\n    return x;\n  }\n  static {\n    y = 1;\n  }\n}\n";
        assert_eq!(declaration_line(source, 4, "f"), Some(2));
        assert_eq!(declaration_line(source, 7, "static"), Some(6));
        assert_eq!(declaration_line(source, 4, "g"), None);
        let mut values = method();
        values.all_lines = vec![4];
        let rows = layout(&values, Some(source), &Marks::default(), "f").rows;
        let in_method: Vec<i32> = rows
            .iter()
            .filter(|r| r.in_method)
            .map(|r| r.line)
            .collect();
        assert_eq!(in_method, [2, 3, 4]);
    }

    #[test]
    fn kinds_have_short_tags() {
        assert_eq!(kind_tag("CALL_RETURN"), "returned");
        assert_eq!(kind_tag("GET_INSTANCE_FIELD"), "object");
        assert_eq!(kind_tag("DIVIDE_RESULT"), "divide result");
    }

    #[test]
    fn without_a_file_the_methods_dataids_lines_are_the_rows() {
        let layout = layout(&method(), None, &Marks::default(), "x");
        let lines: Vec<(i32, bool, usize)> = layout
            .rows
            .iter()
            .map(|r| (r.line, r.code.is_none(), r.entries.len()))
            .collect();
        assert_eq!(lines, [(2, true, 0), (3, true, 1), (4, true, 1)]);
    }
}
