//! The stack's one text form, held by the page's URL fragment
//! (`#…&narrow=<text>`) and taken by `flamedrop report --transform <text>`:
//! steps joined by `~`, each `code` or `code:argument`, as Firefox Profiler
//! writes its `transforms=` query. Arguments are percent-encoded (all but
//! `A-Z a-z 0-9 - . _`), so the text is safe in a URL fragment and names may
//! hold any character; a path's names are joined by `,` (fragment-safe, and
//! not a shell's redirection as `>` would be).
//!
//! | code | step | argument |
//! |---|---|---|
//! | `u` | [`Step::Uftrace`] | uftrace's options as typed (`-F main -D 4`) |
//! | `mf` | merge function | name |
//! | `mcn` | merge call node | path |
//! | `f` | focus on subtree | path |
//! | `ff` | focus on function | name |
//! | `fs` | focus on self | name |
//! | `cfs` | collapse function subtree | name |
//! | `cr` | collapse resource | resource name |
//! | `drec` | collapse direct recursion | name |
//! | `rec` | collapse recursion | name |
//! | `df` | drop function | name |

use super::{Stack, Step, UftraceFilter};
use std::fmt::{self, Write};

/// The separator between steps.
const STEPS: char = '~';
/// The separator between a path's names.
const PATH: char = ',';

impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_char(STEPS)?;
            }
            write!(f, "{step}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (code, argument) = match self {
            Step::Uftrace(u) => ("u", encode(&u.to_string())),
            Step::MergeFunction(n) => ("mf", encode(n)),
            Step::MergeCallNode(p) => ("mcn", encode_path(p)),
            Step::FocusSubtree(p) => ("f", encode_path(p)),
            Step::FocusFunction(n) => ("ff", encode(n)),
            Step::FocusSelf(n) => ("fs", encode(n)),
            Step::CollapseFunctionSubtree(n) => ("cfs", encode(n)),
            Step::CollapseResource(n) => ("cr", encode(n)),
            Step::CollapseDirectRecursion(n) => ("drec", encode(n)),
            Step::CollapseRecursion(n) => ("rec", encode(n)),
            Step::DropFunction(n) => ("df", encode(n)),
        };
        write!(f, "{code}:{argument}")
    }
}

impl std::str::FromStr for Stack {
    type Err = String;

    /// Reads the text form; the error names the step that is wrong.
    fn from_str(text: &str) -> Result<Stack, String> {
        let steps = text
            .split(STEPS)
            .filter(|s| !s.is_empty())
            .enumerate()
            .map(|(i, s)| s.parse().map_err(|e| format!("step {}: {e}", i + 1)))
            .collect::<Result<_, String>>()?;
        Ok(Stack { steps })
    }
}

impl std::str::FromStr for Step {
    type Err = String;

    fn from_str(text: &str) -> Result<Step, String> {
        let (code, argument) = text.split_once(':').unwrap_or((text, ""));
        let name = || -> Result<String, String> {
            let n = decode(argument)?;
            if n.is_empty() {
                return Err(format!("{code:?} needs a function name"));
            }
            Ok(n)
        };
        let path = || -> Result<Vec<String>, String> {
            let p = argument
                .split(PATH)
                .map(decode)
                .collect::<Result<Vec<_>, _>>()?;
            if p.iter().any(String::is_empty) {
                return Err(format!("{code:?} needs a call path (names joined by ,)"));
            }
            Ok(p)
        };
        Ok(match code {
            "u" => Step::Uftrace(UftraceFilter::parse(&decode(argument)?)?),
            "mf" => Step::MergeFunction(name()?),
            "mcn" => Step::MergeCallNode(path()?),
            "f" => Step::FocusSubtree(path()?),
            "ff" => Step::FocusFunction(name()?),
            "fs" => Step::FocusSelf(name()?),
            "cfs" => Step::CollapseFunctionSubtree(name()?),
            "cr" => Step::CollapseResource(name()?),
            "drec" => Step::CollapseDirectRecursion(name()?),
            "rec" => Step::CollapseRecursion(name()?),
            "df" => Step::DropFunction(name()?),
            other => {
                return Err(format!(
                    "unknown step {other:?} (u, mf, mcn, f, ff, fs, cfs, cr, drec, rec, df)"
                ))
            }
        })
    }
}

fn encode_path(path: &[String]) -> String {
    let mut out = String::new();
    for (i, name) in path.iter().enumerate() {
        if i > 0 {
            out.push(PATH);
        }
        out.push_str(&encode(name));
    }
    out
}

/// Percent-encodes all but `A-Z a-z 0-9 - . _` (UTF-8 bytes).
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Undoes [`encode`]; characters left unencoded by a person typing the text
/// are taken as they are.
pub fn decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("bad %-escape at character {} of {text:?}", i + 1))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("{text:?} is not UTF-8 once decoded"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_survives_its_text() {
        let stack = Stack {
            steps: vec![
                Step::Uftrace("-F main -N ^std:: -D 4 -t 5us".parse().unwrap()),
                Step::MergeFunction("std::vector<int>::push_back(int const&)".into()),
                Step::MergeCallNode(vec!["main".into(), "a~b>c".into()]),
                Step::FocusSubtree(vec!["main".into(), "work".into()]),
                Step::FocusFunction("work".into()),
                Step::FocusSelf("100% done".into()),
                Step::CollapseFunctionSubtree("é".into()),
                Step::CollapseResource("libc.so.6".into()),
                Step::CollapseDirectRecursion("fib".into()),
                Step::CollapseRecursion("mutual_a".into()),
                Step::DropFunction("linux:schedule".into()),
            ],
        };
        let text = stack.to_string();
        assert!(text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._%:~,".contains(&b)));
        assert_eq!(text.parse::<Stack>().unwrap(), stack);
    }

    #[test]
    fn typed_names_and_bad_steps() {
        assert_eq!(
            "mf:foo~ff:main".parse::<Stack>().unwrap().steps,
            vec![
                Step::MergeFunction("foo".into()),
                Step::FocusFunction("main".into())
            ]
        );
        assert!("zz:foo".parse::<Stack>().unwrap_err().contains("step 1"));
        assert!("mf:".parse::<Stack>().is_err());
        assert!("mf:%4".parse::<Stack>().is_err());
        assert_eq!("".parse::<Stack>().unwrap(), Stack::default());
    }
}
