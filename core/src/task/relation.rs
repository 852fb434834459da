//! Relations between tasks as declared (SEMANTICS §6.1): `requires` and
//! `required_for` on the same node, `cross-depends` and `cross-depended-by`
//! across nodes, each entry naming tasks by an exact id or by a `/re/`
//! pattern that is *searched* in task ids (Fuel's `PatternMatchingPolicy`).

use regex::{Regex, RegexBuilder};
use serde_json::Value;

use crate::name::TaskId;
use crate::tag::REGEX_SIZE_LIMIT;

/// Which tasks an entry names.
#[derive(Debug, Clone)]
pub enum TaskName {
    Exact(TaskId),
    /// `/re/`: every task whose id the expression is found in.
    Pattern(Regex),
}

impl TaskName {
    /// An entry as written: `name` or `/re/`.
    pub fn parse(entry: &str) -> Result<TaskName, String> {
        if entry.len() >= 2 && entry.starts_with('/') && entry.ends_with('/') {
            let pattern = &entry[1..entry.len() - 1];
            return RegexBuilder::new(pattern)
                .size_limit(REGEX_SIZE_LIMIT)
                .dfa_size_limit(REGEX_SIZE_LIMIT)
                .build()
                .map(TaskName::Pattern)
                .map_err(|e| format!("entry '{entry}': {e}"));
        }
        TaskId::new(entry)
            .map(TaskName::Exact)
            .map_err(|e| e.to_string())
    }

    /// The entry as written.
    pub fn as_written(&self) -> String {
        match self {
            TaskName::Exact(id) => id.to_string(),
            TaskName::Pattern(re) => format!("/{}/", re.as_str()),
        }
    }

    pub fn matches(&self, id: &str) -> bool {
        match self {
            TaskName::Exact(exact) => exact.as_str() == id,
            TaskName::Pattern(re) => re.is_match(id),
        }
    }
}

impl PartialEq for TaskName {
    fn eq(&self, other: &TaskName) -> bool {
        self.as_written() == other.as_written()
    }
}

/// The nodes a cross-node entry looks at, for the named tasks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// `role` absent or `*`: every node.
    Any,
    /// `self`: the node of the declaring task only.
    SameNode,
    /// Names and `/re/` patterns matched against each node's tags (as task
    /// selectors are: a pattern is anchored at the tag's start).
    Tags(Vec<String>),
}

/// How many of the matching nodes an entry keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Every matching node (the default).
    All,
    /// One: the matching node with the smallest id.
    Any,
}

/// Where the related tasks run, relative to the declaring task's node.
#[derive(Debug, Clone, PartialEq)]
pub enum Scope {
    /// `requires` / `required_for`: the same node.
    SameNode,
    /// `cross-depends` / `cross-depended-by`.
    Cross { role: Role, policy: Policy },
}

/// One relation entry of a task.
#[derive(Debug, Clone, PartialEq)]
pub struct Relation {
    /// The key it was written under (`requires`, `cross-depends`, …).
    pub key: &'static str,
    /// True when the named tasks come first (`requires`, `cross-depends`).
    pub named_first: bool,
    pub name: TaskName,
    pub scope: Scope,
}

/// The relation keys: name, whether the named tasks come first, cross-node.
const KEYS: [(&str, bool, bool); 4] = [
    ("requires", true, false),
    ("required_for", false, false),
    ("cross-depends", true, true),
    ("cross-depended-by", false, true),
];

/// Every relation entry of a task definition, in key order.
pub fn relations(map: &serde_json::Map<String, Value>) -> Result<Vec<Relation>, String> {
    let mut out = Vec::new();
    for (key, named_first, cross) in KEYS {
        let entries = entries(map.get(key)).map_err(|e| format!("{key}: {e}"))?;
        for entry in entries {
            let relation =
                relation(key, named_first, cross, entry).map_err(|e| format!("{key}: {e}"))?;
            if !out.contains(&relation) {
                out.push(relation);
            }
        }
    }
    Ok(out)
}

/// A relation list's entries: a string, or a list of strings and maps.
fn entries(value: Option<&Value>) -> Result<Vec<&Value>, String> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(one @ Value::String(_)) => Ok(vec![one]),
        Some(Value::Array(items)) => Ok(items.iter().collect()),
        Some(other) => Err(format!("must be a list of task ids, not {other}")),
    }
}

