//! Small conveniences over the browser APIs the page uses everywhere.

pub mod isolation;
pub mod pace;
#[cfg(target_feature = "atomics")]
pub mod shared_allocator;

use wasm_bindgen::{JsCast, JsValue};

/// A browser error as a sentence (`NotReadableError: …`).
pub fn describe(error: JsValue) -> String {
    if let Some(e) = error.dyn_ref::<js_sys::Error>() {
        return format!("{}: {}", String::from(e.name()), String::from(e.message()));
    }
    error.as_string().unwrap_or_else(|| format!("{error:?}"))
}

/// The canvas's 2D drawing context, if the browser gives one.
pub fn context_2d(
    canvas: &web_sys::HtmlCanvasElement,
) -> Option<web_sys::CanvasRenderingContext2d> {
    // A canvas answers "2d" with a 2D context or null, so the cast needs no
    // check (`dyn_into` would ask JS `instanceof` on every frame).
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .map(wasm_bindgen::JsCast::unchecked_into)
}

/// `performance.now()` in the page (0 where there is no clock).
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The width (CSS px) of the element `id`, once it is on the page.
pub fn client_width(id: Option<&str>) -> Option<f64> {
    let element = web_sys::window()?.document()?.get_element_by_id(id?)?;
    Some(f64::from(element.client_width()))
}

/// The page's `<body>`.
pub fn body() -> Option<web_sys::HtmlElement> {
    web_sys::window()?.document()?.body()
}

/// True when the OS asks for a dark colour scheme (the page's theme until
/// the toggle chooses one).
pub fn os_prefers_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Calls `changed` with the OS's new choice whenever it switches between
/// light and dark (None when the browser cannot tell).
pub fn on_os_theme(changed: yew::Callback<bool>) -> Option<gloo::events::EventListener> {
    let query = web_sys::window()?
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()?;
    let target = query.clone();
    Some(gloo::events::EventListener::new(
        &target,
        "change",
        move |_| changed.emit(query.matches()),
    ))
}

/// Where the theme choice is remembered between visits.
const THEME_KEY: &str = "flamedrop-theme";

/// Shows the page in `theme` (`dark` or `light`, for the style sheet) and
/// remembers it.
pub fn choose_theme(theme: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Some(root) = window.document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-theme", theme);
    }
    if let Ok(Some(storage)) = window.local_storage() {
        let _ = storage.set_item(THEME_KEY, theme);
    }
}

/// The URL fragment, without its `#`.
pub fn fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_owned())
        .unwrap_or_default()
}

/// Replaces the URL fragment without reloading or adding a history entry.
pub fn set_fragment(fragment: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if self::fragment() == fragment {
        return;
    }
    let location = window.location();
    let url = format!(
        "{}{}{}{}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default(),
        if fragment.is_empty() { "" } else { "#" },
        fragment
    );
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
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
    // The fragment holds the view state: keep it.
    let hash = location.hash().unwrap_or_default();
    let url = if query.is_empty() {
        format!("{path}{hash}")
    } else {
        format!("{path}?{query}{hash}")
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

/// The family the canvases draw text in, served from the page's `fonts/`.
pub const CANVAS_FONT_FAMILY: &str = "DejaVu Sans";

/// Waits until `document.fonts.load(spec)` settles (a canvas does not wait
/// for a web font by itself: it draws with a fallback until the font is
/// loaded). Resolves at once where the Font Loading API is missing.
pub async fn load_font(spec: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(fonts) = js_sys::Reflect::get(&document, &"fonts".into()) else {
        return;
    };
    let Ok(load) = js_sys::Reflect::get(&fonts, &"load".into()) else {
        return;
    };
    let Ok(load) = load.dyn_into::<js_sys::Function>() else {
        return;
    };
    if let Ok(promise) = load.call1(&fonts, &spec.into()) {
        if let Ok(promise) = promise.dyn_into::<js_sys::Promise>() {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        }
    }
}

/// Whether text at `spec` can be drawn now without waiting for a web font
/// (`document.fonts.check`): true once the page's own text has loaded the
/// font. False where the Font Loading API is missing, so callers then wait
/// with [`load_font`] as before.
pub fn font_ready(spec: &str) -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Ok(fonts) = js_sys::Reflect::get(&document, &"fonts".into()) else {
        return false;
    };
    let Ok(check) = js_sys::Reflect::get(&fonts, &"check".into()) else {
        return false;
    };
    let Ok(check) = check.dyn_into::<js_sys::Function>() else {
        return false;
    };
    check
        .call1(&fonts, &spec.into())
        .is_ok_and(|ready| ready.is_truthy())
}
