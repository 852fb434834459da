//! Reading component lists (`components.yaml`) into a registry, and the
//! load-time checks of a registry: what a plugin author wants to hear before
//! operators ever see the components.

use serde::{Deserialize, Serialize};

use super::engine::Engine;
use super::model::{Component, Requires};
use super::name::{ComponentType, Pattern};
use super::registry::{Registry, Source};
use super::validate::requirements;
use crate::yaml::{self, LoadError};

/// One component list: the source it names, where it came from, its text.
#[derive(Debug, Clone, Copy)]
pub struct ComponentFile<'a> {
    /// The source name (for a file, its name without extension).
    pub source: &'a str,
    /// The path to show in messages.
    pub path: &'a str,
    pub text: &'a str,
}

/// The 1-based line on which `name` is declared for the `nth` time (0-based
/// `nth`), found as the value of a `name:` key.
fn declaration_line(text: &str, name: &str, nth: usize) -> Option<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let line = line.trim_start().trim_start_matches("- ").trim_start();
            line.strip_prefix("name:")
                .is_some_and(|value| value.trim().trim_matches(|c| c == '\'' || c == '"') == name)
        })
        .nth(nth)
        .map(|(n, _)| n + 1)
}

/// Parses one component list; a name declared twice in it is an error.
pub fn load_components(file: &ComponentFile<'_>) -> Result<Vec<Component>, LoadError> {
    let components: Vec<Component> =
        yaml::parse::<Option<Vec<Component>>>(file.path, file.text)?.unwrap_or_default();
    for (n, c) in components.iter().enumerate() {
        if components[..n].iter().any(|earlier| earlier.name == c.name) {
            return Err(LoadError {
                file: file.path.to_owned(),
                line: declaration_line(file.text, c.name.as_str(), 1),
                column: None,
                message: format!(
                    "component '{}' is declared twice (first on line {})",
                    c.name,
                    declaration_line(file.text, c.name.as_str(), 0).unwrap_or(0)
                ),
            });
        }
    }
    Ok(components)
}

