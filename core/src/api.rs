//! The types that cross the wire between the server and the browser. Only
//! these are serialized into API responses and read by the app.

use serde::{Deserialize, Serialize};

use crate::network::{InterfacesView, NodeGroup};

use crate::component::{Component, ComponentName, ComponentType, Relation, Requires, Violation};
use crate::name::{GraphType, Mode, NodeStatus, PluginName, RoleName, TagName, TaskId};
use crate::plugin::Report;
use crate::settings::{Context, Edits, Problem};

/// A release in `GET /api/v1/releases` (Fuel's shape).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReleaseSummary {
    pub id: i64,
    pub name: String,
    pub version: String,
    pub operating_system: String,
    /// `available` for an installed release.
    pub state: String,
    pub description: String,
    /// The component types a valid selection needs one of each (SEMANTICS §2.3).
    pub required_component_types: Vec<ComponentType>,
}

impl ReleaseSummary {
    /// How it is named where it is shown ([`crate::release::label`]).
    pub fn label(&self) -> String {
        crate::release::label(&self.name, &self.version)
    }

    /// Installed release `id` as the API lists it.
    pub fn installed(id: i64, release: &crate::release::Release) -> ReleaseSummary {
        ReleaseSummary {
            id,
            name: release.name.clone(),
            version: release.version.clone(),
            operating_system: release.operating_system.clone(),
            state: "available".to_owned(),
            description: release.description.clone(),
            required_component_types: release.required_component_types.clone(),
        }
    }
}

/// `POST /api/v1/clusters`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"name": "lab", "release_id": 1, "components": ["hypervisor:libvirt:kvm", "network:neutron:core:ml2", "network:neutron:ml2:vlan", "network:neutron:ml2:ovs", "storage:block:backend:lvm", "storage:object:backend:swift", "storage:image:swift"], "mode": "ha_compact"})))]
pub struct CreateCluster {
    /// Not empty (it is trimmed).
    #[cfg_attr(feature = "openapi", schema(pattern = "\\S"))]
    pub name: String,
    pub release_id: i64,
    /// Component names; an unknown one is a violation (`invalid_selection`).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<ComponentName>))]
    pub components: Vec<String>,
    /// `ha_compact` (default) or `multinode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
}

/// An environment as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Cluster {
    pub id: i64,
    pub name: String,
    pub release_id: i64,
    pub components: Vec<ComponentName>,
    #[serde(default)]
    pub mode: Mode,
    /// The plugins it has switched on, each in the version it pins
    /// (SEMANTICS §7.6), by name.
    #[serde(default)]
    pub plugins: Vec<PinnedPlugin>,
    /// The release plugin and the version its release record comes from;
    /// `None` only when that plugin is no longer installed.
    #[serde(default)]
    pub release: Option<ReleasePlugin>,
}

/// A plugin an environment has switched on, and the version it pins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PinnedPlugin {
    pub name: PluginName,
    pub version: String,
}

impl PinnedPlugin {
    /// `pins` as the API lists them, by name.
    pub fn list(pins: &crate::plugin::Pins) -> Vec<PinnedPlugin> {
        pins.iter()
            .map(|(name, version)| PinnedPlugin {
                name: name.clone(),
                version: version.to_string(),
            })
            .collect()
    }
}

/// The release plugin an environment's release record comes from, and
/// that record's name and version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReleasePlugin {
    pub plugin: PluginName,
    /// The plugin's version.
    pub version: String,
    /// The release record's name (`OpenStack 2024.1 on Ubuntu 22.04`).
    #[serde(default)]
    pub name: String,
    /// The release record's version (`2024.1-1.0`).
    #[serde(default)]
    pub release_version: String,
}

impl ReleasePlugin {
    /// How the release is named where it is shown ([`crate::release::label`]).
    pub fn label(&self) -> String {
        crate::release::label(&self.name, &self.release_version)
    }
}

/// The body of every error answer: `{"error": {...}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorDetail {
    /// A stable, machine-readable code: `not_found`, `invalid_selection`, …
    /// (one of [`ErrorCode`]; read as text, so that a client reads a code
    /// newer than itself).
    #[cfg_attr(feature = "openapi", schema(value_type = ErrorCode))]
    pub code: String,
    pub message: String,
    /// For `invalid_selection`: every violation of the selection.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
    /// For `invalid_plugin` and `plugin_conflict`: the validation report,
    /// every diagnostic with file and line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<Report>,
    /// For `invalid_settings`: every problem, by `group.attr`; for
    /// `invalid_nodes`: every problem, by node; for `invalid_networks`:
    /// every problem, with its networks and fields.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<ErrorProblem>,
    /// For `upgrade_refused`: every reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refusals: Vec<UpgradeRefusal>,
    /// For an upgrade refused (`upgrade_refused`, `invalid_settings`): the
    /// consequences it would have (what its dry run shows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upgrade: Option<UpgradeConsequences>,
    /// For a components change refused (`components_in_use`,
    /// `invalid_settings`): the consequences it would have (what its dry
    /// run shows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consequences: Option<Consequences>,
}

