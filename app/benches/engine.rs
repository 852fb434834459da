//! The engine benchmark in WASM: the same cases as the native benchmark
//! (`core/benches/engine.rs`), compiled to wasm32 and run by
//! wasm-bindgen-test's criterion port in Node.js — V8, the engine Chromium
//! runs the app with. (In headless Chromium the runner's WebDriver calls
//! time out while a benchmark holds the page's only thread.)
//!
//! Run with `make bench` (it runs
//! `cargo bench -p mosaic-app --bench engine --target wasm32-unknown-unknown`).

#![cfg(target_arch = "wasm32")]

#[path = "../../core/benches/common.rs"]
mod common;

use std::hint::black_box;

use mosaic_core::component::DEFAULT_REQUIRED_TYPES;
use mosaic_core::component::Engine;
use wasm_bindgen_test::{Criterion, wasm_bindgen_bench};

// One benchmark per function, so each reports under its own name.
fn evaluate(c: &mut Criterion, index: usize) {
    let case = common::cases().swap_remove(index);
    c.bench_function(case.name, |b| {
        b.iter(|| case.engine.evaluate(black_box(&case.selection)))
    });
}

#[wasm_bindgen_bench]
fn bundled_defaults(c: &mut Criterion) {
    evaluate(c, 0);
}

#[wasm_bindgen_bench]
fn bundled_vcenter(c: &mut Criterion) {
    evaluate(c, 1);
}

#[wasm_bindgen_bench]
fn synthetic_defaults(c: &mut Criterion) {
    evaluate(c, 2);
}

#[wasm_bindgen_bench]
fn synthetic_compile(c: &mut Criterion) {
    let registry = common::synthetic_registry();
    c.bench_function("synthetic 2000: compile", |b| {
        b.iter(|| Engine::new(registry.clone(), &DEFAULT_REQUIRED_TYPES))
    });
}
