//! The compact per-event columns of an [`EventLog`](super::EventLog): a
//! number that is nearly always small is kept in the narrow type and moved
//! to a wide one only when one does not fit, so a recording's 16-byte
//! records take 8 bytes an event in memory and on the wire.
//!
//! Thread and data id columns come in pairs (`u16`, `u32`): the narrow one
//! holds every event until a number past `u16::MAX` arrives; then every
//! event moves to the wide one, which holds them from there on. At most
//! one of the two is filled. Values are kept as their low 32 bits when
//! they fit an `i32`; the others (and `i32::MIN`, the mark) are listed
//! with their event in a side table, ascending, looked up by binary search
//! only for events whose low bits are the mark.

/// The low-bits entry of a value kept in the side table.
pub const WIDE_MARK: i32 = i32::MIN;

/// Entry `at` of a (narrow, wide) pair.
pub fn get(narrow: &[u16], wide: &[u32], at: usize) -> Option<u32> {
    if wide.is_empty() {
        narrow.get(at).map(|&n| u32::from(n))
    } else {
        wide.get(at).copied()
    }
}

/// Appends `value` to a (narrow, wide) pair, widening it first when
/// `value` does not fit the narrow column.
/// Inlined: it runs for every event of a recording, and nearly always
/// only pushes onto the narrow column.
#[inline]
pub fn push(narrow: &mut Vec<u16>, wide: &mut Vec<u32>, value: u32) {
    if !wide.is_empty() {
        wide.push(value);
        return;
    }
    match u16::try_from(value) {
        Ok(small) => narrow.push(small),
        Err(_) => widen(narrow, wide, value),
    }
}

/// Moves a narrow column to the wide one and appends `value` (once per
/// column at most, so kept out of line).
#[cold]
#[inline(never)]
fn widen(narrow: &mut Vec<u16>, wide: &mut Vec<u32>, value: u32) {
    // Whatever room the narrow column had reserved is wanted again,
    // twice over, by the wide one.
    let rest = narrow.capacity().saturating_sub(narrow.len());
    let mut all = Vec::new();
    let _ = all.try_reserve_exact(narrow.len() + rest.max(1));
    all.extend(narrow.iter().map(|&n| u32::from(n)));
    all.push(value);
    *narrow = Vec::new();
    *wide = all;
}

/// Every entry of a (narrow, wide) pair, in order.
pub fn iter<'a>(narrow: &'a [u16], wide: &'a [u32]) -> impl Iterator<Item = u32> + 'a {
    // At most one is filled, so the chain is the filled one.
    narrow
        .iter()
        .map(|&n| u32::from(n))
        .chain(wide.iter().copied())
}

/// A value's low-bits entry: the value itself when it fits an `i32` (and is
/// not the mark), else the mark.
pub fn low_bits(value: i64) -> u32 {
    match i32::try_from(value) {
        Ok(small) if small != WIDE_MARK => small as u32,
        _ => WIDE_MARK as u32,
    }
}

/// The value of event `at` from its low-bits entry and the side table.
pub fn value(low: u32, wide_event: &[u64], wide_value: &[i64], at: usize) -> Option<i64> {
    let small = low as i32;
    if small != WIDE_MARK {
        return Some(i64::from(small));
    }
    let index = wide_event.binary_search(&(at as u64)).ok()?;
    wide_value.get(index).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_widens_once_and_keeps_every_entry() {
        let (mut narrow, mut wide) = (Vec::new(), Vec::new());
        push(&mut narrow, &mut wide, 3);
        push(&mut narrow, &mut wide, 65_535);
        assert!(wide.is_empty());
        push(&mut narrow, &mut wide, 70_000);
        push(&mut narrow, &mut wide, 1);
        assert!(narrow.is_empty());
        assert_eq!(
            iter(&narrow, &wide).collect::<Vec<_>>(),
            [3, 65_535, 70_000, 1]
        );
        assert_eq!(get(&narrow, &wide, 2), Some(70_000));
        assert_eq!(get(&narrow, &wide, 4), None);
    }

    #[test]
    fn values_past_an_int_and_the_mark_go_to_the_side_table() {
        assert_eq!(low_bits(-5) as i32, -5);
        assert_eq!(low_bits(i64::from(i32::MIN)) as i32, WIDE_MARK);
        assert_eq!(low_bits(1 << 40) as i32, WIDE_MARK);
        assert_eq!(value(low_bits(-5), &[], &[], 0), Some(-5));
        assert_eq!(value(WIDE_MARK as u32, &[4], &[1 << 40], 4), Some(1 << 40));
        assert_eq!(value(WIDE_MARK as u32, &[4], &[1 << 40], 3), None);
    }
}
