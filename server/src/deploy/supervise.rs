//! Driving one run: its files written, each step's driver started (or,
//! taken up after a restart, found again), its events read and stored in
//! batches as they come, a cancel carried out, and its end recorded —
//! whatever happens, the outcome reaches the row: a failure of the
//! supervisor itself ends the run as `error`.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use mosaic_core::api::{Run, RunEvent, RunStatus, StepStatus};
use mosaic_core::run::outcome::failure_message;
use mosaic_core::run::{JobEvent, Paths, Redactor, RunView, Snapshot, command_line};
use rustix::process::Signal;
use tokio_util::sync::CancellationToken;

use super::process::{self, RUN_MARKER};
use super::runtime::Venv;
use super::secrets;
use super::tail::Tail;
use super::{Deployments, HEARTBEAT};
use crate::db::{Batch, Db, DbError};
use crate::timestamp::{now_millis, rfc3339_millis};

/// The driver Mosaic runs each step with (written into the run's
/// directory).
const DRIVER: &str = include_str!("driver.py");

/// How long a driver has to stop after SIGTERM before it is killed.
const GRACE: Duration = Duration::from_secs(5);

/// How often the database is asked whether a run was canceled (another
/// server may have been asked).
const CANCEL_POLL: Duration = Duration::from_secs(1);

/// Why driving stopped before the run ended.
#[derive(Debug)]
enum Stop {
    /// Another server drives the run now.
    Lost,
    /// Something failed here: the run ends as `error` with it.
    Failed(anyhow::Error),
}

impl From<DbError> for Stop {
    fn from(e: DbError) -> Stop {
        match e {
            DbError::Moved(_) => Stop::Lost,
            e => Stop::Failed(e.into()),
        }
    }
}

impl From<anyhow::Error> for Stop {
    fn from(e: anyhow::Error) -> Stop {
        Stop::Failed(e)
    }
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        Stop::Failed(e.into())
    }
}

/// How a step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StepEnd {
    Succeeded,
    Failed(Option<i32>),
    Canceled,
    /// Its runner is gone and said nothing of how it ended.
    Lost,
}

/// Drives run `run_id` to its end (or until another server takes it).
pub(super) async fn drive(
    deployments: Arc<Deployments>,
    db: Db,
    run_id: i64,
    cancel: CancellationToken,
) {
    let outcome = match Driver::open(deployments.clone(), db.clone(), run_id, cancel).await {
        Ok(mut driver) => {
            let outcome = driver.run().await;
            if let Err(Stop::Failed(e)) = &outcome {
                driver.fail(e).await;
            }
            outcome
        }
        Err(e) => Err(e),
    };
    match outcome {
        Ok(()) => {}
        Err(Stop::Lost) => tracing::info!("run {run_id} is driven by another server now"),
        Err(Stop::Failed(e)) => tracing::error!("run {run_id}: {e:#}"),
    }
}

/// What driving a run works with.
struct Driver {
    deployments: Arc<Deployments>,
    db: Db,
    run: Run,
    view: RunView,
    venv: Venv,
    dir: PathBuf,
    passwords: PathBuf,
    key: PathBuf,
    /// Host name → node id.
    nodes: Arc<HashMap<String, i64>>,
    redactor: Arc<Redactor>,
    cancel: CancellationToken,
    /// What every process of the run carries in its environment.
    marker: String,
    next_seq: i64,
    heartbeat: Instant,
    cancel_polled: Instant,
}

