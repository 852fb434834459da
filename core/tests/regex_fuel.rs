//! Fuel's own settings patterns, verbatim (`common/fuel_patterns.rs`): each
//! compiles, matches the values Fuel accepted and refuses the ones its
//! error message is about; where Mosaic answers otherwise than Fuel's
//! server did, it is one of the decisions of docs/semantics.md ("Regexes").

#[path = "common/fuel_patterns.rs"]
mod fuel_patterns;

use std::collections::BTreeSet;

use fuel_patterns::{FUEL_PATTERNS, PYTHON_DIFFERS, Why};
use mosaic_core::settings::regex::Regex;

fn compiled(source: &str) -> Regex {
    Regex::new(source).unwrap_or_else(|e| panic!("{source:?} does not compile: {e}"))
}

#[test]
fn fuel_patterns_match_what_fuel_accepted_and_refuse_the_rest() {
    for pattern in FUEL_PATTERNS {
        let re = compiled(pattern.source);
        let told = pattern.errors.join(" / ");
        for text in pattern.matching {
            assert_eq!(
                re.is_match(text),
                Ok(true),
                "{told}: {text:?} should be accepted"
            );
        }
        for text in pattern.not_matching {
            assert_eq!(
                re.is_match(text),
                Ok(false),
                "{told}: {text:?} should be refused"
            );
        }
    }
}

#[test]
fn fuel_patterns_are_the_fixtures_fifteen() {
    let sources: BTreeSet<&str> = FUEL_PATTERNS.iter().map(|p| p.source).collect();
    assert_eq!(sources.len(), 15);
    for pattern in FUEL_PATTERNS {
        assert!(!pattern.matching.is_empty() && !pattern.not_matching.is_empty());
    }
    for differs in PYTHON_DIFFERS {
        assert!(sources.contains(differs.source), "{:?}", differs.source);
    }
}

/// A trailing newline passes Python's `$` (`nova\n` is a valid database
/// name to Fuel's server, not to its UI); Mosaic's `$` is the end of the
/// value. Fuel's Python 2 `\s` was ASCII; Mosaic's is JavaScript's.
#[test]
fn where_mosaic_answers_otherwise_than_fuels_server() {
    for differs in PYTHON_DIFFERS {
        let re = compiled(differs.source);
        assert_eq!(
            re.is_match(differs.text),
            Ok(!differs.python),
            "{:?} on {:?} ({:?})",
            differs.source,
            differs.text,
            differs.why
        );
        match differs.why {
            Why::Dollar => assert!(differs.text.ends_with('\n')),
            Why::Space => assert!(differs.text.contains(['\u{a0}', '\u{3000}'])),
        }
    }
}
