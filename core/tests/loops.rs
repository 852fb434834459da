//! No loops between module files, in core, the server or the app
//! (ARCHITECTURE.md, "Layers"). Within every module, its submodules form a
//! graph: one points to another when any file inside it names anything
//! inside the other by a `crate::`, `super::` or `self::` path, a name a
//! `use` brought in, or a child module's name. That graph must have no
//! cycle, at every level: what two modules share moves down into one that
//! both use, or one of them moves up.
//!
//! What is not counted: `mod` lines, re-exports (`pub use`, which only give
//! a name another place — a path through one is followed to the module the
//! item is written in), comments, and test code (`#[cfg(test)]` modules and
//! `tests.rs` files test several modules at once). A file and the modules
//! it contains are one place: a child naming its parent's items is no loop.
//!
//! The reading is textual and deliberately small (a maintained tool such
//! as `cargo-modules` would compile rust-analyzer into every clean build);
//! `made_up_loops_are_found` holds it to loops written on purpose.

mod source;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use source::{expand, paths, rust_files, use_spans, use_statements};

/// A module's path in its crate: `["db", "nodes"]`; the crate root is `[]`.
type ModPath = Vec<String>;

/// The source of one module file.
struct Source {
    text: String,
    /// Where it is, for messages.
    shown: String,
}

#[test]
fn no_module_loops_in_core_the_server_or_the_app() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for krate in ["core", "server", "app"] {
        let sources = read_crate(&workspace.join(krate).join("src"), krate);
        found.extend(loops(&sources));
    }
    assert!(
        found.is_empty(),
        "loops between module files (ARCHITECTURE.md, \"Layers\"); move what they share into a \
         module both use:\n{}",
        found.join("\n")
    );
}

#[test]
fn made_up_loops_are_found() {
    let report = |files: &[(&str, &str)]| {
        let sources = files
            .iter()
            .map(|(path, text)| (split(path), source(path, text)))
            .collect();
        loops(&sources)
    };
    // Two siblings naming each other, one through a `use` group.
    let siblings = report(&[
        ("", "mod a;\nmod b;"),
        ("a", "use crate::{b::Thing, x};\npub fn f() {}"),
        ("b", "pub struct Thing;\nfn g() { super::a::f() }"),
    ]);
    assert_eq!(siblings.len(), 1, "{siblings:?}");
    assert!(siblings[0].contains("a → b → a"), "{siblings:?}");
    assert!(siblings[0].contains("a.rs:1"), "{siblings:?}");
    assert!(siblings[0].contains("b.rs:2"), "{siblings:?}");
    // Three modules, one reached through its parent's re-export.
    let circle = report(&[
        ("", "mod a;\nmod b;\nmod c;"),
        ("a", "pub use inner::Deep;\nmod inner;"),
        ("a/inner", "pub struct Deep;\nfn f() { crate::b::g() }"),
        ("b", "pub fn g() { crate::c::h() }"),
        ("c", "pub fn h() { let _ = crate::a::Deep; }"),
    ]);
    assert_eq!(circle.len(), 1, "{circle:?}");
    assert!(circle[0].contains("a → b → c → a"), "{circle:?}");
    // What is not a loop: a child naming its parent, re-exports, `mod`
    // lines, comments and tests.
    let none = report(&[
        ("", "mod a;\nmod b;\npub use a::f;"),
        ("a", "pub fn f() {}\n// crate::b::g\n"),
        (
            "b",
            "pub fn g() { super::f() }\n#[cfg(test)]\nmod tests {\n    use crate::b::g;\n}",
        ),
        ("b/tests", "use crate::a::f;"),
        ("a/child", "fn h() { super::f() }"),
    ]);
    assert!(none.is_empty(), "{none:?}");
}

/// Every module file under `src`, by module path.
fn read_crate(src: &Path, krate: &str) -> BTreeMap<ModPath, Source> {
    let mut out = BTreeMap::new();
    for file in rust_files(src) {
        let relative = file.strip_prefix(src).unwrap();
        let mut path: ModPath = relative
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        // Binaries (`src/main.rs`, `src/bin/*.rs`) are crates of their own.
        if path == ["main"] || path.first().is_some_and(|p| p == "bin") {
            continue;
        }
        if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
            path.pop();
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = format!("{krate}/src/{}", relative.display());
        out.insert(path, Source { text, shown });
    }
    out
}

