//! What a run's end does to its nodes and its environment (SEMANTICS
//! §15): a node it deployed without failure is `ready` and its pending
//! roles become its roles (seed 004); a node that failed, was unreachable
//! or was in a canceled or lost run is `error` (`error_type: deploy`);
//! the environment is `operational`, `partially_deployed` or `error`.

use crate::name::{NodeStatus, RoleName};

use super::action::Action;
use super::record::{HostSummary, Step};
use super::snapshot::Snapshot;
use super::status::{EnvironmentStatus, ErrorType, RunStatus};
use crate::tag::NodeTags;

/// A node of a run's scope as it was when the run started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeBefore {
    pub id: i64,
    pub host: String,
    pub status: NodeStatus,
    /// Its pending roles then: those the run deploys.
    pub pending_roles: Vec<RoleName>,
}

/// What a node becomes when the run ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeAfter {
    pub id: i64,
    pub status: NodeStatus,
    pub error_type: Option<ErrorType>,
    /// Whether the pending roles it had when the run started are now
    /// its roles.
    pub deployed: bool,
}

/// The nodes `ids` (a plan's) as they are now, each with its host name in
/// `snapshot`.
pub fn scope(ids: &[i64], snapshot: &Snapshot, nodes: &[NodeTags]) -> Vec<NodeBefore> {
    let nodes: std::collections::BTreeMap<i64, &NodeTags> =
        nodes.iter().map(|n| (n.id, n)).collect();
    let hosts: std::collections::BTreeMap<i64, &super::snapshot::SnapshotHost> =
        snapshot.hosts.iter().map(|h| (h.node, h)).collect();
    ids.iter()
        .filter_map(|id| {
            let node = nodes.get(id)?;
            let host = hosts.get(id)?;
            Some(NodeBefore {
                id: *id,
                host: host.name.clone(),
                status: node.status,
                pending_roles: node.pending_roles.clone(),
            })
        })
        .collect()
}

/// What each node of a deploying run's scope becomes once the run ended
/// with `status`, its steps as they ended and its hosts' counts.
pub fn node_outcomes(
    status: RunStatus,
    steps: &[Step],
    scope: &[NodeBefore],
    hosts: &[HostSummary],
) -> Vec<NodeAfter> {
    let every_step_ran = steps.iter().all(|s| s.status.ran());
    let any_step_started = steps.iter().any(|s| s.started_at.is_some());
    // Canceled or lost before anything ran, a run changed nothing.
    let interrupted = any_step_started && matches!(status, RunStatus::Canceled | RunStatus::Error);
    scope
        .iter()
        .map(|node| {
            let failed = hosts.iter().any(|h| h.host == node.host && h.failed());
            let (status, error_type, deployed) = if status == RunStatus::Successful {
                (NodeStatus::Ready, None, true)
            } else if failed || interrupted {
                (NodeStatus::Error, Some(ErrorType::Deploy), false)
            } else if every_step_ran {
                (NodeStatus::Ready, None, true)
            } else {
                (node.status, None, false)
            };
            NodeAfter {
                id: node.id,
                status,
                error_type,
                deployed,
            }
        })
        .collect()
}

/// A node's roles once the run that deployed `deployed` (its pending roles
/// when the run started) succeeded on it: those roles added to its roles
/// in order, and gone from the pending ones it has now.
pub fn promote(
    roles: &[RoleName],
    pending: &[RoleName],
    deployed: &[RoleName],
) -> (Vec<RoleName>, Vec<RoleName>) {
    let mut roles = roles.to_vec();
    for role in deployed {
        if pending.contains(role) && !roles.contains(role) {
            roles.push(role.clone());
        }
    }
    let pending = pending
        .iter()
        .filter(|r| !deployed.contains(r))
        .cloned()
        .collect();
    (roles, pending)
}

/// Why a run failed, as its record says it: the step's action and exit
/// code, and the hosts where a task failed or that were unreachable.
pub fn failure_message(action: Action, rc: Option<i32>, hosts: &[HostSummary]) -> String {
    let failed: Vec<&str> = hosts
        .iter()
        .filter(|h| h.failed())
        .map(|h| h.host.as_str())
        .collect();
    let code = rc.map_or_else(String::new, |rc| format!(" (exit code {rc})"));
    match failed.as_slice() {
        [] => format!("{action} failed{code}"),
        hosts => format!("{action} failed{code} on {}", hosts.join(", ")),
    }
}

/// The environment's status after a deploying run ended with `status`,
/// given its nodes' statuses then.
pub fn environment_status(status: RunStatus, nodes: &[NodeStatus]) -> EnvironmentStatus {
    let all_ready = nodes.iter().all(|s| *s == NodeStatus::Ready);
    let any_ready = nodes.contains(&NodeStatus::Ready);
    if status == RunStatus::Successful {
        if all_ready {
            EnvironmentStatus::Operational
        } else {
            EnvironmentStatus::PartiallyDeployed
        }
    } else if nodes.contains(&NodeStatus::Error) {
        EnvironmentStatus::Error
    } else if any_ready {
        EnvironmentStatus::PartiallyDeployed
    } else {
        EnvironmentStatus::New
    }
}

