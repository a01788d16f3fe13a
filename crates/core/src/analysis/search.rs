//! Search over function names: a case-insensitive substring, or a regular
//! expression written between slashes (`/^pthread_/`). The same matcher
//! highlights every view, so the match count is the number of distinct
//! names that match.

use crate::model::StringTable;

/// A compiled search query.
#[derive(Clone, Debug)]
pub enum Matcher {
    /// Lower-cased needle.
    Substring(String),
    Regex(regex_lite::Regex),
}

impl Matcher {
    /// Parses `query`; `None` for an empty query. A `/…/` query that is not a
    /// valid expression is an error message for the search box.
    pub fn parse(query: &str) -> Result<Option<Matcher>, String> {
        let query = query.trim();
        if query.is_empty() {
            return Ok(None);
        }
        if let Some(pattern) = query
            .strip_prefix('/')
            .and_then(|rest| rest.strip_suffix('/'))
            .filter(|p| !p.is_empty())
        {
            return regex_lite::Regex::new(pattern)
                .map(|r| Some(Matcher::Regex(r)))
                .map_err(|e| e.to_string());
        }
        Ok(Some(Matcher::Substring(query.to_lowercase())))
    }

    /// True when `name` matches.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            Matcher::Substring(needle) => name.to_lowercase().contains(needle),
            Matcher::Regex(r) => r.is_match(name),
        }
    }

    /// For every string id of `strings`, whether it matches.
    pub fn mark(&self, strings: &StringTable) -> Vec<bool> {
        strings.all().iter().map(|s| self.matches(s)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substrings_ignore_case_and_slashes_make_a_regex() {
        let m = Matcher::parse("Mutex").unwrap().unwrap();
        assert!(m.matches("pthread_mutex_lock"));
        let r = Matcher::parse("/^pthread_(join|create)$/")
            .unwrap()
            .unwrap();
        assert!(r.matches("pthread_join"));
        assert!(!r.matches("pthread_mutex_lock"));
        assert!(Matcher::parse("  ").unwrap().is_none());
        assert!(Matcher::parse("/(/").is_err());
    }
}

/// How much of a trace a search matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MatchCount {
    /// Distinct matching names among those that occur as a call or a frame.
    pub functions: u64,
    /// Matching calls (spans), counted like the report (abandoned calls left out).
    pub calls: u64,
}

/// Counts the functions and calls that `marks` (from [`Matcher::mark`]) selects.
pub fn count(trace: &crate::Trace, marks: &[bool]) -> MatchCount {
    let mut seen = vec![false; marks.len()];
    let mut calls = 0;
    for thread in &trace.threads {
        for (&name, &flags) in thread.spans.name.iter().zip(&thread.spans.flags) {
            if marks.get(name as usize).copied().unwrap_or(false) {
                seen[name as usize] = true;
                if flags & (crate::model::SPAN_ABANDONED | crate::model::SPAN_CONTINUED) == 0 {
                    calls += 1;
                }
            }
        }
    }
    for &frame in &trace.stacks.frame {
        if marks.get(frame as usize).copied().unwrap_or(false) {
            seen[frame as usize] = true;
        }
    }
    MatchCount {
        functions: seen.iter().filter(|&&s| s).count() as u64,
        calls,
    }
}

#[cfg(test)]
mod count_tests {
    use super::*;

    #[test]
    fn counts_distinct_functions_and_calls() {
        let trace = crate::analysis::calltree::test_trace::recursive_trace();
        let marks = Matcher::parse("/^(a|main)$/")
            .unwrap()
            .unwrap()
            .mark(&trace.strings);
        assert_eq!(
            count(&trace, &marks),
            MatchCount {
                functions: 2,
                calls: 4
            }
        );
    }
}
