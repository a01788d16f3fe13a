//! A stand-in for `flamedrop_core::analysis::report_sort::sort_functions`
//! (written by the "ufilter" work) with its signature, so `report -s` can be
//! built and tried before it lands; removed when it does.

use flamedrop_core::analysis::report::FunctionReport;
use std::cmp::Ordering;

/// Sorts `functions` by uftrace's `-s` keys (`total`, `self`, `call`,
/// `func`, comma-separated); numbers largest first, names alphabetically.
pub fn sort_functions(functions: &mut [FunctionReport], keys: &str) -> Result<(), String> {
    let keys: Vec<&str> = keys.split(',').collect();
    if keys
        .iter()
        .any(|k| !matches!(*k, "total" | "self" | "call" | "func"))
    {
        return Err(format!("invalid sort key: {}", keys.join(",")));
    }
    functions.sort_by(|a, b| {
        keys.iter().fold(Ordering::Equal, |order, key| {
            order.then_with(|| match *key {
                "total" => b.total.cmp(&a.total),
                "self" => b.self_time.cmp(&a.self_time),
                "call" => b.calls.cmp(&a.calls),
                _ => a.name.cmp(&b.name),
            })
        })
    });
    Ok(())
}
