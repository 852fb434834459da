//! `PUT /api/v1/clusters/{id}/components`: changing an environment's
//! components later (SEMANTICS §9.1). Core validates the new selection as
//! environment creation does, works out the settings edits it keeps and
//! every consequence; this stores the selection, the edits and the settings
//! version together, or (`?dry_run=true`) answers the consequences and
//! stores nothing. A change that is refused is refused the same way as a
//! dry run, its consequences in the refusal's body.
//!
//! The change moves the settings version on (it changes the settings), so
//! `If-Match` names the settings version, as a settings save's does: a
//! client that saw the settings at version N changes the components only
//! while they are still at N.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use mosaic_core::api::{ChangeComponents, ComponentsAnswer, ErrorBody};
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::versions::{if_match, still_at, with_etag};
use crate::AppState;
use crate::db::Selection;
use crate::error::{ApiError, ApiJson, Preview, retried};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(change))
}

/// A change's options: `?dry_run=true` answers what it would do.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct Options {
    /// Answer the consequences and store nothing.
    #[serde(default)]
    pub(super) dry_run: bool,
}

/// Changes the environment's components (SEMANTICS §9.1): validated as a
/// creation is, the settings worked out again, the operator's own changes
/// kept; or, with `dry_run`, what the change would do.
#[utoipa::path(
    put,
    path = "/api/v1/clusters/{id}/components",
    operation_id = "change_cluster_components",
    tag = "environments",
    params(
        ("id" = i64, Path, description = "The environment's id"),
        Options,
        ("If-Match" = Option<String>, Header, description = "The settings version the change was made on (`\"N\"`, or the whole `ETag`): 412 when they moved on"),
    ),
    request_body = ChangeComponents,
    responses(
        (status = 200, description = "Stored: the environment, its `ETag` the new settings version; or, with `dry_run`, the consequences",
            body = ComponentsAnswer,
            headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the settings version"))),
        (status = 400, description = "`bad_request`; `invalid_selection` (`violations`); `invalid_settings` (`problems`, and the change's `consequences`): nothing is stored; a dry run is refused the same way", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`components_in_use`: nodes hold roles the change takes away (`problems`: those, then any problem of the settings; and the change's `consequences`), a dry run refused the same way; `busy`: the settings, components or nodes kept changing", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: `If-Match` names no settings version they are at (a stale tag, or one never issued)", body = ErrorBody),
    )
)]
async fn change(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(options): Query<Options>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<ChangeComponents>,
) -> Result<Response, ApiError> {
    let expected = if_match(&headers, "settings")?;
    retried("the settings", || async {
        let stored = crate::environment::Stored::load_with_addresses(&state.db, id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
        let version = stored.row.settings_version;
        still_at(expected.as_ref(), version, "settings")?;
        let before = stored.environment()?;
        let spec = before
            .with_components(&request.components)
            .map_err(ApiError::InvalidSelection)?;
        let after = stored.with_spec(&spec)?;
        // A dry run answers as the change would: refused the same way,
        // with the consequences in the refusal (one rule for previews).
        let consequences = before.consequences(&after);
        let in_use = before.components_in_use(&after);
        let problems = after.evaluation().problems;
        let refusal = match (in_use.is_empty(), problems.is_empty()) {
            (false, _) => Some(ApiError::ComponentsInUse(in_use, problems)),
            (true, false) => Some(ApiError::InvalidSettings(problems)),
            (true, true) => None,
        };
        if let Some(refusal) = refusal {
            return Err(refusal.previewed(Preview::Components(consequences)));
        }
        if options.dry_run {
            let answer = Json(ComponentsAnswer::DryRun(consequences));
            return Ok(Some(answer.into_response()));
        }
        let (config, rows) = super::networks::rebuilt(&after)?;
        let selection = Selection {
            release_id: stored.row.cluster.release_id,
            components: &after.selected_names(),
            settings: &after.edits(),
            pins: &after.pins(),
            networks: (&config, &rows),
        };
        let stored_now = state
            .db
            .store_selection(id, selection, version, &stored.node_versions())
            .await?;
        let Some(version) = stored_now else {
            return Ok(None);
        };
        let row = state.db.cluster(id).await?;
        let cluster =
            row.ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
        Ok(Some(with_etag(
            version,
            ComponentsAnswer::Stored(cluster.cluster),
        )))
    })
    .await
}
