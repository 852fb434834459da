//! The settings patterns' matcher (`mosaic_core::settings::regex`, as the
//! browser runs it) against the browser's own `RegExp`, which Fuel's UI
//! checked settings with: Fuel's fixture patterns on their values, and
//! random patterns on random texts. Both must say the same: match or not.
//!
//! The random patterns use what Python and JavaScript read alike (Fuel's
//! patterns were written for both): literals, escaped punctuation, classes,
//! `\d \w \s` and their negations, `.`, `* + ? {m} {m,} {m,n}` (lazy too),
//! groups, `(?:…)`, alternation, `^ $ \b \B`, lookaheads and one-character
//! lookbehinds. Left out, because the two read them differently (Mosaic's
//! choice for each is in docs/semantics.md, "Regexes"):
//! - `{,n}`: Python's `{0,n}`, JavaScript's five characters;
//! - backreferences: to a group that took no part, JavaScript matches
//!   nothing, Python fails;
//! - `[]…]` and `[^]…]`: JavaScript's empty and any-character classes,
//!   Python's class holding `]`;
//! - `(?i)`, `(?m)`, `(?s)`: JavaScript has no inline flags;
//! - `\A`, `\Z`, octal escapes: letters and digits (or errors) in JavaScript;
//! - longer lookbehinds: Python needs a fixed width.
//!
//! And the texts leave out `\r`, U+2028 and U+2029 (JavaScript's `.`
//! does not match them, Python's and Mosaic's do) and characters beyond
//! U+FFFF (a `RegExp` without the `u` flag, as Fuel's UI made them, reads
//! one as two UTF-16 units; even with it, V8 tries `\B` between the two).

#![cfg(target_arch = "wasm32")]

#[path = "../../core/tests/common/fuel_patterns.rs"]
mod fuel_patterns;

use fuel_patterns::{FUEL_PATTERNS, PYTHON_DIFFERS};
use js_sys::{Array, Function, Reflect, RegExp};
use mosaic_core::settings::regex::{Error, Regex};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// `new RegExp(source, flags)`; the browser's error when it refuses it.
fn browser_regexp(source: &str, flags: &str) -> Result<RegExp, String> {
    let made = Reflect::get(&js_sys::global(), &JsValue::from_str("RegExp"))
        .and_then(|constructor| constructor.dyn_into::<Function>())
        .and_then(|constructor| {
            let arguments = Array::of2(&JsValue::from_str(source), &JsValue::from_str(flags));
            Reflect::construct(&constructor, &arguments)
        });
    made.map(JsCast::unchecked_into)
        .map_err(|e| format!("the browser refuses /{source}/{flags}: {e:?}"))
}

fn ours(source: &str) -> Regex {
    Regex::new(source).unwrap_or_else(|e| panic!("Mosaic refuses {source:?}: {e}"))
}

