//! The pieces scenarios are written with: a list of messages in time order,
//! the demo's process and its mappings, calls, probes and MSG_SYSTEM.

use flamedrop_core::formats::swap::encode::daemon_slack;
use flamedrop_core::formats::swap::messages::*;
use flamedrop_core::formats::swap::values::Value;

pub const PID: u32 = 1234;
pub const WORKER: u32 = 1240;
pub const BIN_LOW: u64 = 0x0001_0000;
pub const LIBC_LOW: u64 = 0xb6e0_0000;
pub const START_SEC: u32 = 1_700_000_000;

/// Messages in time order; sequence numbers are given when written.
#[derive(Default)]
pub struct Scenario {
    events: Vec<(i64, Message, u32)>,
}

impl Scenario {
    pub fn at(&mut self, ns: i64, message: Message) {
        let slack = match &message {
            Message::System(_) => daemon_slack(false),
            _ => 0,
        };
        self.events.push((ns, message, slack));
    }

    pub fn frames(mut self, first_seq: u32) -> Vec<Frame> {
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

pub fn time(ns: i64) -> WireTime {
    WireTime {
        sec: START_SEC + (ns / 1_000_000_000) as u32,
        nsec: (ns % 1_000_000_000) as u32,
    }
}

pub fn process_info() -> Message {
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

pub fn entry(pid: u32, tid: u32, pc: u64, args: Vec<Value>) -> Message {
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

pub fn exit(pid: u32, tid: u32, pc: u64, ret: Value) -> Message {
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

pub fn probe(api_id: u32, tid: u32, args: Vec<Value>, ret: Value, tail: ProbeTail) -> Message {
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

pub fn system(ns: i64) -> Message {
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

/// Nanoseconds since the demo's start of a wire time.
pub fn ns_of(t: WireTime) -> i64 {
    i64::from(t.sec - START_SEC) * 1_000_000_000 + i64::from(t.nsec)
}
