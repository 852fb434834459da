//! What a run will do before it starts (SEMANTICS §15): the steps of a
//! first run, of "deploy changes" (worked out from the last successful
//! run's snapshot) or of the actions asked for, with their limits, the
//! nodes whose status follows the run, and every reason to refuse it.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::snapshot::{Changes, Snapshot};
use super::status::{Connection, RunKind};

/// A run as asked for (`POST …/deployers/kolla-ansible/runs`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The actions to run, in order; without them, a whole deployment
    /// (or, with `changes`, what changed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<Action>>,
    /// The nodes to run on (kolla-ansible's `--limit`); every host
    /// without it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limit: Vec<i64>,
    /// Deploy what changed since the last successful deployment.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub changes: bool,
    #[serde(default)]
    pub connection: Connection,
    /// Hosts gone from the environment (or out of groups) whose removal
    /// the operator has carried out as kolla-ansible documents it: "deploy
    /// changes" goes on without them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
}

/// One step as planned: an action and the hosts it is limited to (every
/// host when empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlannedStep {
    pub action: Action,
    pub limit: Vec<String>,
}

/// What a run will do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RunPlan {
    pub kind: RunKind,
    pub steps: Vec<PlannedStep>,
    /// The nodes whose status follows the run (`deploying`, then `ready`
    /// or `error`): the hosts of its steps, when one of them deploys.
    pub nodes: Vec<i64>,
    /// For "deploy changes": what differs from the last deployment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Changes>,
}

impl RunPlan {
    /// Whether the run deploys (any step but facts and checks).
    pub fn deploys(&self) -> bool {
        self.steps.iter().any(|s| s.action.deploys())
    }

    /// What becomes of the nodes' status.
    pub fn follows(&self) -> String {
        match self.nodes.len() {
            0 => "No node's status changes (facts and checks deploy nothing).".to_owned(),
            n => format!(
                "{} will be deploying, then ready or in error.",
                crate::text::counted(n, "node")
            ),
        }
    }
}

impl PlannedStep {
    /// Its line: `deploy on ctl-1, cmp-1`, `gather-facts on every host`.
    pub fn line(&self) -> String {
        let on = if self.limit.is_empty() {
            "every host".to_owned()
        } else {
            self.limit.join(", ")
        };
        format!("{} on {on}", self.action)
    }
}

/// Why a run is not started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunRefusal {
    /// `actions: []`.
    NoActions,
    /// `changes` with `actions` or a `limit`: "deploy changes" works out
    /// both.
    ChangesWithActions,
    /// Nodes of the limit that are no host of the export.
    UnknownNodes(Vec<i64>),
    /// Hosts `removed` names that were not removed.
    NotRemoved(Vec<String>),
    /// Nothing differs from the last successful deployment (409
    /// `no_changes`).
    NoChanges,
    /// Hosts gone, or out of groups, whose removal kolla-ansible leaves to
    /// the operator (409 `hosts_removed`): each with the groups it left.
    Removed(Vec<(String, Vec<String>)>),
    /// The OpenStack release moved: kolla-ansible's `upgrade`, which
    /// Mosaic does not run (409 `conflict`).
    Upgrade { from: String, to: String },
}

impl fmt::Display for RunRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunRefusal::NoActions => f.write_str("`actions` names no action"),
            RunRefusal::ChangesWithActions => f.write_str(
                "`changes` works out its own actions and limits: give it neither `actions` nor `limit`",
            ),
            RunRefusal::UnknownNodes(ids) => write!(
                f,
                "the limit names nodes that are no host of the environment's inventory: {}",
                join(ids.iter().map(i64::to_string))
            ),
            RunRefusal::NotRemoved(hosts) => write!(
                f,
                "`removed` names hosts the last deployment did not have or that are still in all their groups: {}",
                hosts.join(", ")
            ),
            RunRefusal::NoChanges => f.write_str(
                "nothing changed since the last successful deployment: no host, group, variable or configuration file differs",
            ),
            RunRefusal::Removed(hosts) => write_removal(f, hosts),
            RunRefusal::Upgrade { from, to } => write!(
                f,
                "the environment moved from OpenStack {from} to {to}: that is kolla-ansible's `upgrade`, which Mosaic does not run; run `kolla-ansible upgrade` on the exported files"
            ),
        }
    }
}

fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

