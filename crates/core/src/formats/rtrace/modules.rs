//! Frames to names. A return address is attributed to the MMAP range that
//! holds it (the latest MMAP wins when ranges were replaced) and shown as
//! `module+0xoffset` from the start of that executable mapping. When the user
//! dropped the module's ELF file beside the trace, the offset is turned into a
//! virtual address of that file and looked up in its symbol table.
//!
//! sp-rtrace's own resolver takes `address - mapping start` as the ELF address,
//! which is only right when the executable mapping starts at file offset 0;
//! with modern toolchains it names the wrong functions (notes §7). Here the
//! executable segment's virtual address is added, as the loader mapped it.

use super::elf::ElfSymbols;
use crate::decoder::file_name;
use std::collections::HashMap;

/// One executable mapping (an MMAP packet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    pub from: u64,
    pub to: u64,
    pub path: String,
}

/// Resolves return addresses to frame names.
pub struct Symbolizer<'a> {
    mappings: &'a [Mapping],
    /// ELF symbols by file name (`libc.so.6`).
    elves: &'a HashMap<String, ElfSymbols>,
}

impl<'a> Symbolizer<'a> {
    /// A symbolizer over every MMAP of the trace, in file order, and the ELF
    /// files that were dropped.
    pub fn new(mappings: &'a [Mapping], elves: &'a HashMap<String, ElfSymbols>) -> Self {
        Symbolizer { mappings, elves }
    }

    /// The mapping holding `address`: the latest one that covers it.
    pub fn mapping_of(&self, address: u64) -> Option<&'a Mapping> {
        self.mappings
            .iter()
            .rev()
            .find(|m| m.from <= address && address < m.to)
    }

    /// `function+0xoff` when the module's ELF symbols name it,
    /// `module+0xoffset` when a mapping holds it, else the raw address.
    pub fn frame_name(&self, address: u64) -> String {
        let Some(mapping) = self.mapping_of(address) else {
            return format!("{address:#x}");
        };
        let module = file_name(&mapping.path);
        let offset = address - mapping.from;
        if let Some(elf) = self.elves.get(module) {
            // The mapping starts at the page holding the segment's start.
            let vaddr = (elf.exec_vaddr & !0xfff).wrapping_add(offset);
            // A return address points after the call; look up the call itself.
            if let Some((function, within)) = elf.lookup(vaddr.wrapping_sub(1)) {
                return format!("{function}+{:#x}", within + 1);
            }
        }
        format!("{module}+{offset:#x}")
    }

    /// The function `sp-rtrace-resolve -telf` names for `address`, when the
    /// ELF file of its module was dropped: it takes the address itself for
    /// an executable and `address - mapping start` for a shared object (the
    /// latter wrong when the segment does not start at file offset 0, notes
    /// §7). Returns the mapping's path and the function.
    pub fn resolver_function(&self, address: u64) -> Option<(&'a str, &'a str)> {
        let mapping = self.mapping_of(address)?;
        let elf = self.elves.get(file_name(&mapping.path))?;
        let address = if elf.absolute {
            address
        } else {
            address - mapping.from
        };
        Some((mapping.path.as_str(), elf.function_holding(address)?))
    }

    /// True when the module holding `address` has ELF symbols loaded.
    pub fn has_symbols(&self, mapping: &Mapping) -> bool {
        self.elves.contains_key(file_name(&mapping.path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_name_the_latest_mapping_and_its_symbols() {
        let mappings = vec![
            Mapping {
                from: 0x1000,
                to: 0x2000,
                path: "/old/libx.so".into(),
            },
            Mapping {
                from: 0x7f00_0000_0000,
                to: 0x7f00_0010_0000,
                path: "/usr/lib/libc.so.6".into(),
            },
            Mapping {
                from: 0x1000,
                to: 0x3000,
                path: "/bin/prog".into(),
            },
        ];
        let mut elves = HashMap::new();
        elves.insert(
            "libc.so.6".to_string(),
            ElfSymbols {
                exec_vaddr: 0x26000,
                functions: vec![(0x26100, 0x40, "__strdup".into())],
                absolute: false,
            },
        );
        let s = Symbolizer::new(&mappings, &elves);
        assert_eq!(s.frame_name(0x1800), "prog+0x800");
        assert_eq!(s.frame_name(0x7f00_0000_0110), "__strdup+0x10");
        assert_eq!(s.frame_name(0x7f00_0000_0500), "libc.so.6+0x500");
        assert_eq!(s.frame_name(0x10), "0x10");
    }
}