/// Every error code the API answers with (`ErrorDetail::code`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: a malformed request (body, path, query or header).
    BadRequest,
    /// 400: the components are not a valid combination (`violations`).
    InvalidSelection,
    /// 400: settings with problems (`problems` by `group.attr`).
    InvalidSettings,
    /// 400: roles a node cannot take.
    InvalidRoles,
    /// 400: nodes a bulk change cannot be made to (`problems` by node).
    InvalidNodes,
    /// 400: a tag nothing declares.
    UnknownTag,
    /// 400: an environment file (or Heat environment) that cannot be used.
    InvalidEnvironment,
    /// 400: a plugin package with validation errors (`report`).
    InvalidPlugin,
    /// 400: a plugin archive or path that cannot be read.
    UnreadablePackage,
    /// 400: a Heat template set archive that cannot be read.
    UnreadableArchive,
    /// 400: a Heat template that cannot be read.
    InvalidTemplate,
    /// 400: a network configuration with problems (`problems`, each with
    /// its networks and fields).
    InvalidNetworks,
    /// 400: a node's interfaces with problems (`problems`).
    InvalidInterfaces,
    /// 400: a `Host` the server does not answer to.
    HostNotAllowed,
    /// 401: no credentials, or wrong ones.
    Unauthorized,
    /// 403: the role does not allow the request.
    Forbidden,
    /// 403: a change made with the session cookie from another site.
    CrossSite,
    /// 403: installing by path is off (no `--plugin-dir`).
    PathInstallDisabled,
    /// 403: a path outside the plugin directory.
    OutsidePluginDir,
    /// 404: no such resource, or no API route at that path.
    NotFound,
    /// 404: a graph type no source defines.
    UnknownGraph,
    /// 404: a deployer the environment's release does not declare.
    UnknownDeployer,
    /// 405: the route does not take that method.
    MethodNotAllowed,
    /// 408: the request took too long.
    Timeout,
    /// 409: the name is taken, or the resource cannot change that way.
    Conflict,
    /// 409: no release is installed.
    NoRelease,
    /// 409: what a change was checked against kept changing; try again.
    Busy,
    /// 409: a plugin environments or nodes use.
    PluginInUse,
    /// 409: a package colliding with installed plugins (`report`).
    PluginConflict,
    /// 409: a components change under nodes holding roles it takes away.
    ComponentsInUse,
    /// 409: an upgrade that cannot be made (`refusals`, `upgrade`).
    UpgradeRefused,
    /// 409: the environment has a node group of that name.
    NodeGroupExists,
    /// 409: a node group with nodes in it, or the `default` one.
    NodeGroupInUse,
    /// 409: an environment with something the deployer has no
    /// equivalent for (`problems`).
    NotExportable,
    /// 412: `If-Match` names another version.
    PreconditionFailed,
    /// 413: a body over its limit.
    PayloadTooLarge,
    /// 415: a body of a type the route does not take.
    UnsupportedMediaType,
    /// 429: too many failed sign-ins (`Retry-After`).
    TooManyAttempts,
    /// 429: too many uploads at once (`Retry-After`).
    TooManyUploads,
    /// 429: too many requests.
    TooManyRequests,
    /// 500: something failed on the server (logged).
    Internal,
    /// Any other status without a code of its own.
    Error,
}

impl ErrorCode {
    /// The code as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::InvalidSelection => "invalid_selection",
            ErrorCode::InvalidSettings => "invalid_settings",
            ErrorCode::InvalidRoles => "invalid_roles",
            ErrorCode::InvalidNodes => "invalid_nodes",
            ErrorCode::UnknownTag => "unknown_tag",
            ErrorCode::InvalidEnvironment => "invalid_environment",
            ErrorCode::InvalidPlugin => "invalid_plugin",
            ErrorCode::UnreadablePackage => "unreadable_package",
            ErrorCode::UnreadableArchive => "unreadable_archive",
            ErrorCode::InvalidTemplate => "invalid_template",
            ErrorCode::InvalidNetworks => "invalid_networks",
            ErrorCode::InvalidInterfaces => "invalid_interfaces",
            ErrorCode::HostNotAllowed => "host_not_allowed",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::CrossSite => "cross_site",
            ErrorCode::PathInstallDisabled => "path_install_disabled",
            ErrorCode::OutsidePluginDir => "outside_plugin_dir",
            ErrorCode::NotFound => "not_found",
            ErrorCode::UnknownGraph => "unknown_graph",
            ErrorCode::UnknownDeployer => "unknown_deployer",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::Timeout => "timeout",
            ErrorCode::Conflict => "conflict",
            ErrorCode::NoRelease => "no_release",
            ErrorCode::Busy => "busy",
            ErrorCode::PluginInUse => "plugin_in_use",
            ErrorCode::PluginConflict => "plugin_conflict",
            ErrorCode::ComponentsInUse => "components_in_use",
            ErrorCode::UpgradeRefused => "upgrade_refused",
            ErrorCode::NodeGroupExists => "node_group_exists",
            ErrorCode::NodeGroupInUse => "node_group_in_use",
            ErrorCode::NotExportable => "not_exportable",
            ErrorCode::PreconditionFailed => "precondition_failed",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::TooManyAttempts => "too_many_attempts",
            ErrorCode::TooManyUploads => "too_many_uploads",
            ErrorCode::TooManyRequests => "too_many_requests",
            ErrorCode::Internal => "internal",
            ErrorCode::Error => "error",
        }
    }
}

/// One entry of an error's `problems`: a setting's (`path`) or a node's
/// (`node`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ErrorProblem {
    Setting(Problem),
    /// For `components_in_use`: a node and a role it would lose.
    Role(RoleInUse),
    Node(NodeProblem),
    /// For `invalid_networks` and `invalid_interfaces`: a problem with its
    /// networks (ids) and fields.
    Network(crate::network::NetworkProblem),
    /// For `not_exportable`: a component, role or setting with no
    /// equivalent in the deployer, or a node it cannot take, each with the
    /// tab where it is fixed.
    Export(crate::deployer::ExportProblem),
}

/// An installed plugin in `GET /api/v1/plugins`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PluginSummary {
    pub id: i64,
    pub name: String,
    pub title: String,
    pub version: String,
    pub package_version: String,
    pub description: String,
    /// `release` (ships releases) or `extension` (extends them).
    pub kind: PluginKind,
    /// For a release plugin the releases it ships; for an extension the
    /// installed releases it is compatible with.
    pub releases: Vec<PluginRelease>,
    /// The environments that use the plugin; it cannot be uninstalled
    /// while any does.
    pub used_by: Vec<String>,
    /// Warnings of the validation at install time.
    #[serde(default)]
    pub warnings: Vec<crate::plugin::Diagnostic>,
}

