//! The activity scenario behind the File, Network and Thread views: a notes
//! app whose main thread and worker share a database file and a mutex, a
//! worker that waits on a condition the main thread signals, and a network
//! thread talking to two servers (HTTP with text payloads, MQTT-like binary
//! frames left open at the end). A failed open and a file never closed;
//! two setup stages, a touch and a screenshot (markers on the timeline).

use crate::scenario::*;
use flamedrop_core::formats::swap::messages::*;
use flamedrop_core::formats::swap::values::Value;

const MS: i64 = 1_000_000;
const NET: u32 = 1241;
const DB: &str = "/opt/usr/apps/org.example.notes/data/notes.db";
const LOG: &str = "/opt/usr/apps/org.example.notes/data/notes.log";
const MISSING: &str = "/opt/usr/media/cover.png";
const MUTEX: u64 = 0x0300_5000;
const COND: u64 = 0x0300_5100;
const HTTP: u64 = 0x0400_a000;
const MQTT: u64 = 0x0400_b000;

/// The scenario's messages, numbered from 0.
pub fn activity() -> Vec<Frame> {
    let mut s = Scenario::default();
    for i in 0..12 {
        s.at(i * 10 * MS, system(i * 10 * MS));
    }
    s.at(1, process_info());
    files(&mut s);
    locks(&mut s);
    network(&mut s);
    screen(&mut s);
    s.at(115 * MS, Message::Terminate { pid: PID });
    s.frames(0)
}

/// Setup stages, a touch and the screenshot the target took after it.
fn screen(s: &mut Scenario) {
    for (stage, (a, b)) in [(0, 1), (1, 3)].into_iter().enumerate() {
        s.at(
            a * MS + 2,
            Message::AppSetupStage(AppSetupStage {
                pid: PID,
                stage: stage as u32,
                begin: time(a * MS),
                end: time(b * MS),
            }),
        );
    }
    let touch = ProbeTail::UiEvent {
        event_type: 2,
        detail: 0,
        x: 320,
        y: 540,
        info1: String::new(),
        info2: 0,
    };
    s.at(25 * MS, probe(80, PID, vec![], Value::Void, touch));
    let shot = ProbeTail::Screenshot {
        path: "/tmp/da/screenshot_1.png".into(),
        orientation: 0,
    };
    s.at(26 * MS, probe(81, PID, vec![], Value::Void, shot));
}

/// A probe with an errno.
fn probe_err(api_id: u32, tid: u32, errno: u64, tail: ProbeTail) -> Message {
    match probe(api_id, tid, vec![], Value::Int(0), tail) {
        Message::Probe(mut p) => {
            p.errno = errno;
            Message::Probe(p)
        }
        other => other,
    }
}

/// A file probe of `tid` on `path`.
fn file(tid: u32, fd: u64, api_type: u32, size: u64, path: &str) -> Message {
    let tail = ProbeTail::Resource {
        size,
        fd,
        api_type,
        file_size: 1 << 20,
        path: path.into(),
    };
    probe(
        20 + api_type,
        tid,
        vec![Value::Int(fd as i32)],
        Value::Int(0),
        tail,
    )
}

/// Main: the database opened, written 3 × 512 under a file lock, read
/// 2 × 4096, closed; the log opened and written 5 × 128, never closed.
/// Worker: the database opened, read 4 × 1024, closed; a failed open.
fn files(s: &mut Scenario) {
    let (main, worker) = (PID, WORKER);
    s.at(2 * MS, file(main, 20, 0, 0, DB));
    s.at(3 * MS, file(main, 20, 14, 0, DB));
    s.at(4 * MS, file(main, 20, 15, 0, DB));
    for i in 0..3 {
        let t = 5 * MS + i * 2 * MS;
        s.at(t, file(main, 20, 4, 0, DB));
        s.at(t + MS, file(main, 20, 5, 512, DB));
    }
    s.at(11 * MS, file(main, 20, 16, 0, DB));
    for i in 0..2 {
        let t = 12 * MS + i * 3 * MS;
        s.at(t, file(main, 20, 2, 0, DB));
        s.at(t + 2 * MS, file(main, 20, 3, 4096, DB));
    }
    s.at(20 * MS, file(main, 20, 1, 0, DB));
    s.at(22 * MS, file(main, 22, 0, 0, LOG));
    for i in 0..5 {
        let t = 30 * MS + i * 15 * MS;
        s.at(t, file(main, 22, 4, 0, LOG));
        s.at(t + MS / 2, file(main, 22, 5, 128, LOG));
    }
    s.at(8 * MS, file(worker, 21, 0, 0, DB));
    for i in 0..4 {
        let t = 10 * MS + i * 10 * MS;
        s.at(t, file(worker, 21, 2, 0, DB));
        s.at(t + 3 * MS, file(worker, 21, 3, 1024, DB));
    }
    s.at(55 * MS, file(worker, 21, 1, 0, DB));
    let missing = ProbeTail::Resource {
        size: 0,
        fd: u64::MAX,
        api_type: 0,
        file_size: 0,
        path: MISSING.into(),
    };
    s.at(60 * MS, probe_err(20, worker, 2, missing));
}

