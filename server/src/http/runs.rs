//! Deployments run from Mosaic (SEMANTICS §15, docs/deployers.md
//! "Running a deployment"): a run started for an environment — what it
//! will do first with `dry_run` —, its record, history (also as CSV), host
//! summaries, events, output and live stream, its cancel and relaunch; and
//! what the deployer needs on this server (its virtual environment, the
//! hosts' SSH key). Core decides what a run is; `deploy` drives it.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use futures_util::StreamExt;
use futures_util::stream;
use mosaic_core::api::{
    ErrorBody, ErrorCode, HistoryRow, HostSummary, Relaunch, RelaunchHosts, Run, RunEvent, RunPlan,
    RunRequest, Runner, SshKey, TaskStatus,
};
use mosaic_core::deployer::Known;
use mosaic_core::run::playbook::count_plays;
use mosaic_core::run::{RunRefusal, Snapshot, outcome, plan};
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::versions::streamed;
use crate::AppState;
use crate::access::Principal;
use crate::db::{HistoryFilter, NewRun};
use crate::deploy::{Venv, secrets};
use crate::environment::Stored;
use crate::error::{ApiError, ApiJson};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start))
        .routes(routes!(list))
        .routes(routes!(show))
        .routes(routes!(history))
        .routes(routes!(hosts))
        .routes(routes!(events))
        .routes(routes!(stdout))
        .routes(routes!(stream_events))
        .routes(routes!(cancel))
        .routes(routes!(relaunch))
        .routes(routes!(runner))
        .routes(routes!(set_ssh_key))
}

/// `?dry_run=true`: what the run would do, nothing started.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct StartOptions {
    /// Answer the plan (steps, limits, nodes) and start nothing.
    #[serde(default)]
    dry_run: bool,
}

fn not_found(id: i64) -> ApiError {
    ApiError::NotFound(format!("run {id} does not exist"))
}

/// A deployer Mosaic does not run.
fn unknown_deployer(name: &str) -> ApiError {
    ApiError::Coded(
        StatusCode::NOT_FOUND,
        ErrorCode::UnknownDeployer,
        format!(
            "Mosaic runs no deployer '{name}' (it runs {})",
            Known::names()
        ),
    )
}

/// A run core refuses, as the API answers it.
fn refused(refusal: RunRefusal) -> ApiError {
    let (status, code) = match refusal {
        RunRefusal::NoActions
        | RunRefusal::ChangesWithActions
        | RunRefusal::UnknownNodes(_)
        | RunRefusal::NotRemoved(_) => (StatusCode::BAD_REQUEST, ErrorCode::BadRequest),
        RunRefusal::NoChanges => (StatusCode::CONFLICT, ErrorCode::NoChanges),
        RunRefusal::Removed(_) => (StatusCode::CONFLICT, ErrorCode::HostsRemoved),
        RunRefusal::Upgrade { .. } => (StatusCode::CONFLICT, ErrorCode::Conflict),
    };
    ApiError::Coded(status, code, refusal.to_string())
}

/// What a start works out before it stores anything.
struct Prepared {
    stored: Stored,
    snapshot: Snapshot,
    plan: RunPlan,
    runtime: Option<mosaic_core::deployer::Runtime>,
}

