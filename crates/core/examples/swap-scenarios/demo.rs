//! The bundled demo: a gallery app loading images on its main thread while
//! a worker fetches thumbnails; samples, system counters, memory and file
//! probes (with a leak and a file left open), syscalls, context switches.
//! Each part adds its messages in the order the demo always did (equal
//! times keep that order), so the stream stays byte for byte the same.

use crate::scenario::*;
use flamedrop_core::formats::swap::messages::*;
use flamedrop_core::formats::swap::values::Value;

const MS: i64 = 1_000_000;
const MAIN_FN: u64 = BIN_LOW + 0x1000;
const LOAD: u64 = BIN_LOW + 0x2000;
const DECODE: u64 = BIN_LOW + 0x3000;
const MEMCPY: u64 = LIBC_LOW + 0x5000;
const FETCH: u64 = BIN_LOW + 0x4000;
const PARSE: u64 = BIN_LOW + 0x5000;

/// The demo's messages, numbered from 0.
pub fn demo() -> Vec<Frame> {
    let mut s = Scenario::default();
    startup(&mut s);
    let main_end = main_thread(&mut s);
    main_samples(&mut s, main_end);
    let w = worker(&mut s);
    ending(&mut s, w, main_end);
    s.frames(0)
}

/// MSG_SYSTEM every 10 ms, the process, its setup stages.
fn startup(s: &mut Scenario) {
    let ms = MS;
    for i in 0..30 {
        s.at(i * 10 * ms, system(i * 10 * ms));
    }
    s.at(1, process_info());
    for (stage, (a, b)) in [(0, 2), (2, 5), (5, 9), (9, 12)].into_iter().enumerate() {
        s.at(
            a * ms + 2,
            Message::AppSetupStage(AppSetupStage {
                pid: PID,
                stage: stage as u32,
                begin: time(a * ms),
                end: time(b * ms),
            }),
        );
    }
}

/// Main thread: main → load_images → decode ×N → memcpy; returns when
/// main returns.
fn main_thread(s: &mut Scenario) -> i64 {
    let ms = MS;
    s.at(
        12 * ms,
        entry(
            PID,
            PID,
            MAIN_FN,
            vec![Value::Int(1), Value::Pointer(0xbeff_f000)],
        ),
    );
    let mut now = 13 * ms;
    let mut address = 0x0200_0000u64;
    for image in 0..8i64 {
        now = load_image(s, image, now, address);
        address += 0x10000;
    }
    s.at(now + ms, exit(PID, PID, MAIN_FN, Value::Int(0)));
    now + ms
}

/// One image loaded at `now` into `address`: its file read, three decodes,
/// its buffer freed or leaked; returns when the next one starts.
fn load_image(s: &mut Scenario, image: i64, now: i64, address: u64) -> i64 {
    read_image(s, image, now, address);
    let mut t = now + 1_200_000;
    for _ in 0..3 {
        s.at(
            t,
            entry(
                PID,
                PID,
                DECODE,
                vec![
                    Value::Pointer(address),
                    Value::FloatArray {
                        pointer: 0xbeff_e000,
                        items: vec![1.0f32.to_bits(), 0.5f32.to_bits()],
                    },
                ],
            ),
        );
        s.at(
            t + 300_000,
            entry(
                PID,
                PID,
                MEMCPY,
                vec![Value::Pointer(address), Value::Long(4096)],
            ),
        );
        s.at(t + 700_000, exit(PID, PID, MEMCPY, Value::Pointer(address)));
        s.at(t + 1_500_000, exit(PID, PID, DECODE, Value::Int(0)));
        t += 1_600_000;
    }
    // Every other image's buffer is freed; the rest leak.
    if image % 2 == 0 {
        s.at(
            t,
            probe(
                8,
                PID,
                vec![Value::Pointer(address)],
                Value::Void,
                ProbeTail::Memory {
                    size: 0,
                    api_type: 1,
                    address,
                },
            ),
        );
    }
    s.at(t + 100_000, exit(PID, PID, LOAD, Value::Int(0)));
    t + 400_000
}

