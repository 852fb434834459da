//! Node roles (SEMANTICS §4): typed role metadata (read once, when a
//! package loads), symmetric conflicts, limits with overrides and
//! expression values, and the check of an environment's nodes against them.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::expr::{Expr, ExprError, Models};
use crate::name::{PluginName, RoleName, TagName};
pub use crate::restriction::{
    Action, FieldError as RoleError, Restricted, Restriction, evaluate as evaluate_restrictions,
    join_messages,
};
use crate::restriction::{FieldError, parse_expr};

fn error(path: &str, message: impl Into<String>) -> RoleError {
    FieldError::new(path, message)
}

/// A limit: a number, or an expression that evaluates to one.
#[derive(Debug, Clone, PartialEq)]
pub enum LimitValue {
    Number(i64),
    Expr(Expr),
}

impl LimitValue {
    fn from_json(path: &str, value: &Value) -> Result<LimitValue, RoleError> {
        let wrong = || error(path, "a limit must be a whole number or an expression");
        match value {
            Value::Number(n) => n.as_i64().map(LimitValue::Number).ok_or_else(wrong),
            Value::String(s) => Ok(LimitValue::Expr(parse_expr(path, s)?)),
            _ => Err(wrong()),
        }
    }

    fn to_json(&self) -> Value {
        match self {
            LimitValue::Number(n) => Value::from(*n),
            LimitValue::Expr(e) => Value::from(e.source()),
        }
    }

    fn value(&self, models: &dyn Models) -> Result<i64, String> {
        let expr = match self {
            LimitValue::Number(n) => return Ok(*n),
            LimitValue::Expr(expr) => expr,
        };
        let value = expr.eval(models).map_err(|e| e.message)?;
        let json = value.to_json();
        match &json {
            Value::Number(n) if n.as_i64().is_some() => Ok(n.as_i64().expect("checked")),
            Value::String(s) if s.trim().parse::<i64>().is_ok() => {
                Ok(s.trim().parse().expect("checked"))
            }
            other => Err(format!(
                "'{}' gives {other}, not a whole number",
                expr.source()
            )),
        }
    }
}

/// Limits of one kind set: base or an override.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LimitSet {
    pub min: Option<LimitValue>,
    pub max: Option<LimitValue>,
    pub recommended: Option<LimitValue>,
}

impl LimitSet {
    fn from_json(path: &str, map: &Map<String, Value>) -> Result<LimitSet, RoleError> {
        let get = |key: &str| {
            map.get(key)
                .map(|v| LimitValue::from_json(&format!("{path}.{key}"), v))
                .transpose()
        };
        Ok(LimitSet {
            min: get("min")?,
            max: get("max")?,
            recommended: get("recommended")?,
        })
    }

