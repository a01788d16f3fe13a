//! The messages between the page and the decoding worker, and how they are
//! turned into JS values.
//!
//! Files travel as `Blob` handles (`serde_wasm_bindgen::preserve`): posting
//! one to the worker copies a reference, not the bytes. The decoded trace
//! comes back as buffers that are transferred, not cloned.

use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

/// What the progress names while the decoder turns what it read into a trace.
pub const BUILDING: &str = "building the trace";

/// One file to decode: its path relative to what was opened, and its data.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct InputFile {
    pub path: String,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub blob: web_sys::Blob,
}

impl InputFile {
    /// Size in bytes.
    pub fn size(&self) -> f64 {
        self.blob.size()
    }
}

/// Page → worker: decode these files, or part `part` of `parts` of them
/// when the page runs several workers side by side.
#[derive(Debug, Serialize, Deserialize)]
pub struct DecodeRequest {
    pub files: Vec<InputFile>,
    pub part: u32,
    pub parts: u32,
    /// Only these threads / this time window (the part dialog's choice).
    #[serde(default)]
    pub selection: flamedrop_core::input::Selection,
    /// Post a [`WorkerEvent::Preview`] now and then while decoding.
    #[serde(default)]
    pub preview: bool,
    /// In the shared-memory build: the address of the job's
    /// `super::handover::Handover`, where the worker leaves the trace.
    #[serde(default)]
    pub handover: Option<usize>,
    /// In the shared-memory build, when the load is split: the address of
    /// its `super::join::JoinSlot`, where the parts of a joining decoder
    /// (sp-rtrace) meet.
    #[serde(default)]
    pub join: Option<usize>,
    /// The page's URL asked for this many workers (`?workers=2`): split
    /// even an input whose format decodes faster in one worker
    /// (`Decoder::parts_pay_off`), for tests and comparisons.
    #[serde(default)]
    pub split_anyway: bool,
}

/// Worker → page.
#[derive(Debug, Serialize, Deserialize)]
pub enum WorkerEvent {
    /// The worker's wasm is running and listening (messages sent before this
    /// would be lost).
    Ready,
    /// Bytes read so far out of the bytes the decoder planned to read, and
    /// what the worker is busy with (a file's path, or "building the trace").
    Progress { read: f64, total: f64, file: String },
    /// What was decoded so far, reduced to a small picture
    /// (`flamedrop_core::model::TraceBuilder::preview`), encoded by
    /// `flamedrop_core::model::codec`; posted every few hundred ms while
    /// reading, when the request asked for it.
    Preview {
        #[serde(with = "serde_wasm_bindgen::preserve")]
        trace: js_sys::ArrayBuffer,
    },
    /// The trace: its big columns as typed arrays (`super::columns`), the
    /// rest encoded by `flamedrop_core::model::codec`.
    Done {
        #[serde(with = "serde_wasm_bindgen::preserve")]
        trace: js_sys::ArrayBuffer,
        #[serde(with = "serde_wasm_bindgen::preserve")]
        columns: js_sys::Array,
        /// Time spent in the worker from request to encoded trace.
        worker_ms: f64,
        /// Where that time went: (phase, ms), in order.
        phases: Phases,
        /// The screen a reopened `.flamedrop` file was saved on (its
        /// header as JSON, `flamedrop_core::saved::Header`).
        #[serde(default)]
        reopened: Option<String>,
        /// Other parts' hand-overs this part joined in (`super::join`).
        #[serde(default)]
        joined: u32,
    },
    /// The shared-memory build's answer: the trace was left in the job's
    /// `super::handover::Handover`, not copied.
    Left {
        worker_ms: f64,
        phases: Phases,
        #[serde(default)]
        reopened: Option<String>,
        /// Other parts' hand-overs this part joined in (`super::join`).
        #[serde(default)]
        joined: u32,
    },
    /// Part 1 of a joining decoder left its hand-over in the load's
    /// `super::join::JoinSlot` for part 0; its bytes read still count.
    HandedOver {
        read: f64,
        total: f64,
        worker_ms: f64,
        phases: Phases,
    },
    /// This input cannot be split; the worker of part 0 decodes all of it,
    /// and this one has nothing to do.
    NotSplit,
    /// Nothing could be decoded; the message is for people.
    Failed { message: String },
}

/// Named parts of a time, in ms, in the order they happened (for
/// `window.flamedrop.timings()` and the benchmark).
pub type Phases = Vec<(String, f64)>;

/// A message as a JS value.
pub fn to_js<T: Serialize>(message: &T) -> Result<JsValue, String> {
    message
        .serialize(&serde_wasm_bindgen::Serializer::new())
        .map_err(|e| format!("could not encode a worker message: {e}"))
}

/// A JS value as a message.
pub fn from_js<T: for<'de> Deserialize<'de>>(value: JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| format!("could not read a worker message: {e}"))
}
