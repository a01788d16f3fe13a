//! A trace served by `flamedrop open`: the page's URL carries
//! `?trace=TOKEN`, and the CLI's server on the same origin answers
//! `trace/TOKEN/manifest.json` (`{"files": ["uftrace.data/info", …]}`, the
//! paths as if the folder had been dropped) and each file as
//! `trace/TOKEN/file/<index>`. The files then load as dropped files do.
//!
//! While the page is open it tells the server so (`trace/TOKEN/alive`
//! every few seconds, `trace/TOKEN/closed` as a beacon when the page goes
//! away), so the server can stop once its last tab is closed.

use super::demos::{fetch_file, fetch_response};
use super::InputFile;
use crate::browser::describe;
use gloo::events::EventListener;
use gloo::timers::callback::Interval;
use serde::Deserialize;
use wasm_bindgen_futures::JsFuture;

/// How often an open page tells the server it is still there (a
/// long-hidden tab's timers run once a minute; the CLI's idle timeout
/// counts from the last request of any kind).
const ALIVE_EVERY_MS: u32 = 5_000;

/// The served trace's token, when the page's URL names one (letters and
/// digits only, so the URLs built from it stay on this origin).
pub fn token() -> Option<String> {
    crate::browser::query_param("trace").filter(|t| is_token(t))
}

fn is_token(text: &str) -> bool {
    !text.is_empty() && text.len() <= 64 && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[derive(Deserialize)]
struct Manifest {
    files: Vec<String>,
}

/// Fetches every file of the served trace from this page's origin.
pub async fn fetch(token: String) -> Result<Vec<InputFile>, String> {
    let base = format!("trace/{token}/");
    let stopped = |e: String| format!("{e} (has `flamedrop open` stopped?)");
    let text = fetch_response(&format!("{base}manifest.json"))
        .await
        .map_err(stopped)?
        .text()
        .map_err(describe)?;
    let text = JsFuture::from(text).await.map_err(describe)?;
    let value = js_sys::JSON::parse(&text.as_string().unwrap_or_default()).map_err(describe)?;
    let manifest: Manifest = serde_wasm_bindgen::from_value(value)
        .map_err(|e| format!("the served trace's manifest is broken: {e}"))?;
    let mut files = Vec::with_capacity(manifest.files.len());
    for (index, path) in manifest.files.into_iter().enumerate() {
        let name = path.rsplit('/').next().unwrap_or(&path).to_owned();
        let file = fetch_file(&format!("{base}file/{index}"), &name)
            .await
            .map_err(stopped)?;
        files.push(InputFile {
            path,
            blob: file.into(),
        });
    }
    Ok(files)
}

/// Tells the server of `token` that this page is open, for as long as it
/// is (the timer and the listener live as long as the page).
pub fn keep_alive(token: &str) {
    // One id per page load, so the server knows when its last page left.
    let page = format!("{:x}", (js_sys::Math::random() * 4_294_967_296.0) as u64);
    let alive = format!("trace/{token}/alive?page={page}");
    let closed = format!("trace/{token}/closed?page={page}");
    let ping = move || {
        if let Some(window) = web_sys::window() {
            // The answer does not matter; a stopped server only fails it.
            let sent = JsFuture::from(window.fetch_with_str(&alive));
            wasm_bindgen_futures::spawn_local(async move {
                let _ = sent.await;
            });
        }
    };
    ping();
    Interval::new(ALIVE_EVERY_MS, ping).forget();
    if let Some(window) = web_sys::window() {
        EventListener::new(&window, "pagehide", move |_| {
            if let Some(window) = web_sys::window() {
                let _ = window.navigator().send_beacon(&closed);
            }
        })
        .forget();
    }
}
