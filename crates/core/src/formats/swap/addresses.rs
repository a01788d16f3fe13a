//! Address → `library+offset` through the mappings each process announced
//! in MSG_PROCESS_INFO and later MSG_PROCESS_MAP / _UNMAP. The stream carries
//! no symbols, so that is as far as a name goes.

use super::messages::{Mapping, ProcessInfo};
use crate::decoder::file_name;
use std::collections::HashMap;

/// Executable mappings per pid.
#[derive(Default)]
pub struct AddressSpace {
    maps: HashMap<u32, Vec<Mapping>>,
}

impl AddressSpace {
    /// Starts a process's mappings afresh from its MSG_PROCESS_INFO.
    pub fn process_info(&mut self, info: &ProcessInfo) {
        let mut maps = Vec::with_capacity(info.libs.len() + 1);
        if info.high > info.low {
            maps.push(Mapping {
                low: info.low,
                high: info.high,
                path: info.binary.clone(),
            });
        }
        maps.extend(info.libs.iter().filter(|m| m.high > m.low).cloned());
        self.maps.insert(info.pid, maps);
    }

    /// A new mapping.
    pub fn map(&mut self, pid: u32, low: u64, high: u64, path: &str) {
        self.maps.entry(pid).or_default().push(Mapping {
            low,
            high,
            path: path.to_owned(),
        });
    }

    /// Drops every mapping inside `low..high`.
    pub fn unmap(&mut self, pid: u32, low: u64, high: u64) {
        if let Some(maps) = self.maps.get_mut(&pid) {
            maps.retain(|m| m.high <= low || m.low >= high);
        }
    }

    /// `libc.so.6+0x1234`, or the bare address when no mapping holds it.
    /// The latest mapping wins where they overlap.
    pub fn name(&self, pid: u32, address: u64) -> String {
        let found = self.maps.get(&pid).and_then(|maps| {
            maps.iter()
                .rev()
                .find(|m| (m.low..m.high).contains(&address))
        });
        match found {
            Some(m) => format!("{}+{:#x}", file_name(&m.path), address - m.low),
            None => format!("{address:#x}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_resolve_through_info_map_and_unmap() {
        let mut space = AddressSpace::default();
        space.process_info(&ProcessInfo {
            pid: 7,
            low: 0x1000,
            high: 0x2000,
            binary: "/opt/app/bin/app".into(),
            libs: vec![Mapping {
                low: 0x8000,
                high: 0x9000,
                path: "/lib/libc.so.6".into(),
            }],
            ..ProcessInfo::default()
        });
        assert_eq!(space.name(7, 0x1010), "app+0x10");
        assert_eq!(space.name(7, 0x8004), "libc.so.6+0x4");
        space.map(7, 0x5000, 0x6000, "/usr/lib/libx.so");
        assert_eq!(space.name(7, 0x5001), "libx.so+0x1");
        space.unmap(7, 0x5000, 0x6000);
        assert_eq!(space.name(7, 0x5001), "0x5001");
        assert_eq!(space.name(8, 0x1010), "0x1010");
    }
}
