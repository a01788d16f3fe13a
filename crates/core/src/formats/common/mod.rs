//! The small parts every decoder needs and none should write again:
//!
//! - [`ByteCursor`]: bounds-checked reads of fixed-size fields in either byte
//!   order (every read answers `None`, or a [`Short`] naming the offset,
//!   instead of panicking);
//! - [`Carry`]: the bytes of a record cut by a chunk's end, kept until the
//!   next chunk completes it, with the file offset of every byte handed on;
//! - [`Recording`]: a recording that is a folder of files with roles: which
//!   folder is read, each file's role, the files ignored, and the metadata
//!   files held whole until they are parsed.
//!
//! This is a toolkit, not a framework: a decoder takes what fits its format.

mod carry;
mod cursor;
mod recording;

pub use carry::{Carry, Unfinished};
pub use cursor::{u16_at, u32_at, u64_at, ByteCursor, Endian, Short};
pub use recording::Recording;
