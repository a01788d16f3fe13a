//! Putting a trace back together from parts decoded side by side (one per
//! worker, see [`crate::input::Decoder::keep_part`]).
//!
//! Every part of one input has the same processes and threads, in the same
//! order, because each part reads the same metadata; each thread's data comes
//! from exactly one part. Parts intern names independently, so the names of a
//! part's spans and markers are mapped into the whole trace's string table.

use super::columns::{ColumnInfo, ColumnMut};
use super::{Details, Diagnostic, StrId, StringTable, Thread, Trace};

/// Moves the threads that `part` decoded into `whole`, mapping their names,
/// and folds its diagnostics in. Fails, leaving `whole` unusable for display,
/// when the two do not come from one input split by one decoder.
///
/// The page does the same in steps, so that no step holds it up for long:
/// [`part_names`], then [`map_names`] over slices of the part's columns (as it
/// copies them in) and [`map_detail_texts`] over ranges of detail groups,
/// then [`move_threads`].
pub fn merge_part(whole: &mut Trace, mut part: Trace) -> Result<(), String> {
    let names = part_names(whole, &part)?;
    for thread in &mut part.threads {
        thread.visit_columns_mut(&mut |info: ColumnInfo, column: ColumnMut<'_>| {
            if let (true, ColumnMut::U32(ids)) = (info.names, column) {
                map_names(ids, &names);
            }
        });
        for details in thread.details_mut() {
            map_details(details, &names);
        }
    }
    move_threads(whole, part)
}

/// Checks that `part` belongs with `whole` and interns the part's strings
/// into the whole trace's table: the whole trace's id for each of the part's
/// ids, for [`map_names`] and [`map_detail_texts`].
pub fn part_names(whole: &mut Trace, part: &Trace) -> Result<Vec<StrId>, String> {
    check_same_input(whole, part)?;
    Ok(intern_part_strings(whole, &part.strings))
}

/// The second half of [`part_names`], for a caller that checked the part
/// with [`check_same_input`] before its strings arrived: interns a part's
/// string table into the whole trace's.
pub fn intern_part_strings(whole: &mut Trace, strings: &StringTable) -> Vec<StrId> {
    strings
        .all()
        .iter()
        .map(|s| whole.strings.intern(s))
        .collect()
}

/// Maps string ids of a part (its name columns: `ColumnInfo::names`) through
/// `names`. Ids come from the part's own table; an unknown one stays unknown.
pub fn map_names(ids: &mut [StrId], names: &[StrId]) {
    for id in ids {
        *id = names.get(*id as usize).copied().unwrap_or(StrId::MAX);
    }
}

/// Maps the string ids of detail fields through `names`: with `groups`
/// `None`, the keys and number prefixes of the shapes; else the text values
/// of those groups (numbers are never touched, whatever their kind). The page
/// calls it once for the shapes, then over ranges of groups.
pub fn map_detail_texts(
    details: &mut Details,
    groups: Option<std::ops::Range<usize>>,
    names: &[StrId],
) {
    let map = |id: StrId| names.get(id as usize).copied().unwrap_or(StrId::MAX);
    match groups {
        None => details.map_shape_texts(map),
        Some(groups) => details.map_payload_texts(groups, map),
    }
}

/// Moves the threads that `part` decoded into `whole`, whose names are
/// already mapped into `whole`'s string table, and folds its diagnostics in.
pub fn move_threads(whole: &mut Trace, part: Trace) -> Result<(), String> {
    check_same_input(whole, &part)?;
    for (into, from) in whole.threads.iter_mut().zip(part.threads) {
        if !has_data(&from) {
            continue;
        }
        if has_data(into) {
            return Err(format!("thread {} was decoded by two parts", from.id));
        }
        into.events = from.events;
        into.spans = from.spans;
        into.instants = from.instants;
        into.addresses = from.addresses;
        into.first_time = from.first_time;
        into.last_time = from.last_time;
    }
    for diagnostic in part.diagnostics {
        fold(&mut whole.diagnostics, diagnostic);
    }
    Ok(())
}

