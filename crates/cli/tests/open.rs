//! `flamedrop open`: the server run for real on 127.0.0.1, asked with plain
//! HTTP requests: the page, the trace's files byte for byte, 404 for
//! anything else, and when it stops; the clear errors (unreadable path,
//! busy port, no browser). Built without the viewer (no `dist/` at build
//! time), `open` must say how to get it instead.

mod common;

use common::{fixture, flamedrop};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const NO_VIEWER: &str = "built without the viewer";

fn nested() -> String {
    fixture("uftrace/a-simple-nested/uftrace.data")
}

/// Whether this binary holds the viewer (else `open` refuses, saying why).
fn viewer_embedded() -> bool {
    let run = flamedrop(&["open", &nested(), "--no-browser", "--idle-timeout", "1"]);
    if run.stderr.contains(NO_VIEWER) {
        assert_eq!(run.code, 2);
        assert!(
            run.stderr.contains("trunk build --release"),
            "{}",
            run.stderr
        );
        return false;
    }
    assert_eq!(run.code, 0, "{}", run.stderr);
    true
}

/// A running `flamedrop open`, its address read from its first line.
struct Served {
    child: Child,
    port: u16,
    token: String,
}

fn serve(extra: &[&str], env: &[(&str, &str)]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_flamedrop"))
        .arg("open")
        .arg(nested())
        .args(extra)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("flamedrop starts");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout).read_line(&mut line).expect("a line");
    let url = line.trim();
    let rest = url
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("not a loopback URL: {url:?}"));
    let (port, token) = rest.split_once("/?trace=").expect("?trace= in the URL");
    Served {
        port: port.parse().expect("a port"),
        token: token.to_owned(),
        child,
    }
}

impl Served {
    fn get(&self, path: &str) -> (u16, String, Vec<u8>) {
        http(self.port, "GET", path, &format!("127.0.0.1:{}", self.port))
    }

    /// Waits for the process to end by itself; its exit code and stderr.
    fn wait(mut self, within: Duration) -> (i32, String) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if start.elapsed() > within {
                let _ = self.child.kill();
                panic!("flamedrop open still running after {within:?}");
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let mut stderr = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            e.read_to_string(&mut stderr).expect("stderr");
        }
        (status.code().unwrap_or(-1), stderr)
    }
}

/// One HTTP/1.0 request (so the answer is never chunked); (status, head, body).
fn http(port: u16, method: &str, path: &str, host: &str) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: {host}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    )
    .expect("sends");
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).expect("reads");
    let split = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header end");
    let head = String::from_utf8_lossy(&bytes[..split]).into_owned();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, head, bytes[split + 4..].to_vec())
}

#[test]
fn serves_the_page_and_the_trace_and_nothing_else() {
    if !viewer_embedded() {
        return;
    }
    let served = serve(&["--no-browser", "--idle-timeout", "60"], &[]);
    let (status, head, body) = served.get(&format!("/?trace={}", served.token));
    assert_eq!(status, 200);
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/html"),
        "{head}"
    );
    assert!(String::from_utf8_lossy(&body).contains("boot.js"));

    // The manifest lists the folder's files as a drop of it would.
    let dir = std::path::PathBuf::from(nested());
    let names = fixture_names();
    let (status, _, body) = served.get(&format!("/trace/{}/manifest.json", served.token));
    assert_eq!(status, 200);
    let manifest: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
    let listed: Vec<String> = names.iter().map(|n| format!("uftrace.data/{n}")).collect();
    assert_eq!(manifest["files"], serde_json::json!(listed));
    for (index, name) in names.iter().enumerate() {
        let (status, _, body) = served.get(&format!("/trace/{}/file/{index}", served.token));
        assert_eq!(status, 200, "{name}");
        assert_eq!(
            body,
            std::fs::read(dir.join(name)).expect("fixture file"),
            "{name}"
        );
    }

    let token = &served.token;
    for path in [
        "/Cargo.toml".to_owned(),
        "/../README.md".to_owned(),
        "/demos/".to_owned(),
        "/trace/".to_owned(),
        format!("/trace/{token}/"),
        format!("/trace/{token}/file/{}", names.len()),
        format!("/trace/{token}/uftrace.data/info"),
        format!("/trace/{token}x/manifest.json"),
        "/trace/0/file/0".to_owned(),
    ] {
        assert_eq!(served.get(&path).0, 404, "{path}");
    }
    let port = served.port;
    assert_eq!(
        http(port, "GET", "/", &format!("evil.example:{port}")).0,
        403
    );
    assert_eq!(http(port, "PUT", "/", &format!("127.0.0.1:{port}")).0, 405);

    // A page opens and closes: the server stops a few seconds later.
    let host = format!("127.0.0.1:{port}");
    assert_eq!(
        http(port, "GET", &format!("/trace/{token}/alive?page=p1"), &host).0,
        204
    );
    assert_eq!(
        http(
            port,
            "POST",
            &format!("/trace/{token}/closed?page=p1"),
            &host
        )
        .0,
        204
    );
    let (code, stderr) = served.wait(Duration::from_secs(15));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("the page was closed"), "{stderr}");
}