/// A reference from one module file to a module, at a line.
struct Edge {
    to: ModPath,
    line: usize,
}

/// Each loop, as `level: a → b → a`, with a line that makes each step.
fn loops(sources: &BTreeMap<ModPath, Source>) -> Vec<String> {
    let aliases: BTreeMap<&ModPath, BTreeMap<String, ModPath>> = sources
        .iter()
        .map(|(module, source)| (module, uses(module, &source.text, sources)))
        .collect();
    // For each level (a module), its children's graph: child → child, with
    // the first place that makes the step.
    let mut graphs: BTreeMap<ModPath, BTreeMap<(String, String), String>> = BTreeMap::new();
    for (module, source) in sources {
        if module.last().is_some_and(|m| m == "tests") {
            continue;
        }
        for edge in edges(module, &source.text, sources, &aliases) {
            let common = module
                .iter()
                .zip(&edge.to)
                .take_while(|(a, b)| a == b)
                .count();
            if common == module.len() || common == edge.to.len() {
                continue;
            }
            let step = (module[common].clone(), edge.to[common].clone());
            graphs
                .entry(module[..common].to_vec())
                .or_default()
                .entry(step)
                .or_insert_with(|| format!("{}:{}", source.shown, edge.line));
        }
    }
    let mut out = Vec::new();
    for (level, graph) in &graphs {
        for (members, cycle) in cycles(graph) {
            let level = if level.is_empty() {
                "the crate".to_owned()
            } else {
                level.join("::")
            };
            let steps: Vec<String> = graph
                .iter()
                .filter(|((from, to), _)| members.contains(from) && members.contains(to))
                .map(|((from, to), place)| format!("    {from} → {to}  {place}"))
                .collect();
            out.push(format!(
                "in {level}: {}; every step between {}:\n{}",
                cycle.join(" → "),
                members.join(", "),
                steps.join("\n")
            ));
        }
    }
    out
}

/// Each strongly connected part of more than one module: its members, and
/// a shortest way around from its first member, closed (`a → b → a`).
fn cycles(graph: &BTreeMap<(String, String), String>) -> Vec<(Vec<String>, Vec<String>)> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in graph.keys() {
        next.entry(from).or_default().push(to);
    }
    // Breadth first from `start`: each module reached, with the one it came from.
    let reach = |start: &str| -> BTreeMap<String, String> {
        let mut came: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.to_owned()]);
        while let Some(at) = queue.pop_front() {
            for to in next.get(at.as_str()).into_iter().flatten() {
                if !came.contains_key(*to) {
                    came.insert((*to).to_owned(), at.clone());
                    queue.push_back((*to).to_owned());
                }
            }
        }
        came
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for start in next.keys().copied() {
        if seen.contains(start) {
            continue;
        }
        let came = reach(start);
        if !came.contains_key(start) {
            continue;
        }
        let members: Vec<String> = came
            .keys()
            .filter(|member| reach(member).contains_key(start))
            .cloned()
            .collect();
        seen.extend(members.iter().cloned());
        let mut cycle = vec![start.to_owned()];
        let mut at = came[start].clone();
        while at != start {
            cycle.push(at.clone());
            at = came[&at].clone();
        }
        cycle.push(start.to_owned());
        let last = cycle.len() - 1;
        cycle[1..last].reverse();
        out.push((members, cycle));
    }
    out
}

/// The names a module's `use` lines bring in (re-exports too: a path
/// through a module's name is followed to where it leads), each with the
/// path it stands for.
fn uses(
    module: &ModPath,
    text: &str,
    sources: &BTreeMap<ModPath, Source>,
) -> BTreeMap<String, ModPath> {
    let mut out = BTreeMap::new();
    for (_, statement) in use_statements(text) {
        for path in expand(&statement) {
            let Some(last) = path.last().cloned() else {
                continue;
            };
            let (name, path) = match last.split_once(" as ") {
                Some((item, alias)) => {
                    let mut path = path.clone();
                    *path.last_mut().unwrap() = item.trim().to_owned();
                    (alias.trim().to_owned(), path)
                }
                None => (last, path),
            };
            if name == "*" || name == "self" {
                continue;
            }
            if let Some(absolute) = absolute(module, &path, sources) {
                out.insert(name, absolute);
            }
        }
    }
    out
}

