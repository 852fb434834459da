//! The API's OpenAPI 3.1 document, made from the code: each handler's
//! `#[utoipa::path]` (its parameters, body and answers) registered with its
//! route by utoipa-axum's `routes!`, the schemas derived on `core::api`'s
//! types, and here what every route shares because the layers in front of
//! the handlers do it — the credentials and role `core::access::required`
//! asks for, the refusals of the host check, the guard, the body limits
//! and the time limit, the `ETag`s and 304s of reads — and the links that
//! lead from a created resource to what can be done with it. Served at
//! `GET /api/v1/openapi.json`, without credentials.

use std::sync::Arc;

use axum::Extension;
use mosaic_core::access::{Access, required};
use mosaic_core::api::ErrorBody;
use utoipa::openapi::path::{HttpMethod, Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::security::{
    ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityRequirement, SecurityScheme,
};
use utoipa::openapi::{
    ContentBuilder, Header, InfoBuilder, OpenApi, Ref, RefOr, Required, Response, ResponseBuilder,
    Schema, Tag,
};
use utoipa::{PartialSchema, ToSchema};

use super::versions::Prepared;

/// A request body that is an archive (`.tar.gz`, `.zip`): bytes.
#[derive(Debug)]
pub struct Archive;

impl PartialSchema for Archive {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            .description(Some("The archive's bytes"))
            .into()
    }
}

impl ToSchema for Archive {}

/// The security schemes' names.
const BEARER: &str = "bearer";
const SESSION: &str = "session";

/// The document as served, made once per router.
pub type Document = Arc<Prepared>;

/// This document.
#[utoipa::path(
    get,
    path = "/api/v1/openapi.json",
    operation_id = "openapi",
    tag = "meta",
    responses((status = 200, description = "The API's OpenAPI 3.1 document", content((Object = "application/json"))))
)]
pub(super) async fn serve(Extension(document): Extension<Document>) -> Prepared {
    (*document).clone()
}

/// `api` (the handlers' paths and schemas) with what every route shares.
pub fn finish(mut api: OpenApi) -> OpenApi {
    api.info = InfoBuilder::new()
        .title("Mosaic")
        .version(env!("CARGO_PKG_VERSION"))
        .description(Some(
            "Mosaic's HTTP API. The semantics, examples and decisions are in docs/api.md; \
             the shapes are here. Every refusal answers with the `ErrorBody` shape, its `code` \
             one of `ErrorCode`.",
        ))
        .build();
    let components = api.components.get_or_insert_default();
    components
        .schemas
        .insert("ErrorBody".to_owned(), ErrorBody::schema());
    let mut more = Vec::new();
    ErrorBody::schemas(&mut more);
    components.schemas.extend(more);
    components.security_schemes.insert(
        BEARER.to_owned(),
        SecurityScheme::Http(
            Http::builder()
                .scheme(HttpAuthScheme::Bearer)
                .description(Some("A token from `mosaic token create --role R`"))
                .build(),
        )
        .into(),
    );
    components.security_schemes.insert(
        SESSION.to_owned(),
        SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
            "mosaic_session",
            "The cookie signing in (`POST /api/v1/session`) sets",
        )))
        .into(),
    );
    api.tags = Some(tags());
    for (path, item) in api.paths.paths.iter_mut() {
        for (method, operation) in [
            (HttpMethod::Get, &mut item.get),
            (HttpMethod::Post, &mut item.post),
            (HttpMethod::Put, &mut item.put),
            (HttpMethod::Patch, &mut item.patch),
            (HttpMethod::Delete, &mut item.delete),
        ] {
            if let Some(operation) = operation {
                shared(path, &method, operation);
            }
        }
    }
    link(&mut api);
    api
}

fn tags() -> Vec<Tag> {
    [
        ("session", "Signing in and out, health, the audit log"),
        ("releases", "The installed releases and their components"),
        (
            "environments",
            "Environments: create, import, export, change components, upgrade",
        ),
        ("settings", "An environment's settings"),
        (
            "nodes",
            "Nodes, their roles and tags; plans, checks and graph types",
        ),
        (
            "networks",
            "Networks: an environment's network configuration, node groups, a node's interfaces (docs/networks.md)",
        ),
        (
            "deployers",
            "Handing an environment to a deployer: its files for kolla-ansible (docs/deployers.md)",
        ),
        (
            "runs",
            "Deployments run by kolla-ansible through ansible-runner: start, watch, history, cancel (docs/deployers.md, \"Running a deployment\")",
        ),
        ("tags", "Tags of releases and environments"),
        ("roles", "Roles over time, on releases and environments"),
        ("plugins", "Plugin packages: install, list, uninstall"),
        ("heat", "Heat template sets"),
        ("meta", "This document"),
    ]
    .into_iter()
    .map(|(name, description)| {
        let mut tag = Tag::new(name);
        tag.description = Some(description.to_owned());
        tag
    })
    .collect()
}

