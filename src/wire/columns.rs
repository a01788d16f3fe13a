//! The decoded trace's big columns travel from the worker to the page as
//! typed arrays of their own, each transferred, not cloned: every column of
//! the model's one column list (`flamedrop_core::model::columns`) but the
//! small `inline` ones (detail shapes), in the list's order; the string
//! table and tables' rows as their bytes and where each text ends. The
//! worker copies each column out of its memory once; the page copies each into its own memory in slices,
//! pausing between them so it stays responsive, and drops its reference to
//! each array as soon as it is copied. The rest of the trace is small and
//! goes as one `model::codec` buffer.

use crate::browser::pace::Pace;
use flamedrop_core::model::columns::{ColumnInfo, ColumnMut, ColumnRef};
use flamedrop_core::model::merge::{
    check_same_input, intern_part_strings, map_detail_texts, map_names,
};
use flamedrop_core::model::{Details, StrId, StringTable, Trace};
use js_sys::{
    Array, BigInt64Array, BigUint64Array, Float64Array, Uint16Array, Uint32Array, Uint8Array,
};
use wasm_bindgen::{JsCast, JsValue};

const DAMAGED: &str = "the decoding worker sent back a damaged trace";

/// Bytes copied between two looks at the clock: a couple of milliseconds
/// even when every page of the destination is touched for the first time
/// (8 MiB slices took 30 ms and more on a loaded machine).
const SLICE_BYTES: usize = 2 << 20;

/// Detail groups whose texts are mapped between two looks at the clock.
const GROUPS_STEP: usize = 1 << 17;

/// Strings (or table cells) rebuilt between two looks at the clock: each is
/// an allocation, so 65,536 of them took 20–40 ms on a loaded machine.
const STRINGS_STEP: usize = 1 << 12;

/// Takes the big columns out of `trace` (every column of the model's column
/// list that is not `inline`) and copies each into a new typed array; the
/// arrays, in the order of the list, which [`attach`] follows.
pub fn detach(trace: &mut Trace) -> Array {
    let out = Array::new();
    let push = |array: JsValue| {
        out.push(&array);
    };
    trace.visit_columns_mut(&mut |info: ColumnInfo, column: ColumnMut<'_>| {
        if info.inline {
            return;
        }
        match column {
            ColumnMut::I64(v) => push(take::<BigInt64Array>(v)),
            ColumnMut::U64(v) => push(take::<BigUint64Array>(v)),
            ColumnMut::U32(v) => push(take::<Uint32Array>(v)),
            ColumnMut::U16(v) => push(take::<Uint16Array>(v)),
            ColumnMut::U8(v) => push(take::<Uint8Array>(v)),
            ColumnMut::F64(v) => push(take::<Float64Array>(v)),
            // The columns stay in the trace, empty, so the page knows how many.
            ColumnMut::I64Columns(columns) => {
                for column in columns {
                    push(take::<BigInt64Array>(column));
                }
            }
            ColumnMut::Strings(table) => {
                let strings = std::mem::take(table);
                let (mut bytes, mut ends) = (Vec::new(), Vec::with_capacity(strings.len()));
                for text in strings.all() {
                    bytes.extend_from_slice(text.as_bytes());
                    // wasm32 memory is at most 4 GiB, so every offset fits in u32.
                    ends.push(bytes.len() as u32);
                }
                drop(strings);
                push(take::<Uint8Array>(&mut bytes));
                push(take::<Uint32Array>(&mut ends));
            }
            ColumnMut::Rows(table_rows) => {
                let (mut bytes, mut ends, mut rows) = (Vec::new(), Vec::new(), Vec::new());
                for row in std::mem::take(table_rows) {
                    for cell in row {
                        bytes.extend_from_slice(cell.as_bytes());
                        ends.push(bytes.len() as u32);
                    }
                    rows.push(ends.len() as u32);
                }
                push(take::<Uint8Array>(&mut bytes));
                push(take::<Uint32Array>(&mut ends));
                push(take::<Uint32Array>(&mut rows));
            }
        }
    });
    out
}

/// How many arrays [`detach`] makes of a trace shaped like `trace`.
fn count(trace: &Trace) -> usize {
    let mut n = 0;
    trace.visit_columns(&mut |info: ColumnInfo, column: ColumnRef<'_>| {
        n += match column {
            _ if info.inline => 0,
            ColumnRef::I64Columns(columns) => columns.len(),
            ColumnRef::Strings(_) => 2,
            ColumnRef::Rows(_) => 3,
            _ => 1,
        };
    });
    n
}