/// Environment `id` exported for `name`, and the run `request` makes of
/// it (CPU work: off the async workers).
async fn prepare(
    state: &AppState,
    id: i64,
    name: String,
    request: RunRequest,
) -> Result<Prepared, ApiError> {
    if Known::named(&name).is_none() {
        return Err(unknown_deployer(&name));
    }
    let stored = Stored::load_with_addresses(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
    let last = state.db.last_deployed(id).await?;
    super::blocking(move || {
        let (snapshot, runtime) = {
            let env = stored.environment()?;
            let export = env
                .export_to(&name)
                .ok_or_else(|| unknown_deployer(&name))?
                .map_err(ApiError::NotExportable)?;
            (
                Snapshot::of(&export),
                env.deployer(&name).and_then(|d| d.runtime),
            )
        };
        let plan = plan(&request, &snapshot, last.as_ref()).map_err(refused)?;
        Ok(Prepared {
            stored,
            snapshot,
            plan,
            runtime,
        })
    })
    .await
}

/// How many plays each step's playbook has (read from the deployer's
/// own playbooks).
async fn plays_of(venv: &Venv, plan: &RunPlan) -> Result<Vec<u32>, ApiError> {
    let playbooks = venv.playbooks();
    let actions: Vec<_> = plan.steps.iter().map(|s| s.action).collect();
    super::blocking(move || {
        let read = |name: &str| std::fs::read_to_string(playbooks.join(name)).ok();
        actions
            .iter()
            .map(|action| {
                let file = action.playbook();
                let text = read(file).ok_or_else(|| {
                    ApiError::Internal(anyhow::anyhow!(
                        "cannot read {}",
                        playbooks.join(file).display()
                    ))
                })?;
                count_plays(file, &text, &read).map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))
            })
            .collect()
    })
    .await
}

/// The answer of a started run, or of a dry run.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
enum Started {
    Run(Box<Run>),
    Plan(RunPlan),
}

/// Starts a run of kolla-ansible for the environment (SEMANTICS §15): a
/// whole deployment, what changed since the last one (`changes`), or the
/// actions asked for; with `dry_run`, only what it would do.
#[utoipa::path(
    post,
    path = "/api/v1/clusters/{id}/deployers/{name}/runs",
    operation_id = "start_run",
    tag = "runs",
    params(
        ("id" = i64, Path, description = "The environment's id"),
        ("name" = String, Path, description = "The deployer (`kolla-ansible`)"),
        StartOptions,
    ),
    request_body = RunRequest,
    responses(
        (status = 202, description = "Started: the run (`GET /api/v1/runs/{id}` follows it)", body = Run),
        (status = 200, description = "`dry_run`: the steps with their limits, the nodes whose status would follow, what changed", body = RunPlan),
        (status = 400, description = "`bad_request`: an unknown action, no action, a limit naming a node that is no host, `changes` with `actions` or `limit`, `removed` naming a host not removed", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment; `unknown_deployer`: a deployer Mosaic does not run", body = ErrorBody),
        (status = 409, description = "`not_exportable`: the export's problems (`problems`); `deployment_running`: a run of the environment has not ended; `no_changes`: nothing changed since the last successful deployment; `hosts_removed`: deployed hosts were removed (kolla-ansible's steps in the message); `deployer_not_installed`: no virtual environment for the deployer on this server; `conflict`: another OpenStack release (an upgrade)", body = ErrorBody),
    )
)]
async fn start(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    Query(options): Query<StartOptions>,
    principal: Option<Extension<Principal>>,
    ApiJson(request): ApiJson<RunRequest>,
) -> Result<Response, ApiError> {
    let connection = request.connection;
    let prepared = prepare(&state, id, name.clone(), request).await?;
    if options.dry_run {
        return Ok(Json(Started::Plan(prepared.plan)).into_response());
    }
    let venv = state
        .deployments
        .venv(&name, prepared.runtime.as_ref())
        .map_err(|why| {
            ApiError::Coded(StatusCode::CONFLICT, ErrorCode::DeployerNotInstalled, why)
        })?;
    let plays = plays_of(&venv, &prepared.plan).await?;
    let scope = outcome::scope(
        &prepared.plan.nodes,
        &prepared.snapshot,
        &prepared.stored.spec.nodes,
    );
    let actor = principal.map_or_else(|| "-".to_owned(), |p| p.actor.clone());
    let venv_dir = venv.dir.display().to_string();
    let new = NewRun {
        cluster_id: id,
        deployer: &name,
        plan: &prepared.plan,
        connection,
        snapshot: &prepared.snapshot,
        plays: &plays,
        scope: &scope,
        created_by: &actor,
        supervisor: state.deployments.me(),
        venv: &venv_dir,
        now: crate::timestamp::now_millis(),
    };
    let run_id = state.db.insert_run(&new).await?;
    state.deployments.launch(&state.db, run_id);
    let run = state
        .db
        .run(run_id)
        .await?
        .ok_or_else(|| not_found(run_id))?;
    Ok((StatusCode::ACCEPTED, Json(Started::Run(Box::new(run)))).into_response())
}

