//! The API's error answers, for its handlers (`http`) and for the guard
//! in front of them (`access`) alike: one error type, whose client errors
//! carry structured data and whose internal errors are logged and answered
//! with a generic message; the JSON extractor whose rejections use the
//! same body, and every other refusal rewritten into it.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use mosaic_core::api::{
    Consequences, ErrorBody, ErrorCode, ErrorDetail, ErrorProblem, NetworkProblem, NodeProblem,
    RoleInUse, UpgradeConsequences,
};
use mosaic_core::component::Violation;
use mosaic_core::environment::Upgrade;
use mosaic_core::export::ExportRefusal;
use mosaic_core::plugin::Report;
use mosaic_core::settings::Problem;
use serde::de::DeserializeOwned;

use crate::db::{DbError, InUse};

#[derive(Debug)]
pub enum ApiError {
    NotFound(String),
    BadRequest(String),
    InvalidSelection(Vec<Violation>),
    /// Settings with problems (400 `invalid_settings`), every one by `group.attr`.
    InvalidSettings(Vec<Problem>),
    Conflict(String),
    /// Another error code than the generic one of its status.
    Coded(StatusCode, ErrorCode, String),
    /// A package with validation errors (400 `invalid_plugin`) or one that
    /// collides with installed plugins (409 `plugin_conflict`).
    Plugin(StatusCode, ErrorCode, Box<Report>),
    /// Nodes a change cannot be made to (400 `invalid_nodes`), every
    /// problem by node.
    InvalidNodes(String, Vec<NodeProblem>),
    /// A components change under nodes holding roles it would make
    /// unavailable (409 `components_in_use`), every node and role, and
    /// the problems its settings would have.
    ComponentsInUse(Vec<RoleInUse>, Vec<Problem>),
    /// An upgrade that cannot be made (409 `upgrade_refused`): every
    /// reason, with the consequences it would have, and the problems its
    /// settings would have.
    UpgradeRefused(Box<Upgrade>, Vec<Problem>),
    /// A refused change whose consequences are known: its body carries
    /// them too, as its dry run shows them (SEMANTICS: one rule for
    /// previews).
    Previewed(Box<ApiError>, Box<Preview>),
    /// A network configuration or a node's interfaces with problems (400
    /// with `code`: `invalid_networks`, `invalid_interfaces`), every one
    /// with its networks and fields.
    InvalidNetworks(ErrorCode, Vec<NetworkProblem>),
    /// An environment with something a deployer has no equivalent for
    /// (409 `not_exportable`): every problem.
    NotExportable(ExportRefusal),
    /// An import of found hardware with problems (400 `invalid_import`):
    /// every one, with its file and host.
    InvalidImport(Vec<mosaic_core::hardware::ReadProblem>),
    /// A disk layout with problems (400 `invalid_disks`): every one, by
    /// its place in the layout sent or by node; nothing stored.
    InvalidDisks(String, Vec<ErrorProblem>),
    Internal(anyhow::Error),
}

/// The consequences a refused change would have had.
#[derive(Debug)]
pub enum Preview {
    Components(Consequences),
    Upgrade(UpgradeConsequences),
}

impl ApiError {
    /// This refusal, with the consequences the change would have had.
    pub(crate) fn previewed(self, preview: Preview) -> ApiError {
        ApiError::Previewed(Box::new(self), Box::new(preview))
    }
}

/// How often a change is checked again when what it was checked against
/// (the settings, the components, the nodes) keeps changing under it.
const ATTEMPTS: usize = 8;

/// A change made by `attempt` — read, check, store — tried again while it
/// loses a race: while what it was checked against moved on before it was
/// stored, which it reports as `Ok(None)` (a store that found another
/// change first) or as a `busy` refusal ([`DbError::Moved`]'s). After
/// [`ATTEMPTS`] lost races, 409 `busy` saying that `what` keep changing.
/// Any other refusal is the answer at once.
pub(crate) async fn retried<T, F>(what: &str, mut attempt: impl FnMut() -> F) -> Result<T, ApiError>
where
    F: Future<Output = Result<Option<T>, ApiError>>,
{
    let outcome = crate::retry::attempts(ATTEMPTS, || {
        let tried = attempt();
        async move {
            match tried.await {
                Err(e) if e.is_busy() => Ok(None),
                other => other,
            }
        }
    })
    .await?;
    outcome.ok_or_else(|| ApiError::busy(what))
}

