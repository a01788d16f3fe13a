//! The Memory view's filter inputs as text, read into the core's
//! [`MemoryFilter`] the way `sp-rtrace-timeline` takes its options:
//! `--filter-size=a-b` (also `a-`, `-b`, `a`; `k` / `m` suffixes are
//! 1024 and 1024² for sizes, 1000 and 1000² for indices, as `flamedrop
//! memory` reads them), `--filter-index=a-b`, `--filter-time=a-b` (here
//! measured from the trace's start, in its unit), a context mask (`0x3` or
//! `3`) and the name of a function the backtrace passes through.

use flamedrop_core::analysis::memory::MemoryFilter;

/// One filter input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Size,
    Index,
    Time,
    Context,
    Through,
}

/// Reads a number with an optional `k` / `m` suffix (`kilo` of them).
fn number(text: &str, kilo: u64) -> Option<u64> {
    let t = text.trim();
    let (digits, scale) = match t.chars().last()? {
        'k' | 'K' => (&t[..t.len() - 1], kilo),
        'm' | 'M' => (&t[..t.len() - 1], kilo * kilo),
        _ => (t, 1),
    };
    digits.trim().parse::<u64>().ok()?.checked_mul(scale)
}

/// Reads `a-b`, `a-`, `-b` or `a` into inclusive bounds (`k` = `kilo`);
/// `None` for an empty text, `Err` for one that does not read.
pub fn bounds(text: &str, kilo: u64) -> Result<Option<(u64, u64)>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let bad = || format!("“{t}” is not a range: write a-b, a-, -b or a");
    let (lo, hi) = match t.split_once('-') {
        Some((a, b)) => (
            if a.trim().is_empty() {
                0
            } else {
                number(a, kilo).ok_or_else(bad)?
            },
            if b.trim().is_empty() {
                u64::MAX
            } else {
                number(b, kilo).ok_or_else(bad)?
            },
        ),
        None => {
            let n = number(t, kilo).ok_or_else(bad)?;
            (n, n)
        }
    };
    if lo > hi {
        return Err(bad());
    }
    Ok(Some((lo, hi)))
}

/// Reads a context mask: `0x…` hexadecimal or decimal.
pub fn mask(text: &str) -> Result<Option<u32>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let read = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    };
    read.map(Some)
        .ok_or_else(|| format!("“{t}” is not a context mask (0x3 or 3)"))
}

/// `filter` with `field` set from `text`; times are offsets from `origin`.
pub fn apply(
    filter: &MemoryFilter,
    field: Field,
    text: &str,
    origin: i64,
) -> Result<MemoryFilter, String> {
    let mut out = filter.clone();
    match field {
        Field::Size => out.size = bounds(text, 1024)?,
        Field::Index => out.index = bounds(text, 1000)?,
        Field::Time => {
            out.time = bounds(text, 1000)?.map(|(a, b)| {
                let at = |v: u64| origin.saturating_add(i64::try_from(v).unwrap_or(i64::MAX));
                (at(a), at(b))
            })
        }
        Field::Context => out.context = mask(text)?,
        Field::Through => {
            let t = text.trim();
            out.through = (!t.is_empty()).then(|| t.to_owned());
        }
    }
    Ok(out)
}

/// The text an input shows for `field` of `filter` (what [`apply`] reads back).
pub fn text_of(filter: &MemoryFilter, field: Field, origin: i64) -> String {
    let range = |b: Option<(u64, u64)>| match b {
        None => String::new(),
        Some((a, b)) if a == b => a.to_string(),
        Some((a, u64::MAX)) => format!("{a}-"),
        Some((a, b)) => format!("{a}-{b}"),
    };
    match field {
        Field::Size => range(filter.size),
        Field::Index => range(filter.index),
        Field::Time => range(filter.time.map(|(a, b)| {
            let off = |v: i64| u64::try_from(v.saturating_sub(origin)).unwrap_or(0);
            (off(a), if b == i64::MAX { u64::MAX } else { off(b) })
        })),
        Field::Context => filter.context.map_or(String::new(), |m| format!("0x{m:x}")),
        Field::Through => filter.through.clone().unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_like_the_timeline_options() {
        assert_eq!(bounds("16-1k", 1024), Ok(Some((16, 1024))));
        assert_eq!(bounds("2k-", 1000), Ok(Some((2000, u64::MAX))));
        assert_eq!(bounds(" 100- ", 1024), Ok(Some((100, u64::MAX))));
        assert_eq!(bounds("-2M", 1024), Ok(Some((0, 2 * 1024 * 1024))));
        assert_eq!(bounds("42", 1024), Ok(Some((42, 42))));
        assert_eq!(bounds("", 1024), Ok(None));
        assert!(bounds("9-3", 1024).is_err());
        assert!(bounds("x", 1024).is_err());
    }

    #[test]
    fn masks_read_hex_or_decimal() {
        assert_eq!(mask("0x3"), Ok(Some(3)));
        assert_eq!(mask("12"), Ok(Some(12)));
        assert_eq!(mask("0"), Ok(Some(0)));
        assert_eq!(mask(""), Ok(None));
        assert!(mask("0xzz").is_err());
    }

    #[test]
    fn fields_round_trip_through_their_text() {
        let origin = 1000;
        let mut f = MemoryFilter::default();
        for (field, text) in [
            (Field::Size, "8-64"),
            (Field::Index, "3-"),
            (Field::Time, "10-20"),
            (Field::Context, "0x5"),
            (Field::Through, "main"),
        ] {
            f = apply(&f, field, text, origin).expect("reads");
            assert_eq!(text_of(&f, field, origin), text);
        }
        assert_eq!(f.time, Some((1010, 1020)));
        assert_eq!(f.context, Some(5));
        assert_eq!(f.through.as_deref(), Some("main"));
        let cleared = apply(&f, Field::Through, " ", origin).expect("reads");
        assert_eq!(cleared.through, None);
    }
}