/// The environment's runs, newest first.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/runs",
    operation_id = "list_cluster_runs",
    tag = "runs",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "Its runs, newest first", body = Vec<Run>),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn list(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<Run>>, ApiError> {
    if state.db.cluster(id).await?.is_none() {
        return Err(ApiError::NotFound(format!(
            "environment {id} does not exist"
        )));
    }
    Ok(Json(state.db.runs(id).await?))
}

/// A run: its status, its steps with the command line each ran and its
/// exit code, its progress.
#[utoipa::path(
    get,
    path = "/api/v1/runs/{id}",
    operation_id = "show_run",
    tag = "runs",
    params(("id" = i64, Path, description = "The run's id")),
    responses(
        (status = 200, description = "The run", body = Run),
        (status = 404, description = "`not_found`: no such run", body = ErrorBody),
    )
)]
async fn show(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Json<Run>, ApiError> {
    Ok(Json(state.db.run(id).await?.ok_or_else(|| not_found(id))?))
}

/// `GET …/history`'s filters and page.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct HistoryQuery {
    /// Node ids, comma-separated.
    #[serde(default)]
    nodes: Option<String>,
    /// Statuses (`ok`, `changed`, `failed`, `skipped`, `unreachable`,
    /// `ignored`, `rescued`), comma-separated.
    #[serde(default)]
    statuses: Option<String>,
    /// Task names, comma-separated.
    #[serde(default)]
    tasks: Option<String>,
    /// Rows to skip (JSON only; CSV is every row).
    #[serde(default)]
    offset: Option<i64>,
    /// Rows at most (JSON only): 1,000 by default, 10,000 at most.
    #[serde(default)]
    limit: Option<i64>,
    /// `csv`: every row as CSV, as `Accept: text/csv` asks (for a link).
    #[serde(default)]
    #[param(inline)]
    format: Option<HistoryFormat>,
}

/// `GET …/history?format=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
enum HistoryFormat {
    Json,
    Csv,
}

/// The longest page of history rows.
const HISTORY_PAGE: i64 = 10_000;

/// The most values one filter of the history takes.
const FILTER_VALUES: usize = 1_000;

