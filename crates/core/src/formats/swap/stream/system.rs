//! MSG_SYSTEM's layout, settled once for the stream: from the first
//! messages of that kind (their lengths reveal the CPU and energy device
//! counts) and what the user gave in `swap.cpus`.

use super::super::parse_system::{self, SystemLayout};
use super::{StreamParser, SYSTEM};

/// Where the MSG_SYSTEM layout stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SystemState {
    /// Fewer than [`parse_system::INFER_SAMPLE`] seen: they wait.
    Waiting,
    /// The layout, and whether it was inferred.
    Settled(SystemLayout, bool),
    /// No layout fits and none was given: they are dropped.
    Unknown,
}

impl StreamParser {
    /// Picks the MSG_SYSTEM layout from the first messages of that kind (in
    /// stream order) and what the user gave; with neither, those messages
    /// are dropped.
    pub(super) fn settle_system(&mut self) {
        let mut firsts: Vec<(u64, &[u8])> = self
            .window
            .pending()
            .filter(|k| k.id == SYSTEM)
            .map(|k| (k.offset, self.window.payload(k)))
            .collect();
        firsts.sort_unstable_by_key(|f| f.0);
        // Only the first messages are scored: the layout is the same for all.
        let payloads: Vec<&[u8]> = firsts
            .iter()
            .take(parse_system::INFER_SAMPLE)
            .map(|f| f.1)
            .collect();
        let hints = self.hints;
        let inferred = parse_system::infer(&payloads, hints.cpus, hints.energy_devices);
        self.system = match (inferred, hints.cpus) {
            (Some(layout), _) => SystemState::Settled(layout, hints.cpus.is_none()),
            (None, Some(cpus)) => SystemState::Settled(
                SystemLayout {
                    cpus,
                    energy_devices: hints.energy_devices.unwrap_or(5),
                    v42: false,
                },
                false,
            ),
            (None, None) => {
                self.window.remove_id(SYSTEM);
                SystemState::Unknown
            }
        };
    }
}
