//! The page's pre-scan of files held back as too big for the tab: each
//! file's first bytes and the few ranges `flamedrop_core::prescan` asks for
//! (uftrace: `task.txt` and the last 64 KiB of every task data file), read
//! from the `Blob`s without reading the rest, give the estimate the part
//! dialog offers threads and a time window from.

use super::InputFile;
use crate::worker::reader::{read_heads, read_into};
use flamedrop_core::input::{FileProbe, PROBE_BYTES};
use flamedrop_core::prescan::{self, Estimate};

/// The estimate for `files`; an error says which file could not be read.
pub async fn scan(files: &[InputFile]) -> Result<Estimate, String> {
    let blobs: Vec<&web_sys::Blob> = files.iter().map(|f| &f.blob).collect();
    let heads = read_heads(&blobs, PROBE_BYTES as f64).await?;
    let probes: Vec<FileProbe> = files
        .iter()
        .zip(heads)
        .map(|(file, head)| FileProbe {
            path: file.path.clone(),
            size: file.size() as u64,
            head,
        })
        .collect();
    let mut read = Vec::new();
    for (index, offset, len) in prescan::wants(&probes) {
        let Some(file) = files.get(index) else {
            continue;
        };
        let mut bytes = Vec::new();
        read_into(&file.blob, offset as f64, (offset + len) as f64, &mut bytes)
            .await
            .map_err(|e| format!("could not read {}: {e}", file.path))?;
        read.push((index, bytes));
    }
    Ok(prescan::estimate(&probes, &read))
}
