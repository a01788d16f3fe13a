//! Small text formatters shared by the panels: byte sizes, durations in the
//! trace's unit, thread titles.

use flamedrop_core::analysis::report::format_time;

/// A byte count for people: `812 B`, `4.2 KB`, `1.5 MB`, `2.00 GB` (powers of 1000).
pub fn bytes(n: f64) -> String {
    let n = n.max(0.0);
    match n {
        n if n < 1e3 => format!("{n:.0} B"),
        n if n < 1e6 => format!("{:.1} KB", n / 1e3),
        n if n < 1e9 => format!("{:.1} MB", n / 1e6),
        n => format!("{:.2} GB", n / 1e9),
    }
}

/// A duration in the trace's unit, printed like uftrace (`20.430 us`), or a
/// plain count for logical clocks.
pub fn duration(value: i64, unit: &str) -> String {
    if unit == "events" {
        return format!("{value} events");
    }
    // The report pads seconds as uftrace does (`1.738  s`); the page does not.
    format_time(value, unit).replacen("  ", " ", 1)
}

/// The lane title of a thread: `c_threads — tid 21712`, or the thread's own
/// name when it differs from its process's (`worker (c_threads) — tid 21713`).
pub fn thread_title(process_name: &str, thread_name: &str, thread_id: &str) -> String {
    let who = match (process_name.is_empty(), thread_name.is_empty()) {
        (_, true) => process_name.to_owned(),
        (true, false) => thread_name.to_owned(),
        (false, false) if thread_name == process_name => process_name.to_owned(),
        (false, false) => format!("{thread_name} ({process_name})"),
    };
    if who.is_empty() {
        format!("tid {thread_id}")
    } else {
        format!("{who} — tid {thread_id}")
    }
}

/// How a weight prints: a duration in `unit` when `is_time`, else bytes or
/// a count of `unit`.
pub fn weight(unit: String, is_time: bool) -> impl Fn(i64) -> String + 'static {
    move |v| {
        if is_time {
            duration(v, &unit)
        } else if unit == "bytes" {
            bytes(v as f64)
        } else {
            format!("{v} {unit}")
        }
    }
}

/// A change with its sign (`+1.2 ms`, `−3 calls`), printed by `format`.
pub fn signed(v: i64, format: impl Fn(i64) -> String) -> String {
    match v.signum() {
        1 => format!("+{}", format(v)),
        -1 => format!("−{}", format(-v)),
        _ => format(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_carry_their_sign() {
        let n = |v: i64| v.to_string();
        assert_eq!(signed(5, n), "+5");
        assert_eq!(signed(-5, n), "−5");
        assert_eq!(signed(0, n), "0");
    }

    #[test]
    fn bytes_read_naturally() {
        assert_eq!(bytes(812.0), "812 B");
        assert_eq!(bytes(4_200.0), "4.2 KB");
        assert_eq!(bytes(1_500_000.0), "1.5 MB");
        assert_eq!(bytes(2e9), "2.00 GB");
    }

    #[test]
    fn durations_follow_the_unit() {
        assert_eq!(duration(20_430, "ns"), "20.430 us");
        assert_eq!(duration(7, "events"), "7 events");
        assert_eq!(duration(1_500_000_000, "ns"), "1.500 s");
    }

    #[test]
    fn thread_titles_name_process_and_tid() {
        assert_eq!(
            thread_title("c_threads", "c_threads", "21712"),
            "c_threads — tid 21712"
        );
        assert_eq!(
            thread_title("c_threads", "", "21712"),
            "c_threads — tid 21712"
        );
        assert_eq!(thread_title("app", "worker", "7"), "worker (app) — tid 7");
        assert_eq!(thread_title("", "", "7"), "tid 7");
    }
}
