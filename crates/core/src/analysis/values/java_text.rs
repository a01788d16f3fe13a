//! Numbers as Java's `Float.toString` / `Double.toString` write them
//! (SELogger's LogPrinter prints float and double values with them):
//! the shortest digits that read back to the same value, plain between
//! 10^-3 and 10^7 (`12.5`, `0.001`), else `d.dddE±n` (`1.0E10`, `1.5E-4`),
//! always with a digit after the point; `NaN`, `Infinity`, `-0.0`.

use std::fmt::Write;

/// `Double.toString(value)`.
pub fn write_double(out: &mut String, value: f64) {
    // Java's digit search stops one digit late at the smallest subnormal.
    let smallest = value.abs() == f64::from_bits(1);
    write_java(
        out,
        value,
        smallest.then_some("4.9e-324"),
        &format!("{value:e}"),
    );
}

/// `Float.toString(value)`.
pub fn write_float(out: &mut String, value: f32) {
    let smallest = value.abs() == f32::from_bits(1);
    write_java(
        out,
        f64::from(value),
        smallest.then_some("1.4e-45"),
        &format!("{value:e}"),
    );
}

/// Lays out Rust's shortest scientific digits (`3.25e-4`) of `value` the
/// Java way; `java_digits` replaces them where Java's differ.
fn write_java(out: &mut String, value: f64, java_digits: Option<&str>, scientific: &str) {
    let (nan, infinite, negative) = (
        value.is_nan(),
        value.is_infinite(),
        value.is_sign_negative(),
    );
    let scientific = java_digits.unwrap_or(scientific.trim_start_matches('-'));
    if nan {
        out.push_str("NaN");
        return;
    }
    if negative {
        out.push('-');
    }
    if infinite {
        out.push_str("Infinity");
        return;
    }
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if digits.bytes().all(|d| d == b'0') {
        out.push_str("0.0");
        return;
    }
    if (-3..7).contains(&exponent) {
        if exponent >= 0 {
            let whole = exponent as usize + 1;
            let (int, frac) = digits.split_at(whole.min(digits.len()));
            out.push_str(int);
            (int.len()..whole).for_each(|_| out.push('0'));
            out.push('.');
            out.push_str(if frac.is_empty() { "0" } else { frac });
        } else {
            out.push_str("0.");
            (1..-exponent).for_each(|_| out.push('0'));
            out.push_str(&digits);
        }
    } else {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        out.push('.');
        out.push_str(if rest.is_empty() { "0" } else { rest });
        let _ = write!(out, "E{exponent}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(v: f64) -> String {
        let mut out = String::new();
        write_double(&mut out, v);
        out
    }

    fn float(v: f32) -> String {
        let mut out = String::new();
        write_float(&mut out, v);
        out
    }

    #[test]
    fn doubles_as_java_writes_them() {
        assert_eq!(double(-1.5), "-1.5");
        assert_eq!(double(std::f64::consts::PI), "3.141592653589793");
        assert_eq!(double(1e10), "1.0E10");
        assert_eq!(double(1e7), "1.0E7");
        assert_eq!(double(9999999.0), "9999999.0");
        assert_eq!(double(0.001), "0.001");
        assert_eq!(double(0.00015), "1.5E-4");
        assert_eq!(double(100.0), "100.0");
        assert_eq!(double(0.0), "0.0");
        assert_eq!(double(-0.0), "-0.0");
        assert_eq!(double(f64::NAN), "NaN");
        assert_eq!(double(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(double(f64::MIN_POSITIVE * f64::EPSILON), "4.9E-324");
        assert_eq!(double(1.0e-300), "1.0E-300");
    }

    #[test]
    fn floats_as_java_writes_them() {
        assert_eq!(float(2.5), "2.5");
        assert_eq!(float(0.1), "0.1");
        assert_eq!(float(1.0e20), "1.0E20");
        assert_eq!(float(f32::INFINITY), "Infinity");
    }
}
