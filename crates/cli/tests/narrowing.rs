//! What the narrowing options do to `report` and `convert`, run through the
//! built binary on real fixtures.

mod common;

use common::{fixture, flamedrop};

/// Without a narrowing option the report's table is `uftrace report`'s, as
/// uftrace printed it (`reference/report.txt`, see the case's COMMANDS.txt).
#[test]
fn without_options_the_table_is_uftrace_report() {
    for case in [
        "a-simple-nested",
        "b-recursion-hot",
        "c-pthreads-mutex",
        "e-dlopen-plugin",
        "g-finstrument-functions",
    ] {
        let run = flamedrop(&["report", &fixture(&format!("uftrace/{case}/uftrace.data"))]);
        assert_eq!(run.code, 0, "{case}: {}", run.stderr);
        let reference =
            std::fs::read_to_string(fixture(&format!("uftrace/{case}/reference/report.txt")))
                .expect("reference report");
        let table: String = run
            .stdout
            .split_inclusive('\n')
            .take(reference.lines().count())
            .collect();
        assert_eq!(table, reference, "{case}");
    }
}