/// On the fixtures' values, the browser (with and without the `u` flag)
/// and Mosaic both give the answer the fixture's error message is about;
/// on the values where Mosaic differs from Fuel's server, the browser
/// answers as Mosaic does.
#[wasm_bindgen_test]
fn fuel_patterns_match_as_the_browser_does() {
    let mut found = Vec::new();
    for pattern in FUEL_PATTERNS {
        let mosaic = ours(pattern.source);
        let answers = pattern.matching.iter().map(|text| (*text, true));
        let answers = answers.chain(pattern.not_matching.iter().map(|text| (*text, false)));
        let differs = PYTHON_DIFFERS.iter().filter(|d| d.source == pattern.source);
        let answers: Vec<(&str, bool)> = answers
            .chain(differs.map(|d| (d.text, !d.python)))
            .collect();
        for flags in ["", "u"] {
            let browser = browser_regexp(pattern.source, flags).unwrap_or_else(|e| panic!("{e}"));
            for &(text, answer) in &answers {
                let (theirs, mine) = (browser.test(text), mosaic.is_match(text));
                if theirs != answer || mine != Ok(answer) {
                    found.push(format!(
                        "/{}/{flags} on {text:?}: should be {answer}; the browser says {theirs}, Mosaic {mine:?}",
                        pattern.source
                    ));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A search Mosaic stops at its budget has no answer to compare: the
/// generator makes a few patterns that backtrack exponentially (nested
/// loops whose bodies may match nothing, as Python's and the browser's
/// own engines do too, only later). They must stay rare: none today.
#[wasm_bindgen_test]
fn random_patterns_match_as_the_browser_does() {
    let mut random = Random(0x2545_f491);
    let (mut found, mut searches, mut undecided) = (Vec::new(), 0, 0);
    for _ in 0..4_000 {
        let (source, _) = pattern(&mut random, 4);
        let mosaic = ours(&source);
        let browser = browser_regexp(&source, "").unwrap_or_else(|e| panic!("{e}"));
        for _ in 0..6 {
            let text = text(&mut random);
            searches += 1;
            let theirs = browser.test(&text);
            match mosaic.is_match(&text) {
                Ok(mine) if mine == theirs => {}
                Ok(mine) => found.push(format!(
                    "/{source}/ on {text:?}: the browser says {theirs}, Mosaic {mine}"
                )),
                Err(Error::TooCostly) => undecided += 1,
                Err(e) => found.push(format!("/{source}/ on {text:?}: {e}")),
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} disagreements:\n{}",
        found.len(),
        found.join("\n")
    );
    assert!(
        undecided * 1_000 <= searches,
        "{undecided} of {searches} searches undecided"
    );
}

/// A small deterministic generator (xorshift32): the same cases every run.
struct Random(u32);

impl Random {
    fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const LEAVES: &[&str] = &[
    "a", "b", "1", " ", "-", "_", r"\.", r"\/", ".", "[ab]", "[^a]", "[a-c1]", r"[\d.]", r"[\s_]",
    r"[^\w]", r"[\-a]", r"\d", r"\w", r"\s", r"\D", r"\W", r"\S",
];
const ANCHORS: &[&str] = &["^", "$", r"\b", r"\B"];
const REPETITIONS: &[&str] = &[
    "*", "+", "?", "{2}", "{1,3}", "{0,}", "{1,}", "{0,2}", "*?", "+?", "??", "{1,2}?",
];
const CHARACTERS: &[&str] = &[
    "a", "b", "1", "_", " ", "-", ".", "/", "\n", "\t", "é", "\u{a0}", "\u{feff}", "\u{85}", "١",
];

/// A pattern nested at most `depth` deep, and whether a repetition may
/// follow it as it is (an anchor, a lookaround or a sequence is put in a
/// group first).
fn pattern(random: &mut Random, depth: u32) -> (String, bool) {
    let roll = random.below(100);
    if depth == 0 || roll < 30 {
        return match random.below(100) < 15 {
            true => (random.pick(ANCHORS).to_owned(), false),
            false => (random.pick(LEAVES).to_owned(), true),
        };
    }
    let inner = |random: &mut Random| pattern(random, depth - 1).0;
    match roll {
        30..45 => {
            let parts: Vec<String> = (0..2 + random.below(2)).map(|_| inner(random)).collect();
            (parts.concat(), false)
        }
        45..55 => (format!("(?:{}|{})", inner(random), inner(random)), true),
        55..72 => {
            let (atom, repeatable) = pattern(random, depth - 1);
            let atom = if repeatable {
                atom
            } else {
                format!("(?:{atom})")
            };
            (format!("{atom}{}", random.pick(REPETITIONS)), false)
        }
        72..85 => (format!("({})", inner(random)), true),
        85..93 => {
            let look = random.pick(&["?=", "?!"]);
            (format!("({look}{})", inner(random)), false)
        }
        _ => {
            let look = random.pick(&["?<=", "?<!"]);
            (format!("({look}{})", random.pick(LEAVES)), false)
        }
    }
}

fn text(random: &mut Random) -> String {
    (0..random.below(9))
        .map(|_| random.pick(CHARACTERS))
        .collect()
}
