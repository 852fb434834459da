//! Heat template capabilities (SEMANTICS §8): templates declare what they
//! provide (`capabilities:`), an environment's `requires:` picks one
//! implementation from each list in its `resource_registry`, and
//! introspection tells a UI which choices remain. Templates are read
//! through [`Files`], confined to a root.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::plugin::{Files, Kind, confine};
use crate::yaml::{self, LoadError, Node, Value};

/// `POST /api/v1/heat/template-sets/{id}/resolve`: an environment (YAML
/// text, its paths relative to the set's root) and the user's picks for
/// open choices (resource type → template).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResolveTemplates {
    pub environment: String,
    #[serde(default)]
    pub picks: BTreeMap<String, String>,
}

/// The answer: the resolution with the picks applied, the choices still
/// open, and — when everything resolved — the environment to download.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplateResolution {
    pub resource_registry: BTreeMap<String, String>,
    pub errors: Vec<ResolveError>,
    pub choices: Vec<Choice>,
    /// Every candidate of each open choice, valid or not, with reasons (for
    /// radio buttons where only the valid ones are enabled).
    #[serde(default)]
    pub options: Vec<ResolveError>,
    /// The environment with every list replaced by its template (YAML).
    pub environment: Option<String>,
}

/// File names that are templates.
pub const TEMPLATE_EXTENSIONS: [&str; 3] = [".yaml", ".yml", ".template"];

pub fn is_template(path: &str) -> bool {
    TEMPLATE_EXTENSIONS.iter().any(|ext| path.ends_with(ext))
}

/// A template's `capabilities:`: key → values, compared as strings.
pub type Capabilities = BTreeMap<String, Vec<String>>;

/// Reads a template's capabilities; `None` when it declares none.
pub fn template_capabilities(file: &str, text: &str) -> Result<Option<Capabilities>, LoadError> {
    let doc = yaml::load(file, text, yaml::Limits::default())?;
    if !doc.root.is_null() && doc.root.as_map().is_none() {
        return Err(LoadError {
            file: file.to_owned(),
            line: Some(doc.root.line),
            column: Some(1),
            message: format!("a template is a map, not {}", doc.root.kind()),
        });
    }
    let Some(node) = doc.root.get("capabilities") else {
        return Ok(None);
    };
    let entries = node.as_map().ok_or_else(|| LoadError {
        file: file.to_owned(),
        line: Some(node.line),
        column: None,
        message: format!("capabilities must be a map, not {}", node.kind()),
    })?;
    Ok(Some(
        entries
            .iter()
            .map(|e| (e.key.clone(), values(&e.value)))
            .collect(),
    ))
}

/// A capability value as strings: a scalar, or each scalar of a list.
fn values(node: &Node) -> Vec<String> {
    match &node.value {
        Value::Seq(items) => items.iter().filter_map(Node::scalar_text).collect(),
        Value::Null => Vec::new(),
        _ => node.scalar_text().into_iter().collect(),
    }
}

/// A `resource_registry` value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Registered {
    One(String),
    Candidates(Vec<String>),
}

/// A Heat environment: `requires` and `resource_registry`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    pub requires: BTreeMap<String, String>,
    /// In file order.
    pub registry: Vec<(String, Registered)>,
}