/// kolla-ansible's "Removing existing hosts", for the hosts named.
fn write_removal(f: &mut fmt::Formatter<'_>, hosts: &[(String, Vec<String>)]) -> fmt::Result {
    let names: Vec<&str> = hosts.iter().map(|(h, _)| h.as_str()).collect();
    let limit = names.join(",");
    let what: Vec<String> = hosts
        .iter()
        .map(|(host, groups)| match groups.as_slice() {
            [] => format!("'{host}' is gone"),
            groups => format!("'{host}' left {}", groups.join(", ")),
        })
        .collect();
    write!(
        f,
        "deployed hosts were removed ({}): kolla-ansible removes nothing by itself. As its guide \
         \"Adding and removing hosts\" says: (1) move their workload off — migrate instances \
         (`openstack compute service set HOST nova-compute --disable`, then live-migrate), move \
         routers and DHCP networks off Neutron's L3 and DHCP agents; (2) stop their services: \
         `kolla-ansible -i INVENTORY stop --yes-i-really-really-mean-it --limit {limit}` with the \
         last deployment's inventory; (3) delete their network agents and compute services \
         (`openstack network agent delete`, `openstack compute service delete`). Then deploy \
         changes with `\"removed\": [{}]`: Mosaic deploys the remaining control nodes again (`deploy \
         --limit control`) when a controller was removed.",
        what.join("; "),
        names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The run `request` makes of the environment exported as `now`, given
/// the snapshot of its last successful deployment.
pub fn plan(
    request: &RunRequest,
    now: &Snapshot,
    last: Option<&Snapshot>,
) -> Result<RunPlan, RunRefusal> {
    if request.changes {
        if request.actions.is_some() || !request.limit.is_empty() {
            return Err(RunRefusal::ChangesWithActions);
        }
        if let Some(last) = last {
            return plan_changes(request, now, last);
        }
    }
    let limit = limit_names(&request.limit, now)?;
    let (kind, actions) = match &request.actions {
        Some(actions) if actions.is_empty() => return Err(RunRefusal::NoActions),
        Some(actions) => (RunKind::Actions, actions.clone()),
        None => (RunKind::Deploy, Action::FIRST_RUN.to_vec()),
    };
    let steps: Vec<PlannedStep> = actions
        .into_iter()
        .map(|action| PlannedStep {
            action,
            limit: limit.clone(),
        })
        .collect();
    Ok(with_nodes(kind, steps, now, None))
}

/// The run a relaunch of `run` (its snapshot `snapshot`, its hosts'
/// counts `hosts`) asks for: its actions again, on the nodes its steps
/// were limited to (every host when they were not), or on those that
/// failed or were unreachable there; `None` when `failed` and none did.
pub fn relaunch(
    run: &crate::run::record::Run,
    snapshot: &Snapshot,
    hosts: &[crate::run::record::HostSummary],
    failed: bool,
) -> Option<RunRequest> {
    let limit: Vec<i64> = if failed {
        hosts
            .iter()
            .filter(|h| h.failed())
            .filter_map(|h| h.node_id)
            .collect()
    } else {
        let named: BTreeSet<i64> = run
            .steps
            .iter()
            .flat_map(|s| &s.limit)
            .filter_map(|host| Some(snapshot.host(host)?.node))
            .collect();
        named.into_iter().collect()
    };
    if failed && limit.is_empty() {
        return None;
    }
    Some(RunRequest {
        actions: Some(run.steps.iter().map(|s| s.action).collect()),
        limit,
        connection: run.connection,
        ..RunRequest::default()
    })
}

/// The host names of the nodes `ids`, in the inventory's order.
fn limit_names(ids: &[i64], now: &Snapshot) -> Result<Vec<String>, RunRefusal> {
    let wanted: BTreeSet<i64> = ids.iter().copied().collect();
    let hosts: BTreeSet<i64> = now.hosts.iter().map(|h| h.node).collect();
    let unknown: Vec<i64> = wanted.difference(&hosts).copied().collect();
    if !unknown.is_empty() {
        return Err(RunRefusal::UnknownNodes(unknown));
    }
    Ok(now
        .hosts
        .iter()
        .filter(|h| wanted.contains(&h.node))
        .map(|h| h.name.clone())
        .collect())
}

/// "Deploy changes": new hosts (or hosts in new groups) bootstrapped,
/// checked, pulled and deployed with the control nodes; changed
/// configuration reconfigured everywhere; removals only once carried out.
fn plan_changes(
    request: &RunRequest,
    now: &Snapshot,
    last: &Snapshot,
) -> Result<RunPlan, RunRefusal> {
    if last.openstack_release != now.openstack_release {
        return Err(RunRefusal::Upgrade {
            from: last.openstack_release.clone(),
            to: now.openstack_release.clone(),
        });
    }
    let changes = Changes::between(last, now);
    let leaving = leaving_hosts(&changes, last);
    let acknowledged: BTreeSet<&str> = request.removed.iter().map(String::as_str).collect();
    let not_removed: Vec<String> = acknowledged
        .iter()
        .filter(|h| !leaving.iter().any(|(l, _)| l == *h))
        .map(|h| (*h).to_owned())
        .collect();
    if !not_removed.is_empty() {
        return Err(RunRefusal::NotRemoved(not_removed));
    }
    let unconfirmed: Vec<(String, Vec<String>)> = leaving
        .iter()
        .filter(|(h, _)| !acknowledged.contains(h.as_str()))
        .cloned()
        .collect();
    if !unconfirmed.is_empty() {
        return Err(RunRefusal::Removed(unconfirmed));
    }
    let steps = change_steps(&changes, &leaving, now, last);
    if steps.is_empty() {
        return Err(RunRefusal::NoChanges);
    }
    Ok(with_nodes(RunKind::Changes, steps, now, Some(changes)))
}

/// Hosts removed or taken out of groups, with the groups they left (none
/// listed for a host that is gone), in the last snapshot's order.
fn leaving_hosts(changes: &Changes, last: &Snapshot) -> Vec<(String, Vec<String>)> {
    last.hosts
        .iter()
        .filter_map(|h| {
            if changes.removed.contains(&h.name) {
                Some((h.name.clone(), Vec::new()))
            } else {
                changes
                    .shrunk
                    .get(&h.name)
                    .map(|g| (h.name.clone(), g.clone()))
            }
        })
        .collect()
}

/// The steps of "deploy changes", in order: the new hosts with the
/// control nodes; the control nodes again when a controller left; a
/// reconfigure when configuration or host variables changed.
fn change_steps(
    changes: &Changes,
    leaving: &[(String, Vec<String>)],
    now: &Snapshot,
    last: &Snapshot,
) -> Vec<PlannedStep> {
    let control: Vec<String> = now.control_hosts().map(|h| h.name.clone()).collect();
    let controllers: BTreeSet<&String> = control.iter().collect();
    let arriving: BTreeSet<&String> = changes.added.iter().chain(changes.grown.keys()).collect();
    let mut steps = Vec::new();
    if !arriving.is_empty() {
        let limit: Vec<String> = now
            .hosts
            .iter()
            .filter(|h| arriving.contains(&h.name) || controllers.contains(&h.name))
            .map(|h| h.name.clone())
            .collect();
        for action in [
            Action::BootstrapServers,
            Action::Prechecks,
            Action::Pull,
            Action::Deploy,
        ] {
            steps.push(PlannedStep {
                action,
                limit: limit.clone(),
            });
        }
    }
    let controller_left = leaving.iter().any(|(host, groups)| {
        groups.iter().any(|g| g == super::snapshot::CONTROL_GROUP)
            || last.control_hosts().any(|c| &c.name == host)
    });
    if controller_left && arriving.is_empty() && !control.is_empty() {
        steps.push(PlannedStep {
            action: Action::Deploy,
            limit: control,
        });
    }
    if !changes.files.is_empty() || !changes.vars.is_empty() {
        steps.push(PlannedStep {
            action: Action::Reconfigure,
            limit: Vec::new(),
        });
    }
    steps
}

/// The plan of `steps`, with the nodes whose status follows it: every
/// host a step reaches, when the run deploys.
fn with_nodes(
    kind: RunKind,
    steps: Vec<PlannedStep>,
    now: &Snapshot,
    changes: Option<Changes>,
) -> RunPlan {
    let mut plan = RunPlan {
        kind,
        steps,
        nodes: Vec::new(),
        changes,
    };
    if plan.deploys() {
        let deploying = || plan.steps.iter().filter(|s| s.action.deploys());
        let everywhere = deploying().any(|s| s.limit.is_empty());
        let limited: BTreeSet<&str> = deploying()
            .flat_map(|s| s.limit.iter().map(String::as_str))
            .collect();
        let nodes = now
            .hosts
            .iter()
            .filter(|h| everywhere || limited.contains(h.name.as_str()))
            .map(|h| h.node)
            .collect();
        plan.nodes = nodes;
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::super::snapshot::tests::snapshot;
    use super::*;

    fn three() -> Snapshot {
        snapshot(
            &[
                ("ctl-1", &["control", "baremetal"]),
                ("cmp-1", &["compute", "baremetal"]),
                ("cinder-1", &["storage", "baremetal"]),
            ],
            "enable_cinder: yes",
        )
    }

    fn actions(plan: &RunPlan) -> Vec<(&str, String)> {
        plan.steps
            .iter()
            .map(|s| (s.action.as_str(), s.limit.join(",")))
            .collect()
    }

    #[test]
    fn a_first_run_deploys_every_host_in_five_steps() {
        let plan = plan(&RunRequest::default(), &three(), None).unwrap();
        assert_eq!(plan.kind, RunKind::Deploy);
        let names: Vec<&str> = plan.steps.iter().map(|s| s.action.as_str()).collect();
        assert_eq!(
            names,
            [
                "bootstrap-servers",
                "prechecks",
                "pull",
                "deploy",
                "post-deploy"
            ]
        );
        assert_eq!(plan.nodes, [1, 2, 3]);
        assert_eq!(plan.steps[0].line(), "bootstrap-servers on every host");
        assert_eq!(
            plan.follows(),
            "3 nodes will be deploying, then ready or in error."
        );
        let changes = RunRequest {
            changes: true,
            ..RunRequest::default()
        };
        assert_eq!(
            super::plan(&changes, &three(), None).unwrap().kind,
            RunKind::Deploy
        );
    }

    #[test]
    fn facts_alone_change_no_node() {
        let request = RunRequest {
            actions: Some(vec![Action::GatherFacts]),
            limit: vec![2],
            ..RunRequest::default()
        };
        let plan = plan(&request, &three(), None).unwrap();
        assert_eq!(actions(&plan), [("gather-facts", "cmp-1".to_owned())]);
        assert!(plan.nodes.is_empty());
        assert_eq!(plan.steps[0].line(), "gather-facts on cmp-1");
        assert!(plan.follows().starts_with("No node's status changes"));
    }

    #[test]
    fn a_limit_of_unknown_nodes_and_no_actions_are_refused() {
        let unknown = RunRequest {
            limit: vec![2, 9],
            ..RunRequest::default()
        };
        assert_eq!(
            plan(&unknown, &three(), None),
            Err(RunRefusal::UnknownNodes(vec![9]))
        );
        let none = RunRequest {
            actions: Some(vec![]),
            ..RunRequest::default()
        };
        assert_eq!(plan(&none, &three(), None), Err(RunRefusal::NoActions));
    }

    fn changes() -> RunRequest {
        RunRequest {
            changes: true,
            ..RunRequest::default()
        }
    }

    #[test]
    fn a_new_node_is_deployed_with_the_control_nodes() {
        let mut now = three();
        now.hosts
            .push(snapshot(&[("cmp-2", &["compute"])], "").hosts[0].clone());
        now.hosts[3].node = 4;
        let plan = plan(&changes(), &now, Some(&three())).unwrap();
        assert_eq!(
            actions(&plan),
            [
                ("bootstrap-servers", "ctl-1,cmp-2".to_owned()),
                ("prechecks", "ctl-1,cmp-2".to_owned()),
                ("pull", "ctl-1,cmp-2".to_owned()),
                ("deploy", "ctl-1,cmp-2".to_owned()),
            ]
        );
        assert_eq!(plan.nodes, [1, 4]);
    }

    #[test]
    fn a_changed_setting_is_a_reconfigure_everywhere() {
        let now = snapshot(
            &[
                ("ctl-1", &["control", "baremetal"]),
                ("cmp-1", &["compute", "baremetal"]),
                ("cinder-1", &["storage", "baremetal"]),
            ],
            "enable_cinder: no",
        );
        let plan = plan(&changes(), &now, Some(&three())).unwrap();
        assert_eq!(actions(&plan), [("reconfigure", String::new())]);
        assert_eq!(plan.nodes, [1, 2, 3]);
        assert_eq!(plan.changes.unwrap().files, ["globals.yml"]);
    }

    #[test]
    fn nothing_changed_is_no_changes() {
        assert_eq!(
            plan(&changes(), &three(), Some(&three())),
            Err(RunRefusal::NoChanges)
        );
    }

    #[test]
    fn a_removed_node_is_refused_until_its_removal_is_confirmed() {
        let mut now = three();
        now.hosts.remove(1);
        let refused = plan(&changes(), &now, Some(&three())).unwrap_err();
        assert_eq!(
            refused,
            RunRefusal::Removed(vec![("cmp-1".to_owned(), vec![])])
        );
        let text = refused.to_string();
        assert!(
            text.contains("stop --yes-i-really-really-mean-it --limit cmp-1"),
            "{text}"
        );
        let confirmed = RunRequest {
            removed: vec!["cmp-1".to_owned()],
            ..changes()
        };
        // Nothing else changed, and no controller left: nothing to run.
        assert_eq!(
            plan(&confirmed, &now, Some(&three())),
            Err(RunRefusal::NoChanges)
        );
        let wrong = RunRequest {
            removed: vec!["ctl-1".to_owned()],
            ..changes()
        };
        assert!(matches!(
            plan(&wrong, &now, Some(&three())),
            Err(RunRefusal::NotRemoved(_))
        ));
    }

    #[test]
    fn a_removed_controller_redeploys_the_other_control_nodes() {
        let last = snapshot(
            &[
                ("ctl-1", &["control"]),
                ("ctl-2", &["control"]),
                ("cmp-1", &["compute"]),
            ],
            "",
        );
        let mut now = last.clone();
        now.hosts.remove(1);
        let confirmed = RunRequest {
            removed: vec!["ctl-2".to_owned()],
            ..changes()
        };
        let plan = plan(&confirmed, &now, Some(&last)).unwrap();
        assert_eq!(actions(&plan), [("deploy", "ctl-1".to_owned())]);
    }

    #[test]
    fn another_openstack_release_is_an_upgrade() {
        let mut now = three();
        now.openstack_release = "2025.1".to_owned();
        assert!(matches!(
            plan(&changes(), &now, Some(&three())),
            Err(RunRefusal::Upgrade { .. })
        ));
    }

    #[test]
    fn a_relaunch_runs_the_same_actions_on_the_same_or_the_failed_hosts() {
        let snapshot = three();
        let plan = plan(
            &RunRequest {
                actions: Some(vec![Action::Prechecks, Action::Deploy]),
                limit: vec![2, 3],
                ..RunRequest::default()
            },
            &snapshot,
            None,
        )
        .unwrap();
        let step = |action, limit: &[String]| crate::run::record::Step {
            index: 0,
            action,
            limit: limit.to_vec(),
            status: crate::run::status::StepStatus::Failed,
            argv: vec![],
            rc: Some(2),
            plays: 1,
            started_at: None,
            finished_at: None,
        };
        let run = crate::run::record::Run {
            id: 4,
            cluster_id: 1,
            deployer: "kolla-ansible".into(),
            kind: plan.kind,
            status: crate::run::status::RunStatus::Failed,
            connection: Connection::Local,
            steps: plan
                .steps
                .iter()
                .map(|s| step(s.action, &s.limit))
                .collect(),
            nodes: plan.nodes.clone(),
            changes: None,
            files: Default::default(),
            progress: Default::default(),
            last_seq: 0,
            message: None,
            created_by: "admin".into(),
            created_at: "t".into(),
            finished_at: None,
        };
        let failed = crate::run::record::HostSummary {
            host: "cinder-1".into(),
            node_id: Some(3),
            failures: 1,
            ..Default::default()
        };
        let all = relaunch(&run, &snapshot, std::slice::from_ref(&failed), false).unwrap();
        assert_eq!(all.actions, Some(vec![Action::Prechecks, Action::Deploy]));
        assert_eq!((all.limit, all.connection), (vec![2, 3], Connection::Local));
        assert_eq!(
            relaunch(&run, &snapshot, &[failed], true).unwrap().limit,
            [3]
        );
        assert_eq!(relaunch(&run, &snapshot, &[], true), None);
    }

    #[test]
    fn changes_take_neither_actions_nor_a_limit() {
        let request = RunRequest {
            limit: vec![1],
            ..changes()
        };
        assert_eq!(
            plan(&request, &three(), Some(&three())),
            Err(RunRefusal::ChangesWithActions)
        );
    }
}