impl Driver {
    async fn open(
        deployments: Arc<Deployments>,
        db: Db,
        run_id: i64,
        cancel: CancellationToken,
    ) -> Result<Driver, Stop> {
        let run = db
            .run(run_id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("run {run_id} is gone"))?;
        let seen = db
            .supervision(run_id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("run {run_id} is gone"))?;
        let snapshot = db
            .run_snapshot(run_id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("run {run_id} has no snapshot"))?;
        let data_dir = deployments
            .data_dir()
            .map_err(|e| anyhow::anyhow!(e))?
            .to_path_buf();
        let dir = data_dir.join("runs").join(run_id.to_string());
        let nodes = snapshot
            .hosts
            .iter()
            .map(|h| (h.name.clone(), h.node))
            .collect();
        let mut driver = Driver {
            view: RunView::new(fresh(&run), Vec::new()),
            next_seq: run.last_seq + 1,
            venv: Venv {
                dir: PathBuf::from(&seen.venv),
            },
            passwords: secrets::passwords_path(&data_dir, run.cluster_id, &run.deployer),
            key: secrets::key_path(&data_dir, run.cluster_id, &run.deployer),
            run,
            dir,
            nodes: Arc::new(nodes),
            marker: process::run_marker(run_id, &data_dir),
            redactor: Arc::new(Redactor::default()),
            cancel,
            heartbeat: Instant::now(),
            cancel_polled: Instant::now(),
            deployments,
            db,
        };
        driver.view = driver.replayed().await?;
        driver.prepare(&snapshot).await?;
        Ok(driver)
    }

    /// The fold of every event stored so far (none for a new run).
    async fn replayed(&self) -> Result<RunView, Stop> {
        let mut view = self.view.clone();
        let mut after = 0;
        loop {
            let events = self.db.run_events(self.run.id, after, 5_000).await?;
            let Some(last) = events.last() else {
                return Ok(view);
            };
            after = last.seq;
            for event in &events {
                view.apply(event);
            }
            view.take_rescued();
        }
    }

    /// The run's directory: its files (the snapshot) and the driver, and
    /// the environment's passwords, made once.
    async fn prepare(&mut self, snapshot: &Snapshot) -> Result<(), Stop> {
        let files = self.dir.join("files");
        let snapshot = snapshot.clone();
        let dir = self.dir.clone();
        let (passwords, venv) = (self.passwords.clone(), self.venv.clone());
        let key = self.key.clone();
        let redactor = tokio::task::spawn_blocking(move || -> anyhow::Result<Redactor> {
            write_files(&files, &snapshot)?;
            std::fs::write(dir.join("driver.py"), DRIVER)?;
            secrets::ensure_passwords(&passwords, &venv.example_passwords(), &venv.genpwd())
                .context("making the environment's passwords.yml with kolla-genpwd")?;
            secrets::redactor(&passwords, &key)
        })
        .await
        .map_err(|e| anyhow::anyhow!("preparing the run: {e}"))??;
        self.redactor = Arc::new(redactor);
        Ok(())
    }

    /// Every step from the first not ended, then the run's end.
    async fn run(&mut self) -> Result<(), Stop> {
        for index in 0..self.run.steps.len() {
            let step = self.view.run.steps[index].clone();
            let end = match step.status {
                StepStatus::Successful => continue,
                StepStatus::Pending if self.cancel_wanted().await? => StepEnd::Canceled,
                StepStatus::Pending => self.start(index).await?,
                StepStatus::Running => self.follow(index, None).await?,
                StepStatus::Failed => StepEnd::Failed(step.rc),
                StepStatus::Canceled | StepStatus::Skipped => StepEnd::Canceled,
            };
            if step.status == StepStatus::Pending && end == StepEnd::Canceled {
                return self
                    .finish(RunStatus::Canceled, None, StepStatus::Canceled)
                    .await;
            }
            self.kill_leftovers().await;
            let status = match end {
                StepEnd::Succeeded => StepStatus::Successful,
                StepEnd::Failed(_) | StepEnd::Lost => StepStatus::Failed,
                StepEnd::Canceled => StepStatus::Canceled,
            };
            if step.status != status {
                self.end_step(index, status, end).await?;
                self.hardware_found(index).await;
            }
            match end {
                StepEnd::Succeeded => {}
                StepEnd::Failed(rc) => {
                    let message = failure_message(step.action, rc, &self.view.hosts());
                    return self
                        .finish(RunStatus::Failed, Some(message), StepStatus::Failed)
                        .await;
                }
                StepEnd::Canceled => {
                    let message = "canceled".to_owned();
                    return self
                        .finish(RunStatus::Canceled, Some(message), StepStatus::Canceled)
                        .await;
                }
                StepEnd::Lost => {
                    let message = format!(
                        "runner lost: the runner of {} stopped without saying how it ended",
                        step.action
                    );
                    return self
                        .finish(RunStatus::Error, Some(message), StepStatus::Failed)
                        .await;
                }
            }
        }
        self.finish(RunStatus::Successful, None, StepStatus::Successful)
            .await
    }