impl HistoryQuery {
    fn filter(&self) -> Result<HistoryFilter, ApiError> {
        let items = |text: &Option<String>| -> Vec<String> {
            text.iter()
                .flat_map(|t| t.split(','))
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect()
        };
        for (name, list) in [
            ("nodes", &self.nodes),
            ("statuses", &self.statuses),
            ("tasks", &self.tasks),
        ] {
            if items(list).len() > FILTER_VALUES {
                return Err(ApiError::BadRequest(format!(
                    "{name}: at most {FILTER_VALUES} values"
                )));
            }
        }
        let nodes = items(&self.nodes)
            .iter()
            .map(|n| {
                n.parse::<i64>()
                    .map_err(|_| ApiError::BadRequest(format!("nodes: '{n}' is not a node id")))
            })
            .collect::<Result<_, _>>()?;
        let statuses = items(&self.statuses)
            .iter()
            .map(|s| {
                TaskStatus::parse(s).ok_or_else(|| {
                    ApiError::BadRequest(format!(
                        "statuses: '{s}' is not one of ok, changed, failed, skipped, unreachable, ignored, rescued"
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(HistoryFilter {
            nodes,
            statuses,
            tasks: items(&self.tasks),
        })
    }
}

/// A run's history: one row per task and host (Fuel's
/// `deployment_history`), filtered by node, status and task; with
/// `Accept: text/csv` (or `?format=csv`), every row as CSV (the same
/// columns, `task_name` first, a header line), streamed.
#[utoipa::path(
    get,
    path = "/api/v1/runs/{id}/history",
    operation_id = "run_history",
    tag = "runs",
    params(("id" = i64, Path, description = "The run's id"), HistoryQuery),
    responses(
        (status = 200, description = "Its rows in the order they happened (JSON), or every row as CSV with `Accept: text/csv`", body = Vec<HistoryRow>,
            content((Vec<HistoryRow> = "application/json"), (String = "text/csv"))),
        (status = 400, description = "`bad_request`: a node id, status or page that is not one", body = ErrorBody),
        (status = 404, description = "`not_found`: no such run", body = ErrorBody),
    )
)]
async fn history(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<HistoryQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let filter = query.filter()?;
    if state.db.run_progress(id).await?.is_none() {
        return Err(not_found(id));
    }
    let wants_csv = query.format == Some(HistoryFormat::Csv)
        || headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.contains("text/csv"));
    if wants_csv {
        return Ok(history_csv(state, id, filter));
    }
    let offset = query.offset.unwrap_or(0);
    let limit = query.limit.unwrap_or(1_000);
    if offset < 0 || !(1..=HISTORY_PAGE).contains(&limit) {
        return Err(ApiError::BadRequest(format!(
            "offset must be 0 or more and limit 1 to {HISTORY_PAGE}"
        )));
    }
    Ok(Json(state.db.run_history(id, &filter, offset, limit).await?).into_response())
}

/// Every history row of run `id` that `filter` keeps, as CSV, a page at a
/// time.
fn history_csv(state: AppState, id: i64, filter: HistoryFilter) -> Response {
    let header_line = Bytes::from(csv_rows(&[HistoryRow::COLUMNS.map(str::to_owned)]));
    let pages = stream::unfold(Some(0i64), move |offset| {
        let (state, filter) = (state.clone(), filter.clone());
        async move {
            let offset = offset?;
            match state.db.run_history(id, &filter, offset, 5_000).await {
                Ok(rows) if rows.is_empty() => None,
                Ok(rows) => {
                    let next = offset + rows.len() as i64;
                    let cells: Vec<[String; 10]> = rows.iter().map(HistoryRow::cells).collect();
                    Some((
                        Ok::<_, std::io::Error>(Bytes::from(csv_rows(&cells))),
                        Some(next),
                    ))
                }
                Err(e) => Some((Err(std::io::Error::other(e.to_string())), None)),
            }
        }
    });
    // Fused: a body may be polled once more after its end, which an
    // `unfold` answers with a panic.
    let body = stream::once(async move { Ok(header_line) })
        .chain(pages)
        .fuse();
    streamed((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"run-{id}-history.csv\""),
            ),
        ],
        Body::from_stream(body),
    ))
}

/// `rows` as CSV lines (the `csv` crate's quoting).
fn csv_rows(rows: &[[String; 10]]) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.write_record(row).expect("a Vec takes every write");
    }
    writer.into_inner().expect("a Vec takes every write")
}

/// What the run did on each host: Ansible's counts (its own
/// `playbook_on_stats` once a step ended) and the task each is on.
#[utoipa::path(
    get,
    path = "/api/v1/runs/{id}/hosts",
    operation_id = "run_hosts",
    tag = "runs",
    params(("id" = i64, Path, description = "The run's id")),
    responses(
        (status = 200, description = "Each host, by name", body = Vec<HostSummary>),
        (status = 404, description = "`not_found`: no such run", body = ErrorBody),
    )
)]
async fn hosts(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<HostSummary>>, ApiError> {
    if state.db.run_progress(id).await?.is_none() {
        return Err(not_found(id));
    }
    Ok(Json(state.db.run_hosts(id).await?))
}

/// `GET …/events`'s page.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct EventsQuery {
    /// The events after this sequence (0: from the first).
    #[serde(default)]
    after: Option<i64>,
    /// Events at most: 1,000 by default, 10,000 at most.
    #[serde(default)]
    limit: Option<i64>,
}

