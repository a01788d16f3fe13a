//! Symbol tables (`<module>.sym`), session memory maps (`sid-<sid>.map`) and
//! debug entries (`<module>.dbg`), and address → name resolution through them.

use std::collections::HashMap;

/// One symbol of a module; `start..end` are offsets from the module base.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub start: u64,
    pub end: u64,
    pub kind: char,
    pub name: String,
}

/// A module's symbols, sorted by offset, non-overlapping.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    /// `# path name:` header.
    pub path: String,
    /// `# build-id:` header.
    pub build_id: String,
    pub symbols: Vec<Symbol>,
}

impl SymbolTable {
    /// The symbol containing `offset`.
    pub fn find(&self, offset: u64) -> Option<(usize, &Symbol)> {
        let at = self.symbols.partition_point(|s| s.start <= offset);
        let index = at.checked_sub(1)?;
        let sym = self.symbols.get(index)?;
        (offset < sym.end).then_some((index, sym))
    }
}

/// Parses a `.sym` file (v0.13 `<offset> <type> <name>`, or v0.14+ with a
/// size column). A symbol ends where the next symbol or `?` marker starts.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn parse_sym(text: &str) -> SymbolTable {
    let mut table = SymbolTable::default();
    let mut raw: Vec<(u64, Option<u64>, char, &str)> = Vec::new();
    for line in text.lines() {
        if let Some(header) = line.strip_prefix('#') {
            let header = header.trim();
            if let Some(p) = header.strip_prefix("path name:") {
                table.path = p.trim().to_owned();
            } else if let Some(b) = header.strip_prefix("build-id:") {
                table.build_id = b.trim().to_owned();
            }
            continue;
        }
        let mut parts = line.splitn(4, ' ');
        let (Some(addr), Some(second), Some(third)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Ok(start) = u64::from_str_radix(addr, 16) else {
            continue;
        };
        let (size, kind, name) = if second.len() == 1 {
            let name = match parts.next() {
                Some(rest) => &line[line.len() - rest.len() - third.len() - 1..],
                None => third,
            };
            (None, second, name)
        } else {
            (
                u64::from_str_radix(second, 16).ok(),
                third,
                parts.next().unwrap_or(""),
            )
        };
        let Some(kind) = kind
            .chars()
            .next()
            .filter(|k| "?TtwPKDdvuBbWV".contains(*k))
        else {
            continue;
        };
        let name = name.split('\t').next().unwrap_or("");
        if raw
            .last()
            .is_some_and(|&(s, _, k, _)| s == start && k == kind)
        {
            continue;
        }
        raw.push((start, size, kind, name));
    }
    raw.sort_by_key(|r| r.0);
    for (i, &(start, size, kind, name)) in raw.iter().enumerate() {
        if kind == '?' {
            continue;
        }
        let later = raw.get(i + 1..).unwrap_or_default();
        let next = later.iter().map(|r| r.0).find(|&s| s > start);
        let end = match (size, next) {
            (Some(size), _) if size > 0 => start.saturating_add(size),
            (_, Some(next)) => next,
            _ => start.saturating_add(1),
        };
        table.symbols.push(Symbol {
            start,
            end,
            kind,
            name: name.to_owned(),
        });
    }
    table
}

/// One line of a session map: a module loaded at `start..end`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    pub start: u64,
    pub end: u64,
    pub path: String,
    pub build_id: String,
}

/// Parses `sid-<sid>.map`; special mappings (`[stack]`, `[heap]`…) are dropped.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn parse_map(text: &str) -> Vec<Mapping> {
    let mut maps = Vec::new();
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        let Some(range) = parts.next() else { continue };
        let Some((start, end)) = range.split_once('-') else {
            continue;
        };
        let (Ok(start), Ok(end)) = (u64::from_str_radix(start, 16), u64::from_str_radix(end, 16))
        else {
            continue;
        };
        let rest: Vec<&str> = parts.skip(4).collect();
        let (path_parts, build_id) = match rest.last() {
            Some(last) if last.starts_with("build-id:") => (
                rest.split_last().map_or(&[][..], |(_, paths)| paths),
                last.strip_prefix("build-id:").unwrap_or(last).to_owned(),
            ),
            _ => (rest.as_slice(), String::new()),
        };
        let path = path_parts.join(" ");
        if path.is_empty() || path.starts_with('[') {
            continue;
        }
        maps.push(Mapping {
            start,
            end,
            path,
            build_id,
        });
    }
    maps
}

