//! JVM names made readable: `demo/Bank` → `demo.Bank`, and method descriptors
//! such as `(ILjava/lang/String;)V` → `(int, String) : void`.

/// An internal class name with dots instead of slashes.
pub fn dotted(class: &str) -> String {
    class.replace('/', ".")
}

/// The part after the last `.` or `/` (`demo.Bank` → `Bank`).
pub fn simple_name(class: &str) -> &str {
    class.rsplit(['/', '.']).next().unwrap_or(class)
}

/// One field type of a descriptor starting at `text`, and what follows it.
/// Object types are shown by their simple name; unknown letters as they are.
fn one_type(text: &str) -> Option<(String, &str)> {
    let mut dims = 0usize;
    let mut rest = text;
    while let Some(r) = rest.strip_prefix('[') {
        dims += 1;
        rest = r;
    }
    let first = rest.chars().next()?;
    let (base, after) = match first {
        'L' => {
            let end = rest.find(';')?;
            (
                simple_name(rest.get(1..end)?).to_owned(),
                rest.get(end + 1..)?,
            )
        }
        _ => {
            let name = match first {
                'Z' => "boolean",
                'B' => "byte",
                'C' => "char",
                'S' => "short",
                'I' => "int",
                'J' => "long",
                'F' => "float",
                'D' => "double",
                'V' => "void",
                _ => return None,
            };
            (name.to_owned(), rest.get(1..)?)
        }
    };
    Some((format!("{base}{}", "[]".repeat(dims)), after))
}

/// Parameter types and return type of a method descriptor.
pub fn parse_descriptor(desc: &str) -> Option<(Vec<String>, String)> {
    let mut rest = desc.strip_prefix('(')?;
    let mut params = Vec::new();
    while !rest.starts_with(')') {
        let (t, after) = one_type(rest)?;
        params.push(t);
        rest = after;
    }
    let (ret, after) = one_type(rest.get(1..)?)?;
    after.is_empty().then_some((params, ret))
}

/// `demo.Bank.withdraw(int, String) : void`; the raw descriptor when it does
/// not parse.
pub fn readable_signature(class: &str, method: &str, desc: &str) -> String {
    match parse_descriptor(desc) {
        Some((params, ret)) => format!("{class}.{method}({}) : {ret}", params.join(", ")),
        None => format!("{class}.{method}{desc}"),
    }
}

/// `(int, String)`, the parameter list alone (used to tell overloads apart).
pub fn readable_params(desc: &str) -> String {
    match parse_descriptor(desc) {
        Some((params, _)) => format!("({})", params.join(", ")),
        None => desc.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_become_java_like_signatures() {
        assert_eq!(
            readable_signature("demo.TraceDemo", "primitives", "(BSCFDJZ)D"),
            "demo.TraceDemo.primitives(byte, short, char, float, double, long, boolean) : double"
        );
        assert_eq!(
            readable_signature("a.B", "main", "([Ljava/lang/String;[[I)V"),
            "a.B.main(String[], int[][]) : void"
        );
        assert_eq!(readable_signature("a.B", "f", "(Q)V"), "a.B.f(Q)V");
        assert_eq!(readable_params("(ILjava/util/List;)Z"), "(int, List)");
        assert_eq!(dotted("demo/Bank"), "demo.Bank");
    }
}