impl PluginSummary {
    /// Why the plugin does nothing yet, when it does nothing: an extension
    /// that no installed release is compatible with.
    pub fn idle_reason(&self) -> Option<String> {
        (self.kind == PluginKind::Extension && self.releases.is_empty()).then(|| {
            format!(
                "{} {} fits no installed release: nothing it declares is offered until a compatible release is installed.",
                self.title, self.version
            )
        })
    }

    /// The warnings of its install, one line each (`place: message`), as
    /// the Plugins page's tooltip shows them.
    pub fn warning_lines(&self) -> String {
        self.warnings
            .iter()
            .map(|w| format!("{}: {}", w.place(), w.message))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum PluginKind {
    Release,
    Extension,
}

impl PluginKind {
    /// `release` or `extension`, as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            PluginKind::Release => "release",
            PluginKind::Extension => "extension",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PluginRelease {
    pub id: i64,
    pub name: String,
    pub version: String,
    pub operating_system: String,
}

impl PluginRelease {
    /// How it is named where it is shown ([`crate::release::label`]).
    pub fn label(&self) -> String {
        crate::release::label(&self.name, &self.version)
    }
}

/// `POST /api/v1/plugins` with a JSON body: install from a path on the
/// server (a package directory or archive). Uploads send the archive
/// itself as the body instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"path": "v5-example"})))]
pub struct InstallFromPath {
    pub path: String,
}

/// A component as `GET /api/v1/releases/{id}/components` serves it: every
/// declared field but `bind`, which stays on the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ComponentView {
    pub name: ComponentName,
    /// Where it is declared: `release NAME VERSION` or `plugin NAME VERSION`
    /// (the registry's sources, in registry order).
    #[serde(default)]
    pub source: String,
    /// The plugin that provides it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
    pub label: String,
    pub description: String,
    pub weight: i64,
    pub default: bool,
    pub compatible: Vec<Relation>,
    pub incompatible: Vec<Relation>,
    pub requires: Requires,
}

/// A registry as the API serves it: every component in registry order,
/// each with its source and the plugin (of `plugins`) that provides it.
pub fn component_views(
    registry: &crate::component::Registry,
    plugins: &[crate::plugin::Package],
) -> Vec<ComponentView> {
    (0..registry.len())
        .map(|i| {
            let source = &registry.source(i).0;
            let plugin = plugins
                .iter()
                .find(|p| &p.source() == source)
                .map(|p| p.name.to_string());
            ComponentView::of(registry.get(i), source.clone(), plugin)
        })
        .collect()
}

impl ComponentView {
    fn of(c: &Component, source: String, plugin: Option<String>) -> ComponentView {
        ComponentView {
            name: c.name.clone(),
            source,
            plugin,
            label: c.label.clone(),
            description: c.description.clone(),
            weight: c.weight,
            default: c.default,
            compatible: c.compatible.clone(),
            incompatible: c.incompatible.clone(),
            requires: c.requires.clone(),
        }
    }
}

impl From<ComponentView> for Component {
    fn from(v: ComponentView) -> Self {
        Component {
            name: v.name,
            label: v.label,
            description: v.description,
            weight: v.weight,
            default: v.default,
            compatible: v.compatible,
            incompatible: v.incompatible,
            requires: v.requires,
            bind: Vec::new(),
        }
    }
}

/// A tag in `GET /api/v1/releases/{id}/tags` and `/clusters/{id}/tags`:
/// the merged view, each with where it is declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TagView {
    pub name: String,
    pub has_primary: bool,
    /// How many instances a role bringing it spreads nodes over (§5.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<u32>,
    /// `release` (the release's tags metadata), `role` (named by a role's
    /// tags only), `plugin` (an extension plugin's), `user` (created through
    /// the API on the release), `environment` (created on the environment).
    pub source: String,
    /// User-defined tags not named by any role can be deleted.
    pub deletable: bool,
    /// How many nodes carry it (or an instance `name:N` of it): of the
    /// environment, or of every environment on the release.
    #[serde(default)]
    pub nodes: usize,
    /// Its instances the nodes carry, each with their names, by number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instance_nodes: Vec<InstanceNodes>,
}

/// The nodes that form one instance of a tag (`mysql:2`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InstanceNodes {
    pub number: u64,
    pub nodes: Vec<String>,
}

/// `POST …/tags`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"name": "rack", "has_primary": false})))]
pub struct CreateTag {
    /// Letters, digits, `_` and `-`.
    #[cfg_attr(feature = "openapi", schema(pattern = "^\\s*[A-Za-z0-9_-]+\\s*$"))]
    pub name: String,
    #[serde(default)]
    pub has_primary: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<u32>,
}

/// `PUT …/tags/{name}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"has_primary": true, "instances": 2})))]
pub struct UpdateTag {
    pub has_primary: bool,
    /// Absent: unchanged; `null`: none (no instance assigned by rule).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub instances: Option<Option<u32>>,
}

/// A field that is present, `null` or not: `Some` of its value.
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A node of an environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NodeView {
    pub id: i64,
    pub cluster_id: i64,
    pub name: String,
    pub status: NodeStatus,
    pub roles: Vec<RoleName>,
    pub pending_roles: Vec<RoleName>,
    /// The node's effective tags (`primary-*` included).
    pub tags: Vec<TagName>,
    /// The tags its roles bring (to mark them in the UI).
    pub role_tags: Vec<TagName>,
    pub tags_added: Vec<TagName>,
    pub tags_removed: Vec<TagName>,
    pub primary_tags: Vec<TagName>,
    pub pending_deletion: bool,
    /// Incremented by every change of the node; `PUT /api/v1/nodes/{id}`
    /// with `If-Match: "VERSION"` is refused (412) when it moved on.
    #[serde(default)]
    pub version: i64,
    /// Its node group (rack) by name.
    #[serde(default)]
    pub node_group: String,
    /// Whether it declares interfaces (its layout: `GET …/interfaces`).
    #[serde(default)]
    pub interfaces: usize,
}