    fn write(&self, map: &mut Map<String, Value>) {
        for (key, v) in [
            ("min", &self.min),
            ("max", &self.max),
            ("recommended", &self.recommended),
        ] {
            if let Some(v) = v {
                map.insert(key.to_owned(), v.to_json());
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    pub condition: Expr,
    pub limits: LimitSet,
    pub message: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Limits {
    pub base: LimitSet,
    pub overrides: Vec<Override>,
}

impl Limits {
    /// Whether a maximum is declared, in the base or in any override
    /// (whatever the conditions say here).
    pub fn has_maximum(&self) -> bool {
        self.base.max.is_some() || self.overrides.iter().any(|o| o.limits.max.is_some())
    }

    fn from_json(path: &str, value: &Value) -> Result<Limits, RoleError> {
        let map = value
            .as_object()
            .ok_or_else(|| error(path, "must be a map"))?;
        let mut limits = Limits {
            base: LimitSet::from_json(path, map)?,
            overrides: Vec::new(),
        };
        if let Some(list) = map.get("overrides") {
            let list = list
                .as_array()
                .ok_or_else(|| error(&format!("{path}.overrides"), "must be a list"))?;
            for (i, o) in list.iter().enumerate() {
                let at = format!("{path}.overrides[{i}]");
                let om = o.as_object().ok_or_else(|| error(&at, "must be a map"))?;
                let condition = match om.get("condition") {
                    Some(Value::String(c)) => parse_expr(&format!("{at}.condition"), c)?,
                    _ => return Err(error(&at, "needs a condition string")),
                };
                limits.overrides.push(Override {
                    condition,
                    limits: LimitSet::from_json(&at, om)?,
                    message: om.get("message").and_then(Value::as_str).map(str::to_owned),
                });
            }
        }
        Ok(limits)
    }

    fn is_empty(&self) -> bool {
        self == &Limits::default()
    }

    fn to_json(&self) -> Value {
        let mut map = Map::new();
        self.base.write(&mut map);
        if !self.overrides.is_empty() {
            let list = self
                .overrides
                .iter()
                .map(|o| {
                    let mut m = Map::new();
                    m.insert("condition".into(), o.condition.source().into());
                    o.limits.write(&mut m);
                    if let Some(message) = &o.message {
                        m.insert("message".into(), message.clone().into());
                    }
                    Value::Object(m)
                })
                .collect();
            map.insert("overrides".into(), Value::Array(list));
        }
        Value::Object(map)
    }
}

/// Which set of conflicts a role declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflicts {
    Roles(Vec<RoleName>),
    /// `"*"`: every other role.
    All,
}

/// One role of a roles map.
#[derive(Debug, Clone, PartialEq)]
pub struct Role {
    /// The key in the roles map (`controller`).
    pub id: RoleName,
    /// The display name (`Controller`); the id when none is given.
    pub name: String,
    pub description: String,
    /// The tags the role brings (default: its own name).
    pub tags: Vec<TagName>,
    pub conflicts: Conflicts,
    pub has_primary: bool,
    pub public_ip_required: bool,
    pub weight: i64,
    pub group: Option<String>,
    pub limits: Limits,
    pub restrictions: Vec<Restriction>,
    /// Other keys as declared (`volumes_roles_mapping`, `update_required`,
    /// …), kept so that stored roles read back whole.
    pub extra: Map<String, Value>,
}

const KNOWN_KEYS: &[&str] = &[
    "name",
    "description",
    "tags",
    "conflicts",
    "has_primary",
    "public_ip_required",
    "weight",
    "group",
    "limits",
    "restrictions",
];

fn strings<T>(
    path: &str,
    value: &Value,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, RoleError> {
    match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let at = format!("{path}[{i}]");
                let s = v.as_str().ok_or_else(|| error(&at, "must be a string"))?;
                parse(s).map_err(|m| error(&at, m))
            })
            .collect(),
        Value::Null => Ok(Vec::new()),
        _ => Err(error(path, "must be a list of strings")),
    }
}

impl Role {
    /// One role from its key and metadata (`node_roles.yaml` or a
    /// release's `roles_metadata` entry).
    pub fn from_json(id: &str, value: &Value) -> Result<Role, RoleError> {
        let role_id = RoleName::new(id).map_err(|e| error(id, e.to_string()))?;
        let map = value
            .as_object()
            .ok_or_else(|| error(id, "role metadata must be a map"))?;
        let text = |key: &str| -> Result<Option<String>, RoleError> {
            match map.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(error(&format!("{id}.{key}"), "must be a string")),
            }
        };
        let flag = |key: &str| match map.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(error(&format!("{id}.{key}"), "must be true or false")),
        };
        let conflicts = match map.get("conflicts") {
            Some(Value::String(s)) if s == "*" => Conflicts::All,
            Some(v) => Conflicts::Roles(strings(&format!("{id}.conflicts"), v, |s| {
                RoleName::new(s).map_err(|e| e.to_string())
            })?),
            None => Conflicts::Roles(Vec::new()),
        };
        let tags = match map.get("tags") {
            Some(v) => strings(&format!("{id}.tags"), v, |s| {
                TagName::new(s).map_err(|e| e.to_string())
            })?,
            None => vec![TagName::of_role(&role_id)],
        };
        let limits = match map.get("limits") {
            Some(v) => Limits::from_json(&format!("{id}.limits"), v)?,
            None => Limits::default(),
        };
        let weight = match map.get("weight") {
            None | Some(Value::Null) => 100,
            Some(v) => v
                .as_i64()
                .ok_or_else(|| error(&format!("{id}.weight"), "must be a whole number"))?,
        };
        Ok(Role {
            name: text("name")?.unwrap_or_else(|| id.to_owned()),
            description: text("description")?.unwrap_or_default(),
            tags,
            conflicts,
            has_primary: flag("has_primary")?,
            public_ip_required: flag("public_ip_required")?,
            weight,
            group: text("group")?,
            limits,
            restrictions: Restriction::list_from_json(
                &format!("{id}.restrictions"),
                map.get("restrictions"),
            )?,
            extra: map
                .iter()
                .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            id: role_id,
        })
    }

    /// The role's metadata as stored (its id is the key it is stored under).
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("name".into(), self.name.clone().into());
        map.insert("description".into(), self.description.clone().into());
        map.insert(
            "tags".into(),
            serde_json::to_value(&self.tags).unwrap_or_default(),
        );
        match &self.conflicts {
            Conflicts::All => {
                map.insert("conflicts".into(), "*".into());
            }
            Conflicts::Roles(list) if !list.is_empty() => {
                map.insert(
                    "conflicts".into(),
                    serde_json::to_value(list).unwrap_or_default(),
                );
            }
            Conflicts::Roles(_) => {}
        }
        for (key, on) in [
            ("has_primary", self.has_primary),
            ("public_ip_required", self.public_ip_required),
        ] {
            if on {
                map.insert(key.into(), true.into());
            }
        }
        map.insert("weight".into(), self.weight.into());
        if let Some(group) = &self.group {
            map.insert("group".into(), group.clone().into());
        }
        if !self.limits.is_empty() {
            map.insert("limits".into(), self.limits.to_json());
        }
        if !self.restrictions.is_empty() {
            map.insert(
                "restrictions".into(),
                serde_json::to_value(&self.restrictions).unwrap_or_default(),
            );
        }
        map.extend(self.extra.clone());
        Value::Object(map)
    }

    /// The same role as a plugin provides it: unavailable while `plugin` is
    /// disabled in the environment (its implicit first restriction, §4).
    pub fn provided_by(mut self, plugin: &PluginName) -> Role {
        let condition = Expr::parse(&format!("settings:{plugin}.metadata.enabled != true"))
            .expect("plugin names are valid path segments");
        self.restrictions.insert(
            0,
            Restriction {
                condition,
                message: Some(format!(
                    "The plugin '{plugin}' is disabled in this environment."
                )),
                action: Action::Disable,
                strict: false,
            },
        );
        self
    }

    /// The message of a true restriction without one.
    pub fn unavailable_message(&self) -> String {
        format!("Role '{}' is not available in this environment.", self.id)
    }

    /// The tags the role brings and its own name, without repeats.
    pub fn brought_tags(&self) -> impl Iterator<Item = TagName> + '_ {
        let own = TagName::of_role(&self.id);
        let extra = (!self.tags.contains(&own)).then_some(own);
        self.tags.iter().cloned().chain(extra)
    }

    fn conflicts_with(&self, other: &Role) -> bool {
        let lists = |a: &Role, b: &Role| match &a.conflicts {
            Conflicts::All => true,
            Conflicts::Roles(list) => list.contains(&b.id),
        };
        self.id != other.id && (lists(self, other) || lists(other, self))
    }
}

