//! The trace's columns, listed once.
//!
//! Each columnar part of the model names its columns, in order, with their
//! element type, in one `columns!` list below. The list gives the part a
//! `visit_columns` (shared) and a `visit_columns_mut` (mutable) walk over
//! them and a `lengths_agree` check; [`Trace::visit_columns`] walks the whole
//! trace. The codec writes and reads the columns through these walks, the
//! viewer's worker hands them to the page through them, the part merge and
//! [`Trace::check`](super::Trace) map and check them through them: adding a
//! column is one edit here, and the wire formats cannot drift from the model.

use super::{
    Addresses, Allocations, Counter, Details, EventLog, Instants, SampleSet, Shapes, Spans,
    StackTable, StringTable, Table, Thread, Trace,
};

/// What a column is, beside its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnInfo {
    /// The field's name in its part of the model (`start`, `payload`, …).
    pub name: &'static str,
    /// The values are ids into the trace's string table.
    pub names: bool,
    /// Small: the viewer's worker leaves it in the codec buffer instead of
    /// handing it over as an array of its own.
    pub inline: bool,
    /// Not one entry per row of its part (a payload, a table of texts).
    pub own_length: bool,
    /// Either empty or one entry per row (the times of an untimed sample set).
    pub may_be_empty: bool,
}

impl ColumnInfo {
    /// A plain column: numbers, one per row, handed over on its own.
    pub const fn new(name: &'static str) -> Self {
        ColumnInfo {
            name,
            names: false,
            inline: false,
            own_length: false,
            may_be_empty: false,
        }
    }

    /// The column holds string ids.
    pub const fn names(self) -> Self {
        ColumnInfo {
            names: true,
            ..self
        }
    }

    /// The column travels inside the codec buffer.
    pub const fn inline(self) -> Self {
        ColumnInfo {
            inline: true,
            ..self
        }
    }

    /// The column has a length of its own.
    pub const fn own_length(self) -> Self {
        ColumnInfo {
            own_length: true,
            ..self
        }
    }

    /// The column is empty or has one entry per row.
    pub const fn may_be_empty(self) -> Self {
        ColumnInfo {
            may_be_empty: true,
            ..self
        }
    }
}

