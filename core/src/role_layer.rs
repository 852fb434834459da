//! Roles over time (SEMANTICS §5.1): what a release or an environment
//! changes of the roles it is given — a role's tag set replaced
//! ([`RoleEdit`]) or a role of its own ([`RoleDef`]) — and the effective
//! role set those layers make of the declared roles (release, then each
//! plugin's): declared → release level → environment level, later wins.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::name::{RoleName, TagName};
use crate::role::{Role, RoleError};

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
    pub tags_source: TagsSource,
    /// Where it was created, for a role of one's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<Level>,
    /// How many nodes hold it (deployed or pending): of the environment,
    /// or of every environment on the release.
    #[serde(default)]
    pub nodes: usize,
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

/// Where a change of roles is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Level {
    Release,
    Environment,
}

/// Where a role's effective tag set comes from (`tags_source`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum TagsSource {
    /// As the release or plugin declares it.
    #[default]
    Declared,
    Release,
    Environment,
}

impl From<Level> for TagsSource {
    fn from(level: Level) -> TagsSource {
        match level {
            Level::Release => TagsSource::Release,
            Level::Environment => TagsSource::Environment,
        }
    }
}

/// A role's tag set, replaced at one level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleEdit {
    pub tags: Vec<TagName>,
}

/// A role created at one level (`POST …/roles`).
#[derive(Debug, Clone, PartialEq)]
pub struct RoleDef {
    /// Its display name.
    pub label: String,
    pub description: String,
    pub tags: Vec<TagName>,
    pub conflicts: Vec<RoleName>,
    /// `{min, max, recommended, overrides}` as roles declare them (§4),
    /// checked when the definition is read.
    pub limits: Option<Value>,
}

impl RoleDef {
    /// The role it defines, named `id`.
    pub fn role(&self, id: &RoleName) -> Result<Role, RoleError> {
        let mut map = Map::new();
        map.insert("name".into(), self.label.clone().into());
        map.insert("description".into(), self.description.clone().into());
        map.insert("tags".into(), json_list(&self.tags));
        map.insert("conflicts".into(), json_list(&self.conflicts));
        if let Some(limits) = &self.limits {
            map.insert("limits".into(), limits.clone());
        }
        Role::from_json(id.as_str(), &Value::Object(map))
    }
}

fn json_list<T: ToString>(items: &[T]) -> Value {
    Value::Array(items.iter().map(|i| Value::from(i.to_string())).collect())
}

/// One level's change of one role: its tags replaced, or a role of its own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawChange", into = "RawChange")]
pub enum RoleChange {
    Edit(RoleEdit),
    Own(RoleDef),
}

impl RoleChange {
    pub fn tags(&self) -> &[TagName] {
        match self {
            RoleChange::Edit(edit) => &edit.tags,
            RoleChange::Own(def) => &def.tags,
        }
    }
}

/// A change as written (API, environment file, storage): an entry with a
/// `label` is a role of one's own, one with only `tags` an edit.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    tags: Vec<TagName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    conflicts: Option<Vec<RoleName>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    limits: Option<Value>,
}

impl TryFrom<RawChange> for RoleChange {
    type Error = String;

    fn try_from(raw: RawChange) -> Result<RoleChange, String> {
        let Some(label) = raw.label else {
            if raw.description.is_some() || raw.conflicts.is_some() || raw.limits.is_some() {
                return Err(
                    "a change of a role's tags has only `tags`; a role of one's own \
                            needs a `label`"
                        .to_owned(),
                );
            }
            return Ok(RoleChange::Edit(RoleEdit { tags: raw.tags }));
        };
        let def = RoleDef {
            label,
            description: raw.description.unwrap_or_default(),
            tags: raw.tags,
            conflicts: raw.conflicts.unwrap_or_default(),
            limits: raw.limits,
        };
        // The limits are read as a declared role's are: checked once, here.
        let probe = RoleName::new("role").expect("a valid role name");
        def.role(&probe).map_err(|e| e.to_string())?;
        Ok(RoleChange::Own(def))
    }
}

impl From<RoleChange> for RawChange {
    fn from(change: RoleChange) -> RawChange {
        match change {
            RoleChange::Edit(edit) => RawChange {
                label: None,
                description: None,
                tags: edit.tags,
                conflicts: None,
                limits: None,
            },
            RoleChange::Own(def) => RawChange {
                label: Some(def.label),
                description: (!def.description.is_empty()).then_some(def.description),
                tags: def.tags,
                conflicts: (!def.conflicts.is_empty()).then_some(def.conflicts),
                limits: def.limits,
            },
        }
    }
}

/// One level's changes of roles, by role name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RoleLayer(pub BTreeMap<RoleName, RoleChange>);

