//! Writes the synthetic SWAP streams under `tests/fixtures/swap/` and the
//! bundled demo, from scenarios described as data and encoded with the
//! test-only encoder (`--features swap-encoder`). The layouts follow
//! `specs/notes/swap.md`; nothing here comes from a real target.
//!
//! `cargo run -p flamedrop-core --example swap-scenarios --features swap-encoder -- <repo root>`
//!
//! `… -- --big OUT.swap MB` writes a benchmark input instead: the demo's
//! recording (two threads' function entries and exits, samples, memory, file,
//! sync and thread probes, syscalls, system messages) repeated back to back
//! in time, with sequence numbers running on, until MB megabytes.

use flamedrop_core::formats::swap::encode::{
    daemon_slack, encode, encode_frame, pre_4_0_syscall_entry, pre_4_0_syscall_exit,
};
use flamedrop_core::formats::swap::messages::*;
use flamedrop_core::formats::swap::values::Value;
use std::path::Path;

const PID: u32 = 1234;
const WORKER: u32 = 1240;
const BIN_LOW: u64 = 0x0001_0000;
const LIBC_LOW: u64 = 0xb6e0_0000;
const START_SEC: u32 = 1_700_000_000;

/// Messages in time order; sequence numbers are given when written.
#[derive(Default)]
struct Scenario {
    events: Vec<(i64, Message, u32)>,
}

impl Scenario {
    fn at(&mut self, ns: i64, message: Message) {
        let slack = match &message {
            Message::System(_) => daemon_slack(false),
            _ => 0,
        };
        self.events.push((ns, message, slack));
    }

    fn frames(mut self, first_seq: u32) -> Vec<Frame> {
        self.events.sort_by_key(|e| e.0);
        self.events
            .into_iter()
            .enumerate()
            .map(|(i, (ns, message, slack))| Frame {
                seq: first_seq.wrapping_add(i as u32),
                time: time(ns),
                message,
                slack,
            })
            .collect()
    }
}

fn time(ns: i64) -> WireTime {
    WireTime {
        sec: START_SEC + (ns / 1_000_000_000) as u32,
        nsec: (ns % 1_000_000_000) as u32,
    }
}

fn process_info() -> Message {
    Message::ProcessInfo(ProcessInfo {
        pid: PID,
        comm: "gallery".into(),
        ppid: 1,
        start: time(0),
        low: BIN_LOW,
        high: BIN_LOW + 0x10000,
        binary: "/opt/usr/apps/org.example.gallery/bin/gallery".into(),
        libs: vec![
            Mapping {
                low: LIBC_LOW,
                high: LIBC_LOW + 0x100000,
                path: "/lib/libc-2.20.so".into(),
            },
            Mapping {
                low: 0xffff_0000,
                high: 0xffff_1000,
                path: "[vectors]".into(),
            },
        ],
    })
}

fn entry(pid: u32, tid: u32, pc: u64, args: Vec<Value>) -> Message {
    Message::FunctionEntry(FunctionEntry {
        pid,
        tid,
        legacy: None,
        pc,
        caller: pc + 0x40,
        cpu: if tid == pid { 0 } else { 1 },
        args,
    })
}

fn exit(pid: u32, tid: u32, pc: u64, ret: Value) -> Message {
    Message::FunctionExit(FunctionExit {
        pid,
        tid,
        legacy: None,
        pc,
        caller: pc + 0x40,
        cpu: if tid == pid { 0 } else { 1 },
        ret,
    })
}

fn probe(api_id: u32, tid: u32, args: Vec<Value>, ret: Value, tail: ProbeTail) -> Message {
    Message::Probe(Probe {
        api_id,
        pid: PID,
        tid,
        args,
        ret,
        errno: 0,
        call_type: 1,
        caller: BIN_LOW + 0x1200,
        reserved: (0, 0),
        tail,
    })
}