/// What a `.dbg` file says about one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DebugEntry {
    pub name: String,
    pub line: Option<u32>,
    pub file: Option<String>,
    /// `A:` spec text without the leading `@`.
    pub args: Option<String>,
    /// `R:` spec text without the leading `@`.
    pub retval: Option<String>,
}

/// A module's debug entries by symbol offset, plus its enum definitions.
#[derive(Clone, Debug, Default)]
pub struct DebugInfo {
    pub path: String,
    pub build_id: String,
    pub entries: HashMap<u64, DebugEntry>,
    pub enums: Vec<String>,
}

/// Parses a `.dbg` file.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn parse_dbg(text: &str) -> DebugInfo {
    let mut info = DebugInfo::default();
    let mut current: Option<u64> = None;
    for line in text.lines() {
        if let Some(p) = line.strip_prefix("# path name:") {
            info.path = p.trim().to_owned();
            continue;
        }
        if let Some(b) = line.strip_prefix("# build-id:") {
            info.build_id = b.trim().to_owned();
            continue;
        }
        let Some((tag, rest)) = line.split_once(": ") else {
            continue;
        };
        match tag {
            "F" => {
                let (addr, name) = rest.split_once(' ').unwrap_or((rest, ""));
                current = u64::from_str_radix(addr, 16).ok();
                if let Some(offset) = current {
                    info.entries.insert(
                        offset,
                        DebugEntry {
                            name: name.to_owned(),
                            ..DebugEntry::default()
                        },
                    );
                }
            }
            "L" => {
                if let Some(e) = current.and_then(|c| info.entries.get_mut(&c)) {
                    let (line_no, file) = rest.split_once(' ').unwrap_or((rest, ""));
                    e.line = line_no.parse().ok();
                    e.file = Some(file.to_owned()).filter(|f| !f.is_empty());
                }
            }
            "A" | "R" => {
                if let Some(e) = current.and_then(|c| info.entries.get_mut(&c)) {
                    let spec = rest.trim_start_matches('@').to_owned();
                    if tag == "A" {
                        e.args = Some(spec);
                    } else {
                        e.retval = Some(spec);
                    }
                }
            }
            "E" => info.enums.push(rest.to_owned()),
            _ => {}
        }
    }
    info
}

/// The last path component.
pub fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SYM: &str = "# symbols: 6\n# path name: /tmp/a\n# build-id: abcd\n\
        0000000000001030 P printf\n0000000000001040 ? __dynsym_end\n\
        0000000000001209 t leaf\n0000000000001292 T main\n00000000000012f0 ? __sym_end\n\
        0000000000004010 d buf.0\n";

    #[test]
    fn symbols_end_at_the_next_symbol_or_marker() {
        let t = parse_sym(SYM);
        assert_eq!(t.path, "/tmp/a");
        assert_eq!(t.build_id, "abcd");
        assert_eq!(t.find(0x12a0).map(|(_, s)| s.name.as_str()), Some("main"));
        assert_eq!(t.find(0x1030).map(|(_, s)| s.kind), Some('P'));
        assert!(t.find(0x1045).is_none());
        assert!(t.find(0x12f0).is_none());
        assert_eq!(t.find(0x4010).map(|(_, s)| s.name.as_str()), Some("buf.0"));
    }

    #[test]
    fn sized_symbols_of_newer_versions() {
        let t = parse_sym("0000000000001000 00000010 T f\n0000000000001100 00000008 T g\n");
        assert!(t.find(0x1010).is_none());
        assert_eq!(t.find(0x1104).map(|(_, s)| s.name.as_str()), Some("g"));
    }

    #[test]
    fn maps_keep_file_modules_only() {
        let m = parse_map(
            "564f8e0f3000-564f8e0f8000 r-xp 00000000 00:00 0      /tmp/e_dlopen build-id:4657\n\
             7ffd41e4f000-7ffd41e70000 rw-p 00000000 00:00 0      [stack]\n",
        );
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].start, 0x564f8e0f3000);
        assert_eq!(m[0].path, "/tmp/e_dlopen");
        assert_eq!(m[0].build_id, "4657");
    }

    #[test]
    fn debug_entries_carry_specs_and_lines() {
        let d = parse_dbg(
            "# path name: /tmp/f\nF: 1231 greet\nL: 20 f_args.c\nA: @arg1/s,arg2/c\nR: @retval/s\n",
        );
        let e = &d.entries[&0x1231];
        assert_eq!(e.name, "greet");
        assert_eq!(e.line, Some(20));
        assert_eq!(e.args.as_deref(), Some("arg1/s,arg2/c"));
        assert_eq!(e.retval.as_deref(), Some("retval/s"));
    }
}
