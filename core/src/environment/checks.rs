//! What to look at before deploying (the pre-deployment panel): the plan's
//! errors and warnings, each role's limits against how many nodes have it,
//! and each node's role problems — every item with the nodes concerned.

use serde::{Deserialize, Serialize};

use super::Environment;
use crate::role::check_limits;
use crate::task::Plan;

/// How much a check matters: errors block a deployment, warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum CheckSeverity {
    Error,
    Warning,
}

/// One finding, with the nodes it concerns (ids; empty when it concerns the
/// environment as a whole).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Check {
    pub severity: CheckSeverity,
    /// `plan`, `untagged`, `role_limit`, `network`, `node_roles` or `disks`.
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
        if let Ok((config, _)) = self.network_configuration() {
            out.extend(self.network_problems(&config, true).iter().map(|p| {
                check(
                    Error,
                    "network",
                    self.describe_problem(&config, p),
                    p.nodes.clone(),
                )
            }));
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
        out.extend(self.disk_checks());
        out.sort_by_key(|c| c.severity);
        out
    }

    /// Each node short of disk space (an error with Fuel's lines), and the
    /// nodes whose disks are unknown (one warning): SEMANTICS §14.
    fn disk_checks(&self) -> Vec<Check> {
        use CheckSeverity::{Error, Warning};
        let meta = match self.volumes_metadata() {
            Ok(meta) => meta,
            Err(errors) => {
                return errors
                    .iter()
                    .map(|e| check(Error, "disks", e.to_string(), Vec::new()))
                    .collect();
            }
        };
        let (short, unknown) = self.disk_shortages(&meta);
        let mut out: Vec<Check> = short
            .iter()
            .map(|s| check(Error, "disks", s.message(), vec![s.node_id]))
            .collect();
        if !unknown.is_empty() {
            let count = unknown.len();
            let message = format!(
                "{count} node{} {} no known disks: {} volumes are not checked until {} hardware is imported or declared.",
                crate::text::plural(count),
                if count == 1 { "has" } else { "have" },
                if count == 1 { "its" } else { "their" },
                if count == 1 { "its" } else { "their" },
            );
            out.push(check(
                Warning,
                "disks",
                message,
                unknown.iter().map(|n| n.id).collect(),
            ));
        }
        out
    }
}

/// More warnings than this are folded under a summary in the panel.
pub const UNFOLDED_WARNINGS: usize = 3;

/// The panel's headline: "Ready to deploy…" or "Not ready to deploy…",
/// with the counts.
pub fn headline(errors: usize, warnings: usize) -> String {
    let s = crate::text::plural;
    match (errors, warnings) {
        (0, 0) => "Ready to deploy: no problem found.".to_owned(),
        (0, w) => format!("Ready to deploy, with {w} warning{}.", s(w)),
        (e, w) => format!(
            "Not ready to deploy: {e} error{}, {w} warning{}.",
            s(e),
            s(w)
        ),
    }
}

impl Check {
    pub fn is_error(&self) -> bool {
        self.severity == CheckSeverity::Error
    }

    /// What the button that shows the check's nodes says: "Show the 2
    /// nodes" (`None` when the check concerns no node).
    pub fn show_nodes(&self) -> Option<String> {
        let count = self.nodes.len();
        (count > 0).then(|| format!("Show the {count} node{}", crate::text::plural(count)))
    }
}

#[cfg(test)]
mod panel_tests {
    use super::*;

    #[test]
    fn the_headline_counts_errors_and_warnings() {
        assert_eq!(headline(0, 0), "Ready to deploy: no problem found.");
        assert_eq!(headline(0, 4), "Ready to deploy, with 4 warnings.");
        assert_eq!(headline(1, 1), "Not ready to deploy: 1 error, 1 warning.");
    }

    #[test]
    fn a_check_offers_to_show_its_nodes() {
        let mut c = check(
            CheckSeverity::Error,
            "node_roles",
            "e".to_owned(),
            vec![4, 12],
        );
        assert!(c.is_error());
        assert_eq!(c.show_nodes().as_deref(), Some("Show the 2 nodes"));
        c.nodes = vec![4];
        assert_eq!(c.show_nodes().as_deref(), Some("Show the 1 node"));
        c.nodes.clear();
        assert_eq!(c.show_nodes(), None);
    }
}