/// A sync probe of `tid` on `object`.
fn sync(tid: u32, object: u64, sync_type: u32, api_type: u32) -> Message {
    let tail = ProbeTail::Sync {
        object,
        sync_type,
        api_type,
    };
    probe(
        50 + api_type,
        tid,
        vec![Value::Pointer(object)],
        Value::Int(0),
        tail,
    )
}

/// Four rounds: main holds the mutex 4 ms while the worker waits for it,
/// then holds it 2 ms; the worker waits on the condition until main
/// signals it (rounds 0 and 2).
fn locks(s: &mut Scenario) {
    for round in 0..4 {
        let r = 30 * MS + round * 20 * MS;
        s.at(r, sync(PID, MUTEX, 3, 1));
        s.at(r + MS / 10, sync(PID, MUTEX, 3, 2));
        s.at(r + MS, sync(WORKER, MUTEX, 3, 1));
        s.at(r + 4 * MS, sync(PID, MUTEX, 3, 3));
        s.at(r + 4 * MS + MS / 10, sync(WORKER, MUTEX, 3, 2));
        s.at(r + 6 * MS, sync(WORKER, MUTEX, 3, 3));
        if round % 2 == 0 {
            s.at(r + 7 * MS, sync(WORKER, COND, 4, 5));
            s.at(r + 12 * MS, sync(PID, COND, 4, 7));
            s.at(r + 12 * MS + MS / 10, sync(WORKER, COND, 4, 6));
        }
    }
}

/// A network probe of the network thread.
fn net(object: u64, fd: u64, api_type: u32, (ip, port): ([u8; 4], u32), data: &[u8]) -> Message {
    let tail = ProbeTail::Network {
        object,
        fd,
        api_type,
        ip: u32::from_le_bytes(ip),
        port,
        total: data.len() as u64,
        data: data.to_vec(),
    };
    probe(
        70 + api_type,
        NET,
        vec![Value::Int(fd as i32)],
        Value::Int(0),
        tail,
    )
}

const REQUEST: &[u8] = b"GET /notes/sync?since=1700000000 HTTP/1.1\r\nHost: notes.example.org\r\nAccept: application/json\r\n\r\n";
const RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 38\r\n\r\n{\"notes\":[{\"id\":7,\"title\":\"groceries\"}]}";

/// HTTP: opened, connected, three request / response rounds, closed.
/// MQTT-like: connected, three 16-byte frames sent, two 32-byte frames
/// received, never closed.
fn network(s: &mut Scenario) {
    let web = ([93, 184, 216, 34], 80);
    let broker = ([10, 0, 0, 2], 8883);
    s.at(5 * MS, net(HTTP, 30, 0, web, &[]));
    s.at(6 * MS, net(HTTP, 30, 8, web, &[]));
    for i in 0..3 {
        let t = 10 * MS + i * 20 * MS;
        s.at(t, net(HTTP, 30, 4, web, &[]));
        s.at(t + MS, net(HTTP, 30, 5, web, REQUEST));
        s.at(t + 2 * MS, net(HTTP, 30, 2, web, &[]));
        s.at(t + 8 * MS, net(HTTP, 30, 3, web, RESPONSE));
    }
    s.at(75 * MS, net(HTTP, 30, 1, web, &[]));
    s.at(40 * MS, net(MQTT, 31, 8, broker, &[]));
    for i in 0..3u8 {
        let t = 45 * MS + i64::from(i) * 15 * MS;
        let frame: Vec<u8> = (0..16).map(|b| b * 7 + i).collect();
        s.at(t, net(MQTT, 31, 4, broker, &[]));
        s.at(t + MS / 2, net(MQTT, 31, 5, broker, &frame));
    }
    for i in 0..2u8 {
        let t = 50 * MS + i64::from(i) * 20 * MS;
        let frame: Vec<u8> = (0..32).map(|b| 0x30 + b + i).collect();
        s.at(t, net(MQTT, 31, 2, broker, &[]));
        s.at(t + 3 * MS, net(MQTT, 31, 3, broker, &frame));
    }
}
