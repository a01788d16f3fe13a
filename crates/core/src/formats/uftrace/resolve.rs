//! Address → function: which module of which session holds an address (map
//! lines, or a dlopen base), and which symbol of that module's `.sym` contains
//! it. Results are cached per session, since a trace repeats few addresses.

use super::symbols::{basename, DebugEntry, DebugInfo, Mapping, Symbol, SymbolTable};
use super::task::TaskFile;

/// A module placed in an address space.
#[derive(Clone, Debug)]
struct Placed {
    start: u64,
    end: u64,
    name: String,
    table: Option<usize>,
}

/// The modules of one session, sorted by start address.
#[derive(Clone, Debug, Default)]
struct AddressSpace {
    sid: String,
    modules: Vec<Placed>,
}

/// Where an address landed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The function name, or `module+0xoffset`, or `0xaddress`.
    pub name: String,
    /// Which symbol table and symbol, when a symbol was found.
    pub symbol: Option<(usize, usize)>,
}

/// Resolves addresses for all sessions of a recording.
#[derive(Default)]
pub struct Resolver {
    pub tables: Vec<SymbolTable>,
    pub debug: Vec<DebugInfo>,
    /// File names of the tables (`libc.so.6.sym`), parallel to `tables`.
    table_files: Vec<String>,
    spaces: Vec<AddressSpace>,
    pub tasks: TaskFile,
    /// Map lines for which no `.sym` file exists (their addresses show as module+offset).
    pub modules_without_symbols: Vec<String>,
}

impl Resolver {
    /// Builds the resolver from parsed files. `maps` are `(sid, lines)`.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    pub fn new(
        tasks: TaskFile,
        maps: Vec<(String, Vec<Mapping>)>,
        tables: Vec<(String, SymbolTable)>,
        debug: Vec<(String, DebugInfo)>,
    ) -> Self {
        let (table_files, tables): (Vec<String>, Vec<SymbolTable>) = tables.into_iter().unzip();
        let debug: Vec<DebugInfo> = debug.into_iter().map(|(_, d)| d).collect();
        let mut resolver = Resolver {
            tables,
            debug,
            table_files,
            tasks,
            ..Resolver::default()
        };
        for (sid, lines) in maps {
            let mut modules: Vec<Placed> = lines
                .iter()
                .map(|m| {
                    let table = pick(&resolver.table_files, &resolver.tables, m, ".sym", |t| {
                        (&t.path, &t.build_id)
                    });
                    if table.is_none() && !resolver.modules_without_symbols.contains(&m.path) {
                        resolver.modules_without_symbols.push(m.path.clone());
                    }
                    Placed {
                        start: m.start,
                        end: m.end,
                        name: basename(&m.path).to_owned(),
                        table,
                    }
                })
                .collect();
            modules.sort_by_key(|m| m.start);
            resolver.spaces.push(AddressSpace { sid, modules });
        }
        resolver
    }

    /// Resolves `addr` as seen by task `tid` at `time`.
    #[cfg(test)]
    pub fn resolve(&self, tid: &str, time: i64, addr: u64) -> Resolved {
        self.resolve_in(self.space_for(tid, time), time, addr)
    }

    /// The symbol behind a resolution.
    pub fn symbol(&self, at: (usize, usize)) -> Option<&Symbol> {
        self.tables.get(at.0)?.symbols.get(at.1)
    }

    /// The `.dbg` entry for a resolved symbol (same module, same offset).
    pub fn debug_entry(&self, at: (usize, usize)) -> Option<&DebugEntry> {
        let symbol = self.symbol(at)?;
        let table = self.tables.get(at.0)?;
        let debug = self
            .debug
            .iter()
            .find(|d| d.path == table.path && !d.path.is_empty())?;
        debug.entries.get(&symbol.start)
    }

    /// Enum definitions from every `.dbg` file.
    pub fn debug_enums(&self) -> impl Iterator<Item = &str> {
        self.debug
            .iter()
            .flat_map(|d| d.enums.iter().map(String::as_str))
    }

    /// The address space (session map) task `tid` uses at `time`.
    pub fn space_for(&self, tid: &str, time: i64) -> Option<usize> {
        let session = self.tasks.session_for(tid, time)?;
        let sid = &self.tasks.sessions.get(session)?.sid;
        self.spaces.iter().position(|s| &s.sid == sid)
    }

    /// The stretch of time `from..until` around `time` in which no session
    /// starts: [`Resolver::space_for`] gives the same answer for any task
    /// throughout it.
    pub fn session_window(&self, time: i64) -> (i64, i64) {
        let starts = self.tasks.sessions.iter().map(|s| s.start);
        let from = starts
            .clone()
            .filter(|&s| s <= time)
            .max()
            .unwrap_or(i64::MIN);
        let until = starts.filter(|&s| s > time).min().unwrap_or(i64::MAX);
        (from, until)
    }

    /// True when `addr` lies in a module of the session map (not a dlopen).
    pub fn in_map(&self, space: usize, addr: u64) -> bool {
        self.spaces
            .get(space)
            .is_some_and(|s| s.modules.iter().any(|m| m.start <= addr && addr < m.end))
    }

    /// Every symbol's name with the module whose `.sym` file holds it
    /// (`libc.so.6`), each name once: where a function lives, for "collapse
    /// module" (the trace names calls by symbol only). A name the records
    /// resolved (`resolved`: name and symbol table) gets that table's module
    /// (a PLT stub's name is the executable's, as uftrace resolved it), any
    /// other the first module whose table has it.
    pub fn function_modules(&self, resolved: &[(String, usize)]) -> Vec<(String, String)> {
        let module = |t: usize| {
            let file = self.table_files.get(t).map_or("", String::as_str);
            file.strip_suffix(".sym").unwrap_or(file).to_owned()
        };
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (name, table) in resolved {
            if seen.insert(name.as_str()) {
                out.push((name.clone(), module(*table)));
            }
        }
        for (t, table) in self.tables.iter().enumerate() {
            for symbol in &table.symbols {
                if seen.insert(symbol.name.as_str()) {
                    out.push((symbol.name.clone(), module(t)));
                }
            }
        }
        out
    }

    /// Resolves `addr` in address space `space` at `time`.
    pub fn resolve_in(&self, space: Option<usize>, time: i64, addr: u64) -> Resolved {
        let Some(space) = space.and_then(|s| self.spaces.get(s)) else {
            return unresolved(None, addr);
        };
        let at = space.modules.partition_point(|m| m.start <= addr);
        if let Some(module) = at
            .checked_sub(1)
            .and_then(|i| space.modules.get(i))
            .filter(|m| addr < m.end)
        {
            return self.in_module(module.table, &module.name, addr - module.start);
        }
        for dl in self.tasks.dlopens_for(&space.sid, time) {
            let Some(offset) = addr.checked_sub(dl.base) else {
                continue;
            };
            let file = format!("{}.sym", basename(&dl.libname));
            let table = self.table_files.iter().position(|f| *f == file);
            if let Some(t) = table {
                if self
                    .tables
                    .get(t)
                    .and_then(|table| table.find(offset))
                    .is_some()
                {
                    return self.in_module(Some(t), basename(&dl.libname), offset);
                }
            }
        }
        unresolved(None, addr)
    }

    fn in_module(&self, table: Option<usize>, module: &str, offset: u64) -> Resolved {
        match table.and_then(|t| Some((t, self.tables.get(t)?.find(offset)?))) {
            Some((t, (index, sym))) => Resolved {
                name: sym.name.clone(),
                symbol: Some((t, index)),
            },
            None => unresolved(Some(module), offset),
        }
    }
}

