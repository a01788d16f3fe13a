//! Reading paths from disk into a decoder: folders are walked, files are
//! probed by their first bytes, then fed in chunks in the decoder's order.

use flamedrop_core::input::{open_decoder, FileProbe, PROBE_BYTES};
use flamedrop_core::Trace;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

const CHUNK: usize = 8 << 20;

/// Decodes the files at `paths` (files or folders).
pub fn decode_paths(paths: &[String]) -> Result<Trace, String> {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for path in paths {
        let root = Path::new(path);
        if root.is_dir() {
            walk(root, root, &mut found)?;
        } else if root.is_file() {
            let name = root
                .file_name()
                .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
            found.push((name, root.to_path_buf()));
        } else {
            return Err(format!("{path}: no such file or folder"));
        }
    }
    found.sort();
    let mut probes = Vec::with_capacity(found.len());
    for (name, path) in &found {
        let size = std::fs::metadata(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .len();
        let mut head = vec![0u8; PROBE_BYTES];
        let n = File::open(path)
            .and_then(|mut f| f.read(&mut head))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        head.truncate(n);
        probes.push(FileProbe {
            path: name.clone(),
            size,
            head,
        });
    }
    let mut decoder = open_decoder(probes).map_err(|e| e.to_string())?;
    let mut buffer = vec![0u8; CHUNK];
    for index in decoder.plan() {
        let Some((_, path)) = found.get(index) else {
            continue;
        };
        let mut file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        decoder.begin_file(index);
        loop {
            let n = file
                .read(&mut buffer)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if n == 0 {
                break;
            }
            decoder.feed(&buffer[..n]);
        }
        decoder.end_file();
    }
    Ok(decoder.finish())
}

/// Collects the files below `dir` with paths relative to `root`'s parent, so a
/// dropped `uftrace.data/` keeps its folder name as it does in the browser.
fn walk(root: &Path, dir: &Path, found: &mut Vec<(String, PathBuf)>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, found)?;
        } else if path.is_file() {
            let base = root.parent().unwrap_or(root);
            let relative = path.strip_prefix(base).unwrap_or(&path);
            let name = relative.to_string_lossy().replace('\\', "/");
            found.push((name, path));
        }
    }
    Ok(())
}
