//! A run as it goes, folded from its events (STYLE, "A live page fed by
//! Server-Sent Events"): the run's status and steps, each host's counts
//! and current task, the failures so far. The server keeps one per run it
//! supervises (the host summaries it stores), the CLI's `--follow` and the
//! Deploy tab's live view fold the stream into one. Events already seen
//! (a reconnect with `Last-Event-ID`) change nothing.

use std::collections::{BTreeMap, BTreeSet};

use super::event::RunEvent;
use super::record::{Failure, HostSummary, Run};
use super::status::{RunStatus, StepStatus, TaskStatus};

/// Ansible's counts for one host.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counts {
    ok: u32,
    changed: u32,
    failures: u32,
    unreachable: u32,
    skipped: u32,
    ignored: u32,
    rescued: u32,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.ok += other.ok;
        self.changed += other.changed;
        self.failures += other.failures;
        self.unreachable += other.unreachable;
        self.skipped += other.skipped;
        self.ignored += other.ignored;
        self.rescued += other.rescued;
    }

    /// What one result adds, as Ansible counts it (an ignored failure is
    /// ok too; a rescue is known only from the step's stats).
    fn of(status: TaskStatus) -> Counts {
        let mut c = Counts::default();
        match status {
            TaskStatus::Ok => c.ok = 1,
            TaskStatus::Changed => (c.ok, c.changed) = (1, 1),
            TaskStatus::Failed => c.failures = 1,
            TaskStatus::Skipped => c.skipped = 1,
            TaskStatus::Unreachable => c.unreachable = 1,
            TaskStatus::Ignored => (c.ok, c.ignored) = (1, 1),
            TaskStatus::Rescued => c.rescued = 1,
        }
        c
    }

    fn of_stats(event: &RunEvent, host: &str) -> Counts {
        Counts {
            ok: event.stat("ok", host),
            changed: event.stat("changed", host),
            failures: event.stat("failures", host),
            unreachable: event.stat("dark", host),
            skipped: event.stat("skipped", host),
            ignored: event.stat("ignored", host),
            rescued: event.stat("rescued", host),
        }
    }
}

/// One host as the fold knows it: counts given when it was made, those of
/// the steps it saw end (their stats) and those of the step under way.
#[derive(Debug, Clone, Default)]
struct HostState {
    node_id: Option<i64>,
    base: Counts,
    settled: Counts,
    live: Counts,
    current_task: Option<String>,
    /// This step's failures not yet known to be rescued or not.
    step_failures: Vec<i64>,
}

/// A run folded from its events.
#[derive(Debug, Clone)]
pub struct RunView {
    pub run: Run,
    hosts: BTreeMap<String, HostState>,
    /// The failures so far (rescued ones leave it at their step's end).
    pub failures: Vec<Failure>,
    /// The step whose `step_start` the fold saw: its stats are exact.
    seen_start: Option<u32>,
    /// A step's stats arrived that the fold did not see start: its counts
    /// are no longer exact; read them again.
    stale: bool,
    rescued: Vec<i64>,
}

impl RunView {
    /// The fold of a run read at `run.last_seq`, with its hosts as they
    /// were then.
    pub fn new(run: Run, hosts: Vec<HostSummary>) -> RunView {
        let hosts = hosts
            .into_iter()
            .map(|h| {
                let state = HostState {
                    node_id: h.node_id,
                    base: Counts {
                        ok: h.ok,
                        changed: h.changed,
                        failures: h.failures,
                        unreachable: h.unreachable,
                        skipped: h.skipped,
                        ignored: h.ignored,
                        rescued: h.rescued,
                    },
                    current_task: h.current_task,
                    ..HostState::default()
                };
                (h.host, state)
            })
            .collect();
        RunView {
            run,
            hosts,
            failures: Vec::new(),
            seen_start: None,
            stale: false,
            rescued: Vec::new(),
        }
    }

    /// Folds `event` in; false (and nothing changes) when its sequence
    /// was seen already.
    pub fn apply(&mut self, event: &RunEvent) -> bool {
        if event.seq <= self.run.last_seq {
            return false;
        }
        self.run.last_seq = event.seq;
        match event.event.as_str() {
            "step_start" => self.step_started(event),
            "step_end" => self.step_ended(event),
            "run_end" => self.run_ended(event),
            "playbook_on_play_start" => self.run.progress.plays_started += 1,
            "runner_on_start" => {
                if let Some(host) = self.host_mut(event) {
                    host.current_task = event.task.clone();
                }
            }
            "playbook_on_stats" => self.stats(event),
            _ => {
                if let Some(status) = event.status {
                    self.result(event, status);
                }
            }
        }
        true
    }

