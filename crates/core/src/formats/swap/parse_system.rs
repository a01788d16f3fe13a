//! MSG_SYSTEM (notes §2): a fixed field order whose array lengths — the CPU
//! count N and the energy device count D — are not in the message, and whose
//! `len` covers at least 256 bytes of uninitialised slack.
//!
//! When neither is given, they are inferred: the daemon sets `len` from its
//! C struct sizes, so the slack left after a correct parse is exactly 268
//! bytes on x86-32 targets and 276 + 4·P on ARM32 and 64-bit ones (P = target
//! processes), 8 more with the "protocol 4.2" fields. Every candidate (N, D,
//! 4.2) is tried on every message and the one for which most messages leave
//! such a slack, with plausible loads, wins. N and D trade 8 bytes for 8
//! bytes, so ties are broken by plausibility, then by the newest daemon
//! (D = 5, no 4.2 fields).

use super::messages::{System, SystemProcess};
use super::reader::ByteCursor;

/// Array lengths and variant of MSG_SYSTEM in one stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SystemLayout {
    pub cpus: u32,
    pub energy_devices: u32,
    /// Two extra u64 per target process (GEM PSS, 3D memory).
    pub v42: bool,
}

/// How many of the first messages the inference scores.
pub const INFER_SAMPLE: usize = 32;
/// Largest CPU count tried when inferring.
const MAX_CPUS: u32 = 64;
/// Energy device counts the daemon versions use.
const DEVICE_COUNTS: [u32; 2] = [5, 3];

/// Parses one MSG_SYSTEM payload with `layout`; returns it and the bytes
/// left before `len`.
pub fn parse(payload: &[u8], layout: SystemLayout) -> Option<(System, usize)> {
    let mut system = System::default();
    let left = parse_into(payload, layout, &mut system)?;
    Some((system, left))
}

/// Parses one MSG_SYSTEM payload with `layout` into `s`, reusing its
/// vectors (one per message of a long stream would be a lot of allocating);
/// returns the bytes left before `len`. On `None`, `s` holds a partial read.
pub fn parse_into(payload: &[u8], layout: SystemLayout, s: &mut System) -> Option<usize> {
    let mut r = ByteCursor::le(payload);
    let n = layout.cpus as usize;
    fill(&mut s.cpu_frequency, n, || r.f32())?;
    fill(&mut s.cpu_load, n, || r.f32())?;
    s.memory_used = r.u64()?;
    let process_count = r.count(48)? as usize;
    // Existing entries keep their thread vectors' room.
    s.processes
        .resize_with(process_count, SystemProcess::default);
    for p in &mut s.processes {
        p.pid = r.u32()?;
        p.load = r.f32()?;
        p.virtual_bytes = r.u64()?;
        p.resident = r.u64()?;
        p.shared = r.u64()?;
        p.pss = r.u64()?;
        p.gem_and_3d = if layout.v42 {
            Some((r.u64()?, r.u64()?))
        } else {
            None
        };
        p.total_alloc = r.u64()?;
        let thread_count = r.count(8)? as usize;
        fill(&mut p.threads, thread_count, || Some((r.u32()?, r.f32()?)))?;
    }
    let other_count = r.count(8)? as usize;
    fill(&mut s.others, other_count, || Some((r.u32()?, r.f32()?)))?;
    for slot in &mut s.disk {
        *slot = r.u32()?;
    }
    for slot in &mut s.network {
        *slot = r.u32()?;
    }
    for slot in &mut s.devices {
        *slot = r.u32()?;
    }
    s.energy = r.u32()?;
    let d = layout.energy_devices as usize;
    fill(&mut s.energy_per_device, d, || r.u32())?;
    fill(&mut s.app_energy_per_device, d, || r.u32())?;
    Some(r.remaining())
}

/// Replaces the contents of `out` with `n` items read by `read`; `None`
/// as soon as one does not fit.
fn fill<T>(out: &mut Vec<T>, n: usize, mut read: impl FnMut() -> Option<T>) -> Option<()> {
    out.clear();
    for _ in 0..n {
        out.push(read()?);
    }
    Some(())
}

/// The slack the daemon leaves after a message parsed with `layout`, on
/// x86-32 and on ARM32 / 64-bit targets.
pub fn expected_slack(layout: SystemLayout, processes: usize) -> [usize; 2] {
    let extra = if layout.v42 { 8 } else { 0 };
    [268 + extra, 276 + 4 * processes + extra]
}