fn system(ns: i64) -> Message {
    let phase = (ns / 10_000_000) as f32;
    Message::System(System {
        cpu_frequency: vec![1_200_000.0 + 100_000.0 * (phase % 3.0), 800_000.0],
        cpu_load: vec![40.0 + (phase * 7.0) % 50.0, 20.0 + (phase * 3.0) % 30.0],
        memory_used: 400_000_000 + ns as u64 / 10,
        processes: vec![SystemProcess {
            pid: PID,
            load: 30.0 + (phase * 5.0) % 40.0,
            virtual_bytes: 120_000_000,
            resident: 30_000_000 + ns as u64 / 100,
            shared: 8_000_000,
            pss: 20_000_000,
            gem_and_3d: None,
            total_alloc: 1_000_000 + ns as u64 / 1000,
            threads: vec![(PID, 20.0 + phase % 10.0), (WORKER, 10.0 + phase % 5.0)],
        }],
        others: vec![(1, 1.5), (300, 4.0)],
        disk: [1_000_000, 10 + phase as u32, 80, 5, 40],
        network: [1000 * phase as u32, 5000 * phase as u32],
        devices: [1, 0, 0, 80, 0, 1, 1, 0, 3900, 0, 0, 0, 1],
        energy: 100 + phase as u32,
        energy_per_device: vec![1, 50, 30, 10, 0],
        app_energy_per_device: vec![0, 20, 10, 5, 0],
    })
}

