//! Environments as environment files (docs/environment-file.md): export one
//! (`GET /api/v1/clusters/{id}/environment`) and create one from a file
//! (`POST /api/v1/clusters/import?name=NAME`) — everything checked by core
//! first, stored together or not at all.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use mosaic_core::api::{Cluster, ErrorBody, ErrorCode};
use mosaic_core::component::ComponentName;
use mosaic_core::environment::{AddressRow, Base, Environment, EnvironmentFile, Spec};
use mosaic_core::name::PluginName;
use mosaic_core::network::{DEFAULT_GROUP, NetworkConfiguration, NodeGroup};
use mosaic_core::plugin::{Pins, choose_release, newest_of_line};
use mosaic_core::settings::Edits;
use mosaic_core::tag::TagMeta;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::db::StoredPlugin;
use crate::db::{InsertCluster, NewNetworks};
use crate::environment::pinned_plugins;
use crate::error::ApiError;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(export))
        .routes(routes!(import))
}

/// The environment as an environment file (docs/environment-file.md), as
/// a download.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/environment",
    operation_id = "export_cluster",
    tag = "environments",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "The environment file (YAML, docs/environment-file.md)",
            content((Object = "application/yaml")),
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"NAME.yaml\"; filename*=UTF-8''NAME.yaml` (RFC 6266: the name percent-encoded, and in ASCII)"))),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn export(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let stored = crate::environment::Stored::load_with_addresses(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
    let file = stored.environment()?.export();
    let value = serde_json::to_value(&file).map_err(|e| ApiError::Internal(e.into()))?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/yaml; charset=utf-8".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                attachment(&format!("{}.yaml", stored.row.cluster.name)),
            ),
        ],
        mosaic_core::yaml::to_string(&value),
    ))
}

/// What RFC 5987 lets a `filename*` value carry as it is.
const ATTR_CHAR: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'!')
    .remove(b'#')
    .remove(b'$')
    .remove(b'&')
    .remove(b'+')
    .remove(b'-')
    .remove(b'.')
    .remove(b'^')
    .remove(b'_')
    .remove(b'`')
    .remove(b'|')
    .remove(b'~');

/// `Content-Disposition` for a download named `file` (RFC 6266): any name
/// an environment may have, as a header value can carry it — the name in
/// UTF-8 percent-encoded (`filename*`), and for older clients its printable
/// ASCII with every other character as `_` (`filename`).
fn attachment(file: &str) -> String {
    let ascii: String = file
        .chars()
        .map(|c| match c {
            ' '..='~' if c != '"' && c != '\\' => c,
            _ => '_',
        })
        .collect();
    let encoded = percent_encoding::utf8_percent_encode(file, ATTR_CHAR);
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ImportQuery {
    /// The new environment's name.
    name: String,
}

fn invalid_environment(message: String) -> ApiError {
    ApiError::Coded(
        StatusCode::BAD_REQUEST,
        ErrorCode::InvalidEnvironment,
        message,
    )
}

/// Creates an environment from an environment file: its release by
/// `release_name`, its plugins by name, its components (the release's
/// defaults when absent), settings, tags and nodes.
#[utoipa::path(
    post,
    path = "/api/v1/clusters/import",
    operation_id = "import_cluster",
    tag = "environments",
    params(ImportQuery),
    request_body(description = "An environment file (docs/environment-file.md)", content(
        (Object = "application/yaml"), (Object = "application/x-yaml"), (Object = "text/yaml"), (Object = "application/json"),
    )),
    responses(
        (status = 201, description = "Created", body = Cluster),
        (status = 400, description = "`bad_request`: no name; `invalid_environment`: every problem of the file; nothing is stored", body = ErrorBody),
        (status = 409, description = "`conflict`: an environment with that name exists; `no_release`: no release is installed", body = ErrorBody),
    )
)]
async fn import(
    State(state): State<AppState>,
    Query(query): Query<ImportQuery>,
    headers: axum::http::HeaderMap,
    body: String,
) -> Result<(StatusCode, Json<Cluster>), ApiError> {
    super::content_type(
        &headers,
        &[
            "application/yaml",
            "application/x-yaml",
            "text/yaml",
            "application/json",
        ],
        "an environment import",
    )?;
    let name = query.name.trim().to_owned();
    if name.is_empty() {
        return Err(ApiError::BadRequest("name: must not be empty".to_owned()));
    }
    let installed = state.db.plugins().await?;
    let checked = {
        let name = name.clone();
        super::blocking(move || check_import(&name, &body, &installed)).await?
    };
    let tags: Vec<(String, TagMeta)> = checked
        .spec
        .tags_metadata
        .iter()
        .map(|(name, meta)| (name.to_string(), *meta))
        .collect();
    let cluster = state
        .db
        .insert_cluster_with(
            InsertCluster {
                name: &name,
                release_id: checked.release_id,
                components: &checked.components,
                mode: checked.spec.mode,
                settings: &checked.edits,
                pins: &checked.pins,
            },
            &tags,
            &checked.spec.nodes,
            &checked.spec.roles,
            NewNetworks {
                groups: &checked.networks.0,
                config: &checked.networks.1,
                rows: &checked.networks.2,
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(cluster)))
}

