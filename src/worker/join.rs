//! A part of a joining decode (sp-rtrace, whose parts are joined before the
//! trace is built: `Decoder::joins_parts`) in the shared-memory build. Part
//! 1 reads its stretch of the file and leaves its decoder's hand-over in the
//! load's `wire::join::JoinSlot`; part 0 reads its own stretch, waits for
//! part 1 without holding up its event loop (short timer sleeps), takes the
//! hand-over in and builds the whole trace. When there is nothing to take
//! over (part 1 failed, or could not split) or it does not join exactly,
//! part 0 decodes the input whole, as the native driver does: never a
//! wrong trace. Cancel is looked at between chunks and while waiting. Part
//! 0 posts pictures of its calls while it reads, and one of the whole
//! input's once joined (`Decoder::preview`); part 1 posts none.

use super::{feed, open_decoder, post, preview, probe, Clock, Job};
use crate::wire::join::JoinSlot;
use crate::wire::protocol::{InputFile, WorkerEvent};
use flamedrop_core::input::{Decoder, Selection};

/// How long part 0 sleeps between two looks at the join slot, in ms.
const POLL_MS: u32 = 4;

/// How often part 0 tells the page it is still waiting (the page's
/// watchdog stops a worker that stays silent too long), in ms.
const STILL_WAITING_MS: f64 = 1_000.0;

/// One worker's place in a joined decode.
pub struct Joint<'a> {
    pub slot: &'a JoinSlot,
    pub part: usize,
    pub parts: usize,
    /// The page asked for pictures while decoding.
    pub preview: bool,
}

/// How a part of a joined decode ended.
pub enum Ready {
    /// Part 1 left its hand-over (after reading `read` of `total` bytes).
    HandedOver { read: f64, total: f64 },
    /// Part 1 could not do its part; part 0 decodes the input whole.
    NotSplit,
    /// Part 0's decoder, fed all it needs, and how many parts it joined.
    ToFinish(Box<dyn Decoder>, u32),
}

impl Joint<'_> {
    /// Decodes this part with `decoder` (already given its part).
    pub async fn decode(
        &self,
        mut decoder: Box<dyn Decoder>,
        files: &[InputFile],
        selection: &Selection,
        job: &Job<'_>,
        clock: &mut Clock,
    ) -> Result<Ready, String> {
        let cancelled = || job.cancelled();
        // Only part 0 draws: part 1's calls get their numbers (the time)
        // only when part 0 joins them, so its pictures could not be placed.
        let wanted = self.preview && self.part == 0;
        let mut previews = preview::Previews::new(wanted, job.started, preview::Beat::Alone);
        let stretch = Some((self.part, self.parts));
        let fed = feed(
            decoder.as_mut(),
            files,
            stretch,
            clock,
            &mut previews,
            &cancelled,
        )
        .await;
        if self.part > 0 {
            return Ok(match fed {
                Ok((read, total)) => {
                    self.slot.leave(decoder.hand_over());
                    clock.lap("worker hand-over");
                    Ready::HandedOver { read, total }
                }
                Err(message) if job.cancelled() => return Err(message),
                Err(message) => {
                    // Part 0 sees the slot closed empty and reads it all.
                    web_sys::console::warn_1(&format!("part {}: {message}", self.part).into());
                    Ready::NotSplit
                }
            });
        }
        let (read, total) = fed?;
        self.wait(job, read, total).await?;
        clock.lap("worker wait for part 1");
        let joined = match self.slot.take() {
            Some(next) => decoder.take_over(next),
            None => Err("part 1 left nothing".to_owned()),
        };
        clock.lap("worker join");
        if let Err(why) = joined {
            web_sys::console::info_1(&format!("decoding the input whole: {why}").into());
            return whole(files, selection, (job, wanted), clock).await;
        }
        // The whole input's calls, drawn while the trace is built from them.
        previews.now(decoder.as_ref());
        super::post_building(read, total);
        Ok(Ready::ToFinish(decoder, 1))
    }

    /// Part 0 waits until part 1 is over, or the page gives up.
    async fn wait(&self, job: &Job<'_>, read: f64, total: f64) -> Result<(), String> {
        let mut said = super::now();
        while !self.slot.closed() {
            if job.cancelled() {
                return Err("cancelled".to_owned());
            }
            if super::now() - said >= STILL_WAITING_MS {
                said = super::now();
                post(&WorkerEvent::Progress {
                    read,
                    total,
                    file: "waiting for the other part".to_owned(),
                });
            }
            gloo::timers::future::TimeoutFuture::new(POLL_MS).await;
        }
        Ok(())
    }
}

/// Part 0's way out when the parts do not join: a new decoder fed it all.
async fn whole(
    files: &[InputFile],
    selection: &Selection,
    (job, wanted): (&Job<'_>, bool),
    clock: &mut Clock,
) -> Result<Ready, String> {
    let mut decoder = open_decoder(probe(files).await?).map_err(|e| e.to_string())?;
    decoder.keep_only(selection);
    let cancelled = || job.cancelled();
    let mut previews = preview::Previews::new(wanted, super::now(), preview::Beat::Alone);
    let (read, total) = feed(
        decoder.as_mut(),
        files,
        None,
        clock,
        &mut previews,
        &cancelled,
    )
    .await?;
    super::post_building(read, total);
    Ok(Ready::ToFinish(decoder, 0))
}