    /// The nodes' hardware from the facts step `index` gathered; what
    /// refuses it is logged (the run goes on).
    async fn hardware_found(&self, index: usize) {
        let run = self.run.id;
        match super::found::import_found(&self.db, self.run.cluster_id, &self.step_dir(index)).await
        {
            Ok(None) => {}
            Ok(Some(report)) if report.problems.is_empty() => {
                tracing::info!("run {run}: hardware from the facts: {}", report.summary());
            }
            Ok(Some(report)) => {
                let problems: Vec<String> = report
                    .problems
                    .iter()
                    .map(|p| format!("{}: {}", p.file, p.message))
                    .collect();
                tracing::warn!(
                    "run {run}: the facts gathered were not imported: {}",
                    problems.join("; ")
                );
            }
            Err(e) => tracing::warn!("run {run}: importing the facts gathered: {e:#}"),
        }
    }

    fn seq(&mut self) -> i64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    fn step_dir(&self, index: usize) -> PathBuf {
        let action = self.run.steps[index].action;
        self.dir.join("steps").join(format!("{index}-{action}"))
    }

    /// Starts step `index`'s driver, then follows it.
    async fn start(&mut self, index: usize) -> Result<StepEnd, Stop> {
        let step = self.run.steps[index].clone();
        let dir = self.step_dir(index);
        if dir.exists() {
            // A start that did not reach the database: begin again.
            tokio::fs::remove_dir_all(&dir).await?;
        }
        tokio::fs::create_dir_all(&dir).await?;
        let argv = command_line(step.action, &self.paths(), &step.limit, self.run.connection);
        let child = self.spawn(&dir, &argv)?;
        let pid = child.id().map_or(0, i64::from);
        let seq = self.seq();
        let event = RunEvent::step_start(
            seq,
            step.index,
            step.action,
            &step.limit,
            &argv,
            rfc3339_millis(now_millis()),
        );
        let me = self.deployments.me().to_owned();
        let host = self.deployments.host.clone();
        let stored = self
            .db
            .step_started(self.run.id, &me, &event, pid, &host, now_millis())
            .await;
        if let Err(e) = stored {
            // Nobody would know of this runner: it does not run on.
            process::signal(pid, Signal::KILL);
            self.kill_leftovers().await;
            return Err(e.into());
        }
        self.view.apply(&event);
        self.deployments.publish(self.run.id, event.seq);
        self.follow(index, Some(child)).await
    }

    fn paths(&self) -> Paths {
        let files = self.dir.join("files");
        Paths {
            playbooks: self.venv.playbooks().display().to_string(),
            config_dir: files.display().to_string(),
            passwords: self.passwords.display().to_string(),
            inventory: files.join("inventory").display().to_string(),
        }
    }

