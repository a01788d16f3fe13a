//! Calls and scheduling: MSG_FUNCTION_ENTRY/EXIT in both the 4.x and the
//! pre-4.0 layout, MSG_SYSCALL_ENTRY/EXIT, MSG_FILE_FUNCTION_ENTRY/EXIT,
//! MSG_CONTEXT_SWITCH_ENTRY/EXIT and MSG_SAMPLE (notes §2).

use super::messages::{
    ContextSwitch, FileFunctionEntry, FileInfo, FunctionEntry, FunctionExit, Message, Sample,
    SyscallEntry, SyscallExit,
};
use super::reader::{ByteCursor, SwapText};
use super::values::Value;

/// MSG_FUNCTION_ENTRY; `legacy` reads the pre-4.0 `u16, u16` after tid.
/// Fails when the arguments do not all parse.
pub fn function_entry(r: &mut ByteCursor, legacy: bool) -> Option<Message> {
    let pid = r.u32()?;
    let tid = r.u32()?;
    let legacy = if legacy {
        Some((r.u16()?, r.u16()?))
    } else {
        None
    };
    let pc = r.u64()?;
    let caller = r.u64()?;
    let cpu = r.u32()?;
    let count = r.u32()?;
    let (args, complete) = Value::read_list(r, count);
    complete.then_some(Message::FunctionEntry(FunctionEntry {
        pid,
        tid,
        legacy,
        pc,
        caller,
        cpu,
        args,
    }))
}

/// MSG_FUNCTION_EXIT; `legacy` as for the entry.
pub fn function_exit(r: &mut ByteCursor, legacy: bool) -> Option<Message> {
    let pid = r.u32()?;
    let tid = r.u32()?;
    let legacy = if legacy {
        Some((r.u16()?, r.u16()?))
    } else {
        None
    };
    Some(Message::FunctionExit(FunctionExit {
        pid,
        tid,
        legacy,
        pc: r.u64()?,
        caller: r.u64()?,
        cpu: r.u32()?,
        ret: Value::read(r)?,
    }))
}

/// The layout a function entry or exit is read in (true: pre-4.0), found
/// without building the message, or `None` when neither reads: the one
/// that ends exactly at the payload end. When both do, a layout that read
/// text which is not UTF-8 loses (it read the other layout's numbers as a
/// string); otherwise, and when neither ends exactly, `preferred_legacy`
/// decides.
pub fn call_layout(payload: &[u8], entry: bool, preferred_legacy: bool) -> Option<bool> {
    pick_layout(preferred_legacy, |legacy| {
        let mut r = ByteCursor::le(payload);
        r.take(if legacy { 12 } else { 8 })?;
        r.take(20)?;
        let text_ok = if entry {
            let count = r.u32()?;
            let mut all_ok = true;
            for _ in 0..count {
                all_ok &= Value::skip(&mut r)?;
            }
            all_ok
        } else {
            Value::skip(&mut r)?
        };
        Some(((), r.remaining(), text_ok))
    })
    .map(|(_, _, legacy)| legacy)
}

/// The choice of [`call_layout`] over what `read` finds in each layout
/// (true: pre-4.0): the thing read, the bytes left after it and whether
/// its text was readable. Returns what the chosen layout read, the bytes
/// left and the layout.
fn pick_layout<T>(
    preferred: bool,
    read: impl Fn(bool) -> Option<(T, usize, bool)>,
) -> Option<(T, usize, bool)> {
    let first = read(preferred).map(|(t, left, ok)| (t, left, ok, preferred));
    // A readable message that ends exactly wins whatever the other layout
    // reads (the first arm below), so the other is not read at all.
    let chosen = if matches!(&first, Some((_, 0, true, _))) {
        first
    } else {
        let other = read(!preferred).map(|(t, left, ok)| (t, left, ok, !preferred));
        match (&first, &other) {
            (Some((_, 0, p_ok, _)), Some((_, 0, o_ok, _))) if !p_ok && *o_ok => other,
            (Some((_, 0, _, _)), _) => first,
            (_, Some((_, 0, _, _))) => other,
            _ => first.or(other),
        }
    };
    chosen.map(|(t, left, _, legacy)| (t, left, legacy))
}

