//! Deployment runs (SEMANTICS §15): a run with its steps and the nodes
//! whose status follows it, inserted in one transaction (one active run per
//! environment: a unique index both back-ends keep); its events, history
//! rows and host summaries stored in batches, each in one transaction that
//! only the run's supervisor may make; and its end, with what it does to
//! nodes and the environment, in one more. Times are Unix milliseconds.

use mosaic_core::api::{
    Action, Changes, Connection, HistoryRow, HostSummary, Progress, Run, RunEvent, RunKind,
    RunPlan, RunStatus, Step, StepStatus, TaskStatus,
};
use mosaic_core::name::{ErrorType, NodeStatus, RoleName};
use mosaic_core::run::Snapshot;
use mosaic_core::run::outcome::{self, NodeAfter, NodeBefore};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use super::{Db, DbError};
use crate::timestamp::rfc3339_millis;
use mosaic_core::access::Reach;

/// What a new run is made of.
#[derive(Debug)]
pub struct NewRun<'a> {
    pub cluster_id: i64,
    pub deployer: &'a str,
    pub plan: &'a RunPlan,
    pub connection: Connection,
    pub snapshot: &'a Snapshot,
    /// How many plays each step's playbook has.
    pub plays: &'a [u32],
    /// The nodes whose status follows the run, as they are now.
    pub scope: &'a [NodeBefore],
    pub created_by: &'a str,
    pub supervisor: &'a str,
    /// The deployer's virtual environment.
    pub venv: &'a str,
    pub now: i64,
}

/// A run as its supervisor reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Supervision {
    pub id: i64,
    pub cluster_id: i64,
    pub venv: String,
    pub status: RunStatus,
    pub supervisor: Option<String>,
    pub heartbeat_at: Option<i64>,
    pub runner_pid: Option<i64>,
    pub runner_host: Option<String>,
    pub cancel_requested: bool,
}

/// One batch of a step's events, as the supervisor stores it.
#[derive(Debug, Default)]
pub struct Batch<'a> {
    pub step: u32,
    /// How far into the step's events file the batch reaches.
    pub offset: i64,
    pub events: &'a [RunEvent],
    /// The history rows of those events (keyed by the event's sequence).
    pub history: &'a [(i64, HistoryRow)],
    /// Earlier rows now known to be rescued.
    pub rescued: &'a [i64],
    /// The hosts whose summary changed.
    pub hosts: &'a [HostSummary],
    pub plays_started: u32,
}

/// Which history rows a read returns.
#[derive(Debug, Clone, Default)]
pub struct HistoryFilter {
    pub nodes: Vec<i64>,
    pub statuses: Vec<TaskStatus>,
    pub tasks: Vec<String>,
}

fn corrupt(what: &str) -> impl Fn(serde_json::Error) -> DbError + '_ {
    move |e| DbError::Corrupt(format!("{what}: {e}"))
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("run data serializes")
}

fn parse<T>(text: &str, what: &str, read: impl Fn(&str) -> Option<T>) -> Result<T, DbError> {
    read(text).ok_or_else(|| DbError::Corrupt(format!("{what}: '{text}'")))
}