/// The release named like `release` whose record has `version`.
fn same_release_version(
    installed: &[StoredPlugin],
    release: &mosaic_core::release::Release,
    version: &str,
) -> Result<i64, ApiError> {
    let same: Vec<(i64, &mosaic_core::release::Release)> = installed
        .iter()
        .flat_map(|p| p.releases())
        .filter(|(_, r)| r.name == release.name)
        .collect();
    same.iter()
        .find(|(_, r)| r.version == version)
        .map(|(id, _)| *id)
        .ok_or_else(|| {
            let there: Vec<&str> = same.iter().map(|(_, r)| r.version.as_str()).collect();
            invalid_environment(format!(
                "release_version: release '{}' {version} is not installed (installed: {})",
                release.name,
                there.join(", ")
            ))
        })
}

/// The versions the file's plugins pin, each installed and compatible with
/// `release`; or every one that is not, named.
fn pinned(
    file: &EnvironmentFile,
    installed: &[StoredPlugin],
    release: &mosaic_core::release::Release,
) -> Result<Pins, ApiError> {
    let mut pins = Pins::new();
    let mut missing = Vec::new();
    for entry in &file.plugins {
        let Some(version) = entry.version() else {
            continue;
        };
        let found = installed.iter().map(|p| &p.package).find(|p| {
            p.name == entry.name()
                && p.version.as_str() == version
                && !p.is_release_plugin()
                && p.extends(release)
        });
        match found {
            Some(p) => {
                pins.insert(p.name.clone(), p.version.clone());
            }
            None => missing.push(format!("'{}' {version}", entry.name())),
        }
    }
    if missing.is_empty() {
        return Ok(pins);
    }
    Err(invalid_environment(format!(
        "plugins: not installed for release '{}' {}: {}",
        release.name,
        release.version,
        missing.join(", ")
    )))
}

/// An environment file that core found importable, ready to store.
struct Checked {
    release_id: i64,
    spec: Spec,
    components: Vec<ComponentName>,
    edits: Edits,
    pins: Pins,
    /// Its node groups (numbered as the file's spec numbers them), its
    /// network configuration and every address.
    networks: (Vec<NodeGroup>, NetworkConfiguration, Vec<AddressRow>),
}

/// The release an import names: by `release_name`, the newest of its line
/// unless `release_version` names one; its id and the release.
fn import_release<'a>(
    file: &EnvironmentFile,
    installed: &'a [StoredPlugin],
) -> Result<(i64, &'a mosaic_core::release::Release), ApiError> {
    // Without a version, a release name means the newest of its line.
    let packages = || installed.iter().map(|p| &p.package);
    let releases: Vec<(i64, &mosaic_core::release::Release)> = installed
        .iter()
        .flat_map(|p| p.releases().map(move |(id, r)| (p, id, r)))
        .filter(|(p, _, r)| {
            file.release_version.is_some() || newest_of_line(&p.package, r, packages())
        })
        .map(|(_, id, r)| (id, r))
        .collect();
    let &(release_id, release) = choose_release(
        &releases,
        |(_, r)| r.name.as_str(),
        file.release_name.as_deref(),
    )
    .map_err(|e| match e {
        mosaic_core::plugin::ReleaseChoice::None => ApiError::Coded(
            StatusCode::CONFLICT,
            ErrorCode::NoRelease,
            super::clusters::NO_RELEASE.to_owned(),
        ),
        other => invalid_environment(format!("release_name: {other}")),
    })?;
    let release_id = match &file.release_version {
        Some(version) => same_release_version(installed, release, version)?,
        None => release_id,
    };
    let release = crate::environment::find_release(installed, release_id)
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("release {release_id} is gone")))?;
    Ok((release_id, release))
}

