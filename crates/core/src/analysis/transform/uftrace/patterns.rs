//! Function patterns as uftrace matches them (`utils/filter.c`): a pattern
//! with none of the characters `.?*+-^$|()[]{}` names one function exactly;
//! otherwise it is a POSIX extended regular expression searched anywhere in
//! the name (`regexec`), or with `--match=glob` a shell glob matched against
//! the whole name (`fnmatch` without flags). A pattern starting with
//! `operator ` and a regular expression that does not compile are matched
//! exactly too, as uftrace does.

use crate::model::{StrId, StringTable};

/// The characters that make uftrace read a pattern as a regex or a glob.
const REGEX_CHARS: &str = ".?*+-^$|()[]{}";

/// True when uftrace reads `text` as a regular expression (or, with
/// `--match=glob`, a glob): it holds one of [`REGEX_CHARS`] and is not a C++
/// `operator …` name.
pub fn is_regex(text: &str) -> bool {
    text.contains(|c| REGEX_CHARS.contains(c)) && !text.starts_with("operator ")
}

/// One compiled pattern.
pub enum Pattern {
    Exact(String),
    Regex(regex_lite::Regex),
    Glob(Vec<char>),
}

impl Pattern {
    /// Reads `text` as uftrace would.
    pub fn new(text: &str, glob: bool) -> Pattern {
        if !is_regex(text) {
            return Pattern::Exact(text.to_owned());
        }
        if glob {
            return Pattern::Glob(text.chars().collect());
        }
        match regex_lite::Regex::new(text) {
            Ok(re) => Pattern::Regex(re),
            Err(_) => Pattern::Exact(text.to_owned()),
        }
    }

    /// True when `name` matches.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            Pattern::Exact(p) => p == name,
            Pattern::Regex(re) => re.is_match(name),
            Pattern::Glob(p) => {
                let name: Vec<char> = name.chars().collect();
                fnmatch(p, &name)
            }
        }
    }

    /// The ids among `candidates` (true for the string ids that name a
    /// function) whose text matches; each string is tested once.
    pub fn matching_ids(&self, strings: &StringTable, candidates: &[bool]) -> Vec<StrId> {
        candidates
            .iter()
            .enumerate()
            .filter(|&(id, &is_function)| is_function && self.matches(strings.get(id as StrId)))
            .map(|(id, _)| id as StrId)
            .collect()
    }
}

/// `fnmatch(pattern, name, 0)`: `*` any run of characters (slashes and
/// leading dots included), `?` one character, `[...]` a set (`!` or `^`
/// negates, `a-z` ranges), `\` quotes the next character.
fn fnmatch(pattern: &[char], name: &[char]) -> bool {
    // Iterative with one backtrack point: the last `*` seen.
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
                continue;
            }
            Some('?') => {
                p += 1;
                n += 1;
                continue;
            }
            Some('[') => {
                if let Some((matched, next)) = bracket(pattern, p, name[n]) {
                    if matched {
                        p = next;
                        n += 1;
                        continue;
                    }
                } else if name[n] == '[' {
                    p += 1;
                    n += 1;
                    continue;
                }
            }
            Some('\\') if pattern.get(p + 1) == Some(&name[n]) => {
                p += 2;
                n += 1;
                continue;
            }
            Some(&c) if c != '\\' && c == name[n] => {
                p += 1;
                n += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((sp, sn)) => {
                p = sp + 1;
                n = sn + 1;
                star = Some((sp, sn + 1));
            }
            None => return false,
        }
    }
    pattern[p.min(pattern.len())..].iter().all(|&c| c == '*')
}

/// The set starting at `pattern[open]` (a `[`): whether `c` is in it and
/// where the pattern goes on; `None` when the `[` opens no set.
fn bracket(pattern: &[char], open: usize, c: char) -> Option<(bool, usize)> {
    let mut i = open + 1;
    let negate = matches!(pattern.get(i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let mut found = false;
    let mut first = true;
    loop {
        let &item = pattern.get(i)?;
        if item == ']' && !first {
            return Some((found != negate, i + 1));
        }
        first = false;
        let low = if item == '\\' {
            i += 1;
            *pattern.get(i)?
        } else {
            item
        };
        if pattern.get(i + 1) == Some(&'-') && pattern.get(i + 2).is_some_and(|&h| h != ']') {
            let high = *pattern.get(i + 2)?;
            found |= low <= c && c <= high;
            i += 3;
        } else {
            found |= low == c;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_match_exactly_and_regexes_anywhere() {
        assert!(Pattern::new("hot", false).matches("hot"));
        assert!(!Pattern::new("hot", false).matches("hot_loop"));
        assert!(Pattern::new("mu.*_a", false).matches("mutual_a"));
        assert!(Pattern::new("^m", false).matches("main"));
        assert!(!Pattern::new("o.l", false).matches("hot_loop"));
        // A regex is searched: `ot` inside `hot_loop` matches `o.`.
        assert!(Pattern::new("o.", false).matches("hot_loop"));
        // An unbalanced regex is a plain name.
        assert!(Pattern::new("f(", false).matches("f("));
    }

    #[test]
    fn globs_match_the_whole_name() {
        let g = |p: &str, n: &str| Pattern::new(p, true).matches(n);
        assert!(g("mutual_*", "mutual_a"));
        assert!(!g("utual_*", "mutual_a"));
        assert!(g("*_[ab]", "mutual_b"));
        assert!(!g("*_[!ab]", "mutual_b"));
        assert!(g("h?t", "hot"));
        assert!(g("std::*", "std::vector<int>::push_back"));
        assert!(g("a*b*c", "aXbYbc"));
        assert!(!g("a*b*c", "aXbYb"));
        assert!(g("[a-c]x", "bx"));
    }
}
