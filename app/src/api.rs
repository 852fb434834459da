//! Calls to the server's `/api/v1`. Errors carry the server's message and,
//! for rejected selections, its structured violations.

use std::cell::RefCell;

use gloo_net::http::Request;
use mosaic_core::api::{
    Attributes, BulkNodes, ChangeComponents, Cluster, ClusterDisks, ConfigurationChange,
    ConfigurationView, Consequences, CreateCluster, CreateNode, CreateRole, CreateTag, DiskEntry,
    ErrorCode, ErrorProblem, ExportProblem, HistoryRow, InstanceTagChanges, InterfacesView,
    NetworkProblem, NewGroup, NodeDisks, NodeProblem, NodeTagsChange, NodeView, PatchAttributes,
    PluginSummary, ResolveTemplates, RoleTags, RoleView, Run, RunPlan, RunRequest, SessionView,
    SignIn, TagView, TemplateResolution, TemplateSet, UpdateNode, UpdateTag, UpgradeConsequences,
    UpgradeRequest, Verification, VolumeInfo,
};
use mosaic_core::component::Violation;
use mosaic_core::name::{GraphType, TagName};
use mosaic_core::network::NodeGroup;
use mosaic_core::plugin::Report;
use mosaic_core::settings::Problem;
use mosaic_core::task::{Plan, PlanError, PlanErrorKind};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub struct ApiFailure {
    pub message: String,
    pub violations: Vec<Violation>,
    /// For a refused plugin: the validation report.
    pub report: Option<Box<Report>>,
    /// For refused settings: every problem, by `group.attr`.
    pub problems: Vec<Problem>,
    /// For a refused bulk change: every problem, by node; for a refused
    /// components change, each node and the role it holds (the message
    /// names both).
    pub node_problems: Vec<NodeProblem>,
    /// The server could not be reached (or answered with a gateway
    /// error): trying again later may work.
    pub offline: bool,
    /// The HTTP status (0 when there was no answer).
    pub status: u16,
    /// The API's error code (none when the answer was not the API's, or
    /// names a code this app does not know): what pages branch on.
    pub code: Option<ErrorCode>,
    /// What a refusal of one of the rarer kinds carries besides its
    /// message (boxed: most failures carry none, and a failure stays small
    /// enough to be returned by value).
    pub refused: Option<Box<Refused>>,
}

/// What a refusal carries, by the kind of change refused.
#[derive(Debug, Clone, PartialEq)]
pub enum Refused {
    /// A components change (or its preview): what it would have done.
    Components(Consequences),
    /// An upgrade (or its preview): what it would have done.
    Upgrade(UpgradeConsequences),
    /// A network save or a node's interfaces: every problem, with its
    /// networks and fields.
    Networks(Vec<NetworkProblem>),
    /// An export: every component, role, setting or node the deployer has
    /// no equivalent for.
    Export(Vec<ExportProblem>),
}

thread_local! {
    /// What to do when the server says the session is gone (401).
    static ON_UNAUTHORIZED: RefCell<Option<Box<dyn Fn()>>> = const { RefCell::new(None) };
}

/// Calls `f` whenever the server answers 401 (signed out elsewhere, the
/// session expired): the app shows the sign-in page.
pub fn on_unauthorized(f: impl Fn() + 'static) {
    ON_UNAUTHORIZED.with(|slot| *slot.borrow_mut() = Some(Box::new(f)));
}

fn unauthorized() {
    ON_UNAUTHORIZED.with(|slot| {
        if let Some(f) = slot.borrow().as_ref() {
            f();
        }
    });
}

impl ApiFailure {
    pub(crate) fn plain(message: String) -> ApiFailure {
        ApiFailure {
            message,
            violations: Vec::new(),
            report: None,
            problems: Vec::new(),
            node_problems: Vec::new(),
            offline: false,
            status: 0,
            code: None,
            refused: None,
        }
    }

    /// A failure found in the browser, before or after asking the server.
    pub fn message(text: impl Into<String>) -> ApiFailure {
        ApiFailure::plain(text.into())
    }

    /// What a refused components change would have done.
    pub fn consequences(&self) -> Option<Consequences> {
        match self.refused.as_deref() {
            Some(Refused::Components(c)) => Some(c.clone()),
            _ => None,
        }
    }

    /// What a refused upgrade would have done.
    pub fn upgrade(&self) -> Option<UpgradeConsequences> {
        match self.refused.as_deref() {
            Some(Refused::Upgrade(u)) => Some(u.clone()),
            _ => None,
        }
    }

    /// The problems of a refused network save or interfaces change.
    pub fn network_problems(&self) -> &[NetworkProblem] {
        match self.refused.as_deref() {
            Some(Refused::Networks(problems)) => problems,
            _ => &[],
        }
    }

