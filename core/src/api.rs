//! The types that cross the wire between the server and the browser. Only
//! these are serialized into API responses and read by the app.
//!
//! `api` sits on top of the domain (ARCHITECTURE.md, "Layers of core"):
//! the bodies that only the API has are written here; those a domain
//! module produces or takes live in that module and are re-exported here,
//! so that the server, the CLI and the app name every wire type
//! `api::…`. Nothing in the domain names this module.

use serde::{Deserialize, Serialize};

pub use crate::deployer::DeployerSummary;
pub use crate::disks::{DiskEntry, VolumeEntry, VolumeInfo};
pub use crate::environment::{
    BulkNodes, CarriedChange, ChangeKind, ComponentChanges, Consequences, GraphSource,
    GraphSummary, NodeProblem, NodeView, NotCarried, NotCarriedReason, PluginSwitches,
    ReleaseCarry, RoleChanges, RoleInUse, RoleLoss, SettingChange, SettingChanges, TaskChange,
    UpgradeConsequences, UpgradeRefusal, node_name,
};
pub use crate::export::{Export, ExportHost, ExportProblem, ExportProblemKind, Subject};
pub use crate::hardware::{Hardware, NodeHardware};
pub use crate::heat::{ResolveTemplates, TemplateResolution};
pub use crate::network::{
    ConfigurationChange, ConfigurationView, GroupRef, GroupView, InterfacesView, NetworkMetaView,
    NetworkProblem, NetworkView, NewGroup, Verification,
};
pub use crate::node_import::ImportReport;
pub use crate::plugin::UpgradeOffer;
pub use crate::role_layer::{InstanceTagChanges, RoleView};
pub use crate::run::{
    Action, Changes, Connection, Failure, HistoryRow, HostSummary, PlannedStep, Progress, Relaunch,
    RelaunchHosts, Run, RunEvent, RunKind, RunPlan, RunRequest, RunStatus, Runner, SshKey, Step,
    StepStatus, TaskStatus,
};
pub use crate::settings::PatchAttributes;
pub use crate::tag::{InstanceNodes, TagView};

use crate::network::NodeGroup;

use crate::component::{Component, ComponentName, ComponentType, Relation, Requires, Violation};
use crate::name::{EnvironmentStatus, Mode, NodeStatus, PluginName, RoleName, TagName};
use crate::plugin::Report;
use crate::settings::{Context, Problem};

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
    /// Where its deployment is (SEMANTICS §15): `new` until a run deploys
    /// it.
    #[serde(default)]
    pub status: EnvironmentStatus,
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
    /// 400: an import of found hardware with problems (`problems`, each
    /// with its file and host); nothing was stored.
    InvalidImport,
    /// 400: hardware declared by hand with problems (each in the message,
    /// with its field).
    InvalidHardware,
    /// 400: a disk layout with problems (`problems`: each with its `path`,
    /// or by node for many nodes at once); nothing was stored.
    InvalidDisks,
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
    /// 409: the environment's release declares data that cannot be used
    /// (the message names the release): a corrected release fixes it, no
    /// change to the environment does.
    InvalidRelease,
    /// 409: a run of the environment has not ended: one run at a time,
    /// and nothing it deploys changes while it runs.
    DeploymentRunning,
    /// 409: "deploy changes" with nothing changed since the last
    /// successful deployment.
    NoChanges,
    /// 409: deployed hosts were removed (or left groups): kolla-ansible's
    /// steps for removing them are in the message.
    HostsRemoved,
    /// 409: the deployer's virtual environment is not installed on this
    /// server (`mosaic deployer install`).
    DeployerNotInstalled,
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
            ErrorCode::InvalidImport => "invalid_import",
            ErrorCode::InvalidHardware => "invalid_hardware",
            ErrorCode::InvalidDisks => "invalid_disks",
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
            ErrorCode::InvalidRelease => "invalid_release",
            ErrorCode::NotExportable => "not_exportable",
            ErrorCode::DeploymentRunning => "deployment_running",
            ErrorCode::NoChanges => "no_changes",
            ErrorCode::HostsRemoved => "hosts_removed",
            ErrorCode::DeployerNotInstalled => "deployer_not_installed",
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
    /// For `invalid_import`: a file (and the host in it) and what is wrong.
    /// Before `Export`, which a `file` would not stop (serde reads
    /// untagged variants in order).
    Import(crate::hardware::ReadProblem),
    /// For `not_exportable`: a component, role or setting with no
    /// equivalent in the deployer, or a node it cannot take, each with the
    /// tab where it is fixed.
    Export(crate::export::ExportProblem),
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

/// `PUT /api/v1/clusters/{id}/disks`: one layout (Fuel's simple format,
/// sizes in MB) for several nodes alike, by disk position.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"nodes": [1, 2], "layout": [{"id": "sda", "size": 101772, "bootable": true, "volumes": [{"name": "os", "size": 24576}, {"name": "vm", "size": 77196}]}]})))]
pub struct ClusterDisks {
    pub nodes: Vec<i64>,
    pub layout: Vec<DiskEntry>,
}

/// A node's layout as stored by `PUT /api/v1/clusters/{id}/disks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NodeDisks {
    pub node: i64,
    pub disks: Vec<DiskEntry>,
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
            next.status = status.by_hand()?;
            if status != crate::name::NodeStatus::Error {
                next.error_type = None;
            }
        }
        if let Some(roles) = &self.roles {
            next.roles = roles.clone();
        }
        if let Some(pending) = self.pending_deletion {
            next.pending_deletion = pending;
        }
        if let Some(group) = &self.node_group {
            next.node_group = Some(
                group
                    .resolve(groups)
                    .map_err(|e| e.to_string())?
                    .name
                    .clone(),
            );
        }
        if let Some(interfaces) = &self.interfaces {
            next.interfaces = interfaces.declared().map_err(|e| e.to_string())?;
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

/// A plugin switched off while nodes have its roles: 409 `plugin_in_use`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginInUse {
    pub plugin: String,
    pub nodes: Vec<String>,
}

impl std::fmt::Display for PluginInUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.nodes.len();
        write!(
            f,
            "the plugin '{}' cannot be disabled: node{} {} {} its roles; remove them from the node{} first",
            self.plugin,
            crate::text::plural(n),
            crate::text::quoted(&self.nodes),
            crate::text::agree(n, "has", "have"),
            crate::text::plural(n),
        )
    }
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

/// `POST /api/v1/clusters/{id}/upgrade`: the plugin to move and the version
/// to move it to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpgradeRequest {
    pub plugin: PluginName,
    pub version: String,
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
            ErrorCode::InvalidRelease,
            ErrorCode::NotExportable,
            ErrorCode::DeploymentRunning,
            ErrorCode::NoChanges,
            ErrorCode::HostsRemoved,
            ErrorCode::DeployerNotInstalled,
            ErrorCode::InvalidImport,
            ErrorCode::InvalidHardware,
            ErrorCode::InvalidDisks,
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

    #[test]
    fn an_import_problem_reads_back_as_one() {
        let problem = ErrorProblem::Import(crate::hardware::ReadProblem {
            file: "facts/cmp-1".to_owned(),
            host: None,
            message: "not JSON".to_owned(),
        });
        let text = serde_json::to_string(&problem).unwrap();
        assert_eq!(
            serde_json::from_str::<ErrorProblem>(&text).unwrap(),
            problem
        );
    }
}