/// Loads every list, in order, into one registry; a name declared by two
/// sources is an error naming both.
pub fn load_registry(files: &[ComponentFile<'_>]) -> Result<Registry, LoadError> {
    let mut sources = Vec::with_capacity(files.len());
    for file in files {
        sources.push((Source(file.source.to_owned()), load_components(file)?));
    }
    Registry::new(sources).map_err(|e| {
        let second = files.iter().find(|f| f.source == e.second);
        LoadError {
            file: second.map_or_else(|| e.second.clone(), |f| f.path.to_owned()),
            line: second.and_then(|f| declaration_line(f.text, e.name.as_str(), 0)),
            column: None,
            message: e.to_string(),
        }
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Severity {
    Error,
    Warning,
}

/// One load-time problem of a registry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    pub severity: Severity,
    /// `load`, `unmatched_pattern`, `dead`, `contradiction`.
    pub kind: String,
    pub file: Option<String>,
    pub line: Option<usize>,
    pub component: Option<String>,
    pub message: String,
}

/// What `check_registry` found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistryReport {
    pub problems: Vec<Problem>,
    pub errors: usize,
    pub warnings: usize,
}

/// Every load-time problem of the lists: files that do not load (malformed
/// YAML, names or patterns, mixed `requires` formats, duplicate names),
/// and for a registry that loads, patterns that match nothing, components no
/// valid selection can contain, and contradictions (A requires B while B is
/// incompatible with A).
pub fn check_registry(
    files: &[ComponentFile<'_>],
    required_types: &[ComponentType],
) -> RegistryReport {
    let registry = match loaded_registry(files) {
        Ok(registry) => registry,
        Err(problems) => return finish(problems),
    };
    let engine = Engine::new(registry, required_types);
    let registry = engine.registry();
    let place = |i: usize| {
        let file = files
            .iter()
            .find(|f| f.source == registry.source(i).0)
            .expect("every source comes from a file");
        Place {
            file: Some(file.path.to_owned()),
            line: declaration_line(file.text, registry.get(i).name.as_str(), 0),
        }
    };
    let mut problems = Vec::new();
    for i in 0..registry.len() {
        problems.extend(unmatched_patterns(registry, i, &place));
        problems.extend(contradictions(registry, i, &place));
    }
    for i in (0..registry.len()).filter(|&i| engine.is_dead(i)) {
        let name = registry.get(i).name.to_string();
        let why = engine
            .dead_reasons(i)
            .iter()
            .map(|r| r.message.clone())
            .collect::<Vec<_>>()
            .join("; ");
        let message = format!("{name} can never be selected: {why}");
        problems.push(place(i).problem(Severity::Error, "dead", name, message));
    }
    finish(problems)
}

/// Where a component is declared: its file, and the line of its name.
struct Place {
    file: Option<String>,
    line: Option<usize>,
}

impl Place {
    fn problem(
        self,
        severity: Severity,
        kind: &str,
        component: String,
        message: String,
    ) -> Problem {
        Problem {
            severity,
            kind: kind.to_owned(),
            file: self.file,
            line: self.line,
            component: Some(component),
            message,
        }
    }
}

/// The registry of every file, or every reason it cannot be built: the
/// files that do not load, or the name two of them declare.
fn loaded_registry(files: &[ComponentFile<'_>]) -> Result<Registry, Vec<Problem>> {
    let load_problem = |e: LoadError| Problem {
        severity: Severity::Error,
        kind: "load".to_owned(),
        file: Some(e.file),
        line: e.line,
        component: None,
        message: e.message,
    };
    let mut problems = Vec::new();
    let mut loaded = Vec::new();
    for file in files {
        match load_components(file) {
            Ok(components) => loaded.push((file, components)),
            Err(e) => problems.push(load_problem(e)),
        }
    }
    let registry = Registry::new(
        loaded
            .into_iter()
            .map(|(f, c)| (Source(f.source.to_owned()), c)),
    );
    match registry {
        Ok(r) if problems.is_empty() => Ok(r),
        Ok(_) => Err(problems),
        Err(_) => {
            // Report the duplicate with both places, through the loader.
            if let Err(e) = load_registry(files) {
                problems.push(load_problem(e));
            }
            Err(problems)
        }
    }
}

/// Component `i`'s patterns (compatible, incompatible, requires) that match
/// no component.
fn unmatched_patterns(
    registry: &Registry,
    i: usize,
    place: &impl Fn(usize) -> Place,
) -> Vec<Problem> {
    let c = registry.get(i);
    let mut patterns: Vec<(&str, &Pattern)> = Vec::new();
    patterns.extend(c.compatible.iter().map(|r| ("compatible", &r.name)));
    patterns.extend(c.incompatible.iter().map(|r| ("incompatible", &r.name)));
    match &c.requires {
        Requires::None => {}
        Requires::Any(relations) => {
            patterns.extend(relations.iter().map(|r| ("requires", &r.name)))
        }
        Requires::Predicates(predicates) => {
            for p in predicates {
                patterns.extend(p.body.items.iter().map(|item| ("requires", item)));
            }
        }
    }
    patterns
        .into_iter()
        .filter(|(_, pattern)| registry.matching(i, [*pattern]).is_empty())
        .map(|(key, pattern)| {
            let message = format!(
                "{}: pattern '{pattern}' in {key} matches no component",
                c.name
            );
            place(i).problem(
                Severity::Warning,
                "unmatched_pattern",
                c.name.to_string(),
                message,
            )
        })
        .collect()
}

/// Component `i`'s requirements that name a component it is declared
/// incompatible with (`none_of` excepted: that is what it says).
fn contradictions(registry: &Registry, i: usize, place: &impl Fn(usize) -> Place) -> Vec<Problem> {
    let c = registry.get(i);
    let mut out = Vec::new();
    for requirement in requirements(registry, i) {
        if requirement.quantifier == super::model::Quantifier::NoneOf {
            continue;
        }
        for &b in &requirement.candidates {
            if registry.conflict(i, b).is_some() {
                let message = format!(
                    "{} requires {} while the two are declared incompatible",
                    c.name,
                    registry.get(b).name
                );
                out.push(place(i).problem(
                    Severity::Warning,
                    "contradiction",
                    c.name.to_string(),
                    message,
                ));
            }
        }
    }
    out
}

fn finish(problems: Vec<Problem>) -> RegistryReport {
    let errors = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .count();
    RegistryReport {
        warnings: problems.len() - errors,
        errors,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::DEFAULT_REQUIRED_TYPES;

    fn file<'a>(source: &'a str, text: &'a str) -> ComponentFile<'a> {
        ComponentFile {
            source,
            path: source,
            text,
        }
    }

    #[test]
    fn duplicates_inside_a_file_name_both_lines() {
        let text = "- name: hypervisor:a\n- name: network:b\n- name: 'hypervisor:a'\n";
        let err = load_components(&file("release", text)).unwrap_err();
        assert_eq!(err.line, Some(3));
        assert!(err.message.contains("first on line 1"), "{err}");
    }

    #[test]
    fn duplicates_across_files_name_both_sources() {
        let err = load_registry(&[
            file("release", "- name: hypervisor:a\n"),
            file("plugin", "- name: network:x\n- name: hypervisor:a\n"),
        ])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "plugin:2: component 'hypervisor:a' is declared by both release and plugin"
        );
    }

    #[test]
    fn check_registry_reports_every_kind() {
        let text = r#"
- name: hypervisor:a
- name: network:b
  incompatible: [{name: 'hypervisor:a'}]
  requires: [{name: 'hypervisor:a'}]
- name: storage:c
  compatible: [{name: 'hypervisor:zzz'}]
- name: network:d
"#;
        let report = check_registry(&[file("release", text)], &DEFAULT_REQUIRED_TYPES);
        let kinds: Vec<(&str, Option<usize>)> = report
            .problems
            .iter()
            .map(|p| (p.kind.as_str(), p.line))
            .collect();
        assert_eq!(
            kinds,
            [
                ("contradiction", Some(3)),
                ("unmatched_pattern", Some(6)),
                ("dead", Some(3))
            ]
        );
        assert_eq!((report.errors, report.warnings), (1, 2));
    }

    #[test]
    fn check_registry_reports_files_that_do_not_load() {
        let report = check_registry(
            &[
                file("a", "- name: hypervisor:Bad\n"),
                file(
                    "b",
                    "- {name: network:x, requires: [{name: 'hypervisor:y'}, {any_of: {items: ['hypervisor:z']}}]}\n",
                ),
            ],
            &DEFAULT_REQUIRED_TYPES,
        );
        assert_eq!(report.errors, 2);
        assert!(
            report.problems[1].message.contains("mixes"),
            "{:?}",
            report.problems
        );
    }
}