/// A column's values, by element type.
#[derive(Debug)]
pub enum ColumnRef<'a> {
    I64(&'a [i64]),
    U64(&'a [u64]),
    U32(&'a [u32]),
    U16(&'a [u16]),
    U8(&'a [u8]),
    F64(&'a [f64]),
    /// Several columns of one type and length (a sample set's weights).
    I64Columns(&'a [Vec<i64>]),
    /// The trace's string table, in id order.
    Strings(&'a [String]),
    /// A table's rows of texts.
    Rows(&'a [Vec<String>]),
}

/// A column to fill or empty, by element type.
#[derive(Debug)]
pub enum ColumnMut<'a> {
    I64(&'a mut Vec<i64>),
    U64(&'a mut Vec<u64>),
    U32(&'a mut Vec<u32>),
    U16(&'a mut Vec<u16>),
    U8(&'a mut Vec<u8>),
    F64(&'a mut Vec<f64>),
    I64Columns(&'a mut Vec<Vec<i64>>),
    Strings(&'a mut StringTable),
    Rows(&'a mut Vec<Vec<String>>),
}

impl ColumnRef<'_> {
    /// Entries in the column (columns of [`ColumnRef::I64Columns`]).
    pub fn len(&self) -> usize {
        match self {
            ColumnRef::I64(v) => v.len(),
            ColumnRef::U64(v) => v.len(),
            ColumnRef::U32(v) => v.len(),
            ColumnRef::U16(v) => v.len(),
            ColumnRef::U8(v) => v.len(),
            ColumnRef::F64(v) => v.len(),
            ColumnRef::I64Columns(v) => v.len(),
            ColumnRef::Strings(v) => v.len(),
            ColumnRef::Rows(v) => v.len(),
        }
    }

    /// True when the column has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Called with every column of a walk, in order.
pub trait ColumnVisitor<'a> {
    fn column(&mut self, info: ColumnInfo, values: ColumnRef<'a>);
}

/// Called with every column of a mutable walk, in order.
pub trait ColumnVisitorMut<'a> {
    fn column(&mut self, info: ColumnInfo, values: ColumnMut<'a>);
}

impl<'a, F: FnMut(ColumnInfo, ColumnRef<'a>)> ColumnVisitor<'a> for F {
    fn column(&mut self, info: ColumnInfo, values: ColumnRef<'a>) {
        self(info, values)
    }
}

impl<'a, F: FnMut(ColumnInfo, ColumnMut<'a>)> ColumnVisitorMut<'a> for F {
    fn column(&mut self, info: ColumnInfo, values: ColumnMut<'a>) {
        self(info, values)
    }
}

/// Collects the columns of a walk.
impl<'a> ColumnVisitor<'a> for Vec<(ColumnInfo, ColumnRef<'a>)> {
    fn column(&mut self, info: ColumnInfo, values: ColumnRef<'a>) {
        self.push((info, values));
    }
}

/// Collects the columns of a walk, to go through them later (the page does,
/// pausing between them).
impl<'a> ColumnVisitorMut<'a> for Vec<(ColumnInfo, ColumnMut<'a>)> {
    fn column(&mut self, info: ColumnInfo, values: ColumnMut<'a>) {
        self.push((info, values));
    }
}

/// Whether the row columns of one part have one length.
struct RowLengths {
    len: Option<usize>,
    agree: bool,
}

impl RowLengths {
    fn new() -> Self {
        RowLengths {
            len: None,
            agree: true,
        }
    }

    fn see(&mut self, info: ColumnInfo, values: ColumnRef<'_>) {
        if info.own_length {
            return;
        }
        let lens: Vec<usize> = match values {
            ColumnRef::I64Columns(columns) => columns.iter().map(Vec::len).collect(),
            one => vec![one.len()],
        };
        for len in lens {
            if info.may_be_empty && len == 0 {
                continue;
            }
            match self.len {
                None => self.len = Some(len),
                Some(rows) => self.agree &= rows == len,
            }
        }
    }
}

/// Lists the columns of a part of the model once; see the module docs.
/// `field: Kind [flags]`, where `Kind` is a [`ColumnRef`] variant or
/// `Nested` (a part with a list of its own), and the flags are
/// [`ColumnInfo`]'s builder methods.
macro_rules! columns {
    (@info $field:ident) => { ColumnInfo::new(stringify!($field)) };
    (@info $field:ident [$($flag:ident),+]) => { ColumnInfo::new(stringify!($field))$(.$flag())+ };
    (@ref $v:ident, $f:expr, Nested, $info:expr) => { $f.visit_columns($v) };
    (@ref $v:ident, $f:expr, $kind:ident, $info:expr) => { $v.column($info, ColumnRef::$kind(&$f)) };
    (@mut $v:ident, $f:expr, Nested, $info:expr) => { $f.visit_columns_mut($v) };
    (@mut $v:ident, $f:expr, $kind:ident, $info:expr) => { $v.column($info, ColumnMut::$kind(&mut $f)) };
    (@len $rows:ident, $f:expr, Nested, $info:expr) => { let _ = &mut $rows; };
    (@len $rows:ident, $f:expr, $kind:ident, $info:expr) => { $rows.see($info, ColumnRef::$kind(&$f)) };
    ($part:ty { $($field:ident : $kind:ident $([$($flag:ident),+])?),+ $(,)? }) => {
        impl $part {
            /// Calls `v` with each of this part's columns, in the order of
            /// the model's one column list ([`crate::model::columns`]).
            pub fn visit_columns<'a>(&'a self, v: &mut impl ColumnVisitor<'a>) {
                $(columns!(@ref v, self.$field, $kind, columns!(@info $field $([$($flag),+])?));)+
            }

            /// [`Self::visit_columns`], with each column to fill or empty.
            pub fn visit_columns_mut<'a>(&'a mut self, v: &mut impl ColumnVisitorMut<'a>) {
                $(columns!(@mut v, self.$field, $kind, columns!(@info $field $([$($flag),+])?));)+
            }

            /// True when this part's row columns have one length (parts
            /// nested in it are not looked at).
            pub fn lengths_agree(&self) -> bool {
                let mut rows = RowLengths::new();
                $(columns!(@len rows, self.$field, $kind, columns!(@info $field $([$($flag),+])?));)+
                rows.agree
            }
        }
    };
}

columns!(Thread {
    spans: Nested,
    instants: Nested,
    addresses: Nested,
});

columns!(Addresses {
    name: U32[names],
    addr: U64,
});

columns!(Spans {
    start: I64,
    end: I64,
    depth: U16,
    name: U32[names],
    flags: U8,
    details: Nested,
});

columns!(Instants {
    time: I64,
    name: U32[names],
    details: Nested,
});

// Detail keys and texts are string ids too, but mapped through the shapes
// (see `Details::map_texts`), not as plain name columns.
columns!(Details {
    owner: U32[may_be_empty],
    shape: U32,
    first: U32,
    payload: U32[own_length],
    shapes: Nested,
});

columns!(Shapes {
    parent: U32[inline],
    key: U32[inline],
    kind: U8[inline],
    prefix: U32[inline],
});

columns!(StackTable {
    frame: U32[names],
    parent: U32,
});

columns!(SampleSet {
    time: I64[may_be_empty],
    stack: U32,
    weights: I64Columns,
});

columns!(Allocations {
    // One entry per allocation, or one for all (`Allocations::thread_of`).
    thread: U32[own_length],
    time: I64,
    size: U64,
    address: U64,
    stack: U32,
    free_time: I64,
    context: U32[may_be_empty],
});

columns!(Counter {
    time: I64,
    value: F64,
});

columns!(Table {
    rows: Rows[own_length],
});

columns!(EventLog {
    seq: I64[may_be_empty],
    thread: U16[may_be_empty],
    thread_wide: U32[may_be_empty],
    thread_run_event: U64[own_length],
    thread_run: U32[own_length],
    site: U16[may_be_empty],
    site_wide: U32[may_be_empty],
    value: U32,
    value_wide_event: U64[own_length],
    value_wide: I64[own_length],
    site_type: U32[own_length],
    site_method: U32[own_length],
    site_line: U32[own_length],
    site_inst: U32[own_length],
    site_value: U8[own_length],
    site_role: U8[own_length],
    site_params: U16[own_length],
    site_param_index: U32[own_length],
    site_attributes: U32[own_length],
    method_place: U32[own_length],
    method_source: U32[own_length],
    method_text: U32[own_length],
    method_params: U16[own_length],
    object_type: U32[own_length],
    object_type_default: U32[own_length],
    object_id: I64[own_length],
    object_text: U32[own_length],
    object_cause: I64[own_length],
    text_bytes: U8[own_length],
    text_ends: U32[own_length],
});

impl Trace {
    /// Calls `v` with every column of the trace, in order: the string
    /// table, each thread's, the stack table, each sample set's,
    /// allocation table's, counter's and table's.
    pub fn visit_columns<'a>(&'a self, v: &mut impl ColumnVisitor<'a>) {
        v.column(STRINGS, ColumnRef::Strings(self.strings.all()));
        self.threads.iter().for_each(|t| t.visit_columns(v));
        self.stacks.visit_columns(v);
        self.sample_sets.iter().for_each(|s| s.visit_columns(v));
        self.allocations.iter().for_each(|a| a.visit_columns(v));
        self.counters.iter().for_each(|c| c.visit_columns(v));
        self.tables.iter().for_each(|t| t.visit_columns(v));
        self.event_log.visit_columns(v);
    }

    /// [`Trace::visit_columns`], with each column to fill or empty.
    pub fn visit_columns_mut<'a>(&'a mut self, v: &mut impl ColumnVisitorMut<'a>) {
        v.column(STRINGS, ColumnMut::Strings(&mut self.strings));
        self.threads.iter_mut().for_each(|t| t.visit_columns_mut(v));
        self.stacks.visit_columns_mut(v);
        self.sample_sets
            .iter_mut()
            .for_each(|s| s.visit_columns_mut(v));
        self.allocations
            .iter_mut()
            .for_each(|a| a.visit_columns_mut(v));
        self.counters
            .iter_mut()
            .for_each(|c| c.visit_columns_mut(v));
        self.tables.iter_mut().for_each(|t| t.visit_columns_mut(v));
        self.event_log.visit_columns_mut(v);
    }

    /// True when, in every part of the trace, the row columns have one
    /// length.
    pub fn lengths_agree(&self) -> bool {
        self.threads.iter().all(|t| {
            t.spans.lengths_agree()
                && t.instants.lengths_agree()
                && t.details().iter().all(|d| d.lengths_agree())
                && t.details().iter().all(|d| d.shapes.lengths_agree())
        }) && self.stacks.lengths_agree()
            && self.sample_sets.iter().all(SampleSet::lengths_agree)
            && self.allocations.iter().all(Allocations::lengths_agree)
            && self.counters.iter().all(Counter::lengths_agree)
            && self.event_log.lengths_agree()
    }
}

impl Thread {
    /// The detail columns of the thread's spans and of its markers.
    pub fn details(&self) -> [&Details; 2] {
        [&self.spans.details, &self.instants.details]
    }

    /// [`Thread::details`], to change.
    pub fn details_mut(&mut self) -> [&mut Details; 2] {
        [&mut self.spans.details, &mut self.instants.details]
    }
}

/// The string table's place in [`Trace::visit_columns`].
const STRINGS: ColumnInfo = ColumnInfo::new("strings").own_length();

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Field, Format, TimeUnit, TraceBuilder};

    #[test]
    fn a_walk_sees_every_column_in_the_codec_order() {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "p");
        let f = b.intern("f");
        let s = b.begin(t, 1, f, 0);
        b.add_detail(t, s, Field::new("k", "v"));
        b.end(t, 2);
        let mut trace = b.finish();
        let mut names = Vec::new();
        trace.visit_columns(&mut |info: ColumnInfo, _: ColumnRef<'_>| names.push(info.name));
        const EVENT_LOG: [&str; 30] = [
            "seq",
            "thread",
            "thread_wide",
            "thread_run_event",
            "thread_run",
            "site",
            "site_wide",
            "value",
            "value_wide_event",
            "value_wide",
            "site_type",
            "site_method",
            "site_line",
            "site_inst",
            "site_value",
            "site_role",
            "site_params",
            "site_param_index",
            "site_attributes",
            "method_place",
            "method_source",
            "method_text",
            "method_params",
            "object_type",
            "object_type_default",
            "object_id",
            "object_text",
            "object_cause",
            "text_bytes",
            "text_ends",
        ];
        let spans = ["start", "end", "depth", "name", "flags"];
        let details = [
            "owner", "shape", "first", "payload", "parent", "key", "kind", "prefix",
        ];
        let expected: Vec<&str> = ["strings"]
            .iter()
            .chain(&spans)
            .chain(&details)
            .chain(&["time", "name"])
            .chain(&details)
            .chain(&["name", "addr"])
            .chain(&["frame", "parent"])
            .chain(&EVENT_LOG)
            .copied()
            .collect();
        assert_eq!(names, expected);
        assert!(trace.lengths_agree());
        trace.threads[0].spans.depth.push(3);
        assert!(!trace.lengths_agree());
        let mut collected = Vec::new();
        trace.visit_columns_mut(&mut collected);
        assert_eq!(collected.len(), expected.len());
    }
}
