//! The span-keeping YAML loader on hostile text: arbitrary strings and
//! YAML-shaped soup never panic; they load or give an error with a line.
//!
//! `PROPTEST_CASES` sets the number of cases (default 2,000).

use mosaic_core::yaml::{Limits, load};
use proptest::prelude::*;

const PIECES: [&str; 24] = [
    "a", ": ", "- ", "\n", "  ", "&x ", "*x", "<<: ", "!!pairs ", "[", "]", "{", "}", ", ", "'q'",
    "\"d\"", "? ", "|\n", ">\n", "---\n", "# c\n", "1.5", "yes", "~",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(0usize..PIECES.len(), 0..60)
        .prop_map(|i| i.into_iter().map(|i| PIECES[i]).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000)
    ))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC*") {
        if let Err(e) = load("f.yaml", &text, Limits::default()) {
            prop_assert!(!e.message.is_empty());
        }
    }

    #[test]
    fn yaml_soup_never_panics(text in soup()) {
        match load("f.yaml", &text, Limits::default()) {
            Ok(doc) => {
                // Every duplicate names two real lines, the first one earlier.
                for d in doc.duplicates {
                    prop_assert!(d.first_line <= d.line);
                }
                let _ = doc.root.to_json();
            }
            Err(e) => prop_assert!(e.line.is_some() || !e.message.is_empty()),
        }
    }
}
