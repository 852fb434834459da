//! A run's events: ansible-runner's job events (`job_events/N-UUID.json`)
//! read as they are written, and what Mosaic keeps of each — numbered by
//! one sequence per run, with its step, host, node, task and outcome, its
//! output redacted — as `GET /api/v1/runs/{id}/events` and the stream
//! hand them out. Mosaic adds three events of its own: `step_start`,
//! `step_end` and `run_end`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::action::Action;
use super::record::HistoryRow;
use super::secret::Redactor;
use super::status::{RunStatus, StepStatus, TaskStatus};

/// The longest failure message kept (bytes); the whole output is in the
/// run's `stdout`.
pub const MESSAGE_LIMIT: usize = 4096;

/// One of ansible-runner's job events, as much of it as Mosaic reads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct JobEvent {
    #[serde(default)]
    pub counter: i64,
    #[serde(default)]
    pub event: String,
    #[serde(default)]
    pub stdout: String,
    #[serde(default)]
    pub created: String,
    #[serde(default)]
    pub event_data: JobEventData,
}

/// The part of an event's `event_data` Mosaic reads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct JobEventData {
    pub host: Option<String>,
    pub play: Option<String>,
    pub task: Option<String>,
    pub role: Option<String>,
    pub start: Option<String>,
    pub end: Option<String>,
    pub ignore_errors: Option<bool>,
    pub res: Option<Value>,
    /// `playbook_on_stats`: count → host → number.
    #[serde(flatten)]
    pub rest: serde_json::Map<String, Value>,
}

