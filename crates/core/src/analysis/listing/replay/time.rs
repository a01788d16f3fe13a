//! The time formats of `uftrace replay`'s columns, written straight into the
//! row's text (no allocation): a duration in the unit that keeps it under
//! 1000 (`  1.612 us`, ` 10.571 ms`, `  2.000  s`), blank for zero, and a
//! timestamp as seconds with nine decimals.

use std::fmt::Write;

/// Appends `ns` as uftrace's `print_time_unit` does: ten characters,
/// `%3u.%03u` and the unit, or ten blanks for zero.
pub(super) fn write_duration(out: &mut String, ns: u64) {
    if ns == 0 {
        out.push_str("          ");
        return;
    }
    const UNITS: [&str; 5] = ["us", "ms", " s", " m", " h"];
    const LIMIT: [u64; 6] = [1000, 1000, 1000, 60, 24, i32::MAX as u64];
    let mut whole = ns;
    let mut fraction = 0;
    let mut unit = 0;
    while unit < UNITS.len() {
        fraction = whole % LIMIT[unit];
        whole /= LIMIT[unit];
        if whole < LIMIT[unit + 1] {
            break;
        }
        unit += 1;
    }
    let unit = unit.min(UNITS.len() - 1);
    if whole > 999 {
        whole = 999;
        fraction = 999;
    }
    // `%3u.%03u`, by hand: this runs for most rows.
    let digits = [whole / 100, whole / 10 % 10, whole % 10];
    let lead = if whole >= 100 {
        0
    } else if whole >= 10 {
        1
    } else {
        2
    };
    for (at, digit) in digits.iter().enumerate() {
        out.push(if at < lead {
            ' '
        } else {
            char::from(b'0' + *digit as u8)
        });
    }
    out.push('.');
    for digit in [fraction / 100, fraction / 10 % 10, fraction % 10] {
        out.push(char::from(b'0' + digit as u8));
    }
    out.push(' ');
    out.push_str(UNITS[unit]);
}

/// Appends `ns` as seconds and nanoseconds (`%8u.%09u`).
pub(super) fn write_timestamp(out: &mut String, ns: u64) {
    let _ = write!(out, "{:8}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duration(ns: u64) -> String {
        let mut out = String::new();
        write_duration(&mut out, ns);
        out
    }

    #[test]
    fn durations_take_the_unit_uftrace_prints() {
        assert_eq!(duration(0), "          ");
        assert_eq!(duration(5), "  0.005 us");
        assert_eq!(duration(12_345), " 12.345 us");
        assert_eq!(duration(1612), "  1.612 us");
        assert_eq!(duration(999_999), "999.999 us");
        assert_eq!(duration(10_571_743), " 10.571 ms");
        assert_eq!(duration(2_000_000_000), "  2.000  s");
        assert_eq!(duration(61_000_000_000), "  1.001  m");
    }

    #[test]
    fn timestamps_have_nine_decimals() {
        let mut out = String::new();
        write_timestamp(&mut out, 228_861_423_185);
        assert_eq!(out, "     228.861423185");
    }
}
