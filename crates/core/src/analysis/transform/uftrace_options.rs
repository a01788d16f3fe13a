//! uftrace's filter options as one typed line (`-F main -N ^std:: -D 4 -t
//! 5us`): read with uftrace's spellings (`-F X`, `-FX`, `--filter=X`,
//! `--filter X`), kept as what was asked, and written back in one canonical
//! order for the breadcrumb and the URL.

use std::fmt;

/// One line of uftrace filter options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UftraceFilter {
    /// `-F/--filter`: only these functions' subtrees.
    pub filter: Vec<String>,
    /// `-N/--notrace`: these functions and their subtrees go.
    pub notrace: Vec<String>,
    /// `-H/--hide`: these functions go, their callees move up.
    pub hide: Vec<String>,
    /// `-C/--caller-filter`: only the call paths leading to these.
    pub caller: Vec<String>,
    /// `-D/--depth`: calls nested deeper than this go.
    pub depth: Option<u32>,
    /// `-t/--time-filter`, as typed (`5us`).
    pub time_filter: Option<String>,
    /// `-r/--time-range`, as typed (`100us~2ms`, `~1.5ms`, timestamps).
    pub time_range: Option<String>,
    /// `--tid`: only these tasks.
    pub tids: Vec<String>,
    /// `--match=glob`: patterns are globs, not regular expressions.
    pub glob: bool,
}

impl UftraceFilter {
    /// Reads a typed line: words split at white space, `'…'` and `"…"`
    /// quoting a word.
    pub fn parse(text: &str) -> Result<UftraceFilter, String> {
        UftraceFilter::from_args(&split_words(text)?)
    }

    /// Reads options already split into words (the command line's).
    pub fn from_args<S: AsRef<str>>(args: &[S]) -> Result<UftraceFilter, String> {
        let mut f = UftraceFilter::default();
        let mut words = args.iter().map(AsRef::as_ref);
        while let Some(word) = words.next() {
            let (option, inline) = split_option(word)?;
            let mut value = || -> Result<String, String> {
                match inline.clone() {
                    Some(v) => Ok(v),
                    None => words
                        .next()
                        .map(str::to_owned)
                        .ok_or_else(|| format!("option '{option}' requires an argument")),
                }
            };
            match option.as_str() {
                "-F" | "--filter" => f.filter.extend(patterns(&value()?)),
                "-N" | "--notrace" => f.notrace.extend(patterns(&value()?)),
                "-H" | "--hide" => f.hide.extend(patterns(&value()?)),
                "-C" | "--caller-filter" => f.caller.extend(patterns(&value()?)),
                "-D" | "--depth" => {
                    let v = value()?;
                    f.depth = Some(v.parse().map_err(|_| format!("invalid depth: {v}"))?);
                }
                "-t" | "--time-filter" => f.time_filter = Some(time_filter(&value()?)?),
                "-r" | "--time-range" => f.time_range = Some(time_range(&value()?)?),
                "--tid" => f.tids.extend(
                    value()?
                        .split([',', ';'])
                        .filter(|t| !t.is_empty())
                        .map(str::to_owned),
                ),
                "--match" => match value()?.as_str() {
                    "glob" => f.glob = true,
                    "regex" => f.glob = false,
                    other => return Err(format!("invalid match method: {other}")),
                },
                _ => return Err(format!("unrecognized option '{word}'")),
            }
        }
        Ok(f)
    }

    /// True when the line asks for nothing.
    pub fn is_empty(&self) -> bool {
        *self == UftraceFilter::default()
    }
}

/// `-t`'s value when uftrace can read it: a number, then perhaps a unit.
fn time_filter(value: &str) -> Result<String, String> {
    if valid_time(value) {
        Ok(value.to_owned())
    } else {
        Err(format!(
            "invalid time filter: {value} (a number with ns, us, ms, s or m)"
        ))
    }
}

/// `-r`'s value when uftrace can read it: `A~B`, each end empty, a
/// timestamp (`sec.nsec`) or an elapsed time with a unit.
fn time_range(value: &str) -> Result<String, String> {
    let ends_ok = value.split_once('~').is_some_and(|(a, b)| {
        [a, b].iter().all(|end| {
            end.is_empty()
                || valid_time(end)
                || end
                    .split_once('.')
                    .map_or(end.bytes().all(|b| b.is_ascii_digit()), |(s, n)| {
                        s.bytes().chain(n.bytes()).all(|b| b.is_ascii_digit())
                    })
        })
    });
    if ends_ok {
        Ok(value.to_owned())
    } else {
        Err(format!(
            "invalid time range: {value} (START~STOP, each a timestamp, an elapsed time with a unit, or empty)"
        ))
    }
}