/// `n` placeholders from `$first` on, as `($a, $b, …)` rows of `width`.
fn rows_sql(rows: usize, width: usize, first: usize) -> String {
    (0..rows)
        .map(|r| {
            let cells: Vec<String> = (0..width)
                .map(|c| format!("${}", first + r * width + c))
                .collect();
            format!("({})", cells.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Rows written per statement (a statement's parameters stay well under
/// either back-end's limit).
const CHUNK: usize = 200;

fn run_of(row: &AnyRow, steps: Vec<Step>) -> Result<Run, DbError> {
    let kind: String = row.try_get("kind")?;
    let status: String = row.try_get("status")?;
    let connection: String = row.try_get("connection")?;
    let nodes: String = row.try_get("nodes")?;
    let changes: Option<String> = row.try_get("changes")?;
    let digests: String = row.try_get("digests")?;
    let count = |column: &str| -> Result<u32, DbError> {
        Ok(u32::try_from(row.try_get::<i64, _>(column)?).unwrap_or(0))
    };
    Ok(Run {
        id: row.try_get("id")?,
        cluster_id: row.try_get("cluster_id")?,
        deployer: row.try_get("deployer")?,
        kind: parse(&kind, "runs.kind", RunKind::parse)?,
        status: parse(&status, "runs.status", RunStatus::parse)?,
        connection: parse(&connection, "runs.connection", Connection::parse)?,
        steps,
        nodes: serde_json::from_str(&nodes).map_err(corrupt("runs.nodes"))?,
        changes: changes
            .map(|c| serde_json::from_str::<Changes>(&c))
            .transpose()
            .map_err(corrupt("runs.changes"))?,
        files: serde_json::from_str(&digests).map_err(corrupt("runs.digests"))?,
        progress: Progress {
            plays_started: count("plays_started")?,
            plays_total: count("plays_total")?,
        },
        last_seq: row.try_get("last_seq")?,
        message: row.try_get("message")?,
        created_by: row.try_get("created_by")?,
        created_at: rfc3339_millis(row.try_get("created_at")?),
        finished_at: row
            .try_get::<Option<i64>, _>("finished_at")?
            .map(rfc3339_millis),
    })
}

fn step_of(row: &AnyRow) -> Result<Step, DbError> {
    let action: String = row.try_get("action")?;
    let status: String = row.try_get("status")?;
    let limit: String = row.try_get("limit_hosts")?;
    let argv: String = row.try_get("argv")?;
    Ok(Step {
        index: u32::try_from(row.try_get::<i64, _>("idx")?).unwrap_or(0),
        action: parse(&action, "run_steps.action", Action::parse)?,
        limit: serde_json::from_str(&limit).map_err(corrupt("run_steps.limit_hosts"))?,
        status: parse(&status, "run_steps.status", StepStatus::parse)?,
        argv: serde_json::from_str(&argv).map_err(corrupt("run_steps.argv"))?,
        rc: row
            .try_get::<Option<i64>, _>("rc")?
            .and_then(|rc| i32::try_from(rc).ok()),
        plays: u32::try_from(row.try_get::<i64, _>("plays")?).unwrap_or(0),
        started_at: row
            .try_get::<Option<i64>, _>("started_at")?
            .map(rfc3339_millis),
        finished_at: row
            .try_get::<Option<i64>, _>("finished_at")?
            .map(rfc3339_millis),
    })
}

const RUN_COLUMNS: &str = "id, cluster_id, deployer, kind, status, connection, nodes, changes, \
     digests, plays_started, plays_total, last_seq, message, created_by, created_at, finished_at";

async fn steps_of(conn: &mut AnyConnection, run_id: i64) -> Result<Vec<Step>, DbError> {
    let rows = sqlx::query(
        "SELECT idx, action, limit_hosts, status, argv, rc, plays, started_at, finished_at \
         FROM run_steps WHERE run_id = $1 ORDER BY idx",
    )
    .bind(run_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter().map(step_of).collect()
}

/// Inserts `events` of run `run_id`.
async fn insert_events(
    conn: &mut AnyConnection,
    run_id: i64,
    events: &[RunEvent],
) -> Result<(), DbError> {
    for chunk in events.chunks(CHUNK) {
        let sql = format!(
            "INSERT INTO run_events (run_id, seq, body) VALUES {}",
            rows_sql(chunk.len(), 3, 1)
        );
        let mut query = sqlx::query(&sql);
        for event in chunk {
            query = query.bind(run_id).bind(event.seq).bind(json(event));
        }
        query.execute(&mut *conn).await?;
    }
    Ok(())
}

/// Moves run `run_id`'s last sequence on to `seq`, as long as `me` still
/// supervises it: `Moved` when another server took it over.
async fn advance(
    conn: &mut AnyConnection,
    run_id: i64,
    me: &str,
    seq: i64,
    plays_started: Option<u32>,
) -> Result<(), DbError> {
    let done = sqlx::query(
        "UPDATE runs SET last_seq = $1, plays_started = COALESCE($2, plays_started) \
         WHERE id = $3 AND supervisor = $4",
    )
    .bind(seq)
    .bind(plays_started.map(i64::from))
    .bind(run_id)
    .bind(me)
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 0 {
        return Err(DbError::Moved(format!(
            "run {run_id} is supervised by another server now"
        )));
    }
    Ok(())
}

impl Db {
    /// Inserts a run, its steps and its scope; when it deploys, its nodes
    /// become `deploying` and its environment `deployment`. `RunActive`
    /// when the environment has a run that has not ended.
    pub async fn insert_run(&self, new: &NewRun<'_>) -> Result<i64, DbError> {
        match self.insert_run_in(new).await {
            Err(DbError::Sqlx(e))
                if e.as_database_error()
                    .is_some_and(|d| d.is_unique_violation()) =>
            {
                let active: Option<i64> = sqlx::query_scalar(
                    "SELECT id FROM runs WHERE cluster_id = $1 AND finished_at IS NULL",
                )
                .bind(new.cluster_id)
                .fetch_optional(&self.pool)
                .await?;
                Err(DbError::RunActive(active.unwrap_or(0)))
            }
            other => other,
        }
    }

    async fn insert_run_in(&self, new: &NewRun<'_>) -> Result<i64, DbError> {
        let mut tx = self.pool.begin().await?;
        let plan = new.plan;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO runs (cluster_id, deployer, kind, status, connection, deploys, nodes, \
             changes, snapshot, digests, plays_total, created_by, created_at, supervisor, \
             heartbeat_at, venv) VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, $9, $10, $11, \
             $12, $13, $12, $14) RETURNING id",
        )
        .bind(new.cluster_id)
        .bind(new.deployer)
        .bind(plan.kind.as_str())
        .bind(new.connection.as_str())
        .bind(i64::from(plan.deploys()))
        .bind(json(&plan.nodes))
        .bind(plan.changes.as_ref().map(json))
        .bind(json(new.snapshot))
        .bind(json(&new.snapshot.digests()))
        .bind(i64::from(new.plays.iter().sum::<u32>()))
        .bind(new.created_by)
        .bind(new.now)
        .bind(new.supervisor)
        .bind(new.venv)
        .fetch_one(&mut *tx)
        .await
        .map_err(DbError::Sqlx)?;
        for (index, step) in plan.steps.iter().enumerate() {
            sqlx::query(
                "INSERT INTO run_steps (run_id, idx, action, limit_hosts, status, argv, plays) \
                 VALUES ($1, $2, $3, $4, 'pending', '[]', $5)",
            )
            .bind(id)
            .bind(i64::try_from(index).unwrap_or(i64::MAX))
            .bind(step.action.as_str())
            .bind(json(&step.limit))
            .bind(i64::from(new.plays.get(index).copied().unwrap_or(0)))
            .execute(&mut *tx)
            .await?;
        }
        for node in new.scope {
            sqlx::query(
                "INSERT INTO run_nodes (run_id, node_id, host, status_before, pending_roles) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(node.id)
            .bind(&node.host)
            .bind(node.status.as_str())
            .bind(json(&node.pending_roles))
            .execute(&mut *tx)
            .await?;
        }
        if plan.deploys() {
            sqlx::query(
                "UPDATE nodes SET status = 'deploying', error_type = NULL, version = version + 1 \
                 WHERE id IN (SELECT node_id FROM run_nodes WHERE run_id = $1)",
            )
            .bind(id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE clusters SET status = 'deployment' WHERE id = $1")
                .bind(new.cluster_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    /// Run `id` with its steps.
    pub async fn run(&self, id: i64) -> Result<Option<Run>, DbError> {
        let mut conn = self.pool.acquire().await?;
        let Some(row) = sqlx::query(&format!("SELECT {RUN_COLUMNS} FROM runs WHERE id = $1"))
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
        else {
            return Ok(None);
        };
        let steps = steps_of(&mut conn, id).await?;
        run_of(&row, steps).map(Some)
    }

    /// Environment `cluster_id`'s runs, newest first.
    pub async fn runs(&self, cluster_id: i64) -> Result<Vec<Run>, DbError> {
        let mut conn = self.pool.acquire().await?;
        let rows = sqlx::query(&format!(
            "SELECT {RUN_COLUMNS} FROM runs WHERE cluster_id = $1 ORDER BY id DESC"
        ))
        .bind(cluster_id)
        .fetch_all(&mut *conn)
        .await?;
        let mut runs = Vec::with_capacity(rows.len());
        for row in &rows {
            let id: i64 = row.try_get("id")?;
            let steps = steps_of(&mut conn, id).await?;
            runs.push(run_of(row, steps)?);
        }
        Ok(runs)
    }

    /// The snapshot of environment `cluster_id`'s last successful run that
    /// deployed.
    pub async fn last_deployed(&self, cluster_id: i64) -> Result<Option<Snapshot>, DbError> {
        self.snapshot_where(
            "cluster_id = $1 AND status = 'successful' AND deploys = 1 ORDER BY id DESC LIMIT 1",
            cluster_id,
        )
        .await
    }

    /// Run `id`'s snapshot.
    pub async fn run_snapshot(&self, id: i64) -> Result<Option<Snapshot>, DbError> {
        self.snapshot_where("id = $1", id).await
    }

    /// The snapshot of the run `condition` (on `$1`, `value`) finds.
    async fn snapshot_where(
        &self,
        condition: &str,
        value: i64,
    ) -> Result<Option<Snapshot>, DbError> {
        let text: Option<String> =
            sqlx::query_scalar(&format!("SELECT snapshot FROM runs WHERE {condition}"))
                .bind(value)
                .fetch_optional(&self.pool)
                .await?;
        text.map(|t| serde_json::from_str(&t))
            .transpose()
            .map_err(corrupt("runs.snapshot"))
    }

    /// The deploying run that has not ended on what `reach` names, if any.
    pub async fn deploying_run(&self, reach: Reach) -> Result<Option<i64>, DbError> {
        let (sql, id) = match reach {
            Reach::Cluster(id) => ("SELECT r.id FROM runs r WHERE r.cluster_id = $1", id),
            Reach::Node(id) => (
                "SELECT r.id FROM runs r JOIN nodes n ON n.cluster_id = r.cluster_id WHERE n.id = $1",
                id,
            ),
            Reach::NodeGroup(id) => (
                "SELECT r.id FROM runs r JOIN node_groups g ON g.cluster_id = r.cluster_id \
                 WHERE g.id = $1",
                id,
            ),
            Reach::Release(id) => (
                "SELECT r.id FROM runs r JOIN clusters c ON c.id = r.cluster_id \
                 WHERE c.release_id = $1",
                id,
            ),
        };
        Ok(sqlx::query_scalar(&format!(
            "{sql} AND r.finished_at IS NULL AND r.deploys = 1 LIMIT 1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// What run `id`'s supervisor reads of it.
    pub async fn supervision(&self, id: i64) -> Result<Option<Supervision>, DbError> {
        let row = sqlx::query(
            "SELECT id, cluster_id, venv, status, supervisor, heartbeat_at, runner_pid, runner_host, \
             cancel_requested FROM runs WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(supervision_of).transpose()
    }

    /// The runs that have not ended.
    pub async fn active_runs(&self) -> Result<Vec<Supervision>, DbError> {
        let rows = sqlx::query(
            "SELECT id, cluster_id, venv, status, supervisor, heartbeat_at, runner_pid, runner_host, \
             cancel_requested FROM runs WHERE finished_at IS NULL ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(supervision_of).collect()
    }

    /// Makes `me` the supervisor of run `seen.id` if nobody took it since
    /// it was read as `seen`.
    pub async fn claim_run(&self, seen: &Supervision, me: &str, now: i64) -> Result<bool, DbError> {
        let done = sqlx::query(
            "UPDATE runs SET supervisor = $1, heartbeat_at = $2 WHERE id = $3 \
             AND finished_at IS NULL AND COALESCE(supervisor, '') = $4 \
             AND COALESCE(heartbeat_at, 0) = $5",
        )
        .bind(me)
        .bind(now)
        .bind(seen.id)
        .bind(seen.supervisor.clone().unwrap_or_default())
        .bind(seen.heartbeat_at.unwrap_or(0))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `me` still supervises run `id`: false when another server took it
    /// over or it ended.
    pub async fn heartbeat(&self, id: i64, me: &str, now: i64) -> Result<bool, DbError> {
        let done = sqlx::query(
            "UPDATE runs SET heartbeat_at = $1 WHERE id = $2 AND supervisor = $3 \
             AND finished_at IS NULL",
        )
        .bind(now)
        .bind(id)
        .bind(me)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Asks run `id` to stop: `canceling` (a pending run is canceled by its
    /// supervisor as it starts). `None`: no such run; `Err(Conflict)`: it
    /// ended already.
    pub async fn request_cancel(&self, id: i64) -> Result<Option<()>, DbError> {
        let done = sqlx::query(
            "UPDATE runs SET cancel_requested = 1, status = 'canceling' WHERE id = $1 \
             AND finished_at IS NULL",
        )
        .bind(id)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 1 {
            return Ok(Some(()));
        }
        let status: Option<String> = sqlx::query_scalar("SELECT status FROM runs WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        match status {
            None => Ok(None),
            Some(status) => Err(DbError::Conflict(format!(
                "run {id} ended already ({status}): there is nothing to cancel"
            ))),
        }
    }

    /// Step `step` of run `run_id` starts with `argv`, its runner process
    /// `pid` on `host`: the step and the run `running`, and its
    /// `step_start` event stored.
    pub async fn step_started(
        &self,
        run_id: i64,
        me: &str,
        event: &RunEvent,
        pid: i64,
        host: &str,
        now: i64,
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        advance(&mut tx, run_id, me, event.seq, None).await?;
        let argv = event
            .data
            .as_ref()
            .and_then(|d| d.get("argv"))
            .map_or_else(|| "[]".to_owned(), json);
        sqlx::query(
            "UPDATE run_steps SET status = 'running', argv = $1, started_at = $2 \
             WHERE run_id = $3 AND idx = $4",
        )
        .bind(argv)
        .bind(now)
        .bind(run_id)
        .bind(i64::from(event.step))
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE runs SET status = CASE WHEN status = 'pending' THEN 'running' ELSE status END, \
             runner_pid = $1, runner_host = $2 WHERE id = $3",
        )
        .bind(pid)
        .bind(host)
        .bind(run_id)
        .execute(&mut *tx)
        .await?;
        insert_events(&mut tx, run_id, std::slice::from_ref(event)).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Step `event.step` of run `run_id` ended: its status and exit code,
    /// and its `step_end` event stored.
    pub async fn step_ended(
        &self,
        run_id: i64,
        me: &str,
        event: &RunEvent,
        status: StepStatus,
        rc: Option<i32>,
        now: i64,
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        advance(&mut tx, run_id, me, event.seq, None).await?;
        sqlx::query(
            "UPDATE run_steps SET status = $1, rc = $2, finished_at = $3 \
             WHERE run_id = $4 AND idx = $5",
        )
        .bind(status.as_str())
        .bind(rc.map(i64::from))
        .bind(now)
        .bind(run_id)
        .bind(i64::from(event.step))
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE runs SET runner_pid = NULL WHERE id = $1")
            .bind(run_id)
            .execute(&mut *tx)
            .await?;
        insert_events(&mut tx, run_id, std::slice::from_ref(event)).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Where the step's events file was read up to.
    pub async fn events_offset(&self, run_id: i64, step: u32) -> Result<i64, DbError> {
        Ok(
            sqlx::query_scalar(
                "SELECT events_offset FROM run_steps WHERE run_id = $1 AND idx = $2",
            )
            .bind(run_id)
            .bind(i64::from(step))
            .fetch_optional(&self.pool)
            .await?
            .unwrap_or(0),
        )
    }

    /// Stores one batch of run `run_id`'s events with what follows from
    /// them, in one transaction, as long as `me` supervises it.
    pub async fn store_batch(
        &self,
        run_id: i64,
        me: &str,
        batch: &Batch<'_>,
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        let last = batch.events.last().map(|e| e.seq);
        if let Some(seq) = last {
            advance(&mut tx, run_id, me, seq, Some(batch.plays_started)).await?;
        }
        insert_events(&mut tx, run_id, batch.events).await?;
        insert_history(&mut tx, run_id, batch.history).await?;
        for seq in batch.rescued {
            sqlx::query("UPDATE run_history SET status = 'rescued' WHERE run_id = $1 AND seq = $2")
                .bind(run_id)
                .bind(seq)
                .execute(&mut *tx)
                .await?;
        }
        upsert_hosts(&mut tx, run_id, batch.hosts).await?;
        sqlx::query("UPDATE run_steps SET events_offset = $1 WHERE run_id = $2 AND idx = $3")
            .bind(batch.offset)
            .bind(run_id)
            .bind(i64::from(batch.step))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Run `run_id`'s events after sequence `after`, at most `limit`.
    pub async fn run_events(
        &self,
        run_id: i64,
        after: i64,
        limit: i64,
    ) -> Result<Vec<RunEvent>, DbError> {
        let rows: Vec<String> = sqlx::query_scalar(
            "SELECT body FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
        )
        .bind(run_id)
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|b| serde_json::from_str(b).map_err(corrupt("run_events.body")))
            .collect()
    }

    /// Run `run_id`'s last stored sequence and whether it ended (`None`:
    /// no such run).
    pub async fn run_progress(&self, run_id: i64) -> Result<Option<(i64, bool)>, DbError> {
        let row: Option<(i64, Option<i64>)> =
            sqlx::query_as("SELECT last_seq, finished_at FROM runs WHERE id = $1")
                .bind(run_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(seq, finished)| (seq, finished.is_some())))
    }

    /// Run `run_id`'s history rows that `filter` keeps, in order, from
    /// the `offset`th, at most `limit`.
    pub async fn run_history(
        &self,
        run_id: i64,
        filter: &HistoryFilter,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<HistoryRow>, DbError> {
        let mut sql = "SELECT task_name, node_id, host, status, time_start, time_end, play, role, \
                       step, message FROM run_history WHERE run_id = $1"
            .to_owned();
        let mut n = 1;
        let mut list = |column: &str, count: usize, sql: &mut String| {
            if count == 0 {
                return;
            }
            let marks: Vec<String> = (0..count)
                .map(|_| {
                    n += 1;
                    format!("${n}")
                })
                .collect();
            sql.push_str(&format!(" AND {column} IN ({})", marks.join(", ")));
        };
        list("node_id", filter.nodes.len(), &mut sql);
        list("status", filter.statuses.len(), &mut sql);
        list("task_name", filter.tasks.len(), &mut sql);
        sql.push_str(&format!(" ORDER BY seq LIMIT ${} OFFSET ${}", n + 1, n + 2));
        let mut query = sqlx::query(&sql).bind(run_id);
        for node in &filter.nodes {
            query = query.bind(*node);
        }
        for status in &filter.statuses {
            query = query.bind(status.as_str());
        }
        for task in &filter.tasks {
            query = query.bind(task.as_str());
        }
        let rows = query.bind(limit).bind(offset).fetch_all(&self.pool).await?;
        rows.iter().map(history_of).collect()
    }

    /// Run `run_id`'s host summaries, by host name.
    pub async fn run_hosts(&self, run_id: i64) -> Result<Vec<HostSummary>, DbError> {
        let rows = sqlx::query(
            "SELECT host, node_id, ok, changed, failures, unreachable, skipped, ignored, rescued, \
             current_task FROM run_hosts WHERE run_id = $1 ORDER BY host",
        )
        .bind(run_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(host_of).collect()
    }

    /// Ends run `run_id` as `event` (its `run_end`, which is stored) says,
    /// in one transaction: steps not ended are `skipped` (a running one as
    /// `running_as` says); when it deploys, its nodes and its environment
    /// as core's `outcome` says.
    pub async fn finish_run(
        &self,
        run_id: i64,
        me: &str,
        event: &RunEvent,
        running_as: StepStatus,
        now: i64,
    ) -> Result<(), DbError> {
        let status: RunStatus = event
            .carried_status()
            .ok_or_else(|| DbError::Corrupt("a run_end event without its status".to_owned()))?;
        let mut tx = self.pool.begin().await?;
        advance(&mut tx, run_id, me, event.seq, None).await?;
        sqlx::query(
            "UPDATE run_steps SET status = CASE WHEN status = 'running' THEN $1 ELSE 'skipped' END, \
             finished_at = CASE WHEN status = 'running' THEN $2 ELSE finished_at END \
             WHERE run_id = $3 AND status IN ('pending', 'running')",
        )
        .bind(running_as.as_str())
        .bind(now)
        .bind(run_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE run_hosts SET current_task = NULL WHERE run_id = $1")
            .bind(run_id)
            .execute(&mut *tx)
            .await?;
        let (cluster_id, deploys): (i64, i64) =
            sqlx::query_as("SELECT cluster_id, deploys FROM runs WHERE id = $1")
                .bind(run_id)
                .fetch_one(&mut *tx)
                .await?;
        sqlx::query(
            "UPDATE runs SET status = $1, message = $2, finished_at = $3, runner_pid = NULL \
             WHERE id = $4",
        )
        .bind(status.as_str())
        .bind(event.message.as_deref())
        .bind(now)
        .bind(run_id)
        .execute(&mut *tx)
        .await?;
        insert_events(&mut tx, run_id, std::slice::from_ref(event)).await?;
        if deploys == 1 {
            let scope = scope_of(&mut tx, run_id).await?;
            let hosts = hosts_in(&mut tx, run_id).await?;
            let steps = steps_of(&mut tx, run_id).await?;
            for after in outcome::node_outcomes(status, &steps, &scope, &hosts) {
                let before = scope.iter().find(|n| n.id == after.id);
                apply_outcome(&mut tx, &after, before).await?;
            }
            let statuses: Vec<String> = sqlx::query_scalar(
                "SELECT status FROM nodes WHERE cluster_id = $1 AND pending_deletion = 0",
            )
            .bind(cluster_id)
            .fetch_all(&mut *tx)
            .await?;
            let statuses: Vec<NodeStatus> = statuses
                .iter()
                .map(|s| {
                    NodeStatus::parse(s).map_err(|e| DbError::Corrupt(format!("nodes.status: {e}")))
                })
                .collect::<Result<_, _>>()?;
            sqlx::query("UPDATE clusters SET status = $1 WHERE id = $2")
                .bind(outcome::environment_status(status, &statuses).as_str())
                .bind(cluster_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

fn supervision_of(row: &AnyRow) -> Result<Supervision, DbError> {
    let status: String = row.try_get("status")?;
    Ok(Supervision {
        id: row.try_get("id")?,
        cluster_id: row.try_get("cluster_id")?,
        venv: row.try_get("venv")?,
        status: parse(&status, "runs.status", RunStatus::parse)?,
        supervisor: row.try_get("supervisor")?,
        heartbeat_at: row.try_get("heartbeat_at")?,
        runner_pid: row.try_get("runner_pid")?,
        runner_host: row.try_get("runner_host")?,
        cancel_requested: row.try_get::<i64, _>("cancel_requested")? != 0,
    })
}

fn history_of(row: &AnyRow) -> Result<HistoryRow, DbError> {
    let status: String = row.try_get("status")?;
    let step: String = row.try_get("step")?;
    Ok(HistoryRow {
        task_name: row.try_get("task_name")?,
        node_id: row.try_get("node_id")?,
        status: parse(&status, "run_history.status", TaskStatus::parse)?,
        time_start: row.try_get("time_start")?,
        time_end: row.try_get("time_end")?,
        play: row.try_get("play")?,
        role: row.try_get("role")?,
        step: parse(&step, "run_history.step", Action::parse)?,
        host: row.try_get("host")?,
        message: row.try_get("message")?,
    })
}

fn host_of(row: &AnyRow) -> Result<HostSummary, DbError> {
    let count = |column: &str| -> Result<u32, DbError> {
        Ok(u32::try_from(row.try_get::<i64, _>(column)?).unwrap_or(0))
    };
    Ok(HostSummary {
        host: row.try_get("host")?,
        node_id: row.try_get("node_id")?,
        ok: count("ok")?,
        changed: count("changed")?,
        failures: count("failures")?,
        unreachable: count("unreachable")?,
        skipped: count("skipped")?,
        ignored: count("ignored")?,
        rescued: count("rescued")?,
        current_task: row.try_get("current_task")?,
    })
}

async fn insert_history(
    conn: &mut AnyConnection,
    run_id: i64,
    rows: &[(i64, HistoryRow)],
) -> Result<(), DbError> {
    for chunk in rows.chunks(CHUNK) {
        let sql = format!(
            "INSERT INTO run_history (run_id, seq, task_name, node_id, host, status, time_start, \
             time_end, play, role, step, message) VALUES {}",
            rows_sql(chunk.len(), 12, 1)
        );
        let mut query = sqlx::query(&sql);
        for (seq, row) in chunk {
            query = query
                .bind(run_id)
                .bind(*seq)
                .bind(&row.task_name)
                .bind(row.node_id)
                .bind(&row.host)
                .bind(row.status.as_str())
                .bind(row.time_start.as_deref())
                .bind(row.time_end.as_deref())
                .bind(row.play.as_deref())
                .bind(row.role.as_deref())
                .bind(row.step.as_str())
                .bind(row.message.as_deref());
        }
        query.execute(&mut *conn).await?;
    }
    Ok(())
}

async fn upsert_hosts(
    conn: &mut AnyConnection,
    run_id: i64,
    hosts: &[HostSummary],
) -> Result<(), DbError> {
    for chunk in hosts.chunks(CHUNK) {
        let sql = format!(
            "INSERT INTO run_hosts (run_id, host, node_id, ok, changed, failures, unreachable, \
             skipped, ignored, rescued, current_task) VALUES {} ON CONFLICT (run_id, host) DO \
             UPDATE SET node_id = excluded.node_id, ok = excluded.ok, changed = excluded.changed, \
             failures = excluded.failures, unreachable = excluded.unreachable, skipped = \
             excluded.skipped, ignored = excluded.ignored, rescued = excluded.rescued, \
             current_task = excluded.current_task",
            rows_sql(chunk.len(), 11, 1)
        );
        let mut query = sqlx::query(&sql);
        for h in chunk {
            query = query
                .bind(run_id)
                .bind(&h.host)
                .bind(h.node_id)
                .bind(i64::from(h.ok))
                .bind(i64::from(h.changed))
                .bind(i64::from(h.failures))
                .bind(i64::from(h.unreachable))
                .bind(i64::from(h.skipped))
                .bind(i64::from(h.ignored))
                .bind(i64::from(h.rescued))
                .bind(h.current_task.as_deref());
        }
        query.execute(&mut *conn).await?;
    }
    Ok(())
}

async fn scope_of(conn: &mut AnyConnection, run_id: i64) -> Result<Vec<NodeBefore>, DbError> {
    let rows = sqlx::query(
        "SELECT node_id, host, status_before, pending_roles FROM run_nodes WHERE run_id = $1 \
         ORDER BY node_id",
    )
    .bind(run_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|row| {
            let status: String = row.try_get("status_before")?;
            let pending: String = row.try_get("pending_roles")?;
            Ok(NodeBefore {
                id: row.try_get("node_id")?,
                host: row.try_get("host")?,
                status: NodeStatus::parse(&status)
                    .map_err(|e| DbError::Corrupt(format!("run_nodes.status_before: {e}")))?,
                pending_roles: serde_json::from_str(&pending)
                    .map_err(corrupt("run_nodes.pending_roles"))?,
            })
        })
        .collect()
}

async fn hosts_in(conn: &mut AnyConnection, run_id: i64) -> Result<Vec<HostSummary>, DbError> {
    let rows = sqlx::query(
        "SELECT host, node_id, ok, changed, failures, unreachable, skipped, ignored, rescued, \
         current_task FROM run_hosts WHERE run_id = $1",
    )
    .bind(run_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter().map(host_of).collect()
}

/// A node as a run's end leaves it: its status, why it is in error, and
/// (deployed) the pending roles it had when the run started made roles.
async fn apply_outcome(
    conn: &mut AnyConnection,
    after: &NodeAfter,
    before: Option<&NodeBefore>,
) -> Result<(), DbError> {
    let row: Option<(String, String)> =
        sqlx::query_as("SELECT roles, pending_roles FROM nodes WHERE id = $1")
            .bind(after.id)
            .fetch_optional(&mut *conn)
            .await?;
    // A node deleted while it was deployed (it could not be: the run
    // froze the environment) has nothing left to change.
    let Some((roles, pending)) = row else {
        return Ok(());
    };
    let roles: Vec<RoleName> = serde_json::from_str(&roles).map_err(corrupt("nodes.roles"))?;
    let pending: Vec<RoleName> =
        serde_json::from_str(&pending).map_err(corrupt("nodes.pending_roles"))?;
    let (roles, pending) = match (after.deployed, before) {
        (true, Some(before)) => outcome::promote(&roles, &pending, &before.pending_roles),
        _ => (roles, pending),
    };
    sqlx::query(
        "UPDATE nodes SET status = $1, error_type = $2, roles = $3, pending_roles = $4, \
         version = version + 1 WHERE id = $5",
    )
    .bind(after.status.as_str())
    .bind(after.error_type.map(ErrorType::as_str))
    .bind(json(&roles))
    .bind(json(&pending))
    .bind(after.id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
