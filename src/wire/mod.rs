//! What the page and the decoding worker say to each other, shared by both
//! sides: the messages ([`protocol`]).

pub mod protocol;
