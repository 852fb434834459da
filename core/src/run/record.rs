//! A run as the API answers it (SEMANTICS §15, Fuel 10's transaction):
//! its steps with the command line each ran and its exit code, its
//! progress, the history rows (Fuel's `deployment_history`) and the
//! summary per host (Ansible's `playbook_on_stats`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::snapshot::Changes;
use super::status::{Connection, RunKind, RunStatus, StepStatus, TaskStatus};

/// A run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Run {
    pub id: i64,
    pub cluster_id: i64,
    /// The deployer it runs (`kolla-ansible`).
    pub deployer: String,
    pub kind: RunKind,
    pub status: RunStatus,
    pub connection: Connection,
    pub steps: Vec<Step>,
    /// The nodes whose status follows the run (none when it only gathers
    /// facts or checks).
    pub nodes: Vec<i64>,
    /// For "deploy changes": what differed from the last deployment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Changes>,
    /// The files it deployed: path → SHA-256.
    pub files: BTreeMap<String, String>,
    pub progress: Progress,
    /// The sequence of its last event stored (0: none yet): the stream
    /// after it is what is new.
    pub last_seq: i64,
    /// Why it ended as it did, when it did not succeed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Who started it (a user, or a token's label).
    pub created_by: String,
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
}

impl Run {
    /// Whether it deploys (a step other than facts and checks).
    pub fn deploys(&self) -> bool {
        self.steps.iter().any(|s| s.action.deploys())
    }

    /// Whether it deployed the environment: it deploys and succeeded (the
    /// server's `last_deployed` asks its database the same).
    pub fn deployed(&self) -> bool {
        self.status == RunStatus::Successful && self.deploys()
    }

    /// Its heading on a page: `Run 3: actions`.
    pub fn title(&self) -> String {
        format!("Run {}: {}", self.id, self.kind.as_str())
    }
}

impl Step {
    /// Its line in a page's list of steps: `deploy — failed (exit 2)`.
    pub fn line(&self) -> String {
        let rc = self
            .rc
            .map(|rc| format!(" (exit {rc})"))
            .unwrap_or_default();
        format!("{} — {}{rc}", self.action, self.status.as_str())
    }
}

/// One step: a kolla-ansible action and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Step {
    pub index: u32,
    pub action: Action,
    /// The hosts it is limited to (every host when empty).
    pub limit: Vec<String>,
    pub status: StepStatus,
    /// The `ansible-playbook` command line it ran (kolla-ansible's own
    /// for the action).
    pub argv: Vec<String>,
    /// Its exit code, once it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rc: Option<i32>,
    /// How many plays its playbook has.
    pub plays: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
}

/// How far a run is: plays started of the plays its steps' playbooks
/// have.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Progress {
    pub plays_started: u32,
    pub plays_total: u32,
}

impl Progress {
    /// The share done, 0–100 (100 once it ended, whatever was skipped).
    pub fn percent(self, finished: bool) -> u32 {
        if finished {
            return 100;
        }
        (self.plays_started.saturating_mul(100))
            .checked_div(self.plays_total)
            .unwrap_or(0)
            .min(99)
    }
}

/// One row of a run's history: what a task did on a host (Fuel's
/// `deployment_history`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HistoryRow {
    pub task_name: String,
    /// The node the host is (none for kolla-ansible's `localhost`).
    pub node_id: Option<i64>,
    pub status: TaskStatus,
    pub time_start: Option<String>,
    pub time_end: Option<String>,
    pub play: Option<String>,
    pub role: Option<String>,
    /// The action of the step it ran in.
    pub step: Action,
    pub host: String,
    /// A failure's message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl HistoryRow {
    /// The CSV columns, in order (`task_name` first, as Fuel's).
    pub const COLUMNS: [&'static str; 10] = [
        "task_name",
        "node_id",
        "status",
        "time_start",
        "time_end",
        "play",
        "role",
        "step",
        "host",
        "message",
    ];

    /// Its cells, in [`HistoryRow::COLUMNS`]' order.
    pub fn cells(&self) -> [String; 10] {
        let opt = |v: &Option<String>| v.clone().unwrap_or_default();
        [
            self.task_name.clone(),
            self.node_id.map(|n| n.to_string()).unwrap_or_default(),
            self.status.as_str().to_owned(),
            opt(&self.time_start),
            opt(&self.time_end),
            opt(&self.play),
            opt(&self.role),
            self.step.as_str().to_owned(),
            self.host.clone(),
            opt(&self.message),
        ]
    }
}

/// What a run did on one host: Ansible's counts, and the task it is on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HostSummary {
    pub host: String,
    pub node_id: Option<i64>,
    pub ok: u32,
    pub changed: u32,
    pub failures: u32,
    pub unreachable: u32,
    pub skipped: u32,
    pub ignored: u32,
    pub rescued: u32,
    /// The task it is running now.
    pub current_task: Option<String>,
}

impl HostSummary {
    /// Whether a task failed there (not rescued, not ignored) or it was
    /// unreachable.
    pub fn failed(&self) -> bool {
        self.failures > 0 || self.unreachable > 0
    }

