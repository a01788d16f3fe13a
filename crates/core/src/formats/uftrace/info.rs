//! The `info` file: a 40-byte binary header (magic, version, byte order, word
//! size, feature and info masks, max stack) followed by `key:value` text lines.

use crate::formats::common::{u16_at, u32_at, u64_at, Endian};
use std::collections::BTreeMap;

/// The magic at the start of `info`.
pub const MAGIC: &[u8; 8] = b"Ftrace!\0";
const HEADER_SIZE: usize = 40;

/// Feature bits of `feat_mask` (uftrace.h `enum uftrace_feat_bits`).
pub const FEATURE_NAMES: [&str; 14] = [
    "plthook",
    "task-session",
    "kernel",
    "argument",
    "retval",
    "sym-rel-addr",
    "max-stack",
    "event",
    "perf-event",
    "auto-args",
    "debug-info",
    "estimate-return",
    "sym-size",
    "callsite",
];
pub const FEAT_MAX_STACK: u64 = 1 << 6;
pub const FEAT_DEBUG_INFO: u64 = 1 << 10;

/// How argspec patterns are matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PatternType {
    #[default]
    Regex,
    Glob,
}

/// What `info` says.
#[derive(Clone, Debug, Default)]
pub struct Info {
    pub version: u32,
    pub big_endian: bool,
    pub is_64bit: bool,
    pub feat_mask: u64,
    pub info_mask: u64,
    /// Deepest recorded nesting (`--max-stack`, 1024 unless the header says).
    pub max_stack: u32,
    /// Every `key:value` line, values of repeated keys in order.
    pub lines: BTreeMap<String, Vec<String>>,
    pub tids: Vec<String>,
    pub argspec: Vec<String>,
    pub retspec: Vec<String>,
    pub argauto: Option<String>,
    pub retauto: Option<String>,
    pub enumauto: Option<String>,
    pub auto_args: bool,
    pub pattern_type: PatternType,
    /// `elapsed_time` in nanoseconds.
    pub elapsed_ns: Option<i64>,
}

impl Info {
    /// The first value of a text key.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.lines.get(key)?.first().map(String::as_str)
    }

    /// Names of the feature bits that are set.
    pub fn features(&self) -> Vec<&'static str> {
        FEATURE_NAMES
            .iter()
            .enumerate()
            .filter(|(bit, _)| self.feat_mask & (1 << bit) != 0)
            .map(|(_, name)| *name)
            .collect()
    }

    /// The byte order of the recording's binary data.
    pub fn endian(&self) -> Endian {
        Endian::big_if(self.big_endian)
    }

    /// Info for data without an `info` file: little-endian, 64-bit, defaults.
    pub fn assumed() -> Self {
        Info {
            version: 4,
            is_64bit: true,
            max_stack: 1024,
            ..Info::default()
        }
    }
}

/// Parses `info`. Errors say what is wrong and at which byte.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn parse(bytes: &[u8]) -> Result<Info, String> {
    if bytes.len() < HEADER_SIZE {
        return Err(format!(
            "the header is {} bytes long; a uftrace info header has {HEADER_SIZE}",
            bytes.len()
        ));
    }
    if !bytes.starts_with(MAGIC) {
        return Err("byte 0: the magic is not \"Ftrace!\"".into());
    }
    let order = bytes.get(14).copied().unwrap_or(0);
    let mut info = Info {
        big_endian: order == 2,
        is_64bit: bytes.get(15) != Some(&1),
        ..Info::default()
    };
    if !matches!(order, 1 | 2) {
        return Err(format!("byte 14: unknown byte order {order}"));
    }
    let endian = info.endian();
    info.version = u32_at(bytes, 8, endian).unwrap_or(0);
    if !(3..=4).contains(&info.version) {
        return Err(format!(
            "byte 8: file version {} is not supported (3 and 4 are)",
            info.version
        ));
    }
    let header_size = usize::from(u16_at(bytes, 12, endian).unwrap_or(0));
    info.feat_mask = u64_at(bytes, 16, endian).unwrap_or(0);
    info.info_mask = u64_at(bytes, 24, endian).unwrap_or(0);
    let max_stack = u16_at(bytes, 32, endian).unwrap_or(0);
    info.max_stack = if info.feat_mask & FEAT_MAX_STACK != 0 && max_stack > 0 {
        u32::from(max_stack)
    } else {
        1024
    };
    let text_start = header_size.clamp(HEADER_SIZE, bytes.len());
    let text = bytes.get(text_start..).unwrap_or_default();
    parse_text(&mut info, &String::from_utf8_lossy(text));
    Ok(info)
}