    /// The driver of a step, detached: a process group of its own, and an
    /// environment of its own (nothing of the server's: no database URL
    /// reaches a task's facts).
    fn spawn(&self, dir: &Path, argv: &[String]) -> Result<tokio::process::Child, Stop> {
        let log = std::fs::File::create(dir.join("driver.log"))?;
        let path = format!(
            "{}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            self.venv.bin().display()
        );
        let home = std::env::var_os("HOME").unwrap_or_else(|| self.dir.clone().into_os_string());
        let mut command = tokio::process::Command::new(self.venv.python());
        command
            .arg(self.dir.join("driver.py"))
            .arg(dir)
            .arg(serde_json::to_string(argv).expect("strings serialize"))
            .current_dir(dir)
            .env_clear()
            .env("PATH", path)
            .env("HOME", home)
            .env("LANG", "C.UTF-8")
            .env("LC_ALL", "C.UTF-8")
            .env("ANSIBLE_NOCOLOR", "1")
            .env(RUN_MARKER, &self.marker)
            .stdin(std::process::Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .process_group(0);
        if let Some(agent) = std::env::var_os("SSH_AUTH_SOCK") {
            command.env("SSH_AUTH_SOCK", agent);
        }
        if self.key.is_file() {
            command.env("ANSIBLE_PRIVATE_KEY_FILE", &self.key);
        }
        command
            .spawn()
            .with_context(|| format!("cannot start {}", self.venv.python().display()))
            .map_err(Stop::Failed)
    }

    /// Reads step `index`'s events until its driver is gone; `child` when
    /// this server started it (else its process id is the row's).
    async fn follow(
        &mut self,
        index: usize,
        mut child: Option<tokio::process::Child>,
    ) -> Result<StepEnd, Stop> {
        let dir = self.step_dir(index);
        let offset = self.db.events_offset(self.run.id, index as u32).await?;
        let mut tail = Tail::new(dir.join("events.jsonl"), u64::try_from(offset).unwrap_or(0));
        let pid = match &child {
            Some(c) => c.id().map_or(0, i64::from),
            None => self
                .db
                .supervision(self.run.id)
                .await?
                .and_then(|s| s.runner_pid)
                .unwrap_or(0),
        };
        let mut stopping: Option<Instant> = None;
        loop {
            let lines = tail.read().await?;
            if !lines.is_empty() {
                self.ingest(index, lines, tail.offset).await?;
                continue;
            }
            let gone = match &mut child {
                Some(c) => c.try_wait()?.is_some(),
                None => !process::is_runs(pid, &self.marker),
            };
            if gone {
                loop {
                    let lines = tail.read().await?;
                    if lines.is_empty() {
                        break;
                    }
                    self.ingest(index, lines, tail.offset).await?;
                }
                return Ok(step_end(&dir, stopping.is_some()));
            }
            self.keep_driving().await?;
            if stopping.is_none() && self.cancel_wanted().await? {
                process::signal(pid, Signal::TERM);
                stopping = Some(Instant::now());
            }
            if stopping.is_some_and(|at| at.elapsed() > GRACE) {
                process::signal(pid, Signal::KILL);
                self.kill_leftovers().await;
            }
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(100)) => {}
                () = self.cancel.cancelled(), if stopping.is_none() => {}
            }
        }
    }

    /// Stores `lines` of step `index` (read up to `offset`) as one batch.
    async fn ingest(&mut self, index: usize, lines: Vec<Vec<u8>>, offset: u64) -> Result<(), Stop> {
        let step = index as u32;
        let first = self.next_seq;
        self.next_seq += lines.len() as i64;
        let (nodes, redactor) = (self.nodes.clone(), self.redactor.clone());
        let events = tokio::task::spawn_blocking(move || {
            read_events(&lines, first, step, &nodes, &redactor)
        })
        .await
        .map_err(|e| anyhow::anyhow!("reading events: {e}"))?;
        let action = self.run.steps[index].action;
        let mut touched = BTreeSet::new();
        let mut history = Vec::new();
        for event in &events {
            self.view.apply(event);
            touched.extend(event.host.clone());
            touched.extend(event.stat_hosts());
            history.extend(event.history_row(action).map(|row| (event.seq, row)));
        }
        let rescued = self.view.take_rescued();
        let hosts: Vec<_> = touched.iter().filter_map(|h| self.view.host(h)).collect();
        let batch = Batch {
            step,
            offset: i64::try_from(offset).unwrap_or(i64::MAX),
            events: &events,
            history: &history,
            rescued: &rescued,
            hosts: &hosts,
            plays_started: self.view.run.progress.plays_started,
        };
        let me = self.deployments.me().to_owned();
        self.db.store_batch(self.run.id, &me, &batch).await?;
        if let Some(last) = events.last() {
            self.deployments.publish(self.run.id, last.seq);
        }
        Ok(())
    }

    /// Says, now and then, that this server still drives the run.
    async fn keep_driving(&mut self) -> Result<(), Stop> {
        if self.heartbeat.elapsed() < HEARTBEAT {
            return Ok(());
        }
        self.heartbeat = Instant::now();
        let me = self.deployments.me().to_owned();
        if self.db.heartbeat(self.run.id, &me, now_millis()).await? {
            Ok(())
        } else {
            Err(Stop::Lost)
        }
    }

    /// Whether the run was asked to stop (here, or through another server).
    async fn cancel_wanted(&mut self) -> Result<bool, Stop> {
        if self.cancel.is_cancelled() {
            return Ok(true);
        }
        if self.cancel_polled.elapsed() < CANCEL_POLL {
            return Ok(false);
        }
        self.cancel_polled = Instant::now();
        let wanted = self
            .db
            .supervision(self.run.id)
            .await?
            .is_some_and(|s| s.cancel_requested);
        if wanted {
            self.cancel.cancel();
        }
        Ok(wanted)
    }

    async fn end_step(
        &mut self,
        index: usize,
        status: StepStatus,
        end: StepEnd,
    ) -> Result<(), Stop> {
        let rc = match end {
            StepEnd::Failed(rc) => rc,
            StepEnd::Succeeded => Some(0),
            _ => None,
        };
        let seq = self.seq();
        let event = RunEvent::step_end(seq, index as u32, status, rc, rfc3339_millis(now_millis()));
        let me = self.deployments.me().to_owned();
        self.db
            .step_ended(self.run.id, &me, &event, status, rc, now_millis())
            .await?;
        self.view.apply(&event);
        self.deployments.publish(self.run.id, event.seq);
        Ok(())
    }

    /// Kills whatever of the run still runs on this host (nothing is left
    /// running once a step or the run ended).
    async fn kill_leftovers(&self) {
        let run = self.run.id;
        let marker = self.marker.clone();
        let killed = tokio::task::spawn_blocking(move || process::kill_all(&marker))
            .await
            .unwrap_or(0);
        if killed > 0 {
            tracing::info!("run {run}: killed {killed} process(es) left by its runner");
        }
    }

    /// Ends the run as `status`: its row, its nodes and its environment,
    /// then its output kept as a file.
    async fn finish(
        &mut self,
        status: RunStatus,
        message: Option<String>,
        running_as: StepStatus,
    ) -> Result<(), Stop> {
        self.kill_leftovers().await;
        let seq = self.seq();
        let last_step = self.view.run.steps.len().saturating_sub(1) as u32;
        let event = RunEvent::run_end(
            seq,
            last_step,
            status,
            message.as_deref(),
            rfc3339_millis(now_millis()),
        );
        let me = self.deployments.me().to_owned();
        self.db
            .finish_run(self.run.id, &me, &event, running_as, now_millis())
            .await?;
        self.view.apply(&event);
        self.deployments.ended(self.run.id, event.seq);
        if let Err(e) = self.keep_output().await {
            tracing::warn!("run {}: keeping its output: {e:#}", self.run.id);
        }
        tracing::info!("run {} ended: {}", self.run.id, status.as_str());
        Ok(())
    }

    /// Something failed here: the run ends as `error`, if this server
    /// still drives it.
    async fn fail(&mut self, error: &anyhow::Error) {
        let message = format!("Mosaic could not drive the run: {error:#}");
        if let Err(e) = self
            .finish(RunStatus::Error, Some(message), StepStatus::Failed)
            .await
        {
            tracing::error!("run {}: could not record its end: {e:?}", self.run.id);
        }
    }

    /// The run's output (every event's, masked) as `stdout` in its
    /// directory.
    async fn keep_output(&self) -> anyhow::Result<()> {
        use tokio::io::AsyncWriteExt;
        let mut file = tokio::fs::File::create(self.dir.join("stdout")).await?;
        let mut after = 0;
        loop {
            let events = self.db.run_events(self.run.id, after, 5_000).await?;
            let Some(last) = events.last() else {
                break;
            };
            after = last.seq;
            file.write_all(output_of(&events).as_bytes()).await?;
        }
        file.flush().await?;
        Ok(())
    }
}

