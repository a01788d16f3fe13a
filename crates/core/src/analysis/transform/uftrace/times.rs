//! Times as uftrace reads them for `-t` and `-r`: a number with an optional
//! unit (`ns` by default; `us`, `ms`, `s`, `m`, also spelt `usec` … `min`,
//! any case), at most three digits before the decimal point and the digits
//! after it cut to three ("Limited 3 digits"); a time range `A~B` whose ends
//! are elapsed times when they end in a letter and timestamps (`sec.nsec`)
//! otherwise, either end may be empty.
//!
//! Everything is read into nanoseconds first, as uftrace does; [`to_unit`]
//! then turns it into the trace's own unit. A trace that counts events has
//! no clock: there a bare whole number counts events and a time unit is an
//! error.

use crate::model::TimeUnit;

/// Nanoseconds in a second.
const NS_PER_SEC: u64 = 1_000_000_000;

/// A time as typed, read into nanoseconds, and whether it carried a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedTime {
    pub ns: u64,
    /// True when the text ended in a unit (an elapsed time in `-r`).
    pub with_unit: bool,
    /// The number before any decimal point, for traces that count events.
    pub whole: u64,
    /// True when the text had a decimal point.
    pub fraction: bool,
}

/// One end of `-r`, unset when empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RangeEnd {
    pub value: Option<ParsedTime>,
}

/// `-r A~B` as read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeRange {
    pub start: RangeEnd,
    pub stop: RangeEnd,
}