#[cfg(test)]
impl NodeView {
    /// A node for tests: ready, with `roles` and carrying `tags`, of which
    /// `role_tags` come from its roles; nothing pending.
    pub(crate) fn sample(
        id: i64,
        name: &str,
        roles: &[&str],
        tags: &[&str],
        role_tags: &[&str],
    ) -> NodeView {
        let tags_of = |list: &[&str]| list.iter().map(|t| TagName::new(*t).unwrap()).collect();
        NodeView {
            id,
            cluster_id: 1,
            name: name.to_owned(),
            status: crate::name::NodeStatus::Ready,
            roles: roles.iter().map(|r| RoleName::new(*r).unwrap()).collect(),
            pending_roles: Vec::new(),
            tags: tags_of(tags),
            role_tags: tags_of(role_tags),
            tags_added: Vec::new(),
            tags_removed: Vec::new(),
            primary_tags: Vec::new(),
            pending_deletion: false,
            version: 1,
            node_group: "default".to_owned(),
            interfaces: 0,
        }
    }
}

/// `POST /api/v1/clusters/{id}/nodes`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"name": "rack1-07", "status": "ready", "roles": ["compute"]})))]
pub struct CreateNode {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub status: Option<NodeStatus>,
    #[serde(default)]
    pub roles: Vec<RoleName>,
    /// Its node group, by name or id; none: `default`.
    #[serde(default)]
    pub node_group: Option<GroupRef>,
    /// Its interfaces and bonds (the shape of `PUT …/interfaces`).
    #[serde(default)]
    pub interfaces: Option<InterfacesView>,
}

/// A node group named by its name or its id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum GroupRef {
    Id(i64),
    Name(String),
}

impl GroupRef {
    /// The group of `groups` it names, or why none.
    pub fn resolve<'g>(&self, groups: &'g [NodeGroup]) -> Result<&'g NodeGroup, String> {
        let found = groups.iter().find(|g| match self {
            GroupRef::Id(id) => g.id == *id,
            GroupRef::Name(name) => &g.name == name,
        });
        found.ok_or_else(|| {
            let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
            let what = match self {
                GroupRef::Id(id) => format!("{id}"),
                GroupRef::Name(name) => format!("'{name}'"),
            };
            format!(
                "node_group: the environment has no node group {what} (it has {})",
                names.join(", ")
            )
        })
    }
}

/// `PUT /api/v1/nodes/{id}`: the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"roles": ["controller"], "pending_deletion": false})))]
pub struct UpdateNode {
    #[serde(default)]
    pub roles: Option<Vec<RoleName>>,
    #[serde(default)]
    pub status: Option<NodeStatus>,
    #[serde(default)]
    pub pending_deletion: Option<bool>,
    #[serde(default)]
    pub node_group: Option<GroupRef>,
    #[serde(default)]
    pub interfaces: Option<InterfacesView>,
}

impl UpdateNode {
    /// `node` with what the request names changed, the rest as it is;
    /// or what is wrong with the node group or the interfaces it names.
    pub fn applied_to(
        &self,
        node: &crate::tag::NodeTags,
        groups: &[NodeGroup],
    ) -> Result<crate::tag::NodeTags, String> {
        let mut next = node.clone();
        if let Some(status) = self.status {
            next.status = status;
        }
        if let Some(roles) = &self.roles {
            next.roles = roles.clone();
        }
        if let Some(pending) = self.pending_deletion {
            next.pending_deletion = pending;
        }
        if let Some(group) = &self.node_group {
            next.node_group = Some(group.resolve(groups)?.name.clone());
        }
        if let Some(interfaces) = &self.interfaces {
            next.interfaces = interfaces.declared()?;
        }
        Ok(next)
    }
}

/// `POST` / `DELETE /api/v1/nodes/{id}/tags`: tags to assign or unassign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"tags": ["rack", "mysql:1"]})))]
pub struct NodeTagsChange {
    pub tags: Vec<TagName>,
}

/// `POST /api/v1/clusters/{id}/nodes/bulk`: one change to many nodes, all
/// or nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"nodes": [1, 2], "add_tags": ["rack"], "remove_tags": [], "add_roles": [], "remove_roles": []})))]
pub struct BulkNodes {
    pub nodes: Vec<i64>,
    #[serde(default)]
    pub add_tags: Vec<TagName>,
    #[serde(default)]
    pub remove_tags: Vec<TagName>,
    #[serde(default)]
    pub add_roles: Vec<RoleName>,
    #[serde(default)]
    pub remove_roles: Vec<RoleName>,
    /// Moves the nodes to this node group.
    #[serde(default)]
    pub node_group: Option<GroupRef>,
    /// Puts these networks on these interfaces or bonds of every node
    /// (port → networks; SEMANTICS §11.1).
    #[serde(default)]
    pub interfaces: Option<std::collections::BTreeMap<String, Vec<String>>>,
}

/// A problem of one node in a bulk change (or of a node id that is not in
/// the environment, then without `name`).
// Closed, as its schema is: an export's node problem (which names the tab
// it is fixed on besides) reads as the export's in `ErrorProblem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeProblem {
    pub node: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub message: String,
}

// Written by hand: closed (no other property), so that a `RoleInUse`
// (which has a `role` besides) is not a `NodeProblem` too in
// `ErrorProblem`'s `oneOf`.
#[cfg(feature = "openapi")]
crate::schema::schema!(NodeProblem, crate::schema::node_problem());

/// An uploaded Heat template set: its templates and their capabilities.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplateSet {
    pub id: i64,
    pub name: String,
    /// Template paths, relative to the set's root, sorted.
    pub templates: Vec<String>,
    pub summary: crate::heat::Summary,
}

/// `POST /api/v1/heat/template-sets/{id}/resolve`: an environment (YAML
/// text, its paths relative to the set's root) and the user's picks for
/// open choices (resource type → template).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResolveTemplates {
    pub environment: String,
    #[serde(default)]
    pub picks: std::collections::BTreeMap<String, String>,
}