/// What the layers add to the operation `method path`: credentials and the
/// role it needs, and the refusals every such request may get.
fn shared(path: &str, method: &HttpMethod, operation: &mut Operation) {
    let name = method_name(method);
    let access = required(name, path);
    let responses = &mut operation.responses.responses;
    add(
        responses,
        "400",
        "`host_not_allowed`: a `Host` the server does not answer to; \
         `bad_request`: a path or query parameter that is not of its type",
    );
    if access != Access::Public {
        operation.security = Some(vec![
            SecurityRequirement::new(BEARER, Vec::<String>::new()),
            SecurityRequirement::new(SESSION, Vec::<String>::new()),
        ]);
        add(
            responses,
            "401",
            "`unauthorized`: no credentials, or a token or session that is not valid",
        );
        add(
            responses,
            "403",
            &format!(
                "`forbidden`: the role lacks the right (this needs {}){}",
                role_needed(access),
                if is_change(method) {
                    "; `cross_site`: a change made with the session cookie from another site"
                } else {
                    ""
                }
            ),
        );
    }
    if operation.request_body.is_some() {
        add(
            responses,
            "413",
            "`payload_too_large`: the body is over its limit",
        );
        add(
            responses,
            "415",
            "`unsupported_media_type`: a body of a type this route does not take",
        );
    }
    // The guard refuses a change to what a deploying run deploys (the
    // path's ids stand for any).
    let concrete: String = path
        .split('/')
        .map(|part| if part.starts_with('{') { "0" } else { part })
        .collect::<Vec<_>>()
        .join("/");
    if mosaic_core::access::reach(name, &concrete).is_some() {
        add(
            responses,
            "409",
            "`deployment_running`: a run deploys the environment; what it deploys does not change until it ends",
        );
    }
    add(
        responses,
        "408",
        "`timeout`: the request took longer than 120 s",
    );
    add(
        responses,
        "500",
        "`internal`: something failed on the server (logged)",
    );
    if matches!(method, HttpMethod::Get) {
        conditional(operation);
    }
    let needs = match access {
        Access::Public => "No credentials needed.".to_owned(),
        other => format!("Needs {}.", role_needed(other)),
    };
    operation.description = Some(match operation.description.take() {
        Some(text) if !text.is_empty() => format!("{text}\n\n{needs}"),
        _ => needs,
    });
}

fn method_name(method: &HttpMethod) -> &'static str {
    match method {
        HttpMethod::Get => "GET",
        HttpMethod::Post => "POST",
        HttpMethod::Put => "PUT",
        HttpMethod::Patch => "PATCH",
        HttpMethod::Delete => "DELETE",
        HttpMethod::Head => "HEAD",
        HttpMethod::Options => "OPTIONS",
        HttpMethod::Trace => "TRACE",
    }
}

fn is_change(method: &HttpMethod) -> bool {
    !matches!(
        method,
        HttpMethod::Get | HttpMethod::Head | HttpMethod::Options
    )
}

fn role_needed(access: Access) -> &'static str {
    match access {
        Access::Public => "nothing",
        Access::Read => "any role (`viewer` and up)",
        Access::Operate => "`operator` or `admin`",
        Access::Administer => "`admin`",
    }
}

/// An error answer `status` with `description`; one the handler declares
/// already gets the description's codes added to its own.
fn add(
    responses: &mut std::collections::BTreeMap<String, RefOr<Response>>,
    status: &str,
    description: &str,
) {
    match responses.get_mut(status) {
        Some(RefOr::T(response)) => {
            response.description = format!("{}; {description}", response.description);
        }
        Some(RefOr::Ref(_)) => {}
        None => {
            responses.insert(status.to_owned(), error_response(description).into());
        }
    }
}

fn error_response(description: &str) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ErrorBody")))
                .build(),
        )
        .build()
}

/// A read's `ETag` and `Cache-Control`, `If-None-Match` and its 304
/// (`http::versions::conditional`).
fn conditional(operation: &mut Operation) {
    let string = || -> RefOr<Schema> { ObjectBuilder::new().schema_type(Type::String).into() };
    if let Some(RefOr::T(ok)) = operation.responses.responses.get_mut("200") {
        let mut etag = Header::new(string());
        etag.description = Some(
            "Changes whenever the body does: `\"DIGEST\"`, or `\"VERSION-DIGEST\"` for a resource \
             with a version"
                .to_owned(),
        );
        ok.headers.entry("ETag".to_owned()).or_insert(etag.into());
        let mut cache = Header::new(string());
        cache.description = Some("`private, no-cache`".to_owned());
        ok.headers
            .entry("Cache-Control".to_owned())
            .or_insert(cache.into());
    }
    let parameter = ParameterBuilder::new()
        .name("If-None-Match")
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "An `ETag` read before (or `*`): 304 when it is still the current one",
        ))
        .schema(Some(string()))
        .build();
    operation
        .parameters
        .get_or_insert_default()
        .push(parameter.into());
    operation.responses.responses.insert(
        "304".to_owned(),
        ResponseBuilder::new()
            .description("Not modified: the `ETag` named is the current one (no body)")
            .build()
            .into(),
    );
}