    /// The problems of a refused export.
    pub fn export_problems(&self) -> &[ExportProblem] {
        match self.refused.as_deref() {
            Some(Refused::Export(problems)) => problems,
            _ => &[],
        }
    }

    /// What the violations it carries say, in order.
    pub fn details(&self) -> Vec<&str> {
        self.violations.iter().map(|v| v.message.as_str()).collect()
    }

    /// The server could not be reached for `what` (trying again later may
    /// work).
    pub fn unreachable(what: &str) -> ApiFailure {
        ApiFailure {
            offline: true,
            ..ApiFailure::plain(what.to_owned())
        }
    }

    fn offline(error: gloo_net::Error) -> ApiFailure {
        ApiFailure {
            offline: true,
            ..ApiFailure::plain(format!("Cannot reach the server ({error})."))
        }
    }
}

impl std::fmt::Display for ApiFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// So that a page can render a `Result` under an `ErrorBoundary`, which
/// hands the failure back (`downcast_ref`) to show it with a Retry button.
impl std::error::Error for ApiFailure {}

/// Sends `request` and reads its answer's body: the one place a request
/// goes out, so that the failure handling below is written once.
async fn exchange(request: Result<Request, gloo_net::Error>) -> Result<String, ApiFailure> {
    exchange_tagged(request).await.map(|(body, _)| body)
}

/// The same, with the answer's `ETag` (empty when it has none).
async fn exchange_tagged(
    request: Result<Request, gloo_net::Error>,
) -> Result<(String, String), ApiFailure> {
    let response = request
        .map_err(|e| ApiFailure::plain(e.to_string()))?
        .send()
        .await
        .map_err(ApiFailure::offline)?;
    let status = response.status();
    let etag = response.headers().get("etag").unwrap_or_default();
    let body = response.text().await;
    if response.ok() {
        return body.map(|body| (body, etag)).map_err(unexpected);
    }
    if status == 401 {
        unauthorized();
    }
    let error = body
        .ok()
        .and_then(|text| serde_json::from_str::<Refusal>(&text).ok());
    Err(match error {
        Some(body) => refusal(body, status),
        // A proxy's or a restarting server's answer, not the API's.
        None => ApiFailure {
            offline: matches!(status, 502..=504),
            status,
            ..ApiFailure::plain(format!("the server answered {status}"))
        },
    })
}

/// The parts of the API's error answer (core's `ErrorBody`) that the app
/// reads; serde skips the rest. Its `refusals` (an upgrade's reasons) are
/// not read: the message says them.
#[derive(Deserialize)]
struct Refusal {
    error: RefusalDetail,
}

#[derive(Deserialize)]
struct RefusalDetail {
    /// Read apart (`ErrorCode`), so that a code newer than the app still
    /// leaves the rest of the answer readable.
    #[serde(default)]
    code: Value,
    message: String,
    #[serde(default)]
    violations: Vec<Violation>,
    #[serde(default)]
    report: Option<Report>,
    #[serde(default)]
    problems: Vec<ErrorProblem>,
    #[serde(default)]
    upgrade: Option<UpgradeConsequences>,
    #[serde(default)]
    consequences: Option<Consequences>,
}

/// The API's own refusal, its problems sorted by kind.
fn refusal(body: Refusal, status: u16) -> ApiFailure {
    let mut failure = ApiFailure {
        message: body.error.message,
        violations: body.error.violations,
        report: body.error.report.map(Box::new),
        status,
        code: serde_json::from_value(body.error.code).ok(),
        refused: match (body.error.consequences, body.error.upgrade) {
            (Some(c), _) => Some(Box::new(Refused::Components(c))),
            (None, Some(u)) => Some(Box::new(Refused::Upgrade(u))),
            (None, None) => None,
        },
        ..ApiFailure::plain(String::new())
    };
    let (mut networks, mut export) = (Vec::new(), Vec::new());
    for problem in body.error.problems {
        match problem {
            ErrorProblem::Setting(p) => failure.problems.push(p),
            ErrorProblem::Node(n) => failure.node_problems.push(n),
            ErrorProblem::Role(r) => failure.node_problems.push(NodeProblem {
                node: r.node,
                name: Some(r.name),
                message: r.message,
            }),
            ErrorProblem::Network(n) => networks.push(n),
            ErrorProblem::Export(e) => export.push(e),
            ErrorProblem::Import(i) => failure.problems.push(Problem::new(i.place(), i.message)),
        }
    }
    if !networks.is_empty() {
        failure.refused = Some(Box::new(Refused::Networks(networks)));
    } else if !export.is_empty() {
        failure.refused = Some(Box::new(Refused::Export(export)));
    }
    failure
}

