//! The benchmark input: the demo repeated back to back in time.

use crate::demo::demo;
use crate::scenario::*;
use flamedrop_core::formats::swap::encode::encode_frame;
use flamedrop_core::formats::swap::messages::*;
use std::path::Path;

/// The demo repeated until `mb` megabytes, written to `out`.
pub fn big(out: &Path, mb: u64) -> std::io::Result<()> {
    use std::io::Write;
    let demo = demo();
    let first = demo.iter().map(|f| ns_of(f.time)).min().unwrap_or(0);
    let last = demo.iter().map(|f| ns_of(f.time)).max().unwrap_or(0);
    let period = last - first + 1_000_000;
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    let (mut written, mut seq, mut round) = (0u64, 0u32, 0i64);
    let mut bytes = Vec::new();
    while written < mb * 1_000_000 {
        for frame in &demo {
            // The process and its start-up stages are said once.
            let once = matches!(
                frame.message,
                Message::ProcessInfo(_) | Message::AppSetupStage(_)
            );
            if once && round > 0 {
                continue;
            }
            let frame = Frame {
                seq,
                time: time(ns_of(frame.time) + round * period),
                message: frame.message.clone(),
                slack: frame.slack,
            };
            bytes.clear();
            encode_frame(&frame, &mut bytes);
            file.write_all(&bytes)?;
            written += bytes.len() as u64;
            seq = seq.wrapping_add(1);
        }
        round += 1;
    }
    file.flush()?;
    println!(
        "{}: {round} rounds of the demo, {seq} messages, {written} bytes",
        out.display()
    );
    Ok(())
}
