//! SELogger's values and omniscient steps, from a trace's [`EventLog`]: each
//! event's value as text (the text LogPrinter prints after `Value=`), the
//! history of values at a location (a data id, or every data id naming a
//! variable or field), the locations that have values per source line
//! (NOD4J's per-line view), and stepping through one thread's events
//! (previous / next, over / into / out by the method entry/exit structure,
//! the last write of a field or array element).
//!
//! Near-omniscient and frequency outputs keep no event sequence: their
//! history comes back empty with a note saying only the last values per
//! location (the `recent-values` table) were kept.
//!
//! [`EventLog`]: crate::model::EventLog

mod attributes;
mod events;
mod history;
pub(crate) mod java_text;
mod last_write;
mod lines;
mod span_values;
mod steps;
mod text;

pub use attributes::{site_name, site_owner};
pub use events::{first_event_of_span, span_of_event};
pub use history::{
    is_field_value, is_variable, values, Location, ValueHistory, ValuePoint, PARTIAL_NOTE,
};
pub use last_write::last_write;
pub use lines::{line_values, locations, LineEntry, LineValues, LocationInfo};
pub use span_values::{span_values, SpanValue};
pub use steps::Stepper;
pub use text::{event_type, has_value, number_of, value_detail, value_text, write_value};
