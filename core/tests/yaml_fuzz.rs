//! The span-keeping YAML loader on hostile text: arbitrary strings and
//! YAML-shaped soup never panic; they load or give an error with a line.
//!
//! `PROPTEST_CASES` sets the number of cases (default 4,000);
//! `MOSAIC_FUZZ_SECONDS` runs for that long instead (`make fuzz`).

#[path = "common/fuzz.rs"]
mod fuzz;

use fuzz::fuzz;
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

/// Arbitrary text and YAML-shaped soup: each loads (every duplicate naming
/// two real lines, the first one earlier) or gives an error that says what.
#[test]
fn yaml_loader_never_panics() {
    let text = prop_oneof!["\\PC*".boxed(), soup().boxed()];
    fuzz("yaml", 4_000, text, |text: String| {
        match load("f.yaml", &text, Limits::default()) {
            Ok(doc) => {
                for d in doc.duplicates {
                    prop_assert!(d.first_line <= d.line);
                }
                let _ = doc.root.to_json();
            }
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
        Ok(())
    });
}
