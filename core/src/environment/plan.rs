//! An environment's deployment plan, and everything that makes it
//! undeployable: the selection, the settings, roles and tags that nothing
//! declares, plugins that do not fit the release.

use std::collections::BTreeSet;

use super::Environment;
use crate::name::TagName;
use crate::role::NodeErrorKind;
use crate::tag;
use crate::task::{Definitions, Plan, PlanError, PlanErrorKind, PlanInput, PlanNode, plan};

fn error(kind: PlanErrorKind, message: String) -> PlanError {
    PlanError::new(kind, message)
}

impl Environment<'_> {
    /// The release's tags that a node here is expected to carry: its
    /// `tags_metadata` keys and its roles' tags — but not the tags only
    /// roles that this environment's settings rule out would bring.
    fn release_tags(&self) -> Vec<TagName> {
        let roles = &self.release.roles_metadata.0;
        let all: BTreeSet<TagName> = self
            .release
            .tags_metadata
            .keys()
            .cloned()
            .chain(roles.iter().flat_map(|r| r.tags.iter().cloned()))
            .collect();
        all.into_iter()
            .filter(|tag| {
                let mut bringing = roles.iter().filter(|r| r.tags.contains(tag)).peekable();
                bringing.peek().is_none() || bringing.any(|r| self.role_available(&r.id))
            })
            .collect()
    }

    /// What keeps the environment itself from being deployed, before any
    /// task is placed: the selection, the settings (edits that contradict
    /// the components included, SEMANTICS §9.1), plugins that do not
    /// extend the release, roles and tags that nothing declares.
    pub fn problems(&self) -> Vec<PlanError> {
        let mut errors: Vec<PlanError> = Vec::new();
        for v in self.selection_violations() {
            errors.push(error(
                PlanErrorKind::InvalidEnvironment,
                format!("components: {}", v.message),
            ));
        }
        for p in self.settings_problems() {
            errors.push(error(
                PlanErrorKind::InvalidEnvironment,
                format!("settings: {}: {}", p.path, p.message),
            ));
        }
        for plugin in self.plugins.iter().filter(|p| !p.extends(self.release)) {
            let mut e = error(
                PlanErrorKind::IncompatiblePlugin,
                format!(
                    "{} is not compatible with release '{}' ({} {})",
                    plugin.source(),
                    self.release.name,
                    self.release.operating_system,
                    self.release.version
                ),
            );
            e.plugins = vec![plugin.name.clone()];
            errors.push(e);
        }
        let known = self.tags_metadata();
        let role_tags = self.role_tags();
        let role_named: BTreeSet<TagName> = role_tags.values().flatten().cloned().collect();
        for node in &self.spec.nodes {
            for role in node.all_roles().filter(|r| !role_tags.contains_key(*r)) {
                let mut err = error(
                    PlanErrorKind::UnknownRole,
                    format!(
                        "node {}: role '{role}' is defined neither by the release nor by an enabled plugin",
                        node.id
                    ),
                );
                err.nodes = vec![node.id];
                errors.push(err);
            }
            for added in node
                .tags_added
                .iter()
                .filter(|t| !tag::known_tag(t, &known, &role_named))
            {
                let mut err = error(
                    PlanErrorKind::UnknownTag,
                    format!(
                        "node {}: tag '{added}' is not known to the release, its plugins or the environment",
                        node.id
                    ),
                );
                err.nodes = vec![node.id];
                errors.push(err);
            }
        }
        errors
    }

    /// Every problem an import must refuse: [`Self::problems`], its own
    /// changes of roles that cannot be made, each node's conflicting or
    /// restricted roles, and every role over its maximum (SEMANTICS §4:
    /// the import adds every node at once).
    pub fn import_problems(&self) -> Vec<String> {
        let mut problems: Vec<String> = self.problems().into_iter().map(|e| e.message).collect();
        problems.extend(self.role_layer_problems());
        let none = super::RoleCounts::default();
        problems.extend(
            self.exceeded_maximums(&none, &self.role_counts())
                .into_iter()
                .map(|e| e.message),
        );
        let role_tags = self.role_tags();
        for (node, errors) in self.node_role_errors() {
            let reported = |e: &&crate::role::NodeError| {
                e.kind == NodeErrorKind::UnknownRole
                    || e.roles.iter().any(|r| !role_tags.contains_key(r))
            };
            for e in errors.iter().filter(|e| !reported(e)) {
                problems.push(format!("node {}: {}", node.id, e.message));
            }
        }
        problems.extend(self.import_network_problems());
        for node in &self.spec.nodes {
            let layout = node.disks.iter().flat_map(|l| l.problems());
            problems.extend(layout.map(|p| format!("node {}: disks: {p}", node.id)));
        }
        problems
    }

    /// What an import refuses of its networks (SEMANTICS §11.2): networks
    /// the environment does not have, and every problem of the
    /// configuration and the nodes' interfaces but a shortfall of
    /// addresses (which the environment's checks report).
    fn import_network_problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let metas = self.network_metas();
        for network in self.spec.network.iter().flat_map(|n| &n.networks) {
            if metas.get(&network.name).is_none() {
                problems.push(format!(
                    "networks: network '{}' does not exist in this environment",
                    network.name
                ));
            }
        }
        match self.network_configuration() {
            Ok((config, _)) => problems.extend(
                self.network_problems(&config, true)
                    .iter()
                    .filter(|p| p.kind != crate::network::ProblemKind::Capacity)
                    .map(|p| format!("networks: {}", self.describe_problem(&config, p))),
            ),
            Err(e) => problems.push(format!("networks: {e}")),
        }
        problems
    }

    /// The plan of graph type `graph` (SEMANTICS §6.2): its tasks from
    /// every source that defines the type, or an `unknown_graph` error.
    pub fn plan(&self, graph: &str) -> Plan {
        self.plan_with(graph, false)
    }

    /// The deployment plan of graph `graph`, with its cross-node waits
    /// when `cross` is set.
    pub fn plan_with(&self, graph: &str, cross: bool) -> Plan {
        let mut errors = self.problems();
        let Some(tasks) = self.graph_tasks(graph) else {
            errors.extend(self.unknown_graph(graph));
            return Plan {
                errors,
                ..Plan::default()
            };
        };
        let nodes: Vec<PlanNode> = self
            .spec
            .nodes
            .iter()
            .zip(self.effective_tags())
            .filter(|(n, _)| !n.pending_deletion)
            .map(|(n, tags)| PlanNode { id: n.id, tags })
            .collect();
        let plugin_tasks = tasks.plugin_slices();
        let release_tags = self.release_tags();
        let mut result = plan(PlanInput {
            definitions: Definitions {
                release: tasks.release.unwrap_or_default(),
                plugins: &plugin_tasks,
                environment: tasks.environment.unwrap_or_default(),
            },
            nodes: &nodes,
            release_tags: &release_tags,
            models: self.models(),
            cross,
        });
        errors.append(&mut result.errors);
        result.errors = errors;
        result
    }
}
