//! Deployments run from Mosaic (SEMANTICS §15): a run of kolla-ansible
//! actions, driven through ansible-runner by the server. Core decides
//! everything a run is — which steps with which limits (`plan`), the
//! exact command line of each (`action`), what it froze (`snapshot`),
//! what its events mean (`event`, folded by `view`), what its end does to
//! nodes and the environment (`outcome`) and which secrets never leave
//! it (`secret`); the server only starts processes, stores and streams.

pub mod action;
pub mod event;
pub mod outcome;
pub mod plan;
pub mod playbook;
pub mod record;
pub mod secret;
pub mod snapshot;
pub mod status;
pub mod view;

pub use action::{Action, Paths, command_line};
pub use event::{JobEvent, RunEvent};
pub use plan::{PlannedStep, RunPlan, RunRefusal, RunRequest, plan};
pub use record::{
    Failure, HistoryRow, HostState, HostSummary, Progress, Relaunch, RelaunchHosts, Run, Runner,
    SshKey, Step,
};
pub use secret::Redactor;
pub use snapshot::{Changes, Snapshot};
pub use status::{
    Connection, EnvironmentStatus, ErrorType, RunKind, RunStatus, StepStatus, TaskStatus,
};
pub use view::{RunView, Touched};