impl RoleLayer {
    /// A layer that changes nothing.
    pub fn none() -> &'static RoleLayer {
        static NONE: RoleLayer = RoleLayer(BTreeMap::new());
        &NONE
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The roles created at this level.
    pub fn own(&self) -> impl Iterator<Item = (&RoleName, &RoleDef)> {
        self.0.iter().filter_map(|(name, change)| match change {
            RoleChange::Own(def) => Some((name, def)),
            RoleChange::Edit(_) => None,
        })
    }

    /// Role `name`'s tags replaced by `tags` at this level: a role created
    /// here keeps its definition with the new tags.
    pub fn set_tags(&mut self, name: &RoleName, tags: Vec<TagName>) {
        match self.0.get_mut(name) {
            Some(RoleChange::Own(def)) => def.tags = tags,
            _ => {
                self.0
                    .insert(name.clone(), RoleChange::Edit(RoleEdit { tags }));
            }
        }
    }

    /// Every tag the layer's changes name.
    pub fn tags(&self) -> BTreeSet<TagName> {
        self.0
            .values()
            .flat_map(|c| c.tags().iter().cloned())
            .collect()
    }
}

/// How a role of the effective set came to be as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoleOrigin {
    pub tags_source: TagsSource,
    /// Where it was created, for a role of one's own.
    pub created: Option<Level>,
}

/// The effective roles: `declared` (the release's, then each plugin's),
/// then `release`'s changes, then `environment`'s, each role with its
/// origin. An edit of a role that is not there changes nothing; a role
/// created under a name already taken is not added (the declared role,
/// or the one created first, stays). A definition that cannot be read
/// (stored data only: definitions are checked where they enter) is left
/// out.
pub fn effective_roles(
    declared: &[Role],
    release: &RoleLayer,
    environment: &RoleLayer,
) -> (Vec<Role>, Vec<RoleOrigin>) {
    let mut roles = declared.to_vec();
    let mut origins = vec![
        RoleOrigin {
            tags_source: TagsSource::Declared,
            created: None,
        };
        roles.len()
    ];
    for (layer, level) in [(release, Level::Release), (environment, Level::Environment)] {
        apply(&mut roles, &mut origins, layer, level);
    }
    (roles, origins)
}

fn apply(roles: &mut Vec<Role>, origins: &mut Vec<RoleOrigin>, layer: &RoleLayer, level: Level) {
    for (name, change) in &layer.0 {
        let at = roles.iter().position(|r| &r.id == name);
        match (change, at) {
            (RoleChange::Edit(edit), Some(at)) => {
                roles[at].tags = edit.tags.clone();
                origins[at].tags_source = level.into();
            }
            (RoleChange::Own(def), None) => {
                if let Ok(role) = def.role(name) {
                    roles.push(role);
                    origins.push(RoleOrigin {
                        tags_source: level.into(),
                        created: Some(level),
                    });
                }
            }
            (RoleChange::Edit(_), None) | (RoleChange::Own(_), Some(_)) => {}
        }
    }
}

/// Why a change of roles is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoleRefusal {
    #[error("role '{0}' does not exist")]
    NotFound(String),
    #[error("name: '{0}' is not a role name (lowercase letters, digits, '_' and '-')")]
    BadName(String),
    #[error("role '{0}' already exists")]
    Exists(RoleName),
    #[error("role '{name}' is declared by the {by} and cannot be deleted")]
    Declared { name: RoleName, by: &'static str },
    #[error("role '{name}' is held by node{} {}: take it from {} first",
        crate::text::plural(.nodes.len()),
        crate::text::quoted(.nodes),
        crate::text::agree(.nodes.len(), "it", "them"))]
    Held { name: RoleName, nodes: Vec<String> },
    #[error("unknown tag{} {}: create {} on the release or the environment first",
        crate::text::plural(.0.len()),
        crate::text::quoted(.0),
        crate::text::agree(.0.len(), "it", "them"))]
    UnknownTags(Vec<TagName>),
    #[error("{0}")]
    Invalid(String),
}

/// The role set one level sees before its own changes, and its changes:
/// what a change at that level is judged against.
#[derive(Debug, Clone, Copy)]
pub struct LevelView<'a> {
    pub level: Level,
    /// The effective roles with this level's changes.
    pub roles: &'a [Role],
    pub origins: &'a [RoleOrigin],
    pub layer: &'a RoleLayer,
}