/// An answer's body as a `T`.
fn parse<T: DeserializeOwned>(body: &str) -> Result<T, ApiFailure> {
    serde_json::from_str(body).map_err(unexpected)
}

fn unexpected(error: impl std::fmt::Display) -> ApiFailure {
    ApiFailure::plain(format!("unexpected answer from the server: {error}"))
}

/// The API's paths that pages read and change.
pub mod path {
    pub fn session() -> String {
        "/api/v1/session".to_owned()
    }

    pub fn releases() -> String {
        "/api/v1/releases".to_owned()
    }

    pub fn components(release: i64) -> String {
        format!("/api/v1/releases/{release}/components")
    }

    pub fn clusters() -> String {
        "/api/v1/clusters".to_owned()
    }

    pub fn cluster(id: i64) -> String {
        format!("/api/v1/clusters/{id}")
    }

    /// `what` of a cluster: `attributes`, `nodes`, `nodes/bulk`, `roles`,
    /// `checks`, `graphs`, `plan`, `environment`.
    pub fn of_cluster(id: i64, what: &str) -> String {
        format!("/api/v1/clusters/{id}/{what}")
    }

    pub fn plugins() -> String {
        "/api/v1/plugins".to_owned()
    }

    /// A run, or `what` of it (`hosts`, `history`, `stream`, `stdout`,
    /// `cancel`).
    pub fn run(id: i64, what: &str) -> String {
        match what {
            "" => format!("/api/v1/runs/{id}"),
            what => format!("/api/v1/runs/{id}/{what}"),
        }
    }

    /// Deployer `name` of environment `cluster` (its export), or `what`
    /// of it (`archive`, `runner`, `runs`).
    pub fn deployer(cluster: i64, name: &str, what: &str) -> String {
        match what {
            "" => of_cluster(cluster, &format!("deployers/{name}")),
            what => of_cluster(cluster, &format!("deployers/{name}/{what}")),
        }
    }

    /// Where environment `cluster`'s runs start (of the deployer Mosaic
    /// runs).
    pub fn runs_of(cluster: i64) -> String {
        deployer(cluster, RUN.name(), "runs")
    }

    /// Whether this server can run the deployer Mosaic runs.
    pub fn runner_of(cluster: i64) -> String {
        deployer(cluster, RUN.name(), "runner")
    }

    /// The deployer Mosaic runs.
    const RUN: mosaic_core::deployer::Known = mosaic_core::deployer::Known::KollaAnsible;

    /// Run `id`'s history as CSV, every row `filters` keep.
    pub fn run_history_csv(id: i64, filters: &super::HistoryFilters) -> String {
        let mut query: Vec<String> = filters
            .pairs()
            .iter()
            .map(|(key, value)| format!("{key}={}", js_sys::encode_uri_component(value)))
            .collect();
        query.push("format=csv".to_owned());
        format!("{}?{}", run(id, "history"), query.join("&"))
    }
}

/// What the History tab's filters keep: node ids, statuses and task
/// names, each comma-separated, as the history route reads them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HistoryFilters {
    pub nodes: String,
    pub statuses: String,
    pub tasks: String,
}

impl HistoryFilters {
    /// The filters given, as query parameters.
    fn pairs(&self) -> Vec<(&'static str, String)> {
        [
            ("nodes", &self.nodes),
            ("statuses", &self.statuses),
            ("tasks", &self.tasks),
        ]
        .into_iter()
        .filter(|(_, value)| !value.trim().is_empty())
        .map(|(key, value)| (key, value.trim().to_owned()))
        .collect()
    }
}

/// `limit` rows of run `id`'s history from `offset`, those `filters` keep.
pub async fn run_history(
    id: i64,
    filters: &HistoryFilters,
    offset: usize,
    limit: usize,
) -> Result<Vec<HistoryRow>, ApiFailure> {
    let mut query = filters.pairs();
    query.push(("offset", offset.to_string()));
    query.push(("limit", limit.to_string()));
    send(Request::get(&path::run(id, "history")).query(query).build()).await
}

async fn send<T: DeserializeOwned>(
    request: Result<Request, gloo_net::Error>,
) -> Result<T, ApiFailure> {
    parse(&exchange(request).await?)
}

/// A request whose answer has no body (204).
async fn send_empty(request: Result<Request, gloo_net::Error>) -> Result<(), ApiFailure> {
    exchange(request).await.map(drop)
}

/// An answer with its `ETag`: what a change of the same thing sends back
/// as `If-Match`, so that it is refused (412) if the thing moved on.
#[derive(Debug, Clone, PartialEq)]
pub struct Tagged<T> {
    pub value: T,
    pub etag: String,
}

