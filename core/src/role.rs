//! Node roles (SEMANTICS §3.2, §4): restrictions in their three forms,
//! symmetric conflicts, limits with overrides and expression values, and
//! the check of an environment's nodes against them.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_yaml::{Mapping, Value as Yaml};

use crate::expr::{Expr, ExprError, Models};

/// A roles file that cannot be read into roles: where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct RoleError {
    /// Where in the roles map: `mongo.limits.overrides[0].condition`.
    pub path: String,
    pub message: String,
}

fn error(path: &str, message: impl Into<String>) -> RoleError {
    RoleError {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// What a true restriction does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Disable,
    Hide,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Restriction {
    pub condition: Expr,
    pub message: Option<String>,
    pub action: Action,
    pub strict: bool,
}

fn parse_expr(path: &str, text: &str) -> Result<Expr, RoleError> {
    Expr::parse(text).map_err(|e| error(path, format!("{}\n{}", e.message, e.render())))
}

impl Restriction {
    /// One restriction in any of its forms: `"cond"`,
    /// `{condition, message?, action?, strict?}` or `{"cond": "message"}`.
    pub fn from_yaml(path: &str, value: &Yaml) -> Result<Restriction, RoleError> {
        match value {
            Yaml::String(cond) => Ok(Restriction {
                condition: parse_expr(path, cond)?,
                message: None,
                action: Action::Disable,
                strict: true,
            }),
            Yaml::Mapping(map) if map.contains_key("condition") => {
                let mut restriction = Restriction {
                    condition: Expr::parse("false").expect("a literal parses"),
                    message: None,
                    action: Action::Disable,
                    strict: true,
                };
                for (key, v) in map {
                    let key = key.as_str().unwrap_or_default();
                    let here = format!("{path}.{key}");
                    match (key, v) {
                        ("condition", Yaml::String(c)) => {
                            restriction.condition = parse_expr(&here, c)?
                        }
                        ("message", Yaml::String(m)) => restriction.message = Some(m.clone()),
                        ("action", Yaml::String(a)) if a == "disable" => {
                            restriction.action = Action::Disable
                        }
                        ("action", Yaml::String(a)) if a == "hide" => {
                            restriction.action = Action::Hide
                        }
                        ("action", _) => return Err(error(&here, "must be 'disable' or 'hide'")),
                        ("strict", Yaml::Bool(b)) => restriction.strict = *b,
                        ("condition" | "message" | "strict", _) => {
                            return Err(error(&here, "has the wrong type"));
                        }
                        (other, _) => return Err(error(&here, format!("unknown key '{other}'"))),
                    }
                }
                Ok(restriction)
            }
            Yaml::Mapping(map) if map.len() == 1 => {
                let (cond, message) = map.iter().next().expect("one entry");
                match (cond, message) {
                    (Yaml::String(cond), Yaml::String(message)) => Ok(Restriction {
                        condition: parse_expr(path, cond)?,
                        message: Some(message.clone()),
                        action: Action::Disable,
                        strict: true,
                    }),
                    _ => Err(error(
                        path,
                        "a {condition: message} restriction maps a string to a string",
                    )),
                }
            }
            _ => Err(error(
                path,
                "a restriction is a string, {condition, message?, action?, strict?} or {condition: message}",
            )),
        }
    }
}

/// What a list of restrictions says for one environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Restricted {
    pub disabled: bool,
    pub hidden: bool,
    /// The joined messages of the true restrictions.
    pub message: Option<String>,
}

/// Joins messages with ". ", never doubling a message's own period.
pub fn join_messages<'a>(messages: impl IntoIterator<Item = &'a str>) -> String {
    let parts: Vec<&str> = messages
        .into_iter()
        .map(|m| m.trim().trim_end_matches('.'))
        .filter(|m| !m.is_empty())
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("{}.", parts.join(". "))
    }
}

/// Evaluates restrictions; `fallback` is the message of a true restriction
/// without one.
pub fn evaluate_restrictions(
    restrictions: &[Restriction],
    models: &dyn Models,
    fallback: &str,
) -> Result<Restricted, ExprError> {
    let mut result = Restricted::default();
    let mut messages: Vec<&str> = Vec::new();
    for r in restrictions {
        if r.condition.holds(models, r.strict)? {
            match r.action {
                Action::Disable => result.disabled = true,
                Action::Hide => result.hidden = true,
            }
            messages.push(r.message.as_deref().unwrap_or(fallback));
        }
    }
    if !messages.is_empty() {
        messages.dedup();
        result.message = Some(join_messages(messages));
    }
    Ok(result)
}