/// `$response.body#/id`, `$request.path.id`, … as a link's parameters.
type LinkParameters = &'static [(&'static str, &'static str)];

/// What a created resource leads to, for clients and for schemathesis's
/// stateful runs: (operation, status, operations it links to, parameters).
const LINKS: &[(&str, &str, &[&str], LinkParameters)] = &[
    (
        "create_cluster",
        "201",
        ENVIRONMENT_OPERATIONS,
        &[("id", "$response.body#/id")],
    ),
    (
        "import_cluster",
        "201",
        ENVIRONMENT_OPERATIONS,
        &[("id", "$response.body#/id")],
    ),
    (
        "create_node",
        "201",
        NODE_OPERATIONS,
        &[("id", "$response.body#/id")],
    ),
    (
        "create_cluster_node_group",
        "201",
        &["delete_node_group"],
        &[("id", "$response.body#/id")],
    ),
    (
        "create_cluster_tag",
        "201",
        &["update_cluster_tag", "delete_cluster_tag"],
        &[("id", "$request.path.id"), ("name", "$response.body#/name")],
    ),
    (
        "create_release_tag",
        "201",
        &["update_release_tag", "delete_release_tag"],
        &[("id", "$request.path.id"), ("name", "$response.body#/name")],
    ),
    (
        "create_cluster_role",
        "201",
        &["set_cluster_role_tags", "reset_cluster_role"],
        &[("id", "$request.path.id"), ("name", "$response.body#/id")],
    ),
    (
        "create_release_role",
        "201",
        &["set_release_role_tags", "reset_release_role"],
        &[("id", "$request.path.id"), ("name", "$response.body#/id")],
    ),
    (
        "upload_template_set",
        "201",
        &["show_template_set", "resolve_template_set"],
        &[("id", "$response.body#/id")],
    ),
    (
        "install_plugin",
        "201",
        PLUGIN_OPERATIONS,
        &[("id", "$response.body#/id")],
    ),
    (
        "install_bundled_plugin",
        "201",
        PLUGIN_OPERATIONS,
        &[("id", "$response.body#/id")],
    ),
];

const ENVIRONMENT_OPERATIONS: &[&str] = &[
    "show_cluster",
    "delete_cluster",
    "list_cluster_nodes",
    "create_node",
    "change_nodes",
    "list_cluster_graphs",
    "show_cluster_plan",
    "list_cluster_checks",
    "list_cluster_roles",
    "create_cluster_role",
    "export_cluster",
    "show_cluster_attributes",
    "change_cluster_attributes",
    "change_cluster_components",
    "list_cluster_upgrades",
    "upgrade_cluster",
    "list_cluster_tags",
    "create_cluster_tag",
    "show_cluster_network_configuration",
    "update_cluster_network_configuration",
    "verify_cluster_network_configuration",
    "list_cluster_node_groups",
    "create_cluster_node_group",
    "list_cluster_deployers",
];

const NODE_OPERATIONS: &[&str] = &[
    "show_node",
    "update_node",
    "delete_node",
    "list_node_tags",
    "assign_node_tags",
    "unassign_node_tags",
    "show_node_interfaces",
    "update_node_interfaces",
];

const PLUGIN_OPERATIONS: &[&str] = &["show_plugin", "uninstall_plugin"];

/// Adds [`LINKS`] to the answers they start from.
fn link(api: &mut OpenApi) {
    for (from, status, targets, parameters) in LINKS {
        let Some(response) =
            operation_mut(api, from).and_then(|op| op.responses.responses.get_mut(*status))
        else {
            continue;
        };
        let RefOr::T(response) = response else {
            continue;
        };
        for target in *targets {
            let mut link = utoipa::openapi::link::Link::builder().operation_id(*target);
            for (name, value) in *parameters {
                link = link.parameter(*name, *value);
            }
            response
                .links
                .insert(target.to_string(), link.build().into());
        }
    }
}

fn operation_mut<'a>(api: &'a mut OpenApi, id: &str) -> Option<&'a mut Operation> {
    api.paths.paths.values_mut().find_map(|item| {
        [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.patch,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        .find(|op| op.operation_id.as_deref() == Some(id))
    })
}
