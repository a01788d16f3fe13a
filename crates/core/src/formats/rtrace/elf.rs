//! What symbolisation needs from an ELF file: the executable load segment and
//! the function symbols of `.symtab` and `.dynsym`, read with the `object`
//! crate (both classes, both byte orders, every offset checked by it).

use crate::model::Severity;
use object::elf::{
    FileHeader32, FileHeader64, PF_X, PT_LOAD, SHN_UNDEF, SHT_DYNSYM, SHT_SYMTAB, STT_FUNC,
    STT_GNU_IFUNC,
};
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader, Sym, SymbolTable};
use object::{Endianness, SectionIndex};

/// The start of every ELF file.
pub const MAGIC: &[u8; 4] = b"\x7fELF";

/// What symbolisation needs from one ELF file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ElfSymbols {
    /// Virtual address of the executable `PT_LOAD` segment.
    pub exec_vaddr: u64,
    /// Function symbols, sorted by address: (address, size, name).
    pub functions: Vec<(u64, u64, String)>,
    /// What `sp-rtrace-resolve` takes the file for: absolute addresses (an
    /// executable: the load segment at file offset 0 has a non-zero address)
    /// or addresses relative to the mapping's start (a shared object).
    pub absolute: bool,
}

impl ElfSymbols {
    /// The function containing virtual address `vaddr` and the offset into it.
    pub fn lookup(&self, vaddr: u64) -> Option<(&str, u64)> {
        let after = self.functions.partition_point(|(a, _, _)| *a <= vaddr);
        let (start, size, name) = self.functions.get(after.checked_sub(1)?)?;
        let offset = vaddr - start;
        // Sized symbols must contain the address; unsized ones (hand-written
        // assembly) are taken as reaching to the next symbol.
        (*size == 0 || offset < *size).then_some((name.as_str(), offset))
    }
}

impl ElfSymbols {
    /// The sized function that holds `address` itself (not the address
    /// before it), as `sp-rtrace-resolve`'s ELF mode looks it up.
    pub fn function_holding(&self, address: u64) -> Option<&str> {
        let after = self.functions.partition_point(|(a, _, _)| *a <= address);
        let (start, size, name) = self.functions.get(after.checked_sub(1)?)?;
        (address - start < *size).then_some(name.as_str())
    }
}

/// Reads the executable segment and function symbols of an ELF file.
pub fn parse(data: &[u8]) -> Result<ElfSymbols, String> {
    if !data.starts_with(MAGIC) {
        return Err("not an ELF file".into());
    }
    if !matches!(data.get(5), Some(1 | 2)) && matches!(data.get(4), Some(1 | 2)) {
        return Err("unknown ELF byte order".into());
    }
    match data.get(4) {
        Some(1) => parse_class::<FileHeader32<Endianness>>(data),
        Some(2) => parse_class::<FileHeader64<Endianness>>(data),
        _ => Err("unknown ELF class".into()),
    }
}

/// [`parse`] for one ELF class.
fn parse_class<H: FileHeader<Endian = Endianness>>(data: &[u8]) -> Result<ElfSymbols, String> {
    let header = H::parse(data).map_err(|e| e.to_string())?;
    let endian = header.endian().map_err(|e| e.to_string())?;
    let segments = header
        .program_headers(endian, data)
        .map_err(|e| e.to_string())?;
    let exec_vaddr = segments
        .iter()
        .find(|s| s.p_type(endian) == PT_LOAD && s.p_flags(endian).0 & PF_X.0 != 0)
        .map(|s| s.p_vaddr(endian).into())
        .ok_or("no executable load segment")?;
    // sp-rtrace-resolve's test: the first load segment at file offset 0.
    let absolute = segments
        .iter()
        .find(|s| s.p_type(endian) == PT_LOAD && Into::<u64>::into(s.p_offset(endian)) == 0)
        .is_none_or(|s| Into::<u64>::into(s.p_vaddr(endian)) != 0);
    let sections = header.sections(endian, data).map_err(|e| e.to_string())?;
    let mut functions = Vec::new();
    // Damaged section tables can point many sections at the same bytes; a
    // budget keeps the work proportional to the file.
    let mut budget = data.len() / 8;
    for (index, section) in sections.iter().enumerate() {
        let kind = section.sh_type(endian);
        if kind != SHT_SYMTAB && kind != SHT_DYNSYM {
            continue;
        }
        let Ok(symbols) = SymbolTable::parse(endian, data, &sections, SectionIndex(index), section)
        else {
            continue;
        };
        for symbol in symbols.iter() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let kind = symbol.st_type();
            let value: u64 = symbol.st_value(endian).into();
            if (kind != STT_FUNC && kind != STT_GNU_IFUNC)
                || symbol.st_shndx(endian) == SHN_UNDEF
                || value == 0
            {
                continue;
            }
            match symbols.symbol_name(endian, symbol) {
                Ok(name) if !name.is_empty() => {
                    let name = String::from_utf8_lossy(name).into_owned();
                    functions.push((value, symbol.st_size(endian).into(), name));
                }
                _ => {}
            }
        }
    }
    functions.sort();
    functions.dedup_by(|a, b| a.0 == b.0);
    Ok(ElfSymbols {
        exec_vaddr,
        functions,
        absolute,
    })
}

impl super::RtraceDecoder {
    /// Keeps the symbols of the dropped ELF file `name`, or says why it has
    /// none.
    pub(super) fn end_elf(&mut self, name: String, bytes: &[u8], path: &str) {
        match parse(bytes) {
            Ok(symbols) => {
                let name = crate::decoder::file_name(&name).to_owned();
                self.elves.insert(name, symbols);
            }
            Err(why) => {
                self.builder.diagnose(
                    Severity::Info,
                    "elf-unreadable",
                    Some(path),
                    None,
                    1,
                    || format!("no symbols read from this ELF file: {why}"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_finds_the_containing_function() {
        let syms = ElfSymbols {
            exec_vaddr: 0x1000,
            functions: vec![
                (0x1000, 0x10, "a".into()),
                (0x1010, 0, "b".into()),
                (0x1100, 0x8, "c".into()),
            ],
            absolute: true,
        };
        assert_eq!(syms.lookup(0x1004), Some(("a", 4)));
        assert_eq!(syms.lookup(0x1050), Some(("b", 0x40)));
        assert_eq!(syms.lookup(0x1108), None);
        assert_eq!(syms.lookup(0x10), None);
        assert_eq!(syms.function_holding(0x100f), Some("a"));
        assert_eq!(syms.function_holding(0x1010), None);
        assert_eq!(syms.function_holding(0x1107), Some("c"));
    }

    #[test]
    fn damaged_files_give_errors() {
        assert!(parse(b"\x7fELF").is_err());
        assert!(parse(b"\x7fELF\x02\x01\x01").is_err());
        assert!(parse(b"MZ").is_err());
        let mut header = vec![0u8; 64];
        header[..4].copy_from_slice(MAGIC);
        header[4] = 2;
        header[5] = 1;
        header[32..40].copy_from_slice(&u64::MAX.to_le_bytes());
        header[56] = 0xff;
        assert!(parse(&header).is_err());
    }
}
