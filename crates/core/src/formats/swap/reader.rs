//! Reading a message payload: the shared kit's bounds-checked [`ByteCursor`]
//! (little-endian, as every SWAP producer writes) and the NUL-terminated
//! text the target writes. Every read returns `None` past the end.

pub use crate::formats::common::ByteCursor;

/// Reading SWAP's text fields.
pub trait SwapText {
    /// A NUL-terminated string (the NUL is consumed, not returned), read as
    /// UTF-8 with lossy replacement.
    fn string(&mut self) -> Option<String>;
}

impl SwapText for ByteCursor<'_> {
    fn string(&mut self) -> Option<String> {
        Some(String::from_utf8_lossy(self.until_nul()?).into_owned())
    }
}
