//! Why an environment cannot be exported (SEMANTICS §12): each problem
//! with what it is about and the tab of the environment's page where it is
//! fixed, and the refusal that carries them all.

use serde::{Deserialize, Serialize};

use crate::deployer::{Computed, Expression, Template};
use crate::environment::EnvTab;

/// What a problem is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    Component(String),
    Role(String),
    Setting(String),
    Node(i64),
}

impl Subject {
    /// The tab of the environment's page where what it names is changed:
    /// a component on Components, a role a node holds and a node's name on
    /// Nodes, a setting on Settings.
    pub fn tab(&self) -> EnvTab {
        match self {
            Subject::Component(_) => EnvTab::Components,
            Subject::Role(_) | Subject::Node(_) => EnvTab::Nodes,
            Subject::Setting(_) => EnvTab::Settings,
        }
    }
}

/// Which rule an export's problem breaks (tests and scripts read it; the
/// message says it to people).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ExportProblemKind {
    /// A chosen component the deployer has no equivalent for.
    UnsupportedComponent,
    /// A role a node holds that the deployer has no equivalent for.
    UnsupportedRole,
    /// A setting whose value has no equivalent.
    UnsupportedSetting,
    /// A node's name is no host name.
    HostName,
    /// Two nodes have the same host name.
    SameHostName,
    /// A node has no management address.
    NoManagementAddress,
    /// The release's (or a plugin's) networking data does not read: no
    /// change to the environment fixes it.
    ReleaseNetworks,
    /// A node is short of disk space for its roles' volumes.
    DiskSpace,
    /// The volumes metadata, or a volume the deployer data uses, does not
    /// fit (the data's mistake).
    Disks,
    /// A condition of the deployer data cannot be evaluated here.
    Condition,
    /// A value of `globals.yml` or a configuration file cannot be worked out.
    Value,
    /// A service names a group the inventory does not have.
    UnknownGroup,
}

/// Why an environment cannot be exported: `{"kind", "message",
/// "component"|"role"|"setting"|"node", "fixed_on"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportProblem {
    pub kind: ExportProblemKind,
    pub message: String,
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<Subject>,
    /// The tab of the environment's page where it is fixed: its subject's
    /// ([`Subject::tab`]) but for addresses and values worked out from
    /// the networks (Networks); none for the deployer data's own mistakes,
    /// which no change to the environment fixes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_on: Option<EnvTab>,
}

// Written by hand: the derive would make the flattened `Option<Subject>`
// required (an `allOf` with it), which a problem without a subject is not.
#[cfg(feature = "openapi")]
crate::schema::schema!(ExportProblem, export_problem_schema());

#[cfg(feature = "openapi")]
/// Why an environment cannot be exported for a deployer
/// ([`crate::export::ExportProblem`]): its message, at most one of what
/// it is about (`Subject`, flattened in) — none for a value the deployer's
/// data cannot work out — and the tab where it is fixed. A node's problem
/// always names its tab, which sets it apart from a [`node_problem`]
/// (closed): in `ErrorProblem`'s `oneOf` a value matches one schema only.
// Long: the two closed shapes are written out property by property, as the
// document shows them.
fn export_problem_schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use crate::schema::{int64, one_of_strings};
    use utoipa::openapi::schema::{
        AdditionalProperties, ObjectBuilder, OneOfBuilder, Schema, Type,
    };
    let text = |what: &str| {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(what))
    };
    let tab = || {
        one_of_strings(
            [
                "nodes",
                "networks",
                "settings",
                "tags",
                "components",
                "deploy",
                "disks",
            ],
            "The tab of the environment's page where it is fixed (absent: a mistake of the \
             deployer's data, which no change to the environment fixes)",
        )
    };
    let closed = || Some(AdditionalProperties::<Schema>::FreeForm(false));
    // What every problem has: the rule it breaks and its message.
    let problem = || {
        use utoipa::PartialSchema;
        ObjectBuilder::new()
            .property("kind", ExportProblemKind::schema())
            .required("kind")
            .property("message", ObjectBuilder::new().schema_type(Type::String))
            .required("message")
    };
    let about = problem()
        .property(
            "component",
            text("A chosen component the deployer has no equivalent for"),
        )
        .property(
            "role",
            text("A role a node holds that the deployer has no equivalent for"),
        )
        .property(
            "setting",
            text("A setting (`group.attr`) whose value has no equivalent"),
        )
        .property("fixed_on", tab())
        .max_properties(Some(4))
        .additional_properties(closed());
    let node = problem()
        .property(
            "node",
            int64().description(Some(
                "A node the deployer cannot take: a name that is no host name, a host name twice, no management address",
            )),
        )
        .required("node")
        .property("fixed_on", tab())
        .required("fixed_on")
        .additional_properties(closed());
    OneOfBuilder::new()
        .item(about)
        .item(node)
        .description(Some(
            "A problem of an export: the rule it breaks (`kind`), its message, at most one of \
             what it is about (`component`, `role`, `setting` or `node`) and the tab where it is \
             fixed (`fixed_on`)",
        ))
        .into()
}

/// Every reason an export is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the environment cannot be exported for {deployer}: {}", .problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>().join("; "))]
pub struct ExportRefusal {
    pub deployer: String,
    pub problems: Vec<ExportProblem>,
}

/// A problem fixed where its subject is changed.
pub(super) fn problem(
    kind: ExportProblemKind,
    message: String,
    subject: Option<Subject>,
) -> ExportProblem {
    ExportProblem {
        kind,
        fixed_on: subject.as_ref().map(Subject::tab),
        message,
        subject,
    }
}

/// A problem fixed on tab `tab` (none: the deployer data's own mistake),
/// whatever its subject.
pub(super) fn problem_on(
    kind: ExportProblemKind,
    tab: Option<EnvTab>,
    message: String,
    subject: Option<Subject>,
) -> ExportProblem {
    ExportProblem {
        kind,
        fixed_on: tab,
        message,
        subject,
    }
}

/// Up to ten names, then how many more.
pub(super) fn listed(names: &[String]) -> String {
    match names.len() {
        0..=10 => names.join(", "),
        n => format!("{}, and {} more", names[..10].join(", "), n - 10),
    }
}

/// The tab where what a computed value's expressions read is changed,
/// when one cannot be worked out: the networks' (Networks) before the
/// settings' (Settings) before the components' (`cluster:`, Components);
/// none when it reads none of them (the deployer data's own mistake).
pub(super) fn reads(computed: &Computed) -> Option<EnvTab> {
    let template = computed.template.iter().flat_map(Template::expressions);
    tab_read_by(computed.when.iter().chain(&computed.value).chain(template))
}

/// The tab where what `expressions` read is changed: the networks'
/// (Networks) before the settings' (Settings) before the components'
/// (`cluster:`, Components); none when they read none of them.
pub(super) fn tab_read_by<'e>(
    expressions: impl IntoIterator<Item = &'e Expression>,
) -> Option<EnvTab> {
    use crate::expr::Model;
    let models: Vec<Model> = expressions
        .into_iter()
        .flat_map(|e| e.expr().paths().iter().map(|p| p.model))
        .collect();
    [
        (Model::NetworkingParameters, EnvTab::Networks),
        (Model::Settings, EnvTab::Settings),
        (Model::Cluster, EnvTab::Components),
    ]
    .into_iter()
    .find(|(model, _)| models.contains(model))
    .map(|(_, tab)| tab)
}
