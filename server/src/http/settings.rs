//! `/api/v1/clusters/{id}/attributes`: an environment's settings (SEMANTICS
//! §9). `GET` serves the whole tree with values and its version; `PATCH`
//! merges changes over what is stored, and stores them only when core finds
//! no problem and no plugin is switched off under a node that has its role.
//! A change made by someone else in between is merged with, not lost;
//! `If-Match` makes the change conditional on the version the client saw.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use mosaic_core::api::{Attributes, ErrorBody, PatchAttributes, PluginInUse};
use mosaic_core::environment::{Environment, PUBLIC_TO_ALL, Spec};
use mosaic_core::plugin::Pins;
use mosaic_core::settings::Edits;
use serde_json::{Map, Value};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::lookup::stored_environment;
use crate::AppState;
use crate::db::InUse;
use crate::environment::Stored;
use crate::error::{ApiError, ApiJson, retried};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(show, change))
}

fn document(stored: &Stored) -> Result<Attributes, ApiError> {
    let env = stored.environment()?;
    Ok(Attributes {
        editable: env.settings().to_editable(),
        version: stored.row.settings_version,
        context: env.context().clone(),
        bound: env.bound(),
    })
}

/// The answer with the version as its `ETag`.
fn answer(attributes: Attributes) -> Response {
    super::versions::with_etag(attributes.version, attributes)
}

/// The environment's settings (SEMANTICS §9): the whole tree with values,
/// its version, the models restrictions read, what the components decide.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/attributes",
    operation_id = "show_cluster_attributes",
    tag = "settings",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "The settings", body = Attributes,
            headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the settings version"))),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn show(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Response, ApiError> {
    Ok(answer(document(&stored_environment(&state, id).await?)?))
}

/// `over` merged into `base`, map by map.
fn merge(base: &mut Map<String, Value>, over: Map<String, Value>) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(Value::Object(mine)), Value::Object(theirs)) => merge(mine, theirs),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// Merges a partial tree over the stored settings and stores it when
/// nothing is wrong with the result.
#[utoipa::path(
    patch,
    path = "/api/v1/clusters/{id}/attributes",
    operation_id = "change_cluster_attributes",
    tag = "settings",
    params(
        ("id" = i64, Path, description = "The environment's id"),
        ("If-Match" = Option<String>, Header, description = "The settings version the change was made on: 412 when they moved on"),
    ),
    request_body = PatchAttributes,
    responses(
        (status = 200, description = "Stored: the whole document", body = Attributes,
            headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the settings version"))),
        (status = 400, description = "`bad_request`; `invalid_settings`: every problem by `group.attr` (`problems`); nothing is stored", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`plugin_in_use`: a plugin switched off while nodes have its roles; `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: `If-Match` names no version it is at (a stale tag, or one never issued)", body = ErrorBody),
    )
)]
async fn change(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    ApiJson(patch): ApiJson<PatchAttributes>,
) -> Result<Response, ApiError> {
    let edits = patch.edits().map_err(ApiError::InvalidSettings)?;
    let expected = super::versions::if_match(&headers, "settings")?;
    retried("the settings", || async {
        let stored = stored_environment(&state, id).await?;
        let version = stored.row.settings_version;
        super::versions::still_at(expected.as_ref(), version, "settings")?;
        let mut merged = stored.spec.edits.clone();
        merge(&mut merged, edits.clone());
        let spec = Spec {
            edits: merged,
            ..stored.spec.clone()
        };
        let before = stored.environment()?;
        let after = stored.with_spec(&spec)?;
        let problems = before.save_problems(&edits, &after);
        if !problems.is_empty() {
            return Err(ApiError::InvalidSettings(problems));
        }
        if let Some((plugin, nodes)) = before.plugins_still_in_use(&after).into_iter().next() {
            let in_use = PluginInUse {
                plugin: plugin.to_string(),
                nodes,
            };
            return Err(ApiError::in_use(InUse::Plugin, in_use.to_string()));
        }
        // A plugin switched off was checked against the nodes: stored only
        // over those very nodes, as a components change is (issue 43).
        let seen = before.switches_off(&after).then(|| stored.node_versions());
        let changes = (&after.edits(), &after.pins());
        let saved = match moves_addresses(&before, &after) {
            false => {
                (state.db)
                    .update_settings(id, changes, version, seen.as_deref())
                    .await?
            }
            true => {
                save_with_addresses(&state, id, &spec, (changes, version), seen.as_deref()).await?
            }
        };
        if saved.is_none() {
            return Ok(None);
        }
        Ok(Some(answer(document(
            &stored_environment(&state, id).await?,
        )?)))
    })
    .await
}

/// Whether a save moves addresses: it gives every node a public address,
/// or no longer does, or switches a plugin (whose network roles' VIPs
/// come and go with it) on or off (SEMANTICS §11.1).
fn moves_addresses(before: &Environment<'_>, after: &Environment<'_>) -> bool {
    let (group, attr) = PUBLIC_TO_ALL;
    before.settings().value(group, attr) != after.settings().value(group, attr)
        || before.plugin_states() != after.plugin_states()
}

/// Stores a save that moves addresses with every address, worked out from
/// the environment with its nodes' addresses (`None`, or a `busy`
/// refusal, when the settings or the nodes moved on meanwhile: check
/// again).
async fn save_with_addresses(
    state: &AppState,
    id: i64,
    spec: &Spec,
    ((edits, pins), version): ((&Edits, &Pins), i64),
    seen: Option<&[(i64, i64)]>,
) -> Result<Option<i64>, ApiError> {
    let whole = crate::environment::Stored::load_with_addresses(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
    let nodes = whole.node_versions();
    if seen.is_some_and(|seen| seen != nodes.as_slice()) {
        // A node changed since the switch-off was checked: check again.
        return Ok(None);
    }
    let spec = Spec {
        nodes: whole.spec.nodes.clone(),
        ..spec.clone()
    };
    let (config, rows) = super::networks::rebuilt(&whole.with_spec(&spec)?)?;
    let checked = crate::db::Checked {
        version: None,
        nodes,
    };
    let saved = (state.db)
        .update_settings_and_networks(id, (edits, pins, version), &checked, &config, &rows)
        .await?;
    Ok(saved)
}
