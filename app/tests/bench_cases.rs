//! The WASM benchmark's cases (`app/benches/engine.rs`, shared with the
//! native one through `core/benches/common.rs`) run once each, untimed, in
//! the browser: wasm-bindgen-test's benchmark runner has no test mode, so
//! this is what keeps the WASM benchmark from breaking unnoticed in
//! `make test` (issue 34), as `make bench-test` does for the native ones.

#![cfg(target_arch = "wasm32")]

#[path = "../../core/benches/common.rs"]
#[allow(dead_code)]
mod common;

use mosaic_core::component::{DEFAULT_REQUIRED_TYPES, Engine};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_engine_benchmark_case_runs_once() {
    let cases = common::cases();
    assert_eq!(cases.len(), 3, "the benchmark names three cases by index");
    for case in &cases {
        let report = case.engine.evaluate(&case.selection);
        assert!(
            !report.components.is_empty(),
            "{}: nothing evaluated",
            case.name
        );
    }
    let registry = common::synthetic_registry();
    let components = registry.len();
    let engine = Engine::new(registry, &DEFAULT_REQUIRED_TYPES);
    let defaults = engine.evaluate(&[]);
    assert_eq!(
        defaults.components.len(),
        components,
        "synthetic 2000: compile"
    );
}
