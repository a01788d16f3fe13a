//! Measures a decode's memory natively, the way the page's worker decodes
//! (`decode_files_chunked`, 1 MiB chunks): the high-water mark of heap bytes
//! above the input while decoding (model and temporaries at once, which is
//! what the page's only-growing wasm memory keeps), and what the finished
//! model holds, counted by a global allocator that wraps the system one.
//! `cargo run --release -p flamedrop-core --example decode-memory -- FILE...`
//! With `FLAMEDROP_ENCODED=PATH` the model is also written there, encoded
//! (`model::codec`), to compare models byte for byte.

use flamedrop_core::input::decode_files_chunked;
use flamedrop_core::model::codec;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting the bytes it holds and their peak.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// The peak if every realloc grew or shrank its block in place.
static PEAK_IN_PLACE: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = HELD.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
    PEAK_IN_PLACE.fetch_max(now, Relaxed);
}

// SAFETY: every call goes to `System` unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Counted as the page's allocator may do it: the new block beside
        // the old one, then the old one freed (`PEAK`), and as if in place.
        let now = HELD.fetch_add(new_size, Relaxed) + new_size;
        PEAK.fetch_max(now, Relaxed);
        PEAK_IN_PLACE.fetch_max(now - layout.size(), Relaxed);
        let moved = System.realloc(ptr, layout, new_size);
        HELD.fetch_sub(layout.size(), Relaxed);
        moved
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: decode-memory FILE...");
        std::process::exit(2);
    }
    let files: Vec<(String, Vec<u8>)> = paths
        .iter()
        .map(|p| (p.clone(), std::fs::read(p).unwrap_or_default()))
        .collect();
    let input: usize = files.iter().map(|(_, b)| b.len()).sum();
    let before = HELD.load(Relaxed);
    PEAK.store(before, Relaxed);
    PEAK_IN_PLACE.store(before, Relaxed);
    let trace = match decode_files_chunked(&files, 1 << 20) {
        Ok(trace) => trace,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let peak = PEAK.load(Relaxed) - before;
    let in_place = PEAK_IN_PLACE.load(Relaxed) - before;
    let model = HELD.load(Relaxed) - before;
    let mb = |n: usize| n as f64 / 1e6;
    println!(
        "input {:.1} MB · decode peak above the input {:.1} MB ({:.2} ×; {:.1} MB if reallocs stay in place) · model {:.1} MB ({:.2} ×)",
        mb(input),
        mb(peak),
        peak as f64 / input.max(1) as f64,
        mb(in_place),
        mb(model),
        model as f64 / input.max(1) as f64
    );
    if let Some(path) = std::env::var_os("FLAMEDROP_ENCODED") {
        if let Err(e) = std::fs::write(&path, codec::encode(&trace)) {
            eprintln!("{}: {e}", path.to_string_lossy());
        }
    }
}
