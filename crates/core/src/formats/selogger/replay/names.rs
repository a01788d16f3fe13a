//! Display names of methods: `demo.Bank.withdraw`, with the parameter list
//! when the class has more than one method of that name.

use crate::formats::selogger::signature::readable_params;
use crate::formats::selogger::statics::MethodInfo;
use std::collections::HashSet;

/// The display name of every row of methods.txt, indexed by method id.
pub(super) fn method_names(methods: &[Option<MethodInfo>]) -> Vec<Option<String>> {
    let mut seen = HashSet::new();
    let mut overloaded = HashSet::new();
    for m in methods.iter().flatten() {
        let key = (m.class.as_str(), m.name.as_str());
        if !seen.insert(key) {
            overloaded.insert(key);
        }
    }
    methods
        .iter()
        .map(|m| {
            let m = m.as_ref()?;
            Some(
                if overloaded.contains(&(m.class.as_str(), m.name.as_str())) {
                    format!("{}.{}{}", m.class, m.name, readable_params(&m.desc))
                } else {
                    format!("{}.{}", m.class, m.name)
                },
            )
        })
        .collect()
}
