//! The bundled demo traces: `www/demos/<name>/` holds a recording and a
//! `manifest.json` listing its files. They are fetched with URLs relative to
//! the page (so the site works from any sub-path) and then decoded like any
//! opened folder.

use super::InputFile;
use crate::browser::describe;
use serde::Deserialize;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, Response};

/// A demo shown on the empty page's gallery, grouped by format.
pub struct Demo {
    /// The format's name as reports give it (`uftrace`, `scaler`, …): the
    /// gallery's heading.
    pub format: &'static str,
    pub name: &'static str,
    pub title: &'static str,
    pub blurb: &'static str,
}

/// Every bundled demo, in the order the empty page lists them.
pub const DEMOS: &[Demo] = &[
    Demo {
        format: "uftrace",
        name: "a-simple-nested",
        title: "Simple nested calls",
        blurb: "uftrace of a small C program: main → top → mid → leaf, then say → printf.",
    },
    Demo {
        format: "uftrace",
        name: "c-pthreads-mutex",
        title: "Threads and a mutex",
        blurb: "uftrace of 4 pthreads sharing a mutex: one lane per thread, off-CPU time hatched.",
    },
    Demo {
        format: "scaler",
        name: "scaler-prodcons",
        title: "Scaler: producer and consumers",
        blurb: "Scaler trees of a producer and two consumers: mutex, condition variable and semaphore calls, listed under Tables.",
    },
    Demo {
        format: "selogger",
        name: "selogger-v060-omnibinary",
        title: "Java execution trace",
        blurb: "SELogger 0.6 binary trace of a Java program: method and call-site spans per thread, on an event clock.",
    },
    Demo {
        format: "sp-rtrace",
        name: "rtrace-c-leaks",
        title: "Memory leaks",
        blurb: "sp-rtrace of a small C program: allocations by backtrace, 14 blocks still live at the end.",
    },
    Demo {
        format: "swap",
        name: "swap-gallery",
        title: "Tizen SWAP stream",
        blurb: "A synthetic Tizen Dynamic Analyzer stream: two threads, samples, system counters, memory and file probes.",
    },
];

/// The formats that have demos, in the order of their first demo.
pub fn formats() -> Vec<&'static str> {
    let mut formats: Vec<&'static str> = Vec::new();
    for demo in DEMOS {
        if !formats.contains(&demo.format) {
            formats.push(demo.format);
        }
    }
    formats
}

/// The demo called `name`, if it exists.
pub fn find(name: &str) -> Option<&'static Demo> {
    DEMOS.iter().find(|d| d.name == name)
}

#[derive(Deserialize)]
struct Manifest {
    files: Vec<String>,
    /// The folder the files are presented in (as if dropped); without it,
    /// uftrace files go in `uftrace.data/` and others in a folder named
    /// after the demo.
    #[serde(default)]
    folder: Option<String>,
    /// The trace format; uftrace files are put in a `uftrace.data/` folder.
    #[serde(default)]
    format: String,
}

/// Fetches every file of a demo.
pub async fn fetch(demo: &Demo) -> Result<Vec<InputFile>, String> {
    let base = format!("demos/{}/", demo.name);
    let manifest: Manifest = {
        let text = fetch_response(&format!("{base}manifest.json"))
            .await?
            .text()
            .map_err(describe)?;
        let text = JsFuture::from(text)
            .await
            .map_err(describe)?
            .as_string()
            .unwrap_or_default();
        parse_manifest(&text)
            .map_err(|e| format!("demo {} has a broken manifest: {e}", demo.name))?
    };
    let folder = match (manifest.folder.as_deref(), manifest.format.as_str()) {
        (Some(folder), _) => folder,
        (None, "" | "uftrace") => "uftrace.data",
        (None, _) => demo.name,
    };
    let mut files = Vec::with_capacity(manifest.files.len());
    for name in manifest.files {
        let file = fetch_file(&format!("{base}{name}"), &name).await?;
        files.push(InputFile {
            path: format!("{folder}/{name}"),
            blob: file.into(),
        });
    }
    Ok(files)
}

/// The file at `url` of this site, as a `File` called `name`.
pub(super) async fn fetch_file(url: &str, name: &str) -> Result<File, String> {
    let blob = fetch_response(url).await?.blob().map_err(describe)?;
    let blob: web_sys::Blob = JsFuture::from(blob)
        .await
        .map_err(describe)?
        .unchecked_into();
    File::new_with_blob_sequence(&js_sys::Array::of1(&blob), name).map_err(describe)
}

/// The answer to a GET of `url`, if it is a success.
pub(super) async fn fetch_response(url: &str) -> Result<Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response: Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("could not fetch {url}: {}", describe(e)))?
        .unchecked_into();
    if !response.ok() {
        return Err(format!("could not fetch {url}: HTTP {}", response.status()));
    }
    Ok(response)
}

/// Parses the manifest with the browser's JSON parser (no JSON crate needed
/// in the page for one small file).
fn parse_manifest(text: &str) -> Result<Manifest, String> {
    let value = js_sys::JSON::parse(text).map_err(describe)?;
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}
