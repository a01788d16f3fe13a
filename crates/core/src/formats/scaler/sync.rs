//! What the extra fields of PTHREAD and SEMAPHORE records mean, and the
//! synchronisation table built from them.
//!
//! The hook saves the first (and for condition waits the second) argument
//! register. Which argument that is depends on the function, so meanings are
//! looked up by name. Fields Scaler never set (`pthread_create`'s both, the
//! second of everything but condition waits) hold heap garbage and are not
//! shown. Object addresses are process addresses, so equal values on
//! different threads are the same object.

use crate::model::{Column, Field, Table, Trace, SPAN_OPEN_AT_END};
use std::collections::{BTreeMap, BTreeSet};

/// Detail key of a joined thread's `pthread_t`.
pub const JOINED_THREAD: &str = "joined thread";
/// Detail key of the mutex a condition wait releases.
pub const COND_MUTEX: &str = "cond mutex";

/// What one function's extra fields hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meaning {
    /// Detail key of extraField1 (`mutex`, `cond`, `sem`, …).
    pub first: &'static str,
    /// Detail key of extraField2, for condition waits.
    pub second: Option<&'static str>,
    /// The call can block: its duration counts as waiting.
    pub waits: bool,
}

/// The meaning of the extra fields of a call to `name`, if Scaler sets any.
pub fn meaning(name: &str) -> Option<Meaning> {
    let m = |first, waits| Meaning {
        first,
        second: None,
        waits,
    };
    Some(match name {
        "pthread_join" | "pthread_tryjoin_np" | "pthread_timedjoin_np" | "pthread_clockjoin_np" => {
            m(JOINED_THREAD, true)
        }
        "pthread_mutex_lock" | "pthread_mutex_timedlock" | "pthread_mutex_clocklock" => {
            m("mutex", true)
        }
        "pthread_mutex_unlock" => m("mutex", false),
        "pthread_rwlock_unlock" => m("rwlock", false),
        n if n.starts_with("pthread_rwlock_") && n.ends_with("lock") => m("rwlock", true),
        "pthread_cond_signal" | "pthread_cond_broadcast" => m("cond", false),
        "pthread_cond_wait" | "pthread_cond_timedwait" | "pthread_cond_clockwait" => Meaning {
            first: "cond",
            second: Some(COND_MUTEX),
            waits: true,
        },
        "pthread_spin_lock" | "pthread_spin_trylock" => m("spinlock", true),
        "pthread_spin_unlock" => m("spinlock", false),
        "pthread_barrier_wait" => m("barrier", true),
        "sem_wait" | "sem_timedwait" | "sem_clockwait" | "sem_trywait" => m("sem", true),
        "sem_post" => m("sem", false),
        _ => return None,
    })
}

/// An address as shown: `0x` and lowercase hex of the 64 bits.
pub fn address(value: i64) -> String {
    format!("{:#x}", value as u64)
}

/// The readable details of a record's extra fields, given its function's
/// name (if known), and how many set-looking fields were ignored as never
/// written by Scaler.
pub fn details(name: Option<&str>, extra: [Option<i64>; 2]) -> (Vec<Field>, u64) {
    let present: Vec<i64> = extra.iter().flatten().copied().collect();
    if present.is_empty() {
        return (Vec::new(), 0);
    }
    let Some(name) = name else {
        // Without names the meaning is unknown: show the raw values.
        let fields = present
            .iter()
            .enumerate()
            .map(|(i, v)| Field::new(format!("extra field {}", i + 1), address(*v)))
            .collect();
        return (fields, 0);
    };
    let meaning = meaning(name);
    let mut fields = Vec::new();
    let mut garbage = 0;
    for (i, value) in extra.iter().enumerate() {
        let Some(value) = *value else { continue };
        let key = match (i, meaning) {
            (0, Some(m)) => Some(m.first),
            (1, Some(m)) => m.second,
            _ => None,
        };
        match key {
            Some(key) => fields.push(Field::new(key, address(value))),
            None if value != 0 => garbage += 1,
            None => {}
        }
    }
    (fields, garbage)
}

/// Per object: who used it, when, and how long callers waited.
#[derive(Default)]
struct Usage {
    threads: BTreeSet<usize>,
    first: i64,
    last: i64,
    calls: u64,
    wait_total: i64,
    wait_longest: i64,
    open: u64,
}

/// The details that name a synchronisation object, in table order.
const KINDS: [&str; 6] = ["mutex", "rwlock", "cond", "spinlock", "barrier", "sem"];