/// The load's entry, its buffer, and the file opened, read and (but for
/// image 5) closed, with the read's system call.
fn read_image(s: &mut Scenario, image: i64, now: i64, address: u64) {
    let path = format!("/opt/usr/media/img{image}.jpg");
    let fd = 10 + image as i32;
    s.at(now, entry(PID, PID, LOAD, vec![Value::Str(path.clone())]));
    s.at(
        now + 100_000,
        probe(
            7,
            PID,
            vec![Value::Long(65536)],
            Value::Pointer(address),
            ProbeTail::Memory {
                size: 65536,
                api_type: 0,
                address,
            },
        ),
    );
    let open_args = vec![Value::Str(path), Value::Int(0)];
    let open = image_file(image, (21, 0), 0, open_args, Value::Int(fd));
    s.at(now + 200_000, open);
    let read = SyscallEntry {
        pid: PID,
        tid: PID,
        probe_type: 0x01,
        pc: 0xc010_2000,
        caller: 0,
        cpu: 0,
        args: vec![Value::Int(fd), Value::Long(65536)],
    };
    let returned = SyscallExit {
        pid: read.pid,
        tid: read.tid,
        probe_type: read.probe_type,
        pc: read.pc,
        caller: read.caller,
        cpu: read.cpu,
        ret: Value::Long(65536),
    };
    s.at(now + 300_000, Message::SyscallEntry(read));
    s.at(now + 900_000, Message::SyscallExit(returned));
    let done = image_file(
        image,
        (23, 3),
        65536,
        vec![Value::Int(fd)],
        Value::Long(65536),
    );
    s.at(now + 1_000_000, done);
    if image != 5 {
        let close = image_file(image, (22, 1), 0, vec![Value::Int(fd)], Value::Int(0));
        s.at(now + 1_100_000, close);
    }
}

/// A file probe on image `image`'s file: `(API id, fd api type)`, the size
/// moved, the call's arguments and return value.
fn image_file(
    image: i64,
    (api_id, api_type): (u32, u32),
    size: u64,
    args: Vec<Value>,
    ret: Value,
) -> Message {
    let tail = ProbeTail::Resource {
        size,
        fd: 10 + image as u64,
        api_type,
        file_size: 200_000,
        path: format!("/opt/usr/media/img{image}.jpg"),
    };
    probe(api_id, PID, args, ret, tail)
}

/// Samples on the main thread: the pc inside whatever runs.
fn main_samples(s: &mut Scenario, main_end: i64) {
    let ms = MS;
    let mut t = 12 * ms + 500_000;
    while t < main_end {
        let pc = if (t / 700_000) % 3 == 0 {
            MEMCPY + 0x24
        } else {
            DECODE + 0x80 + (t / ms % 4) as u64 * 8
        };
        s.at(
            t,
            Message::Sample(Sample {
                pid: PID,
                pc,
                tid: PID,
                cpu: 0,
            }),
        );
        t += ms;
    }
}

/// Worker: thread start, fetch → parse, a mutex, switched out while
/// waiting; returns when its last round ends.
fn worker(s: &mut Scenario) -> i64 {
    let ms = MS;
    s.at(14 * ms, worker_thread(40, 0));
    let mut w = 15 * ms;
    for round in 0..10 {
        worker_round(s, round, w);
        w += 5 * ms;
    }
    w
}

