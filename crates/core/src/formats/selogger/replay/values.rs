//! Texts the replay attaches to spans: detail keys interned once, and a
//! direct-mapped cache of recent (data id, value) → interned text.

use super::{Known, Replay};
use crate::formats::selogger::objects::{describe_value, Objects};
use crate::model::{SpanRef, StrId, ThreadRef, TraceBuilder, Value};

/// Keys of the details events attach, interned on first use (in the order
/// the strings first occur, as interning them per event did).
#[derive(Default)]
pub(super) struct Keys {
    pub line: Option<StrId>,
    pub this: Option<StrId>,
    pub receiver: Option<StrId>,
    pub ret: Option<StrId>,
    pub exception: Option<StrId>,
}

/// The interned key `text`, interned into `slot` on first use.
pub(super) fn key(slot: &mut Option<StrId>, builder: &mut TraceBuilder, text: &str) -> StrId {
    *slot.get_or_insert_with(|| builder.intern(text))
}

/// Slots of [`ValueTexts`] (a power of two).
const VALUE_TEXT_SLOTS: usize = 1 << 12;

/// The interned text of recent (data id, value) pairs: most events repeat a
/// value their data id had before (the same object, small numbers), and a
/// hit spares formatting and hashing the text. Direct-mapped, so its memory
/// is fixed however many distinct values a recording has.
pub(super) struct ValueTexts {
    slots: Vec<(u32, i64, StrId)>,
}

impl ValueTexts {
    pub fn new() -> Self {
        ValueTexts {
            slots: vec![(u32::MAX, 0, 0); VALUE_TEXT_SLOTS],
        }
    }

    fn slot(data_id: u32, value: i64) -> usize {
        let mixed = (u64::from(data_id) << 32 ^ value as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> (64 - VALUE_TEXT_SLOTS.trailing_zeros())) as usize
    }

    fn get(&self, data_id: u32, value: i64) -> Option<StrId> {
        match self.slots.get(Self::slot(data_id, value)) {
            Some(&(d, v, text)) if d == data_id && v == value => Some(text),
            _ => None,
        }
    }

    fn put(&mut self, data_id: u32, value: i64, text: StrId) {
        if let Some(slot) = self.slots.get_mut(Self::slot(data_id, value)) {
            *slot = (data_id, value, text);
        }
    }
}

impl Replay {
    /// The interned text of an event's value (`make` shapes it on a miss).
    pub(super) fn value_text_id(
        &mut self,
        data_id: usize,
        value: i64,
        make: impl FnOnce(&Objects) -> String,
    ) -> StrId {
        // u32::MAX marks an empty slot; no dataids.txt has that many rows.
        let data_id = u32::try_from(data_id).ok().filter(|&d| d != u32::MAX);
        if let Some(text) = data_id.and_then(|d| self.value_texts.get(d, value)) {
            return text;
        }
        let text = self.builder.intern(&make(&self.statics.objects));
        if let Some(d) = data_id {
            self.value_texts.put(d, value, text);
        }
        text
    }

    /// Puts the event's value, shown by its data id's descriptor, on `span`
    /// under `key` (a return value, a receiver, a call argument).
    pub(super) fn value_detail(&mut self, lane: ThreadRef, span: SpanRef, key: StrId, at: Known) {
        let Known { id, info, event } = at;
        let text = self.value_text_id(id, event.value, |objects| {
            describe_value(info.value, event.value, objects).unwrap_or_default()
        });
        self.builder.detail(lane, span, key, Value::Text(text));
    }
}
