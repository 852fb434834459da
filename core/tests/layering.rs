//! Core's modules import one way (ARCHITECTURE.md, "Layers of core"): the
//! foundation (`name`, `text`, `expr`, `yaml`, `svg`) imports nothing of
//! the domain, the domain imports the foundation, and `api` — the wire
//! types — sits on top: nothing but `api` itself names it. This test reads
//! every source file of `core/src` and names, by file and line, each
//! `crate::…` or `super::…` path that goes the wrong way, so that a new
//! import circle fails here rather than in review.

use std::path::{Path, PathBuf};

/// The modules everything may import; they import only each other (and
/// `schema`, the OpenAPI schemas of the `openapi` feature) outside their
/// tests.
const FOUNDATION: &[&str] = &["name", "text", "expr", "yaml", "svg"];

/// The module on top: nothing else may name it.
const TOP: &str = "api";

/// A path found in a file: the line it is on and the top-level module of
/// the crate it leads to.
#[derive(Debug)]
struct Reference {
    line: usize,
    target: String,
    in_tests: bool,
}

#[test]
fn core_modules_import_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for file in rust_files(&root) {
        let module = module_path(&root, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        for reference in references(&module, &text) {
            if let Some(why) = forbidden(&module, &reference) {
                let shown = file.strip_prefix(&root).unwrap().display();
                wrong.push(format!("src/{shown}:{}: {why}", reference.line));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against core's layering (ARCHITECTURE.md):\n{}",
        wrong.join("\n")
    );
}

/// Why `reference`, made in `module`, goes against the layering, if it does.
fn forbidden(module: &[String], reference: &Reference) -> Option<String> {
    let from = module.first().map_or("lib", String::as_str);
    let to = reference.target.as_str();
    if to == from {
        return None;
    }
    if to == TOP {
        return Some(format!(
            "`{from}` names `{TOP}`, the wire types on top of the domain; move the type it needs into the domain and let `{TOP}` re-export it"
        ));
    }
    let foundation = |m: &str| FOUNDATION.contains(&m);
    (foundation(from) && !foundation(to) && to != "schema" && !reference.in_tests)
        .then(|| format!("`{from}` is a foundation module and imports `{to}`, a domain module"))
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
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

/// The module a file is: `src/environment/tags.rs` is
/// `["environment", "tags"]`, `src/environment/mod.rs` `["environment"]`,
/// `src/lib.rs` the crate itself (`[]`).
fn module_path(root: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// Every `crate::…` and `super::…` path of `text` (code, `use` groups and
/// doc links alike), each with the top-level module it leads to. What
/// follows a `#[cfg(test)]` module's start counts as tests.
fn references(module: &[String], text: &str) -> Vec<Reference> {
    let mut out = Vec::new();
    let mut in_tests = false;
    let mut previous = "";
    let mut offset = 0;
    for (number, line) in text.lines().enumerate() {
        in_tests |= previous.trim() == "#[cfg(test)]" && line.trim_start().starts_with("mod ");
        for start in path_starts(line) {
            for target in targets(module, &text[offset + start..]) {
                out.push(Reference {
                    line: number + 1,
                    target,
                    in_tests,
                });
            }
        }
        previous = line;
        offset += line.len() + 1;
    }
    out
}

/// Where paths rooted at `crate::` or `super::` start in `line` (not in
/// the middle of a longer name such as `mosaic_crate::`).
fn path_starts(line: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for root in ["crate::", "super::"] {
        for (at, _) in line.match_indices(root) {
            let before = line[..at].chars().next_back();
            let inside = before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
            if !inside {
                out.push(at);
            }
        }
    }
    out
}

/// The top-level modules the path at the start of `rest` leads to: one,
/// or one per item of a `{…}` group.
fn targets(module: &[String], rest: &str) -> Vec<String> {
    let mut base: Vec<String> = Vec::new();
    let mut rest = rest;
    if let Some(after) = rest.strip_prefix("crate::") {
        rest = after;
    } else {
        base = module.to_vec();
        while let Some(after) = rest.strip_prefix("super::") {
            base.pop();
            rest = after;
        }
    }
    if let Some(top) = base.first() {
        return vec![top.clone()];
    }
    let names = match rest.strip_prefix('{') {
        Some(group) => group_items(group),
        None => vec![first_name(rest)],
    };
    names.into_iter().filter(|n| !n.is_empty()).collect()
}

/// The first name of each item of a `use` group (`{api::X, name::{A, B}}`
/// gives `api` and `name`), read up to the group's closing brace.
fn group_items(group: &str) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut depth = 0;
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => items.push(String::new()),
            _ => items.last_mut().unwrap().push(c),
        }
    }
    items
        .iter()
        .map(|item| first_name(item.trim_start()))
        .collect()
}

/// The identifier at the start of `text`.
fn first_name(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

#[test]
fn paths_are_read_to_the_module_they_lead_to() {
    let module = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let read = |m: &[&str], text: &str| -> Vec<String> {
        references(&module(m), text)
            .into_iter()
            .map(|r| r.target)
            .collect()
    };
    assert_eq!(read(&["tag"], "use crate::api::TagView;"), ["api"]);
    assert_eq!(
        read(&["tag"], "use crate::{\n    api,\n    name::{A, B},\n};"),
        ["api", "name"]
    );
    assert_eq!(
        read(&["environment", "tags"], "use super::super::api::X;"),
        ["api"]
    );
    assert_eq!(
        read(&["environment", "tags"], "use super::bulk::X;"),
        ["environment"]
    );
    assert_eq!(read(&["tag"], "/// See [`crate::api::TagView`]."), ["api"]);
    assert_eq!(read(&["tag"], "mosaic_crate::api::X"), Vec::<String>::new());
    let tests = references(
        &module(&["yaml"]),
        "#[cfg(test)]\nmod tests {\n    use crate::component::C;\n}",
    );
    assert!(tests[0].in_tests);
}