/// Reads the `key:value` lines. Every line names its section, so a section
/// the mask mentions but the text lacks (or the reverse) costs nothing else.
fn parse_text(info: &mut Info, text: &str) {
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        match key {
            "argspec" | "retspec" if value.starts_with("lines=") => continue,
            "argspec" => info.argspec.push(value.to_owned()),
            "retspec" => info.retspec.push(value.to_owned()),
            "argauto" => info.argauto = Some(value.to_owned()),
            "retauto" => info.retauto = Some(value.to_owned()),
            "enumauto" => info.enumauto = Some(value.to_owned()),
            "auto-args" => info.auto_args = value.trim() == "1",
            "pattern_type" => {
                info.pattern_type = if value.trim() == "glob" {
                    PatternType::Glob
                } else {
                    PatternType::Regex
                }
            }
            "taskinfo" => {
                if let Some(tids) = value.strip_prefix("tids=") {
                    info.tids = tids
                        .split(',')
                        .map(str::trim)
                        .filter(|t| !t.is_empty())
                        .map(str::to_owned)
                        .collect();
                }
            }
            "elapsed_time" => info.elapsed_ns = parse_elapsed(value),
            _ => {}
        }
        info.lines
            .entry(key.to_owned())
            .or_default()
            .push(value.to_owned());
    }
}

/// `0.045969418 sec` → nanoseconds.
fn parse_elapsed(value: &str) -> Option<i64> {
    let number = value.split_whitespace().next()?;
    super::task::parse_timestamp(number)
}

/// The lines shown in the summary panel, in a readable order.
#[inline(never)] // see docs/performance.md, "Run-once functions kept small"
pub fn summary(info: &Info) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut add = |label: &str, value: Option<String>| {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            out.push((label.to_owned(), v));
        }
    };
    add("program", info.get("exename").map(str::to_owned));
    add("command line", info.get("cmdline").map(str::to_owned));
    add("recorded on", info.get("record_date").map(str::to_owned));
    add("elapsed", info.get("elapsed_time").map(str::to_owned));
    add("exit status", info.get("exit_status").map(describe_exit));
    add("tracer", info.get("uftrace_version").map(str::to_owned));
    add("kernel", find_prefixed(info, "osinfo", "kernel="));
    add("hostname", find_prefixed(info, "osinfo", "hostname="));
    add("distro", find_prefixed(info, "osinfo", "distro="));
    add("cpu", find_prefixed(info, "cpuinfo", "desc="));
    add("cpus", find_prefixed(info, "cpuinfo", "nr_cpus="));
    add("memory", info.get("meminfo").map(str::to_owned));
    add("max stack", Some(info.max_stack.to_string()));
    add(
        "data",
        Some(format!(
            "file version {}, {}-endian, {}-bit",
            info.version,
            if info.big_endian { "big" } else { "little" },
            if info.is_64bit { 64 } else { 32 }
        )),
    );
    add("features", Some(info.features().join(", ")));
    out
}

fn find_prefixed(info: &Info, key: &str, prefix: &str) -> Option<String> {
    info.lines
        .get(key)?
        .iter()
        .find_map(|v| v.strip_prefix(prefix))
        .map(str::to_owned)
}

/// The raw `wait4()` status as words: `exited with code 0`, `killed by signal 11`.
fn describe_exit(raw: &str) -> String {
    match raw.trim().parse::<i64>() {
        Ok(65536) => "stopped by a finish trigger".into(),
        Ok(status) if status & 0x7f == 0 => format!("exited with code {}", (status >> 8) & 0xff),
        Ok(status) => format!("terminated by signal {}", status & 0x7f),
        Err(_) => raw.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(endian: u8, version: u32) -> Vec<u8> {
        let mut h = MAGIC.to_vec();
        let le = endian == 1;
        let put32 = |v: u32| if le { v.to_le_bytes() } else { v.to_be_bytes() };
        let put16 = |v: u16| if le { v.to_le_bytes() } else { v.to_be_bytes() };
        let put64 = |v: u64| if le { v.to_le_bytes() } else { v.to_be_bytes() };
        h.extend_from_slice(&put32(version));
        h.extend_from_slice(&put16(40));
        h.push(endian);
        h.push(2);
        h.extend_from_slice(&put64(0x363 | FEAT_MAX_STACK));
        h.extend_from_slice(&put64(0x80));
        h.extend_from_slice(&put16(64));
        h.extend_from_slice(&[0; 6]);
        h.extend_from_slice(b"taskinfo:lines=2\ntaskinfo:nr_tid=2\ntaskinfo:tids=5,6\n");
        h
    }

    #[test]
    fn both_byte_orders_read_the_same() {
        for endian in [1, 2] {
            let info = parse(&header(endian, 4)).expect("parses");
            assert_eq!(info.big_endian, endian == 2);
            assert_eq!(info.max_stack, 64);
            assert_eq!(info.tids, vec!["5", "6"]);
            assert!(info.features().contains(&"plthook"));
        }
    }

    #[test]
    fn bad_headers_name_the_byte() {
        assert!(parse(b"Ftrace!").unwrap_err().contains("40"));
        let mut h = header(1, 4);
        h[0] = b'X';
        assert!(parse(&h).unwrap_err().starts_with("byte 0"));
        assert!(parse(&header(1, 9)).unwrap_err().starts_with("byte 8"));
    }

    #[test]
    fn exit_status_is_decoded() {
        assert_eq!(describe_exit("0"), "exited with code 0");
        assert_eq!(describe_exit("256"), "exited with code 1");
        assert_eq!(describe_exit("11"), "terminated by signal 11");
    }
}