/// MSG_SYSCALL_ENTRY.
pub fn syscall_entry(r: &mut ByteCursor) -> Option<Message> {
    let pid = r.u32()?;
    let tid = r.u32()?;
    let probe_type = r.u32()?;
    let pc = r.u64()?;
    let caller = r.u64()?;
    let cpu = r.u32()?;
    let count = r.u32()?;
    let (args, complete) = Value::read_list(r, count);
    complete.then_some(Message::SyscallEntry(SyscallEntry {
        pid,
        tid,
        probe_type,
        pc,
        caller,
        cpu,
        args,
    }))
}

/// MSG_SYSCALL_EXIT.
pub fn syscall_exit(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::SyscallExit(SyscallExit {
        pid: r.u32()?,
        tid: r.u32()?,
        probe_type: r.u32()?,
        pc: r.u64()?,
        caller: r.u64()?,
        cpu: r.u32()?,
        ret: Value::read(r)?,
    }))
}

/// MSG_FILE_FUNCTION_ENTRY, with its open path or lock parameters.
pub fn file_entry(r: &mut ByteCursor) -> Option<Message> {
    let pid = r.u32()?;
    let tid = r.u32()?;
    let fd = r.u32()?;
    let event = r.u32()?;
    let path = r.string()?;
    let info = match r.u32()? {
        0 => FileInfo::None,
        1 => FileInfo::Open {
            opened_path: r.string()?,
        },
        2 => FileInfo::Lock {
            kind: r.u32()?,
            whence: r.u32()?,
            start: r.u64()?,
            length: r.u64()?,
        },
        kind => FileInfo::Other {
            kind,
            bytes: r.rest().to_vec(),
        },
    };
    Some(Message::FileFunctionEntry(FileFunctionEntry {
        pid,
        tid,
        fd,
        event,
        path,
        info,
    }))
}

/// MSG_FILE_FUNCTION_EXIT.
pub fn file_exit(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::FileFunctionExit {
        pid: r.u32()?,
        tid: r.u32()?,
        ret: Value::read(r)?,
    })
}

/// MSG_CONTEXT_SWITCH_ENTRY / _EXIT.
pub fn context_switch(r: &mut ByteCursor, entry: bool) -> Option<Message> {
    Some(Message::ContextSwitch(ContextSwitch {
        entry,
        pc: r.u64()?,
        pid: r.u32()?,
        tid: r.u32()?,
        cpu: r.u32()?,
    }))
}

