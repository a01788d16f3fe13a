//! `task.txt`: sessions (`SESS`), threads (`TASK`), forked children (`FORK`)
//! and dlopen'ed libraries (`DLOP`), and which session's memory map holds the
//! symbols for a task at a given time.

use std::collections::HashMap;

/// A session: one program image (a start, or an `exec`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub pid: String,
    pub start: i64,
    pub sid: String,
    pub exename: String,
}

/// A library loaded with `dlopen()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dlopen {
    pub time: i64,
    pub sid: String,
    pub base: u64,
    pub libname: String,
}

/// What `task.txt` says about one task.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Task {
    /// The thread-group leader (the task itself for a process).
    pub pid: String,
    /// The parent, for a forked child.
    pub ppid: Option<String>,
    pub start: Option<i64>,
}

/// All of `task.txt`.
#[derive(Clone, Debug, Default)]
pub struct TaskFile {
    pub sessions: Vec<Session>,
    pub tasks: HashMap<String, Task>,
    pub dlopens: Vec<Dlopen>,
    /// Lines that could not be read: (byte offset, line).
    pub bad_lines: Vec<(u64, String)>,
}

impl TaskFile {
    /// Index into `sessions` of the session that maps `tid`'s addresses at
    /// `time`: the task's latest session started at or before `time`, else
    /// its leader's or parent's, else the first session.
    pub fn session_for(&self, tid: &str, time: i64) -> Option<usize> {
        let mut who = tid;
        for _ in 0..64 {
            if let Some(found) = self.latest_session_of(who, time) {
                return Some(found);
            }
            let Some(task) = self.tasks.get(who) else {
                break;
            };
            who = match (&task.ppid, task.pid.as_str()) {
                (_, pid) if pid != who => pid,
                (Some(ppid), _) => ppid,
                _ => break,
            };
        }
        self.latest_session_of(tid, i64::MAX)
            .or_else(|| (!self.sessions.is_empty()).then_some(0))
    }

    fn latest_session_of(&self, pid: &str, time: i64) -> Option<usize> {
        self.sessions
            .iter()
            .enumerate()
            .filter(|(_, s)| s.pid == pid && s.start <= time)
            .max_by_key(|(_, s)| s.start)
            .map(|(i, _)| i)
    }

    /// The dlopen'ed libraries of session `sid` loaded at or before `time`,
    /// newest first.
    pub fn dlopens_for<'a>(&'a self, sid: &'a str, time: i64) -> impl Iterator<Item = &'a Dlopen> {
        self.dlopens
            .iter()
            .rev()
            .filter(move |d| d.sid == sid && d.time <= time)
    }
}

/// Parses `task.txt`; unreadable lines are kept for a diagnostic.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn parse(text: &str) -> TaskFile {
    let mut file = TaskFile::default();
    let mut offset = 0u64;
    for line in text.split_inclusive('\n') {
        let this_offset = offset;
        offset += line.len() as u64;
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        if parse_line(&mut file, line).is_none() {
            file.bad_lines.push((this_offset, line.to_owned()));
        }
    }
    file
}

fn parse_line(file: &mut TaskFile, line: &str) -> Option<()> {
    let (kind, rest) = line.split_once(' ')?;
    let fields = fields(rest);
    let get = |k: &str| fields.get(k).cloned();
    let time = parse_timestamp(&get("timestamp")?)?;
    match kind {
        "SESS" => file.sessions.push(Session {
            pid: get("pid")?,
            start: time,
            sid: get("sid")?,
            exename: get("exename").unwrap_or_default(),
        }),
        "TASK" => {
            let tid = get("tid")?;
            let task = file.tasks.entry(tid).or_default();
            task.pid = get("pid")?;
            task.start.get_or_insert(time);
        }
        "FORK" => {
            let child = get("pid")?;
            let task = file.tasks.entry(child.clone()).or_default();
            task.pid = child;
            task.ppid = Some(get("ppid")?);
            task.start.get_or_insert(time);
        }
        "DLOP" => file.dlopens.push(Dlopen {
            time,
            sid: get("sid")?,
            base: u64::from_str_radix(&get("base")?, 16).ok()?,
            libname: get("libname")?,
        }),
        _ => return None,
    }
    Some(())
}

/// `key=value` pairs; a value may be a double-quoted string.
fn fields(rest: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut s = rest.trim_start();
    while let Some(eq) = s.find('=') {
        let key = s[..eq].trim().to_owned();
        let after = &s[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(' ') {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        out.insert(key, value.to_owned());
        s = next.trim_start();
    }
    out
}

/// `228.861162268` (seconds.nanoseconds) → nanoseconds.
pub fn parse_timestamp(s: &str) -> Option<i64> {
    let (sec, frac) = s.split_once('.').unwrap_or((s, "0"));
    let sec: i64 = sec.parse().ok()?;
    let digits: String = frac.chars().take(9).collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let nsec: i64 = format!("{digits:0<9}").parse().ok()?;
    sec.checked_mul(1_000_000_000)?.checked_add(nsec)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORK_EXEC: &str = "SESS timestamp=1.000000000 pid=10 sid=aaaa exename=\"/bin/parent\"\n\
        TASK timestamp=1.000000100 tid=10 pid=10\n\
        FORK timestamp=2.000000000 pid=11 ppid=10\n\
        SESS timestamp=3.000000000 pid=11 sid=bbbb exename=\"/bin/child\"\n\
        TASK timestamp=3.000000100 tid=11 pid=11\n\
        TASK timestamp=1.500000000 tid=12 pid=10\n\
        DLOP timestamp=1.600000000 tid=10 sid=aaaa base=7f0000 libname=\"./libp.so\"\n";

    #[test]
    fn a_forked_child_uses_its_parent_session_until_it_execs() {
        let f = parse(FORK_EXEC);
        assert!(f.bad_lines.is_empty());
        assert_eq!(f.session_for("11", 2_500_000_000), Some(0));
        assert_eq!(f.session_for("11", 3_000_000_000), Some(1));
        assert_eq!(f.session_for("12", 1_600_000_000), Some(0));
        assert_eq!(f.tasks["11"].ppid.as_deref(), Some("10"));
    }

    #[test]
    fn dlopens_are_found_newest_first_and_not_before_they_happen() {
        let f = parse(FORK_EXEC);
        assert_eq!(f.dlopens_for("aaaa", 1_700_000_000).count(), 1);
        assert_eq!(f.dlopens_for("aaaa", 1_500_000_000).count(), 0);
        assert_eq!(f.dlopens[0].base, 0x7f0000);
        assert_eq!(f.dlopens[0].libname, "./libp.so");
    }

    #[test]
    fn timestamps_and_bad_lines() {
        assert_eq!(parse_timestamp("228.861162268"), Some(228_861_162_268));
        assert_eq!(parse_timestamp("0.5"), Some(500_000_000));
        assert_eq!(parse_timestamp("x.1"), None);
        let f = parse("SESS nonsense\nWHAT timestamp=1.0\n");
        assert_eq!(f.bad_lines.len(), 2);
        assert_eq!(f.bad_lines[1].0, 14);
    }
}
