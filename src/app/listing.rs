//! Building the Listing view's rows. While the view is open, the trace on
//! screen (narrowed by the stack, if any) gets its listing with the view's
//! options: the row index is built in slices of about 15 ms with pauses
//! between them (`listing::ListingBuild`, budgets from
//! `view_model::slice_budget`), as a narrowing is, and kept with the trace
//! (`Loaded::keep_listing`), where the view and `window.flamedrop.listing`
//! read it. A build for a trace or options no longer shown stops at its next
//! pause.

use super::{App, Msg};
use crate::browser::{self, pace::yield_to_browser};
use crate::view_model::listing::ListingTiming;
use crate::view_model::slice_budget::SliceBudget;
use crate::view_model::{Loaded, View};
use flamedrop_core::analysis::listing::{ListingBuild, ListingOptions};
use std::cell::Cell;
use std::rc::Rc;
use yew::prelude::*;

/// The Listing view's part of the page's state.
#[derive(Default)]
pub struct ListingState {
    /// The build under way: (request number, its trace, its options).
    pub building: Option<(u32, Rc<Loaded>, ListingOptions)>,
    pub timing: Option<ListingTiming>,
    /// A search jump asked by `n` / `N`: (forward, bump).
    pub jump: Option<(bool, u32)>,
}

impl ListingState {
    /// Asks the view for the next (or previous) matching row.
    pub fn jump(&mut self, forward: bool) {
        let bump = self.jump.map_or(0, |(_, b)| b.wrapping_add(1));
        self.jump = Some((forward, bump));
    }
}

/// The time one slice of the build aims at, in ms: the user waits on the
/// build, so its slices are longer than a narrowing's (fewer pauses), and
/// still well under the 50 ms of a long task.
const BUILD_SLICE_MS: f64 = 30.0;

thread_local! {
    /// The latest build request: an older build stops at its next pause.
    static LATEST: Cell<u32> = const { Cell::new(0) };
}

impl App {
    /// Starts building the listing if the view is open and the trace on
    /// screen has none with the view's options; true if one started.
    pub(super) fn ensure_listing(&mut self, ctx: &Context<Self>) -> bool {
        let page = &mut self.page;
        if page.views.view != View::Listing {
            return false;
        }
        let Some(loaded) = page.trace.clone() else {
            return false;
        };
        let options = page.views.listing.clone();
        if loaded.listing(&options).is_some() {
            return false;
        }
        if let Some((_, trace, with)) = &page.listing.building {
            if Rc::ptr_eq(trace, &loaded) && *with == options {
                return false;
            }
        }
        let generation = LATEST.get().wrapping_add(1);
        LATEST.set(generation);
        page.listing.building = Some((generation, loaded.clone(), options.clone()));
        let link = ctx.link().clone();
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(timing) = build(&loaded, options, generation).await {
                link.send_message(Msg::ListingBuilt(generation, timing));
            }
        });
        true
    }

    /// A build ended (its listing is kept with its trace); true to re-render.
    pub(super) fn listing_built(&mut self, generation: u32, timing: ListingTiming) -> bool {
        let listing = &mut self.page.listing;
        if listing.building.as_ref().map(|b| b.0) != Some(generation) {
            return false;
        }
        listing.building = None;
        listing.timing = Some(timing);
        true
    }
}

/// Builds the listing of `loaded` in slices and keeps it with the trace;
/// `None` when a newer request replaced it.
async fn build(loaded: &Loaded, options: ListingOptions, generation: u32) -> Option<ListingTiming> {
    yield_to_browser().await; // let the view paint its "building" note first
    let started = browser::now();
    let mut slices = SliceBudget::aiming(BUILD_SLICE_MS);
    let mut work = ListingBuild::new(&loaded.trace, options.clone());
    let result = loop {
        let slice = browser::now();
        let done = work.advance(slices.budget);
        slices.took(browser::now() - slice);
        if let Some(done) = done {
            break done;
        }
        yield_to_browser().await;
        if LATEST.get() != generation {
            return None;
        }
    };
    drop(work);
    loaded.keep_listing(options, Rc::new(result));
    Some(ListingTiming {
        build_ms: browser::now() - started,
        busy_ms: slices.busy_ms,
        slices: slices.slices,
        longest_slice_ms: slices.longest_ms,
    })
}