/// The answer: the resolution with the picks applied, the choices still
/// open, and — when everything resolved — the environment to download.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplateResolution {
    pub resource_registry: std::collections::BTreeMap<String, String>,
    pub errors: Vec<crate::heat::ResolveError>,
    pub choices: Vec<crate::heat::Choice>,
    /// Every candidate of each open choice, valid or not, with reasons (for
    /// radio buttons where only the valid ones are enabled).
    #[serde(default)]
    pub options: Vec<crate::heat::ResolveError>,
    /// The environment with every list replaced by its template (YAML).
    pub environment: Option<String>,
}

/// `PUT …/roles/{name}`: the role's tag set at that level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"tags": ["controller", "database", "keystone"]})))]
pub struct RoleTags {
    pub tags: Vec<TagName>,
}

/// `POST …/roles`: a role of one's own (SEMANTICS §5.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"name": "messaging", "label": "Messaging", "description": "RabbitMQ away from the controllers", "tags": ["rabbitmq"], "conflicts": ["compute"], "limits": {"max": 3}})))]
pub struct CreateRole {
    /// Lowercase letters, digits, `_` and `-`.
    #[cfg_attr(feature = "openapi", schema(pattern = "^[a-z0-9_-]+$"))]
    pub name: String,
    pub label: String,
    #[serde(default)]
    pub description: String,
    pub tags: Vec<TagName>,
    #[serde(default)]
    pub conflicts: Vec<RoleName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<serde_json::Value>,
}

impl CreateRole {
    /// The definition it asks for.
    pub fn def(self) -> crate::role_layer::RoleDef {
        crate::role_layer::RoleDef {
            label: self.label,
            description: self.description,
            tags: self.tags,
            conflicts: self.conflicts,
            limits: self.limits,
        }
    }
}

/// A role an environment's nodes may take (`GET /api/v1/clusters/{id}/roles`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoleView {
    /// The role's key (`controller`).
    pub id: RoleName,
    /// Its display name (`Controller`).
    pub name: String,
    pub description: String,
    pub tags: Vec<TagName>,
    /// Why it cannot be given to a node now (its restrictions' messages),
    /// when it cannot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
    /// The plugin that provides it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
    /// Where its tag set comes from (SEMANTICS §5.1).
    #[serde(default)]
    pub tags_source: crate::role_layer::TagsSource,
    /// Where it was created, for a role of one's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<crate::role_layer::Level>,
    /// How many nodes hold it (deployed or pending): of the environment,
    /// or of every environment on the release.
    #[serde(default)]
    pub nodes: usize,
}

/// The answer of a change of one role (`PUT`, `POST`, and a `DELETE` that
/// undoes a change): the role as its owner's list now shows it, and what
/// the change did to the instance tags of the nodes holding it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoleChanged {
    #[serde(flatten)]
    pub role: RoleView,
    pub instance_tags: InstanceTagChanges,
}

/// The instance tags (`mysql:2`, SEMANTICS §5.1) a change of roles
/// assigned to and removed from the nodes holding the role, in the same
/// transaction: on an environment, or on every environment of a release.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InstanceTagChanges {
    /// How many nodes' instance tags changed.
    pub nodes: usize,
    /// Instance tags given.
    pub assigned: usize,
    /// Instance tags taken away (their tag no longer brought by a role).
    pub removed: usize,
}

impl InstanceTagChanges {
    /// Both counts together.
    pub fn add(&mut self, other: InstanceTagChanges) {
        self.nodes += other.nodes;
        self.assigned += other.assigned;
        self.removed += other.removed;
    }
}

/// One graph type of an environment (`GET /api/v1/clusters/{id}/graphs`,
/// `mosaic graphs`): what its plan would be made of (SEMANTICS §6.2).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GraphSummary {
    #[serde(rename = "type")]
    pub kind: GraphType,
    /// The release's name for the graph, else the first enabled plugin's
    /// record's, else the type.
    pub name: String,
    /// How many distinct task ids the plan of this type considers (each
    /// id once, however many sources define it).
    pub tasks: usize,
    /// Where its tasks come from: the release, then the enabled plugins in
    /// registry order, then the environment.
    pub sources: Vec<GraphSource>,
}

impl GraphSummary {
    /// What a choice of graph says of it: its name, the type too when the
    /// name is not the type, and how many tasks it has
    /// (`hardware burn-in (burn_in), 2 tasks`).
    pub fn label(&self) -> String {
        let tasks = format!("{} task{}", self.tasks, crate::text::plural(self.tasks));
        if self.kind == self.name.as_str() {
            format!("{}, {tasks}", self.name)
        } else {
            format!("{} ({}), {tasks}", self.name, self.kind)
        }
    }
}

/// Where a graph's tasks come from, written `release`, `plugin:NAME` or
/// `environment`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum GraphSource {
    Release,
    Plugin(PluginName),
    Environment,
}

#[cfg(feature = "openapi")]
crate::schema::schema!(
    GraphSource,
    crate::schema::pattern(
        "^(release|environment|plugin:[a-z0-9_-]+)$",
        "Where a graph's tasks come from: release, plugin:NAME or environment"
    )
);

impl std::fmt::Display for GraphSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GraphSource::Release => f.write_str("release"),
            GraphSource::Plugin(name) => write!(f, "plugin:{name}"),
            GraphSource::Environment => f.write_str("environment"),
        }
    }
}

impl From<GraphSource> for String {
    fn from(source: GraphSource) -> String {
        source.to_string()
    }
}

impl TryFrom<String> for GraphSource {
    type Error = String;

    fn try_from(text: String) -> Result<GraphSource, String> {
        match text.as_str() {
            "release" => Ok(GraphSource::Release),
            "environment" => Ok(GraphSource::Environment),
            _ => match text.strip_prefix("plugin:") {
                Some(name) => PluginName::new(name)
                    .map(GraphSource::Plugin)
                    .map_err(|e| e.to_string()),
                None => Err(format!(
                    "'{text}' is not a graph source: release, plugin:NAME or environment"
                )),
            },
        }
    }
}