fn relation(
    key: &'static str,
    named_first: bool,
    cross: bool,
    entry: &Value,
) -> Result<Relation, String> {
    let (name, role, policy) = match entry {
        Value::String(name) => (name.as_str(), None, None),
        Value::Object(map) => (
            map.get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("entry {entry} has no name"))?,
            map.get("role"),
            map.get("policy"),
        ),
        other => return Err(format!("entry {other} is not a task id")),
    };
    let name = TaskName::parse(name)?;
    let scope = if cross {
        Scope::Cross {
            role: role_of(role)?,
            policy: policy_of(policy)?,
        }
    } else {
        Scope::SameNode
    };
    Ok(Relation {
        key,
        named_first,
        name,
        scope,
    })
}

fn role_of(value: Option<&Value>) -> Result<Role, String> {
    let names: Vec<&str> = match value {
        None | Some(Value::Null) => return Ok(Role::Any),
        Some(Value::String(one)) => vec![one],
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().ok_or_else(|| format!("role {v} is not a name")))
            .collect::<Result<_, _>>()?,
        Some(other) => return Err(format!("role must be a name or a list, not {other}")),
    };
    Ok(match names.as_slice() {
        ["*"] => Role::Any,
        ["self"] => Role::SameNode,
        _ if names.contains(&"self") => {
            return Err("role 'self' cannot be combined with other roles".to_owned());
        }
        _ => Role::Tags(names.into_iter().map(str::to_owned).collect()),
    })
}

fn policy_of(value: Option<&Value>) -> Result<Policy, String> {
    match value {
        None | Some(Value::Null) => Ok(Policy::All),
        Some(Value::String(p)) if p == "all" => Ok(Policy::All),
        Some(Value::String(p)) if p == "any" => Ok(Policy::Any),
        Some(other) => Err(format!("policy must be 'all' or 'any', not {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(value: Value) -> Result<Vec<Relation>, String> {
        relations(value.as_object().unwrap())
    }

    #[test]
    fn patterns_are_searched_not_anchored() {
        let name = TaskName::parse("/contrail-db(-primary|-all)/").unwrap();
        assert!(name.matches("contrail-db-primary"));
        assert!(name.matches("primary-contrail-db-all"));
        assert!(!name.matches("contrail-db"));
        assert_eq!(name.as_written(), "/contrail-db(-primary|-all)/");
        assert!(TaskName::parse("/(/").unwrap_err().contains("entry '/(/'"));
    }

    #[test]
    fn every_key_and_form_reads() {
        let r = read(json!({
            "requires": "a",
            "required_for": ["b", {"name": "/c.*/"}],
            "cross-depends": [{"name": "d", "role": "self"}, {"name": "e", "role": ["x", "/y.*/"], "policy": "any"}],
            "cross-depended-by": [{"name": "f", "role": "*"}]
        }))
        .unwrap();
        let shown: Vec<(&str, bool, String)> = r
            .iter()
            .map(|r| (r.key, r.named_first, r.name.as_written()))
            .collect();
        assert_eq!(
            shown,
            [
                ("requires", true, "a".to_owned()),
                ("required_for", false, "b".to_owned()),
                ("required_for", false, "/c.*/".to_owned()),
                ("cross-depends", true, "d".to_owned()),
                ("cross-depends", true, "e".to_owned()),
                ("cross-depended-by", false, "f".to_owned()),
            ]
        );
        assert_eq!(r[0].scope, Scope::SameNode);
        let cross = |role, policy| Scope::Cross { role, policy };
        assert_eq!(r[3].scope, cross(Role::SameNode, Policy::All));
        let tags = Role::Tags(vec!["x".to_owned(), "/y.*/".to_owned()]);
        assert_eq!(r[4].scope, cross(tags, Policy::Any));
        assert_eq!(r[5].scope, cross(Role::Any, Policy::All));
    }

    #[test]
    fn repeated_entries_count_once() {
        let r = read(json!({"requires": ["a", "a"], "cross-depends": [{"name": "a"}]})).unwrap();
        assert_eq!(r.len(), 2);
    }

    #[test]
    fn bad_entries_say_what_is_wrong() {
        let err = |v| read(v).unwrap_err();
        assert_eq!(
            err(json!({"requires": 3})),
            "requires: must be a list of task ids, not 3"
        );
        assert!(err(json!({"requires": [3]})).contains("is not a task id"));
        assert!(err(json!({"cross-depends": [{"role": "x"}]})).contains("has no name"));
        assert!(
            err(json!({"cross-depends": [{"name": "a", "policy": "some"}]}))
                .contains("policy must be 'all' or 'any'")
        );
        assert!(
            err(json!({"cross-depends": [{"name": "a", "role": ["self", "x"]}]}))
                .contains("cannot be combined")
        );
        assert!(err(json!({"requires": ["two words"]})).contains("task id"));
    }
}