impl<T> Tagged<T> {
    /// The version the `ETag` starts with (`"7-…"`: 7).
    pub fn version(&self) -> Option<i64> {
        version_of(&self.etag)
    }
}

/// The version an `ETag` starts with: the server writes `"VERSION-DIGEST"`.
fn version_of(etag: &str) -> Option<i64> {
    let tag = etag.trim().trim_start_matches("W/").trim_matches('"');
    tag.split('-').next()?.parse().ok()
}

/// Of two answers of the same thing, the one of the newer version (`b` on
/// a tie: the later of the two), or the one there is.
pub fn newest<T: Clone>(a: Option<&Tagged<T>>, b: Option<&Tagged<T>>) -> Option<Tagged<T>> {
    match (a, b) {
        (Some(a), Some(b)) if a.version() > b.version() => Some(a.clone()),
        (a, b) => b.or(a).cloned(),
    }
}

async fn send_tagged<T: DeserializeOwned>(
    request: Result<Request, gloo_net::Error>,
) -> Result<Tagged<T>, ApiFailure> {
    let (body, etag) = exchange_tagged(request).await?;
    Ok(Tagged {
        value: parse(&body)?,
        etag,
    })
}

/// A GET of `path` with the answer's `ETag`.
pub async fn get_tagged<T: DeserializeOwned>(path: String) -> Result<Tagged<T>, ApiFailure> {
    send_tagged(Request::get(&path).build()).await
}

/// The answer to a GET of `path` as a `T`: what a page's `LocalResource`
/// reads. A page reads its independent answers concurrently (each its own
/// resource, or `futures::join`), not one after another.
pub async fn get<T: DeserializeOwned>(path: String) -> Result<T, ApiFailure> {
    send(Request::get(&path).build()).await
}

/// The plan of graph type `graph`. A type no source defines (any more:
/// the list it was picked from may be older than a change of the plugins)
/// is a plan with that one error, as `mosaic plan` prints it, so that the
/// rest of the page stays. The route's 404 is that, `unknown_graph`: an
/// unknown environment is 404 to the page's other answers as well.
pub async fn plan(cluster: i64, graph: GraphType) -> Result<Plan, ApiFailure> {
    let request = Request::get(&path::of_cluster(cluster, "plan"))
        .query([("graph", graph.as_str())])
        .build();
    match send(request).await {
        Err(failure) if failure.code == Some(ErrorCode::UnknownGraph) => Ok(Plan::failed(
            PlanError::new(PlanErrorKind::UnknownGraph, failure.message),
        )),
        answer => answer,
    }
}

/// Who is signed in; 401 when nobody is.
pub async fn session() -> Result<SessionView, ApiFailure> {
    send(Request::get(&path::session()).build()).await
}

pub async fn sign_in(request: &SignIn) -> Result<SessionView, ApiFailure> {
    send(Request::post(&path::session()).json(request)).await
}

pub async fn sign_out() -> Result<(), ApiFailure> {
    send_empty(Request::delete(&path::session()).build()).await
}

pub async fn create_cluster(request: &CreateCluster) -> Result<Cluster, ApiFailure> {
    send(Request::post(&path::clusters()).json(request)).await
}

/// Saves settings changes made on top of `version`.
pub async fn patch_attributes(
    cluster: i64,
    patch: &PatchAttributes,
    version: i64,
) -> Result<Attributes, ApiFailure> {
    send(
        Request::patch(&path::of_cluster(cluster, "attributes"))
            .header("if-match", &format!("\"{version}\""))
            .json(patch),
    )
    .await
}

/// What changing the environment's components to `change` would do (a
/// dry run: nothing is stored).
pub async fn preview_components(
    cluster: i64,
    change: &ChangeComponents,
) -> Result<Consequences, ApiFailure> {
    let request = Request::put(&path::of_cluster(cluster, "components"))
        .query([("dry_run", "true")])
        .json(change);
    send(request).await
}

/// Changes the environment's components, if its settings are still at
/// `version`.
pub async fn change_components(
    cluster: i64,
    change: &ChangeComponents,
    version: i64,
) -> Result<Cluster, ApiFailure> {
    send(
        Request::put(&path::of_cluster(cluster, "components"))
            .header("if-match", &format!("\"{version}\""))
            .json(change),
    )
    .await
}

/// What moving one of the environment's plugins to a newer version would
/// do (a dry run; a refusal says why).
pub async fn preview_upgrade(
    cluster: i64,
    upgrade: &UpgradeRequest,
) -> Result<UpgradeConsequences, ApiFailure> {
    let request = Request::post(&path::of_cluster(cluster, "upgrade"))
        .query([("dry_run", "true")])
        .json(upgrade);
    send(request).await
}

