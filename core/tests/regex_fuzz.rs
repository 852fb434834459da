//! Fuzzing the settings patterns' matcher (`settings::regex`) with
//! proptest: patterns come from uploaded plugins and releases, values from
//! operators. Any pattern text is refused with a reason or compiled; any
//! search answers or stops at its step budget — never a panic, never a
//! hang. Patterns shaped by the grammar, on ASCII text, match where
//! `fancy-regex` (the matcher this one replaced) says they do.
//!
//! `PROPTEST_CASES` sets the number of cases (default 5,000);
//! `MOSAIC_FUZZ_SECONDS` runs for that long instead (`make fuzz`).

#[path = "common/fuzz.rs"]
mod fuzz;

use fuzz::fuzz;
use mosaic_core::settings::regex::{Error, Regex};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Patterns from the grammar's pieces, nested.
fn grammar() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "a", "b", "ab", ".", "[ab]", "[^a]", "[a-c1]", r"\d", r"\w", r"\s", r"\D", r"\W", r"\S",
        r"\b", r"\B", "^", "$", r"\.", "(?i:a)", r"\x61",
    ])
    .prop_map(str::to_owned);
    leaf.prop_recursive(5, 48, 3, |inner| {
        let quantifier = prop::sample::select(vec![
            "*", "+", "?", "{2}", "{1,3}", "{0,}", "*?", "+?", "??",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| v.concat()),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(?:{a}|{b})")),
            (inner.clone(), quantifier).prop_map(|(a, q)| format!("(?:{a}){q}")),
            inner.clone().prop_map(|a| format!("({a})")),
            (inner.clone(), prop::sample::select(vec!["?=", "?!"]))
                .prop_map(|(a, l)| format!("({l}{a})")),
        ]
    })
}

#[derive(Debug, Clone)]
enum Case {
    /// Any text as a pattern, on any text.
    Text(String, Vec<String>),
    /// Metacharacter soup.
    Soup(String, Vec<String>),
    /// A grammar pattern on ASCII text.
    Grammar(String, Vec<String>),
}

fn case() -> impl Strategy<Value = Case> {
    let any_texts = prop::collection::vec("\\PC{0,30}", 1..4);
    let soup = r"[()\[\]{}|*+?.^$\\,:=!<>PpdDwWsSbBAzZxu0-9aAé-]{0,50}";
    prop_oneof![
        ("\\PC{0,60}", any_texts.clone()).prop_map(|(p, t)| Case::Text(p, t)),
        (soup, any_texts).prop_map(|(p, t)| Case::Soup(p, t)),
        (grammar(), prop::collection::vec("[ab1 _.]{0,12}", 1..4))
            .prop_map(|(p, t)| Case::Grammar(p, t)),
    ]
}

#[test]
fn patterns_are_refused_or_searched_and_agree_with_fancy_regex() {
    fuzz("regex", 5_000, case(), |case| match case {
        Case::Text(pattern, texts) | Case::Soup(pattern, texts) => searched(&pattern, &texts),
        Case::Grammar(pattern, texts) => agrees(&pattern, &texts),
    });
}

/// Refused with a reason, or every search answers or runs out of steps.
fn searched(pattern: &str, texts: &[String]) -> Result<(), TestCaseError> {
    let re = match Regex::new(pattern) {
        Ok(re) => re,
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            return Ok(());
        }
    };
    for text in texts {
        match re.is_match(text) {
            Ok(_) | Err(Error::TooCostly) => {}
            Err(e) => prop_assert!(false, "{:?} on {:?}: {}", pattern, text, e),
        }
    }
    Ok(())
}

/// A grammar pattern compiles, and on ASCII text matches exactly where
/// fancy-regex says (when fancy-regex reads it and decides).
fn agrees(pattern: &str, texts: &[String]) -> Result<(), TestCaseError> {
    let ours = Regex::new(pattern).map_err(|e| TestCaseError::fail(format!("{pattern:?}: {e}")))?;
    let Ok(theirs) = fancy_regex::Regex::new(pattern) else {
        return Ok(());
    };
    for text in texts {
        if let (Ok(a), Ok(b)) = (ours.is_match(text), theirs.is_match(text)) {
            prop_assert_eq!(a, b, "{:?} on {:?}", pattern, text);
        }
    }
    Ok(())
}