/// A limit: a number, or an expression that evaluates to one.
#[derive(Debug, Clone, PartialEq)]
pub enum LimitValue {
    Number(i64),
    Expr(Expr),
}

impl LimitValue {
    fn from_yaml(path: &str, value: &Yaml) -> Result<LimitValue, RoleError> {
        match value {
            Yaml::Number(n) => n
                .as_i64()
                .map(LimitValue::Number)
                .ok_or_else(|| error(path, "a limit must be a whole number or an expression")),
            Yaml::String(s) => Ok(LimitValue::Expr(parse_expr(path, s)?)),
            _ => Err(error(
                path,
                "a limit must be a whole number or an expression",
            )),
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

/// Which set of conflicts a role declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflicts {
    Roles(Vec<String>),
    /// `"*"`: every other role.
    All,
}

/// One role of a roles map.
#[derive(Debug, Clone, PartialEq)]
pub struct Role {
    /// The key in the roles map (`controller`).
    pub id: String,
    /// The display name (`Controller`); the id when none is given.
    pub name: String,
    pub description: String,
    pub tags: Vec<String>,
    pub conflicts: Conflicts,
    pub has_primary: bool,
    pub public_ip_required: bool,
    pub weight: i64,
    pub group: Option<String>,
    pub limits: Limits,
    pub restrictions: Vec<Restriction>,
}

fn strings(path: &str, value: &Yaml) -> Result<Vec<String>, RoleError> {
    match value {
        Yaml::Sequence(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| error(&format!("{path}[{i}]"), "must be a string"))
            })
            .collect(),
        Yaml::Null => Ok(Vec::new()),
        _ => Err(error(path, "must be a list of strings")),
    }
}

fn limit_set(path: &str, map: &Mapping) -> Result<LimitSet, RoleError> {
    let get = |key: &str| {
        map.get(key)
            .map(|v| LimitValue::from_yaml(&format!("{path}.{key}"), v))
            .transpose()
    };
    Ok(LimitSet {
        min: get("min")?,
        max: get("max")?,
        recommended: get("recommended")?,
    })
}