/// MSG_SAMPLE.
pub fn sample(r: &mut ByteCursor) -> Option<Message> {
    Some(Message::Sample(Sample {
        pid: r.u32()?,
        pc: r.u64()?,
        tid: r.u32()?,
        cpu: r.u32()?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a function entry or exit in the layout [`call_layout`] picks, the
    /// same way, from the messages themselves: the message, the bytes left over
    /// and whether the legacy layout was used.
    pub fn function_call(
        payload: &[u8],
        entry: bool,
        preferred_legacy: bool,
    ) -> Option<(Message, usize, bool)> {
        pick_layout(preferred_legacy, |legacy| {
            let mut r = ByteCursor::le(payload);
            let m = if entry {
                function_entry(&mut r, legacy)
            } else {
                function_exit(&mut r, legacy)
            }?;
            let text_ok = readable(&m);
            Some((m, r.remaining(), text_ok))
        })
    }

    /// False when a call's values hold text that was not valid UTF-8 (decoded
    /// with replacement characters).
    fn readable(message: &Message) -> bool {
        let values: &[Value] = match message {
            Message::FunctionEntry(e) => &e.args,
            Message::FunctionExit(e) => std::slice::from_ref(&e.ret),
            _ => &[],
        };
        values
            .iter()
            .all(|v| !matches!(v, Value::Str(s) if s.contains(char::REPLACEMENT_CHARACTER)))
    }

    /// Random calls made of plausible pieces: a head in either layout, a
    /// count, values of every type (some cut short, some with text that is
    /// not UTF-8 or holds U+FFFD), and stray bytes.
    fn random_payloads() -> Vec<Vec<u8>> {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let pieces: [&[u8]; 16] = [
            b"b\x01",
            b"c",
            b"d\x05\x00\x00\x00",
            b"f\x00\x00",
            b"x\x01\x02\x03\x04\x05\x06\x07\x08",
            b"p\x00\x00\x00\x00\x00\x00\x00\x00",
            b"s\0",
            b"sab\xff\0",
            b"s\xef\xbf\xbd\0",
            b"sok\0",
            b"v",
            b"n",
            b"D\0\0\0\0\0\0\0\0\x02\0\0\0\x01\0\0\0\x02\0\0\0",
            b"W\0\0\0\0\0\0\0\0\x09\0\0\0",
            b"Q",
            b"\0\0",
        ];
        (0..4000)
            .map(|_| {
                // The head is 28 bytes in 4.x, 32 before 4.0.
                let head = [28, 32, next(40)][next(3) as usize];
                let mut p: Vec<u8> = (0..head).map(|_| next(4) as u8).collect();
                p.extend_from_slice(&(next(4) as u32).to_le_bytes());
                for _ in 0..next(5) {
                    p.extend_from_slice(pieces[next(16) as usize]);
                }
                p
            })
            .collect()
    }

    #[test]
    fn the_layout_found_without_reading_is_the_one_reading_picks() {
        let mut read_some = 0;
        for payload in random_payloads() {
            for entry in [true, false] {
                for preferred in [true, false] {
                    let read = function_call(&payload, entry, preferred);
                    let layout = call_layout(&payload, entry, preferred);
                    read_some += usize::from(layout.is_some());
                    assert_eq!(layout, read.as_ref().map(|r| r.2), "{payload:?}");
                    if let Some(legacy) = layout {
                        let mut r = ByteCursor::le(&payload);
                        let again = if entry {
                            function_entry(&mut r, legacy)
                        } else {
                            function_exit(&mut r, legacy)
                        };
                        assert_eq!(again, read.map(|r| r.0));
                    }
                }
            }
        }
        // Both outcomes were tried.
        assert!((1000..15000).contains(&read_some), "{read_some} read");
    }

    /// A pre-4.0 exit whose bytes also read exactly as a 4.x exit: the 4.x
    /// reading takes the u16 pair and the cpu as part of the pc and a string
    /// (found by the round-trip property test).
    #[test]
    fn a_call_that_fits_both_layouts_is_read_in_the_one_with_readable_text() {
        let mut payload = Vec::new();
        payload.extend_from_slice(&1234u32.to_le_bytes()); // pid
        payload.extend_from_slice(&0u32.to_le_bytes()); // tid
        payload.extend_from_slice(&1u16.to_le_bytes()); // legacy pair
        payload.extend_from_slice(&0u16.to_le_bytes());
        payload.extend_from_slice(&0u64.to_le_bytes()); // pc
        payload.extend_from_slice(&0u64.to_le_bytes()); // caller
        payload.extend_from_slice(&4_107_414_131u32.to_le_bytes()); // cpu
        payload.extend_from_slice(b"s\0"); // an empty string return value
        let (message, left, legacy) = function_call(&payload, false, false).expect("reads");
        assert_eq!(left, 0);
        assert!(legacy, "read as {message:?}");
        let Message::FunctionExit(exit) = message else {
            panic!("not an exit: {message:?}");
        };
        assert_eq!(exit.legacy, Some((1, 0)));
        assert_eq!(exit.cpu, 4_107_414_131);
        assert_eq!(exit.ret, Value::Str(String::new()));
    }
}