/// Reads one answer off a kept-alive connection: (status, body), by its
/// `Content-Length`.
fn read_answer(reader: &mut BufReader<TcpStream>) -> (u16, Vec<u8>) {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a head line");
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .and_then(|n| n.trim().parse().ok())
        .expect("a length");
    let mut body = vec![0; length];
    reader.read_exact(&mut body).expect("the body");
    (status, body)
}

#[test]
fn a_kept_alive_connection_is_answered_request_after_request() {
    if !viewer_embedded() {
        return;
    }
    let served = serve(&["--no-browser", "--idle-timeout", "60"], &[]);
    let host = format!("127.0.0.1:{}", served.port);
    let stream = TcpStream::connect(("127.0.0.1", served.port)).expect("connects");
    let mut writer = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    let token = &served.token;
    // A beacon's body is read past, and the next request still answered.
    write!(
        writer,
        "GET /trace/{token}/alive?page=k1 HTTP/1.1\r\nHost: {host}\r\n\r\n\
         GET /trace/{token}/file/0 HTTP/1.1\r\nHost: {host}\r\n\r\n\
         POST /trace/{token}/closed?page=k1 HTTP/1.1\r\nHost: {host}\r\nContent-Length: 4\r\n\r\nbye!\
         GET /nothing HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .expect("sends");
    assert_eq!(read_answer(&mut reader).0, 204);
    let info =
        std::fs::read(std::path::Path::new(&nested()).join(&fixture_names()[0])).expect("file");
    let (status, body) = read_answer(&mut reader);
    assert_eq!(status, 200);
    assert!(
        body == info,
        "file 0: {} bytes, {} on disk",
        body.len(),
        info.len()
    );
    assert_eq!(read_answer(&mut reader).0, 204);
    assert_eq!(read_answer(&mut reader).0, 404);
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest).expect("closed");
    assert!(rest.is_empty(), "nothing after the last answer");
    let (code, stderr) = served.wait(Duration::from_secs(15));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("the page was closed"), "{stderr}");
}

/// The fixture folder's file names, in the server's (sorted) order.
fn fixture_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(nested())
        .expect("fixture")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn stops_after_the_idle_timeout_and_tells_a_missing_browser() {
    if !viewer_embedded() {
        return;
    }
    let served = serve(
        &["--idle-timeout", "1"],
        &[("BROWSER", "/nonexistent/browser")],
    );
    let url = format!("http://127.0.0.1:{}/?trace={}", served.port, served.token);
    let (code, stderr) = served.wait(Duration::from_secs(15));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("could not start a browser (/nonexistent/browser: "),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("open {url} in one yourself")),
        "{stderr}"
    );
    assert!(
        stderr.contains("no page open for the idle timeout"),
        "{stderr}"
    );
}

#[test]
fn a_busy_port_is_told() {
    let taken = TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = taken.local_addr().expect("addr").port().to_string();
    let run = flamedrop(&["open", &nested(), "--no-browser", "--port", &port]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains(&format!("port {port} of 127.0.0.1 is busy")),
        "{}",
        run.stderr
    );
}

#[test]
fn a_missing_or_empty_path_is_told_before_serving() {
    let run = flamedrop(&["open", "/nonexistent/uftrace.data", "--no-browser"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "flamedrop: /nonexistent/uftrace.data: no such file or folder\n"
    );
    let empty = std::env::temp_dir().join(format!("flamedrop-open-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("temp dir");
    let run = flamedrop(&["open", &empty.to_string_lossy(), "--no-browser"]);
    std::fs::remove_dir(&empty).expect("cleanup");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no files to open"), "{}", run.stderr);
}