/// `GET /api/v1/clusters/{id}/attributes`: the whole settings tree with
/// values, labels, types and restrictions, its version (for `If-Match`),
/// and the models besides settings that restrictions read, so that the
/// browser checks edits with the same function the server does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Attributes {
    pub editable: serde_json::Value,
    pub version: i64,
    #[serde(default)]
    pub context: Context,
    /// The settings and plugin switches the components decide (SEMANTICS
    /// §9.1): shown read-only, refused when a save changes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bound: Vec<crate::environment::Bound>,
}

/// `PATCH /api/v1/clusters/{id}/attributes`: `{editable: {group: {attr:
/// {value}}, plugin: {metadata: {enabled}}}}`, partial, merged over what
/// is stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"editable": {"common": {"debug": {"value": true}}}})))]
pub struct PatchAttributes {
    pub editable: serde_json::Map<String, serde_json::Value>,
}

impl PatchAttributes {
    /// The patch that turns `saved` into `draft` (same tree): changed
    /// values as `{value}`, changed switches as `{metadata: {enabled}}`.
    pub fn between(
        saved: &crate::settings::Settings,
        draft: &crate::settings::Settings,
    ) -> PatchAttributes {
        let mut editable = serde_json::Map::new();
        for (group, changes) in draft.edits_from(saved) {
            let switch = draft.tree.group(&group).is_some_and(|g| g.meta.switchable);
            let mut out = serde_json::Map::new();
            for (key, value) in changes.as_object().into_iter().flatten() {
                let change = if switch && key == "enabled" {
                    (
                        "metadata".to_owned(),
                        serde_json::json!({ "enabled": value }),
                    )
                } else {
                    (key.clone(), serde_json::json!({ "value": value }))
                };
                out.insert(change.0, change.1);
            }
            editable.insert(group, serde_json::Value::Object(out));
        }
        PatchAttributes { editable }
    }

    /// The patch as edits (`{group: {attr: value, enabled: bool}}`), or what
    /// in it is not of the documented shape.
    pub fn edits(&self) -> Result<Edits, Vec<Problem>> {
        let mut edits = Edits::new();
        let mut problems = Vec::new();
        for (group, changes) in &self.editable {
            let Some(changes) = changes.as_object() else {
                problems.push(Problem::new(
                    group.clone(),
                    "must map attribute names to {value}",
                ));
                continue;
            };
            let mut out = serde_json::Map::new();
            for (attr, change) in changes {
                let path = format!("{group}.{attr}");
                match (attr.as_str(), change) {
                    ("metadata", serde_json::Value::Object(m))
                        if m.len() == 1 && m.contains_key("enabled") =>
                    {
                        out.insert("enabled".to_owned(), m["enabled"].clone());
                    }
                    ("metadata", _) => problems.push(Problem::new(
                        path,
                        "only {enabled: true|false} can be changed",
                    )),
                    (_, serde_json::Value::Object(m))
                        if m.len() == 1 && m.contains_key("value") =>
                    {
                        out.insert(attr.clone(), m["value"].clone());
                    }
                    _ => problems.push(Problem::new(path, "must be {value: …}")),
                }
            }
            edits.insert(group.clone(), serde_json::Value::Object(out));
        }
        if problems.is_empty() {
            Ok(edits)
        } else {
            Err(problems)
        }
    }
}

/// A plugin switched off while nodes have its roles: 409 `plugin_in_use`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginInUse {
    pub plugin: String,
    pub nodes: Vec<String>,
}

/// `PUT /api/v1/clusters/{id}/components`: the environment's new selection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"components": ["hypervisor:libvirt:kvm", "network:neutron:core:ml2", "network:neutron:ml2:vlan", "network:neutron:ml2:ovs", "storage:block:backend:ceph", "storage:object:backend:swift", "storage:image:swift"]})))]
pub struct ChangeComponents {
    /// Component names; an unknown one is a violation (`invalid_selection`).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<ComponentName>))]
    pub components: Vec<String>,
}

/// The answer of a components change: the environment as stored, or, for
/// a dry run, what the change would do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum ComponentsAnswer {
    Stored(Cluster),
    DryRun(Consequences),
}

/// The answer of an upgrade: the environment as stored with what the
/// upgrade did, or, for a dry run, every consequence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum UpgradeAnswer {
    Stored(Upgraded),
    DryRun(UpgradeConsequences),
}

/// What changing an environment's components would do (the answer of
/// `PUT /api/v1/clusters/{id}/components?dry_run=true`, SEMANTICS §9.1).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Consequences {
    /// Every setting whose value changes, in the settings' order.
    pub settings: Vec<SettingChange>,
    pub plugins: PluginSwitches,
    /// The roles that become unavailable, each with the nodes holding it.
    pub roles: Vec<RoleLoss>,
    /// The `default` plan's changes, nodes with the same change together.
    pub tasks: Vec<TaskChange>,
    /// The networks the change adds and removes (a segmentation moved,
    /// Ironic added or removed; SEMANTICS §11.1).
    #[serde(default)]
    pub networks: crate::network::Rebuilt,
}

impl Consequences {
    /// Whether the change would be refused: a node holds a role that
    /// becomes unavailable.
    pub fn refused(&self) -> bool {
        self.roles.iter().any(|r| !r.nodes.is_empty())
    }
}

/// `GET /api/v1/clusters/{id}/upgrades`: a plugin the environment pins
/// (its release plugin included) and the newer installed versions it could
/// move to, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpgradeOffer {
    pub plugin: PluginName,
    pub from: String,
    pub to: Vec<String>,
}

/// `POST /api/v1/clusters/{id}/upgrade`: the plugin to move and the version
/// to move it to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpgradeRequest {
    pub plugin: PluginName,
    pub version: String,
}

/// Every consequence of an upgrade (SEMANTICS §7.6), its dry run's answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpgradeConsequences {
    pub components: ComponentChanges,
    pub settings: SettingChanges,
    pub roles: RoleChanges,
    /// The `default` plan's changes, nodes with the same change together.
    pub tasks: Vec<TaskChange>,
    /// The networks the upgrade adds and removes.
    #[serde(default)]
    pub networks: crate::network::Rebuilt,
    /// What becomes of the changes made on the release (its created tags,
    /// its changes of roles).
    #[serde(default)]
    pub release_changes: ReleaseCarry,
}

