//! The decoded trace's big columns (span times, depths, names and flags,
//! marker times and names, and the detail columns of both) travel from the worker to the page as typed
//! arrays of their own, each transferred, not cloned: the worker copies each
//! column out of its memory once, and the page copies each into its own
//! memory in slices, pausing between them so it stays responsive. The rest
//! of the trace is small and goes as one `model::codec` buffer.

use crate::loading::pace::Pace;
use flamedrop_core::model::{Details, Trace};
use js_sys::{Array, BigInt64Array, BigUint64Array, Uint16Array, Uint32Array, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

/// Columns per thread, in this order: span start, end, depth, name, flags;
/// marker time, name; then span details and marker details, four columns
/// each (owner, key, kind, payload).
const PER_THREAD: usize = 7 + 2 * DETAIL_COLUMNS;

/// Columns of one [`Details`].
const DETAIL_COLUMNS: usize = 4;

/// Elements copied between two looks at the clock (a few milliseconds).
const SLICE_ELEMENTS: u32 = 1 << 20;

/// Takes the big columns out of `trace` and copies each into a new typed
/// array; the arrays, in the order [`attach`] expects.
pub fn detach(trace: &mut Trace) -> Array {
    let out = Array::new();
    for thread in &mut trace.threads {
        let spans = &mut thread.spans;
        out.push(&to_js::<BigInt64Array>(&std::mem::take(&mut spans.start)));
        out.push(&to_js::<BigInt64Array>(&std::mem::take(&mut spans.end)));
        out.push(&to_js::<Uint16Array>(&std::mem::take(&mut spans.depth)));
        out.push(&to_js::<Uint32Array>(&std::mem::take(&mut spans.name)));
        out.push(&to_js::<Uint8Array>(&std::mem::take(&mut spans.flags)));
        let instants = &mut thread.instants;
        out.push(&to_js::<BigInt64Array>(&std::mem::take(&mut instants.time)));
        out.push(&to_js::<Uint32Array>(&std::mem::take(&mut instants.name)));
        detach_details(&mut thread.spans.details, &out);
        detach_details(&mut thread.instants.details, &out);
    }
    out
}

fn detach_details(details: &mut Details, out: &Array) {
    let d = std::mem::take(details);
    out.push(&to_js::<Uint32Array>(&d.owner));
    out.push(&to_js::<Uint32Array>(&d.key));
    out.push(&to_js::<Uint8Array>(&d.kind));
    out.push(&to_js::<BigUint64Array>(&d.payload));
}

/// Puts back the detail columns starting at column `first` of `columns`.
async fn attach_details(columns: &Array, first: usize, pace: &mut Pace) -> Result<Details, String> {
    let at = |k: usize| columns.get((first + k) as u32);
    let details = Details {
        owner: from_js::<Uint32Array>(at(0), pace).await?,
        key: from_js::<Uint32Array>(at(1), pace).await?,
        kind: from_js::<Uint8Array>(at(2), pace).await?,
        payload: from_js::<BigUint64Array>(at(3), pace).await?,
    };
    if details.is_consistent() {
        Ok(details)
    } else {
        Err("the decoding worker sent back a damaged trace".into())
    }
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
/// message), checking that they fit together.
pub async fn attach(trace: &mut Trace, columns: &Array, pace: &mut Pace) -> Result<(), String> {
    const DAMAGED: &str = "the decoding worker sent back a damaged trace";
    if columns.length() as usize != trace.threads.len() * PER_THREAD {
        return Err(DAMAGED.into());
    }
    for (t, thread) in trace.threads.iter_mut().enumerate() {
        let at = |k: usize| columns.get((t * PER_THREAD + k) as u32);
        let spans = &mut thread.spans;
        spans.start = from_js::<BigInt64Array>(at(0), pace).await?;
        spans.end = from_js::<BigInt64Array>(at(1), pace).await?;
        spans.depth = from_js::<Uint16Array>(at(2), pace).await?;
        spans.name = from_js::<Uint32Array>(at(3), pace).await?;
        spans.flags = from_js::<Uint8Array>(at(4), pace).await?;
        let n = spans.start.len();
        if [
            spans.end.len(),
            spans.depth.len(),
            spans.name.len(),
            spans.flags.len(),
        ]
        .iter()
        .any(|&len| len != n)
        {
            return Err(DAMAGED.into());
        }
        let instants = &mut thread.instants;
        instants.time = from_js::<BigInt64Array>(at(5), pace).await?;
        instants.name = from_js::<Uint32Array>(at(6), pace).await?;
        if instants.time.len() != instants.name.len() {
            return Err(DAMAGED.into());
        }
        thread.spans.details = attach_details(columns, t * PER_THREAD + 7, pace).await?;
        thread.instants.details =
            attach_details(columns, t * PER_THREAD + 7 + DETAIL_COLUMNS, pace).await?;
    }
    Ok(())
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
typed!(Uint32Array, u32);
typed!(Uint16Array, u16);
typed!(Uint8Array, u8);

fn to_js<A: Typed>(column: &[A::Elem]) -> JsValue {
    // wasm32 memory is at most 4 GiB, so every column's length fits in u32.
    let array = A::new_len(column.len() as u32);
    array.fill_from(column);
    array.into()
}

async fn from_js<A: Typed>(value: JsValue, pace: &mut Pace) -> Result<Vec<A::Elem>, String> {
    let array: A = value
        .dyn_into()
        .map_err(|_| "the decoding worker sent back a damaged trace".to_owned())?;
    let len = array.len();
    let mut out: Vec<A::Elem> = Vec::new();
    out.try_reserve_exact(len as usize).map_err(|_| {
        "this trace needs more memory to display than the browser can give this page".to_owned()
    })?;
    let mut start = 0;
    while start < len {
        let end = start.saturating_add(SLICE_ELEMENTS).min(len);
        out.resize(end as usize, A::Elem::default());
        array
            .part(start, end)
            .copy_into(&mut out[start as usize..end as usize]);
        start = end;
        pace.tick().await;
    }
    Ok(out)
}
