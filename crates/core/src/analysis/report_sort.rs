//! `uftrace report -s KEYS`: the function rows ordered by uftrace's sort
//! keys (`total`, `self`, `call`, `func`, comma-separated, first key first).
//! Numbers sort largest first, `func` by name in byte order; rows equal on
//! every key stay in name order, as uftrace's sort tree leaves them (it
//! inserts the rows by name and places an equal row after the ones there).

use super::report::FunctionReport;
use std::cmp::Ordering;

/// Keys uftrace knows that a flamedrop report has no column for.
const UNSUPPORTED: [&str; 7] = [
    "total_avg",
    "total_min",
    "total_max",
    "self_avg",
    "self_min",
    "self_max",
    "size",
];

#[derive(Clone, Copy)]
enum Key {
    Total,
    SelfTime,
    Call,
    Func,
}

/// Orders `functions` by `keys`; `Err` with uftrace's message for a key it
/// does not know ("invalid sort key: KEYS").
pub fn sort_functions(functions: &mut [FunctionReport], keys: &str) -> Result<(), String> {
    let keys = if keys.is_empty() { "total" } else { keys };
    let mut parsed = Vec::new();
    for key in keys.replace('-', "_").split(',') {
        parsed.push(match key {
            "total" => Key::Total,
            "self" => Key::SelfTime,
            "call" => Key::Call,
            "func" => Key::Func,
            k if UNSUPPORTED.contains(&k) => {
                return Err(format!("sort key {k} has no column in flamedrop's report"))
            }
            _ => return Err(format!("invalid sort key: {keys}")),
        });
    }
    functions.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    functions.sort_by(|a, b| {
        parsed
            .iter()
            .map(|key| compare(*key, a, b))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    });
    Ok(())
}

fn compare(key: Key, a: &FunctionReport, b: &FunctionReport) -> Ordering {
    match key {
        Key::Total => b.total.cmp(&a.total),
        Key::SelfTime => b.self_time.cmp(&a.self_time),
        Key::Call => b.calls.cmp(&a.calls),
        Key::Func => a.name.as_bytes().cmp(b.name.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, calls: u64, total: i64, self_time: i64) -> FunctionReport {
        FunctionReport {
            name: name.into(),
            calls,
            total,
            self_time,
        }
    }

    #[test]
    fn keys_sort_as_uftrace_sorts() {
        let mut rows = vec![
            row("main", 1, 100, 2),
            row("b", 60, 10, 8),
            row("a", 60, 11, 4),
            row("hot", 1000, 50, 30),
        ];
        sort_functions(&mut rows, "call,func").unwrap();
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["hot", "a", "b", "main"]);
        sort_functions(&mut rows, "self").unwrap();
        assert_eq!(rows[0].name, "hot");
        sort_functions(&mut rows, "func").unwrap();
        assert_eq!(rows[0].name, "a");
        sort_functions(&mut rows, "").unwrap();
        assert_eq!(rows[0].name, "main");
        assert_eq!(
            sort_functions(&mut rows, "foo"),
            Err("invalid sort key: foo".into())
        );
        assert_eq!(
            sort_functions(&mut rows, "self,bar"),
            Err("invalid sort key: self,bar".into())
        );
    }
}