/// Loads in 0–100 % and finite, non-negative frequencies.
fn plausible(s: &System) -> bool {
    let load_ok = |v: f32| (0.0..=100.0).contains(&v);
    s.cpu_load.iter().all(|&v| load_ok(v))
        && s.cpu_frequency.iter().all(|&v| v.is_finite() && v >= 0.0)
        && s.processes
            .iter()
            .all(|p| load_ok(p.load) && p.threads.iter().all(|t| load_ok(t.1)))
        && s.others.iter().all(|o| load_ok(o.1))
}

/// The layout that explains the most payloads, or `None` when no candidate
/// leaves the daemon's slack on any of them. `cpus` and `devices` pin what
/// the user gave.
pub fn infer(payloads: &[&[u8]], cpus: Option<u32>, devices: Option<u32>) -> Option<SystemLayout> {
    let cpu_range = match cpus {
        Some(n) => n..=n,
        None => 1..=MAX_CPUS,
    };
    let device_choices: Vec<u32> = match devices {
        Some(d) => vec![d],
        None => DEVICE_COUNTS.to_vec(),
    };
    let mut best: Option<(usize, usize, SystemLayout)> = None;
    let mut system = System::default();
    // Only the first messages are scored: the layout is the same for all.
    let sample: Vec<&[u8]> = payloads.iter().take(INFER_SAMPLE).copied().collect();
    for v42 in [false, true] {
        for &energy_devices in &device_choices {
            for n in cpu_range.clone() {
                let layout = SystemLayout {
                    cpus: n,
                    energy_devices,
                    v42,
                };
                let (mut exact, mut sane) = (0, 0);
                for payload in &sample {
                    if let Some(left) = parse_into(payload, layout, &mut system) {
                        if expected_slack(layout, system.processes.len()).contains(&left) {
                            exact += 1;
                            if plausible(&system) {
                                sane += 1;
                            }
                        }
                    }
                }
                // Earlier candidates (D = 5, no 4.2) win ties.
                if exact > 0 && best.is_none_or(|(s, e, _)| (sane, exact) > (s, e)) {
                    best = Some((sane, exact, layout));
                }
            }
        }
    }
    best.map(|(_, _, layout)| layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A MSG_SYSTEM payload of `layout` with `processes` target processes,
    /// the given slack and loads in range.
    fn payload(layout: SystemLayout, processes: usize, slack: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let n = layout.cpus as usize;
        for _ in 0..n {
            out.extend_from_slice(&1_000_000f32.to_le_bytes());
        }
        for _ in 0..n {
            out.extend_from_slice(&25f32.to_le_bytes());
        }
        out.extend_from_slice(&7u64.to_le_bytes());
        out.extend_from_slice(&(processes as u32).to_le_bytes());
        for p in 0..processes {
            out.extend_from_slice(&(100 + p as u32).to_le_bytes());
            out.extend_from_slice(&10f32.to_le_bytes());
            let words = if layout.v42 { 7 } else { 5 };
            out.extend(std::iter::repeat_n(0u8, words * 8));
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        out.extend_from_slice(&0u32.to_le_bytes());
        // disk 5, network 2, devices 13, energy 1, then 2 × D.
        out.extend(std::iter::repeat_n(
            0u8,
            (21 + 2 * layout.energy_devices as usize) * 4,
        ));
        out.extend(std::iter::repeat_n(0xCDu8, slack));
        out
    }

    #[test]
    fn the_daemon_slack_reveals_cpus_devices_and_the_4_2_fields() {
        for layout in [
            SystemLayout {
                cpus: 1,
                energy_devices: 5,
                v42: false,
            },
            SystemLayout {
                cpus: 4,
                energy_devices: 3,
                v42: false,
            },
            SystemLayout {
                cpus: 8,
                energy_devices: 5,
                v42: true,
            },
        ] {
            let slack = expected_slack(layout, 2);
            let x86 = payload(layout, 2, slack[0]);
            let arm = payload(layout, 2, slack[1]);
            assert_eq!(infer(&[&x86, &arm], None, None), Some(layout));
            let (system, left) = parse(&x86, layout).expect("parses");
            assert_eq!(
                (system.cpu_load.len(), left),
                (layout.cpus as usize, slack[0])
            );
        }
    }

    #[test]
    fn without_the_slack_nothing_is_inferred_but_a_given_count_is_used() {
        let layout = SystemLayout {
            cpus: 2,
            energy_devices: 5,
            v42: false,
        };
        let bare = payload(layout, 1, 0);
        assert_eq!(infer(&[&bare], None, None), None);
        assert_eq!(infer(&[&bare], Some(2), Some(5)), None);
        assert!(parse(&bare, layout).is_some());
    }
}
