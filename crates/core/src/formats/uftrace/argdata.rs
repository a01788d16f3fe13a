//! Argument and return-value bytes: how many bytes a spec list takes after a
//! record, and how each value is shown (the way `uftrace replay` shows it).

use super::argspec::{ArgFormat, ArgSpec};

/// One stored value, still raw.
#[derive(Clone, Debug, PartialEq)]
pub enum RawValue {
    /// Up to 16 bytes, zero-extended.
    Bytes { bytes: [u8; 16], len: usize },
    /// A string's bytes (no NUL).
    Text(Vec<u8>),
}

/// Splits an argument block into values. Returns the block's size (padded to
/// 8) and the values, or `None` when `data` is too short to hold it.
pub fn split_block(
    data: &[u8],
    specs: &[ArgSpec],
    big_endian: bool,
) -> Option<(usize, Vec<RawValue>)> {
    let mut at = 0usize;
    let mut values = Vec::with_capacity(specs.len());
    for spec in specs {
        match spec.format {
            ArgFormat::Str | ArgFormat::StdString => {
                let raw: [u8; 2] = data.get(at..at + 2)?.try_into().ok()?;
                let len = usize::from(if big_endian {
                    u16::from_be_bytes(raw)
                } else {
                    u16::from_le_bytes(raw)
                });
                let text = data.get(at + 2..at + 2 + len)?;
                values.push(RawValue::Text(text.to_vec()));
                at += align(2 + len, 4);
            }
            _ => {
                let size = usize::from(spec.size);
                let stored = data.get(at..at + size)?;
                let mut bytes = [0u8; 16];
                let keep = size.min(16);
                if big_endian && size <= 8 {
                    // Keep the value's low bytes first, as on little-endian.
                    for (slot, b) in bytes.iter_mut().zip(stored.iter().rev()) {
                        *slot = *b;
                    }
                } else {
                    for (slot, b) in bytes.iter_mut().zip(stored).take(keep) {
                        *slot = *b;
                    }
                }
                values.push(RawValue::Bytes { bytes, len: size });
                at += align(size, 4);
            }
        }
    }
    let total = align(at, 8);
    (data.len() >= total).then_some((total, values))
}

fn align(n: usize, to: usize) -> usize {
    n.div_ceil(to) * to
}

/// What formatting needs from the rest of the decoder.
pub trait ValueContext {
    /// The symbol at a pointer value, for `&name`.
    fn symbol_at(&mut self, addr: u64) -> Option<String>;
    /// The definition text of enum `name` (`enum name { A, B = 4, }`).
    fn enum_definition(&self, name: &str) -> Option<String>;
}

/// Shows one value.
pub fn format_value(value: &RawValue, spec: &ArgSpec, cx: &mut dyn ValueContext) -> String {
    let (bytes, len) = match value {
        RawValue::Text(text) => return format_string(text, spec.format == ArgFormat::StdString),
        RawValue::Bytes { bytes, len } => (bytes, *len),
    };
    let mut low = [0u8; 8];
    low.copy_from_slice(&bytes[..8]);
    let v = u64::from_le_bytes(low);
    let signed = sign_extend(v, len);
    match &spec.format {
        ArgFormat::Auto | ArgFormat::Signed => format_auto(v, signed, len),
        ArgFormat::Int => signed.to_string(),
        ArgFormat::Unsigned if v > 100_000 => format!("{v:#x}"),
        ArgFormat::Unsigned => v.to_string(),
        ArgFormat::Hex if v == 0 => "0".into(),
        ArgFormat::Hex => format!("{v:#x}"),
        ArgFormat::Char => format_char(bytes[0]),
        ArgFormat::Float => format_float(bytes, len),
        ArgFormat::Pointer if v == 0 => "0".into(),
        ArgFormat::Pointer => cx
            .symbol_at(v)
            .map_or_else(|| format!("{v:#x}"), |s| format!("&{s}")),
        ArgFormat::Enum(name) => match cx.enum_definition(name) {
            Some(def) => format_enum(&def, signed),
            None => signed.to_string(),
        },
        ArgFormat::Struct(name) => {
            let body = if len > 0 { "{...}" } else { "{}" };
            match name {
                Some(n) if !n.starts_with("<lambda") => format!("{n}{body}"),
                _ => body.into(),
            }
        }
        ArgFormat::Str | ArgFormat::StdString => String::new(),
    }
}