impl ApiError {
    /// 409 `busy`: `what` kept changing under a change for [`ATTEMPTS`]
    /// tries.
    fn busy(what: &str) -> ApiError {
        ApiError::Coded(
            StatusCode::CONFLICT,
            ErrorCode::Busy,
            format!("{what} keep changing under this request; try again"),
        )
    }

    /// 409 with the code of what is in use (`plugin_in_use`,
    /// `node_group_in_use`): a refusal the database's or a handler's.
    pub(crate) fn in_use(what: InUse, message: String) -> ApiError {
        let code = match what {
            InUse::Plugin => ErrorCode::PluginInUse,
            InUse::NodeGroup => ErrorCode::NodeGroupInUse,
        };
        ApiError::Coded(StatusCode::CONFLICT, code, message)
    }

    /// Whether this is a `busy` refusal (also [`DbError::Moved`]'s): the
    /// change may be checked again.
    fn is_busy(&self) -> bool {
        matches!(
            self,
            ApiError::Coded(StatusCode::CONFLICT, ErrorCode::Busy, _)
        )
    }

    /// The status and body of each error. Long: one arm per kind of error,
    /// so that how every failure reaches a client reads in one place.
    fn parts(self) -> (StatusCode, ErrorDetail) {
        let detail = |code: ErrorCode, message: String| ErrorDetail {
            code: code.as_str().to_owned(),
            message,
            ..ErrorDetail::default()
        };
        match self {
            ApiError::NotFound(m) => (StatusCode::NOT_FOUND, detail(ErrorCode::NotFound, m)),
            ApiError::BadRequest(m) => (StatusCode::BAD_REQUEST, detail(ErrorCode::BadRequest, m)),
            ApiError::Conflict(m) => (StatusCode::CONFLICT, detail(ErrorCode::Conflict, m)),
            ApiError::Coded(status, code, m) => (status, detail(code, m)),
            ApiError::Plugin(status, code, report) => {
                let what = if status == StatusCode::CONFLICT {
                    "the plugin collides with installed plugins"
                } else {
                    "the plugin package is not valid"
                };
                let message = format!("{what}: {}", report.summary());
                let report = Some(*report);
                (
                    status,
                    ErrorDetail {
                        report,
                        ..detail(code, message)
                    },
                )
            }
            ApiError::InvalidSelection(violations) => {
                let message = format!(
                    "the selected components are not a valid combination ({})",
                    mosaic_core::text::counted(violations.len(), "problem"),
                );
                let detail = detail(ErrorCode::InvalidSelection, message);
                (
                    StatusCode::BAD_REQUEST,
                    ErrorDetail {
                        violations,
                        ..detail
                    },
                )
            }
            ApiError::InvalidSettings(problems) => {
                let message = format!("the settings are not valid: {}", settings(&problems));
                let detail = detail(ErrorCode::InvalidSettings, message);
                let problems = problems.into_iter().map(ErrorProblem::Setting).collect();
                (StatusCode::BAD_REQUEST, ErrorDetail { problems, ..detail })
            }
            ApiError::InvalidNodes(message, problems) => {
                let problems = problems.into_iter().map(ErrorProblem::Node).collect();
                let detail = detail(ErrorCode::InvalidNodes, message);
                (StatusCode::BAD_REQUEST, ErrorDetail { problems, ..detail })
            }
            ApiError::ComponentsInUse(in_use, invalid) => {
                let message = with_settings(components_in_use(&in_use), &invalid);
                let problems = in_use
                    .into_iter()
                    .map(ErrorProblem::Role)
                    .chain(invalid.into_iter().map(ErrorProblem::Setting))
                    .collect();
                let detail = detail(ErrorCode::ComponentsInUse, message);
                (StatusCode::CONFLICT, ErrorDetail { problems, ..detail })
            }
            ApiError::UpgradeRefused(upgrade, invalid) => {
                let reasons: Vec<String> =
                    upgrade.refusals.iter().map(ToString::to_string).collect();
                let message = format!("the upgrade is refused: {}", reasons.join("; "));
                let detail = ErrorDetail {
                    problems: invalid.iter().cloned().map(ErrorProblem::Setting).collect(),
                    refusals: upgrade.refusals,
                    upgrade: Some(upgrade.consequences),
                    ..detail(ErrorCode::UpgradeRefused, with_settings(message, &invalid))
                };
                (StatusCode::CONFLICT, detail)
            }
            ApiError::Previewed(error, preview) => {
                let (status, mut detail) = error.parts();
                match *preview {
                    Preview::Components(c) => detail.consequences = Some(c),
                    Preview::Upgrade(u) => detail.upgrade = Some(u),
                }
                (status, detail)
            }
            ApiError::InvalidNetworks(code, problems) => {
                let lines: Vec<String> = problems
                    .iter()
                    .map(|p| p.message.replace('\n', " "))
                    .collect();
                let count = problems.len();
                let message = format!(
                    "{count} problem{}: {}",
                    mosaic_core::text::plural(count),
                    lines.join("; ")
                );
                let problems = problems.into_iter().map(ErrorProblem::Network).collect();
                (
                    StatusCode::BAD_REQUEST,
                    ErrorDetail {
                        problems,
                        ..detail(code, message)
                    },
                )
            }
            ApiError::NotExportable(refusal) => {
                let message = refusal.to_string();
                let problems = refusal
                    .problems
                    .into_iter()
                    .map(ErrorProblem::Export)
                    .collect();
                (
                    StatusCode::CONFLICT,
                    ErrorDetail {
                        problems,
                        ..detail(ErrorCode::NotExportable, message)
                    },
                )
            }
            ApiError::InvalidImport(problems) => {
                let message = import_problems(&problems);
                let problems = problems.into_iter().map(ErrorProblem::Import).collect();
                (
                    StatusCode::BAD_REQUEST,
                    ErrorDetail {
                        problems,
                        ..detail(ErrorCode::InvalidImport, message)
                    },
                )
            }
            ApiError::InvalidDisks(message, problems) => (
                StatusCode::BAD_REQUEST,
                ErrorDetail {
                    problems,
                    ..detail(ErrorCode::InvalidDisks, message)
                },
            ),
            ApiError::Internal(e) => {
                tracing::error!("internal error: {e:#}");
                let message = "internal server error; see the server log".to_owned();
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    detail(ErrorCode::Internal, message),
                )
            }
        }
    }
}