impl Role {
    fn from_yaml(id: &str, value: &Yaml, plugin: Option<&str>) -> Result<Role, RoleError> {
        let map = value
            .as_mapping()
            .ok_or_else(|| error(id, "role metadata must be a map"))?;
        let text = |key: &str| -> Result<Option<String>, RoleError> {
            match map.get(key) {
                None | Some(Yaml::Null) => Ok(None),
                Some(Yaml::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(error(&format!("{id}.{key}"), "must be a string")),
            }
        };
        let flag = |key: &str| match map.get(key) {
            None | Some(Yaml::Null) => Ok(false),
            Some(Yaml::Bool(b)) => Ok(*b),
            Some(_) => Err(error(&format!("{id}.{key}"), "must be true or false")),
        };
        let conflicts = match map.get("conflicts") {
            Some(Yaml::String(s)) if s == "*" => Conflicts::All,
            Some(v) => Conflicts::Roles(strings(&format!("{id}.conflicts"), v)?),
            None => Conflicts::Roles(Vec::new()),
        };
        let tags = match map.get("tags") {
            Some(v) => strings(&format!("{id}.tags"), v)?,
            None => vec![id.to_owned()],
        };
        let mut limits = Limits::default();
        if let Some(v) = map.get("limits") {
            let here = format!("{id}.limits");
            let lm = v
                .as_mapping()
                .ok_or_else(|| error(&here, "must be a map"))?;
            limits.base = limit_set(&here, lm)?;
            if let Some(list) = lm.get("overrides") {
                let list = list
                    .as_sequence()
                    .ok_or_else(|| error(&format!("{here}.overrides"), "must be a list"))?;
                for (i, o) in list.iter().enumerate() {
                    let at = format!("{here}.overrides[{i}]");
                    let om = o.as_mapping().ok_or_else(|| error(&at, "must be a map"))?;
                    let condition = match om.get("condition") {
                        Some(Yaml::String(c)) => parse_expr(&format!("{at}.condition"), c)?,
                        _ => return Err(error(&at, "needs a condition string")),
                    };
                    limits.overrides.push(Override {
                        condition,
                        limits: limit_set(&at, om)?,
                        message: om.get("message").and_then(Yaml::as_str).map(str::to_owned),
                    });
                }
            }
        }
        let mut restrictions = Vec::new();
        if let Some(plugin) = plugin {
            // A plugin's roles are unavailable while the plugin is disabled.
            restrictions.push(Restriction {
                condition: Expr::parse(&format!("settings:{plugin}.metadata.enabled == false"))
                    .map_err(|e| {
                        error(
                            id,
                            format!("plugin name '{plugin}' cannot be used in a path: {e}"),
                        )
                    })?,
                message: Some(format!(
                    "The plugin '{plugin}' is disabled in this environment."
                )),
                action: Action::Disable,
                strict: false,
            });
        }
        match map.get("restrictions") {
            None | Some(Yaml::Null) => {}
            Some(Yaml::Sequence(items)) => {
                for (i, r) in items.iter().enumerate() {
                    restrictions.push(Restriction::from_yaml(
                        &format!("{id}.restrictions[{i}]"),
                        r,
                    )?);
                }
            }
            Some(_) => return Err(error(&format!("{id}.restrictions"), "must be a list")),
        }
        Ok(Role {
            id: id.to_owned(),
            name: text("name")?.unwrap_or_else(|| id.to_owned()),
            description: text("description")?.unwrap_or_default(),
            tags,
            conflicts,
            has_primary: flag("has_primary")?,
            public_ip_required: flag("public_ip_required")?,
            weight: map.get("weight").and_then(Yaml::as_i64).unwrap_or(100),
            group: text("group")?,
            limits,
            restrictions,
        })
    }

    /// The message of a true restriction without one.
    pub fn unavailable_message(&self) -> String {
        format!("Role '{}' is not available in this environment.", self.id)
    }

    fn conflicts_with(&self, other: &Role) -> bool {
        let lists = |a: &Role, b: &Role| match &a.conflicts {
            Conflicts::All => true,
            Conflicts::Roles(list) => list.contains(&b.id),
        };
        self.id != other.id && (lists(self, other) || lists(other, self))
    }
}

/// Reads a `roles_metadata` map (release or `node_roles.yaml` format), in
/// file order. `plugin` names the plugin the roles come from, if any.
pub fn parse_roles(value: &Yaml, plugin: Option<&str>) -> Result<Vec<Role>, RoleError> {
    let map = value.as_mapping().ok_or_else(|| {
        error(
            "(top)",
            "the roles file must map role names to their metadata",
        )
    })?;
    map.iter()
        .map(|(k, v)| {
            let id = k
                .as_str()
                .ok_or_else(|| error("(top)", "role names must be strings"))?;
            Role::from_yaml(id, v, plugin)
        })
        .collect()
}

/// A node as the roles check sees it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct NodeRoles {
    pub id: Value,
    #[serde(default)]
    pub roles: Vec<String>,
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
    pub roles: Vec<String>,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeReport {
    pub id: Value,
    pub errors: Vec<NodeError>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitReport {
    pub role: String,
    pub count: usize,
    pub valid: bool,
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolesReport {
    pub nodes: Vec<NodeReport>,
    pub limits: Vec<LimitReport>,
    pub hidden_roles: Vec<String>,
}

impl RolesReport {
    /// Whether any node or limit has an error.
    pub fn has_errors(&self) -> bool {
        self.nodes.iter().any(|n| !n.errors.is_empty()) || self.limits.iter().any(|l| !l.valid)
    }
}

/// Checks every node's roles (unknown roles, conflicts, restrictions) and
/// every role's limits.
pub fn check_roles(roles: &[Role], models: &dyn Models, nodes: &[NodeRoles]) -> RolesReport {
    let find = |id: &str| roles.iter().find(|r| r.id == id);
    // Restrictions depend only on the environment: evaluate them once.
    let restricted: Vec<Result<Restricted, ExprError>> = roles
        .iter()
        .map(|r| evaluate_restrictions(&r.restrictions, models, &r.unavailable_message()))
        .collect();
    let node_reports = nodes
        .iter()
        .map(|node| {
            let mut errors = Vec::new();
            let known: Vec<&Role> = node
                .roles
                .iter()
                .filter_map(|id| {
                    let role = find(id);
                    if role.is_none() {
                        errors.push(NodeError {
                            kind: NodeErrorKind::UnknownRole,
                            roles: vec![id.clone()],
                            message: format!("Role '{id}' does not exist."),
                        });
                    }
                    role
                })
                .collect();
            for (n, a) in known.iter().enumerate() {
                for b in &known[n + 1..] {
                    if a.conflicts_with(b) {
                        errors.push(NodeError {
                            kind: NodeErrorKind::Conflict,
                            roles: vec![a.id.clone(), b.id.clone()],
                            message: format!("Role '{}' in conflict with role '{}'.", a.id, b.id),
                        });
                    }
                }
            }
            for role in &known {
                let at = roles
                    .iter()
                    .position(|r| r.id == role.id)
                    .expect("known role");
                let message = match &restricted[at] {
                    Ok(r) if r.disabled || r.hidden => r.message.clone(),
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
            NodeReport {
                id: node.id.clone(),
                errors,
            }
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
    let mut report = LimitReport {
        role: role.id.clone(),
        count,
        valid: true,
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let mut active: Vec<(&LimitSet, Option<&str>)> = Vec::new();
    for o in &role.limits.overrides {
        match o.condition.holds(models, true) {
            Ok(true) => active.push((&o.limits, o.message.as_deref())),
            Ok(false) => {}
            Err(e) => report
                .errors
                .push(format!("Limits of role '{}': {}", role.id, e.message)),
        }
    }
    let c = count as i64;
    for kind in [Kind::Min, Kind::Max, Kind::Recommended] {
        let mut candidates: Vec<(&LimitValue, Option<&str>)> = active
            .iter()
            .filter_map(|(set, message)| pick(set, kind).map(|v| (v, *message)))
            .collect();
        if candidates.is_empty() {
            candidates.extend(pick(&role.limits.base, kind).map(|v| (v, None)));
        }
        // The strictest failing limit of this kind, with its message.
        let mut worst: Option<(i64, Option<&str>)> = None;
        for (value, message) in candidates {
            let v = match value.value(models) {
                Ok(v) => v,
                Err(e) => {
                    report
                        .errors
                        .push(format!("Limits of role '{}': {e}", role.id));
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
        if let Some((v, message)) = worst {
            let name = &role.name;
            let text = message.map(str::to_owned).unwrap_or_else(|| match kind {
                Kind::Min => format!("At least {v} {name} nodes are required ({c} selected currently)."),
                Kind::Max => format!("At most {v} {name} nodes are allowed."),
                Kind::Recommended => {
                    format!("It is recommended to have at least {v} {name} nodes ({c} selected currently).")
                }
            });
            match kind {
                Kind::Recommended => report.warnings.push(text),
                _ => report.errors.push(text),
            }
        }
    }
    report.valid = report.errors.is_empty();
    report
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
        parse_roles(&serde_yaml::from_str(ROLES).unwrap(), None).unwrap()
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
            roles: roles.iter().map(|r| r.to_string()).collect(),
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
        let yaml = serde_yaml::from_str("rabbitmq: {name: RabbitMQ}").unwrap();
        let roles = parse_roles(&yaml, Some("detach-rabbitmq")).unwrap();
        let mut m = models("ha_compact");
        m.settings["detach-rabbitmq"] = json!({"metadata": {"enabled": false}});
        let report = check_roles(&roles, &m, &[node(1, &["rabbitmq"])]);
        assert_eq!(
            report.nodes[0].errors[0].message,
            "The plugin 'detach-rabbitmq' is disabled in this environment."
        );
    }

    #[test]
    fn bad_restrictions_name_their_place() {
        let yaml =
            serde_yaml::from_str("x: {restrictions: [{condition: 'a ==', message: m}]}").unwrap();
        let err = parse_roles(&yaml, None).unwrap_err();
        assert_eq!(err.path, "x.restrictions[0].condition");
        let yaml = serde_yaml::from_str("x: {restrictions: [42]}").unwrap();
        assert_eq!(
            parse_roles(&yaml, None).unwrap_err().path,
            "x.restrictions[0]"
        );
    }
}
