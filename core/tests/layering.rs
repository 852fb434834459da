//! Core's modules import one way (ARCHITECTURE.md, "Layers of core"): the
//! foundation (`name`, `text`, `expr`, `yaml`, `svg`) imports nothing of
//! the domain, the domain imports the foundation, and `api` — the wire
//! types — sits on top: nothing but `api` itself names it. This test reads
//! every source file of `core/src` and names, by file and line, each
//! `crate::…` or `super::…` path that goes the wrong way, so that a new
//! import circle fails here rather than in review.
//!
//! It also holds the server and the app to `api`: a wire type — one `api`
//! writes or re-exports — named there through another module of core
//! (`mosaic_core::network::ConfigurationView`) fails, by file and line.

mod source;

use std::collections::BTreeSet;
use std::path::Path;

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
    for file in source::rust_files(&root) {
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

#[test]
fn the_server_and_the_app_name_wire_types_through_api() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let api = std::fs::read_to_string(core.join("src/api.rs")).unwrap();
    let wire = wire_types(&api);
    assert!(wire.contains("ConfigurationView") && wire.contains("ReleaseSummary"));
    let mut wrong = Vec::new();
    for krate in ["server", "app"] {
        let src = core.join("..").join(krate).join("src");
        for file in source::rust_files(&src) {
            let text = std::fs::read_to_string(&file).unwrap();
            let shown = format!("{krate}/src/{}", file.strip_prefix(&src).unwrap().display());
            for (line, name, path) in named_outside_api(&text, &wire) {
                wrong.push(format!(
                    "{shown}:{line}: `{path}` is a wire type: name it `mosaic_core::api::{name}`"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "wire types named outside core::api (ARCHITECTURE.md, \"Layers of core\"):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn wire_types_named_elsewhere_are_found() {
    let wire = wire_types(
        "pub use crate::network::{ConfigurationView, GroupView as Group};\npub struct ReleaseSummary {}",
    );
    assert_eq!(
        wire,
        BTreeSet::from([
            "ConfigurationView".into(),
            "Group".into(),
            "ReleaseSummary".into()
        ])
    );
    let found = |text: &str| -> Vec<(usize, String)> {
        named_outside_api(text, &wire)
            .into_iter()
            .map(|(line, name, _)| (line, name))
            .collect()
    };
    assert_eq!(
        found("use mosaic_core::network::{\n    ConfigurationView,\n    NodeGroup,\n};"),
        [(1, "ConfigurationView".to_owned())]
    );
    assert_eq!(
        found("use mosaic_core::{api::ReleaseSummary, network::ConfigurationView};"),
        [(1, "ConfigurationView".to_owned())]
    );
    assert_eq!(
        found("fn f() {\n    let v: mosaic_core::network::ConfigurationView = todo!();\n}"),
        [(2, "ConfigurationView".to_owned())]
    );
    assert!(found("use mosaic_core::api::{ConfigurationView, ReleaseSummary};").is_empty());
    assert!(found("use mosaic_core::network::NetworkConfiguration;").is_empty());
}

/// The names of the types `api.rs` writes (`pub struct`, `pub enum`) or
/// re-exports (`pub use`, under their exported name).
fn wire_types(api: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (_, statement) in source::use_statements(api) {
        if !statement.starts_with("pub ") {
            continue;
        }
        for path in source::expand(&statement) {
            let last = path.last().cloned().unwrap_or_default();
            let name = last.rsplit(" as ").next().unwrap_or_default().trim();
            if name.starts_with(char::is_uppercase) {
                out.insert(name.to_owned());
            }
        }
    }
    for line in api.lines() {
        let line = line.trim_start();
        for start in ["pub struct ", "pub enum "] {
            if let Some(rest) = line.strip_prefix(start) {
                out.insert(first_name(rest));
            }
        }
    }
    out
}

/// Each wire type of `wire` that `text` names through `mosaic_core::` but
/// not `api`: its line, its name and the path written.
fn named_outside_api(text: &str, wire: &BTreeSet<String>) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut check = |line: usize, path: &[String]| {
        let [root, module, .., name] = path else {
            return;
        };
        if root == "mosaic_core" && module != "api" && wire.contains(name) {
            out.push((line, name.clone(), path.join("::")));
        }
    };
    let mut in_use = BTreeSet::new();
    for (first, last, statement) in source::use_spans(text) {
        in_use.extend(first..=last);
        for path in source::expand(&statement) {
            check(first, &path);
        }
    }
    for (number, line) in text.lines().enumerate() {
        if in_use.contains(&(number + 1)) || line.trim_start().starts_with("//") {
            continue;
        }
        for path in source::paths(line) {
            check(number + 1, &path);
        }
    }
    out
}