/// How many problems an import's message names; `problems` has them all.
const NAMED_PROBLEMS: usize = 5;

/// An import's problems in one line: the first few (`file (host):
/// message; …`) and how many more.
fn import_problems(problems: &[mosaic_core::hardware::ReadProblem]) -> String {
    let named: Vec<String> = problems
        .iter()
        .take(NAMED_PROBLEMS)
        .map(|p| match &p.host {
            Some(host) => format!("{} ({host}): {}", p.file, p.message),
            None => format!("{}: {}", p.file, p.message),
        })
        .collect();
    let more = problems.len().saturating_sub(NAMED_PROBLEMS);
    let tail = if more > 0 {
        format!("; and {more} more")
    } else {
        String::new()
    };
    format!(
        "the import is refused, nothing was stored: {}{tail}",
        named.join("; ")
    )
}

/// Settings problems in one line: `group.attr: message; …`.
fn settings(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| format!("{}: {}", p.path, p.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `message`, and the settings' problems when there are any.
fn with_settings(message: String, problems: &[Problem]) -> String {
    if problems.is_empty() {
        return message;
    }
    format!(
        "{message}; and the settings would not be valid: {}",
        settings(problems)
    )
}

/// The message of a `components_in_use` refusal: each node with its role.
fn components_in_use(in_use: &[RoleInUse]) -> String {
    let held: Vec<String> = in_use
        .iter()
        .map(|u| format!("'{}' holds '{}'", u.name, u.role))
        .collect();
    format!(
        "the components cannot change while nodes hold roles the change makes unavailable: {}; \
         remove those roles from the nodes first",
        held.join(", ")
    )
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, error) = self.parts();
        (status, Json(ErrorBody { error })).into_response()
    }
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> Self {
        match e {
            DbError::Conflict(m) => ApiError::Conflict(m),
            DbError::NotFound(m) => ApiError::NotFound(m),
            DbError::InUse(what, m) => ApiError::in_use(what, m),
            DbError::Stale(m) => ApiError::Coded(
                StatusCode::PRECONDITION_FAILED,
                ErrorCode::PreconditionFailed,
                m,
            ),
            DbError::Moved(m) => ApiError::Coded(StatusCode::CONFLICT, ErrorCode::Busy, m),
            DbError::RunActive(run) => ApiError::Coded(
                StatusCode::CONFLICT,
                ErrorCode::DeploymentRunning,
                format!(
                    "run {run} of this environment has not ended: one run at a time (GET /api/v1/runs/{run})"
                ),
            ),
            DbError::PluginConflict(diagnostics) => ApiError::Plugin(
                StatusCode::CONFLICT,
                ErrorCode::PluginConflict,
                Box::new(Report::new(None, Vec::new(), diagnostics)),
            ),
            other => ApiError::Internal(other.into()),
        }
    }
}

