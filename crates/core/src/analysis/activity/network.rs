//! The Network page: one row per socket (whatever thread uses it). The
//! socket is open from its fd open (or first connect, bind, listen or
//! accept) to its close, receives and sends run from their start to their
//! end (the end carries the byte count and the payload), accepts and event
//! waits are waits (the socket api types of `probeinfo.h`).

use super::book::Book;
use super::probes::each;
use super::State;
use crate::model::Trace;

/// The socket api names the SWAP decoder gives (`socket_api`).
const APIS: [&str; 15] = [
    "fd open",
    "fd close",
    "recv start",
    "recv end",
    "send start",
    "send end",
    "bind",
    "listen",
    "connect",
    "accept start",
    "accept end",
    "event start",
    "event end",
    "http",
    "other",
];

pub fn build(trace: &Trace) -> Book {
    let mut book = Book::new(trace.time_range().map_or(0, |r| r.1));
    each(trace, "network", &APIS, |p| {
        let socket = p.text("socket");
        let row = book.row(p.thread, socket, p.text("destination"), true);
        let failed = p.failed();
        let bytes = p.number("bytes");
        let (mut read, mut written) = (0, 0);
        let t = p.time;
        match p.api {
            "fd open" | "connect" | "bind" | "listen" if !failed => book.begin(row, State::Open, t),
            "fd close" => {
                book.end(row, State::Open, t);
            }
            "recv start" => book.begin(row, State::Read, t),
            "recv end" => {
                book.end(row, State::Read, t);
                read = if failed { 0 } else { bytes };
            }
            "send start" => book.begin(row, State::Write, t),
            "send end" => {
                book.end(row, State::Write, t);
                written = if failed { 0 } else { bytes };
            }
            "accept start" | "event start" => book.begin(row, State::Wait, t),
            "accept end" | "event end" => {
                book.end(row, State::Wait, t);
            }
            _ => {}
        }
        book.mark(p.mark(row, read, written));
    });
    book
}