pub fn parse_environment(file: &str, text: &str) -> Result<Environment, LoadError> {
    let doc = yaml::load(file, text, yaml::Limits::default())?;
    let error = |node: &Node, message: String| LoadError {
        file: file.to_owned(),
        line: Some(node.line),
        column: None,
        message,
    };
    let mut env = Environment::default();
    if doc.root.is_null() {
        return Ok(env);
    }
    if doc.root.as_map().is_none() {
        return Err(error(
            &doc.root,
            format!("an environment is a map, not {}", doc.root.kind()),
        ));
    }
    if let Some(requires) = doc.root.get("requires").filter(|n| !n.is_null()) {
        let entries = requires.as_map().ok_or_else(|| {
            error(
                requires,
                format!("requires must be a map, not {}", requires.kind()),
            )
        })?;
        for e in entries {
            let value = e.value.scalar_text().ok_or_else(|| {
                error(
                    &e.value,
                    format!("requires.{}: must be a single value", e.key),
                )
            })?;
            env.requires.insert(e.key.clone(), value);
        }
    }
    if let Some(registry) = doc.root.get("resource_registry").filter(|n| !n.is_null()) {
        let entries = registry.as_map().ok_or_else(|| {
            error(
                registry,
                format!("resource_registry must be a map, not {}", registry.kind()),
            )
        })?;
        for e in entries {
            let bad = || {
                error(
                    &e.value,
                    format!(
                        "resource_registry.{}: must be a path or a list of paths",
                        e.key
                    ),
                )
            };
            let value = match &e.value.value {
                Value::String(s) => Registered::One(s.clone()),
                Value::Seq(items) => Registered::Candidates(
                    items
                        .iter()
                        .map(|i| i.as_str().map(str::to_owned).ok_or_else(bad))
                        .collect::<Result<_, _>>()?,
                ),
                // Nested maps (per-resource registries) are kept out of resolution.
                Value::Map(_) => continue,
                _ => return Err(bad()),
            };
            env.registry.push((e.key.clone(), value));
        }
    }
    Ok(env)
}

/// One candidate of a list, and why it matched or not.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Candidate {
    pub file: String,
    pub matched: bool,
    pub reasons: Vec<String>,
}

impl Candidate {
    /// Why it matched or not, in one line.
    pub fn why(&self) -> String {
        self.reasons.join("; ")
    }
}

/// A resource type whose list did not resolve to exactly one template, or
/// whose path leaves the root.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResolveError {
    pub resource_type: String,
    pub candidates: Vec<Candidate>,
    pub message: String,
}

impl ResolveError {
    /// The name of the radio buttons that pick one of its candidates, when
    /// it is an open choice.
    pub fn radio_group(&self) -> String {
        format!("choice-{}", self.resource_type)
    }
}

/// The errors of `resolution` that are not open choices: an open choice
/// is asked (its `options`), not shown as an error too.
pub fn unresolved(resolution: &TemplateResolution) -> Vec<&ResolveError> {
    let open = |e: &&ResolveError| {
        resolution
            .options
            .iter()
            .any(|o| o.resource_type == e.resource_type)
    };
    resolution.errors.iter().filter(|e| !open(e)).collect()
}

/// A resource type that still has several valid templates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Choice {
    pub resource_type: String,
    pub candidates: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    /// Resource type → the chosen (or only) template or alias.
    pub resource_registry: BTreeMap<String, String>,
    pub errors: Vec<ResolveError>,
    /// Types with more than one valid candidate (also reported as errors by
    /// [`resolve`], not by [`choices`]).
    pub choices: Vec<Choice>,
}

/// Whether `caps` satisfy `requires` for `resource_type`, with reasons.
pub fn check_candidate(
    caps: Option<&Capabilities>,
    requires: &BTreeMap<String, String>,
    resource_type: &str,
) -> (bool, Vec<String>) {
    let Some(caps) = caps else {
        return if requires.is_empty() {
            (
                true,
                vec!["declares no capabilities; nothing is required".to_owned()],
            )
        } else {
            (
                false,
                vec!["declares no capabilities, so it cannot satisfy requires".to_owned()],
            )
        };
    };
    let mut ok = true;
    let mut reasons = Vec::new();
    if let Some(types) = caps.get("resource_type") {
        if types.iter().any(|t| t == resource_type) {
            reasons.push(format!("resource_type includes {resource_type}"));
        } else {
            ok = false;
            reasons.push(format!(
                "resource_type is {}, not {resource_type}",
                types.join(", ")
            ));
        }
    }
    for (key, wanted) in requires {
        match caps.get(key) {
            Some(have) if have.contains(wanted) => reasons.push(format!("{key}: {wanted} matches")),
            Some(have) => {
                ok = false;
                reasons.push(format!("{key} is {}, not {wanted}", have.join(", ")));
            }
            None => {
                ok = false;
                reasons.push(format!(
                    "has no {key} capability (requires {key}: {wanted})"
                ));
            }
        }
    }
    if requires.is_empty() && caps.get("resource_type").is_none() {
        reasons.push("nothing is required".to_owned());
    }
    (ok, reasons)
}

