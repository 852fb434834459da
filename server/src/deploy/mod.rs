//! Deployments run from Mosaic (SEMANTICS §15). Core decides what a run is;
//! this module makes it happen: each step's `ansible-playbook` command
//! line run through ansible-runner by a small driver (`driver.py`) in a
//! process group of its own, its events read as they are written and
//! stored in order, its end recorded — and a run left by a server that
//! stopped taken up again by the next one (STYLE, "A long-running job the
//! server supervises"). The database row is the truth; a supervisor only
//! works on it, and only while it holds it (`runs.supervisor`, renewed by
//! a heartbeat).

mod found;
mod process;
pub mod runtime;
pub mod secrets;
mod supervise;
mod tail;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mosaic_core::deployer::Runtime;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub use process::{host_name, processes_of, run_marker};
pub use runtime::Venv;
pub use supervise::output_of;

use crate::db::{Db, Supervision};

/// How often a supervisor says it still drives a run.
const HEARTBEAT: Duration = Duration::from_secs(2);
/// A run whose supervisor has not said so for this long is taken up by
/// another server on the runner's host.
const ORPHANED_AFTER: Duration = Duration::from_secs(15);
/// How often a server looks for runs nobody drives.
const SWEEP: Duration = Duration::from_secs(5);

/// The runs this server drives, and where their files are.
#[derive(Debug)]
pub struct Deployments {
    /// Mosaic's data directory (absolute); `None`: this server runs no
    /// deployments (the API's tests).
    data_dir: Option<PathBuf>,
    /// A virtual environment named with `--deployer-venv`.
    venv: Option<PathBuf>,
    /// Who drives a run: this host, this process, and a nonce.
    me: String,
    host: String,
    tracker: TaskTracker,
    /// Each run's last stored sequence, for the streams of this server.
    live: Mutex<HashMap<i64, watch::Sender<i64>>>,
    /// The runs this server drives, each with its cancellation.
    driving: Mutex<HashMap<i64, CancellationToken>>,
}

impl Deployments {
    /// Deployments under `data_dir`, with `venv` (`--deployer-venv`) when
    /// given.
    pub fn new(data_dir: Option<PathBuf>, venv: Option<PathBuf>) -> Deployments {
        let host = host_name();
        let nonce = hex::encode(rand_bytes());
        Deployments {
            data_dir: data_dir.map(|d| std::path::absolute(&d).unwrap_or(d)),
            venv: venv.map(|v| std::path::absolute(&v).unwrap_or(v)),
            me: format!("{host}:{}:{nonce}", std::process::id()),
            host,
            tracker: TaskTracker::new(),
            live: Mutex::new(HashMap::new()),
            driving: Mutex::new(HashMap::new()),
        }
    }

    /// A server that runs no deployments.
    pub fn disabled() -> Deployments {
        Deployments::new(None, None)
    }

    /// The data directory, or why runs cannot be made.
    pub fn data_dir(&self) -> Result<&Path, String> {
        self.data_dir
            .as_deref()
            .ok_or_else(|| "this server runs no deployments (it has no data directory)".to_owned())
    }

    /// The virtual environment a run of `deployer` uses, or why there is
    /// none.
    pub fn venv(&self, deployer: &str, runtime: Option<&Runtime>) -> Result<Venv, String> {
        runtime::find(self.venv.as_deref(), self.data_dir()?, deployer, runtime)
    }

    /// Who this server is, as `runs.supervisor` names it.
    pub fn me(&self) -> &str {
        &self.me
    }

    /// Starts driving run `run_id`, which this server has just inserted or
    /// claimed.
    pub fn launch(self: &Arc<Self>, db: &Db, run_id: i64) {
        let cancel = CancellationToken::new();
        {
            let mut driving = self.driving.lock().expect("not poisoned");
            if driving.contains_key(&run_id) {
                return;
            }
            driving.insert(run_id, cancel.clone());
        }
        let deployments = self.clone();
        let db = db.clone();
        self.tracker.spawn(async move {
            supervise::drive(deployments.clone(), db, run_id, cancel).await;
            deployments
                .driving
                .lock()
                .expect("not poisoned")
                .remove(&run_id);
        });
    }

