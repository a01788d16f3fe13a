//! "Export PNG" and "Export SVG" of the view on screen: PNG copies the
//! view's canvas (timeline, flame graph, the sandwich's callees, the diff's
//! graph); SVG is written by `render::export` from the page's state. The file
//! is handed to the browser as a download; nothing leaves the page.

use super::page::PageState;
use crate::render::export::{svg, SvgInputs};
use crate::script_api::Snapshot;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlAnchorElement, HtmlCanvasElement};

fn element(id: &str) -> Option<Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// Downloads the open view as `png` or `svg`.
pub fn download(page: &PageState, snapshot: &Snapshot, kind: &str) -> Result<(), String> {
    let Some(loaded) = &page.trace else {
        return Ok(());
    };
    let views = &page.views;
    let name = format!("flamedrop-{}.{kind}", views.view.name());
    let url = if kind == "svg" {
        let text = svg(&SvgInputs {
            loaded,
            views,
            comparison: page.compare.compared.as_deref(),
            chart: snapshot.chart.as_ref(),
            colouring: page.colouring,
            width: crate::browser::client_width(views.view.canvas_id()),
        })?;
        format!(
            "data:image/svg+xml;charset=utf-8,{}",
            String::from(js_sys::encode_uri_component(&text))
        )
    } else {
        let id = views
            .view
            .canvas_id()
            .ok_or("the call tree is a table: nothing to export as an image")?;
        let canvas: HtmlCanvasElement = element(id)
            .and_then(|e| e.dyn_into().ok())
            .ok_or("the view has not been drawn yet")?;
        canvas.to_data_url().map_err(crate::browser::describe)?
    };
    save(&name, &url).map_err(crate::browser::describe)
}

fn save(name: &str, url: &str) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let a: HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    a.set_href(url);
    a.set_download(name);
    a.click();
    Ok(())
}
