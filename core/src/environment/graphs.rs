//! An environment's graph types (SEMANTICS §6.2): the task definitions the
//! plan of a type is made of — the release's graph of that type, each
//! enabled plugin's `graphs:` record of it and, for `default` only, the
//! plugins' and the environment's own `deployment_tasks` — and the list of
//! every type some source defines.

use std::borrow::Cow;
use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::Environment;
use crate::name::{GraphType, PluginName, TaskId};
use crate::plugin::Package;
use crate::task::{PlanError, PlanErrorKind, TaskDef};
use crate::text::plural;

/// One graph type of an environment (`GET /api/v1/clusters/{id}/graphs`,
/// `mosaic graphs`): what its plan would be made of (SEMANTICS §6.2).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GraphSummary {
    #[serde(rename = "type")]
    pub kind: GraphType,
    /// The release's name for the graph, else the first enabled plugin's
    /// record's, else the type.
    pub name: String,
    /// How many distinct task ids the plan of this type considers (each
    /// id once, however many sources define it).
    pub tasks: usize,
    /// Where its tasks come from: the release, then the enabled plugins in
    /// registry order, then the environment.
    pub sources: Vec<GraphSource>,
}

impl GraphSummary {
    /// What a choice of graph says of it: its name, the type too when the
    /// name is not the type, and how many tasks it has
    /// (`hardware burn-in (burn_in), 2 tasks`).
    pub fn label(&self) -> String {
        let tasks = format!("{} task{}", self.tasks, plural(self.tasks));
        if self.kind == self.name.as_str() {
            format!("{}, {tasks}", self.name)
        } else {
            format!("{} ({}), {tasks}", self.name, self.kind)
        }
    }
}

/// Where a graph's tasks come from, written `release`, `plugin:NAME` or
/// `environment`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum GraphSource {
    Release,
    Plugin(PluginName),
    Environment,
}

#[cfg(feature = "openapi")]
crate::schema::schema!(
    GraphSource,
    crate::schema::pattern(
        "^(release|environment|plugin:[a-z0-9_-]+)$",
        "Where a graph's tasks come from: release, plugin:NAME or environment"
    )
);

impl std::fmt::Display for GraphSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GraphSource::Release => f.write_str("release"),
            GraphSource::Plugin(name) => write!(f, "plugin:{name}"),
            GraphSource::Environment => f.write_str("environment"),
        }
    }
}

impl From<GraphSource> for String {
    fn from(source: GraphSource) -> String {
        source.to_string()
    }
}

impl TryFrom<String> for GraphSource {
    type Error = String;

    fn try_from(text: String) -> Result<GraphSource, String> {
        match text.as_str() {
            "release" => Ok(GraphSource::Release),
            "environment" => Ok(GraphSource::Environment),
            _ => match text.strip_prefix("plugin:") {
                Some(name) => PluginName::new(name)
                    .map(GraphSource::Plugin)
                    .map_err(|e| e.to_string()),
                None => Err(format!(
                    "'{text}' is not a graph source: release, plugin:NAME or environment"
                )),
            },
        }
    }
}

/// The task definitions of one graph type, by source; a source that does
/// not define the type is `None` (or absent, for a plugin).
#[derive(Debug, Clone)]
pub(super) struct GraphTasks<'a> {
    pub release: Option<&'a [TaskDef]>,
    /// Each enabled plugin that defines the type, in registry order.
    pub plugins: Vec<(PluginName, Cow<'a, [TaskDef]>)>,
    pub environment: Option<&'a [TaskDef]>,
}

impl GraphTasks<'_> {
    /// The plugins' definitions as a plan takes them.
    pub fn plugin_slices(&self) -> Vec<(PluginName, &[TaskDef])> {
        self.plugins
            .iter()
            .map(|(name, tasks)| (name.clone(), tasks.as_ref()))
            .collect()
    }

    /// Where the definitions come from, lowest priority first.
    fn sources(&self) -> Vec<GraphSource> {
        let release = self.release.map(|_| GraphSource::Release);
        let plugins = self
            .plugins
            .iter()
            .map(|(name, _)| GraphSource::Plugin(name.clone()));
        let environment = self.environment.map(|_| GraphSource::Environment);
        release
            .into_iter()
            .chain(plugins)
            .chain(environment)
            .collect()
    }

    /// How many distinct task ids the definitions name: what is left after
    /// overriding by id.
    fn distinct_ids(&self) -> usize {
        let release = self.release.unwrap_or_default();
        let environment = self.environment.unwrap_or_default();
        let plugins = self.plugins.iter().flat_map(|(_, tasks)| tasks.iter());
        let ids: BTreeSet<&TaskId> = release
            .iter()
            .chain(plugins)
            .chain(environment)
            .map(|t| &t.id)
            .collect();
        ids.len()
    }
}