/// The leading decimal digits of `text` as a number (as `strtoull`, which
/// stops at the first non-digit) and the rest.
fn leading_number(text: &str) -> (u64, &str) {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, rest) = text.split_at(end);
    let value = digits.bytes().fold(0u64, |v, d| {
        v.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    (value, rest)
}

fn digit_count(mut n: u64) -> u32 {
    let mut digits = 1;
    while n >= 10 {
        n /= 10;
        digits += 1;
    }
    digits
}

/// uftrace's `parse_time(arg, 3)`: `Err` with uftrace's message when the
/// number before the point has more than three digits; an unknown unit is
/// read as uftrace reads it (as nanoseconds) and named in the second value.
pub fn parse_time(text: &str) -> Result<(ParsedTime, Option<String>), String> {
    const LIMIT: u64 = 1000;
    let text = text.trim();
    let (value, mut unit) = leading_number(text);
    let mut decimal = 0u64;
    let mut decimal_places = 0u32;
    let fraction = unit.starts_with('.');
    if let Some(after) = unit.strip_prefix('.') {
        let zeros = after.len() - after.trim_start_matches('0').len();
        decimal_places = zeros as u32;
        let (d, rest) = leading_number(&after[zeros..]);
        decimal = d;
        unit = rest;
    }
    if value >= LIMIT {
        return Err("Limited 3 digits (before and after decimal point)".into());
    }
    while decimal >= LIMIT {
        decimal /= 10;
    }
    let parsed = |ns: u64| ParsedTime {
        ns,
        with_unit: !unit.is_empty(),
        whole: value,
        fraction,
    };
    let exp: u32 = match unit.to_ascii_lowercase().as_str() {
        "" | "ns" | "nsec" => return Ok((parsed(value), None)),
        "us" | "usec" => 3,
        "ms" | "msec" => 6,
        "s" | "sec" => 9,
        "m" | "min" => return Ok((parsed(minutes(value, decimal, decimal_places)), None)),
        _ => return Ok((parsed(value), Some(unit.to_owned()))),
    };
    let mut ns = value.saturating_mul(10u64.pow(exp));
    if decimal != 0 {
        decimal_places += digit_count(decimal);
        for _ in decimal_places..exp {
            decimal = decimal.saturating_mul(10);
        }
        ns = ns.saturating_add(decimal);
    }
    Ok((parsed(ns), None))
}

/// uftrace's `parse_min`: whole minutes plus tenths (seconds) or hundredths
/// and thousandths (milliseconds) of a minute.
fn minutes(value: u64, decimal: u64, decimal_places: u32) -> u64 {
    let mut ns = value.saturating_mul(60 * NS_PER_SEC);
    if decimal != 0 {
        let places = decimal_places + digit_count(decimal);
        let decimal = decimal * 6;
        ns += match places {
            1 => decimal * NS_PER_SEC,
            2 => decimal * 100 * 1_000_000,
            3 => decimal * 10 * 1_000_000,
            _ => 0,
        };
    }
    ns
}

/// uftrace's `parse_timestamp`: `sec.fraction`, the fraction scaled to
/// nanoseconds.
pub fn parse_timestamp(text: &str) -> ParsedTime {
    let (secs, rest) = leading_number(text.trim());
    let mut ns = secs.saturating_mul(NS_PER_SEC);
    let fraction = rest.starts_with('.');
    if let Some(after) = rest.strip_prefix('.') {
        let len = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (mut frac, _) = leading_number(&after[..len]);
        let mut len = len;
        while len < 9 {
            frac = frac.saturating_mul(10);
            len += 1;
        }
        while len > 9 {
            frac /= 10;
            len -= 1;
        }
        ns = ns.saturating_add(frac);
    }
    ParsedTime {
        ns,
        with_unit: false,
        whole: secs,
        fraction,
    }
}

/// uftrace's `parse_time_range`: `None` when there is no `~` (uftrace then
/// says "invalid time range" and ignores the option).
pub fn parse_time_range(text: &str) -> Result<Option<TimeRange>, String> {
    let Some((start, stop)) = text.split_once('~') else {
        return Ok(None);
    };
    let end = |s: &str| -> Result<RangeEnd, String> {
        if s.is_empty() {
            return Ok(RangeEnd::default());
        }
        let value = if s.ends_with(|c: char| c.is_ascii_alphabetic()) {
            let (t, _) = parse_time(s)?;
            t
        } else {
            parse_timestamp(s)
        };
        Ok(RangeEnd { value: Some(value) })
    };
    Ok(Some(TimeRange {
        start: end(start)?,
        stop: end(stop)?,
    }))
}

/// A time read in nanoseconds, in the trace's unit; `Err` for a time with a
/// unit (or a fraction) in a trace that counts events.
pub fn to_unit(t: ParsedTime, unit: Option<TimeUnit>, option: &str) -> Result<i64, String> {
    let clamp = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    match unit {
        Some(TimeUnit::Events) => {
            if t.with_unit || t.fraction {
                Err(format!(
                    "{option}: this trace counts events, not time; give a whole number of events"
                ))
            } else {
                Ok(clamp(t.whole))
            }
        }
        Some(TimeUnit::Us) => Ok(clamp(t.ns / 1000)),
        _ => Ok(clamp(t.ns)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ns(text: &str) -> u64 {
        parse_time(text).unwrap().0.ns
    }

    #[test]
    fn times_read_as_uftrace_reads_them() {
        assert_eq!(ns("10us"), 10_000);
        assert_eq!(ns("10"), 10);
        assert_eq!(ns("1.5us"), 1_500);
        assert_eq!(ns("1.05ms"), 1_050_000);
        assert_eq!(ns("1.2345us"), 1_234);
        assert_eq!(ns("2S"), 2_000_000_000);
        assert_eq!(ns("1.5m"), 90_000_000_000);
        assert!(parse_time("1000us")
            .unwrap_err()
            .contains("Limited 3 digits"));
        assert_eq!(parse_time("5xs").unwrap().1.as_deref(), Some("xs"));
    }

    #[test]
    fn ranges_take_timestamps_or_elapsed_times() {
        let r = parse_time_range("266.5~1.5ms").unwrap().unwrap();
        assert_eq!(r.start.value.unwrap().ns, 266_500_000_000);
        assert!(!r.start.value.unwrap().with_unit);
        assert_eq!(r.stop.value.unwrap().ns, 1_500_000);
        assert!(r.stop.value.unwrap().with_unit);
        let open = parse_time_range("~9us").unwrap().unwrap();
        assert_eq!(open.start, RangeEnd::default());
        assert_eq!(parse_time_range("9us").unwrap(), None);
    }

    #[test]
    fn event_traces_take_bare_counts_only() {
        let (t, _) = parse_time("40").unwrap();
        assert_eq!(to_unit(t, Some(TimeUnit::Events), "-t"), Ok(40));
        let (t, _) = parse_time("4us").unwrap();
        assert!(to_unit(t, Some(TimeUnit::Events), "-t").is_err());
        assert_eq!(to_unit(t, Some(TimeUnit::Us), "-t"), Ok(4));
    }
}
