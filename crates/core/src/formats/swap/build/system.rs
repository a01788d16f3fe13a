//! MSG_SYSTEM → counter tracks: per-core load and frequency, memory, target
//! process and thread load and memory, other processes' load, disk, network,
//! device states and energy. Each is a sampled level: a value that repeats
//! only stretches the run it continues (`TraceBuilder::counter_level`).

use super::super::messages::{System, SystemProcess};
use super::{Build, Lane};
use crate::fast_hash::FastMap;
use crate::model::CounterRef;

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

/// Memory counters of a target process, in the order the message gives them.
const PROCESS_MEMORY: [&str; 5] = [
    "virtual memory",
    "resident memory",
    "shared memory",
    "PSS",
    "total allocated",
];

/// The counters MSG_SYSTEM values go to. Each is created (named, and found
/// by name) the first time its value comes, so they are made in the order of
/// the values of the first messages; later messages only index or look up
/// small numbers.
#[derive(Default)]
pub struct SystemCounters {
    /// CPU frequencies, CPU loads, then system memory used.
    head: Vec<CounterRef>,
    /// By pid.
    processes: FastMap<u32, ProcessCounters>,
    /// Thread load by (pid, tid).
    threads: FastMap<(u32, u32), CounterRef>,
    /// Load of other processes by pid.
    others: FastMap<u32, CounterRef>,
    /// Disk, network, devices, energy, energy and app energy per device.
    tail: Vec<CounterRef>,
}

/// The counters of one target process.
struct ProcessCounters {
    process: u32,
    load: CounterRef,
    memory: [CounterRef; 5],
    /// GEM PSS and 3D memory, once a message has them.
    gem_and_3d: Option<[CounterRef; 2]>,
}

impl Build {
    /// One MSG_SYSTEM sample.
    pub fn system_values(&mut self, s: &System, time: i64) {
        if !self.trace_level {
            // A part without counters makes only the processes and thread
            // lanes the values name, in the same order.
            for p in &s.processes {
                self.system_process(p, time);
            }
            return;
        }
        let cpus = s.cpu_frequency.len().min(s.cpu_load.len());
        if self.system_counters.head.len() != 2 * cpus + 1 {
            let mut head = Vec::with_capacity(2 * cpus + 1);
            for cpu in 0..cpus {
                head.push(self.counter(format!("CPU {cpu} frequency"), "kHz", None, None));
            }
            for cpu in 0..cpus {
                head.push(self.counter(format!("CPU {cpu} load"), "%", None, None));
            }
            head.push(self.counter("system memory used".into(), "bytes", None, None));
            self.system_counters.head = head;
        }
        let head = &self.system_counters.head;
        let frequencies = s.cpu_frequency.iter().take(cpus);
        let loads = s.cpu_load.iter().take(cpus);
        for (&c, &value) in head.iter().zip(frequencies.chain(loads)) {
            self.b.counter_level(c, time, f64::from(value));
        }
        if let Some(&c) = head.get(2 * cpus) {
            self.b.counter_level(c, time, s.memory_used as f64);
        }
        for p in &s.processes {
            self.system_process(p, time);
        }
        for &(pid, load) in &s.others {
            let c = match self.system_counters.others.get(&pid) {
                Some(&c) => c,
                None => {
                    let name = format!("pid {pid} load (other process)");
                    let c = self.counter(name, "%", None, None);
                    self.system_counters.others.insert(pid, c);
                    c
                }
            };
            self.b.counter_level(c, time, f64::from(load));
        }
        let devices = s.energy_per_device.len();
        let tail_len = DISK.len() + NETWORK.len() + DEVICES.len() + 1 + 2 * devices;
        if self.system_counters.tail.len() != tail_len {
            let mut tail = Vec::with_capacity(tail_len);
            for name in DISK {
                tail.push(self.counter(name.to_owned(), "", None, None));
            }
            for name in NETWORK {
                tail.push(self.counter(name.to_owned(), "bytes", None, None));
            }
            for name in DEVICES {
                tail.push(self.counter(format!("device: {name}"), "state", None, None));
            }
            tail.push(self.counter("energy".into(), "", None, None));
            for what in ["energy", "app energy"] {
                for i in 0..devices {
                    let device = ENERGY_DEVICES.get(i).copied().unwrap_or("device");
                    tail.push(self.counter(format!("{what}: {device}"), "", None, None));
                }
            }
            self.system_counters.tail = tail;
        }
        let tail = &self.system_counters.tail;
        let fixed = s.disk.iter().chain(&s.network).chain(&s.devices);
        let energy = std::iter::once(&s.energy)
            .chain(s.energy_per_device.iter().take(devices))
            .chain(s.app_energy_per_device.iter().take(devices));
        for (&c, &value) in tail.iter().zip(fixed.chain(energy)) {
            self.b.counter_level(c, time, f64::from(value));
        }
    }

    /// A target process's load, memory and thread loads.
    fn system_process(&mut self, p: &SystemProcess, time: i64) {
        if !self.system_counters.processes.contains_key(&p.pid) {
            let comm = self.comm(p.pid);
            let process = self.b.process(&p.pid.to_string(), &comm);
            let label = format!("pid {}", p.pid);
            let load = self.counter(format!("{label} load"), "%", Some(process), None);
            let memory = PROCESS_MEMORY
                .map(|what| self.counter(format!("{label} {what}"), "bytes", Some(process), None));
            let counters = ProcessCounters {
                process,
                load,
                memory,
                gem_and_3d: None,
            };
            self.system_counters.processes.insert(p.pid, counters);
        }
        let gem_missing = self
            .system_counters
            .processes
            .get(&p.pid)
            .is_some_and(|c| c.gem_and_3d.is_none());
        if p.gem_and_3d.is_some() && gem_missing {
            let process = self
                .system_counters
                .processes
                .get(&p.pid)
                .map(|c| c.process);
            let label = format!("pid {}", p.pid);
            let pair = ["GEM PSS", "3D memory"]
                .map(|what| self.counter(format!("{label} {what}"), "bytes", process, None));
            if let Some(c) = self.system_counters.processes.get_mut(&p.pid) {
                c.gem_and_3d = Some(pair);
            }
        }
        let Some(counters) = self.system_counters.processes.get(&p.pid) else {
            return;
        };
        let process = counters.process;
        self.b.counter_level(counters.load, time, f64::from(p.load));
        let memory = [p.virtual_bytes, p.resident, p.shared, p.pss, p.total_alloc];
        for (&c, bytes) in counters.memory.iter().zip(memory) {
            self.b.counter_level(c, time, bytes as f64);
        }
        if let (Some(cs), Some((gem, three_d))) = (counters.gem_and_3d, p.gem_and_3d) {
            self.b.counter_level(cs[0], time, gem as f64);
            self.b.counter_level(cs[1], time, three_d as f64);
        }
        for &(tid, load) in &p.threads {
            let c = match self.system_counters.threads.get(&(p.pid, tid)) {
                Some(&c) => c,
                None => {
                    let t = self.lane(p.pid, tid, Lane::Functions);
                    let name = format!("thread {tid} load");
                    let c = self.counter(name, "%", Some(process), Some(t));
                    self.system_counters.threads.insert((p.pid, tid), c);
                    c
                }
            };
            self.b.counter_level(c, time, f64::from(load));
        }
    }
}