    fn step_started(&mut self, event: &RunEvent) {
        self.seen_start = Some(event.step);
        self.run.status = RunStatus::Running;
        if let Some(step) = self.run.steps.get_mut(event.step as usize) {
            step.status = StepStatus::Running;
            step.started_at = Some(event.created.clone());
            if let Some(argv) = event.data.as_ref().and_then(|d| d.get("argv")) {
                step.argv = serde_json::from_value(argv.clone()).unwrap_or_default();
            }
        }
    }

    fn step_ended(&mut self, event: &RunEvent) {
        if let Some(step) = self.run.steps.get_mut(event.step as usize) {
            if let Some(status) = event.carried_status::<StepStatus>() {
                step.status = status;
            }
            step.rc = event
                .data
                .as_ref()
                .and_then(|d| d.get("rc"))
                .and_then(serde_json::Value::as_i64)
                .and_then(|rc| i32::try_from(rc).ok());
            step.finished_at = Some(event.created.clone());
        }
        for host in self.hosts.values_mut() {
            host.current_task = None;
        }
    }

    fn run_ended(&mut self, event: &RunEvent) {
        if let Some(status) = event.carried_status::<RunStatus>() {
            self.run.status = status;
        }
        self.run.message = event.message.clone();
        self.run.finished_at = Some(event.created.clone());
        for step in &mut self.run.steps {
            if matches!(step.status, StepStatus::Pending | StepStatus::Running) {
                step.status = StepStatus::Skipped;
            }
        }
    }

    fn host_mut(&mut self, event: &RunEvent) -> Option<&mut HostState> {
        let name = event.host.as_ref()?;
        let host = self.hosts.entry(name.clone()).or_default();
        if event.node_id.is_some() {
            host.node_id = event.node_id;
        }
        Some(host)
    }

    fn result(&mut self, event: &RunEvent, status: TaskStatus) {
        let Some(host) = self.host_mut(event) else {
            return;
        };
        host.live.add(Counts::of(status));
        host.current_task = None;
        if matches!(status, TaskStatus::Failed | TaskStatus::Unreachable) {
            if status == TaskStatus::Failed {
                host.step_failures.push(event.seq);
            }
            let failure = Failure {
                seq: event.seq,
                host: event.host.clone().unwrap_or_default(),
                node_id: event.node_id,
                task: event.task.clone().unwrap_or_default(),
                status,
                message: event.message.clone(),
            };
            self.failures.push(failure);
        }
    }

    /// A step's stats: its counts are Ansible's own from now on; the
    /// failures Ansible counts as rescued are those but the last
    /// `failures` of each host (a failure not rescued ends the host's
    /// playbook).
    fn stats(&mut self, event: &RunEvent) {
        if self.seen_start != Some(event.step) {
            self.stale = true;
        }
        for name in event.stat_hosts() {
            self.hosts.entry(name).or_default();
        }
        let mut rescued = Vec::new();
        for (name, host) in &mut self.hosts {
            host.settled.add(Counts::of_stats(event, name));
            host.live = Counts::default();
            let kept = event.stat("failures", name) as usize;
            let failed = std::mem::take(&mut host.step_failures);
            let cut = failed.len().saturating_sub(kept);
            rescued.extend_from_slice(&failed[..cut]);
        }
        self.failures.retain(|f| !rescued.contains(&f.seq));
        self.rescued.extend(rescued);
    }

    /// The sequences of the failures found rescued since the last call
    /// (their history rows become `rescued`).
    pub fn take_rescued(&mut self) -> Vec<i64> {
        std::mem::take(&mut self.rescued)
    }

    /// Whether a step ended that the fold did not see start: its counts
    /// should be read again (`GET …/hosts`).
    pub fn is_stale(&self) -> bool {
        self.stale
    }

    /// Each host's summary, by host name.
    pub fn hosts(&self) -> Vec<HostSummary> {
        self.hosts
            .iter()
            .map(|(name, h)| summary(name, h))
            .collect()
    }

    /// The summary of `name`.
    pub fn host(&self, name: &str) -> Option<HostSummary> {
        self.hosts.get(name).map(|h| summary(name, h))
    }
}