#[cfg(test)]
mod tests {
    use super::super::status::StepStatus;
    use super::*;

    fn step(status: StepStatus, started: bool) -> Step {
        Step {
            index: 0,
            action: Action::Deploy,
            limit: vec![],
            status,
            argv: vec![],
            rc: None,
            plays: 1,
            started_at: started.then(|| "t".to_owned()),
            finished_at: None,
        }
    }

    fn node(id: i64, host: &str) -> NodeBefore {
        NodeBefore {
            id,
            host: host.into(),
            status: NodeStatus::Discover,
            pending_roles: vec![],
        }
    }

    fn failed(host: &str) -> HostSummary {
        HostSummary {
            host: host.into(),
            failures: 1,
            ..HostSummary::default()
        }
    }

    fn statuses(after: &[NodeAfter]) -> Vec<(NodeStatus, bool)> {
        after.iter().map(|n| (n.status, n.deployed)).collect()
    }

    #[test]
    fn a_successful_run_makes_every_node_ready() {
        let after = node_outcomes(
            RunStatus::Successful,
            &[step(StepStatus::Successful, true)],
            &[node(1, "a"), node(2, "b")],
            &[],
        );
        assert_eq!(
            statuses(&after),
            [(NodeStatus::Ready, true), (NodeStatus::Ready, true)]
        );
    }

    #[test]
    fn a_failed_host_is_in_error_and_the_others_are_ready_when_every_step_ran() {
        let after = node_outcomes(
            RunStatus::Failed,
            &[step(StepStatus::Failed, true)],
            &[node(1, "a"), node(2, "b")],
            &[failed("a")],
        );
        assert_eq!(after[0].error_type, Some(ErrorType::Deploy));
        assert_eq!(
            statuses(&after),
            [(NodeStatus::Error, false), (NodeStatus::Ready, true)]
        );
    }

    #[test]
    fn a_host_a_skipped_step_never_reached_keeps_its_status() {
        let after = node_outcomes(
            RunStatus::Failed,
            &[
                step(StepStatus::Failed, true),
                step(StepStatus::Skipped, false),
            ],
            &[node(1, "a"), node(2, "b")],
            &[failed("a")],
        );
        assert_eq!(
            statuses(&after),
            [(NodeStatus::Error, false), (NodeStatus::Discover, false)]
        );
    }

    #[test]
    fn a_canceled_run_leaves_its_nodes_in_error_and_one_that_never_started_does_not() {
        let canceled = node_outcomes(
            RunStatus::Canceled,
            &[step(StepStatus::Canceled, true)],
            &[node(1, "a")],
            &[],
        );
        assert_eq!(statuses(&canceled), [(NodeStatus::Error, false)]);
        let never = node_outcomes(
            RunStatus::Error,
            &[step(StepStatus::Skipped, false)],
            &[node(1, "a")],
            &[],
        );
        assert_eq!(statuses(&never), [(NodeStatus::Discover, false)]);
    }

    #[test]
    fn a_failure_names_its_step_and_hosts() {
        assert_eq!(
            failure_message(
                Action::Prechecks,
                Some(2),
                &[failed("ctl-1"), HostSummary::default()]
            ),
            "prechecks failed (exit code 2) on ctl-1"
        );
        assert_eq!(failure_message(Action::Deploy, None, &[]), "deploy failed");
    }

    #[test]
    fn pending_roles_deployed_become_roles() {
        let r = |n: &str| RoleName::new(n).unwrap();
        let (roles, pending) = promote(&[r("compute")], &[r("cinder"), r("mongo")], &[r("cinder")]);
        assert_eq!(roles, [r("compute"), r("cinder")]);
        assert_eq!(pending, [r("mongo")]);
    }

    #[test]
    fn the_environment_follows_its_nodes() {
        use NodeStatus::*;
        let s = environment_status;
        assert_eq!(
            s(RunStatus::Successful, &[Ready, Ready]),
            EnvironmentStatus::Operational
        );
        assert_eq!(
            s(RunStatus::Successful, &[Ready, Discover]),
            EnvironmentStatus::PartiallyDeployed
        );
        assert_eq!(
            s(RunStatus::Failed, &[Ready, Error]),
            EnvironmentStatus::Error
        );
        assert_eq!(
            s(RunStatus::Failed, &[Ready, Discover]),
            EnvironmentStatus::PartiallyDeployed
        );
        assert_eq!(s(RunStatus::Error, &[Discover]), EnvironmentStatus::New);
    }
}