fn unresolved(module: Option<&str>, offset: u64) -> Resolved {
    Resolved {
        name: match module {
            Some(m) => format!("{m}+{offset:#x}"),
            None => format!("{offset:#x}"),
        },
        symbol: None,
    }
}

/// Picks the `.sym`/`.dbg` file for a map line: `<basename><ext>`, or a
/// `<basename>-xxxx<ext>` variant whose header names the same path/build-id.
fn pick<T>(
    files: &[String],
    items: &[T],
    map: &Mapping,
    ext: &str,
    header: impl Fn(&T) -> (&String, &String),
) -> Option<usize> {
    let base = basename(&map.path);
    let plain = format!("{base}{ext}");
    let variant_prefix = format!("{base}-");
    let candidates: Vec<usize> = files
        .iter()
        .enumerate()
        .filter(|(_, f)| **f == plain || (f.starts_with(&variant_prefix) && f.ends_with(ext)))
        .map(|(i, _)| i)
        .collect();
    let matches = |i: &usize| {
        let Some((path, build_id)) = items.get(*i).map(&header) else {
            return false;
        };
        *path == map.path
            && (build_id.is_empty() || map.build_id.is_empty() || *build_id == map.build_id)
    };
    candidates.iter().copied().find(matches).or_else(|| {
        candidates
            .iter()
            .copied()
            .find(|&i| files.get(i) == Some(&plain))
    })
}

#[cfg(test)]
mod tests {
    use super::super::symbols::{parse_map, parse_sym};
    use super::super::task;
    use super::*;

    fn resolver() -> Resolver {
        let tasks = task::parse(
            "SESS timestamp=1.0 pid=5 sid=s1 exename=\"/p/prog\"\nTASK timestamp=1.0 tid=5 pid=5\n\
             DLOP timestamp=2.0 tid=5 sid=s1 base=7f0000 libname=\"./libplug.so\"\n",
        );
        let map = parse_map("555000-556000 r-xp 0 0:0 0 /p/prog build-id:aa\n600000-700000 r-xp 0 0:0 0 /lib/libc.so.6\n");
        let prog = parse_sym("# path name: /p/prog\n# build-id: aa\n0000000000000100 T main\n0000000000000200 ? __sym_end\n");
        let clash = parse_sym("# path name: /other/prog\n0000000000000100 T wrong\n");
        let plug = parse_sym("# path name: ./libplug.so\n0000000000000010 T plugin_entry\n0000000000000040 ? __sym_end\n");
        Resolver::new(
            tasks,
            vec![("s1".into(), map)],
            vec![
                ("prog-1234.sym".into(), prog),
                ("prog.sym".into(), clash),
                ("libplug.so.sym".into(), plug),
            ],
            vec![],
        )
    }

    #[test]
    fn addresses_resolve_through_map_variants_and_dlopen() {
        let r = resolver();
        assert_eq!(r.resolve("5", 1_500_000_000, 0x555108).name, "main");
        assert_eq!(r.resolve("5", 3_000_000_000, 0x7f0014).name, "plugin_entry");
        assert_eq!(r.resolve("5", 1_500_000_000, 0x7f0014).name, "0x7f0014");
        assert_eq!(
            r.resolve("5", 1_500_000_000, 0x600010).name,
            "libc.so.6+0x10"
        );
        assert_eq!(
            r.modules_without_symbols,
            vec!["/lib/libc.so.6".to_string()]
        );
    }
}