/// A run's events in order, after a sequence.
#[utoipa::path(
    get,
    path = "/api/v1/runs/{id}/events",
    operation_id = "run_events",
    tag = "runs",
    params(("id" = i64, Path, description = "The run's id"), EventsQuery),
    responses(
        (status = 200, description = "Its events after `after`, in order", body = Vec<RunEvent>),
        (status = 400, description = "`bad_request`: a page that is not one", body = ErrorBody),
        (status = 404, description = "`not_found`: no such run", body = ErrorBody),
    )
)]
async fn events(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<EventsQuery>,
) -> Result<Json<Vec<RunEvent>>, ApiError> {
    let (after, limit) = (query.after.unwrap_or(0), query.limit.unwrap_or(1_000));
    if after < 0 || !(1..=10_000).contains(&limit) {
        return Err(ApiError::BadRequest(
            "after must be 0 or more and limit 1 to 10000".to_owned(),
        ));
    }
    if state.db.run_progress(id).await?.is_none() {
        return Err(not_found(id));
    }
    Ok(Json(state.db.run_events(id, after, limit).await?))
}

/// A run's output, as Ansible printed it (secrets masked).
#[utoipa::path(
    get,
    path = "/api/v1/runs/{id}/stdout",
    operation_id = "run_stdout",
    tag = "runs",
    params(("id" = i64, Path, description = "The run's id")),
    responses(
        (status = 200, description = "Its output so far", content((String = "text/plain"))),
        (status = 404, description = "`not_found`: no such run", body = ErrorBody),
    )
)]
async fn stdout(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Response, ApiError> {
    let Some((_, finished)) = state.db.run_progress(id).await? else {
        return Err(not_found(id));
    };
    let kept = state
        .deployments
        .data_dir()
        .ok()
        .map(|d| d.join("runs").join(id.to_string()).join("stdout"));
    let headers = [(header::CONTENT_TYPE, "text/plain; charset=utf-8")];
    if let (true, Some(path)) = (finished, kept)
        && let Ok(file) = tokio::fs::File::open(&path).await
    {
        let body = Body::from_stream(tokio_util::io::ReaderStream::new(file));
        return Ok(streamed((headers, body)));
    }
    let pages = stream::unfold(Some(0i64), move |after| {
        let state = state.clone();
        async move {
            let after = after?;
            match state.db.run_events(id, after, 5_000).await {
                Ok(events) if events.is_empty() => None,
                Ok(events) => {
                    let next = events.last().map_or(after, |e| e.seq);
                    let text = crate::deploy::output_of(&events);
                    Some((Ok::<_, std::io::Error>(Bytes::from(text)), Some(next)))
                }
                Err(e) => Some((Err(std::io::Error::other(e.to_string())), None)),
            }
        }
    });
    Ok(streamed((headers, Body::from_stream(pages.fuse()))))
}

/// One Server-Sent Event of a run's stream.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct StreamEvent {
    /// The event's sequence (none on `end`).
    id: Option<String>,
    /// `message` (or absent) for an event, `end` for the run's end.
    event: Option<String>,
    /// The event's JSON (`RunEvent`), or the run's on `end` (`Run`).
    data: String,
}

/// How long a stream waits for news before it asks the database again
/// (another server may be storing the run's events).
const POLL: Duration = Duration::from_secs(1);

/// The state of one stream: where it is, what it holds, whether it said
/// the end.
struct Streaming {
    state: AppState,
    id: i64,
    after: i64,
    pending: std::collections::VecDeque<RunEvent>,
    news: tokio::sync::watch::Receiver<i64>,
    ended: bool,
}

