//! Full evaluation (every component's state, reasons and repairs) per
//! click, natively: the bundled release with three plugins, and a synthetic
//! registry of 2,000 components with about 10,000 relations; plus compiling
//! an engine (once per registry). The browser figures come from
//! `app/benches/engine.rs`, on the same cases.
//!
//! Run with `cargo bench -p mosaic-core --bench engine` (or `make bench`);
//! figures are in docs/benchmarks.md.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use mosaic_core::component::{DEFAULT_REQUIRED_TYPES, Engine};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.sample_size(30);
    for case in common::cases() {
        group.bench_function(case.name, |b| {
            b.iter(|| case.engine.evaluate(black_box(&case.selection)))
        });
    }
    group.bench_function("bundled+3 plugins: compile", |b| b.iter(common::bundled));
    let registry = common::synthetic_registry();
    group.bench_function("synthetic 2000: compile", |b| {
        b.iter(|| Engine::new(registry.clone(), &DEFAULT_REQUIRED_TYPES))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
