//! The regexes settings are checked with (§9). Fuel's patterns are
//! JavaScript and Python regexes, lookarounds included, searched in a value.
//! This is a small backtracking matcher over their common syntax, the same
//! code in the browser and on the server, bounded in size, in work and in
//! memory, so that a hostile pattern is an error, never a hang. Where
//! Python and JavaScript read a pattern differently, docs/semantics.md
//! ("Regexes") says which reading it takes. (Its size matters: a general
//! regex crate was a third of the browser app.)

mod class;
mod parse;
mod program;
mod vm;

/// Deepest nesting of groups.
const MAX_DEPTH: usize = 64;
/// Largest count in `{n,m}`.
const MAX_REPEAT: u32 = 1_000;
/// Most instructions a pattern compiles to, repetitions expanded.
const MAX_INSTS: usize = 20_000;
/// Most steps one search may take. A step is a unit of work: one
/// instruction, or one byte a backreference compares, or one slot a
/// lookaround copies or merges back; so a search that stops here has done
/// a few milliseconds of work, whatever its pattern.
const STEP_LIMIT: usize = 1_000_000;
/// Most frames the backtracking stack may hold at once (the ways not yet
/// tried and the slot values to restore, lookarounds' included): 8 MB
/// natively, 4 MB in the browser. Each frame costs a step, so this is the
/// tighter bound only for values tens of thousands of characters long.
const STACK_LIMIT: usize = 250_000;

/// Why a pattern cannot be used, or a search not decided.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// `at` counts characters from 1.
    #[error("{reason} (at character {at})")]
    Syntax { at: usize, reason: String },
    #[error(
        "the pattern is too large (over {MAX_INSTS} instructions with its repetitions expanded)"
    )]
    TooLarge,
    /// Over [`STEP_LIMIT`] steps, or [`STACK_LIMIT`] frames to backtrack.
    #[error(
        "deciding the match takes too much work (over {STEP_LIMIT} steps, or {STACK_LIMIT} places to backtrack to)"
    )]
    TooCostly,
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Regex {
    program: program::Program,
}

impl Regex {
    pub fn new(source: &str) -> Result<Regex, Error> {
        let parsed = parse::parse(source)?;
        Ok(Regex {
            program: program::compile(&parsed)?,
        })
    }

    /// Whether the pattern matches somewhere in `text`.
    pub fn is_match(&self, text: &str) -> Result<bool, Error> {
        vm::search(&self.program, text)
    }
}

/// The case-insensitive form of `c`: its lower case when that is one
/// character. (Classes also try its upper case, for a class written in
/// capitals: `(?i)[A-C]` holds `b`.)
fn fold(c: char) -> char {
    match c.is_ascii() {
        true => c.to_ascii_lowercase(),
        false => single(c.to_lowercase()).unwrap_or(c),
    }
}

/// The upper case of `c` when that is one character.
fn upper(c: char) -> char {
    single(c.to_uppercase()).unwrap_or(c)
}

/// The one character of a case mapping, unless it maps to several
/// (`ß` → `SS`).
fn single(mut mapped: impl Iterator<Item = char>) -> Option<char> {
    match (mapped.next(), mapped.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
