//! Rust source read as text, for the tests that hold the workspace's
//! layering (`loops.rs`, `layering.rs`): the `.rs` files under a folder,
//! `use` statements written out whole, and the paths a line of code names.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Each `use` statement of `text` (up to its `;`, on one line however many
/// it spans), with the line it starts on; `pub` kept in front when there.
pub fn use_statements(text: &str) -> Vec<(usize, String)> {
    use_spans(text)
        .into_iter()
        .map(|(first, _, statement)| (first, statement))
        .collect()
}

/// [`use_statements`] with the last line of each.
pub fn use_spans(text: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (number, line) in text.lines().enumerate() {
        let code = line.trim();
        if current.is_none() {
            let public = code.starts_with("pub use ") || code.starts_with("pub(crate) use ");
            if !(code.starts_with("use ") || public) {
                continue;
            }
            let body = code.split_once("use ").unwrap().1;
            let start = if public { "pub " } else { "" };
            current = Some((number + 1, format!("{start}{body}")));
        } else if let Some((_, statement)) = current.as_mut() {
            statement.push_str(code);
        }
        if let Some((at, statement)) = current.take_if(|(_, s)| s.ends_with(';')) {
            out.push((at, number + 1, statement.trim_end_matches(';').to_owned()));
        }
    }
    out
}

/// A `use` tree written out: `pub crate::{a::B, c::{D, E as F}}` gives
/// `crate::a::B`, `crate::c::D`, `crate::c::E as F`.
pub fn expand(statement: &str) -> Vec<Vec<String>> {
    let tree = statement.strip_prefix("pub ").unwrap_or(statement);
    let tree: String = tree
        .chars()
        .filter(|c| !c.is_whitespace() || *c == ' ')
        .collect();
    let mut out = Vec::new();
    expand_into(&[], tree.trim(), &mut out);
    out
}

pub fn expand_into(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let (head, group) = match tree.find('{') {
        Some(at) => (
            &tree[..at],
            Some(&tree[at + 1..tree.rfind('}').unwrap_or(tree.len())]),
        ),
        None => (tree, None),
    };
    let mut path = prefix.to_vec();
    path.extend(
        head.split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned),
    );
    let Some(group) = group else {
        out.push(path);
        return;
    };
    let mut depth = 0;
    let mut item = String::new();
    for c in group.chars().chain([',']) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                if !item.trim().is_empty() {
                    expand_into(&path, item.trim(), out);
                }
                item.clear();
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
}

/// The paths written in a line of code (`a::b::C`, `crate::x`), outside
/// string literals, each as its segments.
pub fn paths(line: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let chars = line.char_indices();
    let mut in_string = false;
    let mut start = None;
    for (at, c) in chars {
        if c == '"' && !line[..at].ends_with('\\') {
            in_string = !in_string;
        }
        if in_string {
            continue;
        }
        let word = c.is_alphanumeric() || c == '_' || c == ':';
        match (word, start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                out.extend(path_of(&line[from..at]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(from) = start {
        out.extend(path_of(&line[from..]));
    }
    out
}

/// `a::b::c` as segments, when it is a path of at least two (a single
/// name is a local or a type in scope; only `use` aliases of it count).
pub fn path_of(text: &str) -> Option<Vec<String>> {
    let text = text.trim_matches(':');
    if !text.contains("::") || text.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some(text.split("::").map(str::to_owned).collect())
}
