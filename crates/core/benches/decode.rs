//! Decoder throughput: each format's decoder fed like the browser worker
//! feeds it (`cargo bench -p flamedrop-core --bench decode`).
//!
//! Every format has one function here that lists its inputs: a small real
//! fixture from `tests/fixtures/`, plus a big trace when its environment
//! variable names one (`FLAMEDROP_BENCH_UFTRACE=/work/big/s25/uftrace.data`;
//! `FLAMEDROP_BENCH_SCALER`, `_SELOGGER`, `_RTRACE` and `_SWAP` likewise).
//! Adding a decoder's bench is adding one such function to the group.

mod inputs;

use criterion::{criterion_group, criterion_main, Criterion};
use inputs::{bench_decode, fixture, from_env};

fn uftrace(c: &mut Criterion) {
    let mut list = vec![fixture("uftrace/b-recursion-hot/uftrace.data")];
    list.extend(from_env("FLAMEDROP_BENCH_UFTRACE"));
    bench_decode(c, "uftrace", &list);
}

fn scaler(c: &mut Criterion) {
    let mut list = vec![fixture("scaler/b-nested-callbacks-sync")];
    list.extend(from_env("FLAMEDROP_BENCH_SCALER"));
    bench_decode(c, "scaler", &list);
}

fn selogger(c: &mut Criterion) {
    let mut list = vec![fixture("selogger/demo-v060-omnibinary")];
    list.extend(from_env("FLAMEDROP_BENCH_SELOGGER"));
    bench_decode(c, "selogger", &list);
}

fn rtrace(c: &mut Criterion) {
    let mut list = vec![fixture("rtrace/c-leaks/20315-0.rtrace")];
    list.extend(from_env("FLAMEDROP_BENCH_RTRACE"));
    bench_decode(c, "rtrace", &list);
}

fn swap(c: &mut Criterion) {
    let mut list = vec![fixture("swap/demo.swap")];
    list.extend(from_env("FLAMEDROP_BENCH_SWAP"));
    bench_decode(c, "swap", &list);
}

criterion_group!(decoders, uftrace, scaler, selogger, rtrace, swap);
criterion_main!(decoders);