fn sign_extend(v: u64, len: usize) -> i64 {
    match len {
        1 => v as u8 as i8 as i64,
        2 => v as u16 as i16 as i64,
        4 => v as u32 as i32 as i64,
        _ => v as i64,
    }
}

/// Decimal, or hex beyond ±100000; a 64-bit value that is a small negative
/// 32-bit number stored zero-extended prints as that number.
fn format_auto(v: u64, signed: i64, len: usize) -> String {
    if len <= 2 {
        return signed.to_string();
    }
    if len == 8 && v > 0xffff_0000 && v <= 0xffff_ffff {
        return (v as u32 as i32).to_string();
    }
    if !(-100_000..=100_000).contains(&signed) {
        let shown = if len == 4 { v & 0xffff_ffff } else { v };
        return format!("{shown:#x}");
    }
    signed.to_string()
}

fn format_char(c: u8) -> String {
    match c {
        0 => "'\\0'".into(),
        8 => "'\\b'".into(),
        b'\n' => "'\\n'".into(),
        c => format!("'{}'", c as char),
    }
}

fn format_string(text: &[u8], std_string: bool) -> String {
    if text == [0xff, 0xff, 0xff, 0xff] {
        return "NULL".into();
    }
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in String::from_utf8_lossy(text).chars() {
        match ch {
            '\u{8}' => out.push_str("\\b"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    if std_string {
        out.push('s');
    }
    out
}

fn format_float(bytes: &[u8; 16], len: usize) -> String {
    let value = match len {
        4 => f64::from(f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
        10 => x87_to_f64(bytes),
        _ => {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[..8]);
            f64::from_le_bytes(b)
        }
    };
    format!("{value:.6}")
}

/// An 80-bit x87 extended float (64-bit mantissa, 15-bit exponent) as f64.
fn x87_to_f64(bytes: &[u8; 16]) -> f64 {
    let mut m = [0u8; 8];
    m.copy_from_slice(&bytes[..8]);
    let mantissa = u64::from_le_bytes(m);
    let se = u16::from_le_bytes([bytes[8], bytes[9]]);
    let sign = if se & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from(se & 0x7fff);
    if exponent == 0 && mantissa == 0 {
        return 0.0 * sign;
    }
    if exponent == 0x7fff {
        return if mantissa << 1 == 0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        };
    }
    sign * (mantissa as f64) * 2f64.powi(exponent - 16383 - 63)
}

/// Names for an enum value: an exact member, else members OR-ed together
/// from the largest down, with any rest added as `+0x…`.
fn format_enum(definition: &str, value: i64) -> String {
    let mut members = parse_enum(definition);
    members.sort_by_key(|m| std::cmp::Reverse(m.1));
    if let Some((name, _)) = members.iter().find(|(_, v)| *v == value) {
        return name.clone();
    }
    let mut rest = value;
    let mut names = Vec::new();
    for (name, v) in &members {
        if rest == 0 {
            break;
        }
        if *v <= rest && *v > 0 {
            names.push(name.as_str());
            rest -= v;
        }
    }
    if names.is_empty() {
        return if value.unsigned_abs() > 100_000 {
            format!("{value:#x}")
        } else {
            value.to_string()
        };
    }
    let mut out = names.join("|");
    if rest != 0 {
        out.push_str(&format!("+{rest:#x}"));
    }
    out
}

/// `enum name { A, B = 4, C }` → members with values (C = 5).
fn parse_enum(definition: &str) -> Vec<(String, i64)> {
    let body = definition
        .split_once('{')
        .map_or("", |(_, b)| b.split('}').next().unwrap_or(""));
    let mut next = 0i64;
    let mut out = Vec::new();
    for item in body.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (name, value) = match item.split_once('=') {
            Some((n, v)) => (n.trim(), parse_c_int(v.trim()).unwrap_or(next)),
            None => (item, next),
        };
        out.push((name.to_owned(), value));
        next = value.wrapping_add(1);
    }
    out
}

/// A C integer literal: `0x1f`, `017` (octal), `42`, `-3`.
fn parse_c_int(text: &str) -> Option<i64> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    let v = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        i64::from_str_radix(hex, 16).ok()?
    } else if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8).ok()?
    } else {
        digits.parse().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Finds `enum <name> {…};` among definition strings (`enumauto:`, `.dbg` `E:`).
pub fn find_enum<'a>(sources: impl Iterator<Item = &'a str>, name: &str) -> Option<String> {
    let needle = format!("enum {name} ");
    let needle_brace = format!("enum {name}{{");
    for source in sources {
        for def in source.split(';') {
            let def = def.trim();
            if def.starts_with(&needle) || def.starts_with(&needle_brace) {
                return Some(def.to_owned());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::argspec::parse_specs;
    use super::*;

    struct Cx;
    impl ValueContext for Cx {
        fn symbol_at(&mut self, addr: u64) -> Option<String> {
            (addr == 0x1000).then(|| "add_int".into())
        }
        fn enum_definition(&self, _: &str) -> Option<String> {
            Some("enum uft_mmap_prot { PROT_NONE, PROT_READ, PROT_WRITE, PROT_EXEC = 4, }".into())
        }
    }

    fn show(data: &[u8], spec: &str) -> (usize, Vec<String>) {
        let specs = parse_specs(spec, true);
        let mut data = data.to_vec();
        data.resize(data.len().div_ceil(8) * 8, 0);
        let (size, values) = split_block(&data, &specs, false).expect("complete");
        (
            size,
            values
                .iter()
                .zip(&specs)
                .map(|(v, s)| format_value(v, s, &mut Cx))
                .collect(),
        )
    }

    #[test]
    fn the_fixture_examples_show_as_replay_shows_them() {
        let mut greet = vec![7, 0];
        greet.extend_from_slice(b"uftrace");
        greet.extend_from_slice(&[0, 0, 0]);
        greet.extend_from_slice(&[b'!', 0, 0, 0]);
        assert_eq!(
            show(&greet, "arg1/s,arg2/c"),
            (16, vec!["\"uftrace\"".into(), "'!'".into()])
        );
        let mut scale = 1.5f64.to_le_bytes().to_vec();
        scale.extend_from_slice(&2.25f32.to_le_bytes());
        scale.extend_from_slice(&3i32.to_le_bytes());
        assert_eq!(
            show(&scale, "fparg1,fparg2/32,arg1/i32"),
            (16, vec!["1.500000".into(), "2.250000".into(), "3".into()])
        );
        let mut mul = 3u64.to_le_bytes().to_vec();
        mul.extend_from_slice(&0x3b9a_ca07u64.to_le_bytes());
        mul.extend_from_slice(&(-2i64).to_le_bytes());
        assert_eq!(
            show(&mul, "arg1,arg2,arg3").1,
            vec!["3", "0x3b9aca07", "-2"]
        );
        assert_eq!(show(&0xffff_fffbu64.to_le_bytes(), "arg1").1, vec!["-5"]);
        assert_eq!(show(&0x1000u64.to_le_bytes(), "arg1/p").1, vec!["&add_int"]);
        assert_eq!(show(&0x7fffu64.to_le_bytes(), "arg1/p").1, vec!["0x7fff"]);
        assert_eq!(
            show(&0xdead_acdbu64.to_le_bytes(), "retval").1,
            vec!["0xdeadacdb"]
        );
    }

    #[test]
    fn short_data_is_not_a_block() {
        let specs = parse_specs("arg1/s", true);
        assert!(split_block(&[9, 0, b'a'], &specs, false).is_none());
        assert!(split_block(&[1, 0], &specs, false).is_none());
    }

    #[test]
    fn enums_and_odd_values() {
        assert_eq!(
            show(&3u32.to_le_bytes(), "arg1/e:uft_mmap_prot").1,
            vec!["PROT_WRITE|PROT_READ"]
        );
        assert_eq!(
            show(&4u32.to_le_bytes(), "arg1/e:uft_mmap_prot").1,
            vec!["PROT_EXEC"]
        );
        assert_eq!(
            show(&[4, 0, 0xff, 0xff, 0xff, 0xff, 0, 0], "arg1/s").1,
            vec!["NULL"]
        );
        assert_eq!(show(&[0, 0, 0, 0], "arg1/x").1, vec!["0"]);
        assert_eq!(parse_c_int("0100"), Some(64));
    }
}