/// `run` as it was before its first event (what replaying its events
/// starts from).
fn fresh(run: &Run) -> Run {
    let mut run = run.clone();
    run.last_seq = 0;
    run.progress.plays_started = 0;
    run
}

/// What `events` printed, a line ending each.
pub fn output_of(events: &[RunEvent]) -> String {
    let mut text = String::new();
    for event in events.iter().filter(|e| !e.stdout.is_empty()) {
        text.push_str(&event.stdout.replace("\r\n", "\n"));
        text.push('\n');
    }
    text
}

/// `lines` of a step's events file as the run keeps them, numbered from
/// `first`.
fn read_events(
    lines: &[Vec<u8>],
    first: i64,
    step: u32,
    nodes: &HashMap<String, i64>,
    redactor: &Redactor,
) -> Vec<RunEvent> {
    lines
        .iter()
        .zip(first..)
        .map(|(line, seq)| {
            let job = JobEvent::parse(line).unwrap_or_else(|e| JobEvent {
                event: "verbose".to_owned(),
                stdout: format!("(Mosaic could not read an event of the runner: {e})"),
                ..JobEvent::default()
            });
            RunEvent::from_job(&job, seq, step, |h| nodes.get(h).copied(), redactor)
        })
        .collect()
}

/// How a step whose driver is gone ended: what the driver wrote last
/// (`driver.done`), else canceled when it was being stopped, else lost.
fn step_end(dir: &Path, stopping: bool) -> StepEnd {
    #[derive(serde::Deserialize)]
    struct Done {
        rc: Option<i64>,
        canceled: bool,
    }
    let done = std::fs::read(dir.join("driver.done"))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Done>(&bytes).ok());
    match done {
        Some(Done { canceled: true, .. }) => StepEnd::Canceled,
        Some(Done { rc: Some(0), .. }) => StepEnd::Succeeded,
        Some(Done { rc, .. }) => StepEnd::Failed(rc.and_then(|rc| i32::try_from(rc).ok())),
        None if stopping => StepEnd::Canceled,
        None => StepEnd::Lost,
    }
}