/// The names of the plugins the file lists, each an installed extension
/// of `release` (among `plugins`, those the import pins).
fn listed_plugins(
    file: &EnvironmentFile,
    plugins: &[mosaic_core::plugin::Package],
    release: &mosaic_core::release::Release,
) -> Result<Vec<PluginName>, ApiError> {
    file.plugins
        .iter()
        .map(|wanted| {
            let plugin = plugins.iter().find(|p| p.name == wanted.name());
            plugin.map(|p| p.name.clone()).ok_or_else(|| {
                invalid_environment(format!(
                    "plugins: no extension plugin '{}' compatible with release '{}' is installed",
                    wanted.name(),
                    release.name
                ))
            })
        })
        .collect()
}

/// Reads and checks an environment file against what is installed (CPU
/// work: run it off the async workers).
fn check_import(name: &str, body: &str, installed: &[StoredPlugin]) -> Result<Checked, ApiError> {
    let file: EnvironmentFile = mosaic_core::yaml::parse("environment", body)
        .map_err(|e| invalid_environment(e.to_string()))?;
    if file.release.is_some() {
        return Err(invalid_environment(
            "release: an import names its release with release_name; release paths are for `mosaic plan`".to_owned(),
        ));
    }
    let (release_id, release) = import_release(&file, installed)?;
    let pins = pinned(&file, installed, release)?;
    let plugins = pinned_plugins(installed, release, &pins);
    let listed = listed_plugins(&file, &plugins, release)?;
    let spec = file.spec(name, &listed);
    let tags = Default::default();
    let base = Base {
        release,
        plugins: &plugins,
        release_tags: &tags,
        release_roles: mosaic_core::role_layer::RoleLayer::none(),
    };
    let env = Environment::new(base, &spec).map_err(|e| invalid_environment(e.to_string()))?;
    let mut problems = file.network_problems();
    problems.extend(env.import_problems());
    if !problems.is_empty() {
        return Err(invalid_environment(problems.join(" ")));
    }
    let (components, edits, pins) = (env.selected_names(), env.edits(), env.pins());
    // The instance tags the nodes' roles call for, in node order (§5.1).
    let mut nodes = spec.nodes.clone();
    let every = nodes.iter().map(|n| n.id).collect();
    env.assign_instances(&mut nodes, &every);
    // Its networks, and every address: those the file gives are kept where
    // they are valid (SEMANTICS §11.1).
    let config = super::networks::configuration(&env)?;
    let (rows, vips) = env.address_rows(&config);
    let groups = env.node_groups().to_vec();
    for node in &mut nodes {
        node.node_group = Some(
            node.node_group
                .clone()
                .unwrap_or_else(|| DEFAULT_GROUP.to_owned()),
        );
    }
    Ok(Checked {
        release_id,
        spec: Spec { nodes, ..spec },
        components,
        edits,
        pins,
        networks: (groups, NetworkConfiguration { vips, ..config }, rows),
    })
}

#[cfg(test)]
mod tests {
    use super::attachment;

    #[test]
    fn any_environment_name_is_a_valid_download_name() {
        assert_eq!(
            attachment("prod.yaml"),
            "attachment; filename=\"prod.yaml\"; filename*=UTF-8''prod.yaml"
        );
        for name in ["2\"Â.yaml", "a\nb\\c\u{7f}.yaml", "环境.yaml"] {
            let value = attachment(name);
            assert!(
                axum::http::HeaderValue::from_str(&value).is_ok(),
                "{name:?}: {value}"
            );
        }
        assert_eq!(
            attachment("2\"Â.yaml"),
            "attachment; filename=\"2__.yaml\"; filename*=UTF-8''2%22%C3%82.yaml"
        );
    }
}