/// A run's events as they happen (Server-Sent Events): each event's `id`
/// is its sequence, `Last-Event-ID` (or `?after=`) resumes after it with
/// no gap and no repeat, comments keep the connection alive, and an `end`
/// event carrying the run closes it.
#[utoipa::path(
    get,
    path = "/api/v1/runs/{id}/stream",
    operation_id = "run_stream",
    tag = "runs",
    params(
        ("id" = i64, Path, description = "The run's id"),
        ("after" = Option<i64>, Query, description = "Resume after this sequence (as `Last-Event-ID` does)"),
        ("Last-Event-ID" = Option<String>, Header, description = "The sequence of the last event received"),
    ),
    responses(
        (status = 200, description = "`text/event-stream`: a `message` per event (its JSON, `id` its sequence), then `end` with the run", content((StreamEvent = "text/event-stream"))),
        (status = 400, description = "`bad_request`: a `Last-Event-ID` that is no sequence", body = ErrorBody),
        (status = 404, description = "`not_found`: no such run", body = ErrorBody),
    )
)]
async fn stream_events(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<EventsQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let resume = headers
        .get("last-event-id")
        .map(|v| {
            v.to_str()
                .ok()
                .and_then(|s| s.trim().parse::<i64>().ok())
                .ok_or_else(|| {
                    ApiError::BadRequest("Last-Event-ID is not an event's sequence".to_owned())
                })
        })
        .transpose()?;
    let after = resume.or(query.after).unwrap_or(0).max(0);
    if state.db.run_progress(id).await?.is_none() {
        return Err(not_found(id));
    }
    let streaming = Streaming {
        news: state.deployments.watch(id),
        state,
        id,
        after,
        pending: std::collections::VecDeque::new(),
        ended: false,
    };
    let events = stream::unfold(streaming, |mut s| async move {
        let event = s.next().await?;
        Some((Ok::<_, Infallible>(event), s))
    })
    .fuse();
    let sse = Sse::new(events).keep_alive(
        KeepAlive::new()
            .interval(Duration::from_secs(15))
            .text("keep-alive"),
    );
    Ok(streamed(sse))
}

impl Streaming {
    /// The next event to send, `end` once the run ended and every event
    /// was sent, then nothing.
    async fn next(&mut self) -> Option<Event> {
        if self.ended {
            return None;
        }
        loop {
            if let Some(event) = self.pending.pop_front() {
                self.after = event.seq;
                let data = serde_json::to_string(&event).expect("events serialize");
                return Some(Event::default().id(event.seq.to_string()).data(data));
            }
            let page = self
                .state
                .db
                .run_events(self.id, self.after, 500)
                .await
                .ok()?;
            if !page.is_empty() {
                self.pending.extend(page);
                continue;
            }
            let (last, finished) = self.state.db.run_progress(self.id).await.ok()??;
            if finished && last <= self.after {
                self.ended = true;
                let run = self.state.db.run(self.id).await.ok()??;
                let data = serde_json::to_string(&run).expect("runs serialize");
                return Some(Event::default().event("end").data(data));
            }
            let _ = tokio::time::timeout(POLL, self.news.changed()).await;
        }
    }
}

/// Stops a run: its runner and everything it started (within seconds), the
/// run `canceled`.
#[utoipa::path(
    post,
    path = "/api/v1/runs/{id}/cancel",
    operation_id = "cancel_run",
    tag = "runs",
    params(("id" = i64, Path, description = "The run's id")),
    responses(
        (status = 202, description = "Asked to stop: the run, `canceling`", body = Run),
        (status = 404, description = "`not_found`: no such run", body = ErrorBody),
        (status = 409, description = "`conflict`: the run ended already", body = ErrorBody),
    )
)]
async fn cancel(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Response, ApiError> {
    state
        .db
        .request_cancel(id)
        .await?
        .ok_or_else(|| not_found(id))?;
    state.deployments.cancel(id);
    let run = state.db.run(id).await?.ok_or_else(|| not_found(id))?;
    Ok((StatusCode::ACCEPTED, Json(run)).into_response())
}

/// Runs a run's actions again on the environment as it is now: on the
/// hosts its steps were limited to (every host when they were not: `all`),
/// or only on those that failed or were unreachable there (`failed`).
#[utoipa::path(
    post,
    path = "/api/v1/runs/{id}/relaunch",
    operation_id = "relaunch_run",
    tag = "runs",
    params(("id" = i64, Path, description = "The run's id")),
    request_body = Relaunch,
    responses(
        (status = 202, description = "Started: the new run", body = Run),
        (status = 400, description = "`bad_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such run", body = ErrorBody),
        (status = 409, description = "`conflict`: no host failed there (`failed`), or the run has not ended; and the refusals of a start (`deployment_running`, `not_exportable`, …)", body = ErrorBody),
    )
)]
async fn relaunch(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    principal: Option<Extension<Principal>>,
    ApiJson(relaunch): ApiJson<Relaunch>,
) -> Result<Response, ApiError> {
    let run = state.db.run(id).await?.ok_or_else(|| not_found(id))?;
    if !run.status.is_final() {
        return Err(ApiError::Conflict(format!(
            "run {id} has not ended: cancel it or wait for its end"
        )));
    }
    let snapshot = state.db.run_snapshot(id).await?.unwrap_or_default();
    let hosts = state.db.run_hosts(id).await?;
    let failed = relaunch.hosts == RelaunchHosts::Failed;
    let request =
        mosaic_core::run::plan::relaunch(&run, &snapshot, &hosts, failed).ok_or_else(|| {
            ApiError::Conflict(format!("no node failed or was unreachable in run {id}"))
        })?;
    let path = Path((run.cluster_id, run.deployer.clone()));
    start(
        State(state),
        path,
        Query(StartOptions::default()),
        principal,
        ApiJson(request),
    )
    .await
}

