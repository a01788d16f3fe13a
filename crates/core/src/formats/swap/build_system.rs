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
        // `what` and `index` identify the counter within system messages; its
        // name is made (and looked up by name) only the first time.
        let put = |build: &mut Self,
                   (what, index): (&'static str, u64),
                   name: &dyn Fn() -> String,
                   unit: &str,
                   (process, thread): (Option<u32>, Option<u32>),
                   value: f64| {
            let key = (what, index, process, thread);
            let c = match build.system_counters.get(&key) {
                Some(&c) => c,
                None => {
                    let c = build.counter(name(), unit, process, thread);
                    build.system_counters.insert(key, c);
                    c
                }
            };
            build.b.counter_value(c, time, value);
        };
        for (cpu, &khz) in s.cpu_frequency.iter().enumerate() {
            put(
                self,
                ("cpu frequency", cpu as u64),
                &|| format!("CPU {cpu} frequency"),
                "kHz",
                (None, None),
                f64::from(khz),
            );
        }
        for (cpu, &load) in s.cpu_load.iter().enumerate() {
            put(
                self,
                ("cpu load", cpu as u64),
                &|| format!("CPU {cpu} load"),
                "%",
                (None, None),
                f64::from(load),
            );
        }
        put(
            self,
            ("system memory used", 0),
            &|| "system memory used".into(),
            "bytes",
            (None, None),
            s.memory_used as f64,
        );
        for p in &s.processes {
            let comm = self.comm(p.pid);
            let process = Some(self.b.process(&p.pid.to_string(), &comm));
            let label = format!("pid {}", p.pid);
            put(
                self,
                ("pid load", u64::from(p.pid)),
                &|| format!("{label} load"),
                "%",
                (process, None),
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
                    (what, u64::from(p.pid)),
                    &|| format!("{label} {what}"),
                    "bytes",
                    (process, None),
                    bytes as f64,
                );
            }
            for &(tid, load) in &p.threads {
                let t = self.lane(p.pid, tid, Lane::Functions);
                put(
                    self,
                    ("thread load", u64::from(tid)),
                    &|| format!("thread {tid} load"),
                    "%",
                    (process, Some(t)),
                    f64::from(load),
                );
            }
        }
        for &(pid, load) in &s.others {
            put(
                self,
                ("other process load", u64::from(pid)),
                &|| format!("pid {pid} load (other process)"),
                "%",
                (None, None),
                f64::from(load),
            );
        }
        for (name, &v) in DISK.iter().zip(&s.disk) {
            let text = || (*name).to_owned();
            put(self, (*name, 0), &text, "", (None, None), f64::from(v));
        }
        for (name, &v) in NETWORK.iter().zip(&s.network) {
            let text = || (*name).to_owned();
            put(self, (*name, 0), &text, "bytes", (None, None), f64::from(v));
        }
        for (index, (name, &v)) in DEVICES.iter().zip(&s.devices).enumerate() {
            put(
                self,
                ("device", index as u64),
                &|| format!("device: {name}"),
                "state",
                (None, None),
                f64::from(v),
            );
        }
        let energy = || "energy".to_owned();
        put(
            self,
            ("energy", 0),
            &energy,
            "",
            (None, None),
            f64::from(s.energy),
        );
        for (i, &v) in s.energy_per_device.iter().enumerate() {
            let device = ENERGY_DEVICES.get(i).copied().unwrap_or("device");
            put(
                self,
                ("energy per device", i as u64),
                &|| format!("energy: {device}"),
                "",
                (None, None),
                f64::from(v),
            );
        }
        for (i, &v) in s.app_energy_per_device.iter().enumerate() {
            let device = ENERGY_DEVICES.get(i).copied().unwrap_or("device");
            put(
                self,
                ("app energy per device", i as u64),
                &|| format!("app energy: {device}"),
                "",
                (None, None),
                f64::from(v),
            );
        }
    }
}
