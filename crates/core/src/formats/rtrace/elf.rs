//! A small ELF reader for symbolisation: the executable load segment and the
//! function symbols of `.symtab` and `.dynsym`. Both classes (32/64-bit) and
//! both byte orders; every offset is checked, so a damaged file gives an
//! error, never a panic.

/// The start of every ELF file.
pub const MAGIC: &[u8; 4] = b"\x7fELF";

/// What symbolisation needs from one ELF file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ElfSymbols {
    /// Virtual address of the executable `PT_LOAD` segment.
    pub exec_vaddr: u64,
    /// Function symbols, sorted by address: (address, size, name).
    pub functions: Vec<(u64, u64, String)>,
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

struct Reader<'a> {
    data: &'a [u8],
    big_endian: bool,
    wide: bool,
}

impl Reader<'_> {
    fn bytes<const N: usize>(&self, at: u64) -> Option<[u8; N]> {
        let at = usize::try_from(at).ok()?;
        self.data.get(at..at.checked_add(N)?)?.try_into().ok()
    }
    fn u8(&self, at: u64) -> Option<u8> {
        Some(self.bytes::<1>(at)?[0])
    }
    fn u16(&self, at: u64) -> Option<u16> {
        let b = self.bytes(at)?;
        Some(if self.big_endian {
            u16::from_be_bytes(b)
        } else {
            u16::from_le_bytes(b)
        })
    }
    fn u32(&self, at: u64) -> Option<u32> {
        let b = self.bytes(at)?;
        Some(if self.big_endian {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        })
    }
    fn u64(&self, at: u64) -> Option<u64> {
        let b = self.bytes(at)?;
        Some(if self.big_endian {
            u64::from_be_bytes(b)
        } else {
            u64::from_le_bytes(b)
        })
    }
    /// An address-sized field (`Elf32_Addr`/`Elf64_Addr`, offsets, sizes).
    fn word(&self, at: u64) -> Option<u64> {
        if self.wide {
            self.u64(at)
        } else {
            self.u32(at).map(u64::from)
        }
    }
    fn c_string(&self, at: u64) -> Option<String> {
        let rest = self.data.get(usize::try_from(at).ok()?..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        Some(String::from_utf8_lossy(&rest[..end]).into_owned())
    }
}

const PT_LOAD: u32 = 1;
const PF_X: u32 = 1;
const SHT_SYMTAB: u32 = 2;
const SHT_DYNSYM: u32 = 11;
const STT_FUNC: u8 = 2;
const STT_GNU_IFUNC: u8 = 10;

/// Reads the executable segment and function symbols of an ELF file.
pub fn parse(data: &[u8]) -> Result<ElfSymbols, String> {
    if !data.starts_with(MAGIC) {
        return Err("not an ELF file".into());
    }
    let wide = match data.get(4) {
        Some(1) => false,
        Some(2) => true,
        _ => return Err("unknown ELF class".into()),
    };
    let big_endian = match data.get(5) {
        Some(1) => false,
        Some(2) => true,
        _ => return Err("unknown ELF byte order".into()),
    };
    let r = Reader {
        data,
        big_endian,
        wide,
    };
    let short = || "ELF header is cut short".to_string();
    let end = data.len() as u64;
    // Header field offsets differ by class only in the address-sized fields.
    let (phoff, shoff, phentsize_at) = if wide { (32, 40, 54) } else { (28, 32, 42) };
    let phoff = r.word(phoff).ok_or_else(short)?;
    let shoff = r.word(shoff).ok_or_else(short)?;
    let phentsize = u64::from(r.u16(phentsize_at).ok_or_else(short)?);
    let phnum = u64::from(r.u16(phentsize_at + 2).ok_or_else(short)?);
    let shentsize = u64::from(r.u16(phentsize_at + 4).ok_or_else(short)?);
    let shnum = u64::from(r.u16(phentsize_at + 6).ok_or_else(short)?);

    let mut exec_vaddr = None;
    for i in 0..phnum {
        // Clamped to the file, so adding a field offset cannot overflow.
        let at = phoff.saturating_add(i.saturating_mul(phentsize)).min(end);
        let (Some(kind), Some(flags), Some(vaddr)) = (
            r.u32(at),
            r.u32(at + if wide { 4 } else { 24 }),
            r.word(at + if wide { 16 } else { 8 }),
        ) else {
            break;
        };
        if kind == PT_LOAD && flags & PF_X != 0 {
            exec_vaddr = Some(vaddr);
            break;
        }
    }
    let exec_vaddr = exec_vaddr.ok_or("no executable load segment")?;

    let mut functions = Vec::new();
    // Damaged section tables can point many sections at the same bytes; a
    // budget keeps the work proportional to the file.
    let mut budget = data.len() / 8;
    let section = |i: u64| -> Option<(u32, u64, u64, u32, u64)> {
        let at = shoff.checked_add(i.checked_mul(shentsize)?)?.min(end);
        let (w, o) = if wide { (8, 24) } else { (4, 16) };
        // sh_type, sh_offset, sh_size, sh_link, sh_entsize
        Some((
            r.u32(at + 4)?,
            r.word(at + o)?,
            r.word(at + o + w)?,
            r.u32(at + o + 2 * w)?,
            r.word(at + o + 2 * w + 8 + w)?,
        ))
    };
    for i in 0..shnum {
        let Some((kind, offset, size, link, entsize)) = section(i) else {
            break;
        };
        if kind != SHT_SYMTAB && kind != SHT_DYNSYM {
            continue;
        }
        let Some((_, str_offset, str_size, _, _)) = section(u64::from(link)) else {
            continue;
        };
        let entsize = entsize.max(if wide { 24 } else { 16 });
        let count = size / entsize;
        for s in 0..count.min(data.len() as u64 / entsize) {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let at = offset.saturating_add(s * entsize).min(end);
            let fields = if wide {
                (
                    r.u32(at),
                    r.u8(at + 4),
                    r.u16(at + 6),
                    r.u64(at + 8),
                    r.u64(at + 16),
                )
            } else {
                (
                    r.u32(at),
                    r.u8(at + 12),
                    r.u16(at + 14),
                    r.u32(at + 4).map(u64::from),
                    r.u32(at + 8).map(u64::from),
                )
            };
            let (Some(name), Some(info), Some(shndx), Some(value), Some(sym_size)) = fields else {
                break;
            };
            let kind = info & 0xf;
            if (kind != STT_FUNC && kind != STT_GNU_IFUNC) || shndx == 0 || value == 0 {
                continue;
            }
            if u64::from(name) >= str_size {
                continue;
            }
            if let Some(name) = r.c_string(str_offset.saturating_add(u64::from(name))) {
                if !name.is_empty() {
                    functions.push((value, sym_size, name));
                }
            }
        }
    }
    functions.sort();
    functions.dedup_by(|a, b| a.0 == b.0);
    Ok(ElfSymbols {
        exec_vaddr,
        functions,
    })
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
        };
        assert_eq!(syms.lookup(0x1004), Some(("a", 4)));
        assert_eq!(syms.lookup(0x1050), Some(("b", 0x40)));
        assert_eq!(syms.lookup(0x1108), None);
        assert_eq!(syms.lookup(0x10), None);
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
