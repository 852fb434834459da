//! Character classes: `[…]`, `[^…]`, `\d`, `\w`, `\s` and their negations,
//! kept as sorted, merged ranges so that a character is looked up by
//! halving, however many ranges a pattern lists.

use super::{fold, upper};

/// A class as matched: `ranges` sorted, none touching another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Class {
    ranges: Vec<(char, char)>,
    /// Perl classes inside `[ … ]`, negated when the flag is set (`[\D]`).
    perls: Vec<(Perl, bool)>,
    negated: bool,
    /// Case-insensitive (`(?i)`): a character's lower and upper cases are
    /// tried too, so that `(?i)[A-C]` holds `b`.
    fold: bool,
}

/// `\d` and `\w` are ASCII, as in JavaScript (where Fuel's UI checked its
/// patterns) and in Fuel's Python 2; `\s` is JavaScript's white space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Perl {
    Digit,
    Word,
    Space,
}

/// JavaScript's `\s`: its white space and line terminators. (Not Rust's
/// `char::is_whitespace`, which adds U+0085 and leaves out U+FEFF.)
const SPACES: &[(char, char)] = &[
    ('\t', '\r'),
    (' ', ' '),
    ('\u{a0}', '\u{a0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200a}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202f}', '\u{202f}'),
    ('\u{205f}', '\u{205f}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{feff}', '\u{feff}'),
];

impl Perl {
    pub fn matches(self, c: char) -> bool {
        match self {
            Perl::Digit => c.is_ascii_digit(),
            Perl::Word => c.is_ascii_alphanumeric() || c == '_',
            Perl::Space => within(SPACES, c),
        }
    }
}

impl Class {
    /// A class of `ranges` (in any order, overlapping or not) and Perl
    /// classes.
    pub fn new(
        ranges: Vec<(char, char)>,
        perls: Vec<(Perl, bool)>,
        negated: bool,
        fold: bool,
    ) -> Class {
        let mut perls = perls;
        perls.dedup();
        Class {
            ranges: merged(ranges),
            perls,
            negated,
            fold,
        }
    }

    /// `\d`, `\w`, `\s`, or with `negated` `\D`, `\W`, `\S`.
    pub fn perl(perl: Perl, negated: bool) -> Class {
        Class::new(Vec::new(), vec![(perl, false)], negated, false)
    }

    pub fn matches(&self, c: char) -> bool {
        let contains = |c: char| {
            within(&self.ranges, c) || self.perls.iter().any(|&(perl, not)| perl.matches(c) != not)
        };
        let hit = contains(c) || (self.fold && (contains(fold(c)) || contains(upper(c))));
        hit != self.negated
    }
}

/// Whether `c` is in one of `ranges` (sorted, disjoint).
fn within(ranges: &[(char, char)], c: char) -> bool {
    let after = ranges.partition_point(|&(low, _)| low <= c);
    after > 0 && c <= ranges[after - 1].1
}

/// `ranges` sorted, with the ones that overlap or touch made one.
fn merged(mut ranges: Vec<(char, char)>) -> Vec<(char, char)> {
    ranges.sort_unstable();
    let mut out: Vec<(char, char)> = Vec::with_capacity(ranges.len());
    for (low, high) in ranges {
        match out.last_mut() {
            Some(last) if u32::from(low) <= u32::from(last.1) + 1 => last.1 = last.1.max(high),
            _ => out.push((low, high)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_merged_and_looked_up() {
        let class = Class::new(
            vec![('x', 'z'), ('a', 'c'), ('b', 'e'), ('f', 'f')],
            vec![],
            false,
            false,
        );
        assert_eq!(class.ranges, vec![('a', 'f'), ('x', 'z')]);
        for (c, hit) in [
            ('a', true),
            ('f', true),
            ('g', false),
            ('w', false),
            ('y', true),
            ('{', false),
        ] {
            assert_eq!(class.matches(c), hit, "{c}");
        }
    }

    #[test]
    fn spaces_are_javascripts() {
        let space = Class::perl(Perl::Space, false);
        for c in [
            '\t', '\n', '\u{b}', '\u{c}', '\r', ' ', '\u{a0}', '\u{2009}', '\u{3000}', '\u{feff}',
        ] {
            assert!(space.matches(c), "{c:?}");
        }
        for c in ['\u{85}', '\u{200b}', 'a', '\u{1c}'] {
            assert!(!space.matches(c), "{c:?}");
        }
    }
}