/// Maps the string ids inside detail fields (keys, texts) through `names`.
fn map_details(details: &mut Details, names: &[StrId]) {
    map_detail_texts(details, None, names);
    map_detail_texts(details, Some(0..details.groups()), names);
}

/// Fails when `part` and `whole` do not come from one input split by one
/// decoder, or `part` holds trace-level data (which is never split).
pub fn check_same_input(whole: &Trace, part: &Trace) -> Result<(), String> {
    let same_threads = whole.threads.len() == part.threads.len()
        && whole
            .threads
            .iter()
            .zip(&part.threads)
            .all(|(a, b)| a.id == b.id && a.process == b.process);
    if whole.format != part.format || whole.time_unit != part.time_unit || !same_threads {
        return Err("the parts of the trace do not belong together".into());
    }
    // Trace-level data is not split between parts; a decoder that splits must
    // leave it to part 0.
    let trace_level = !part.stacks.is_empty()
        || !part.sample_sets.is_empty()
        || !part.allocations.is_empty()
        || !part.counters.is_empty()
        || !part.tables.is_empty()
        || !part.event_log.is_empty();
    if trace_level {
        return Err("a part of the trace holds data that cannot be merged".into());
    }
    Ok(())
}

fn has_data(thread: &Thread) -> bool {
    thread.events > 0
        || !thread.spans.is_empty()
        || !thread.instants.is_empty()
        || thread.first_time.is_some()
}

/// Adds a part's diagnostic to the whole trace's list: one of the same kind
/// about the same file gets its count added, as if one decoder had seen both.
fn fold(all: &mut Vec<Diagnostic>, diagnostic: Diagnostic) {
    match all
        .iter_mut()
        .find(|d| d.kind == diagnostic.kind && d.file == diagnostic.file)
    {
        Some(same) => {
            same.count += diagnostic.count;
            if same.offset.is_none() {
                same.offset = diagnostic.offset;
            }
        }
        None => all.push(diagnostic),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Field, Format, TimeUnit, TraceBuilder, Value};

    /// Two parts of one two-thread input, each decoding one thread and
    /// interning names (and detail texts) in its own order.
    fn part(decode: usize) -> Trace {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "prog");
        let threads = [b.thread(p, "1", "prog"), b.thread(p, "2", "prog")];
        let t = threads[decode];
        // Part 1 interns an extra name first, so its ids differ from part 0's.
        if decode == 1 {
            b.intern("only in part 1");
        }
        let name = b.intern(if decode == 0 { "main" } else { "worker" });
        let span = b.begin(t, 10, name, 0);
        b.add_detail(t, span, Field::new("args", format!("thread {decode}")));
        // Numbers that are also valid string ids: they must not be mapped.
        let (call, hash) = (b.intern("call"), b.intern("#"));
        b.detail(t, span, call, Value::Numbered(hash, 1));
        b.detail(t, span, call, Value::Int(0));
        b.detail(t, span, call, Value::Hex(2));
        b.detail(t, span, call, Value::Fixed(hash));
        b.end(t, 20);
        b.finish()
    }

    #[test]
    fn names_and_detail_texts_of_a_part_are_mapped_into_the_whole() {
        let mut whole = part(0);
        merge_part(&mut whole, part(1)).expect("merges");
        let t = &whole.threads[1];
        assert_eq!(whole.str(t.spans.name[0]), "worker");
        let numbers = |n| {
            vec![
                Field::new("args", format!("thread {n}")),
                Field::new("call", "#1"),
                Field::new("call", "0"),
                Field::new("call", "0x2"),
                Field::new("call", "#"),
            ]
        };
        assert_eq!(t.spans.details_of(0, &whole.strings), numbers(1));
        let t = &whole.threads[0];
        assert_eq!(whole.str(t.spans.name[0]), "main");
        assert_eq!(t.spans.details_of(0, &whole.strings), numbers(0));
    }

    #[test]
    fn a_thread_decoded_twice_is_refused() {
        let mut whole = part(0);
        assert!(merge_part(&mut whole, part(0)).is_err());
    }
}
