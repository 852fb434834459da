//! What to look at before deploying (the pre-deployment panel): the plan's
//! errors and warnings, each role's limits against how many nodes have it,
//! and each node's role problems — every item with the nodes concerned.

use serde::{Deserialize, Serialize};

use super::Environment;
use crate::role::check_limits;
use crate::task::Plan;

/// How much a check matters: errors block a deployment, warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckSeverity {
    Error,
    Warning,
}

/// One finding, with the nodes it concerns (ids; empty when it concerns the
/// environment as a whole).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    pub severity: CheckSeverity,
    /// `plan`, `untagged`, `role_limit` or `node_roles`.
    pub kind: String,
    pub message: String,
    #[serde(default)]
    pub nodes: Vec<i64>,
}

fn check(severity: CheckSeverity, kind: &str, message: String, nodes: Vec<i64>) -> Check {
    Check {
        severity,
        kind: kind.to_owned(),
        message,
        nodes,
    }
}

impl Environment<'_> {
    /// Every check of the environment with `plan` (its plan), errors first.
    pub fn checks(&self, plan: &Plan) -> Vec<Check> {
        use CheckSeverity::{Error, Warning};
        let mut out: Vec<Check> = plan
            .errors
            .iter()
            .map(|e| check(Error, "plan", e.message.clone(), e.nodes.clone()))
            .collect();
        out.extend(
            plan.warnings
                .iter()
                .map(|w| check(Warning, "untagged", w.clone(), Vec::new())),
        );
        for role in self.offered_roles() {
            let nodes: Vec<i64> = self
                .spec
                .nodes
                .iter()
                .filter(|n| !n.pending_deletion && n.all_roles().any(|r| r == &role.id))
                .map(|n| n.id)
                .collect();
            let report = check_limits(role, self.models(), nodes.len());
            out.extend(
                report
                    .errors
                    .into_iter()
                    .map(|m| check(Error, "role_limit", m, nodes.clone())),
            );
            out.extend(
                report
                    .warnings
                    .into_iter()
                    .map(|m| check(Warning, "role_limit", m, nodes.clone())),
            );
        }
        for (node, errors) in self.node_role_errors() {
            out.extend(errors.into_iter().map(|e| {
                check(
                    Error,
                    "node_roles",
                    format!("{}: {}", node.display_name(), e.message),
                    vec![node.id],
                )
            }));
        }
        out.sort_by_key(|c| c.severity);
        out
    }
}