/// Moves one of the environment's plugins to a newer version, if its
/// settings are still at `version`.
pub async fn upgrade(
    cluster: i64,
    upgrade: &UpgradeRequest,
    version: i64,
) -> Result<UpgradeConsequences, ApiFailure> {
    /// The part of the answer (`Upgraded`) the page reads, as above.
    #[derive(serde::Deserialize)]
    struct Done {
        upgrade: UpgradeConsequences,
    }
    let request = Request::post(&path::of_cluster(cluster, "upgrade"))
        .header("if-match", &format!("\"{version}\""))
        .json(upgrade);
    Ok(send::<Done>(request).await?.upgrade)
}

/// What run `request` would do (a dry run: nothing starts; a refusal
/// says why).
pub async fn plan_run(cluster: i64, request: &RunRequest) -> Result<RunPlan, ApiFailure> {
    let request = Request::post(&path::runs_of(cluster))
        .query([("dry_run", "true")])
        .json(request);
    send(request).await
}

/// Starts run `request`.
pub async fn start_run(cluster: i64, request: &RunRequest) -> Result<Run, ApiFailure> {
    send(Request::post(&path::runs_of(cluster)).json(request)).await
}

/// Asks run `id` to stop.
pub async fn cancel_run(id: i64) -> Result<Run, ApiFailure> {
    send(Request::post(&path::run(id, "cancel")).build()).await
}

pub async fn delete_cluster(id: i64) -> Result<(), ApiFailure> {
    send_empty(Request::delete(&path::cluster(id)).build()).await
}

pub async fn delete_node(id: i64) -> Result<(), ApiFailure> {
    send_empty(Request::delete(&format!("/api/v1/nodes/{id}")).build()).await
}

/// One change to many nodes, all or nothing: the nodes that changed (each
/// saying whether its disk layout was reset: `disks_reset`).
pub async fn bulk_nodes(cluster: i64, change: &BulkNodes) -> Result<Vec<NodeView>, ApiFailure> {
    send(Request::post(&path::of_cluster(cluster, "nodes/bulk")).json(change)).await
}

/// Whose tags: an environment's or a release's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagOwner {
    Environment(i64),
    Release(i64),
}

impl TagOwner {
    pub fn path(self) -> String {
        match self {
            TagOwner::Environment(id) => format!("/api/v1/clusters/{id}/tags"),
            TagOwner::Release(id) => format!("/api/v1/releases/{id}/tags"),
        }
    }
}

pub async fn create_tag(owner: TagOwner, tag: &CreateTag) -> Result<TagView, ApiFailure> {
    send(Request::post(&owner.path()).json(tag)).await
}

pub async fn update_tag(
    owner: TagOwner,
    name: &str,
    has_primary: bool,
) -> Result<TagView, ApiFailure> {
    let path = format!("{}/{name}", owner.path());
    send(Request::put(&path).json(&UpdateTag {
        has_primary,
        instances: None,
    }))
    .await
}

impl TagOwner {
    /// The path of the owner's roles.
    pub fn roles_path(self) -> String {
        match self {
            TagOwner::Environment(id) => format!("/api/v1/clusters/{id}/roles"),
            TagOwner::Release(id) => format!("/api/v1/releases/{id}/roles"),
        }
    }
}

/// A role's tags at the owner's level (SEMANTICS §5.1).
pub async fn put_role_tags(
    owner: TagOwner,
    name: &str,
    tags: Vec<TagName>,
) -> Result<RoleView, ApiFailure> {
    let path = format!("{}/{name}", owner.roles_path());
    send(Request::put(&path).json(&RoleTags { tags })).await
}

/// What replacing a role's tags would do (a dry run): the role as it
/// would be, and the instance tags its holders would be given and lose.
pub async fn preview_role_tags(
    owner: TagOwner,
    name: &str,
    tags: Vec<TagName>,
) -> Result<InstanceTagChanges, ApiFailure> {
    /// The part of the answer (`RoleChanged`) the page reads: serde's
    /// flattened reading of the whole is code the download need not carry.
    #[derive(serde::Deserialize)]
    struct Counted {
        instance_tags: InstanceTagChanges,
    }
    let path = format!("{}/{name}", owner.roles_path());
    let request = Request::put(&path)
        .query([("dry_run", "true")])
        .json(&RoleTags { tags });
    Ok(send::<Counted>(request).await?.instance_tags)
}

/// The owner's change of a role undone (a role created there deleted).
pub async fn reset_role(owner: TagOwner, name: &str) -> Result<(), ApiFailure> {
    send_empty(Request::delete(&format!("{}/{name}", owner.roles_path())).build()).await
}

