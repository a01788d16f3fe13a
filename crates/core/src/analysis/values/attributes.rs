//! Names in a data id's attribute text (dataids.txt's last columns as the
//! reader keeps them): 0.4 writes `Var=1,Name=fibN,Type=I,` and
//! `Owner=demo/T,FieldName=label,…`; 0.5 and 0.6 write
//! `varindex=1,name=fibN,type=I` and `owner=demo.T,name=label,…`.

use crate::model::EventLog;

/// The value of the first item `key=value` of `text` whose key is one of `keys`.
fn item<'a>(text: &'a str, keys: &[&str]) -> Option<&'a str> {
    text.split(',').find_map(|piece| {
        // 0.5+ keeps the quotes around the whole attribute list.
        let (key, value) = piece.trim_matches('"').split_once('=')?;
        (keys.contains(&key) && !value.is_empty()).then_some(value)
    })
}

fn attributes(log: &EventLog, site: u32) -> &str {
    log.site_attributes
        .get(site as usize)
        .map_or("", |&id| log.text(id))
}

/// The variable, field or parameter name data id `site` names, if any.
pub fn site_name(log: &EventLog, site: u32) -> Option<&str> {
    item(attributes(log, site), &["name", "Name", "FieldName"])
}

/// The class owning the field data id `site` reads or writes, dotted
/// (`demo.Bank`), if any.
pub fn site_owner(log: &EventLog, site: u32) -> Option<String> {
    item(attributes(log, site), &["owner", "Owner"]).map(|owner| owner.replace('/', "."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_every_dialect() {
        let mut log = EventLog::default();
        let texts = [
            "Var=1,Name=fibN,Type=I,",
            "Owner=demo/TraceDemo,FieldName=label,Type=Ljava/lang/String;,",
            "\"type=int,owner=demo.TraceDemo,name=calls\"",
            "",
        ];
        log.site_attributes = texts.iter().map(|t| log.add_text(t)).collect();
        assert_eq!(site_name(&log, 0), Some("fibN"));
        assert_eq!(site_name(&log, 1), Some("label"));
        assert_eq!(site_owner(&log, 1).as_deref(), Some("demo.TraceDemo"));
        assert_eq!(site_name(&log, 2), Some("calls"));
        assert_eq!(site_owner(&log, 2).as_deref(), Some("demo.TraceDemo"));
        assert_eq!((site_name(&log, 3), site_owner(&log, 0)), (None, None));
    }
}
