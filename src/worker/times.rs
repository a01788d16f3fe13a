//! Span times travel from the worker to the page packed into 32-bit words:
//! a span's start as the step from the previous span's start, its end as
//! its duration. Both almost always fit, so the two 8-byte columns that are
//! most of a trace's bytes go as 4 bytes each, and the worker's copy out,
//! the page's copy in and the memory both hold at the hand-off shrink by a
//! third. A value whose step does not fit is escaped and sent whole.
//!
//! Layout of one packed column of `n` values: word 0 is `n`, words
//! `1..=n` are the steps (`ESCAPED` for a value sent whole), then each
//! escaped value in order as two words, low half first.

use js_sys::Uint32Array;

/// A step that did not fit: the value follows the steps, whole.
const ESCAPED: u32 = u32::MAX;

/// Words packed between two copies into the typed array.
const STEP_WORDS: usize = 1 << 20;

/// The step from `reference` to `value`, if it fits below [`ESCAPED`].
fn step(value: i64, reference: i64) -> Option<u32> {
    value
        .checked_sub(reference)
        .and_then(|d| u32::try_from(d).ok())
        .filter(|&d| d != ESCAPED)
}

/// Packs `values`, each relative to `reference(i, previous value)`, into a
/// new typed array (without growing wasm memory by more than one step of
/// words).
pub fn pack(values: &[i64], reference: impl Fn(usize, i64) -> i64) -> Uint32Array {
    let mut escaped: Vec<i64> = Vec::new();
    let mut previous = 0;
    for (i, &v) in values.iter().enumerate() {
        if step(v, reference(i, previous)).is_none() {
            escaped.push(v);
        }
        previous = v;
    }
    // wasm32 memory is at most 4 GiB, so every count fits in u32.
    let n = values.len();
    let array = Uint32Array::new_with_length((1 + n + 2 * escaped.len()) as u32);
    array.set_index(0, n as u32);
    let mut words: Vec<u32> = Vec::with_capacity(STEP_WORDS.min(n.max(1)));
    let mut previous = 0;
    let mut at = 1u32;
    for (c, part) in values.chunks(STEP_WORDS).enumerate() {
        words.clear();
        for (j, &v) in part.iter().enumerate() {
            let i = c * STEP_WORDS + j;
            words.push(step(v, reference(i, previous)).unwrap_or(ESCAPED));
            previous = v;
        }
        array
            .subarray(at, at + words.len() as u32)
            .copy_from(&words);
        at += words.len() as u32;
    }
    words.clear();
    for v in escaped {
        let bits = v as u64;
        words.push(bits as u32);
        words.push((bits >> 32) as u32);
    }
    array
        .subarray(at, at + words.len() as u32)
        .copy_from(&words);
    array
}

/// Unpacks what [`pack`] made, a step of words at a time: `reference(i,
/// previous value)` as when packing. `None` for words that do not fit the
/// layout.
pub struct Unpacker {
    array: Uint32Array,
    n: usize,
    escaped: Vec<i64>,
    next_escaped: usize,
    words: Vec<u32>,
    done: usize,
    previous: i64,
}

impl Unpacker {
    /// Reads the header and the escaped values of a packed column.
    pub fn new(array: Uint32Array) -> Option<Unpacker> {
        let len = array.length() as usize;
        let n = *array.subarray(0, 1.min(len as u32)).to_vec().first()? as usize;
        let tail = len.checked_sub(1 + n)?;
        if tail % 2 != 0 {
            return None;
        }
        let pairs = array.subarray((1 + n) as u32, len as u32).to_vec();
        let escaped = pairs
            .chunks_exact(2)
            .map(|w| (u64::from(w[0]) | (u64::from(w[1]) << 32)) as i64)
            .collect();
        Some(Unpacker {
            array,
            n,
            escaped,
            next_escaped: 0,
            words: Vec::new(),
            done: 0,
            previous: 0,
        })
    }

    /// Number of values.
    pub fn values(&self) -> usize {
        self.n
    }

    /// Appends up to `count` more values to `out` (which holds the values
    /// before them); false when the words do not fit the layout.
    pub fn next(
        &mut self,
        out: &mut Vec<i64>,
        count: usize,
        reference: impl Fn(usize, i64) -> i64,
    ) -> bool {
        let end = self.done.saturating_add(count).min(self.n);
        let (from, to) = (1 + self.done as u32, 1 + end as u32);
        self.words.resize(end - self.done, 0);
        self.array.subarray(from, to).copy_to(&mut self.words);
        for (j, &w) in self.words.iter().enumerate() {
            let i = self.done + j;
            let v = if w == ESCAPED {
                let Some(&v) = self.escaped.get(self.next_escaped) else {
                    return false;
                };
                self.next_escaped += 1;
                v
            } else {
                reference(i, self.previous).saturating_add(i64::from(w))
            };
            out.push(v);
            self.previous = v;
        }
        self.done = end;
        true
    }

    /// True once every value was unpacked and every escaped value used.
    pub fn finished(&self) -> bool {
        self.done == self.n && self.next_escaped == self.escaped.len()
    }
}
