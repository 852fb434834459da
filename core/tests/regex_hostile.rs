//! Hostile settings patterns (`settings::regex`): patterns come from
//! uploaded plugins, values from operators, and neither may make a check
//! hang or take the memory. Without a budget most cases here run for
//! hours; with one that counts instructions only, several still take
//! seconds or hundreds of megabytes (a backreference's compare, a
//! lookaround's copy, a large class). With the matcher's bounds each ends
//! with its answer or `Error::TooCostly` in milliseconds.
//!
//! `cargo test --release -p mosaic-core --test regex_hostile -- --nocapture`
//! prints each case's time (docs/benchmarks.md, "Hostile settings
//! patterns").

use std::time::{Duration, Instant};

use mosaic_core::settings::regex::{Error, Regex};

struct Hostile {
    name: &'static str,
    pattern: String,
    text: String,
    outcome: Result<bool, Error>,
}

fn case(
    name: &'static str,
    pattern: String,
    text: String,
    outcome: Result<bool, Error>,
) -> Hostile {
    Hostile {
        name,
        pattern,
        text,
        outcome,
    }
}

fn a(n: usize) -> String {
    "a".repeat(n)
}

/// `n` distinct characters that are no two neighbours: a class of `n`
/// ranges that cannot be merged.
fn scattered(n: u32) -> String {
    (0..n)
        .filter_map(|i| char::from_u32(0x4e00 + 2 * i))
        .collect()
}

fn cases() -> Vec<Hostile> {
    let groups = "()".repeat(4_000);
    vec![
        case(
            "nested quantifiers",
            "^(a+)+$".into(),
            a(40) + "b",
            Err(Error::TooCostly),
        ),
        case(
            "nested loops whose bodies may match nothing",
            r"^(?:(?:\W?)+)+\d".into(),
            "-".repeat(30),
            Err(Error::TooCostly),
        ),
        case(
            "the same, with groups",
            r"^((\W?)+)+\d".into(),
            "-".repeat(30),
            Err(Error::TooCostly),
        ),
        case(
            "nested quantifiers with a backreference",
            r"^(?:(a+)\1)+$".into(),
            a(5_000) + "b",
            Err(Error::TooCostly),
        ),
        case(
            "a backreference repeated over a long value",
            r"^(a*?)\1*$".into(),
            a(50_000) + "b",
            Err(Error::TooCostly),
        ),
        case(
            "a backreference compared at every length",
            r"(a*)\1x".into(),
            a(50_000),
            Err(Error::TooCostly),
        ),
        case(
            "a case-insensitive backreference compared at every length",
            r"(?i)(a*)\1x".into(),
            a(50_000),
            Err(Error::TooCostly),
        ),
        case(
            "a case-insensitive backreference repeated",
            r"(?i)^(a*?)\1*$".into(),
            a(50_000) + "b",
            Err(Error::TooCostly),
        ),
        case(
            "a lookahead in a loop, 4,000 groups to copy",
            format!("{groups}(?:(?=a)a)*$"),
            a(50_000) + "b",
            Err(Error::TooCostly),
        ),
        case(
            "a lookbehind of any length in a loop",
            "^(?:(?<=^a*)a)*$".into(),
            a(50_000) + "b",
            Err(Error::TooCostly),
        ),
        case(
            "a lookahead reading to the end, in a loop",
            "^(?:(?=a*$)a)*b".into(),
            a(50_000),
            Err(Error::TooCostly),
        ),
        case(
            "a class of 30,000 ranges, repeated 1,000 times",
            format!("^[{}b]{{1000}}$", scattered(30_000)),
            "b".repeat(1_000),
            Ok(true),
        ),
        case(
            "a class of 30,000 ranges in a loop",
            format!("[{}b]*c", scattered(30_000)),
            "b".repeat(50_000),
            Err(Error::TooCostly),
        ),
        case(
            "alternatives piling up on a long value",
            "^(?:a|b)*$".into(),
            a(100_000),
            Err(Error::TooCostly),
        ),
    ]
}

#[test]
fn hostile_patterns_end_with_their_answer_or_too_costly() {
    let mut slowest = Duration::ZERO;
    for case in cases() {
        let started = Instant::now();
        let outcome = Regex::new(&case.pattern).and_then(|re| re.is_match(&case.text));
        let took = started.elapsed();
        slowest = slowest.max(took);
        println!("{:<60} {:>9.2} ms  {:?}", case.name, ms(took), outcome);
        assert_eq!(outcome, case.outcome, "{}", case.name);
    }
    println!("slowest: {:.2} ms", ms(slowest));
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1_000.0
}