/// A number (digits, maybe a decimal point) and an optional unit uftrace knows.
fn valid_time(text: &str) -> bool {
    let unit_at = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(unit_at);
    let units = [
        "", "ns", "nsec", "us", "usec", "ms", "msec", "s", "sec", "m", "min",
    ];
    number.starts_with(|c: char| c.is_ascii_digit())
        && number.matches('.').count() <= 1
        && units.contains(&unit.to_ascii_lowercase().as_str())
}

/// `-Fmain` → (`-F`, `main`); `--filter=main` → (`--filter`, `main`);
/// `-F` → (`-F`, none).
fn split_option(word: &str) -> Result<(String, Option<String>), String> {
    if let Some(long) = word.strip_prefix("--") {
        return Ok(match long.split_once('=') {
            Some((name, value)) => (format!("--{name}"), Some(value.to_owned())),
            None => (word.to_owned(), None),
        });
    }
    let mut chars = word.chars();
    match (chars.next(), chars.next()) {
        (Some('-'), Some(letter)) => {
            let rest: String = chars.collect();
            Ok((format!("-{letter}"), (!rest.is_empty()).then_some(rest)))
        }
        _ => Err(format!("unexpected argument '{word}' (expected an option)")),
    }
}

/// uftrace takes several patterns in one option, separated by `;`.
fn patterns(value: &str) -> impl Iterator<Item = String> + '_ {
    value
        .split(';')
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
}

/// Splits at white space outside quotes.
fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("unmatched quote in {text:?}"));
    }
    words.extend(word);
    Ok(words)
}

/// A word quoted if it needs to be read back as one.
fn quoted(word: &str) -> String {
    if !word.is_empty() && !word.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"') {
        word.to_owned()
    } else if word.contains('\'') {
        format!("\"{word}\"")
    } else {
        format!("'{word}'")
    }
}

impl fmt::Display for UftraceFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words: Vec<String> = Vec::new();
        let mut option = |name: &str, value: &str| {
            words.push(name.to_owned());
            words.push(quoted(value));
        };
        for (name, list) in [
            ("-F", &self.filter),
            ("-N", &self.notrace),
            ("-H", &self.hide),
            ("-C", &self.caller),
        ] {
            for p in list {
                option(name, p);
            }
        }
        if let Some(d) = self.depth {
            option("-D", &d.to_string());
        }
        if let Some(t) = &self.time_filter {
            option("-t", t);
        }
        if let Some(r) = &self.time_range {
            option("-r", r);
        }
        if !self.tids.is_empty() {
            option("--tid", &self.tids.join(","));
        }
        if self.glob {
            words.push("--match=glob".into());
        }
        f.write_str(&words.join(" "))
    }
}

impl std::str::FromStr for UftraceFilter {
    type Err = String;

    fn from_str(text: &str) -> Result<UftraceFilter, String> {
        UftraceFilter::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uftrace_spellings() {
        let f =
            UftraceFilter::parse("-F main --notrace=^std:: -Hfoo -D 4 -t 5us --tid 1,2").unwrap();
        assert_eq!(f.filter, ["main"]);
        assert_eq!(f.notrace, ["^std::"]);
        assert_eq!(f.hide, ["foo"]);
        assert_eq!(f.depth, Some(4));
        assert_eq!(f.time_filter.as_deref(), Some("5us"));
        assert_eq!(f.tids, ["1", "2"]);
        assert_eq!(UftraceFilter::parse("--tid 3;4").unwrap().tids, ["3", "4"]);
        assert_eq!(f.to_string().parse::<UftraceFilter>().unwrap(), f);
        assert_eq!(
            UftraceFilter::parse("-F 'a b;c'").unwrap().filter,
            ["a b", "c"]
        );
    }

    #[test]
    fn bad_lines_say_why() {
        assert!(UftraceFilter::parse("-F")
            .unwrap_err()
            .contains("requires an argument"));
        assert!(UftraceFilter::parse("-Q x")
            .unwrap_err()
            .contains("unrecognized"));
        assert!(UftraceFilter::parse("-D x").unwrap_err().contains("depth"));
        assert!(UftraceFilter::parse("-F 'main")
            .unwrap_err()
            .contains("quote"));
        assert!(UftraceFilter::parse("-t 5xs")
            .unwrap_err()
            .contains("time filter"));
        assert!(UftraceFilter::parse("-r 5us")
            .unwrap_err()
            .contains("time range"));
        for ok in [
            "-t 1.5ms",
            "-t 10",
            "-r 266.5~266.6",
            "-r ~3ms",
            "-r 9.4ms~",
            "-t 2US",
        ] {
            assert!(UftraceFilter::parse(ok).is_ok(), "{ok}");
        }
    }
}