/// Every reference from `module`'s code (not its `use` re-exports, `mod`
/// lines, comments or tests) to a module of the crate.
fn edges(
    module: &ModPath,
    text: &str,
    sources: &BTreeMap<ModPath, Source>,
    aliases: &BTreeMap<&ModPath, BTreeMap<String, ModPath>>,
) -> Vec<Edge> {
    let mut out = Vec::new();
    let own = &aliases[module];
    // Test code is not counted: the file's lines up to its `#[cfg(test)]` module.
    let code_end = tests_start(text);
    let statements = use_spans(text);
    // `use` lines are read as statements below.
    let use_lines: BTreeSet<usize> = statements
        .iter()
        .flat_map(|(first, last, _)| *first..=*last)
        .collect();
    for (number, line) in text.lines().enumerate().take(code_end - 1) {
        let code = line.trim_start();
        let skipped = code.starts_with("//")
            || use_lines.contains(&(number + 1))
            || code.starts_with("mod ")
            || code.starts_with("pub mod ")
            || code.starts_with("pub(crate) mod ");
        if skipped {
            continue;
        }
        for path in paths(line) {
            let resolved = code_path(module, &path, sources, own);
            if let Some(resolved) = resolved {
                let target = follow(&resolved, sources, aliases);
                out.push(Edge {
                    to: target,
                    line: number + 1,
                });
            }
        }
    }
    // `use` statements that are not re-exports point where they lead.
    for (line, _, statement) in statements {
        if statement.starts_with("pub") || line >= code_end {
            continue;
        }
        for path in expand(&statement) {
            if let Some(resolved) = absolute(module, &path, sources) {
                out.push(Edge {
                    to: follow(&resolved, sources, aliases),
                    line,
                });
            }
        }
    }
    out
}

/// The absolute path a path written in `module`'s code leads to: through
/// `crate::`, `super::` or `self::`, a name a `use` brought in, or a child
/// module's name; `None` when it leads out of the crate (or is a local).
fn code_path(
    module: &ModPath,
    path: &[String],
    sources: &BTreeMap<ModPath, Source>,
    own: &BTreeMap<String, ModPath>,
) -> Option<ModPath> {
    match path.first().map(String::as_str)? {
        "crate" | "super" | "self" => absolute(module, path, sources),
        first => own
            .get(first)
            .map(|to| [to.clone(), path[1..].to_vec()].concat())
            .or_else(|| {
                let child = [module.clone(), vec![first.to_owned()]].concat();
                sources
                    .contains_key(&child)
                    .then(|| [module.clone(), path.to_vec()].concat())
            }),
    }
}

/// The line (1-based) a `#[cfg(test)]` module starts on: the first line of
/// test code (one past the last line when there is none).
fn tests_start(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .position(|w| w[0].trim() == "#[cfg(test)]" && w[1].trim_start().starts_with("mod "))
        .map_or(lines.len() + 1, |i| i + 2)
}

/// `path` (a `crate::`, `super::` or `self::` path, or one through a child
/// module's name) made absolute in the crate, if it leads into it.
fn absolute(
    module: &ModPath,
    path: &[String],
    sources: &BTreeMap<ModPath, Source>,
) -> Option<ModPath> {
    let mut base = module.clone();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) => {
            let child = [module.clone(), vec![first.to_owned()]].concat();
            if !sources.contains_key(&child) {
                return None;
            }
        }
        None => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The module file an absolute path leads into: its longest prefix that
/// is a module, and on through a name that module brought in by `use`.
fn follow(
    path: &ModPath,
    sources: &BTreeMap<ModPath, Source>,
    aliases: &BTreeMap<&ModPath, BTreeMap<String, ModPath>>,
) -> ModPath {
    let mut path = path.clone();
    for _ in 0..16 {
        let mut module = path.clone();
        while !sources.contains_key(&module) {
            module.pop();
        }
        let Some(next) = path.get(module.len()) else {
            return module;
        };
        match aliases.get(&module).and_then(|a| a.get(next)) {
            Some(to) if *to != path[..=module.len()] => {
                path = [to.clone(), path[module.len() + 1..].to_vec()].concat();
            }
            _ => return module,
        }
    }
    path
}

fn split(path: &str) -> ModPath {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn source(path: &str, text: &str) -> Source {
    let shown = if path.is_empty() { "lib.rs" } else { path };
    let shown = if shown.ends_with(".rs") {
        shown.to_owned()
    } else {
        format!("{shown}.rs")
    };
    Source {
        text: text.to_owned(),
        shown,
    }
}