/// `Json<T>` whose rejections answer with the same error body as everything else.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => {
                let status = rejection.status();
                let message = rejection_message(rejection);
                Err(match status {
                    StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => {
                        ApiError::BadRequest(message)
                    }
                    other => ApiError::Coded(other, code_of(other), message),
                })
            }
        }
    }
}

fn rejection_message(rejection: JsonRejection) -> String {
    match rejection {
        JsonRejection::JsonDataError(e) => format!("invalid request body: {}", e.body_text()),
        JsonRejection::JsonSyntaxError(e) => format!("request body is not JSON: {}", e.body_text()),
        JsonRejection::MissingJsonContentType(_) => {
            "this route takes JSON: send Content-Type: application/json".to_owned()
        }
        other => other.body_text(),
    }
}

/// The error code of a status that has no more specific one.
pub fn code_of(status: StatusCode) -> ErrorCode {
    match status.as_u16() {
        400 => ErrorCode::BadRequest,
        401 => ErrorCode::Unauthorized,
        403 => ErrorCode::Forbidden,
        404 => ErrorCode::NotFound,
        405 => ErrorCode::MethodNotAllowed,
        408 => ErrorCode::Timeout,
        409 => ErrorCode::Conflict,
        412 => ErrorCode::PreconditionFailed,
        413 => ErrorCode::PayloadTooLarge,
        415 => ErrorCode::UnsupportedMediaType,
        429 => ErrorCode::TooManyRequests,
        500 => ErrorCode::Internal,
        _ => ErrorCode::Error,
    }
}

/// Answers that are not the API's JSON — axum's own rejections (a path
/// parameter that is not a number, a body over the limit), a timeout —
/// get the project's error body, their text as the message.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 16 << 10)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_owned())
        .unwrap_or_default();
    let message = match (text.is_empty(), status) {
        (false, _) => text,
        (true, StatusCode::REQUEST_TIMEOUT) => {
            "the request took too long and was stopped".to_owned()
        }
        (true, _) => status.canonical_reason().unwrap_or("error").to_owned(),
    };
    let mut answer = ApiError::Coded(status, code_of(status), message).into_response();
    for name in [axum::http::header::RETRY_AFTER, axum::http::header::ALLOW] {
        if let Some(value) = parts.headers.get(&name) {
            answer.headers_mut().insert(name, value.clone());
        }
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[tokio::test]
    async fn a_change_that_keeps_losing_is_busy_naming_what_kept_changing() {
        let tries = Cell::new(0);
        let done: Result<(), ApiError> = retried("the settings", || async {
            tries.set(tries.get() + 1);
            Ok(None)
        })
        .await;
        let (status, detail) = done.unwrap_err().parts();
        assert_eq!(tries.get(), ATTEMPTS);
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(detail.code, ErrorCode::Busy.as_str());
        assert_eq!(
            detail.message,
            "the settings keep changing under this request; try again"
        );
    }

    #[tokio::test]
    async fn a_moved_refusal_is_a_lost_race_and_the_next_try_may_win() {
        let tries = Cell::new(0);
        let done = retried("the environment's nodes", || async {
            tries.set(tries.get() + 1);
            match tries.get() {
                1 => Err(DbError::Moved("the nodes changed".into()).into()),
                2 => Ok(None),
                n => Ok(Some(n)),
            }
        })
        .await;
        assert_eq!(done.unwrap(), 3);
    }

    #[tokio::test]
    async fn any_other_refusal_is_the_answer_at_once() {
        let tries = Cell::new(0);
        let done: Result<(), ApiError> = retried("the settings", || async {
            tries.set(tries.get() + 1);
            Err(DbError::Stale("version 3".into()).into())
        })
        .await;
        let (status, _) = done.unwrap_err().parts();
        assert_eq!((status, tries.get()), (StatusCode::PRECONDITION_FAILED, 1));
    }
}
