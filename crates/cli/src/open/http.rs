//! The few bits of HTTP/1.1 the `open` server speaks, over plain std
//! sockets with one thread per connection (so a browser's keep-alive
//! connections never starve each other): a request head read and parsed
//! with `httparse`, a body (a beacon's) read and dropped, and one answer
//! with its length, streamed from memory or a file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The longest request head read; a longer one ends the connection.
const MAX_HEAD: usize = 16 << 10;
/// An idle keep-alive connection is closed after this long.
const IDLE_CONNECTION: Duration = Duration::from_secs(60);

/// What the server needs of a request.
pub struct Request {
    pub method: String,
    /// Path and query, as sent.
    pub url: String,
    pub host: Option<String>,
}

/// The body of an answer.
pub enum Body {
    Bytes(&'static [u8]),
    Text(String),
    File(File),
}

/// An answer: status, `Content-Type` and body.
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Body,
}

/// Answers the requests of one connection with `handle` until the client
/// closes it, asks to, or stays idle too long.
pub fn serve_connection(stream: TcpStream, handle: &dyn Fn(&Request) -> Reply) {
    let _ = stream.set_read_timeout(Some(IDLE_CONNECTION));
    let Ok(writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    let mut writer = io::BufWriter::new(writer);
    while let Ok(Some((request, keep_alive))) = read_request(&mut reader) {
        let reply = handle(&request);
        let head_only = request.method == "HEAD";
        if write_reply(&mut writer, reply, keep_alive, head_only).is_err() || !keep_alive {
            return;
        }
    }
}

/// The next request on the connection (None when it closed), and whether
/// the connection stays open after it.
fn read_request(reader: &mut BufReader<TcpStream>) -> io::Result<Option<(Request, bool)>> {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let n = reader
            .by_ref()
            .take(MAX_HEAD as u64)
            .read_until(b'\n', &mut head)?;
        if n == 0 || head.len() >= MAX_HEAD {
            return Ok(None);
        }
    }
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut parsed = httparse::Request::new(&mut headers);
    if !matches!(parsed.parse(&head), Ok(httparse::Status::Complete(_))) {
        return Ok(None);
    }
    let header = |name: &str| {
        parsed
            .headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).into_owned())
    };
    let length: u64 = header("Content-Length")
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let close = header("Connection").is_some_and(|v| v.eq_ignore_ascii_case("close"));
    let keep_alive = parsed.version == Some(1) && !close;
    let request = Request {
        method: parsed.method.unwrap_or("").to_owned(),
        url: parsed.path.unwrap_or("").to_owned(),
        host: header("Host"),
    };
    // A body (the page's beacon) is not needed: read past it.
    io::copy(&mut reader.by_ref().take(length), &mut io::sink())?;
    Ok(Some((request, keep_alive)))
}

fn write_reply(
    writer: &mut impl Write,
    reply: Reply,
    keep_alive: bool,
    head_only: bool,
) -> io::Result<()> {
    let length = match &reply.body {
        Body::Bytes(bytes) => bytes.len() as u64,
        Body::Text(text) => text.len() as u64,
        Body::File(file) => file.metadata()?.len(),
    };
    write!(
        writer,
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {length}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: {}\r\n\r\n",
        reply.status,
        reason(reply.status),
        reply.content_type,
        if keep_alive { "keep-alive" } else { "close" },
    )?;
    if !head_only {
        match reply.body {
            Body::Bytes(bytes) => writer.write_all(bytes)?,
            Body::Text(text) => writer.write_all(text.as_bytes())?,
            Body::File(file) => {
                // Exactly the length announced: a file that shrank meanwhile
                // ends the connection, one that grew is cut.
                if io::copy(&mut file.take(length), writer)? < length {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
            }
        }
    }
    writer.flush()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Internal Server Error",
    }
}
