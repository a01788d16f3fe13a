//! Which file of a `uftrace.data` folder is what (info, task list, maps,
//! symbols, debug info, event names, perf, task data), the folder's
//! detection, and the order the files are read in.

use crate::decoder::FileProbe;
use crate::formats::uftrace::info;

/// What a file of the folder is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Info,
    TaskText,
    Map { sid: String },
    Symbols,
    Debug,
    EventNames,
    Perf,
    Data { tid: String },
}

/// True when the files hold a uftrace recording: an `info` file (by its
/// magic, whatever its name), or `<tid>.dat` files beside a `task.txt`.
pub fn detect(probes: &[FileProbe]) -> bool {
    probes.iter().any(|p| p.head.starts_with(info::MAGIC))
        || (probes
            .iter()
            .any(|p| p.name() == "task.txt" && p.head.starts_with(b"SESS "))
            && probes.iter().any(|p| tid_of(p.name()).is_some()))
}

/// `17763.dat` → `17763`.
pub(super) fn tid_of(name: &str) -> Option<&str> {
    let tid = name.strip_suffix(".dat")?;
    (!tid.is_empty() && tid.bytes().all(|b| b.is_ascii_digit())).then_some(tid)
}

/// What `probe` is for in a uftrace folder, if anything.
pub(super) fn role_of(probe: &FileProbe) -> Option<Role> {
    let name = probe.name();
    if probe.head.starts_with(info::MAGIC) {
        return Some(Role::Info);
    }
    if let Some(tid) = tid_of(name) {
        return Some(Role::Data {
            tid: tid.to_owned(),
        });
    }
    if name == "task.txt" {
        return Some(Role::TaskText);
    }
    if let Some(sid) = name
        .strip_prefix("sid-")
        .and_then(|s| s.strip_suffix(".map"))
    {
        return Some(Role::Map {
            sid: sid.to_owned(),
        });
    }
    if name.ends_with(".sym") {
        return Some(Role::Symbols);
    }
    if name.ends_with(".dbg") {
        return Some(Role::Debug);
    }
    if name == "events.txt" {
        return Some(Role::EventNames);
    }
    if name.starts_with("perf-cpu") && name.ends_with(".dat") {
        return Some(Role::Perf);
    }
    None
}

/// The reading order: metadata first (info, task.txt, maps, symbols, debug
/// info, event names), then perf files, then task data by tid.
pub(super) fn plan_key(role: &Role) -> (u8, u64) {
    let rank = match role {
        Role::Info => 0,
        Role::TaskText => 1,
        Role::Map { .. } => 2,
        Role::Symbols => 3,
        Role::Debug => 4,
        Role::EventNames => 5,
        Role::Perf => 6,
        Role::Data { .. } => 7,
    };
    let tid = match role {
        Role::Data { tid } => tid.parse::<u64>().unwrap_or(u64::MAX),
        _ => 0,
    };
    (rank, tid)
}
