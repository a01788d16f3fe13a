//! Small conveniences over the browser APIs the page uses everywhere.

use wasm_bindgen::{JsCast, JsValue};

/// A browser error as a sentence (`NotReadableError: …`).
pub fn describe(error: JsValue) -> String {
    if let Some(e) = error.dyn_ref::<js_sys::Error>() {
        return format!("{}: {}", String::from(e.name()), String::from(e.message()));
    }
    error.as_string().unwrap_or_else(|| format!("{error:?}"))
}

/// `performance.now()` in the page (0 where there is no clock).
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The page's `<body>`.
pub fn body() -> Option<web_sys::HtmlElement> {
    web_sys::window()?.document()?.body()
}

/// True when the page prefers a dark colour scheme.
pub fn prefers_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Replaces the page URL's query (`?demo=…`, or none) without reloading, so a
/// demo link can be shared; relative, so sub-paths are kept.
pub fn set_query(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(history) = window.history() else {
        return;
    };
    let location = window.location();
    if location
        .search()
        .unwrap_or_default()
        .trim_start_matches('?')
        == query
    {
        return; // replaceState is not free: it runs a same-document navigation
    }
    let path = location.pathname().unwrap_or_default();
    let url = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
}

/// The value of query parameter `name` in the page URL.
pub fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}
