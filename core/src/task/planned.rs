//! What a plan is — the answer of [`super::plan()`]: per node its tasks in
//! order, the errors (`PlanError`, each of a `PlanErrorKind`), the tasks
//! skipped, the relation entries that name no task, the cross-node waits —
//! and a task id after overriding (`Task`), as the making of a plan passes
//! it from one step to the next.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::def::TaskDef;
use crate::name::{PluginName, TagName, TaskId};
use crate::tag::MatcherId;

/// Where a task definition comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "name", rename_all = "snake_case")]
pub enum Origin {
    Release,
    Plugin(PluginName),
    Environment,
}

impl Origin {
    pub(super) fn describe(&self) -> String {
        match self {
            Origin::Release => "the release".to_owned(),
            Origin::Plugin(name) => format!("plugin '{name}'"),
            Origin::Environment => "the environment".to_owned(),
        }
    }
}

/// One node's plan. `id` is the node id, or `"master"` for the Fuel
/// master pseudo-node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NodePlan {
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::node_id))]
    pub id: Value,
    pub tags: Vec<TagName>,
    pub tasks: Vec<TaskId>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum PlanErrorKind {
    /// Two plugins' definitions of one task would run on one node.
    TaskConflict,
    Cycle,
    UnknownDependency,
    /// A selector entry that does not compile (a bad regular expression).
    BadSelector,
    /// A condition that does not parse or cannot be evaluated.
    BadCondition,
    /// An enabled extension plugin that does not extend the release.
    IncompatiblePlugin,
    /// A node role defined by neither the release nor an enabled plugin.
    UnknownRole,
    /// A tag added to a node that nothing declares.
    UnknownTag,
    /// No source (release, enabled plugin, environment) defines the
    /// requested graph type.
    UnknownGraph,
    /// The release cannot be chosen (several and no `release_name`, …).
    Release,
    /// The environment's settings or components are not valid.
    InvalidEnvironment,
}

impl PlanErrorKind {
    /// The kind as the API writes it (`task_conflict`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            PlanErrorKind::TaskConflict => "task_conflict",
            PlanErrorKind::Cycle => "cycle",
            PlanErrorKind::UnknownDependency => "unknown_dependency",
            PlanErrorKind::BadSelector => "bad_selector",
            PlanErrorKind::BadCondition => "bad_condition",
            PlanErrorKind::IncompatiblePlugin => "incompatible_plugin",
            PlanErrorKind::UnknownRole => "unknown_role",
            PlanErrorKind::UnknownTag => "unknown_tag",
            PlanErrorKind::UnknownGraph => "unknown_graph",
            PlanErrorKind::Release => "release",
            PlanErrorKind::InvalidEnvironment => "invalid_environment",
        }
    }
}

/// A problem of the plan as a whole; the fields that apply are set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanError {
    pub kind: PlanErrorKind,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskId>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugins: Vec<PluginName>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<i64>,
    /// For cycles: the path, first task repeated at the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cycle: Vec<TaskId>,
}

impl PlanError {
    /// An error with only its kind and message set.
    pub fn new(kind: PlanErrorKind, message: String) -> PlanError {
        PlanError {
            kind,
            message,
            task: None,
            plugins: Vec::new(),
            nodes: Vec::new(),
            cycle: Vec::new(),
        }
    }

    pub(super) fn of_task(kind: PlanErrorKind, task: &TaskId, message: String) -> PlanError {
        PlanError {
            task: Some(task.clone()),
            ..PlanError::new(kind, message)
        }
    }
}

/// A task whose condition is false: it runs on no node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Skipped {
    pub id: TaskId,
    pub reason: String,
}

/// The deployment plan: per node, its tasks in execution order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Plan {
    pub nodes: Vec<NodePlan>,
    pub errors: Vec<PlanError>,
    pub warnings: Vec<String>,
    /// Tasks whose condition is false, with why (in definition order).
    #[serde(default)]
    pub skipped: Vec<Skipped>,
    /// The direct dependency edges `[before, after]` between planned tasks,
    /// for drawing (an extension of the contract).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<(TaskId, TaskId)>,
    /// Instance tags `name:N` grouped: name → instance → node ids (an
    /// extension of the contract, present when nodes carry such tags).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    // JSON writes the instance numbers as the keys' text.
    #[cfg_attr(feature = "openapi", schema(value_type = BTreeMap<String, BTreeMap<String, Vec<i64>>>))]
    pub instances: BTreeMap<String, BTreeMap<u64, Vec<i64>>>,
    /// Relation entries that name no task (each also a warning).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<Unresolved>,
    /// Asked for with [`PlanInput::cross`]: each planned task on a node
    /// that waits for tasks on other nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross: Option<Vec<CrossWait>>,
}

/// A task on a node that waits for tasks on other nodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossWait {
    pub task: TaskId,
    /// A node id, or `"master"`.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::node_id))]
    pub node: Value,
    pub after: Vec<NodeTask>,
}

/// A task on a node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NodeTask {
    pub task: TaskId,
    /// A node id, or `"master"`.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::node_id))]
    pub node: Value,
}

impl Plan {
    /// A plan that could not be made: no nodes, one error.
    pub fn failed(error: PlanError) -> Plan {
        Plan {
            errors: vec![error],
            ..Plan::default()
        }
    }
}

/// One task id after overriding: the definitions that count for it.
#[derive(Debug, Clone)]
pub struct Task<'a> {
    pub def: &'a TaskDef,
    /// Each counting definition's origin and selector, as its entries in
    /// the plan's [`Matchers`] (several only when several plugins define
    /// the id); a definition whose condition is false keeps an empty one.
    pub definitions: Vec<(Origin, Vec<MatcherId>)>,
}

/// The kind of an [`Unresolved`] warning, as plan errors carry theirs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum WarningKind {
    #[default]
    UnresolvedDependency,
}

/// A relation entry that names no task of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Unresolved {
    /// Always `unresolved_dependency`.
    #[serde(default)]
    pub kind: WarningKind,
    pub task: TaskId,
    /// `requires`, `required_for`, `cross-depends` or `cross-depended-by`.
    pub relation: String,
    /// The entry as written: an id or a `/re/` pattern.
    pub entry: String,
}

impl Unresolved {
    /// The warning people read.
    pub fn message(&self) -> String {
        let verb = match self.relation.as_str() {
            "requires" => "requires",
            "required_for" => "is required for",
            "cross-depends" => "cross-depends on",
            _ => "is cross-depended on by",
        };
        format!(
            "unresolved dependency: task '{}' {verb} '{}', which names no task of this plan; the entry is ignored",
            self.task, self.entry
        )
    }
}
