//! Fitting a name into a rectangle: the whole name when it fits, else a
//! prefix and "…". Widths are estimated from the name's measured width, so a
//! frame never measures text; the canvas' `maxWidth` absorbs the estimate's
//! error.

/// The ellipsis appended to a cut name.
pub const ELLIPSIS: char = '…';

/// Narrowest room (px) worth putting any text in.
pub const MIN_LABEL_PX: f64 = 18.0;

/// Writes into `out` the label for `name` (whose full width is `full`) in
/// `room` px, given the width of "…"; returns false when nothing useful fits.
pub fn fit_label(name: &str, full: f64, room: f64, ellipsis: f64, out: &mut String) -> bool {
    out.clear();
    if room < MIN_LABEL_PX || name.is_empty() {
        return false;
    }
    if full <= room {
        out.push_str(name);
        return true;
    }
    let chars = name.chars().count().max(1);
    let per_char = full / chars as f64;
    let keep = ((room - ellipsis) / per_char).floor();
    if keep < 1.0 {
        return false;
    }
    let end = name
        .char_indices()
        .nth(keep as usize)
        .map_or(name.len(), |(i, _)| i);
    out.push_str(&name[..end]);
    out.push(ELLIPSIS);
    true
}

/// A number without needless decimals (`1536`, `12.5` as `12.50`): a
/// counter's peak.
pub fn trim_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(name: &str, room: f64) -> Option<String> {
        let mut out = String::new();
        // 6 px per character, 6 px for the ellipsis.
        fit_label(name, name.chars().count() as f64 * 6.0, room, 6.0, &mut out).then_some(out)
    }

    #[test]
    fn names_that_fit_are_whole() {
        assert_eq!(fit("main", 40.0).as_deref(), Some("main"));
    }

    #[test]
    fn long_names_are_cut_with_an_ellipsis() {
        assert_eq!(fit("pthread_mutex_lock", 40.0).as_deref(), Some("pthre…"));
        assert_eq!(fit("ünïcødé_name", 30.0).as_deref(), Some("ünïc…"));
    }

    #[test]
    fn tiny_rooms_get_no_text() {
        assert_eq!(fit("main", 10.0), None);
        assert_eq!(fit("", 100.0), None);
    }

    #[test]
    fn whole_numbers_lose_their_decimals() {
        assert_eq!(trim_number(1536.0), "1536");
        assert_eq!(trim_number(12.5), "12.50");
        assert_eq!(trim_number(-3.0), "-3");
        assert_eq!(trim_number(1e16), "10000000000000000.00");
    }
}