/// One candidate `path` (under `base`) for `resource_type`, and whether the
/// path leaves the template root. A `single` registration is taken as it
/// is; a candidate of a list is read, and matched against `env`'s
/// `requires`.
fn candidate(
    env: &Environment,
    resource_type: &str,
    (base, path): (&str, &str),
    single: bool,
    files: &dyn Files,
) -> Result<(Candidate, bool), LoadError> {
    let joined = if base.is_empty() {
        path.to_owned()
    } else {
        format!("{base}/{path}")
    };
    let confined = confine(&joined)
        .ok()
        .filter(|p| files.kind(p) != Some(Kind::Outside));
    let Some(relative) = confined else {
        let reasons = vec!["the path leaves the template root".to_owned()];
        return Ok((
            Candidate {
                file: path.to_owned(),
                matched: false,
                reasons,
            },
            true,
        ));
    };
    if single {
        let kept = Candidate {
            file: path.to_owned(),
            matched: true,
            reasons: Vec::new(),
        };
        return Ok((kept, false));
    }
    let text = files
        .read(&relative)
        .map_err(|why| LoadError::new(path, why))?;
    let caps = template_capabilities(path, &text)?;
    let (matched, reasons) = check_candidate(caps.as_ref(), &env.requires, resource_type);
    Ok((
        Candidate {
            file: path.to_owned(),
            matched,
            reasons,
        },
        false,
    ))
}

