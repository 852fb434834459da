//! Fuzzing the expression parser and evaluator with proptest: arbitrary
//! strings and grammar-shaped expressions never panic, and the truth fast
//! path (`holds`) always agrees with the value's truthiness.
//!
//! `PROPTEST_CASES` sets the number of cases (default 15,000);
//! `MOSAIC_FUZZ_SECONDS` runs for that long instead (`make fuzz`).

#[path = "common/fuzz.rs"]
mod fuzz;

use fuzz::fuzz;
use mosaic_core::expr::{Expr, FlatModels, JsonModels};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::json;

fn models() -> JsonModels {
    JsonModels {
        settings: json!({"a": {"value": true}, "b": {"value": 0}, "s": {"value": "ha_compact"},
                         "l": {"value": [1, "x", null]}, "m": {"value": {"k": false}}}),
        cluster: json!({"mode": "multinode", "nodes": []}),
        version: json!({"feature_groups": ["experimental"]}),
        ..JsonModels::default()
    }
}

/// Expressions from the grammar's pieces, nested.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("true".to_owned()),
        Just("false".to_owned()),
        Just("null".to_owned()),
        Just("0".to_owned()),
        Just("-1.5".to_owned()),
        Just("'ha'".to_owned()),
        Just("\"x\"".to_owned()),
        Just("settings:a.value".to_owned()),
        Just("b.value".to_owned()),
        Just("s.value".to_owned()),
        Just("l.value".to_owned()),
        Just("m.value".to_owned()),
        Just("cluster:mode".to_owned()),
        Just("cluster:missing?".to_owned()),
        Just("cluster:missing".to_owned()),
        Just("version:feature_groups".to_owned()),
        Just("l.value.1".to_owned()),
    ];
    leaf.prop_recursive(6, 64, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} and {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} or {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} == {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} != {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} in {b}")),
            // `not` is not a primary: inside `in` it needs parentheses.
            inner.clone().prop_map(|a| format!("(not {a})")),
            inner.prop_map(|a| format!("({a})")),
        ]
    })
}

/// One case: arbitrary text, operator soup, or a grammar-shaped expression.
#[derive(Debug, Clone)]
enum Case {
    Text(String),
    Soup(String),
    Grammar(String, bool),
}

fn case() -> impl Strategy<Value = Case> {
    prop_oneof![
        "\\PC{0,80}".prop_map(Case::Text),
        "[()a-z:.?='\"!0-9 -]{0,60}".prop_map(Case::Soup),
        (expression(), any::<bool>()).prop_map(|(e, strict)| Case::Grammar(e, strict)),
    ]
}

/// Text and soup parse or fail without a panic (errors render); grammar
/// expressions parse, and `holds` agrees with the value's truthiness.
#[test]
fn expressions_never_panic_and_holds_agrees() {
    fuzz("expr", 15_000, case(), |case| match case {
        Case::Text(source) => {
            match Expr::parse(&source) {
                Ok(expr) => drop(expr.eval(&models())),
                Err(err) => drop(err.render()),
            }
            Ok(())
        }
        Case::Soup(source) => {
            if let Ok(expr) = Expr::parse(&source) {
                let _ = expr.eval_with(&models(), false);
            }
            Ok(())
        }
        Case::Grammar(source, strict) => holds_agrees(&source, strict),
    });
}

fn holds_agrees(source: &str, strict: bool) -> Result<(), TestCaseError> {
    let expr = Expr::parse(source).unwrap();
    let json = models();
    let flat = FlatModels::new(&json);
    let value = expr
        .eval_with(&json, strict)
        .map(|v| v.truthy())
        .map_err(|e| e.kind);
    let holds = expr.holds(&json, strict).map_err(|e| e.kind);
    // The fast path may stop before an error the full evaluation meets
    // only in an operand whose value is not needed for the truth.
    if let (Ok(a), Ok(b)) = (&value, &holds) {
        prop_assert_eq!(a, b, "{}", source);
    }
    prop_assert_eq!(holds.is_ok() || value.is_err(), true, "{}", source);
    let flat_holds = expr.holds(&flat, strict).map_err(|e| e.kind);
    prop_assert_eq!(flat_holds, holds, "{}", source);
    let bound = expr.bind(&flat).holds(strict).map_err(|e| e.kind);
    prop_assert_eq!(bound, holds, "{}", source);
    Ok(())
}

/// Once found by the fuzzer: `not` where a primary is expected.
#[test]
fn not_inside_in_is_an_error_not_a_panic() {
    for strict in [false, true] {
        if let Ok(expr) = Expr::parse("true in not true") {
            let _ = expr.eval_with(&models(), strict);
            let _ = expr.holds(&models(), strict);
        }
    }
}
