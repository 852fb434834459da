//! Fuzzing with proptest strategies, by count or by time: `make test` runs
//! `PROPTEST_CASES` cases (a short run); `make fuzz` sets
//! `MOSAIC_FUZZ_SECONDS` and each target runs batches until that much time
//! has passed, then prints how many cases it tried. A failure panics with
//! the shrunk input. (Also used by the server's tests, through `#[path]`.)

use std::fmt::Debug;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Runs `test` on values of `strategy`: `default_cases` of them (or
/// `PROPTEST_CASES`), or batches for `MOSAIC_FUZZ_SECONDS` seconds.
pub fn fuzz<S>(
    name: &str,
    default_cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S: Strategy,
    S::Value: Debug,
{
    let env = |key: &str| std::env::var(key).ok().and_then(|v| v.parse::<u64>().ok());
    let cases = env("PROPTEST_CASES").map_or(default_cases, |c| c.min(u64::from(u32::MAX)) as u32);
    let budget = env("MOSAIC_FUZZ_SECONDS").map(Duration::from_secs);
    let started = Instant::now();
    let mut tried: u64 = 0;
    loop {
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        if let Err(failure) = runner.run(&strategy, &test) {
            panic!("{name}: {failure}");
        }
        tried += u64::from(cases);
        if budget.is_none_or(|b| started.elapsed() >= b) {
            break;
        }
    }
    if budget.is_some() {
        eprintln!(
            "fuzz {name}: {tried} cases in {:.0?}, no failure",
            started.elapsed()
        );
    }
}