    /// Tells the driver of run `run_id` to stop, when this server drives
    /// it (another server reads the request from the database).
    pub fn cancel(&self, run_id: i64) {
        if let Some(token) = self.driving.lock().expect("not poisoned").get(&run_id) {
            token.cancel();
        }
    }

    /// The last sequence stored of run `run_id`, as this server stores
    /// them.
    pub fn watch(&self, run_id: i64) -> watch::Receiver<i64> {
        self.live
            .lock()
            .expect("not poisoned")
            .entry(run_id)
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    fn publish(&self, run_id: i64, seq: i64) {
        let live = self.live.lock().expect("not poisoned");
        if let Some(sender) = live.get(&run_id) {
            sender.send_replace(seq);
        }
    }

    /// Run `run_id` ended: its readers are told once more, then let go.
    fn ended(&self, run_id: i64, seq: i64) {
        if let Some(sender) = self.live.lock().expect("not poisoned").remove(&run_id) {
            sender.send_replace(seq);
        }
    }

    /// Takes up, now and then, every run that no server drives and whose
    /// runner is on this host (one left by a server that stopped).
    pub fn resume(self: &Arc<Self>, db: Db) {
        if self.data_dir.is_none() {
            return;
        }
        let deployments = self.clone();
        self.tracker.spawn(async move {
            loop {
                if let Err(e) = deployments.take_up(&db).await {
                    tracing::warn!("looking for runs to take up: {e}");
                }
                tokio::time::sleep(SWEEP).await;
            }
        });
    }

    async fn take_up(self: &Arc<Self>, db: &Db) -> Result<(), crate::db::DbError> {
        let now = crate::timestamp::now_millis();
        for seen in db.active_runs().await? {
            if self.may_take(&seen, now) && db.claim_run(&seen, &self.me, now).await? {
                tracing::info!("taking up run {} (its supervisor stopped)", seen.id);
                self.launch(db, seen.id);
            }
        }
        Ok(())
    }

    /// Whether this server may take up `run`: nobody drives it (no
    /// supervisor, a silent one, or one of this host that is gone), and
    /// its runner, if it has one, is on this host — or it is elsewhere,
    /// silent, and someone asked to cancel the run (its runner is then
    /// lost to this server: the run ends as `error` instead of holding
    /// the environment for ever).
    fn may_take(&self, run: &Supervision, now: i64) -> bool {
        if self
            .driving
            .lock()
            .expect("not poisoned")
            .contains_key(&run.id)
        {
            return false;
        }
        let silent = run.heartbeat_at.is_none_or(|at| {
            now - at > i64::try_from(ORPHANED_AFTER.as_millis()).unwrap_or(i64::MAX)
        });
        if run.runner_host.as_deref().is_some_and(|h| h != self.host) {
            return silent && run.cancel_requested;
        }
        let gone = run
            .supervisor
            .as_deref()
            .is_none_or(|s| supervisor_gone(s, &self.host));
        silent || (gone && run.supervisor.as_deref() != Some(self.me.as_str()))
    }
}

/// Whether supervisor `id` (`host:pid:nonce`) is a process of `host` that
/// no longer runs.
fn supervisor_gone(id: &str, host: &str) -> bool {
    let mut parts = id.rsplitn(3, ':');
    let (_nonce, pid, of) = (parts.next(), parts.next(), parts.next());
    of == Some(host)
        && pid
            .and_then(|p| p.parse::<i64>().ok())
            .is_some_and(|pid| !process::exists(pid))
}

fn rand_bytes() -> [u8; 6] {
    let mut bytes = [0u8; 6];
    getrandom::getrandom(&mut bytes).unwrap_or_default();
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_supervisor_of_this_host_that_no_longer_runs_is_gone() {
        let me = std::process::id();
        assert!(!supervisor_gone(&format!("h:{me}:ab"), "h"));
        assert!(supervisor_gone("h:999999999:ab", "h"));
        assert!(
            !supervisor_gone("other:999999999:ab", "h"),
            "another host's is not known"
        );
    }
}