/// Writes `snapshot`'s files under `dir` (made anew), refusing a path that
/// would leave it.
fn write_files(dir: &Path, snapshot: &Snapshot) -> anyhow::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    for (path, file) in &snapshot.files {
        let relative = Path::new(path);
        let confined = relative
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        anyhow::ensure!(
            confined,
            "the export names a file outside its directory: {path}"
        );
        let target = dir.join(relative);
        std::fs::create_dir_all(target.parent().unwrap_or(dir))?;
        std::fs::write(&target, &file.content)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_ends_as_its_driver_says() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(step_end(dir.path(), false), StepEnd::Lost);
        assert_eq!(step_end(dir.path(), true), StepEnd::Canceled);
        for (done, end) in [
            (r#"{"rc": 0, "canceled": false}"#, StepEnd::Succeeded),
            (r#"{"rc": 2, "canceled": false}"#, StepEnd::Failed(Some(2))),
            (r#"{"rc": 254, "canceled": true}"#, StepEnd::Canceled),
        ] {
            std::fs::write(dir.path().join("driver.done"), done).unwrap();
            assert_eq!(step_end(dir.path(), false), end, "{done}");
        }
    }

    #[test]
    fn files_stay_in_their_directory() {
        let dir = tempfile::tempdir().unwrap();
        let mut snapshot = Snapshot::default();
        let file = |c: &str| mosaic_core::run::snapshot::SnapshotFile {
            sha256: String::new(),
            content: c.to_owned(),
        };
        snapshot
            .files
            .insert("config/nova.conf".into(), file("[DEFAULT]"));
        write_files(&dir.path().join("files"), &snapshot).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("files/config/nova.conf")).unwrap(),
            "[DEFAULT]"
        );
        snapshot.files.insert("../escape".into(), file("x"));
        assert!(write_files(&dir.path().join("files"), &snapshot).is_err());
    }

    #[test]
    fn output_is_each_events_lines() {
        let event = |stdout: &str| RunEvent {
            stdout: stdout.to_owned(),
            ..RunEvent::default()
        };
        assert_eq!(
            output_of(&[event("a\r\nb"), event(""), event("c")]),
            "a\nb\nc\n"
        );
    }
}