/// A plugin's definitions in graph type `kind`: its record of that type,
/// after its `deployment_tasks` for `default`. `None`: it has neither.
fn plugin_tasks<'a>(plugin: &'a Package, kind: &str) -> Option<Cow<'a, [TaskDef]>> {
    let record = plugin.graph(kind).map(|g| g.tasks.as_slice());
    let deployment = (kind == GraphType::DEPLOYMENT && !plugin.deployment_tasks.is_empty())
        .then_some(plugin.deployment_tasks.as_slice());
    match (deployment, record) {
        (Some(deployment), Some(record)) => Some(Cow::Owned([deployment, record].concat())),
        (one, other) => one.or(other).map(Cow::Borrowed),
    }
}

impl<'a> Environment<'a> {
    /// The task definitions of graph type `kind`, by source; `None` when
    /// no source defines it.
    pub(super) fn graph_tasks(&self, kind: &str) -> Option<GraphTasks<'a>> {
        let own = &self.spec.deployment_tasks;
        let tasks = GraphTasks {
            release: self.release.graph(kind),
            plugins: self
                .enabled_plugins()
                .filter_map(|p| plugin_tasks(p, kind).map(|tasks| (p.name.clone(), tasks)))
                .collect(),
            environment: (kind == GraphType::DEPLOYMENT && !own.is_empty())
                .then_some(own.as_slice()),
        };
        let defined =
            tasks.release.is_some() || !tasks.plugins.is_empty() || tasks.environment.is_some();
        defined.then_some(tasks)
    }

    /// Every graph type the release, the enabled plugins or the environment
    /// defines: `default` first, then by type.
    pub fn graphs(&self) -> Vec<GraphSummary> {
        let mut kinds: BTreeSet<GraphType> = self.release.graph_types().collect();
        // Deployment tasks make a `default` graph without a record of it;
        // a type no source defines is left out below.
        kinds.insert(GraphType::deployment());
        for plugin in self.enabled_plugins() {
            kinds.extend(plugin.graphs.iter().map(|g| g.kind.clone()));
        }
        let mut kinds: Vec<GraphType> = kinds.into_iter().collect();
        kinds.sort_by_key(|kind| !kind.is_deployment());
        kinds
            .into_iter()
            .filter_map(|kind| {
                let tasks = self.graph_tasks(kind.as_str())?;
                Some(GraphSummary {
                    name: self.graph_name(&kind),
                    tasks: tasks.distinct_ids(),
                    sources: tasks.sources(),
                    kind,
                })
            })
            .collect()
    }

    /// The release's name for graph type `kind`, else the first enabled
    /// plugin's record's, else the type.
    fn graph_name(&self, kind: &GraphType) -> String {
        let plugins = self
            .enabled_plugins()
            .filter_map(|p| p.graph(kind.as_str()));
        self.release
            .graph_record(kind.as_str())
            .into_iter()
            .chain(plugins)
            .find_map(|g| g.name.clone())
            .unwrap_or_else(|| kind.to_string())
    }

    /// The `unknown_graph` error of a plan of type `kind`, when no source
    /// defines it (the server answers it with 404).
    pub fn unknown_graph(&self, kind: &str) -> Option<PlanError> {
        if self.graph_tasks(kind).is_some() {
            return None;
        }
        let known: Vec<String> = self
            .graphs()
            .into_iter()
            .map(|g| g.kind.to_string())
            .collect();
        let known = if known.is_empty() {
            "none".to_owned()
        } else {
            known.join(", ")
        };
        Some(PlanError::new(
            PlanErrorKind::UnknownGraph,
            format!(
                "no graph of type '{kind}': neither the release nor an enabled plugin nor the environment defines one (defined: {known})"
            ),
        ))
    }
}
