//! `/api/v1/clusters`: environments. A new one's selection is validated
//! with the function the wizard uses; then core applies the components'
//! binds and switches on the plugins they need, and the resulting settings
//! must be valid before anything is stored.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use mosaic_core::api::{Cluster, CreateCluster, ErrorBody, ErrorCode};
use mosaic_core::component::{ComponentName, validate_selection};
use mosaic_core::environment::{Base, Environment, Spec, registry};
use mosaic_core::tag::TagsMetadata;

use crate::AppState;
use crate::db::{InsertCluster, NewNetworks};
use crate::environment::{find_release, plugins_for};
use crate::error::{ApiError, ApiJson};
use mosaic_core::network::NetworkConfiguration;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The guidance of the onboarding screen (SEMANTICS §7.5).
pub(super) const NO_RELEASE: &str = "No release is installed, so no environment can be created. \
Install a release plugin first: run `mosaic plugin install PATH` on the server \
(PATH a release plugin directory or .tar.gz), or upload it on the Plugins page.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(show, remove))
}

/// One environment.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}",
    operation_id = "show_cluster",
    tag = "environments",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "The environment", body = Cluster),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn show(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Cluster>, ApiError> {
    let row = state.db.cluster(id).await?;
    row.map(|r| Json(r.cluster))
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))
}

/// Deletes the environment with its nodes and its own tags, in one
/// transaction.
#[utoipa::path(
    delete,
    path = "/api/v1/clusters/{id}",
    operation_id = "delete_cluster",
    tag = "environments",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn remove(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    if state.db.delete_cluster(id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(format!(
            "environment {id} does not exist"
        )))
    }
}

/// The stored environments.
#[utoipa::path(
    get,
    path = "/api/v1/clusters",
    operation_id = "list_clusters",
    tag = "environments",
    responses((status = 200, description = "Every environment", body = Vec<Cluster>))
)]
async fn list(State(state): State<AppState>) -> Result<Json<Vec<Cluster>>, ApiError> {
    let rows = state.db.clusters().await?;
    Ok(Json(rows.into_iter().map(|r| r.cluster).collect()))
}

/// Creates an environment: the selection validated (docs/semantics.md),
/// the chosen components' binds applied to the settings, the plugins
/// providing them switched on, the settings checked.
#[utoipa::path(
    post,
    path = "/api/v1/clusters",
    operation_id = "create_cluster",
    tag = "environments",
    request_body = CreateCluster,
    responses(
        (status = 201, description = "Created", body = Cluster),
        (status = 400, description = "`bad_request`: malformed JSON, a missing field, an empty name, a mode that is neither; \
            `invalid_selection`: the components are not a valid combination (`violations`); \
            `invalid_settings`: the settings the binds give are not valid (`problems`)", body = ErrorBody),
        (status = 404, description = "`not_found`: no such release", body = ErrorBody),
        (status = 409, description = "`conflict`: an environment with that name exists; `no_release`: no release is installed", body = ErrorBody),
    )
)]
async fn create(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<CreateCluster>,
) -> Result<(StatusCode, Json<Cluster>), ApiError> {
    let name = request.name.trim();
    if name.is_empty() {
        return Err(ApiError::BadRequest("name: must not be empty".to_owned()));
    }
    let installed = state.db.plugins().await?;
    if !installed.iter().any(|p| p.package.is_release_plugin()) {
        return Err(ApiError::Coded(
            StatusCode::CONFLICT,
            ErrorCode::NoRelease,
            NO_RELEASE.to_owned(),
        ));
    }
    let release = find_release(&installed, request.release_id)
        .ok_or_else(|| super::releases::not_found(request.release_id))?;
    let plugins = plugins_for(&installed, release);
    let registry = registry(release, &plugins).map_err(|e| ApiError::Internal(e.into()))?;
    let violations = validate_selection(
        &registry,
        &release.required_component_types,
        &request.components,
    );
    if !violations.is_empty() {
        return Err(ApiError::InvalidSelection(violations));
    }
    let components: Vec<ComponentName> = request
        .components
        .iter()
        .filter_map(|c| ComponentName::new(c).ok())
        .collect();
    let spec = Spec {
        name: name.to_owned(),
        mode: request.mode.unwrap_or_default(),
        components: Some(components),
        ..Spec::default()
    };
    let no_tags = TagsMetadata::new();
    let env = Environment::new(
        Base {
            release,
            plugins: &plugins,
            release_tags: &no_tags,
            release_roles: mosaic_core::role_layer::RoleLayer::none(),
        },
        &spec,
    )
    .map_err(|e| ApiError::Internal(e.into()))?;
    let problems = env.evaluation().problems;
    if !problems.is_empty() {
        return Err(ApiError::InvalidSettings(problems));
    }
    let config = super::networks::configuration(&env)?;
    let (rows, vips) = env.address_rows(&config);
    let config = NetworkConfiguration { vips, ..config };
    let networks = NewNetworks {
        groups: env.node_groups(),
        config: &config,
        rows: &rows,
    };
    let cluster = state
        .db
        .insert_cluster(
            InsertCluster {
                name,
                release_id: request.release_id,
                components: &env.selected_names(),
                mode: spec.mode,
                settings: &env.edits(),
                pins: &env.pins(),
            },
            networks,
        )
        .await?;
    Ok((StatusCode::CREATED, Json(cluster)))
}