/// Which hosts' rows the events folded since the last [`Touched::take`]
/// changed, so that a page showing a row per host changes those and no
/// other.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Touched {
    #[default]
    Nothing,
    Hosts(BTreeSet<String>),
    Every,
}

impl Touched {
    /// Notes what `event`, once applied, changed: a task's start or result
    /// changes its host's row; a step's stats (every host's counts) and the
    /// run's end (every host's state) change any; the others none.
    pub fn note(&mut self, event: &RunEvent) {
        match (event.event.as_str(), &event.host) {
            ("playbook_on_stats" | "run_end", _) => *self = Touched::Every,
            (_, Some(host)) if event.event == "runner_on_start" || event.status.is_some() => {
                match self {
                    Touched::Every => {}
                    Touched::Hosts(hosts) => {
                        hosts.insert(host.clone());
                    }
                    Touched::Nothing => *self = Touched::Hosts(BTreeSet::from([host.clone()])),
                }
            }
            _ => {}
        }
    }

    /// What was noted, leaving nothing.
    pub fn take(&mut self) -> Touched {
        std::mem::take(self)
    }
}

fn summary(name: &str, h: &HostState) -> HostSummary {
    let mut c = h.base;
    c.add(h.settled);
    c.add(h.live);
    HostSummary {
        host: name.to_owned(),
        node_id: h.node_id,
        ok: c.ok,
        changed: c.changed,
        failures: c.failures,
        unreachable: c.unreachable,
        skipped: c.skipped,
        ignored: c.ignored,
        rescued: c.rescued,
        current_task: h.current_task.clone(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::super::action::Action;
    use super::super::record::{Progress, Step};
    use super::super::status::Connection;
    use super::super::status::RunKind;
    use super::*;

    fn run() -> Run {
        let step = |index, action| Step {
            index,
            action,
            limit: vec![],
            status: StepStatus::Pending,
            argv: vec![],
            rc: None,
            plays: 2,
            started_at: None,
            finished_at: None,
        };
        Run {
            id: 1,
            cluster_id: 1,
            deployer: "kolla-ansible".into(),
            kind: RunKind::Actions,
            status: RunStatus::Pending,
            connection: Connection::Local,
            steps: vec![step(0, Action::Prechecks), step(1, Action::Deploy)],
            nodes: vec![],
            changes: None,
            files: BTreeMap::new(),
            progress: Progress {
                plays_started: 0,
                plays_total: 4,
            },
            last_seq: 0,
            message: None,
            created_by: "admin".into(),
            created_at: "t".into(),
            finished_at: None,
        }
    }

    fn e(seq: i64, event: &str, host: Option<&str>, status: Option<TaskStatus>) -> RunEvent {
        RunEvent {
            seq,
            event: event.into(),
            host: host.map(str::to_owned),
            task: Some(format!("task {seq}")),
            status,
            ..RunEvent::default()
        }
    }

    fn stats(seq: i64, json: serde_json::Value) -> RunEvent {
        RunEvent {
            seq,
            event: "playbook_on_stats".into(),
            data: Some(json),
            ..RunEvent::default()
        }
    }

    fn step_start(seq: i64) -> RunEvent {
        RunEvent::step_start(
            seq,
            0,
            Action::Prechecks,
            &[],
            &["ansible-playbook".into()],
            "t0".into(),
        )
    }

    #[test]
    fn a_task_touches_its_hosts_row_and_stats_or_the_end_every_row() {
        let hosts = |names: &[&str]| Touched::Hosts(names.iter().map(|n| (*n).into()).collect());
        let mut touched = Touched::default();
        touched.note(&step_start(1));
        touched.note(&e(2, "playbook_on_play_start", None, None));
        assert_eq!(touched.take(), Touched::Nothing);
        touched.note(&e(3, "runner_on_start", Some("a"), None));
        touched.note(&e(4, "runner_on_ok", Some("b"), Some(TaskStatus::Ok)));
        touched.note(&e(5, "runner_on_ok", Some("a"), Some(TaskStatus::Ok)));
        touched.note(&e(6, "verbose", Some("c"), None));
        assert_eq!(touched.take(), hosts(&["a", "b"]));
        assert_eq!(touched.take(), Touched::Nothing, "taken");
        touched.note(&e(7, "runner_on_ok", Some("a"), Some(TaskStatus::Ok)));
        touched.note(&stats(8, serde_json::json!({})));
        touched.note(&e(9, "runner_on_ok", Some("a"), Some(TaskStatus::Ok)));
        assert_eq!(touched.take(), Touched::Every);
        touched.note(&e(10, "run_end", None, None));
        assert_eq!(touched.take(), Touched::Every);
    }

    #[test]
    fn results_count_as_ansible_counts_them_and_stats_settle_them() {
        let mut view = RunView::new(run(), vec![]);
        view.apply(&step_start(1));
        view.apply(&e(2, "playbook_on_play_start", None, None));
        view.apply(&e(3, "runner_on_start", Some("a"), None));
        assert_eq!(
            view.host("a").unwrap().current_task.as_deref(),
            Some("task 3")
        );
        view.apply(&e(4, "runner_on_ok", Some("a"), Some(TaskStatus::Changed)));
        view.apply(&e(
            5,
            "runner_on_failed",
            Some("b"),
            Some(TaskStatus::Ignored),
        ));
        view.apply(&e(
            6,
            "runner_on_failed",
            Some("c"),
            Some(TaskStatus::Failed),
        ));
        view.apply(&e(7, "runner_on_ok", Some("c"), Some(TaskStatus::Ok)));
        view.apply(&e(
            8,
            "runner_on_failed",
            Some("d"),
            Some(TaskStatus::Failed),
        ));
        let a = view.host("a").unwrap();
        assert_eq!((a.ok, a.changed, a.current_task), (1, 1, None));
        let b = view.host("b").unwrap();
        assert_eq!((b.ok, b.ignored), (1, 1));
        assert_eq!(view.failures.len(), 2);
        assert_eq!(view.run.progress.plays_started, 1);
        // c's failure was rescued; d's was not.
        view.apply(&stats(
            9,
            serde_json::json!({"ok": {"a": 1, "b": 1, "c": 1}, "changed": {"a": 1},
                "ignored": {"b": 1}, "rescued": {"c": 1}, "failures": {"d": 1}}),
        ));
        assert_eq!(view.take_rescued(), [6]);
        assert_eq!(view.failures.iter().map(|f| f.seq).collect::<Vec<_>>(), [8]);
        let c = view.host("c").unwrap();
        assert_eq!((c.ok, c.failures, c.rescued), (1, 0, 1));
        assert!(!view.is_stale());
    }

    #[test]
    fn an_event_seen_twice_is_folded_once() {
        let mut view = RunView::new(run(), vec![]);
        assert!(view.apply(&step_start(1)));
        assert!(view.apply(&e(2, "runner_on_ok", Some("a"), Some(TaskStatus::Ok))));
        assert!(!view.apply(&e(2, "runner_on_ok", Some("a"), Some(TaskStatus::Ok))));
        assert!(!view.apply(&e(1, "runner_on_ok", Some("a"), Some(TaskStatus::Ok))));
        assert_eq!(view.host("a").unwrap().ok, 1);
    }

    #[test]
    fn steps_and_the_run_follow_mosaics_events() {
        let mut view = RunView::new(run(), vec![]);
        view.apply(&step_start(1));
        assert_eq!(view.run.steps[0].status, StepStatus::Running);
        assert_eq!(view.run.steps[0].argv, ["ansible-playbook"]);
        view.apply(&RunEvent::step_end(
            2,
            0,
            StepStatus::Failed,
            Some(2),
            "t1".into(),
        ));
        view.apply(&RunEvent::run_end(
            3,
            0,
            RunStatus::Failed,
            Some("prechecks failed"),
            "t2".into(),
        ));
        assert_eq!(view.run.steps[0].rc, Some(2));
        assert_eq!(view.run.steps[1].status, StepStatus::Skipped);
        assert_eq!(view.run.status, RunStatus::Failed);
        assert_eq!(view.run.message.as_deref(), Some("prechecks failed"));
    }

    #[test]
    fn joined_mid_step_the_counts_given_are_kept_and_a_stats_marks_them_stale() {
        let mut r = run();
        r.last_seq = 10;
        let given = HostSummary {
            host: "a".into(),
            ok: 4,
            ..HostSummary::default()
        };
        let mut view = RunView::new(r, vec![given]);
        view.apply(&e(11, "runner_on_ok", Some("a"), Some(TaskStatus::Ok)));
        assert_eq!(view.host("a").unwrap().ok, 5);
        view.apply(&stats(12, serde_json::json!({"ok": {"a": 5}})));
        assert!(view.is_stale());
    }
}
