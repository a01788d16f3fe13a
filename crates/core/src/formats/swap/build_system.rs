//! MSG_SYSTEM → counter tracks: per-core load and frequency, memory, target
//! process and thread load and memory, other processes' load, disk, network,
//! device states and energy.

use super::build::{Build, Lane};
use super::messages::System;

const DISK: [&str; 5] = [
    "disk used",
    "disk reads",
    "disk sectors read",
    "disk writes",
    "disk sectors written",
];
const NETWORK: [&str; 2] = ["network sent", "network received"];
const DEVICES: [&str; 13] = [
    "wifi",
    "bluetooth",
    "gps",
    "brightness",
    "camera",
    "sound",
    "audio",
    "vibration",
    "voltage",
    "rssi",
    "video",
    "call",
    "dnet",
];
/// Energy device names of the daemon's table (the first 3 on older daemons).
const ENERGY_DEVICES: [&str; 5] = ["flash", "CPU", "LCD", "wifi", "bluetooth"];

impl Build<'_> {
    /// One MSG_SYSTEM sample.
    pub fn system(&mut self, s: &System, time: i64) {
        let put = |build: &mut Self,
                   name: String,
                   unit: &str,
                   process: Option<u32>,
                   thread: Option<u32>,
                   value: f64| {
            let c = build.counter(name, unit, process, thread);
            build.b.counter_value(c, time, value);
        };
        for (cpu, &khz) in s.cpu_frequency.iter().enumerate() {
            put(
                self,
                format!("CPU {cpu} frequency"),
                "kHz",
                None,
                None,
                f64::from(khz),
            );
        }
        for (cpu, &load) in s.cpu_load.iter().enumerate() {
            put(
                self,
                format!("CPU {cpu} load"),
                "%",
                None,
                None,
                f64::from(load),
            );
        }
        put(
            self,
            "system memory used".into(),
            "bytes",
            None,
            None,
            s.memory_used as f64,
        );
        for p in &s.processes {
            let comm = self.comm(p.pid);
            let process = Some(self.b.process(&p.pid.to_string(), &comm));
            let label = format!("pid {}", p.pid);
            put(
                self,
                format!("{label} load"),
                "%",
                process,
                None,
                f64::from(p.load),
            );
            let mut memory = vec![
                ("virtual memory", p.virtual_bytes),
                ("resident memory", p.resident),
                ("shared memory", p.shared),
                ("PSS", p.pss),
                ("total allocated", p.total_alloc),
            ];
            if let Some((gem, three_d)) = p.gem_and_3d {
                memory.push(("GEM PSS", gem));
                memory.push(("3D memory", three_d));
            }
            for (what, bytes) in memory {
                put(
                    self,
                    format!("{label} {what}"),
                    "bytes",
                    process,
                    None,
                    bytes as f64,
                );
            }
            for &(tid, load) in &p.threads {
                let t = self.lane(p.pid, tid, Lane::Functions);
                put(
                    self,
                    format!("thread {tid} load"),
                    "%",
                    process,
                    Some(t),
                    f64::from(load),
                );
            }
        }
        for &(pid, load) in &s.others {
            put(
                self,
                format!("pid {pid} load (other process)"),
                "%",
                None,
                None,
                f64::from(load),
            );
        }
        for (name, &v) in DISK.iter().zip(&s.disk) {
            put(self, (*name).into(), "", None, None, f64::from(v));
        }
        for (name, &v) in NETWORK.iter().zip(&s.network) {
            put(self, (*name).into(), "bytes", None, None, f64::from(v));
        }
        for (name, &v) in DEVICES.iter().zip(&s.devices) {
            put(
                self,
                format!("device: {name}"),
                "state",
                None,
                None,
                f64::from(v),
            );
        }
        put(self, "energy".into(), "", None, None, f64::from(s.energy));
        for (i, &v) in s.energy_per_device.iter().enumerate() {
            let device = ENERGY_DEVICES.get(i).copied().unwrap_or("device");
            put(
                self,
                format!("energy: {device}"),
                "",
                None,
                None,
                f64::from(v),
            );
        }
        for (i, &v) in s.app_energy_per_device.iter().enumerate() {
            let device = ENERGY_DEVICES.get(i).copied().unwrap_or("device");
            put(
                self,
                format!("app energy: {device}"),
                "",
                None,
                None,
                f64::from(v),
            );
        }
    }
}