/// The buffers behind `columns`, for the transfer list of a message.
pub fn buffers(columns: &Array) -> Array {
    columns
        .iter()
        .map(|c| js_sys::Reflect::get(&c, &JsValue::from_str("buffer")).unwrap_or(JsValue::NULL))
        .filter(|b| b.is_instance_of::<js_sys::ArrayBuffer>())
        .collect()
}

/// Puts the columns [`detach`] took back into `trace` (decoded from the same
/// message), checking that they fit together. With `whole`, the trace is a
/// part to merge into `whole`: its strings are interned there and its name
/// columns and detail strings mapped as they are copied (see
/// `flamedrop_core::model::merge`).
pub async fn attach(
    trace: &mut Trace,
    columns: Array,
    mut whole: Option<&mut Trace>,
    pace: &mut Pace,
) -> Result<(), String> {
    if columns.length() as usize != count(trace) {
        return Err(DAMAGED.into());
    }
    if let Some(whole) = whole.as_deref() {
        check_same_input(whole, trace)?;
    }
    let mut c = Copier {
        columns,
        next: 0,
        pace,
    };
    let mut names = None;
    let mut slots = Vec::new();
    trace.visit_columns_mut(&mut slots);
    for (info, column) in slots {
        match column {
            _ if info.inline => {}
            ColumnMut::Strings(table) => {
                *table = c.strings().await?;
                names = whole.as_deref_mut().map(|w| intern_part_strings(w, table));
            }
            column => c.column(info, column, names.as_deref()).await?,
        }
    }
    if !trace.lengths_agree() {
        return Err(DAMAGED.into());
    }
    for thread in &mut trace.threads {
        for details in thread.details_mut() {
            c.map_details(details, names.as_deref()).await?;
        }
    }
    Ok(())
}

/// A column that is copied as it is.
fn keep<T>(_slice: &mut [T], _at: usize) {}

/// Copies the columns of one message into wasm memory, in order.
struct Copier<'p> {
    columns: Array,
    next: u32,
    pace: &'p mut Pace,
}