pub async fn create_role(owner: TagOwner, role: &CreateRole) -> Result<RoleView, ApiFailure> {
    send(Request::post(&owner.roles_path()).json(role)).await
}

pub async fn delete_tag(owner: TagOwner, name: &str) -> Result<(), ApiFailure> {
    send_empty(Request::delete(&format!("{}/{name}", owner.path())).build()).await
}

/// Installs the release built into the server again (admins).
pub async fn reinstall_bundled() -> Result<PluginSummary, ApiFailure> {
    send(Request::post("/api/v1/plugins/bundled").build()).await
}

pub async fn create_node(cluster: i64, node: &CreateNode) -> Result<NodeView, ApiFailure> {
    send(Request::post(&path::of_cluster(cluster, "nodes")).json(node)).await
}

pub async fn update_node(id: i64, change: &UpdateNode) -> Result<NodeView, ApiFailure> {
    send(Request::put(&format!("/api/v1/nodes/{id}")).json(change)).await
}

/// The tags typed by the operator, or which one is not a tag name.
fn tag_names(tags: Vec<String>) -> Result<Vec<TagName>, ApiFailure> {
    tags.into_iter()
        .map(|t| TagName::new(t).map_err(|e| ApiFailure::plain(e.to_string())))
        .collect()
}

pub async fn assign_tags(id: i64, tags: Vec<String>) -> Result<NodeView, ApiFailure> {
    let tags = tag_names(tags)?;
    send(Request::post(&format!("/api/v1/nodes/{id}/tags")).json(&NodeTagsChange { tags })).await
}

pub async fn unassign_tags(id: i64, tags: Vec<String>) -> Result<NodeView, ApiFailure> {
    let tags = tag_names(tags)?;
    send(Request::delete(&format!("/api/v1/nodes/{id}/tags")).json(&NodeTagsChange { tags })).await
}

pub async fn upload_template_set(name: &str, bytes: Vec<u8>) -> Result<TemplateSet, ApiFailure> {
    let body = js_sys::Uint8Array::from(bytes.as_slice());
    send(
        Request::post("/api/v1/heat/template-sets")
            .query([("name", name)])
            .header("content-type", "application/octet-stream")
            .body(body),
    )
    .await
}

pub async fn resolve_templates(
    set: i64,
    request: &ResolveTemplates,
) -> Result<TemplateResolution, ApiFailure> {
    send(Request::post(&format!("/api/v1/heat/template-sets/{set}/resolve")).json(request)).await
}

/// The file picked in `input`, which is cleared so that picking the same
/// file again is a change.
pub fn picked_file(input: &web_sys::HtmlInputElement) -> Option<web_sys::File> {
    let file = input.files()?.get(0)?;
    input.set_value("");
    Some(file)
}

/// The bytes of a file the user picked.
pub async fn file_bytes(file: web_sys::File) -> Result<Vec<u8>, ApiFailure> {
    let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| ApiFailure::plain(format!("cannot read the file: {e:?}")))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// The `Content-Type` for a package archive named `file_name`. The server
/// reads the archive's kind from its first bytes; anything but JSON is an
/// archive to it, so an unknown name is sent as plain bytes.
pub fn archive_content_type(file_name: &str) -> &'static str {
    let name = file_name.to_ascii_lowercase();
    if name.ends_with(".zip") {
        "application/zip"
    } else if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
        "application/gzip"
    } else {
        "application/octet-stream"
    }
}

/// Installs an uploaded package archive (`.tar.gz` or `.zip`), its bytes
/// the request body.
pub async fn upload_plugin(
    bytes: Vec<u8>,
    content_type: &str,
) -> Result<PluginSummary, ApiFailure> {
    let body = js_sys::Uint8Array::from(bytes.as_slice());
    send(
        Request::post(&path::plugins())
            .header("content-type", content_type)
            .body(body),
    )
    .await
}

pub async fn uninstall_plugin(id: i64) -> Result<(), ApiFailure> {
    send_empty(Request::delete(&format!("/api/v1/plugins/{id}")).build()).await
}

/// What importing `files` (file name → text, as a JSON object) into
/// environment `cluster` does, or with `dry_run` would do.
pub async fn import_nodes(
    cluster: i64,
    files: &serde_json::Map<String, serde_json::Value>,
    dry_run: bool,
) -> Result<mosaic_core::api::ImportReport, ApiFailure> {
    let path = path::of_cluster(cluster, "nodes/import");
    let request = Request::post(&path);
    let request = if dry_run {
        request.query([("dry_run", "true")])
    } else {
        request
    };
    send(request.json(files)).await
}

