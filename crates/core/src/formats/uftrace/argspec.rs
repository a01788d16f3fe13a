//! Argument and return-value specs: the `argspec:`/`retspec:` lines of `info`,
//! the built-in `argauto:`/`retauto:` tables and the `.dbg` `A:`/`R:` lines, and
//! which of them applies to a function. The spec is the only way to know how
//! many bytes of argument data follow a record.

use super::info::{Info, PatternType, FEAT_DEBUG_INFO};
use std::collections::HashMap;

/// How a value is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgFormat {
    /// No format given: decimal, or hex when large.
    Auto,
    Signed,
    Int,
    Unsigned,
    Hex,
    Str,
    StdString,
    Char,
    Float,
    Pointer,
    Enum(String),
    Struct(Option<String>),
}

/// One argument or the return value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgSpec {
    /// 1-based argument number; 0 for the return value.
    pub index: u16,
    pub is_float_arg: bool,
    pub format: ArgFormat,
    /// Bytes of the stored value (strings: unused).
    pub size: u16,
}

impl ArgSpec {
    /// True for the return value.
    pub fn is_retval(&self) -> bool {
        self.index == 0
    }
}

/// Parses `arg1/i32,fparg2/32,retval/s` (with or without a leading `@`).
pub fn parse_specs(text: &str, is_64bit: bool) -> Vec<ArgSpec> {
    text.trim_start_matches('@')
        .split(',')
        .filter_map(|one| parse_one(one.trim(), is_64bit))
        .collect()
}

fn parse_one(text: &str, is_64bit: bool) -> Option<ArgSpec> {
    let text = text.split('%').next()?;
    let (name, format) = match text.split_once('/') {
        Some((n, f)) => (n, Some(f)),
        None => (text, None),
    };
    let long = if is_64bit { 8 } else { 4 };
    let (index, is_float_arg) = if name == "retval" {
        (0, false)
    } else if let Some(n) = name.strip_prefix("fparg") {
        (n.parse().ok()?, true)
    } else {
        (name.strip_prefix("arg")?.parse().ok()?, false)
    };
    let Some(format) = format else {
        let (format, size) = if is_float_arg {
            (ArgFormat::Float, 8)
        } else {
            (ArgFormat::Auto, long)
        };
        return Some(ArgSpec {
            index,
            is_float_arg,
            format,
            size,
        });
    };
    let bits = |rest: &str| {
        rest.parse::<u16>()
            .ok()
            .filter(|b| matches!(b, 8 | 16 | 32 | 64 | 80))
            .map(|b| b / 8)
    };
    let (format, size) = if is_float_arg {
        (ArgFormat::Float, bits(format).unwrap_or(8))
    } else {
        let mut chars = format.chars();
        let letter = chars.next()?;
        let rest = chars.as_str();
        match letter {
            'd' => (ArgFormat::Signed, bits(rest).unwrap_or(long)),
            'i' => (ArgFormat::Int, bits(rest).unwrap_or(long)),
            'u' => (ArgFormat::Unsigned, bits(rest).unwrap_or(long)),
            'x' => (ArgFormat::Hex, bits(rest).unwrap_or(long)),
            's' => (ArgFormat::Str, 0),
            'S' => (ArgFormat::StdString, 0),
            'c' => (ArgFormat::Char, 1),
            'f' => (ArgFormat::Float, bits(rest).unwrap_or(8)),
            'p' => (ArgFormat::Pointer, long),
            'e' => {
                let (size, enum_name) = rest.split_once(':').unwrap_or(("", rest));
                (
                    ArgFormat::Enum(enum_name.to_owned()),
                    bits(size).unwrap_or(4),
                )
            }
            't' => {
                let (size, type_name) = match rest.split_once(':') {
                    Some((s, n)) => (s, Some(n.to_owned())),
                    None => (rest, None),
                };
                (ArgFormat::Struct(type_name), size.parse().ok()?)
            }
            _ => return None,
        }
    };
    Some(ArgSpec {
        index,
        is_float_arg,
        format,
        size,
    })
}

/// The specs that apply to one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionSpec {
    pub args: Vec<ArgSpec>,
    pub retval: Option<ArgSpec>,
}

enum Pattern {
    Exact(String),
    Regex(regex_lite::Regex),
    Glob(String),
}