/// One round of the worker starting at `w`.
fn worker_round(s: &mut Scenario, round: u64, w: i64) {
    s.at(
        w,
        entry(
            PID,
            WORKER,
            FETCH,
            vec![Value::Str(format!("https://example.org/thumb/{round}"))],
        ),
    );
    s.at(w + 200_000, mutex(50, 1));
    s.at(w + 250_000, switch(true));
    s.at(w + 1_250_000, switch(false));
    s.at(w + 1_300_000, mutex(51, 2));
    s.at(
        w + 1_400_000,
        entry(
            PID,
            WORKER,
            PARSE,
            vec![
                Value::Pointer(0x0400_0000 + round),
                Value::Double(2.5f64.to_bits()),
            ],
        ),
    );
    s.at(
        w + 1_500_000,
        probe(
            7,
            WORKER,
            vec![Value::Long(256)],
            Value::Pointer(0x0500_0000 + round * 0x100),
            ProbeTail::Memory {
                size: 256,
                api_type: 0,
                address: 0x0500_0000 + round * 0x100,
            },
        ),
    );
    s.at(
        w + 2_800_000,
        probe(
            8,
            WORKER,
            vec![Value::Pointer(0x0500_0000 + round * 0x100)],
            Value::Void,
            ProbeTail::Memory {
                size: 0,
                api_type: 1,
                address: 0x0500_0000 + round * 0x100,
            },
        ),
    );
    s.at(w + 3_000_000, exit(PID, WORKER, PARSE, Value::Bool(1)));
    s.at(w + 3_200_000, mutex(52, 3));
    s.at(w + 3_300_000, exit(PID, WORKER, FETCH, Value::Int(200)));
    let mut t = w + 1_400_000 + 300_000;
    while t < w + 3_000_000 {
        s.at(
            t,
            Message::Sample(Sample {
                pid: PID,
                pc: PARSE + 0x40 + (t / 300_000 % 3) as u64 * 4,
                tid: WORKER,
                cpu: 1,
            }),
        );
        t += 500_000;
    }
}

/// The worker's thread probe, made on the main thread: `api_type` 0 new,
/// 3 exit.
fn worker_thread(api_id: u32, api_type: u32) -> Message {
    let tail = ProbeTail::Thread {
        pthread_id: 0xb5ff_f460,
        tizen_thread_id: 0,
        thread_type: 0,
        api_type,
        class_name: String::new(),
    };
    probe(api_id, PID, vec![], Value::Int(0), tail)
}

/// The worker's pthread mutex probe: `api_type` 1 wait start, 2 wait end,
/// 3 release.
fn mutex(api_id: u32, api_type: u32) -> Message {
    let tail = ProbeTail::Sync {
        object: 0x0300_0000,
        sync_type: 3,
        api_type,
    };
    probe(
        api_id,
        WORKER,
        vec![Value::Pointer(0x0300_0000)],
        Value::Int(0),
        tail,
    )
}

/// The worker switched out (`entry`) or back in.
fn switch(entry: bool) -> Message {
    Message::ContextSwitch(ContextSwitch {
        entry,
        pc: 0,
        pid: PID,
        tid: WORKER,
        cpu: 1,
    })
}

/// The worker's end, a file function, a custom chart value, an error, an
/// LSan report and the process's end.
fn ending(s: &mut Scenario, w: i64, main_end: i64) {
    let ms = MS;
    s.at(w, worker_thread(41, 3));
    s.at(
        w + 10,
        Message::FileFunctionEntry(FileFunctionEntry {
            pid: PID,
            tid: PID,
            fd: 3,
            event: 0,
            path: "/opt/usr/home/owner/data/gallery.db".into(),
            info: FileInfo::Open {
                opened_path: "data/gallery.db".into(),
            },
        }),
    );
    s.at(
        w + 50_000,
        Message::FileFunctionExit {
            pid: PID,
            tid: PID,
            ret: Value::Int(3),
        },
    );
    s.at(
        main_end + 2 * ms,
        probe(
            60,
            PID,
            vec![Value::Int(1)],
            Value::None,
            ProbeTail::Custom {
                handle: 1,
                chart_type: 0,
                name: "images decoded".into(),
                color: 0xff8800,
                value: 24.0,
            },
        ),
    );
    s.at(
        main_end + 3 * ms,
        Message::Error {
            text: "uprobe on libfoo.so+0x10 could not be set".into(),
        },
    );
    s.at(
        main_end + 4 * ms,
        Message::Lsan(Lsan {
            status: 2,
            pid: PID,
            message: "/tmp/lsan.log.1234".into(),
            call_type: 0,
            caller: 0,
        }),
    );
    s.at(main_end + 5 * ms, Message::Terminate { pid: PID });
}