/// A roles map in file order (`roles_metadata`, `node_roles.yaml`), read
/// once and stored as the map it came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roles(pub Vec<Role>);

impl Roles {
    pub fn from_json(value: &Value) -> Result<Roles, RoleError> {
        match value {
            Value::Null => Ok(Roles::default()),
            Value::Object(map) => map
                .iter()
                .map(|(id, meta)| Role::from_json(id, meta))
                .collect::<Result<_, _>>()
                .map(Roles),
            _ => Err(error(
                "(top)",
                "the roles file must map role names to their metadata",
            )),
        }
    }

    pub fn get(&self, id: &str) -> Option<&Role> {
        self.0.iter().find(|r| r.id == id)
    }

    pub fn names(&self) -> impl Iterator<Item = &RoleName> {
        self.0.iter().map(|r| &r.id)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Roles {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let map: Map<String, Value> = self
            .0
            .iter()
            .map(|r| (r.id.to_string(), r.to_json()))
            .collect();
        map.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Roles {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Roles::from_json(&Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// Reads a `roles_metadata` value (release or `node_roles.yaml` format).
pub fn parse_roles(value: &Value) -> Result<Vec<Role>, RoleError> {
    Roles::from_json(value).map(|r| r.0)
}

/// A node as the roles check sees it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct NodeRoles {
    pub id: Value,
    #[serde(default)]
    pub roles: Vec<RoleName>,
    #[serde(default)]
    pub pending_deletion: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeErrorKind {
    Conflict,
    Restriction,
    UnknownRole,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeError {
    pub kind: NodeErrorKind,
    pub roles: Vec<RoleName>,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeReport {
    pub id: Value,
    pub errors: Vec<NodeError>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitReport {
    pub role: RoleName,
    pub count: usize,
    pub valid: bool,
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolesReport {
    pub nodes: Vec<NodeReport>,
    pub limits: Vec<LimitReport>,
    pub hidden_roles: Vec<RoleName>,
}

impl RolesReport {
    /// Whether any node or limit has an error.
    pub fn has_errors(&self) -> bool {
        self.nodes.iter().any(|n| !n.errors.is_empty()) || self.limits.iter().any(|l| !l.valid)
    }
}

/// What each role's restrictions say in one environment, in role order:
/// evaluated once, used for every node.
pub fn restrictions_of(roles: &[Role], models: &dyn Models) -> Vec<Result<Restricted, ExprError>> {
    roles
        .iter()
        .map(|r| evaluate_restrictions(&r.restrictions, models, &r.unavailable_message()))
        .collect()
}

/// The problems of one node with `node_roles`: unknown roles, conflicts,
/// restrictions (`restricted` from [`restrictions_of`]).
pub fn node_errors(
    roles: &[Role],
    restricted: &[Result<Restricted, ExprError>],
    node_roles: &[RoleName],
) -> Vec<NodeError> {
    let mut errors = Vec::new();
    let mut known: Vec<usize> = Vec::new();
    for id in node_roles {
        match roles.iter().position(|r| &r.id == id) {
            Some(at) => known.push(at),
            None => errors.push(NodeError {
                kind: NodeErrorKind::UnknownRole,
                roles: vec![id.clone()],
                message: format!("Role '{id}' does not exist."),
            }),
        }
    }
    for (n, &a) in known.iter().enumerate() {
        for &b in &known[n + 1..] {
            let (a, b) = (&roles[a], &roles[b]);
            if a.conflicts_with(b) {
                errors.push(NodeError {
                    kind: NodeErrorKind::Conflict,
                    roles: vec![a.id.clone(), b.id.clone()],
                    message: format!("Role '{}' in conflict with role '{}'.", a.id, b.id),
                });
            }
        }
    }
    for &at in &known {
        let role = &roles[at];
        let message = match &restricted[at] {
            Ok(r) if r.blocked() => r.message.clone(),
            Ok(_) => None,
            Err(e) => Some(format!(
                "Role '{}': a restriction cannot be evaluated: {}",
                role.id, e.message
            )),
        };
        if let Some(message) = message {
            errors.push(NodeError {
                kind: NodeErrorKind::Restriction,
                roles: vec![role.id.clone()],
                message,
            });
        }
    }
    errors
}

/// Checks every node's roles (unknown roles, conflicts, restrictions) and
/// every role's limits.
pub fn check_roles(roles: &[Role], models: &dyn Models, nodes: &[NodeRoles]) -> RolesReport {
    // Restrictions depend only on the environment: evaluate them once.
    let restricted = restrictions_of(roles, models);
    let node_reports = nodes
        .iter()
        .map(|node| NodeReport {
            id: node.id.clone(),
            errors: node_errors(roles, &restricted, &node.roles),
        })
        .collect();
    let limits = roles
        .iter()
        .map(|role| {
            let count = nodes
                .iter()
                .filter(|n| !n.pending_deletion && n.roles.contains(&role.id))
                .count();
            check_limits(role, models, count)
        })
        .collect();
    let hidden_roles = roles
        .iter()
        .zip(&restricted)
        .filter(|(_, r)| matches!(r, Ok(r) if r.hidden))
        .map(|(role, _)| role.id.clone())
        .collect();
    RolesReport {
        nodes: node_reports,
        limits,
        hidden_roles,
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Min,
    Max,
    Recommended,
}

fn pick(set: &LimitSet, kind: Kind) -> Option<&LimitValue> {
    match kind {
        Kind::Min => set.min.as_ref(),
        Kind::Max => set.max.as_ref(),
        Kind::Recommended => set.recommended.as_ref(),
    }
}

/// Checks one role's limits for `count` nodes: overrides whose condition
/// holds first, then the base limits for kinds no override checked; of
/// several failures of one kind, the strictest is kept.
pub fn check_limits(role: &Role, models: &dyn Models, count: usize) -> LimitReport {
    let mut errors = Vec::new();
    let active = active_overrides(role, models, &mut errors);
    let mut warnings = Vec::new();
    for kind in [Kind::Min, Kind::Max, Kind::Recommended] {
        if let Some(text) = strictest_failure(role, &active, kind, models, count, &mut errors) {
            match kind {
                Kind::Recommended => warnings.push(text),
                _ => errors.push(text),
            }
        }
    }
    LimitReport {
        role: role.id.clone(),
        count,
        valid: errors.is_empty(),
        errors,
        warnings,
    }
}

/// The message of the role's maximum when `count` nodes exceed it, as
/// [`check_limits`] reports it; `None` within it, without one, or when the
/// maximum cannot be evaluated (an error the limits' check reports).
pub fn exceeded_maximum(role: &Role, models: &dyn Models, count: usize) -> Option<String> {
    let mut ignored = Vec::new();
    let active = active_overrides(role, models, &mut ignored);
    strictest_failure(role, &active, Kind::Max, models, count, &mut ignored)
}

/// The limits of the overrides whose condition holds, with their messages;
/// a condition that cannot be evaluated is an error in `errors`.
fn active_overrides<'a>(
    role: &'a Role,
    models: &dyn Models,
    errors: &mut Vec<String>,
) -> Vec<(&'a LimitSet, Option<&'a str>)> {
    let mut active = Vec::new();
    for o in &role.limits.overrides {
        match o.condition.holds(models, true) {
            Ok(true) => active.push((&o.limits, o.message.as_deref())),
            Ok(false) => {}
            Err(e) => errors.push(format!("Limits of role '{}': {}", role.id, e.message)),
        }
    }
    active
}

/// The strictest failing limit of `kind` for `count` nodes, with its
/// message: the active overrides' limits of that kind, or the base limit
/// when none has one. A value that cannot be evaluated is an error in
/// `errors`.
fn strictest_failure(
    role: &Role,
    active: &[(&LimitSet, Option<&str>)],
    kind: Kind,
    models: &dyn Models,
    count: usize,
    errors: &mut Vec<String>,
) -> Option<String> {
    let c = count as i64;
    let mut candidates: Vec<(&LimitValue, Option<&str>)> = active
        .iter()
        .filter_map(|(set, message)| pick(set, kind).map(|v| (v, *message)))
        .collect();
    if candidates.is_empty() {
        candidates.extend(pick(&role.limits.base, kind).map(|v| (v, None)));
    }
    let mut worst: Option<(i64, Option<&str>)> = None;
    for (value, message) in candidates {
        let v = match value.value(models) {
            Ok(v) => v,
            Err(e) => {
                errors.push(format!("Limits of role '{}': {e}", role.id));
                continue;
            }
        };
        let fails = match kind {
            Kind::Min | Kind::Recommended => c < v,
            Kind::Max => c > v,
        };
        let stricter = |w: i64| match kind {
            Kind::Min | Kind::Recommended => v > w,
            Kind::Max => v < w,
        };
        if fails && worst.is_none_or(|(w, _)| stricter(w)) {
            worst = Some((v, message));
        }
    }
    let (v, message) = worst?;
    let name = &role.name;
    Some(message.map(str::to_owned).unwrap_or_else(|| match kind {
        Kind::Min => format!("At least {v} {name} nodes are required ({c} selected currently)."),
        Kind::Max => format!("At most {v} {name} nodes are allowed."),
        Kind::Recommended => {
            format!("It is recommended to have at least {v} {name} nodes ({c} selected currently).")
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::JsonModels;
    use serde_json::json;

    const ROLES: &str = r#"
controller:
  name: Controller
  conflicts: [compute]
  limits:
    min: 1
    overrides:
      - condition: "cluster:mode == 'multinode'"
        max: 1
        message: "Multi-node environment can not have more than 1 controller node."
      - condition: "cluster:mode == 'ha_compact'"
        recommended: 3
compute:
  name: Compute
ceph-osd:
  name: Ceph OSD
  limits:
    min: "settings:storage.osd_pool_size.value"
  restrictions:
    - condition: "settings:storage.volumes_ceph.value == false and settings:storage.images_ceph.value == false and settings:storage.ephemeral_ceph.value == false and settings:storage.objects_ceph.value == false"
      message: "Ceph should be enabled in the environment settings."
mongo:
  name: Telemetry - MongoDB
  conflicts: [compute, ceph-osd]
  limits:
    min: 1
    overrides:
      - condition: "cluster:mode != 'ha_compact'"
        max: 1
        message: "At most 1 MongoDB node can be added for non-HA deployment"
      - condition: "cluster:mode == 'ha_compact'"
        recommended: 3
        message: "At least 3 MongoDB nodes are recommended for HA deployment."
  restrictions:
    - condition: "settings:additional_components.ceilometer.value == false"
      message: "Ceilometer should be enabled in the environment settings."
    - "settings:additional_components.mongo.value == true": "You are already using external MongoDB."
    - condition: "not ('experimental' in version:feature_groups)"
      action: hide
base-os:
  name: Operating System
  conflicts: "*"
"#;

    fn roles() -> Vec<Role> {
        parse_roles(&crate::yaml::parse("roles.yaml", ROLES).unwrap()).unwrap()
    }

    fn models(mode: &str) -> JsonModels {
        JsonModels {
            settings: json!({
                "storage": {
                    "volumes_ceph": {"value": false}, "images_ceph": {"value": false},
                    "ephemeral_ceph": {"value": false}, "objects_ceph": {"value": false},
                    "osd_pool_size": {"value": "3"}
                },
                "additional_components": {"ceilometer": {"value": true}, "mongo": {"value": false}}
            }),
            cluster: json!({"mode": mode}),
            version: json!({"feature_groups": ["experimental"]}),
            ..JsonModels::default()
        }
    }

    fn node(id: i64, roles: &[&str]) -> NodeRoles {
        NodeRoles {
            id: json!(id),
            roles: roles.iter().map(|r| RoleName::new(*r).unwrap()).collect(),
            pending_deletion: false,
        }
    }

    #[test]
    fn conflicting_roles_on_one_node_name_both() {
        let report = check_roles(
            &roles(),
            &models("ha_compact"),
            &[node(1, &["controller", "compute"])],
        );
        let e = &report.nodes[0].errors[0];
        assert_eq!(e.kind, NodeErrorKind::Conflict);
        assert_eq!(e.roles, ["controller", "compute"]);
        assert_eq!(
            e.message,
            "Role 'controller' in conflict with role 'compute'."
        );
        // Symmetric, and "*" conflicts with everything.
        let report = check_roles(
            &roles(),
            &models("ha_compact"),
            &[
                node(1, &["compute", "mongo"]),
                node(2, &["base-os", "compute"]),
            ],
        );
        assert_eq!(report.nodes[0].errors[0].kind, NodeErrorKind::Conflict);
        assert_eq!(report.nodes[1].errors[0].roles, ["base-os", "compute"]);
    }

    #[test]
    fn a_restricted_role_gets_the_release_message() {
        let report = check_roles(
            &roles(),
            &models("ha_compact"),
            &[node(1, &["ceph-osd"]), node(2, &["nova"])],
        );
        let e = &report.nodes[0].errors[0];
        assert_eq!(e.kind, NodeErrorKind::Restriction);
        assert_eq!(
            e.message,
            "Ceph should be enabled in the environment settings."
        );
        assert_eq!(report.nodes[1].errors[0].kind, NodeErrorKind::UnknownRole);
    }

    #[test]
    fn mongo_outside_ha_allows_one_node() {
        let report = check_roles(
            &roles(),
            &models("multinode"),
            &[node(1, &["mongo"]), node(2, &["mongo"])],
        );
        let mongo = report.limits.iter().find(|l| l.role == "mongo").unwrap();
        assert_eq!(mongo.count, 2);
        assert!(!mongo.valid);
        assert_eq!(
            mongo.errors,
            ["At most 1 MongoDB node can be added for non-HA deployment"]
        );
        // Every role is listed, with or without limits.
        assert_eq!(report.limits.len(), 5);
        assert!(
            report
                .limits
                .iter()
                .find(|l| l.role == "compute")
                .unwrap()
                .valid
        );
    }

    #[test]
    fn expression_limits_are_evaluated() {
        let role = &roles()[2];
        let report = check_limits(role, &models("ha_compact"), 2);
        assert_eq!(
            report.errors,
            ["At least 3 Ceph OSD nodes are required (2 selected currently)."]
        );
        assert!(check_limits(role, &models("ha_compact"), 3).valid);
    }

    #[test]
    fn overrides_come_first_and_base_covers_the_rest() {
        let controller = &roles()[0];
        let ha = check_limits(controller, &models("ha_compact"), 0);
        assert_eq!(
            ha.errors,
            ["At least 1 Controller nodes are required (0 selected currently)."]
        );
        let ha = check_limits(controller, &models("ha_compact"), 2);
        assert_eq!(
            ha.warnings,
            ["It is recommended to have at least 3 Controller nodes (2 selected currently)."]
        );
        let multi = check_limits(controller, &models("multinode"), 2);
        assert_eq!(
            multi.errors,
            ["Multi-node environment can not have more than 1 controller node."]
        );
    }

    #[test]
    fn hidden_roles_and_joined_messages() {
        let mut m = models("ha_compact");
        m.settings["additional_components"] =
            json!({"ceilometer": {"value": false}, "mongo": {"value": true}});
        m.version = json!({"feature_groups": []});
        let report = check_roles(&roles(), &m, &[node(1, &["mongo"])]);
        assert_eq!(report.hidden_roles, ["mongo"]);
        assert_eq!(
            report.nodes[0].errors[0].message,
            "Ceilometer should be enabled in the environment settings. You are already using external MongoDB. Role 'mongo' is not available in this environment."
        );
    }

    #[test]
    fn plugin_roles_are_unavailable_while_the_plugin_is_disabled() {
        let plugin = PluginName::new("detach-rabbitmq").unwrap();
        let roles: Vec<Role> = parse_roles(&json!({"rabbitmq": {"name": "RabbitMQ"}}))
            .unwrap()
            .into_iter()
            .map(|r| r.provided_by(&plugin))
            .collect();
        let mut m = models("ha_compact");
        m.settings["detach-rabbitmq"] = json!({"metadata": {"enabled": false}});
        let report = check_roles(&roles, &m, &[node(1, &["rabbitmq"])]);
        assert_eq!(
            report.nodes[0].errors[0].message,
            "The plugin 'detach-rabbitmq' is disabled in this environment."
        );
    }

    #[test]
    fn roles_are_stored_as_the_map_they_came_from() {
        let roles = Roles(roles());
        let json = serde_json::to_value(&roles).unwrap();
        assert_eq!(json["controller"]["limits"]["overrides"][0]["max"], 1);
        assert_eq!(json["base-os"]["conflicts"], "*");
        assert_eq!(json["ceph-osd"]["tags"], json!(["ceph-osd"]));
        assert_eq!(serde_json::from_value::<Roles>(json).unwrap(), roles);
        let odd = json!({"x": {"name": "X", "update_required": ["y"]}});
        let back = serde_json::to_value(Roles::from_json(&odd).unwrap()).unwrap();
        assert_eq!(back["x"]["update_required"], json!(["y"]));
    }

    #[test]
    fn bad_names_are_refused_where_they_stand() {
        let err = parse_roles(&json!({"Ctl": {}})).unwrap_err();
        assert_eq!(err.path, "Ctl");
        let err = parse_roles(&json!({"ctl": {"tags": ["ok", "not ok"]}})).unwrap_err();
        assert_eq!(err.path, "ctl.tags[1]");
    }

    #[test]
    fn bad_restrictions_name_their_place() {
        let yaml = json!({"x": {"restrictions": [{"condition": "a ==", "message": "m"}]}});
        let err = parse_roles(&yaml).unwrap_err();
        assert_eq!(err.path, "x.restrictions[0].condition");
        let yaml = json!({"x": {"restrictions": [42]}});
        assert_eq!(parse_roles(&yaml).unwrap_err().path, "x.restrictions[0]");
    }
}