/// Whether this server can run the deployer for the environment: its
/// virtual environment, the SSH key, the passwords (never their values).
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/deployers/{name}/runner",
    operation_id = "show_runner",
    tag = "runs",
    params(("id" = i64, Path, description = "The environment's id"),
        ("name" = String, Path, description = "The deployer (`kolla-ansible`)")),
    responses(
        (status = 200, description = "What the server has", body = Runner),
        (status = 404, description = "`not_found`: no such environment; `unknown_deployer`", body = ErrorBody),
    )
)]
async fn runner(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
) -> Result<Json<Runner>, ApiError> {
    if Known::named(&name).is_none() {
        return Err(unknown_deployer(&name));
    }
    let stored = Stored::head(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
    let runtime = stored
        .environment()?
        .deployer(&name)
        .and_then(|d| d.runtime);
    let venv = state.deployments.venv(&name, runtime.as_ref());
    let data_dir = state.deployments.data_dir().ok();
    let exists = |path: Option<std::path::PathBuf>| path.is_some_and(|p| p.is_file());
    Ok(Json(Runner {
        installed: venv.is_ok(),
        venv: venv.as_ref().ok().map(|v| v.dir.display().to_string()),
        missing: venv.err(),
        ssh_key: exists(data_dir.map(|d| secrets::key_path(d, id, &name))),
        passwords: exists(data_dir.map(|d| secrets::passwords_path(d, id, &name))),
        deployer: name,
    }))
}

/// Sets the SSH key runs reach the environment's hosts with: kept in the
/// data directory (0600), never in the database, an answer or a log.
#[utoipa::path(
    put,
    path = "/api/v1/clusters/{id}/deployers/{name}/ssh_key",
    operation_id = "set_ssh_key",
    tag = "runs",
    params(("id" = i64, Path, description = "The environment's id"),
        ("name" = String, Path, description = "The deployer (`kolla-ansible`)")),
    request_body = SshKey,
    responses(
        (status = 204, description = "Kept"),
        (status = 400, description = "`bad_request`: not a private key, or over 16 KiB", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment; `unknown_deployer`", body = ErrorBody),
        (status = 409, description = "`deployer_not_installed`: this server runs no deployments", body = ErrorBody),
    )
)]
async fn set_ssh_key(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    ApiJson(key): ApiJson<SshKey>,
) -> Result<StatusCode, ApiError> {
    if Known::named(&name).is_none() {
        return Err(unknown_deployer(&name));
    }
    if state.db.cluster(id).await?.is_none() {
        return Err(ApiError::NotFound(format!(
            "environment {id} does not exist"
        )));
    }
    secrets::check_key(&key.private_key).map_err(ApiError::BadRequest)?;
    let data_dir = state
        .deployments
        .data_dir()
        .map_err(|why| ApiError::Coded(StatusCode::CONFLICT, ErrorCode::DeployerNotInstalled, why))?
        .to_path_buf();
    let path = secrets::key_path(&data_dir, id, &name);
    let mut text = key.private_key.trim().to_owned();
    text.push('\n');
    super::blocking(move || {
        secrets::write_private(&path, text.as_bytes()).map_err(|e| ApiError::Internal(e.into()))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