/// Node `id`'s hardware; none before it is found or declared (404).
pub async fn node_hardware(id: i64) -> Result<Option<mosaic_core::api::NodeHardware>, ApiFailure> {
    match get(format!("/api/v1/nodes/{id}/hardware")).await {
        Ok(hardware) => Ok(Some(hardware)),
        Err(failure) if failure.code == Some(ErrorCode::NotFound) => Ok(None),
        Err(failure) => Err(failure),
    }
}

/// The path of environment `cluster`'s network configuration.
fn networks_path(cluster: i64) -> String {
    path::of_cluster(cluster, "network_configuration/neutron")
}

/// The environment's network configuration with its `ETag`.
pub async fn networks(cluster: i64) -> Result<Tagged<ConfigurationView>, ApiFailure> {
    get_tagged(networks_path(cluster)).await
}

/// Saves `change` made to the network configuration of `etag`: 412 when
/// it moved on, 400 `invalid_networks` with every problem.
pub async fn save_networks(
    cluster: i64,
    change: &ConfigurationChange,
    etag: &str,
) -> Result<Tagged<ConfigurationView>, ApiFailure> {
    send_tagged(
        Request::put(&networks_path(cluster))
            .header("if-match", etag)
            .json(change),
    )
    .await
}

/// Every problem a save of `change` would have, the nodes' interfaces
/// included (nothing is stored).
pub async fn verify_networks(
    cluster: i64,
    change: &ConfigurationChange,
) -> Result<Verification, ApiFailure> {
    send(Request::put(&format!("{}/verify", networks_path(cluster))).json(change)).await
}

pub async fn create_group(cluster: i64, name: String) -> Result<NodeGroup, ApiFailure> {
    send(Request::post(&path::of_cluster(cluster, "node_groups")).json(&NewGroup { name })).await
}

/// Deletes a node group; 409 while nodes are in it.
pub async fn delete_group(id: i64) -> Result<(), ApiFailure> {
    send_empty(Request::delete(&format!("/api/v1/node_groups/{id}")).build()).await
}

fn interfaces_path(node: i64) -> String {
    format!("/api/v1/nodes/{node}/interfaces")
}

/// A node's interfaces, the networks on them and its addresses, with the
/// node's `ETag`.
pub async fn interfaces(node: i64) -> Result<Tagged<InterfacesView>, ApiFailure> {
    get_tagged(interfaces_path(node)).await
}

/// Saves a node's interfaces and the networks on them, if the node is
/// still at `etag`: 400 `invalid_interfaces` with every problem.
pub async fn put_interfaces(
    node: i64,
    view: &InterfacesView,
    etag: &str,
) -> Result<Tagged<InterfacesView>, ApiFailure> {
    send_tagged(
        Request::put(&interfaces_path(node))
            .header("if-match", etag)
            .json(view),
    )
    .await
}

/// Node `id`'s disks as the API shows them (Fuel's simple format, MB),
/// with the node's `ETag`; none before its disks are known.
pub async fn node_disks(id: i64) -> Result<Tagged<Vec<DiskEntry>>, ApiFailure> {
    get_tagged(format!("/api/v1/nodes/{id}/disks")).await
}

/// Stores `disks` as node `id`'s layout if the node is still at `etag`:
/// the layout stored, or 400 `invalid_disks` with every problem.
pub async fn put_node_disks(
    id: i64,
    disks: &[DiskEntry],
    etag: &str,
) -> Result<Tagged<Vec<DiskEntry>>, ApiFailure> {
    send_tagged(
        Request::put(&format!("/api/v1/nodes/{id}/disks"))
            .header("if-match", etag)
            .json(&disks),
    )
    .await
}

/// The layout Fuel's allocation gives node `id` now (not stored).
pub async fn disk_defaults(id: i64) -> Result<Vec<DiskEntry>, ApiFailure> {
    get(format!("/api/v1/nodes/{id}/disks/defaults")).await
}

/// The volumes node `id` has, each with its minimum over all its disks.
pub async fn node_volumes(id: i64) -> Result<Vec<VolumeInfo>, ApiFailure> {
    get(format!("/api/v1/nodes/{id}/volumes")).await
}