    /// Where the host is in a run (that ended, when `ended`), as the live
    /// view shows it.
    pub fn state(&self, ended: bool) -> HostState {
        if self.unreachable > 0 {
            HostState::Unreachable
        } else if self.failures > 0 {
            HostState::Failed
        } else if let Some(task) = self.current_task.as_ref().filter(|_| !ended) {
            HostState::Running(task.clone())
        } else if ended {
            HostState::Done
        } else if self.ok + self.skipped + self.ignored + self.rescued > 0 {
            HostState::Going
        } else {
            HostState::Waiting
        }
    }
}

/// Where a host is in a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostState {
    /// No task reached it yet.
    Waiting,
    /// It runs this task now.
    Running(String),
    /// Its tasks so far went well.
    Going,
    /// The run ended, and nothing failed there.
    Done,
    Failed,
    Unreachable,
}

impl HostState {
    /// What the live view says of it.
    pub fn label(&self) -> String {
        match self {
            HostState::Waiting => "waiting".to_owned(),
            HostState::Running(task) => format!("running: {task}"),
            HostState::Going => "ok so far".to_owned(),
            HostState::Done => "ok".to_owned(),
            HostState::Failed => "failed".to_owned(),
            HostState::Unreachable => "unreachable".to_owned(),
        }
    }

    /// A class name for its look.
    pub fn class(&self) -> &'static str {
        match self {
            HostState::Waiting => "waiting",
            HostState::Running(_) => "running",
            HostState::Going | HostState::Done => "done",
            HostState::Failed => "failed",
            HostState::Unreachable => "unreachable",
        }
    }
}

/// A failure of a run, as the live view lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Failure {
    pub seq: i64,
    pub host: String,
    pub node_id: Option<i64>,
    pub task: String,
    pub status: TaskStatus,
    pub message: Option<String>,
}

/// What a deployer needs on the server, and what it has
/// (`GET …/deployers/{name}/runner`): never a secret, only whether it is
/// there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Runner {
    pub deployer: String,
    /// Whether its virtual environment is there and whole.
    pub installed: bool,
    /// Where it is, when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venv: Option<String>,
    /// What to do when it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
    /// Whether an admin set the hosts' SSH key for the environment
    /// (without one, the server's own SSH setup is used).
    pub ssh_key: bool,
    /// Whether the environment's `passwords.yml` was made (by its first
    /// run).
    pub passwords: bool,
}

/// Which hosts a relaunch runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RelaunchHosts {
    /// The hosts its steps were limited to (every host when they were
    /// not).
    All,
    /// Those that failed or were unreachable.
    Failed,
}

/// `POST /api/v1/runs/{id}/relaunch`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Relaunch {
    pub hosts: RelaunchHosts,
}

/// `PUT …/deployers/{name}/ssh_key`: the private key (PEM or OpenSSH),
/// never shown again (its `Debug` does not show it either).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SshKey {
    pub private_key: String,
}

impl std::fmt::Debug for SshKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SshKey(********)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_is_failed_before_running_and_running_before_done() {
        let mut host = HostSummary {
            ok: 2,
            current_task: Some("Pull images".into()),
            ..HostSummary::default()
        };
        assert_eq!(host.state(false).label(), "running: Pull images");
        assert_eq!(
            host.state(true),
            HostState::Done,
            "nothing runs once the run ended"
        );
        host.current_task = None;
        assert_eq!(host.state(false), HostState::Going);
        host.failures = 1;
        assert_eq!(host.state(false), HostState::Failed);
        host.unreachable = 1;
        assert_eq!(host.state(true).class(), "unreachable");
        assert_eq!(HostSummary::default().state(false), HostState::Waiting);
    }

    #[test]
    fn a_run_deployed_when_a_deploying_run_succeeded_and_says_so_in_a_line() {
        let step = |action, status, rc| Step {
            index: 0,
            action,
            limit: vec![],
            status,
            argv: vec![],
            rc,
            plays: 1,
            started_at: None,
            finished_at: None,
        };
        let facts = step(Action::GatherFacts, StepStatus::Successful, Some(0));
        assert_eq!(facts.line(), "gather-facts — successful (exit 0)");
        let deploy = step(Action::Deploy, StepStatus::Pending, None);
        assert_eq!(deploy.line(), "deploy — pending");
        let mut run: Run = serde_json::from_value(serde_json::json!({
            "id": 3, "cluster_id": 1, "deployer": "kolla-ansible", "kind": "actions",
            "status": "successful", "connection": "ssh", "steps": [], "nodes": [],
            "files": {}, "progress": {"plays_started": 1, "plays_total": 1},
            "last_seq": 9, "created_by": "admin", "created_at": "t"
        }))
        .unwrap();
        assert_eq!(run.title(), "Run 3: actions");
        run.steps = vec![facts];
        assert!(!run.deployed(), "facts deploy nothing");
        run.steps.push(deploy);
        assert!(run.deployed());
        run.status = RunStatus::Failed;
        assert!(!run.deployed());
    }

    #[test]
    fn progress_is_a_share_of_the_plays_and_whole_at_the_end() {
        let p = Progress {
            plays_started: 3,
            plays_total: 12,
        };
        assert_eq!(p.percent(false), 25);
        assert_eq!(p.percent(true), 100);
        assert_eq!(Progress::default().percent(false), 0);
        let over = Progress {
            plays_started: 13,
            plays_total: 12,
        };
        assert_eq!(over.percent(false), 99);
    }
}
