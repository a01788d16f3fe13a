//! Display names of methods, unique per method: `demo.Bank.withdraw`; with
//! the parameter list when the class has more than one method of that name
//! (`demo.Bank.withdraw(int)`); with the return type, and `(bridge)` for a
//! compiler-generated bridge method, when two methods still share a name
//! (`a.Factory.create(String) : Object (bridge)` beside
//! `a.Factory.create(String) : Format`); and as a last resort with the
//! method id (the same class loaded by two class loaders).
//!
//! SELogger gives every method of a woven class its own method id, bridges
//! included, so two ids must never share a span name: the report, the call
//! tree and the flame graph key their rows by name.

use super::signature::{parse_descriptor, readable_params};
use super::statics::MethodInfo;
use std::collections::{HashMap, HashSet};

/// `ACC_BRIDGE` of the JVM access flags (methods.txt's `Access` column).
const ACC_BRIDGE: u32 = 0x0040;

/// The display name of every row of methods.txt, indexed by method id.
pub fn method_names(methods: &[Option<MethodInfo>]) -> Vec<Option<String>> {
    let mut names = base_names(methods);
    tell_apart(&mut names, |id, name| {
        let Some(Some(m)) = methods.get(id) else {
            return name.to_owned();
        };
        let ret = parse_descriptor(&m.desc).map(|(_, ret)| format!(" : {ret}"));
        let bridge = m.access.is_some_and(|a| a & ACC_BRIDGE != 0);
        format!(
            "{name}{}{}",
            ret.unwrap_or_default(),
            if bridge { " (bridge)" } else { "" }
        )
    });
    tell_apart(&mut names, |id, name| format!("{name} #{id}"));
    names
}

/// A method named by class, name and descriptor (what near-omniscient and
/// frequency files write instead of a method id).
pub type Signature = (String, String, String);

/// Display names of the methods `signatures`, as [`method_names`] gives
/// them with methods.txt's rows (`methods`) counted too, so a method is
/// named alike in every view (and access flags come from methods.txt).
pub fn names_by_signature(
    signatures: impl IntoIterator<Item = Signature>,
    methods: &[Option<MethodInfo>],
) -> HashMap<Signature, String> {
    let key = |m: &MethodInfo| (m.class.clone(), m.name.clone(), m.desc.clone());
    let mut all = methods.to_vec();
    let mut ids: HashMap<Signature, usize> = HashMap::new();
    for (id, m) in methods.iter().enumerate() {
        if let Some(m) = m {
            ids.entry(key(m)).or_insert(id);
        }
    }
    for signature in signatures {
        if !ids.contains_key(&signature) {
            ids.insert(signature.clone(), all.len());
            let (class, name, desc) = signature;
            all.push(Some(MethodInfo {
                class,
                name,
                desc,
                access: None,
                source: String::new(),
            }));
        }
    }
    let names = method_names(&all);
    ids.into_iter()
        .filter_map(|(signature, id)| Some((signature, names.get(id)?.clone()?)))
        .collect()
}

/// `Class.name`, or `Class.name(params)` when the class overloads the name.
fn base_names(methods: &[Option<MethodInfo>]) -> Vec<Option<String>> {
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

/// Renames, with `longer(id, name)`, every method whose name another method
/// also has; the others keep theirs.
fn tell_apart(names: &mut [Option<String>], longer: impl Fn(usize, &str) -> String) {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for name in names.iter().flatten() {
        *count.entry(name.as_str()).or_default() += 1;
    }
    let shared: Vec<usize> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.as_deref().is_some_and(|n| count.get(n) > Some(&1)))
        .map(|(id, _)| id)
        .collect();
    for id in shared {
        if let Some(Some(name)) = names.get_mut(id) {
            *name = longer(id, name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method(class: &str, name: &str, desc: &str, access: u32) -> Option<MethodInfo> {
        Some(MethodInfo {
            class: class.into(),
            name: name.into(),
            desc: desc.into(),
            access: Some(access),
            source: String::new(),
        })
    }

    #[test]
    fn names_are_told_apart_only_where_they_collide() {
        let cases: [(&[Option<MethodInfo>], &[&str]); 4] = [
            (
                &[
                    method("a.B", "run", "()V", 1),
                    method("a.B", "add", "(I)V", 1),
                    method("a.B", "add", "(J)V", 1),
                ],
                &["a.B.run", "a.B.add(int)", "a.B.add(long)"],
            ),
            (
                // A bridge beside the method it calls; a bridge with other
                // parameters shares no name and is left alone.
                &[
                    method("a.F", "create", "(Ljava/lang/String;)La/Format;", 1),
                    method(
                        "a.F",
                        "create",
                        "(Ljava/lang/String;)Ljava/lang/Object;",
                        0x1041,
                    ),
                    method("a.V", "compareTo", "(La/V;)I", 1),
                    method("a.V", "compareTo", "(Ljava/lang/Object;)I", 0x1041),
                ],
                &[
                    "a.F.create(String) : Format",
                    "a.F.create(String) : Object (bridge)",
                    "a.V.compareTo(V)",
                    "a.V.compareTo(Object)",
                ],
            ),
            (
                // Two bridges: only their return types differ.
                &[
                    method("a.Ring", "copy", "()La/Ring;", 0),
                    method("a.Ring", "copy", "()La/Circle;", 0x1040),
                    method("a.Ring", "copy", "()La/Shape;", 0x1040),
                ],
                &[
                    "a.Ring.copy() : Ring",
                    "a.Ring.copy() : Circle (bridge)",
                    "a.Ring.copy() : Shape (bridge)",
                ],
            ),
            (
                // One class under two class loaders, and return types with
                // one simple name: the method id (a gap keeps its id).
                &[
                    method("a.B", "run", "()V", 1),
                    None,
                    method("a.B", "run", "()V", 1),
                    method("x.Y", "f", "()Lp/T;", 1),
                    method("x.Y", "f", "()Lq/T;", 1),
                ],
                &[
                    "a.B.run() : void #0",
                    "a.B.run() : void #2",
                    "x.Y.f() : T #3",
                    "x.Y.f() : T #4",
                ],
            ),
        ];
        for (methods, want) in cases {
            let got: Vec<String> = method_names(methods).into_iter().flatten().collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn signatures_are_named_alike_with_or_without_methods_txt() {
        let create = |ret: &str| {
            (
                "a.F".to_owned(),
                "create".to_owned(),
                format!("(Ljava/lang/String;){ret}"),
            )
        };
        let signatures = || [create("La/Format;"), create("Ljava/lang/Object;")];
        // methods.txt: the real method (public) and its bridge.
        let table: Vec<_> = signatures()
            .into_iter()
            .zip([1, 0x1041])
            .map(|((class, name, desc), access)| method(&class, &name, &desc, access))
            .collect();
        let with = names_by_signature(signatures(), &table);
        assert_eq!(
            with[&create("Ljava/lang/Object;")],
            "a.F.create(String) : Object (bridge)"
        );
        assert_eq!(with[&create("La/Format;")], "a.F.create(String) : Format");
        // Without methods.txt there are no access flags: the return type alone.
        let without = names_by_signature(signatures(), &[]);
        assert_eq!(
            without[&create("Ljava/lang/Object;")],
            "a.F.create(String) : Object"
        );
    }
}
