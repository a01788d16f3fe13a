//! The columns left of `|` in `uftrace replay` (`-f` / `--output-fields`):
//! their headings and how each is written, in uftrace's own order
//! (duration, tid, addr, time, delta, elapsed, task, module) whatever order
//! `-f` names them in.

use super::time::{write_duration, write_timestamp};
use crate::analysis::listing::ReplayField;
use std::fmt::Write;

/// What the columns of one row show; a value a row does not have is
/// written blank.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Cells<'a> {
    /// The call's (or off-CPU time's) duration; 0 is blank.
    pub duration: u64,
    pub tid: &'a str,
    /// The function's address (`None`: blank, as for events).
    pub addr: Option<u64>,
    /// The row's timestamp (ns).
    pub time: u64,
    /// Time since the row's thread's row before; 0 is blank.
    pub delta: u64,
    /// Time since the first record; 0 is blank.
    pub elapsed: u64,
    pub task: &'a str,
    /// The function's module (`None`: blank, as for events).
    pub module: Option<&'a str>,
}

/// uftrace's heading of a column.
fn heading(field: ReplayField) -> &'static str {
    match field {
        ReplayField::Duration => " DURATION ",
        ReplayField::Tid => "   TID  ",
        ReplayField::Addr => "   ADDRESS  ",
        ReplayField::Time => "     TIMESTAMP    ",
        ReplayField::Delta => " TIMEDELTA",
        ReplayField::Elapsed => "  ELAPSED ",
        ReplayField::Task => "      TASK NAME",
        ReplayField::Module => "     MODULE NAME",
    }
}

/// The width of a column (what a blank one takes).
fn width(field: ReplayField) -> usize {
    match field {
        ReplayField::Duration | ReplayField::Delta | ReplayField::Elapsed => 10,
        ReplayField::Tid => 8,
        ReplayField::Addr => 12,
        ReplayField::Time => 18,
        ReplayField::Task => 15,
        ReplayField::Module => 16,
    }
}

/// The heading line (`# DURATION     TID     FUNCTION`); none without
/// columns.
pub(super) fn header(fields: &[ReplayField]) -> Option<String> {
    if fields.is_empty() {
        return None;
    }
    let mut line = String::from("#");
    for (at, &field) in fields.iter().enumerate() {
        if at > 0 {
            line.push(' ');
        }
        line.push_str(heading(field));
    }
    line.push_str("   FUNCTION");
    Some(line)
}

/// Appends the columns of a row and the `|` after them (nothing without
/// columns).
pub(super) fn write_cells(out: &mut String, fields: &[ReplayField], cells: &Cells) {
    if fields.is_empty() {
        return;
    }
    for &field in fields {
        out.push(' ');
        match field {
            ReplayField::Duration => write_duration(out, cells.duration),
            ReplayField::Tid => {
                out.push('[');
                for _ in cells.tid.chars().count()..6 {
                    out.push(' ');
                }
                out.push_str(cells.tid);
                out.push(']');
            }
            ReplayField::Addr => match cells.addr {
                Some(addr) => {
                    let _ = write!(out, "{:>12x}", addr & ((1 << 48) - 1));
                }
                None => out.push_str("            "),
            },
            ReplayField::Time => write_timestamp(out, cells.time),
            ReplayField::Delta => write_duration(out, cells.delta),
            ReplayField::Elapsed => write_duration(out, cells.elapsed),
            ReplayField::Task => {
                let _ = write!(out, "{:>15}", cells.task);
            }
            ReplayField::Module => match cells.module {
                Some(module) => {
                    let cut = module
                        .char_indices()
                        .nth(16)
                        .map_or(module.len(), |(i, _)| i);
                    let _ = write!(out, "{:>16}", &module[..cut]);
                }
                None => out.push_str("                "),
            },
        }
    }
    out.push_str(" | ");
}

/// Appends the blank columns of `--task-newline`'s empty line.
pub(super) fn write_blank_cells(out: &mut String, fields: &[ReplayField]) {
    if fields.is_empty() {
        return;
    }
    for &field in fields {
        for _ in 0..=width(field) {
            out.push(' ');
        }
    }
    out.push_str(" | ");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_follow_uftrace() {
        assert_eq!(
            header(&[ReplayField::Duration, ReplayField::Tid]).as_deref(),
            Some("# DURATION     TID     FUNCTION")
        );
        assert_eq!(header(&[]), None);
    }

    #[test]
    fn cells_are_padded_like_printf() {
        let mut out = String::new();
        let cells = Cells {
            duration: 1612,
            tid: "17763",
            addr: Some(0x5642508b2050),
            ..Cells::default()
        };
        let fields = [ReplayField::Duration, ReplayField::Tid, ReplayField::Addr];
        write_cells(&mut out, &fields, &cells);
        assert_eq!(out, "   1.612 us [ 17763] 5642508b2050 | ");
    }
}