impl JobEvent {
    /// An event file's bytes read.
    pub fn parse(bytes: &[u8]) -> Result<JobEvent, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// What the task did on the host, for a task's result on one host
    /// (loop items are not results of their own).
    pub fn task_status(&self) -> Option<TaskStatus> {
        let data = &self.event_data;
        match self.event.as_str() {
            "runner_on_ok" => {
                let changed = data
                    .res
                    .as_ref()
                    .and_then(|r| r.get("changed"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                Some(if changed {
                    TaskStatus::Changed
                } else {
                    TaskStatus::Ok
                })
            }
            "runner_on_failed" if data.ignore_errors == Some(true) => Some(TaskStatus::Ignored),
            "runner_on_failed" => Some(TaskStatus::Failed),
            "runner_on_skipped" => Some(TaskStatus::Skipped),
            "runner_on_unreachable" => Some(TaskStatus::Unreachable),
            _ => None,
        }
    }

    /// A failure's message (`res.msg`, else its `stderr`), when the task
    /// failed or the host was unreachable.
    fn message(&self) -> Option<String> {
        if !matches!(
            self.task_status(),
            Some(TaskStatus::Failed | TaskStatus::Ignored | TaskStatus::Unreachable)
        ) {
            return None;
        }
        let res = self.event_data.res.as_ref()?;
        let text = ["msg", "stderr", "module_stderr"].iter().find_map(|key| {
            res.get(*key)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        })?;
        Some(truncate(text, MESSAGE_LIMIT).to_owned())
    }

    /// The counts of a `playbook_on_stats` event.
    fn stats(&self) -> Option<Value> {
        if self.event != "playbook_on_stats" {
            return None;
        }
        let counts: serde_json::Map<String, Value> = STATS_KEYS
            .iter()
            .filter_map(|key| {
                let value = self.event_data.rest.get(*key)?;
                value
                    .is_object()
                    .then(|| ((*key).to_owned(), value.clone()))
            })
            .collect();
        Some(Value::Object(counts))
    }
}

/// The counts Ansible's `playbook_on_stats` keeps per host.
pub const STATS_KEYS: [&str; 7] = [
    "ok", "changed", "failures", "dark", "skipped", "ignored", "rescued",
];

/// `text` cut to at most `limit` bytes, on a character boundary.
pub fn truncate(text: &str, limit: usize) -> &str {
    if text.len() <= limit {
        return text;
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// One event of a run, as Mosaic keeps it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RunEvent {
    /// The run's sequence: 1, 2, … in the order the events happened.
    pub seq: i64,
    /// The index of the step (0 for the first).
    pub step: u32,
    /// ansible-runner's event (`runner_on_ok`, `playbook_on_stats`, …) or
    /// Mosaic's (`step_start`, `step_end`, `run_end`).
    pub event: String,
    /// When it happened (RFC 3339).
    pub created: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The node the host is, when it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// For a task's result on a host: what it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<TaskStatus>,
    /// For a failure: its message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_start: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_end: Option<String>,
    /// What it printed (redacted).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stdout: String,
    /// `playbook_on_stats`: the counts per host; `step_start`: the action,
    /// its limit and argv; `step_end`: its status and exit code;
    /// `run_end`: the run's status and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl RunEvent {
    /// What Mosaic keeps of `job`, the `seq`th event of the run, in step
    /// `step`: `node_of` names the node a host is; every text through
    /// `redactor`.
    pub fn from_job(
        job: &JobEvent,
        seq: i64,
        step: u32,
        node_of: impl Fn(&str) -> Option<i64>,
        redactor: &Redactor,
    ) -> RunEvent {
        let data = &job.event_data;
        let text = |t: &Option<String>| t.as_deref().map(|t| redactor.redact(t).into_owned());
        RunEvent {
            seq,
            step,
            event: job.event.clone(),
            created: job.created.clone(),
            node_id: data.host.as_deref().and_then(&node_of),
            host: data.host.clone(),
            play: text(&data.play),
            task: text(&data.task),
            role: data.role.clone(),
            status: job.task_status(),
            message: job.message().map(|m| redactor.redact(&m).into_owned()),
            time_start: data.start.clone(),
            time_end: data.end.clone(),
            stdout: redactor.redact(&job.stdout).into_owned(),
            data: job.stats(),
        }
    }

    /// Mosaic's `step_start`.
    pub fn step_start(
        seq: i64,
        step: u32,
        action: Action,
        limit: &[String],
        argv: &[String],
        created: String,
    ) -> RunEvent {
        RunEvent {
            seq,
            step,
            event: "step_start".into(),
            created,
            data: Some(serde_json::json!({"action": action, "limit": limit, "argv": argv})),
            ..RunEvent::default()
        }
    }

    /// Mosaic's `step_end`.
    pub fn step_end(
        seq: i64,
        step: u32,
        status: StepStatus,
        rc: Option<i32>,
        created: String,
    ) -> RunEvent {
        RunEvent {
            seq,
            step,
            event: "step_end".into(),
            created,
            data: Some(serde_json::json!({"status": status, "rc": rc})),
            ..RunEvent::default()
        }
    }

    /// Mosaic's `run_end`: the last event of a run.
    pub fn run_end(
        seq: i64,
        step: u32,
        status: RunStatus,
        message: Option<&str>,
        created: String,
    ) -> RunEvent {
        RunEvent {
            seq,
            step,
            event: "run_end".into(),
            created,
            message: message.map(str::to_owned),
            data: Some(serde_json::json!({"status": status})),
            ..RunEvent::default()
        }
    }

    /// A `playbook_on_stats`'s count `key` for `host`.
    pub fn stat(&self, key: &str, host: &str) -> u32 {
        self.data
            .as_ref()
            .and_then(|d| d.get(key))
            .and_then(|m| m.get(host))
            .and_then(Value::as_u64)
            .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// The hosts a `playbook_on_stats` counts.
    pub fn stat_hosts(&self) -> Vec<String> {
        let mut hosts: Vec<String> = STATS_KEYS
            .iter()
            .filter_map(|key| self.data.as_ref()?.get(*key)?.as_object())
            .flat_map(|m| m.keys().cloned())
            .collect();
        hosts.sort();
        hosts.dedup();
        hosts
    }

    /// The history row of a task's result on a host, run in a step of
    /// `action` (none for other events).
    pub fn history_row(&self, action: Action) -> Option<HistoryRow> {
        Some(HistoryRow {
            task_name: self.task.clone().unwrap_or_default(),
            node_id: self.node_id,
            status: self.status?,
            time_start: self.time_start.clone(),
            time_end: self.time_end.clone(),
            play: self.play.clone(),
            role: self.role.clone(),
            step: action,
            host: self.host.clone().unwrap_or_default(),
            message: self.message.clone(),
        })
    }

    /// The status a Mosaic `step_end` or `run_end` carries.
    pub fn carried_status<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        serde_json::from_value(self.data.as_ref()?.get("status")?.clone()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(json: &str) -> JobEvent {
        JobEvent::parse(json.as_bytes()).unwrap()
    }

    fn event(json: &str) -> RunEvent {
        RunEvent::from_job(
            &job(json),
            7,
            1,
            |h| (h == "ctl-1").then_some(3),
            &Redactor::new(["s3cr3t-passw0rd".to_owned()]),
        )
    }

    #[test]
    fn a_result_says_what_the_task_did() {
        for (name, extra, status) in [
            (
                "runner_on_ok",
                r#""res": {"changed": false}"#,
                TaskStatus::Ok,
            ),
            (
                "runner_on_ok",
                r#""res": {"changed": true}"#,
                TaskStatus::Changed,
            ),
            (
                "runner_on_failed",
                r#""res": {"msg": "x"}"#,
                TaskStatus::Failed,
            ),
            (
                "runner_on_failed",
                r#""ignore_errors": true"#,
                TaskStatus::Ignored,
            ),
            ("runner_on_skipped", r#""start": "t""#, TaskStatus::Skipped),
            (
                "runner_on_unreachable",
                r#""res": {"unreachable": true}"#,
                TaskStatus::Unreachable,
            ),
        ] {
            let json =
                format!(r#"{{"event": "{name}", "event_data": {{"host": "ctl-1", {extra}}}}}"#);
            assert_eq!(event(&json).status, Some(status), "{json}");
        }
        assert_eq!(
            event(r#"{"event": "runner_item_on_ok", "event_data": {}}"#).status,
            None
        );
    }

    #[test]
    fn an_event_keeps_its_host_node_task_and_redacted_text() {
        let e = event(
            r#"{"counter": 12, "event": "runner_on_failed", "stdout": "fatal: s3cr3t-passw0rd",
                "created": "2026-12-07T10:00:00+00:00",
                "event_data": {"host": "ctl-1", "play": "Apply role mariadb", "task": "Check",
                "role": "mariadb", "start": "a", "end": "b",
                "res": {"msg": "password s3cr3t-passw0rd refused", "ansible_facts": {"big": 1}}}}"#,
        );
        assert_eq!((e.seq, e.step, e.node_id), (7, 1, Some(3)));
        assert_eq!(e.role.as_deref(), Some("mariadb"));
        assert_eq!(e.message.as_deref(), Some("password ******** refused"));
        assert_eq!(e.stdout, "fatal: ********");
        assert_eq!(
            (e.time_start.as_deref(), e.time_end.as_deref()),
            (Some("a"), Some("b"))
        );
        assert!(e.data.is_none(), "a result's `res` is not kept");
    }

    #[test]
    fn stats_are_kept_as_counts_per_host() {
        let e = event(
            r#"{"event": "playbook_on_stats", "event_data": {"ok": {"ctl-1": 3, "cmp-1": 1},
                "failures": {"cmp-1": 1}, "dark": {}, "processed": {"ctl-1": 1}, "artifact_data": {}}}"#,
        );
        assert_eq!(e.stat("ok", "ctl-1"), 3);
        assert_eq!(e.stat("failures", "cmp-1"), 1);
        assert_eq!(e.stat("rescued", "cmp-1"), 0);
        assert_eq!(e.stat_hosts(), ["cmp-1", "ctl-1"]);
        assert!(e.data.as_ref().unwrap().get("processed").is_none());
    }

    #[test]
    fn an_event_without_data_is_read() {
        let e = event(r#"{"event": "verbose", "counter": 1, "stdout": "ERROR! no such playbook"}"#);
        assert_eq!(e.event, "verbose");
        assert_eq!(e.host, None);
        assert_eq!(e.stdout, "ERROR! no such playbook");
    }

    #[test]
    fn truncation_keeps_characters_whole() {
        assert_eq!(truncate("héllo", 2), "h");
        assert_eq!(truncate("héllo", 3), "hé");
        assert_eq!(truncate("abc", 10), "abc");
    }
}