/// The `sync-objects` table: one row per mutex, rwlock, condition variable,
/// spinlock, barrier and semaphore seen in the spans' details; `None` when
/// there are none.
pub fn sync_table(trace: &Trace) -> Option<Table> {
    let objects = usage_by_object(trace);
    if objects.is_empty() {
        return None;
    }
    let (rows, row_highlight) = rows_of(trace, &objects);
    let unit = trace.time_unit.map_or("us", |u| u.name());
    Some(Table {
        id: "sync-objects".into(),
        title: "Synchronisation objects".into(),
        columns: vec![
            Column::text("kind"),
            Column::text("id"),
            Column::number("threads"),
            Column::number("calls"),
            Column::number(&format!("waited ({unit})")),
            Column::number(&format!("longest wait ({unit})")),
            Column::number(&format!("first use ({unit})")),
            Column::number(&format!("last use ({unit})")),
            Column::number("never returned"),
            Column::text("thread ids"),
        ],
        rows,
        row_highlight,
        note: format!(
            "Every mutex, rwlock, condition variable, spinlock, barrier and semaphore address that \
             Scaler recorded. Times are {unit} from the start of the trace. \"waited\" adds up the \
             lock, wait, trywait and barrier calls on the object (hook overhead included); \
             unlock, signal and post calls count as calls only. A condition wait's mutex is its \
             \"{COND_MUTEX}\" detail and is not counted under the mutex. Select a row to \
             highlight its calls in every lane."
        ),
    })
}

/// How each object (kind, id) was used, over every thread.
fn usage_by_object(trace: &Trace) -> BTreeMap<(usize, String), Usage> {
    let mut objects: BTreeMap<(usize, String), Usage> = BTreeMap::new();
    for (t, thread) in trace.threads.iter().enumerate() {
        let spans = &thread.spans;
        for (index, fields) in spans.details.grouped(&trace.strings) {
            let i = index as usize;
            let (Some(&start), Some(&end), Some(&name), Some(&flags)) = (
                spans.start.get(i),
                spans.end.get(i),
                spans.name.get(i),
                spans.flags.get(i),
            ) else {
                continue;
            };
            let waits = meaning(trace.str(name)).is_some_and(|m| m.waits);
            for field in fields {
                let Some(kind) = KINDS.iter().position(|k| *k == field.key) else {
                    continue;
                };
                let usage = objects.entry((kind, field.value)).or_insert_with(|| Usage {
                    first: i64::MAX,
                    last: i64::MIN,
                    ..Usage::default()
                });
                usage.threads.insert(t);
                usage.first = usage.first.min(start);
                usage.last = usage.last.max(end);
                usage.calls += 1;
                if waits {
                    let took = end.saturating_sub(start).max(0);
                    usage.wait_total = usage.wait_total.saturating_add(took);
                    usage.wait_longest = usage.wait_longest.max(took);
                }
                if flags & SPAN_OPEN_AT_END != 0 {
                    usage.open += 1;
                }
            }
        }
    }
    objects
}

/// The table's rows and the detail each row highlights.
fn rows_of(
    trace: &Trace,
    objects: &BTreeMap<(usize, String), Usage>,
) -> (Vec<Vec<String>>, Vec<Option<Field>>) {
    let origin = trace.time_range().map_or(0, |r| r.0);
    let mut rows = Vec::with_capacity(objects.len());
    let mut row_highlight = Vec::with_capacity(objects.len());
    for ((kind, id), usage) in objects {
        let kind = KINDS.get(*kind).copied().unwrap_or_default();
        let threads: Vec<&str> = usage
            .threads
            .iter()
            .filter_map(|&t| trace.threads.get(t).map(|th| th.id.as_str()))
            .collect();
        rows.push(vec![
            kind.to_owned(),
            id.clone(),
            usage.threads.len().to_string(),
            usage.calls.to_string(),
            usage.wait_total.to_string(),
            usage.wait_longest.to_string(),
            (usage.first - origin).to_string(),
            (usage.last - origin).to_string(),
            usage.open.to_string(),
            threads.join(" "),
        ]);
        row_highlight.push(Some(Field::new(kind, id.clone())));
    }
    (rows, row_highlight)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cond_waits_name_both_objects_and_garbage_is_dropped() {
        let (fields, garbage) = details(
            Some("pthread_cond_wait"),
            [Some(0x55f71d12b0e0), Some(0x55f71d12b0a0)],
        );
        assert_eq!(
            fields,
            vec![
                Field::new("cond", "0x55f71d12b0e0"),
                Field::new(COND_MUTEX, "0x55f71d12b0a0")
            ]
        );
        assert_eq!(garbage, 0);
        let (fields, garbage) = details(Some("pthread_create"), [Some(0x60), Some(0)]);
        assert!(fields.is_empty());
        assert_eq!(garbage, 1);
        let (fields, garbage) = details(
            Some("pthread_timedjoin_np"),
            [Some(0x7f21), Some(0x66746e697270)],
        );
        assert_eq!(fields, vec![Field::new(JOINED_THREAD, "0x7f21")]);
        assert_eq!(garbage, 1);
    }

    #[test]
    fn unnamed_records_show_raw_extra_fields() {
        let (fields, _) = details(None, [Some(-1), None]);
        assert_eq!(
            fields,
            vec![Field::new("extra field 1", "0xffffffffffffffff")]
        );
    }

    #[test]
    fn lock_and_wait_calls_are_waits_and_releases_are_not() {
        assert!(meaning("pthread_rwlock_timedwrlock").is_some_and(|m| m.waits));
        assert!(meaning("pthread_rwlock_unlock").is_some_and(|m| !m.waits));
        assert!(meaning("sem_post").is_some_and(|m| !m.waits));
        assert_eq!(meaning("pthread_mutex_trylock"), None);
    }
}
