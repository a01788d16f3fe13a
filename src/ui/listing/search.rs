//! `n` / `N` in the Listing view: the next (or previous) row, within the
//! time range, whose text matches the search box, looked for in slices of
//! about 15 ms with pauses between them, so a 20 M-row listing stays
//! responsive while it is searched.

use super::{ListingView, Msg};
use crate::browser::{self, pace::yield_to_browser};
use crate::view_model::listing::RowSearch;
use crate::view_model::slice_budget::SliceBudget;
use flamedrop_core::analysis::search::Matcher;
use yew::prelude::*;

impl ListingView {
    /// Starts looking for the next (or previous) matching row after the
    /// selected one; a search under way stops at its next pause.
    pub(super) fn start_search(&mut self, ctx: &Context<Self>, forward: bool) {
        self.searches = self.searches.wrapping_add(1);
        self.latest_search.set(self.searches);
        let props = ctx.props();
        let matcher = match Matcher::parse(&props.search) {
            Ok(Some(matcher)) => matcher,
            Ok(None) => {
                self.note = Some("type a search first (press /)".to_owned());
                return;
            }
            Err(e) => {
                self.note = Some(format!("bad expression: {e}"));
                return;
            }
        };
        let Some((built, shown)) = self.shown(props) else {
            return;
        };
        let mut search = RowSearch::new(shown.first, shown.end, self.cursor, forward);
        self.note = Some("searching…".to_owned());
        let (link, loaded, number) = (ctx.link().clone(), props.loaded.clone(), self.searches);
        let latest = self.latest_search.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let Ok(listing) = built.as_ref() else {
                return;
            };
            let mut slices = SliceBudget::default();
            loop {
                let started = browser::now();
                let found = search.advance(listing, &loaded.trace, &matcher, slices.budget);
                slices.took(browser::now() - started);
                if let Some(found) = found {
                    link.send_message(Msg::Found(number, found));
                    return;
                }
                yield_to_browser().await;
                if latest.get() != number {
                    return;
                }
            }
        });
    }
}
