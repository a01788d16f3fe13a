//! The decoded trace's big columns travel from the worker to the page as
//! typed arrays of their own, each transferred, not cloned: the string table
//! (its bytes and where each string ends), per thread the
//! span times, depths, names and flags, the marker times and names and the
//! detail columns of both; for the whole trace the stack table, the sample
//! sets, the allocations, the counters and the rows of its tables. The
//! worker copies each column out of its memory once; the page copies each into its own memory in slices,
//! pausing between them so it stays responsive, and drops its reference to
//! each array as soon as it is copied. The rest of the trace is small and
//! goes as one `model::codec` buffer.

use crate::browser::pace::Pace;
use flamedrop_core::model::merge::{map_detail_texts, map_names, part_names};
use flamedrop_core::model::{Details, Shapes, StrId, StringTable, Trace};
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

/// Takes the big columns out of `trace` and copies each into a new typed
/// array; the arrays, in the order [`attach`] expects.
pub fn detach(trace: &mut Trace) -> Array {
    let out = Array::new();
    let push = |array: JsValue| {
        out.push(&array);
    };
    let strings = std::mem::take(&mut trace.strings);
    let mut bytes = Vec::new();
    let mut ends = Vec::with_capacity(strings.len());
    for text in strings.all() {
        bytes.extend_from_slice(text.as_bytes());
        // wasm32 memory is at most 4 GiB, so every offset fits in u32.
        ends.push(bytes.len() as u32);
    }
    drop(strings);
    push(take::<Uint8Array>(&mut bytes));
    push(take::<Uint32Array>(&mut ends));
    for thread in &mut trace.threads {
        let spans = &mut thread.spans;
        push(take::<BigInt64Array>(&mut spans.start));
        push(take::<BigInt64Array>(&mut spans.end));
        push(take::<Uint16Array>(&mut spans.depth));
        push(take::<Uint32Array>(&mut spans.name));
        push(take::<Uint8Array>(&mut spans.flags));
        let instants = &mut thread.instants;
        push(take::<BigInt64Array>(&mut instants.time));
        push(take::<Uint32Array>(&mut instants.name));
        // The shapes are small: they stay, and go with the codec buffer.
        for d in [&mut thread.spans.details, &mut thread.instants.details] {
            push(take::<Uint32Array>(&mut d.owner));
            push(take::<Uint32Array>(&mut d.shape));
            push(take::<Uint32Array>(&mut d.first));
            push(take::<Uint32Array>(&mut d.payload));
        }
    }
    push(take::<Uint32Array>(&mut trace.stacks.frame));
    push(take::<Uint32Array>(&mut trace.stacks.parent));
    for set in &mut trace.sample_sets {
        push(take::<BigInt64Array>(&mut set.time));
        push(take::<Uint32Array>(&mut set.stack));
        // The weight columns stay in the trace, empty, so the page knows how many.
        for weights in &mut set.weights {
            push(take::<BigInt64Array>(weights));
        }
    }
    for a in &mut trace.allocations {
        push(take::<Uint32Array>(&mut a.thread));
        push(take::<BigInt64Array>(&mut a.time));
        push(take::<BigUint64Array>(&mut a.size));
        push(take::<BigUint64Array>(&mut a.address));
        push(take::<Uint32Array>(&mut a.stack));
        push(take::<BigInt64Array>(&mut a.free_time));
    }
    for c in &mut trace.counters {
        push(take::<BigInt64Array>(&mut c.time));
        push(take::<Float64Array>(&mut c.value));
    }
    for table in &mut trace.tables {
        let (mut bytes, mut ends, mut rows) = (Vec::new(), Vec::new(), Vec::new());
        for row in std::mem::take(&mut table.rows) {
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
    out
}

/// How many columns [`detach`] takes out of a trace shaped like `trace`.
fn count(trace: &Trace) -> usize {
    const PER_THREAD: usize = 7 + 2 * 4;
    2 + trace.threads.len() * PER_THREAD
        + 2
        + trace
            .sample_sets
            .iter()
            .map(|s| 2 + s.weights.len())
            .sum::<usize>()
        + trace.allocations.len() * 6
        + trace.counters.len() * 2
        + trace.tables.len() * 3
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
/// part to merge into `whole`: its strings are interned there and its span
/// and marker names and detail strings mapped as they are copied (see
/// `flamedrop_core::model::merge`).
pub async fn attach(
    trace: &mut Trace,
    columns: Array,
    whole: Option<&mut Trace>,
    pace: &mut Pace,
) -> Result<(), String> {
    if columns.length() as usize != count(trace) {
        return Err(DAMAGED.into());
    }
    let mut c = Copier {
        columns,
        next: 0,
        pace,
    };
    trace.strings = c.strings().await?;
    let names = match whole {
        Some(whole) => Some(part_names(whole, trace)?),
        None => None,
    };
    let names = names.as_deref();
    let rename = |ids: &mut [u32], _at: usize| {
        if let Some(names) = names {
            map_names(ids, names);
        }
    };
    for thread in &mut trace.threads {
        let spans = &mut thread.spans;
        spans.start = c.copy::<BigInt64Array>(keep).await?;
        spans.end = c.copy::<BigInt64Array>(keep).await?;
        spans.depth = c.copy::<Uint16Array>(keep).await?;
        spans.name = c.copy::<Uint32Array>(rename).await?;
        spans.flags = c.copy::<Uint8Array>(keep).await?;
        let n = spans.start.len();
        same_len(n, &[spans.end.len(), spans.depth.len(), spans.name.len()])?;
        same_len(n, &[spans.flags.len()])?;
        let instants = &mut thread.instants;
        instants.time = c.copy::<BigInt64Array>(keep).await?;
        instants.name = c.copy::<Uint32Array>(rename).await?;
        same_len(instants.time.len(), &[instants.name.len()])?;
        let shapes = std::mem::take(&mut thread.spans.details.shapes);
        thread.spans.details = c.details(shapes, names).await?;
        let shapes = std::mem::take(&mut thread.instants.details.shapes);
        thread.instants.details = c.details(shapes, names).await?;
    }
    let stacks = &mut trace.stacks;
    stacks.frame = c.copy::<Uint32Array>(keep).await?;
    stacks.parent = c.copy::<Uint32Array>(keep).await?;
    same_len(stacks.frame.len(), &[stacks.parent.len()])?;
    for set in &mut trace.sample_sets {
        set.time = c.copy::<BigInt64Array>(keep).await?;
        set.stack = c.copy::<Uint32Array>(keep).await?;
        for weights in &mut set.weights {
            *weights = c.copy::<BigInt64Array>(keep).await?;
        }
        let n = set.stack.len();
        if !set.time.is_empty() {
            same_len(n, &[set.time.len()])?;
        }
        let lens: Vec<usize> = set.weights.iter().map(Vec::len).collect();
        same_len(n, &lens)?;
    }
    for a in &mut trace.allocations {
        a.thread = c.copy::<Uint32Array>(keep).await?;
        a.time = c.copy::<BigInt64Array>(keep).await?;
        a.size = c.copy::<BigUint64Array>(keep).await?;
        a.address = c.copy::<BigUint64Array>(keep).await?;
        a.stack = c.copy::<Uint32Array>(keep).await?;
        a.free_time = c.copy::<BigInt64Array>(keep).await?;
        let n = a.thread.len();
        same_len(n, &[a.time.len(), a.size.len(), a.address.len()])?;
        same_len(n, &[a.stack.len(), a.free_time.len()])?;
    }
    for counter in &mut trace.counters {
        counter.time = c.copy::<BigInt64Array>(keep).await?;
        counter.value = c.copy::<Float64Array>(keep).await?;
        same_len(counter.time.len(), &[counter.value.len()])?;
    }
    for table in &mut trace.tables {
        table.rows = c.table_rows().await?;
    }
    Ok(())
}

/// A column that is copied as it is.
fn keep<T>(_slice: &mut [T], _at: usize) {}

fn same_len(n: usize, others: &[usize]) -> Result<(), String> {
    if others.iter().all(|&len| len == n) {
        Ok(())
    } else {
        Err(DAMAGED.into())
    }
}

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

    /// The next four columns: the groups and payload of one [`Details`]
    /// whose `shapes` came in the codec buffer, its strings mapped through
    /// `names` when given.
    async fn details(
        &mut self,
        shapes: Shapes,
        names: Option<&[StrId]>,
    ) -> Result<Details, String> {
        let mut details = Details {
            owner: self.copy::<Uint32Array>(keep).await?,
            shape: self.copy::<Uint32Array>(keep).await?,
            first: self.copy::<Uint32Array>(keep).await?,
            payload: self.copy::<Uint32Array>(keep).await?,
            shapes,
        };
        if !details.is_consistent() {
            return Err(DAMAGED.into());
        }
        if let Some(names) = names {
            map_detail_texts(&mut details, None, names);
            let groups = details.groups();
            let mut start = 0;
            while start < groups {
                let end = start.saturating_add(GROUPS_STEP).min(groups);
                map_detail_texts(&mut details, Some(start..end), names);
                start = end;
                self.pace.tick().await;
            }
        }
        Ok(details)
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
