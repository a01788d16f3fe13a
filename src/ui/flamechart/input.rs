//! The chart's raw inputs that Yew does not deliver the way the chart needs:
//! the wheel (a non-passive listener, so it can stop the page from
//! scrolling), keys on the window, size changes of the chart's box, and the
//! canvas font finishing loading; and setting them all up once the canvas
//! is in the page.

use super::{FlameChart, Msg};
use crate::render::paint::Painter;
use crate::timeline::keys::{action_for, KeyAction};
use crate::timeline::Wheel;
use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement, KeyboardEvent, ResizeObserver, WheelEvent};
use yew::prelude::*;

impl FlameChart {
    /// Once the canvas is in the page: the painter, the listeners, the
    /// size observer, and the canvas font.
    pub(super) fn start(&mut self, ctx: &Context<Self>) {
        if let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() {
            match Painter::new(canvas.clone()) {
                Ok(painter) => self.painter = Some(painter),
                Err(e) => gloo::console::error!(e),
            }
            self.listen(ctx, &canvas);
        }
        self.observe(ctx);
        let family = crate::browser::CANVAS_FONT_FAMILY;
        let fonts = [format!("11px '{family}'"), format!("600 11px '{family}'")];
        // Usually the page's own text has loaded the font already: then
        // the first frame measures with it, and a second full paint
        // (every label measured again) right after it is not needed. When
        // the page warmed the canvas text with the loaded fonts, they are
        // ready without asking (the check itself can take 100 ms).
        let ready = crate::render::paint::text_warmed()
            || fonts.iter().all(|spec| crate::browser::font_ready(spec));
        if !ready {
            let link = ctx.link().clone();
            wasm_bindgen_futures::spawn_local(async move {
                for spec in &fonts {
                    crate::browser::load_font(spec).await;
                }
                link.send_message(Msg::FontLoaded);
            });
        }
        // The observer's first report (after the browser's next layout)
        // sizes the chart and asks for its first frame. Reading the size
        // here would force that layout of the whole new page into this
        // task, on top of building it (40 ms and more for a big trace).
        if self.observer.is_none() {
            self.resize();
            self.request_frame(ctx);
        }
    }

    /// Wheel on the canvas (not passive: it must stop the page from scrolling)
    /// and keys on the window (the chart is the page's only keyboard user).
    fn listen(&mut self, ctx: &Context<Self>, canvas: &HtmlCanvasElement) {
        let link = ctx.link().clone();
        let wheel = EventListener::new_with_options(
            canvas,
            "wheel",
            EventListenerOptions::enable_prevent_default(),
            move |e| {
                let Some(e) = e.dyn_ref::<WheelEvent>() else {
                    return;
                };
                e.prevent_default();
                let scale = match e.delta_mode() {
                    WheelEvent::DOM_DELTA_LINE => 16.0,
                    WheelEvent::DOM_DELTA_PAGE => 800.0,
                    _ => 1.0,
                };
                link.send_message(Msg::Wheel(Wheel {
                    x: f64::from(e.offset_x()),
                    dx: e.delta_x() * scale,
                    dy: e.delta_y() * scale,
                    ctrl: e.ctrl_key() || e.meta_key(),
                    shift: e.shift_key(),
                }));
            },
        );
        self.listeners.push(wheel);
        let Some(window) = web_sys::window() else {
            return;
        };
        let link = ctx.link().clone();
        let keydown = EventListener::new_with_options(
            &window,
            "keydown",
            EventListenerOptions::enable_prevent_default(),
            move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                if e.ctrl_key() || e.meta_key() || e.alt_key() || typing_in_a_field(e) {
                    return;
                }
                if let Some(action) = action_for(&e.key()) {
                    e.prevent_default();
                    link.send_message(Msg::Key(action));
                }
            },
        );
        let link = ctx.link().clone();
        let keyup = EventListener::new(&window, "keyup", move |e| {
            let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                return;
            };
            if let Some(KeyAction::Hold(m)) = action_for(&e.key()) {
                link.send_message(Msg::KeyUp(m));
            }
        });
        let link = ctx.link().clone();
        let blur = EventListener::new(&window, "blur", move |_| link.send_message(Msg::Blur));
        self.listeners.extend([keydown, keyup, blur]);
    }

    /// Repaints whenever the chart's box changes size.
    fn observe(&mut self, ctx: &Context<Self>) {
        let Some(container) = self.container.cast::<Element>() else {
            return;
        };
        let link = ctx.link().clone();
        let callback = Closure::<dyn FnMut()>::new(move || link.send_message(Msg::Resize));
        if let Ok(observer) = ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            observer.observe(&container);
            self.observer = Some((observer, callback));
        }
    }

    /// The chart's box changed size.
    pub(super) fn resized(&mut self, ctx: &Context<Self>) -> bool {
        self.resize();
        self.request_frame(ctx);
        false
    }

    /// Sizes the model and the canvas to the chart's box.
    pub(super) fn resize(&mut self) {
        let Some(container) = self.container.cast::<Element>() else {
            return;
        };
        let (w, h) = (
            f64::from(container.client_width()),
            f64::from(container.client_height()),
        );
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        self.model.resize(w, h);
        if let Some(painter) = &mut self.painter {
            painter.resize(w, h, dpr);
        }
        let _ = self.size_minimap();
    }

    /// The canvas font finished loading: text widths are measured again.
    pub(super) fn font_loaded(&mut self, ctx: &Context<Self>) -> bool {
        if let Some(painter) = &mut self.painter {
            painter.forget_text_widths();
        }
        self.request_frame(ctx);
        false
    }
}

/// True when a key press is meant for a text field, not the chart.
fn typing_in_a_field(e: &KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .is_some_and(|el| {
            matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                || el.has_attribute("contenteditable")
        })
}