impl Pattern {
    fn new(text: &str, kind: PatternType) -> Option<Pattern> {
        if !text.contains([
            '.', '?', '*', '+', '-', '^', '$', '|', '(', ')', '[', ']', '{', '}',
        ]) || text.starts_with("operator ")
        {
            return Some(Pattern::Exact(text.to_owned()));
        }
        Some(match kind {
            PatternType::Regex => Pattern::Regex(regex_lite::Regex::new(text).ok()?),
            PatternType::Glob => Pattern::Glob(text.to_owned()),
        })
    }

    fn matches(&self, name: &str) -> bool {
        match self {
            Pattern::Exact(p) => p == name,
            Pattern::Regex(r) => r.is_match(name),
            Pattern::Glob(g) => glob_match(g.as_bytes(), name.as_bytes()),
        }
    }
}

/// `fnmatch`-style matching of `*`, `?` and `[...]`.
fn glob_match(pattern: &[u8], text: &[u8]) -> bool {
    let rest_of_text = text.get(1..).unwrap_or_default();
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len())
            .filter_map(|i| text.get(i..))
            .any(|tail| glob_match(rest, tail)),
        Some((b'?', rest)) => !text.is_empty() && glob_match(rest, rest_of_text),
        Some((b'[', rest)) => {
            let Some(close) = rest.iter().position(|&c| c == b']') else {
                return false;
            };
            let Some((&c, after)) = text.split_first() else {
                return false;
            };
            let (class, after_class) = rest.split_at(close);
            let (negate, class) = match class.split_first() {
                Some((b'!' | b'^', r)) => (true, r),
                _ => (false, class),
            };
            let pattern_after = after_class.get(1..).unwrap_or_default();
            class_matches(class, c) != negate && glob_match(pattern_after, after)
        }
        Some((&p, rest)) => text.first() == Some(&p) && glob_match(rest, rest_of_text),
    }
}

/// Whether `c` is in a `[...]` class body (single bytes and `a-z` ranges).
fn class_matches(mut class: &[u8], c: u8) -> bool {
    let mut hit = false;
    loop {
        match class {
            [low, b'-', high, rest @ ..] => {
                hit |= *low <= c && c <= *high;
                class = rest;
            }
            [one, rest @ ..] => {
                hit |= *one == c;
                class = rest;
            }
            [] => return hit,
        }
    }
}

struct Rule {
    pattern: Pattern,
    specs: Vec<ArgSpec>,
    /// `-A name` with no `@spec`: take the spec from DWARF or the table.
    wants_auto: bool,
}

/// Every spec source of a recording, and the choice per function.
pub struct SpecBook {
    explicit: Vec<Rule>,
    auto_args: HashMap<String, String>,
    auto_rets: HashMap<String, String>,
    /// `auto-args:1`: apply auto specs to every function.
    auto_everywhere: bool,
    debug_info: bool,
    is_64bit: bool,
    /// Patterns that were not valid regular expressions.
    pub bad_patterns: Vec<String>,
}

impl SpecBook {
    /// Reads the specs out of `info`.
    pub fn new(info: &Info) -> Self {
        let mut book = SpecBook {
            explicit: Vec::new(),
            auto_args: table(info.argauto.as_deref()),
            auto_rets: table(info.retauto.as_deref()),
            auto_everywhere: info.auto_args,
            debug_info: info.feat_mask & FEAT_DEBUG_INFO != 0,
            is_64bit: info.is_64bit,
            bad_patterns: Vec::new(),
        };
        for line in info.argspec.iter().chain(&info.retspec) {
            for entry in line.split(';').filter(|e| !e.trim().is_empty()) {
                let (pattern, specs) = entry.split_once('@').unwrap_or((entry, ""));
                let wants_auto = specs.is_empty() || specs == "auto-args";
                match Pattern::new(pattern.trim(), info.pattern_type) {
                    Some(p) => book.explicit.push(Rule {
                        pattern: p,
                        specs: if wants_auto {
                            Vec::new()
                        } else {
                            parse_specs(specs, info.is_64bit)
                        },
                        wants_auto,
                    }),
                    None => book.bad_patterns.push(pattern.to_owned()),
                }
            }
        }
        book
    }