/// The answer of an upgrade (`POST /api/v1/clusters/{id}/upgrade`): the
/// environment as it is now, and what the upgrade did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Upgraded {
    #[serde(flatten)]
    pub cluster: Cluster,
    pub upgrade: UpgradeConsequences,
}

/// What an upgrade does with the changes made on the release record
/// (SEMANTICS §7.6): those the environment keeps — carried onto the new
/// record, for a release upgrade — and those it does not, with why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReleaseCarry {
    pub carried: Vec<CarriedChange>,
    pub not_carried: Vec<NotCarried>,
}

/// What a change made on a release is of: a role, or a tag created there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Role,
    Tag,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Role => "role",
            ChangeKind::Tag => "tag",
        }
    }
}

/// A change made on the release that the upgrade keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CarriedChange {
    pub kind: ChangeKind,
    pub name: String,
}

/// A change made on the release that the upgrade does not keep, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotCarried {
    pub kind: ChangeKind,
    pub name: String,
    pub reason: NotCarriedReason,
    /// For `tags_gone`: the tags the new version does not know.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<TagName>,
}

/// Why a change made on the release is not carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum NotCarriedReason {
    /// The new version has no role of that name to change.
    RoleGone,
    /// The new version declares a role or tag of that name itself.
    Declared,
    /// The role's tags name tags the new version does not know.
    TagsGone,
    /// The new release record has its own, different change of it.
    Changed,
}

impl NotCarried {
    /// Why it is not carried, in words.
    pub fn why(&self) -> String {
        let (kind, name) = (self.kind.as_str(), &self.name);
        match self.reason {
            NotCarriedReason::RoleGone => format!("the new version has no role '{name}'"),
            NotCarriedReason::Declared => {
                format!("the new version declares a {kind} '{name}' itself")
            }
            NotCarriedReason::TagsGone => format!(
                "the new version does not know the tag{} {}",
                crate::text::plural(self.tags.len()),
                quoted(
                    &self
                        .tags
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                )
            ),
            NotCarriedReason::Changed => "the new release has its own change of it".to_owned(),
        }
    }
}

impl std::fmt::Display for NotCarried {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = &self.name;
        match self.kind {
            ChangeKind::Role => write!(f, "the change of role '{name}'")?,
            ChangeKind::Tag => write!(f, "the tag '{name}' created on the release")?,
        }
        write!(f, " is not carried: {}", self.why())
    }
}

/// The components the new versions declare that the old did not, and
/// those they no longer declare, in registry order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ComponentChanges {
    pub added: Vec<ComponentName>,
    pub removed: Vec<ComponentName>,
}

/// Settings (`group.attr`) that appear, that disappear, and whose values
/// change, in the settings' order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SettingChanges {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<SettingChange>,
}

/// Roles that become available, and those that stop being, with the nodes
/// holding them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoleChanges {
    pub added: Vec<RoleName>,
    pub removed: Vec<RoleLoss>,
}

/// Why an upgrade is refused (409 `upgrade_refused`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum UpgradeRefusal {
    /// A chosen component the new versions do not declare.
    Component { component: ComponentName },
    /// A role that becomes unavailable while nodes hold it.
    Role { role: RoleName, nodes: Vec<String> },
    /// An enabled plugin the new release record is not compatible with.
    Plugin {
        plugin: PluginName,
        version: String,
        release: String,
    },
}

impl std::fmt::Display for UpgradeRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UpgradeRefusal::Component { component } => write!(
                f,
                "the chosen component '{component}' would disappear; change the components first"
            ),
            UpgradeRefusal::Role { role, nodes } => write!(
                f,
                "the role '{role}' would disappear while node{} {} {} it; remove it from {} first",
                crate::text::plural(nodes.len()),
                quoted(nodes),
                if nodes.len() == 1 { "holds" } else { "hold" },
                if nodes.len() == 1 {
                    "that node"
                } else {
                    "those nodes"
                },
            ),
            UpgradeRefusal::Plugin {
                plugin,
                version,
                release,
            } => write!(
                f,
                "the enabled plugin '{plugin}' {version} is not compatible with release {release}"
            ),
        }
    }
}

fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A setting that changes: `group.attr` (`group.enabled` for the switch of
/// a group that is no plugin's), its value before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SettingChange {
    pub path: String,
    pub before: serde_json::Value,
    pub after: serde_json::Value,
}

/// The plugins a change switches on and off, in registry order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PluginSwitches {
    pub enabled: Vec<PluginName>,
    pub disabled: Vec<PluginName>,
}

/// A role that becomes unavailable, and the nodes holding it (by name, or
/// `node-<id>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoleLoss {
    pub role: RoleName,
    pub nodes: Vec<String>,
}

/// The tasks that start (`added`) and stop (`removed`) running on `nodes`
/// (node ids, or `"master"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TaskChange {
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::node_ids))]
    pub nodes: Vec<serde_json::Value>,
    pub added: Vec<TaskId>,
    pub removed: Vec<TaskId>,
}

/// A plan's node id (a number, or `"master"`) as people read it: `3`,
/// `master`.
pub fn node_name(id: &serde_json::Value) -> String {
    id.as_str().map_or_else(|| id.to_string(), str::to_owned)
}

impl TaskChange {
    /// The nodes as people read them (`3`, `master`).
    pub fn node_names(&self) -> Vec<String> {
        self.nodes.iter().map(node_name).collect()
    }

    /// What changes, as the preview and the CLI say it: `start a, b; stop c`.
    pub fn summary(&self) -> String {
        let list = |ts: &[TaskId]| {
            ts.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = Vec::new();
        if !self.added.is_empty() {
            parts.push(format!("start {}", list(&self.added)));
        }
        if !self.removed.is_empty() {
            parts.push(format!("stop {}", list(&self.removed)));
        }
        parts.join("; ")
    }
}

/// A node holding a role a components change would make unavailable
/// (409 `components_in_use`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoleInUse {
    pub node: i64,
    /// The node's name, or `node-<id>`.
    pub name: String,
    pub role: RoleName,
    pub message: String,
}

