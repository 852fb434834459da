//! Where a run, a step, a host's task and an environment are (SEMANTICS
//! §15), and which kind of run it is: the vocabularies the rest of `run`
//! and the API share, and which of them are final.

use serde::{Deserialize, Serialize};

/// A run's status: `pending` → `running` (→ `canceling`) → one of the
/// final four. `error`: it could not start, or its runner was lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Pending,
    Running,
    Canceling,
    Successful,
    Failed,
    Canceled,
    Error,
}

impl RunStatus {
    pub const ALL: [RunStatus; 7] = [
        RunStatus::Pending,
        RunStatus::Running,
        RunStatus::Canceling,
        RunStatus::Successful,
        RunStatus::Failed,
        RunStatus::Canceled,
        RunStatus::Error,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Pending => "pending",
            RunStatus::Running => "running",
            RunStatus::Canceling => "canceling",
            RunStatus::Successful => "successful",
            RunStatus::Failed => "failed",
            RunStatus::Canceled => "canceled",
            RunStatus::Error => "error",
        }
    }

    pub fn parse(text: &str) -> Option<RunStatus> {
        RunStatus::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// Whether nothing will change it any more.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            RunStatus::Successful | RunStatus::Failed | RunStatus::Canceled | RunStatus::Error
        )
    }
}

/// A step's status: `pending`, `running`, then how it ended; `skipped`
/// when an earlier step did not succeed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Pending,
    Running,
    Successful,
    Failed,
    Canceled,
    Skipped,
}

impl StepStatus {
    pub const ALL: [StepStatus; 6] = [
        StepStatus::Pending,
        StepStatus::Running,
        StepStatus::Successful,
        StepStatus::Failed,
        StepStatus::Canceled,
        StepStatus::Skipped,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            StepStatus::Pending => "pending",
            StepStatus::Running => "running",
            StepStatus::Successful => "successful",
            StepStatus::Failed => "failed",
            StepStatus::Canceled => "canceled",
            StepStatus::Skipped => "skipped",
        }
    }

    pub fn parse(text: &str) -> Option<StepStatus> {
        StepStatus::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// Whether the step ran to its end, whatever its hosts did.
    pub fn ran(self) -> bool {
        matches!(self, StepStatus::Successful | StepStatus::Failed)
    }
}

/// What one task did on one host (Fuel's `deployment_history` statuses,
/// in Ansible's words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Ok,
    Changed,
    Failed,
    Skipped,
    Unreachable,
    Ignored,
    Rescued,
}

impl TaskStatus {
    pub const ALL: [TaskStatus; 7] = [
        TaskStatus::Ok,
        TaskStatus::Changed,
        TaskStatus::Failed,
        TaskStatus::Skipped,
        TaskStatus::Unreachable,
        TaskStatus::Ignored,
        TaskStatus::Rescued,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Ok => "ok",
            TaskStatus::Changed => "changed",
            TaskStatus::Failed => "failed",
            TaskStatus::Skipped => "skipped",
            TaskStatus::Unreachable => "unreachable",
            TaskStatus::Ignored => "ignored",
            TaskStatus::Rescued => "rescued",
        }
    }

    pub fn parse(text: &str) -> Option<TaskStatus> {
        TaskStatus::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// How the hosts are reached: over SSH at their management addresses, or
/// every host's tasks on the Mosaic host itself (kolla-ansible's
/// all-in-one way; labs and tests).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Connection {
    #[default]
    Ssh,
    Local,
}

impl Connection {
    pub fn as_str(self) -> &'static str {
        match self {
            Connection::Ssh => "ssh",
            Connection::Local => "local",
        }
    }

    pub fn parse(text: &str) -> Option<Connection> {
        [Connection::Ssh, Connection::Local]
            .into_iter()
            .find(|c| c.as_str() == text)
    }
}

pub use crate::name::{EnvironmentStatus, ErrorType};

/// Which kind of run a request makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RunKind {
    /// The whole deployment: bootstrap, prechecks, pull, deploy,
    /// post-deploy.
    Deploy,
    /// What changed since the last successful deployment.
    Changes,
    /// The actions asked for.
    Actions,
}

impl RunKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RunKind::Deploy => "deploy",
            RunKind::Changes => "changes",
            RunKind::Actions => "actions",
        }
    }

    pub fn parse(text: &str) -> Option<RunKind> {
        [RunKind::Deploy, RunKind::Changes, RunKind::Actions]
            .into_iter()
            .find(|k| k.as_str() == text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_reads_back_from_its_text() {
        for s in RunStatus::ALL {
            assert_eq!(RunStatus::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        for s in StepStatus::ALL {
            assert_eq!(StepStatus::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        for s in TaskStatus::ALL {
            assert_eq!(TaskStatus::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(RunStatus::parse("done"), None);
    }

    #[test]
    fn only_the_last_four_run_statuses_are_final() {
        let final_: Vec<_> = RunStatus::ALL
            .into_iter()
            .filter(|s| s.is_final())
            .collect();
        assert_eq!(
            final_,
            [
                RunStatus::Successful,
                RunStatus::Failed,
                RunStatus::Canceled,
                RunStatus::Error
            ]
        );
    }
}
