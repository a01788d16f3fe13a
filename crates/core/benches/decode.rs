//! Decoder throughput: each format's decoder fed like the browser worker
//! feeds it (`cargo bench -p flamedrop-core --bench decode`).
//!
//! Every format has one function here that lists its inputs: a small real
//! fixture from `tests/fixtures/`, plus a big trace when its environment
//! variable names one (`FLAMEDROP_BENCH_UFTRACE=/work/big/s25/uftrace.data`).
//! Adding a decoder's bench is adding one such function to the group.

mod inputs;

use criterion::{criterion_group, criterion_main, Criterion};
use inputs::{bench_decode, fixture, from_env};

fn uftrace(c: &mut Criterion) {
    let mut list = vec![fixture("uftrace/b-recursion-hot/uftrace.data")];
    list.extend(from_env("FLAMEDROP_BENCH_UFTRACE"));
    bench_decode(c, "uftrace", &list);
}

criterion_group!(decoders, uftrace);
criterion_main!(decoders);