/// `POST /api/v1/session`: signing in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"username": "admin", "password": "a long passphrase"})))]
pub struct SignIn {
    pub username: String,
    pub password: String,
}

/// `GET /api/v1/session` (and the answer of signing in): who is signed in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionView {
    /// The user's name, or `token:LABEL` for a token.
    pub username: String,
    pub role: crate::access::Role,
}

/// `GET /api/v1/health`: the database answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Health {
    /// Always `ok` (a failure is an error answer).
    pub status: String,
}

/// `GET /api/v1/nodes/{id}/tags`: a node's effective tags.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NodeTagList {
    pub tags: Vec<TagName>,
}

/// One line of `GET /api/v1/audit`: a successful change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditEntry {
    pub id: i64,
    /// RFC 3339, UTC.
    pub at: String,
    /// The user's name, or `token:LABEL`.
    pub actor: String,
    pub method: String,
    /// The route as declared, e.g. `/api/v1/nodes/{id}/tags`.
    pub route: String,
    /// The path as requested, e.g. `/api/v1/nodes/7/tags`.
    pub target: String,
    pub status: u16,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn summary(kind: PluginKind, releases: usize) -> PluginSummary {
        PluginSummary {
            id: 1,
            name: "demo".to_owned(),
            title: "Demo".to_owned(),
            version: "1.0.0".to_owned(),
            package_version: "5.0.0".to_owned(),
            description: String::new(),
            kind,
            releases: (0..releases)
                .map(|i| PluginRelease {
                    id: i as i64,
                    name: "r".to_owned(),
                    version: "1".to_owned(),
                    operating_system: "Ubuntu".to_owned(),
                })
                .collect(),
            used_by: Vec::new(),
            warnings: Vec::new(),
        }
    }

    #[test]
    fn an_extension_without_a_release_says_it_does_nothing() {
        let idle = summary(PluginKind::Extension, 0).idle_reason().unwrap();
        assert!(
            idle.starts_with("Demo 1.0.0 fits no installed release"),
            "{idle}"
        );
        assert_eq!(summary(PluginKind::Extension, 1).idle_reason(), None);
        assert_eq!(summary(PluginKind::Release, 0).idle_reason(), None);
    }

    #[test]
    fn warnings_are_one_line_each_with_their_place() {
        let mut plugin = summary(PluginKind::Release, 0);
        assert_eq!(plugin.warning_lines(), "");
        let warning = |line, message: &str| crate::plugin::Diagnostic {
            severity: crate::plugin::Severity::Warning,
            file: "metadata.yaml".to_owned(),
            line,
            path: None,
            message: message.to_owned(),
        };
        plugin.warnings = vec![warning(Some(3), "old"), warning(None, "odd")];
        assert_eq!(
            plugin.warning_lines(),
            "metadata.yaml:3: old\nmetadata.yaml: odd"
        );
    }

    #[test]
    fn error_codes_are_written_as_serde_writes_them() {
        for code in [
            ErrorCode::BadRequest,
            ErrorCode::TooManyAttempts,
            ErrorCode::Error,
            ErrorCode::InvalidNetworks,
            ErrorCode::InvalidInterfaces,
            ErrorCode::UnknownDeployer,
            ErrorCode::NodeGroupExists,
            ErrorCode::NodeGroupInUse,
            ErrorCode::NotExportable,
        ] {
            assert_eq!(serde_json::to_value(code).unwrap(), json!(code.as_str()));
        }
    }

    #[test]
    fn kinds_are_named_as_the_api_names_them() {
        for kind in [PluginKind::Release, PluginKind::Extension] {
            assert_eq!(
                serde_json::to_string(&kind).unwrap(),
                format!("\"{}\"", kind.as_str())
            );
        }
    }

    #[test]
    fn a_graph_is_labelled_by_its_name_its_type_when_that_differs_and_its_tasks() {
        let graph = |kind: &str, name: &str, tasks| GraphSummary {
            kind: GraphType::new(kind).unwrap(),
            name: name.to_owned(),
            tasks,
            sources: vec![GraphSource::Release],
        };
        assert_eq!(
            graph("provisioning", "provisioning", 4).label(),
            "provisioning, 4 tasks"
        );
        assert_eq!(
            graph("burn_in", "hardware burn-in", 1).label(),
            "hardware burn-in (burn_in), 1 task"
        );
    }

    #[test]
    fn graph_sources_read_back_as_they_are_written_and_nothing_else() {
        for text in ["release", "plugin:burnin", "environment"] {
            let source: GraphSource = serde_json::from_value(json!(text)).unwrap();
            assert_eq!(serde_json::to_value(&source).unwrap(), json!(text));
        }
        for bad in ["plugin:", "plugin:Burn In", "plugins", ""] {
            assert!(
                serde_json::from_value::<GraphSource>(json!(bad)).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_error_body_reads_back_as_the_server_writes_it() {
        // `problems` is untagged: a setting's problem or a node's.
        let body = ErrorBody {
            error: ErrorDetail {
                code: "invalid_nodes".to_owned(),
                message: "m".to_owned(),
                violations: Vec::new(),
                report: None,
                problems: vec![
                    ErrorProblem::Setting(Problem::new("a.b", "bad")),
                    ErrorProblem::Node(NodeProblem {
                        node: 3,
                        name: None,
                        message: "gone".to_owned(),
                    }),
                ],
                ..ErrorDetail::default()
            },
        };
        let text = serde_json::to_string(&body).unwrap();
        assert_eq!(
            text,
            r#"{"error":{"code":"invalid_nodes","message":"m","problems":[{"path":"a.b","message":"bad"},{"node":3,"message":"gone"}]}}"#
        );
        assert_eq!(serde_json::from_str::<ErrorBody>(&text).unwrap(), body);
    }
}