    /// The spec of function `name`; `debug` is its `.dbg` (`A:`, `R:`) text.
    pub fn spec_for(
        &self,
        name: &str,
        debug: Option<(Option<&str>, Option<&str>)>,
    ) -> FunctionSpec {
        let mut spec = FunctionSpec::default();
        let mut wants_auto = false;
        for rule in self.explicit.iter().filter(|r| r.pattern.matches(name)) {
            wants_auto |= rule.wants_auto;
            for s in &rule.specs {
                if s.is_retval() {
                    spec.retval = Some(s.clone());
                } else if let Some(old) = spec
                    .args
                    .iter_mut()
                    .find(|a| a.index == s.index && a.is_float_arg == s.is_float_arg)
                {
                    *old = s.clone();
                } else {
                    spec.args.push(s.clone());
                }
            }
        }
        if wants_auto || self.auto_everywhere {
            let (dbg_args, dbg_ret) = debug.unwrap_or((None, None));
            let use_debug = self.debug_info || wants_auto;
            if spec.args.is_empty() {
                let text = dbg_args
                    .filter(|_| use_debug)
                    .or_else(|| self.auto_args.get(name).map(String::as_str));
                if let Some(text) = text {
                    spec.args = parse_specs(text, self.is_64bit)
                        .into_iter()
                        .filter(|s| !s.is_retval())
                        .collect();
                }
            }
            if spec.retval.is_none() {
                let text = dbg_ret
                    .filter(|_| use_debug)
                    .or_else(|| self.auto_rets.get(name).map(String::as_str));
                if let Some(text) = text {
                    spec.retval = parse_specs(text, self.is_64bit)
                        .into_iter()
                        .find(ArgSpec::is_retval);
                }
            }
        }
        spec
    }
}

/// `name@spec;name@spec;…` → name → spec text.
fn table(text: Option<&str>) -> HashMap<String, String> {
    text.unwrap_or("")
        .split(';')
        .filter_map(|entry| entry.split_once('@'))
        .map(|(name, spec)| (name.trim().to_owned(), spec.to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_with_sizes_and_defaults() {
        let s = parse_specs(
            "fparg1,fparg2/32,arg1/i32,arg2,arg3/e:uft_mmap_prot,arg4/t16:point,arg5/c",
            true,
        );
        assert_eq!((s[0].format.clone(), s[0].size), (ArgFormat::Float, 8));
        assert_eq!(s[1].size, 4);
        assert_eq!((s[2].format.clone(), s[2].size), (ArgFormat::Int, 4));
        assert_eq!((s[3].format.clone(), s[3].size), (ArgFormat::Auto, 8));
        assert_eq!(s[4].format, ArgFormat::Enum("uft_mmap_prot".into()));
        assert_eq!(
            (s[5].format.clone(), s[5].size),
            (ArgFormat::Struct(Some("point".into())), 16)
        );
        assert_eq!(s[6].size, 1);
        assert_eq!(parse_specs("arg1", false)[0].size, 4);
        assert!(parse_specs("retval/f64", true)[0].is_retval());
    }

    fn info(argspec: &str, retspec: &str, auto: bool) -> Info {
        Info {
            is_64bit: true,
            argspec: vec![argspec.into()],
            retspec: vec![retspec.into()],
            argauto: Some("strlen@arg1/s;printf@arg1/s;".into()),
            retauto: Some("strlen@retval/u;".into()),
            auto_args: auto,
            feat_mask: FEAT_DEBUG_INFO,
            ..Info::default()
        }
    }

    #[test]
    fn explicit_specs_apply_by_exact_name_or_regex() {
        let book = SpecBook::new(&info(
            "add_int@arg1/i32,arg2/i32;^mul.*@arg1",
            "add_int@retval/i32",
            false,
        ));
        let add = book.spec_for("add_int", None);
        assert_eq!(add.args.len(), 2);
        assert!(add.retval.is_some());
        assert_eq!(book.spec_for("mul_long", None).args.len(), 1);
        assert_eq!(book.spec_for("strlen", None), FunctionSpec::default());
    }

    #[test]
    fn auto_args_take_debug_info_first_then_the_table() {
        let book = SpecBook::new(&info("", "", true));
        let greet = book.spec_for("greet", Some((Some("arg1/s,arg2/c"), Some("retval/s"))));
        assert_eq!(greet.args[0].format, ArgFormat::Str);
        assert_eq!(greet.retval.map(|r| r.format), Some(ArgFormat::Str));
        let strlen = book.spec_for("strlen", None);
        assert_eq!(strlen.args[0].format, ArgFormat::Str);
        assert_eq!(strlen.retval.map(|r| r.format), Some(ArgFormat::Unsigned));
        assert_eq!(
            book.spec_for("nothing", Some((None, None))),
            FunctionSpec::default()
        );
    }

    #[test]
    fn glob_patterns() {
        assert!(glob_match(b"add_*", b"add_int"));
        assert!(glob_match(b"?dd_[a-j]nt", b"add_int"));
        assert!(!glob_match(b"add_[!i]nt", b"add_int"));
    }
}