impl Copier<'_> {
    /// The next two columns: a string table, rebuilt in steps.
    async fn strings(&mut self) -> Result<StringTable, String> {
        let bytes = self.copy::<Uint8Array>(keep).await?;
        let ends = self.copy::<Uint32Array>(keep).await?;
        let mut all = Vec::new();
        all.try_reserve_exact(ends.len())
            .map_err(|_| DAMAGED.to_owned())?;
        let mut start = 0;
        for step in ends.chunks(STRINGS_STEP) {
            for &end in step {
                let end = end as usize;
                let text = bytes.get(start..end).ok_or(DAMAGED)?;
                all.push(std::str::from_utf8(text).map_err(|_| DAMAGED)?.to_owned());
                start = end;
            }
            self.pace.tick().await;
        }
        Ok(StringTable::from_vec(all))
    }

    /// The next three columns: a table's rows (its cells' text, where each
    /// cell ends, where each row ends), rebuilt in steps. A table of a big
    /// trace can hold millions of cells: decoded in one go with the rest of
    /// the trace they made a task of 80 ms and more.
    async fn table_rows(&mut self) -> Result<Vec<Vec<String>>, String> {
        let bytes = self.copy::<Uint8Array>(keep).await?;
        let ends = self.copy::<Uint32Array>(keep).await?;
        let row_ends = self.copy::<Uint32Array>(keep).await?;
        let mut rows = Vec::new();
        rows.try_reserve_exact(row_ends.len())
            .map_err(|_| DAMAGED.to_owned())?;
        let (mut cell, mut start, mut since_tick) = (0, 0, 0);
        for &row_end in &row_ends {
            let row_end = row_end as usize;
            let cells = ends.get(cell..row_end).ok_or(DAMAGED)?;
            let mut row = Vec::with_capacity(cells.len());
            for &end in cells {
                let end = end as usize;
                let text = bytes.get(start..end).ok_or(DAMAGED)?;
                row.push(std::str::from_utf8(text).map_err(|_| DAMAGED)?.to_owned());
                start = end;
            }
            rows.push(row);
            cell = row_end;
            since_tick += cells.len() + 1;
            if since_tick >= STRINGS_STEP {
                since_tick = 0;
                self.pace.tick().await;
            }
        }
        if cell != ends.len() {
            return Err(DAMAGED.into());
        }
        Ok(rows)
    }

    /// The next column, copied in slices; `fix(slice, at)` is applied to each
    /// slice as it lands (`at`: the slice's first position in the column).
    async fn copy<A: Typed>(
        &mut self,
        mut fix: impl FnMut(&mut [A::Elem], usize),
    ) -> Result<Vec<A::Elem>, String> {
        let value = self.columns.get(self.next);
        // The message's array no longer holds it: copied, it can go.
        self.columns.set(self.next, JsValue::UNDEFINED);
        self.next += 1;
        let array: A = value.dyn_into().map_err(|_| DAMAGED.to_owned())?;
        let len = array.len();
        let mut out: Vec<A::Elem> = Vec::new();
        out.try_reserve_exact(len as usize).map_err(|_| {
            "this trace needs more memory to display than the browser can give this page".to_owned()
        })?;
        let step = (SLICE_BYTES / std::mem::size_of::<A::Elem>()).max(1) as u32;
        let mut start = 0;
        while start < len {
            let end = start.saturating_add(step).min(len);
            out.resize(end as usize, A::Elem::default());
            let slice = &mut out[start as usize..end as usize];
            array.part(start, end).copy_into(slice);
            fix(slice, start as usize);
            start = end;
            self.pace.tick().await;
        }
        Ok(out)
    }

    /// The next column (or columns, for [`ColumnMut::I64Columns`] and
    /// [`ColumnMut::Rows`]) into `column`; a name column of a part is mapped
    /// through `names` as it lands.
    async fn column(
        &mut self,
        info: ColumnInfo,
        column: ColumnMut<'_>,
        names: Option<&[StrId]>,
    ) -> Result<(), String> {
        let rename = |ids: &mut [u32], _at: usize| {
            if let (true, Some(names)) = (info.names, names) {
                map_names(ids, names);
            }
        };
        match column {
            ColumnMut::I64(v) => *v = self.copy::<BigInt64Array>(keep).await?,
            ColumnMut::U64(v) => *v = self.copy::<BigUint64Array>(keep).await?,
            ColumnMut::U32(v) => *v = self.copy::<Uint32Array>(rename).await?,
            ColumnMut::U16(v) => *v = self.copy::<Uint16Array>(keep).await?,
            ColumnMut::U8(v) => *v = self.copy::<Uint8Array>(keep).await?,
            ColumnMut::F64(v) => *v = self.copy::<Float64Array>(keep).await?,
            ColumnMut::I64Columns(columns) => {
                for column in columns {
                    *column = self.copy::<BigInt64Array>(keep).await?;
                }
            }
            ColumnMut::Strings(table) => *table = self.strings().await?,
            ColumnMut::Rows(rows) => *rows = self.table_rows().await?,
        }
        Ok(())
    }

    /// Checks one [`Details`] whose columns have all arrived (its `shapes`
    /// came in the codec buffer) and maps its strings through `names` when
    /// given, in steps.
    async fn map_details(
        &mut self,
        details: &mut Details,
        names: Option<&[StrId]>,
    ) -> Result<(), String> {
        if !details.is_consistent() {
            return Err(DAMAGED.into());
        }
        if let Some(names) = names {
            map_detail_texts(details, None, names);
            let groups = details.groups();
            let mut start = 0;
            while start < groups {
                let end = start.saturating_add(GROUPS_STEP).min(groups);
                map_detail_texts(details, Some(start..end), names);
                start = end;
                self.pace.tick().await;
            }
        }
        Ok(())
    }
}

/// A typed array type and its element.
trait Typed: JsCast + Sized {
    type Elem: Copy + Default;
    fn new_len(len: u32) -> Self;
    fn len(&self) -> u32;
    fn part(&self, start: u32, end: u32) -> Self;
    fn fill_from(&self, src: &[Self::Elem]);
    fn copy_into(&self, dst: &mut [Self::Elem]);
}

macro_rules! typed {
    ($array:ty, $elem:ty) => {
        impl Typed for $array {
            type Elem = $elem;
            fn new_len(len: u32) -> Self {
                <$array>::new_with_length(len)
            }
            fn len(&self) -> u32 {
                self.length()
            }
            fn part(&self, start: u32, end: u32) -> Self {
                self.subarray(start, end)
            }
            fn fill_from(&self, src: &[$elem]) {
                self.copy_from(src)
            }
            fn copy_into(&self, dst: &mut [$elem]) {
                self.copy_to(dst)
            }
        }
    };
}

typed!(BigInt64Array, i64);
typed!(BigUint64Array, u64);
typed!(Float64Array, f64);
typed!(Uint32Array, u32);
typed!(Uint16Array, u16);
typed!(Uint8Array, u8);

/// Empties `column` into a new typed array (its memory is free for reuse at once).
fn take<A: Typed>(column: &mut Vec<A::Elem>) -> JsValue {
    to_js::<A>(&std::mem::take(column))
}

fn to_js<A: Typed>(column: &[A::Elem]) -> JsValue {
    // wasm32 memory is at most 4 GiB, so every column's length fits in u32.
    let array = A::new_len(column.len() as u32);
    array.fill_from(column);
    array.into()
}