impl LevelView<'_> {
    fn find(&self, name: &str) -> Option<usize> {
        self.roles.iter().position(|r| r.id == name)
    }

    /// The layer with role `name`'s tags replaced by `tags`, which must all
    /// be `known`.
    pub fn set_tags(
        &self,
        name: &str,
        tags: Vec<TagName>,
        known: impl Fn(&TagName) -> bool,
    ) -> Result<RoleLayer, RoleRefusal> {
        let at = self
            .find(name)
            .ok_or_else(|| RoleRefusal::NotFound(name.to_owned()))?;
        check_tags(&tags, known)?;
        let mut layer = self.layer.clone();
        layer.set_tags(&self.roles[at].id, tags);
        Ok(layer)
    }

    /// The layer with role `name` created as `def`.
    pub fn create(
        &self,
        name: &str,
        def: RoleDef,
        known: impl Fn(&TagName) -> bool,
    ) -> Result<(RoleName, RoleLayer), RoleRefusal> {
        let id = RoleName::new(name).map_err(|_| RoleRefusal::BadName(name.to_owned()))?;
        if self.find(name).is_some() || self.layer.0.contains_key(&id) {
            return Err(RoleRefusal::Exists(id));
        }
        check_tags(&def.tags, known)?;
        def.role(&id)
            .map_err(|e| RoleRefusal::Invalid(e.to_string()))?;
        let mut layer = self.layer.clone();
        layer.0.insert(id.clone(), RoleChange::Own(def));
        Ok((id, layer))
    }

    /// The layer without this level's change of role `name`: its edit
    /// undone, or the role created here deleted when no node (of
    /// `holders`) holds it.
    pub fn reset(&self, name: &str, holders: Vec<String>) -> Result<RoleLayer, RoleRefusal> {
        let at = self
            .find(name)
            .ok_or_else(|| RoleRefusal::NotFound(name.to_owned()))?;
        let id = &self.roles[at].id;
        let mut layer = self.layer.clone();
        match layer.0.get(id) {
            Some(RoleChange::Edit(_)) => {}
            Some(RoleChange::Own(_)) if holders.is_empty() => {}
            Some(RoleChange::Own(_)) => {
                return Err(RoleRefusal::Held {
                    name: id.clone(),
                    nodes: holders,
                });
            }
            None => {
                return Err(RoleRefusal::Declared {
                    name: id.clone(),
                    by: match self.origins[at].created {
                        Some(_) => "release",
                        None => "release or a plugin",
                    },
                });
            }
        }
        layer.0.remove(id);
        Ok(layer)
    }
}

/// What undoing a role's change at one level does, as its row offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undo {
    /// Its tag set goes back to the level below.
    Reset,
    /// It was created at this level: it goes.
    Delete,
}

impl Undo {
    /// For `role` shown at `level`: none when this level changed nothing.
    pub fn of(role: &RoleView, level: Level) -> Option<Undo> {
        match role.created {
            Some(created) if created == level => Some(Undo::Delete),
            _ if role.tags_source == TagsSource::from(level) => Some(Undo::Reset),
            _ => None,
        }
    }
}

/// Where a role's tag set comes from, as the Roles section says it.
pub fn tags_source_label(role: &RoleView) -> &'static str {
    match (role.tags_source, role.created) {
        (_, Some(Level::Environment)) => "created here",
        (TagsSource::Release, Some(Level::Release)) => "created on the release",
        (TagsSource::Environment, _) => "changed here",
        (TagsSource::Release, _) => "changed on the release",
        (TagsSource::Declared, _) => "as declared",
    }
}

/// What saving `new` as a role's tags instead of `old` does to the
/// `nodes` holding it, before it is saved; none when nothing changes.
pub fn change_preview(old: &[String], new: &[String], nodes: usize) -> Option<String> {
    let added: Vec<&str> = new
        .iter()
        .filter(|t| !old.contains(t))
        .map(String::as_str)
        .collect();
    let gone: Vec<&str> = old
        .iter()
        .filter(|t| !new.contains(t))
        .map(String::as_str)
        .collect();
    if added.is_empty() && gone.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    if !added.is_empty() {
        parts.push(format!("adds {}", added.join(", ")));
    }
    if !gone.is_empty() {
        parts.push(format!("removes {}", gone.join(", ")));
    }
    Some(format!(
        "Affects {nodes} node{}: {}.",
        crate::text::plural(nodes),
        parts.join("; ")
    ))
}

/// What a change of a role's tags does to the instance tags of the nodes
/// holding it (counted by a dry run before it is saved); none when it
/// changes none.
pub fn instances_preview(changes: &InstanceTagChanges) -> Option<String> {
    use crate::text::plural;
    let parts: Vec<String> = [(changes.assigned, "given"), (changes.removed, "taken away")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, how)| format!("{n} {how}"))
        .collect();
    (changes.nodes > 0).then(|| {
        format!(
            "Instance tags on {} node{}: {}.",
            changes.nodes,
            plural(changes.nodes),
            parts.join(", ")
        )
    })
}

fn check_tags(tags: &[TagName], known: impl Fn(&TagName) -> bool) -> Result<(), RoleRefusal> {
    let unknown: Vec<TagName> = tags.iter().filter(|t| !known(t)).cloned().collect();
    if unknown.is_empty() {
        Ok(())
    } else {
        Err(RoleRefusal::UnknownTags(unknown))
    }
}

#[cfg(test)]
mod tests;