/// `layout` given to every node of `nodes` by disk position (nodes with
/// the same roles and the same disk sizes): each node's layout stored.
pub async fn put_cluster_disks(
    cluster: i64,
    nodes: &[i64],
    layout: &[DiskEntry],
) -> Result<Vec<NodeDisks>, ApiFailure> {
    let body = ClusterDisks {
        nodes: nodes.to_vec(),
        layout: layout.to_vec(),
    };
    send(Request::put(&path::of_cluster(cluster, "disks")).json(&body)).await
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use mosaic_core::api::Subject;
    use mosaic_core::api::{ErrorCode, ErrorProblem, UpgradeConsequences};
    use mosaic_core::environment::EnvTab;
    use mosaic_core::settings::Problem;
    use serde_json::json;

    use super::{Refusal, Tagged, archive_content_type, newest, refusal, version_of};

    #[wasm_bindgen_test]
    fn an_error_answer_is_read_for_what_the_app_shows() {
        // An upgrade refused with a setting's problem, as the server sends
        // it: its code and its refusals are there but not read.
        let body = json!({"error": {
            "code": "upgrade_refused",
            "message": "the upgrade is refused: the chosen component 'x' would disappear",
            "refusals": [{"kind": "component", "component": "x"}],
            "problems": [ErrorProblem::Setting(Problem::new("a.b", "bad"))],
            "upgrade": UpgradeConsequences::default(),
        }});
        let read: Refusal = serde_json::from_str(&body.to_string()).expect("an error answer reads");
        let failure = refusal(read, 409);
        assert_eq!(
            failure.message,
            "the upgrade is refused: the chosen component 'x' would disappear"
        );
        assert_eq!(failure.status, 409);
        assert_eq!(failure.problems, vec![Problem::new("a.b", "bad")]);
        assert_eq!(failure.upgrade(), Some(UpgradeConsequences::default()));
        assert!(failure.consequences().is_none());
    }

    #[wasm_bindgen_test]
    fn a_code_newer_than_the_app_leaves_the_rest_of_the_answer() {
        let body = json!({"error": {"code": "from_the_future", "message": "no"}});
        let read: Refusal = serde_json::from_str(&body.to_string()).expect("an error answer reads");
        let failure = refusal(read, 409);
        assert_eq!((failure.code, failure.message.as_str()), (None, "no"));
    }

    #[wasm_bindgen_test]
    fn an_export_refusal_keeps_every_problem_with_the_tab_that_fixes_it() {
        // As the server sends it: a node's problem names its tab too, which
        // sets it apart from a bulk change's node problem.
        let body = json!({"error": {
            "code": "not_exportable",
            "message": "the environment cannot be exported for kolla-ansible: …",
            "problems": [
                {"kind": "unsupported_component", "message": "component 'x': none", "component": "x", "fixed_on": "components"},
                {"kind": "host_name", "message": "node 'bad name': …", "node": 3, "fixed_on": "nodes"},
                {"kind": "no_management_address", "message": "node 'b': no management address", "node": 4, "fixed_on": "networks"},
                {"kind": "condition", "message": "tag 't' placing group 'g': …"},
            ],
        }});
        let read: Refusal = serde_json::from_str(&body.to_string()).expect("an error answer reads");
        let failure = refusal(read, 409);
        assert_eq!(
            failure.code,
            Some(ErrorCode::NotExportable),
            "pages branch on the code"
        );
        assert!(failure.node_problems.is_empty());
        let tabs: Vec<Option<EnvTab>> = failure
            .export_problems()
            .iter()
            .map(|p| p.fixed_on)
            .collect();
        assert_eq!(
            tabs,
            [
                Some(EnvTab::Components),
                Some(EnvTab::Nodes),
                Some(EnvTab::Networks),
                None
            ]
        );
        assert_eq!(failure.export_problems()[1].subject, Some(Subject::Node(3)));
    }

    #[wasm_bindgen_test]
    fn an_etag_starts_with_its_version_and_the_newer_answer_wins() {
        assert_eq!(version_of("\"7-3fa9\""), Some(7));
        assert_eq!(version_of("W/\"12\""), Some(12));
        assert_eq!(version_of(""), None);
        let tagged = |value: u8, etag: &str| Tagged {
            value,
            etag: etag.to_owned(),
        };
        let (old, new) = (tagged(1, "\"3-a\""), tagged(2, "\"4-b\""));
        assert_eq!(newest(Some(&new), Some(&old)).map(|t| t.value), Some(2));
        assert_eq!(newest(Some(&old), Some(&new)).map(|t| t.value), Some(2));
        let again = tagged(3, "\"4-c\"");
        assert_eq!(newest(Some(&new), Some(&again)).map(|t| t.value), Some(3));
        assert_eq!(newest(None, Some(&old)).map(|t| t.value), Some(1));
        assert_eq!(newest::<u8>(None, None), None);
    }

    #[wasm_bindgen_test]
    fn archives_are_typed_by_their_name() {
        for (name, expect) in [
            ("openstack-5.0.tar.gz", "application/gzip"),
            ("PLUGIN.TGZ", "application/gzip"),
            ("plugin.zip", "application/zip"),
            ("plugin.tar", "application/octet-stream"),
            ("metadata.yaml", "application/octet-stream"),
            ("", "application/octet-stream"),
        ] {
            assert_eq!(archive_content_type(name), expect, "{name}");
        }
    }
}
