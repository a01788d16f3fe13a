//! The payload of MSG_SYSTEM.

use super::super::messages::System;
use super::Out;

/// Writes a MSG_SYSTEM payload in the layout its vectors' lengths give.
pub(super) fn payload(o: &mut Out, s: &System) {
    for &v in &s.cpu_frequency {
        o.f32(v);
    }
    for &v in &s.cpu_load {
        o.f32(v);
    }
    o.u64(s.memory_used);
    o.u32(s.processes.len() as u32);
    for p in &s.processes {
        o.u32(p.pid);
        o.f32(p.load);
        o.u64(p.virtual_bytes);
        o.u64(p.resident);
        o.u64(p.shared);
        o.u64(p.pss);
        if let Some((gem, three_d)) = p.gem_and_3d {
            o.u64(gem);
            o.u64(three_d);
        }
        o.u64(p.total_alloc);
        o.u32(p.threads.len() as u32);
        for &(tid, load) in &p.threads {
            o.u32(tid);
            o.f32(load);
        }
    }
    o.u32(s.others.len() as u32);
    for &(pid, load) in &s.others {
        o.u32(pid);
        o.f32(load);
    }
    for &v in s.disk.iter().chain(&s.network).chain(&s.devices) {
        o.u32(v);
    }
    o.u32(s.energy);
    for &v in s.energy_per_device.iter().chain(&s.app_energy_per_device) {
        o.u32(v);
    }
}