/// The demo: a gallery app loading images on its main thread while a
/// worker fetches thumbnails; samples, system counters, memory and file
/// probes (with a leak and a file left open), syscalls, context switches.
fn demo() -> Vec<Frame> {
    let mut s = Scenario::default();
    let ms = 1_000_000i64;
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
    let main_fn = BIN_LOW + 0x1000;
    let load = BIN_LOW + 0x2000;
    let decode = BIN_LOW + 0x3000;
    let memcpy = LIBC_LOW + 0x5000;
    let fetch = BIN_LOW + 0x4000;
    let parse = BIN_LOW + 0x5000;
    // Main thread: main → load_images → decode ×N → memcpy.
    s.at(
        12 * ms,
        entry(
            PID,
            PID,
            main_fn,
            vec![Value::Int(1), Value::Pointer(0xbeff_f000)],
        ),
    );
    let mut now = 13 * ms;
    let mut address = 0x0200_0000u64;
    for image in 0..8i64 {
        s.at(
            now,
            entry(
                PID,
                PID,
                load,
                vec![Value::Str(format!("/opt/usr/media/img{image}.jpg"))],
            ),
        );
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
        s.at(
            now + 200_000,
            probe(
                21,
                PID,
                vec![
                    Value::Str(format!("/opt/usr/media/img{image}.jpg")),
                    Value::Int(0),
                ],
                Value::Int(10 + image as i32),
                ProbeTail::Resource {
                    size: 0,
                    fd: 10 + image as u64,
                    api_type: 0,
                    file_size: 200_000,
                    path: format!("/opt/usr/media/img{image}.jpg"),
                },
            ),
        );
        s.at(
            now + 300_000,
            Message::SyscallEntry(SyscallEntry {
                pid: PID,
                tid: PID,
                probe_type: 0x01,
                pc: 0xc010_2000,
                caller: 0,
                cpu: 0,
                args: vec![Value::Int(10 + image as i32), Value::Long(65536)],
            }),
        );
        s.at(
            now + 900_000,
            Message::SyscallExit(SyscallExit {
                pid: PID,
                tid: PID,
                probe_type: 0x01,
                pc: 0xc010_2000,
                caller: 0,
                cpu: 0,
                ret: Value::Long(65536),
            }),
        );
        s.at(
            now + 1_000_000,
            probe(
                23,
                PID,
                vec![Value::Int(10 + image as i32)],
                Value::Long(65536),
                ProbeTail::Resource {
                    size: 65536,
                    fd: 10 + image as u64,
                    api_type: 3,
                    file_size: 200_000,
                    path: format!("/opt/usr/media/img{image}.jpg"),
                },
            ),
        );
        if image != 5 {
            s.at(
                now + 1_100_000,
                probe(
                    22,
                    PID,
                    vec![Value::Int(10 + image as i32)],
                    Value::Int(0),
                    ProbeTail::Resource {
                        size: 0,
                        fd: 10 + image as u64,
                        api_type: 1,
                        file_size: 200_000,
                        path: format!("/opt/usr/media/img{image}.jpg"),
                    },
                ),
            );
        }
        let mut t = now + 1_200_000;
        for _ in 0..3 {
            s.at(
                t,
                entry(
                    PID,
                    PID,
                    decode,
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
                    memcpy,
                    vec![Value::Pointer(address), Value::Long(4096)],
                ),
            );
            s.at(t + 700_000, exit(PID, PID, memcpy, Value::Pointer(address)));
            s.at(t + 1_500_000, exit(PID, PID, decode, Value::Int(0)));
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
        s.at(t + 100_000, exit(PID, PID, load, Value::Int(0)));
        now = t + 400_000;
        address += 0x10000;
    }
    s.at(now + ms, exit(PID, PID, main_fn, Value::Int(0)));
    let main_end = now + ms;
    // Samples on the main thread: the pc inside whatever runs.
    let mut t = 12 * ms + 500_000;
    while t < main_end {
        let pc = if (t / 700_000) % 3 == 0 {
            memcpy + 0x24
        } else {
            decode + 0x80 + (t / ms % 4) as u64 * 8
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
    // Worker: thread start, fetch → parse, a mutex, switched out while waiting.
    s.at(
        14 * ms,
        probe(
            40,
            PID,
            vec![],
            Value::Int(0),
            ProbeTail::Thread {
                pthread_id: 0xb5ff_f460,
                tizen_thread_id: 0,
                thread_type: 0,
                api_type: 0,
                class_name: String::new(),
            },
        ),
    );
    let mut w = 15 * ms;
    for round in 0..10 {
        s.at(
            w,
            entry(
                PID,
                WORKER,
                fetch,
                vec![Value::Str(format!("https://example.org/thumb/{round}"))],
            ),
        );
        s.at(
            w + 200_000,
            probe(
                50,
                WORKER,
                vec![Value::Pointer(0x0300_0000)],
                Value::Int(0),
                ProbeTail::Sync {
                    object: 0x0300_0000,
                    sync_type: 3,
                    api_type: 1,
                },
            ),
        );
        s.at(
            w + 250_000,
            Message::ContextSwitch(ContextSwitch {
                entry: true,
                pc: 0,
                pid: PID,
                tid: WORKER,
                cpu: 1,
            }),
        );
        s.at(
            w + 1_250_000,
            Message::ContextSwitch(ContextSwitch {
                entry: false,
                pc: 0,
                pid: PID,
                tid: WORKER,
                cpu: 1,
            }),
        );
        s.at(
            w + 1_300_000,
            probe(
                51,
                WORKER,
                vec![Value::Pointer(0x0300_0000)],
                Value::Int(0),
                ProbeTail::Sync {
                    object: 0x0300_0000,
                    sync_type: 3,
                    api_type: 2,
                },
            ),
        );
        s.at(
            w + 1_400_000,
            entry(
                PID,
                WORKER,
                parse,
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
        s.at(w + 3_000_000, exit(PID, WORKER, parse, Value::Bool(1)));
        s.at(
            w + 3_200_000,
            probe(
                52,
                WORKER,
                vec![Value::Pointer(0x0300_0000)],
                Value::Int(0),
                ProbeTail::Sync {
                    object: 0x0300_0000,
                    sync_type: 3,
                    api_type: 3,
                },
            ),
        );
        s.at(w + 3_300_000, exit(PID, WORKER, fetch, Value::Int(200)));
        let mut t = w + 1_400_000 + 300_000;
        while t < w + 3_000_000 {
            s.at(
                t,
                Message::Sample(Sample {
                    pid: PID,
                    pc: parse + 0x40 + (t / 300_000 % 3) as u64 * 4,
                    tid: WORKER,
                    cpu: 1,
                }),
            );
            t += 500_000;
        }
        w += 5 * ms;
    }
    s.at(
        w,
        probe(
            41,
            PID,
            vec![],
            Value::Int(0),
            ProbeTail::Thread {
                pthread_id: 0xb5ff_f460,
                tizen_thread_id: 0,
                thread_type: 0,
                api_type: 3,
                class_name: String::new(),
            },
        ),
    );
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
    s.frames(0)
}

/// Sequence gaps, a wrap, an unknown id, trailing slack.
fn gaps_and_wrap() -> Vec<Frame> {
    let mut s = Scenario::default();
    s.at(0, process_info());
    for i in 0..6 {
        s.at(
            1000 + i * 1000,
            entry(PID, PID, BIN_LOW + 0x100 * i as u64, vec![]),
        );
    }
    for i in (0..6).rev() {
        s.at(
            20_000 - i * 1000,
            exit(PID, PID, BIN_LOW + 0x100 * i as u64, Value::Int(0)),
        );
    }
    s.at(
        30_000,
        Message::Unknown {
            id: 0x0042,
            payload: vec![1, 2, 3, 4],
        },
    );
    let mut frames = s.frames(u32::MAX - 5);
    // Drop two numbered messages: the target lost them.
    frames.remove(9);
    frames.remove(3);
    if let Some(f) = frames.get_mut(1) {
        f.slack = 12;
    }
    frames
}

/// A pre-4.0 stream: the u16 pair after the tid; a system call as probe type 3.
fn legacy() -> Vec<Frame> {
    let mut s = Scenario::default();
    s.at(0, process_info());
    let call = |entry: bool, kind: u16, pc: u64, ns: i64, s: &mut Scenario| {
        let m = if entry {
            Message::FunctionEntry(FunctionEntry {
                pid: PID,
                tid: PID,
                legacy: Some((kind, 0)),
                pc,
                caller: 0,
                cpu: 0,
                args: vec![Value::Int(5)],
            })
        } else {
            Message::FunctionExit(FunctionExit {
                pid: PID,
                tid: PID,
                legacy: Some((kind, 0)),
                pc,
                caller: 0,
                cpu: 0,
                ret: Value::Int(0),
            })
        };
        s.at(ns, m);
    };
    call(true, 1, BIN_LOW + 0x10, 1000, &mut s);
    call(true, 3, 0xc000_1000, 2000, &mut s);
    call(false, 3, 0xc000_1000, 3000, &mut s);
    call(false, 1, BIN_LOW + 0x10, 4000, &mut s);
    s.frames(0)
}

/// Protocol 3.0 system calls: MSG_FUNCTION_ENTRY / EXIT with probe type 3
/// and the group bits as the sub-type, on two threads, around one
/// instrumented function; the worker's network call never returns before
/// the capture ends (an ipc call runs inside it).
fn legacy_syscalls() -> Vec<Frame> {
    let mut s = Scenario::default();
    s.at(0, process_info());
    let user = |pc: u64, ret: Option<Value>| {
        let legacy = Some((1, 0));
        match ret {
            None => Message::FunctionEntry(FunctionEntry {
                pid: PID,
                tid: PID,
                legacy,
                pc,
                caller: 0,
                cpu: 0,
                args: vec![Value::Int(5)],
            }),
            Some(ret) => Message::FunctionExit(FunctionExit {
                pid: PID,
                tid: PID,
                legacy,
                pc,
                caller: 0,
                cpu: 0,
                ret,
            }),
        }
    };
    let enter = |tid: u32, pc: u64, group: u32, args: Vec<Value>| {
        pre_4_0_syscall_entry(&SyscallEntry {
            pid: PID,
            tid,
            probe_type: group,
            pc,
            caller: BIN_LOW + 0x20,
            cpu: u32::from(tid != PID),
            args,
        })
    };
    let leave = |tid: u32, pc: u64, group: u32, ret: Value| {
        pre_4_0_syscall_exit(&SyscallExit {
            pid: PID,
            tid,
            probe_type: group,
            pc,
            caller: BIN_LOW + 0x20,
            cpu: u32::from(tid != PID),
            ret,
        })
    };
    let path = |p: &str| Value::Str(p.into());
    let (open, read, connect, ipc, kill) = (
        0xc000_1000,
        0xc000_2000,
        0xc000_3000,
        0xc000_4000,
        0xc000_5000,
    );
    s.at(1000, user(BIN_LOW + 0x10, None));
    s.at(
        2000,
        enter(
            PID,
            open,
            0x01,
            vec![path("/opt/usr/media/a.jpg"), Value::Int(0)],
        ),
    );
    s.at(2500, enter(WORKER, connect, 0x10, vec![Value::Int(7)]));
    s.at(3000, enter(WORKER, ipc, 0x02, vec![Value::Int(1)]));
    s.at(3500, leave(PID, open, 0x01, Value::Int(3)));
    s.at(
        4000,
        enter(PID, read, 0x21, vec![Value::Int(3), Value::Long(4096)]),
    );
    s.at(5000, leave(WORKER, ipc, 0x02, Value::Int(0)));
    s.at(6000, leave(PID, read, 0x21, Value::Long(4096)));
    s.at(
        7000,
        enter(
            PID,
            open,
            0x01,
            vec![path("/opt/usr/media/b.jpg"), Value::Int(0)],
        ),
    );
    s.at(7500, leave(PID, open, 0x01, Value::Int(4)));
    s.at(
        8000,
        enter(PID, kill, 0x0c, vec![Value::Int(1240), Value::Int(10)]),
    );
    s.at(8200, leave(PID, kill, 0x0c, Value::Int(0)));
    s.at(9000, user(BIN_LOW + 0x10, Some(Value::Int(0))));
    s.frames(0)
}

/// MSG_SYSTEM written without the daemon's slack: the CPU count cannot be
/// inferred and needs `swap.cpus`.
fn no_cpu_count() -> Vec<Frame> {
    let mut s = Scenario::default();
    s.at(0, process_info());
    for i in 0..3 {
        s.at(i * 10_000_000, system(i * 10_000_000));
    }
    let mut frames = s.frames(0);
    for f in &mut frames {
        f.slack = 0;
    }
    frames
}

/// The demo repeated until `mb` megabytes, written to `out`.
fn big(out: &Path, mb: u64) -> std::io::Result<()> {
    use std::io::Write;
    let demo = demo();
    let first = demo.iter().map(|f| ns_of(f.time)).min().unwrap_or(0);
    let last = demo.iter().map(|f| ns_of(f.time)).max().unwrap_or(0);
    let period = last - first + 1_000_000;
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    let (mut written, mut seq, mut round) = (0u64, 0u32, 0i64);
    let mut bytes = Vec::new();
    while written < mb * 1_000_000 {
        for frame in &demo {
            // The process and its start-up stages are said once.
            let once = matches!(
                frame.message,
                Message::ProcessInfo(_) | Message::AppSetupStage(_)
            );
            if once && round > 0 {
                continue;
            }
            let frame = Frame {
                seq,
                time: time(ns_of(frame.time) + round * period),
                message: frame.message.clone(),
                slack: frame.slack,
            };
            bytes.clear();
            encode_frame(&frame, &mut bytes);
            file.write_all(&bytes)?;
            written += bytes.len() as u64;
            seq = seq.wrapping_add(1);
        }
        round += 1;
    }
    file.flush()?;
    println!(
        "{}: {round} rounds of the demo, {seq} messages, {written} bytes",
        out.display()
    );
    Ok(())
}

/// Nanoseconds since the demo's start of a wire time.
fn ns_of(t: WireTime) -> i64 {
    i64::from(t.sec - START_SEC) * 1_000_000_000 + i64::from(t.nsec)
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--big") {
        let (Some(out), Some(mb)) = (args.get(1), args.get(2).and_then(|m| m.parse().ok())) else {
            eprintln!("usage: swap-scenarios --big OUT.swap MB");
            std::process::exit(2);
        };
        return big(Path::new(out), mb);
    }
    let root = args.first().cloned().unwrap_or_else(|| ".".into());
    let root = Path::new(&root);
    let fixtures = root.join("tests/fixtures/swap");
    std::fs::create_dir_all(&fixtures)?;
    let demo_bytes = encode(&demo());
    std::fs::write(fixtures.join("demo.swap"), &demo_bytes)?;
    std::fs::write(
        fixtures.join("gaps-wrap-unknown.swap"),
        encode(&gaps_and_wrap()),
    )?;
    std::fs::write(fixtures.join("legacy-3.0.swap"), encode(&legacy()))?;
    std::fs::write(
        fixtures.join("legacy-syscalls-3.0.swap"),
        encode(&legacy_syscalls()),
    )?;
    let mut truncated = encode(&legacy());
    truncated.truncate(truncated.len() - 7);
    std::fs::write(fixtures.join("truncated.swap"), truncated)?;
    let no_cpus = fixtures.join("no-cpu-count");
    std::fs::create_dir_all(&no_cpus)?;
    std::fs::write(no_cpus.join("stream.swap"), encode(&no_cpu_count()))?;
    std::fs::write(no_cpus.join("swap.cpus"), "2 5\n")?;
    let demo_dir = root.join("www/demos/swap-gallery");
    std::fs::create_dir_all(&demo_dir)?;
    std::fs::write(demo_dir.join("gallery.swap"), &demo_bytes)?;
    println!("wrote {} demo bytes", demo_bytes.len());
    Ok(())
}
