//! One deployment task as declared (SEMANTICS §6, §7.1): read once into
//! typed fields — id, type, where it runs, its dependencies, its condition
//! — and kept whole beside them, so stored tasks read back as declared.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::condition::Condition;
use super::relation::{Relation, relations};
use crate::name::TaskId;

/// The task types and the parameters each needs (Fuel's).
pub const TASK_TYPES: &[(&str, &[&str])] = &[
    ("puppet", &["puppet_manifest", "puppet_modules", "timeout"]),
    ("shell", &["cmd"]),
    ("upload_file", &["path", "data"]),
    ("sync", &["src", "dst"]),
    ("copy_files", &["files"]),
    ("reboot", &["timeout"]),
    ("group", &[]),
    ("stage", &[]),
    ("skipped", &[]),
];

/// A task definition.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskDef {
    pub id: TaskId,
    /// One of [`TASK_TYPES`].
    pub kind: String,
    /// Where it runs: the entries of `tags`, else `roles`/`role`, else
    /// `groups` (the first key present wins, even when empty; a string is a
    /// one-entry list). Compiled when a plan is made.
    pub selector: Vec<String>,
    /// Its relations to other tasks, in key order (SEMANTICS §6.1).
    pub relations: Vec<Relation>,
    /// A group's `tasks:`: tasks that also run on the group's nodes.
    pub group_tasks: Vec<TaskId>,
    pub condition: Option<Condition>,
    /// The definition as declared.
    declared: Map<String, Value>,
}

impl TaskDef {
    /// Stages and groups order tasks but run nothing themselves.
    pub fn is_listed(&self) -> bool {
        !matches!(self.kind.as_str(), "stage" | "group")
    }

    /// The definition as declared.
    pub fn declared(&self) -> &Map<String, Value> {
        &self.declared
    }

    /// Reads one task definition; `why` says what is wrong otherwise.
    pub fn from_json(value: &Value) -> Result<TaskDef, String> {
        let map = value
            .as_object()
            .ok_or_else(|| format!("a task must be a map, not {value}"))?;
        let id = match map.get("id") {
            Some(Value::String(id)) => TaskId::new(id.as_str()).map_err(|e| e.to_string())?,
            Some(other) => return Err(format!("task id must be a string, not {other}")),
            None => return Err("a task needs an id".to_owned()),
        };
        let kind = match map.get("type") {
            Some(Value::String(kind)) if TASK_TYPES.iter().any(|(t, _)| t == kind) => kind.clone(),
            Some(other) => {
                return Err(format!(
                    "task '{id}' has unknown type {other} (expected one of {})",
                    TASK_TYPES
                        .iter()
                        .map(|(t, _)| *t)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            None => return Err(format!("task '{id}' needs a type")),
        };
        let group_tasks = match map.get("tasks") {
            Some(listed) if kind == "group" => {
                ids(listed).map_err(|e| format!("task '{id}': tasks: {e}"))?
            }
            _ => Vec::new(),
        };
        Ok(TaskDef {
            selector: selector(map),
            relations: relations(map).map_err(|e| format!("task '{id}': {e}"))?,
            group_tasks,
            condition: map.get("condition").map(Condition::from_json),
            kind,
            id,
            declared: map.clone(),
        })
    }
}

/// `tags`, else `roles`/`role`, else `groups`.
fn selector(map: &Map<String, Value>) -> Vec<String> {
    for key in ["tags", "roles", "role", "groups"] {
        match map.get(key) {
            None => continue,
            Some(Value::String(one)) => return vec![one.clone()],
            Some(Value::Array(items)) => {
                return items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect();
            }
            Some(_) => return Vec::new(),
        }
    }
    Vec::new()
}

/// A list of task ids (a group's `tasks:`).
fn ids(value: &Value) -> Result<Vec<TaskId>, String> {
    let Value::Array(items) = value else {
        return Err(format!("must be a list of task ids, not {value}"));
    };
    let mut out: Vec<TaskId> = Vec::new();
    for item in items {
        let id = item
            .as_str()
            .ok_or_else(|| format!("entry {item} is not a task id"))
            .and_then(|s| TaskId::new(s).map_err(|e| e.to_string()))?;
        if !out.contains(&id) {
            out.push(id);
        }
    }
    Ok(out)
}

impl Serialize for TaskDef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.declared.serialize(s)
    }
}

impl<'de> Deserialize<'de> for TaskDef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        TaskDef::from_json(&Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// Reads a task list where `null` is empty.
pub fn deserialize_tasks<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<TaskDef>, D::Error> {
    Ok(Option::<Vec<TaskDef>>::deserialize(d)?.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn task(value: Value) -> Result<TaskDef, String> {
        TaskDef::from_json(&value)
    }

    #[test]
    fn selectors_prefer_tags_then_roles_then_groups() {
        let t =
            task(json!({"id": "a", "type": "puppet", "tags": [], "role": ["controller"]})).unwrap();
        assert!(t.selector.is_empty());
        let t =
            task(json!({"id": "a", "type": "shell", "role": "controller", "groups": ["compute"]}))
                .unwrap();
        assert_eq!(t.selector, ["controller"]);
        let t = task(json!({"id": "a", "type": "stage", "groups": ["/comp.*/"]})).unwrap();
        assert_eq!(t.selector, ["/comp.*/"]);
    }

    #[test]
    fn relations_and_a_groups_tasks_are_read() {
        let t = task(json!({
            "id": "a", "type": "puppet",
            "requires": ["b", "c"], "cross-depends": [{"name": "c"}, {"name": "d", "role": "self"}],
            "required_for": "e", "tasks": ["ignored"]
        }))
        .unwrap();
        let named: Vec<String> = t.relations.iter().map(|r| r.name.as_written()).collect();
        assert_eq!(named, ["b", "c", "e", "c", "d"]);
        assert!(t.group_tasks.is_empty());
        let g = task(json!({"id": "g", "type": "group", "role": ["x"], "tasks": ["a", "b", "a"]}))
            .unwrap();
        assert_eq!(g.group_tasks, ["a", "b"]);
        let bad = task(json!({"id": "g", "type": "group", "tasks": "a"})).unwrap_err();
        assert_eq!(
            bad,
            "task 'g': tasks: must be a list of task ids, not \"a\""
        );
    }

    #[test]
    fn bad_definitions_say_what_is_wrong() {
        assert_eq!(
            task(json!({"type": "puppet"})).unwrap_err(),
            "a task needs an id"
        );
        assert!(
            task(json!({"id": "a", "type": "dance"}))
                .unwrap_err()
                .contains("unknown type")
        );
        assert!(
            task(json!({"id": "a b", "type": "shell"}))
                .unwrap_err()
                .contains("task id")
        );
        assert!(
            task(json!({"id": "a", "type": "shell", "requires": [3]}))
                .unwrap_err()
                .contains("requires")
        );
    }

    #[test]
    fn definitions_are_stored_as_declared() {
        let declared = json!({"id": "a", "type": "puppet", "version": "2.0.0", "tags": ["x"], "parameters": {"timeout": 3}});
        let t = task(declared.clone()).unwrap();
        assert_eq!(serde_json::to_value(&t).unwrap(), declared);
    }
}