/// Resolves `env`, whose directory is `base` (relative to the root `files`
/// is confined to). Unreadable or invalid candidate templates are a
/// [`LoadError`].
pub fn resolve(env: &Environment, base: &str, files: &dyn Files) -> Result<Resolution, LoadError> {
    let mut out = Resolution::default();
    for (resource_type, value) in &env.registry {
        let paths = match value {
            Registered::One(path) if !is_template(path) => {
                out.resource_registry
                    .insert(resource_type.clone(), path.clone());
                continue;
            }
            Registered::One(path) => vec![path.clone()],
            Registered::Candidates(list) => list.clone(),
        };
        let mut candidates = Vec::new();
        let mut outside = false;
        let single = matches!(value, Registered::One(_));
        for path in &paths {
            let (candidate, leaves) = candidate(env, resource_type, (base, path), single, files)?;
            outside |= leaves;
            candidates.push(candidate);
        }
        let matched: Vec<&Candidate> = candidates.iter().filter(|c| c.matched).collect();
        let message = if outside {
            format!("{resource_type}: a template path leaves the template root")
        } else if matched.len() == 1 {
            out.resource_registry
                .insert(resource_type.clone(), matched[0].file.clone());
            continue;
        } else if matched.is_empty() {
            format!(
                "{resource_type}: none of {} satisfies requires {}",
                candidates
                    .iter()
                    .map(|c| c.file.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                describe(&env.requires)
            )
        } else {
            out.choices.push(Choice {
                resource_type: resource_type.clone(),
                candidates: matched.iter().map(|c| c.file.clone()).collect(),
            });
            format!(
                "{resource_type}: {} templates satisfy requires {} ({}); requires must single one out",
                matched.len(),
                describe(&env.requires),
                matched
                    .iter()
                    .map(|c| c.file.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        out.errors.push(ResolveError {
            resource_type: resource_type.clone(),
            candidates,
            message,
        });
    }
    Ok(out)
}

fn describe(requires: &BTreeMap<String, String>) -> String {
    if requires.is_empty() {
        return "{}".to_owned();
    }
    let pairs: Vec<String> = requires.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{{{}}}", pairs.join(", "))
}

/// The types a user still has to choose for (several valid candidates),
/// and the errors of types no candidate satisfies.
pub fn choices(env: &Environment, base: &str, files: &dyn Files) -> Result<Resolution, LoadError> {
    let mut resolution = resolve(env, base, files)?;
    let open: Vec<String> = resolution
        .choices
        .iter()
        .map(|c| c.resource_type.clone())
        .collect();
    resolution
        .errors
        .retain(|e| !open.contains(&e.resource_type));
    Ok(resolution)
}

/// Why a resolution request cannot be answered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// The environment text is not a Heat environment.
    #[error("{0}")]
    Environment(String),
    /// A template cannot be read.
    #[error("{0}")]
    Templates(String),
    /// A pick that is not a valid candidate of an open choice.
    #[error("{0}")]
    Pick(String),
}

/// Resolves `request.environment` against `files` with the operator's
/// picks applied (each must be a valid candidate of an open choice): the
/// resolution, the choices still open, every candidate of those with why
/// it is or is not valid, and — when everything resolved — the
/// environment with each list replaced by its template.
pub fn answer(
    request: &ResolveTemplates,
    files: &dyn Files,
) -> Result<TemplateResolution, RequestError> {
    let templates = |e: LoadError| RequestError::Templates(e.to_string());
    let mut env = parse_environment("environment", &request.environment)
        .map_err(|e| RequestError::Environment(e.to_string()))?;
    let open = choices(&env, "", files).map_err(templates)?;
    for (resource_type, pick) in &request.picks {
        let valid = open
            .choices
            .iter()
            .find(|c| &c.resource_type == resource_type)
            .is_some_and(|c| c.candidates.contains(pick));
        if !valid {
            return Err(RequestError::Pick(format!(
                "picks: '{pick}' is not a valid choice for {resource_type}"
            )));
        }
        for (kind, value) in &mut env.registry {
            if kind == resource_type {
                *value = Registered::One(pick.clone());
            }
        }
    }
    let resolved = resolve(&env, "", files).map_err(templates)?;
    let remaining = choices(&env, "", files).map_err(templates)?;
    let still_open: Vec<&str> = remaining
        .choices
        .iter()
        .map(|c| c.resource_type.as_str())
        .collect();
    let options = resolved
        .errors
        .iter()
        .filter(|e| still_open.contains(&e.resource_type.as_str()))
        .cloned()
        .collect();
    let environment = if resolved.errors.is_empty() {
        Some(resolved_environment(
            &request.environment,
            &resolved.resource_registry,
        )?)
    } else {
        None
    };
    Ok(TemplateResolution {
        resource_registry: resolved.resource_registry,
        errors: resolved.errors,
        choices: remaining.choices,
        options,
        environment,
    })
}

/// The environment text with each resolved `resource_registry` entry set
/// to its template; everything else is kept (comments are not).
fn resolved_environment(
    text: &str,
    registry: &BTreeMap<String, String>,
) -> Result<String, RequestError> {
    let mut value: serde_json::Value = crate::yaml::parse("environment", text)
        .map_err(|e| RequestError::Environment(e.to_string()))?;
    let map = value
        .as_object_mut()
        .ok_or_else(|| RequestError::Environment("the environment is not a map".to_owned()))?;
    let section = map
        .entry("resource_registry")
        .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
    if let Some(entries) = section.as_object_mut() {
        for (kind, file) in registry {
            entries.insert(kind.clone(), file.clone().into());
        }
    }
    Ok(crate::yaml::to_string(&value))
}

/// Whether `caps` match every `key=value` filter.
pub fn matches_filters(caps: Option<&Capabilities>, filters: &[(String, String)]) -> bool {
    let Some(caps) = caps else {
        return filters.is_empty();
    };
    filters
        .iter()
        .all(|(k, v)| caps.get(k).is_some_and(|have| have.contains(v)))
}

/// The capability summary of several templates: every key's values (but
/// `resource_type`), and for type-based templates, type → files.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Summary {
    pub capabilities: BTreeMap<String, Vec<String>>,
    pub resource_types: BTreeMap<String, Vec<String>>,
}

pub fn summarize<'a>(
    templates: impl IntoIterator<Item = (&'a str, Option<&'a Capabilities>)>,
) -> Summary {
    let mut summary = Summary::default();
    for (file, caps) in templates {
        for (key, values) in caps.into_iter().flatten() {
            if key == "resource_type" {
                for t in values {
                    summary
                        .resource_types
                        .entry(t.clone())
                        .or_default()
                        .push(file.to_owned());
                }
            } else {
                summary
                    .capabilities
                    .entry(key.clone())
                    .or_default()
                    .extend(values.iter().cloned());
            }
        }
    }
    for list in summary
        .capabilities
        .values_mut()
        .chain(summary.resource_types.values_mut())
    {
        list.sort();
        list.dedup();
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::MemoryFiles;

    fn files() -> MemoryFiles {
        [
            ("puppet/controller.yaml", "heat_template_version: 2015-10-15\ncapabilities:\n  deployment: puppet\n  resource_type: OS::TripleO::Controller\n"),
            ("docker/controller.yaml", "heat_template_version: 2015-10-15\ncapabilities:\n  deployment: docker\n  resource_type: [OS::TripleO::Controller, OS::TripleO::Compute]\n"),
            ("plain.yaml", "heat_template_version: 2015-10-15\n"),
        ]
        .into_iter()
        .collect()
    }

    fn env(text: &str) -> Environment {
        parse_environment("env.yaml", text).unwrap()
    }

    const LIST: &str = "resource_registry:\n  OS::TripleO::Controller: [puppet/controller.yaml, docker/controller.yaml]\n  OS::Heat::Noop: OS::Heat::None\n";

    #[test]
    fn requires_picks_the_matching_implementation() {
        let e = env(&format!("requires:\n  deployment: puppet\n{LIST}"));
        let r = resolve(&e, "", &files()).unwrap();
        assert_eq!(r.errors, []);
        assert_eq!(
            r.resource_registry["OS::TripleO::Controller"],
            "puppet/controller.yaml"
        );
        assert_eq!(r.resource_registry["OS::Heat::Noop"], "OS::Heat::None");
    }

    #[test]
    fn an_empty_requires_on_a_list_names_both_candidates() {
        let r = resolve(&env(&format!("requires: {{}}\n{LIST}")), "", &files()).unwrap();
        assert_eq!(r.errors.len(), 1);
        let error = &r.errors[0];
        assert_eq!(error.resource_type, "OS::TripleO::Controller");
        let found: Vec<(&str, bool)> = error
            .candidates
            .iter()
            .map(|c| (c.file.as_str(), c.matched))
            .collect();
        assert_eq!(
            found,
            [
                ("puppet/controller.yaml", true),
                ("docker/controller.yaml", true)
            ]
        );
        assert!(
            error
                .message
                .contains("puppet/controller.yaml, docker/controller.yaml"),
            "{}",
            error.message
        );
        // choices: the same type is an open choice, not an error.
        let c = choices(&env(&format!("requires: {{}}\n{LIST}")), "", &files()).unwrap();
        assert_eq!((c.errors.len(), c.choices[0].candidates.len()), (0, 2));
    }

    #[test]
    fn failing_candidates_say_why() {
        let e = env(
            "requires:\n  deployment: ansible\nresource_registry:\n  OS::TripleO::Compute: [puppet/controller.yaml, docker/controller.yaml, plain.yaml]\n",
        );
        let r = resolve(&e, "", &files()).unwrap();
        let reasons: Vec<&Vec<String>> =
            r.errors[0].candidates.iter().map(|c| &c.reasons).collect();
        assert_eq!(
            reasons[0],
            &[
                "resource_type is OS::TripleO::Controller, not OS::TripleO::Compute",
                "deployment is puppet, not ansible"
            ]
        );
        assert_eq!(
            reasons[1],
            &[
                "resource_type includes OS::TripleO::Compute",
                "deployment is docker, not ansible"
            ]
        );
        assert_eq!(
            reasons[2],
            &["declares no capabilities, so it cannot satisfy requires"]
        );
    }

    #[test]
    fn paths_leaving_the_root_are_errors() {
        let e = env(
            "resource_registry:\n  A: ../outside.yaml\n  B: [../../x.yaml, puppet/controller.yaml]\n",
        );
        let r = resolve(&e, "", &files()).unwrap();
        let types: Vec<&str> = r.errors.iter().map(|e| e.resource_type.as_str()).collect();
        assert_eq!(types, ["A", "B"]);
        assert_eq!(
            r.errors[0].candidates[0].reasons,
            ["the path leaves the template root"]
        );
    }

    #[test]
    fn capabilities_are_found_and_summarized_as_strings() {
        let caps = template_capabilities("t.yaml", "capabilities:\n  enabled: true\n  n: [1, 2]\n")
            .unwrap()
            .unwrap();
        assert!(matches_filters(
            Some(&caps),
            &[("enabled".into(), "true".into()), ("n".into(), "2".into())]
        ));
        assert!(!matches_filters(None, &[("enabled".into(), "true".into())]));
        let files = files();
        let loaded: Vec<(String, Option<Capabilities>)> =
            ["puppet/controller.yaml", "docker/controller.yaml"]
                .iter()
                .map(|f| {
                    (
                        f.to_string(),
                        template_capabilities(f, &files.read(f).unwrap()).unwrap(),
                    )
                })
                .collect();
        let summary = summarize(loaded.iter().map(|(f, c)| (f.as_str(), c.as_ref())));
        assert_eq!(summary.capabilities["deployment"], ["docker", "puppet"]);
        assert_eq!(
            summary.resource_types["OS::TripleO::Controller"],
            ["docker/controller.yaml", "puppet/controller.yaml"]
        );
        assert_eq!(
            summary.resource_types["OS::TripleO::Compute"],
            ["docker/controller.yaml"]
        );
    }

    #[test]
    fn an_open_choice_is_asked_not_shown_as_an_error() {
        let candidate = |file: &str, matched: bool, reason: &str| Candidate {
            file: file.to_owned(),
            matched,
            reasons: vec![reason.to_owned(), "second".to_owned()],
        };
        let option = ResolveError {
            resource_type: "OS::Controller".into(),
            candidates: vec![
                candidate("puppet/c.yaml", true, "deployment: puppet"),
                candidate("docker/c.yaml", false, "deployment: docker, not puppet"),
            ],
            message: "two candidates".into(),
        };
        let broken = ResolveError {
            resource_type: "OS::Compute".into(),
            candidates: Vec::new(),
            message: "no candidate".into(),
        };
        let resolution = TemplateResolution {
            resource_registry: BTreeMap::new(),
            errors: vec![option.clone(), broken.clone()],
            choices: Vec::new(),
            options: vec![option.clone()],
            environment: None,
        };
        assert_eq!(unresolved(&resolution), [&broken]);
        assert_eq!(option.radio_group(), "choice-OS::Controller");
        assert_eq!(option.candidates[0].why(), "deployment: puppet; second");
    }

    #[test]
    fn invalid_yaml_names_the_file_and_line() {
        let err = template_capabilities("bad.yaml", "a: 1\nb: [\n").unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("bad.yaml", Some(3)));
    }
}
