//! The tables the stream fills as it is read (file activity, target
//! messages, files open at attach), added to the trace at the end.

use super::Build;
use crate::model::{Column, Table};

/// Rows of the tables the stream fills.
#[derive(Default)]
pub struct Tables {
    pub file_activity: Vec<Vec<String>>,
    pub target_messages: Vec<Vec<String>>,
    pub open_files: Vec<Vec<String>>,
}

impl Build {
    /// Adds the tables that have rows to the trace.
    pub(super) fn add_tables(&mut self) {
        let tables = std::mem::take(&mut self.tables);
        if !tables.file_activity.is_empty() {
            self.b.table(table(
                "file-activity",
                "File activity",
                &[
                    ("time (ns)", true),
                    ("pid", true),
                    ("tid", true),
                    ("fd", true),
                    ("operation", false),
                    ("size", true),
                    ("file size", true),
                    ("path", false),
                ],
                tables.file_activity,
                "MSG_PROBE_RESOURCE calls of the traced processes",
            ));
        }
        if !tables.target_messages.is_empty() {
            self.b.table(table(
                "target-messages",
                "Target messages",
                &[
                    ("time (ns)", true),
                    ("kind", false),
                    ("pid", false),
                    ("text", false),
                ],
                tables.target_messages,
                "MSG_ERROR and MSG_LSAN messages",
            ));
        }
        if !tables.open_files.is_empty() {
            self.b.table(table(
                "open-files",
                "Files open at attach",
                &[("pid", true), ("fd", true), ("size", true), ("path", false)],
                tables.open_files,
                "MSG_PROCESS_STATUS_INFO",
            ));
        }
    }
}

fn table(
    id: &str,
    title: &str,
    columns: &[(&str, bool)],
    rows: Vec<Vec<String>>,
    note: &str,
) -> Table {
    Table {
        id: id.to_owned(),
        title: title.to_owned(),
        columns: columns
            .iter()
            .map(|&(name, numeric)| {
                if numeric {
                    Column::number(name)
                } else {
                    Column::text(name)
                }
            })
            .collect(),
        rows,
        row_highlight: Vec::new(),
        note: note.to_owned(),
    }
}
