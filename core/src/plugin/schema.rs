//! Schema checks for every kind of file a package holds (SEMANTICS §7.1,
//! §7.4). Each check walks a loaded [`Node`] tree and reports every problem
//! it finds with its YAML path and line; none stops at the first.

use std::collections::BTreeMap;

use crate::component::{BindModel, Component};
use crate::restriction::Restriction;
use crate::role::Role;
use crate::settings::Attribute;
use crate::task::TASK_TYPES;
use crate::yaml::{Entry, Node, Value, index_path, join_path};

use super::report::Sink;
use super::{DeployerMention, Mentioned};

/// The kinds of data file, each with its own schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Components,
    Roles,
    Volumes,
    Tasks,
    Tags,
    /// `environment_config.yaml`: `attributes:` whose entries need `type`,
    /// `label`, `value` and `weight`.
    PluginAttributes,
    /// A release's `attributes_path`: `editable` groups whose entries need
    /// only `type`.
    ReleaseAttributes,
    /// `node_config.yaml`, `nic_config.yaml`, `bond_config.yaml` and the
    /// release's node/NIC/bond/VMware attributes.
    AttributeSections,
    NetworkRoles,
    Networks,
    /// `deployers.yaml`, a release's `deployers_path`.
    Deployers,
}

/// Checks `root` (the contents of one file) as `kind`.
pub(crate) fn check(kind: FileKind, root: &Node, sink: &mut Sink<'_>) {
    match kind {
        FileKind::Components => components(root, sink),
        FileKind::Roles => roles(root, sink),
        FileKind::Volumes => volumes(root, sink),
        FileKind::Tasks => tasks(root, "", sink),
        FileKind::Tags => tags(root, sink),
        FileKind::PluginAttributes => plugin_attributes(root, sink),
        FileKind::ReleaseAttributes => release_attributes(root, sink),
        FileKind::AttributeSections => sections(root, "", &["type"], sink),
        FileKind::NetworkRoles => network_roles(root, sink),
        FileKind::Deployers => deployers(root, sink),
        FileKind::Networks => networks(root, sink),
    }
}

/// `node` as a map, or an error saying what it is instead.
pub(crate) fn map<'n>(node: &'n Node, path: &str, sink: &mut Sink<'_>) -> Option<&'n [Entry]> {
    match &node.value {
        Value::Map(entries) => Some(entries),
        _ => {
            sink.error(
                node.line,
                path,
                format!("must be a map, not {}", node.kind()),
            );
            None
        }
    }
}

/// `node` as a list (an empty file or `~` counts as an empty one).
pub(crate) fn list<'n>(node: &'n Node, path: &str, sink: &mut Sink<'_>) -> Option<&'n [Node]> {
    match &node.value {
        Value::Seq(items) => Some(items),
        Value::Null => Some(&[]),
        _ => {
            sink.error(
                node.line,
                path,
                format!("must be a list, not {}", node.kind()),
            );
            None
        }
    }
}

/// Checks with `check`, in order, each item of the list `node` (at `path`)
/// that is a map, with its path; an error for the list, or for an item,
/// that is something else.
pub(crate) fn each_map<'n>(
    node: &'n Node,
    path: &str,
    sink: &mut Sink<'_>,
    mut check: impl FnMut(&str, &'n Node, &mut Sink<'_>),
) {
    let items = list(node, path, sink).unwrap_or_default();
    for (i, item) in items.iter().enumerate() {
        let at = index_path(path, i);
        if map(item, &at, sink).is_some() {
            check(&at, item, sink);
        }
    }
}

pub(crate) fn string(node: &Node, path: &str, sink: &mut Sink<'_>) -> Option<String> {
    match &node.value {
        Value::String(s) => Some(s.clone()),
        _ => {
            sink.error(
                node.line,
                path,
                format!("must be a string, not {}", node.kind()),
            );
            None
        }
    }
}

/// A list of strings; a single string counts as a one-element list.
pub(crate) fn strings(node: &Node, path: &str, sink: &mut Sink<'_>) -> Vec<String> {
    match &node.value {
        Value::String(s) => vec![s.clone()],
        Value::Null => Vec::new(),
        Value::Seq(items) => items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| string(item, &index_path(path, i), sink))
            .collect(),
        _ => {
            sink.error(
                node.line,
                path,
                format!("must be a list of strings, not {}", node.kind()),
            );
            Vec::new()
        }
    }
}

pub(crate) fn boolean(node: &Node, path: &str, sink: &mut Sink<'_>) {
    if !matches!(node.value, Value::Bool(_)) {
        sink.error(
            node.line,
            path,
            format!("must be true or false, not {}", node.kind()),
        );
    }
}

fn integer(node: &Node, path: &str, sink: &mut Sink<'_>) {
    if !matches!(node.value, Value::Int(_)) {
        sink.error(
            node.line,
            path,
            format!("must be a whole number, not {}", node.kind()),
        );
    }
}

/// Reports the keys of `required` that `entries` lacks, at `line`.
fn require(node: &Node, path: &str, required: &[&str], sink: &mut Sink<'_>) {
    for key in required {
        if node.get(key).is_none() {
            sink.error(node.line, path, format!("missing required key '{key}'"));
        }
    }
}

fn components(root: &Node, sink: &mut Sink<'_>) {
    let Some(items) = list(root, "", sink) else {
        return;
    };
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        let path = index_path("", i);
        match serde_json::from_value::<Component>(item.to_json()) {
            Ok(component) => {
                let name = component.name.to_string();
                for bind in component
                    .bind
                    .iter()
                    .filter(|b| b.model == BindModel::Other)
                {
                    sink.warning(
                        item.get("bind").map_or(item.line, |b| b.line),
                        &join_path(&path, "bind"),
                        format!(
                            "component '{name}' binds '{}': only the settings and cluster models can be bound; it is ignored",
                            bind.target
                        ),
                    );
                }
                if let Some(first) = seen.get(&name) {
                    sink.error(
                        item.line,
                        &path,
                        format!("component '{name}' is defined twice (first on line {first})"),
                    );
                } else {
                    seen.insert(name, item.line);
                }
            }
            Err(e) => {
                let name = item.get("name").and_then(Node::as_str).unwrap_or("?");
                sink.error(item.line, &path, format!("component '{name}': {e}"));
            }
        }
    }
}

fn roles(root: &Node, sink: &mut Sink<'_>) {
    let Some(entries) = map(root, "", sink) else {
        return;
    };
    for entry in entries {
        let id = &entry.key;
        if !valid_name(id) {
            sink.error(
                entry.line,
                id,
                format!("role name '{id}' must be lowercase letters, digits, '_' or '-'"),
            );
        }
        if entry.value.as_map().is_some() {
            require(&entry.value, id, &["name", "description"], sink);
        }
        // Reading a role stops at its first problem; restrictions are
        // many and independent, so each is checked on its own.
        if let Err(e) = Role::from_json(id, &entry.value.to_json())
            && !e.path.contains(".restrictions[")
        {
            sink.error(root.line_of(&e.path), &e.path, e.message);
        }
        if let Some(list) = entry.value.get("restrictions").and_then(Node::as_seq) {
            for (i, r) in list.iter().enumerate() {
                restriction(r, &index_path(&join_path(id, "restrictions"), i), sink);
            }
        }
    }
}

fn restriction(node: &Node, path: &str, sink: &mut Sink<'_>) {
    if let Err(e) = Restriction::from_json(path, &node.to_json()) {
        let line = node.line;
        sink.error(line, &e.path, e.message);
    }
}

fn restrictions(node: &Node, path: &str, sink: &mut Sink<'_>) {
    if let Some(items) = list(node, path, sink) {
        for (i, r) in items.iter().enumerate() {
            restriction(r, &index_path(path, i), sink);
        }
    }
}

pub(crate) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

const VOLUME_TYPES: &[&str] = &["disk", "vg", "partition", "raid", "lv", "pv"];

fn volumes(root: &Node, sink: &mut Sink<'_>) {
    let Some(entries) = map(root, "", sink) else {
        return;
    };
    let mut ids: BTreeMap<String, usize> = BTreeMap::new();
    for entry in entries {
        match entry.key.as_str() {
            "volumes" => {
                let Some(items) = list(&entry.value, "volumes", sink) else {
                    continue;
                };
                for (i, volume) in items.iter().enumerate() {
                    let path = index_path("volumes", i);
                    if map(volume, &path, sink).is_some() {
                        one_volume(volume, &path, &mut ids, sink);
                    }
                }
            }
            "volumes_roles_mapping" => {
                let Some(roles) = map(&entry.value, "volumes_roles_mapping", sink) else {
                    continue;
                };
                for role in roles {
                    role_volumes(
                        &role.value,
                        &join_path("volumes_roles_mapping", &role.key),
                        sink,
                    );
                }
            }
            "rule_to_pick_boot_disk" => {}
            other => sink.warning(
                entry.line,
                other,
                format!("unknown key '{other}' in a volumes file"),
            ),
        }
    }
}

/// One volume of a volumes file: an id not seen before (`ids`: the line of
/// each id so far), a known type, logical volumes with a type each.
fn one_volume(volume: &Node, path: &str, ids: &mut BTreeMap<String, usize>, sink: &mut Sink<'_>) {
    require(volume, path, &["id", "type"], sink);
    if let Some(id) = volume
        .get("id")
        .and_then(|n| string(n, &join_path(path, "id"), sink))
    {
        if let Some(first) = ids.get(&id) {
            sink.error(
                volume.line,
                path,
                format!("volume '{id}' is defined twice (first on line {first})"),
            );
        } else {
            ids.insert(id, volume.line);
        }
    }
    if let Some(kind) = volume
        .get("type")
        .and_then(|n| string(n, &join_path(path, "type"), sink))
        && !VOLUME_TYPES.contains(&kind.as_str())
    {
        sink.error(
            volume.find("type").line,
            &join_path(path, "type"),
            format!(
                "unknown volume type '{kind}' (expected one of {})",
                VOLUME_TYPES.join(", ")
            ),
        );
    }
    size(volume, &join_path(path, "min_size"), sink);
    // Fuel spells a group's logical volumes `volumes`, the role-as-a-plugin
    // spec `items`.
    for key in ["volumes", "items"] {
        if let Some(lvs) = volume.get(key) {
            each_map(lvs, &join_path(path, key), sink, |at, lv, sink| {
                require(lv, at, &["type"], sink);
                size(lv, &join_path(at, "size"), sink);
            });
        }
    }
}

/// A size (`min_size`, a logical volume's `size`): a number or one of the
/// volume manager's generators with its arguments (SEMANTICS §14).
fn size(parent: &Node, path: &str, sink: &mut Sink<'_>) {
    let key = path.rsplit('.').next().unwrap_or(path);
    let Some(node) = parent.get(key) else {
        return;
    };
    if let Err(message) = crate::disks::generator::Amount::read(&node.to_json()) {
        sink.error(node.line, path, message);
    }
}

/// A role's list in `volumes_roles_mapping`: maps with a string `id` and
/// `allocate_size`.
fn role_volumes(list_node: &Node, path: &str, sink: &mut Sink<'_>) {
    each_map(list_node, path, sink, |at, item, sink| {
        require(item, at, &["id", "allocate_size"], sink);
        for key in ["id", "allocate_size"] {
            if let Some(v) = item.get(key) {
                string(v, &join_path(at, key), sink);
            }
        }
        let allocate = item.get("allocate_size").map(|v| (v.line, v.to_json()));
        if let Some((line, serde_json::Value::String(text))) = allocate
            && crate::disks::metadata::AllocateSize::parse(&text).is_none()
        {
            sink.error(
                line,
                &join_path(at, "allocate_size"),
                format!(
                    "'{text}' is none of {}",
                    crate::disks::metadata::AllocateSize::NAMES.join(", ")
                ),
            );
        }
    });
}

/// A list of tasks (a deployment graph, `deployment_tasks.yaml`).
/// What a task's relations say beyond their shape (SEMANTICS §6.1):
/// patterns that compile, `role` and `policy` values; at the relation's line.
fn relations(task: &Node, path: &str, sink: &mut Sink<'_>) {
    let Some(map) = task.to_json().as_object().cloned() else {
        return;
    };
    if let Err(message) = crate::task::relations(&map) {
        let (key, what) = message.split_once(": ").unwrap_or(("", &message));
        let line = task.get(key).map_or(task.line, |n| n.line);
        let id = map.get("id").and_then(|v| v.as_str()).unwrap_or("?");
        sink.error(line, &join_path(path, key), format!("task '{id}': {what}"));
    }
}

pub(crate) fn tasks(root: &Node, prefix: &str, sink: &mut Sink<'_>) {
    let Some(items) = list(root, prefix, sink) else {
        return;
    };
    for (i, task) in items.iter().enumerate() {
        let path = index_path(prefix, i);
        let Some(entries) = map(task, &path, sink) else {
            continue;
        };
        let errors_before = sink.out.len();
        require(task, &path, &["id", "type"], sink);
        let id = task
            .get("id")
            .and_then(|n| string(n, &join_path(&path, "id"), sink));
        let name = id.as_deref().unwrap_or("?");
        let kind = task
            .get("type")
            .and_then(|n| string(n, &join_path(&path, "type"), sink));
        if let Some(kind) = &kind {
            task_type(task, &path, (name, kind), sink);
        }
        task_fields(entries, &path, sink);
        // Shape errors come first; what the relations mean only once they read.
        if sink.out[errors_before..]
            .iter()
            .all(|d| d.severity != super::report::Severity::Error)
        {
            relations(task, &path, sink);
        }
    }
}

/// The task's type is one Fuel knows, and the task has the parameters
/// that type needs.
fn task_type(task: &Node, path: &str, (name, kind): (&str, &str), sink: &mut Sink<'_>) {
    let Some((_, required)) = TASK_TYPES.iter().find(|(t, _)| *t == kind) else {
        let known: Vec<&str> = TASK_TYPES.iter().map(|(t, _)| *t).collect();
        sink.error(
            task.find("type").line,
            &join_path(path, "type"),
            format!(
                "task '{name}' has unknown type '{kind}' (expected one of {})",
                known.join(", ")
            ),
        );
        return;
    };
    if required.is_empty() {
        return;
    }
    let at = join_path(path, "parameters");
    let Some(parameters) = task.get("parameters") else {
        sink.error(
            task.line,
            path,
            format!(
                "{kind} task '{name}' needs parameters {}",
                required.join(", ")
            ),
        );
        return;
    };
    if map(parameters, &at, sink).is_some() {
        for key in required.iter().filter(|key| parameters.get(key).is_none()) {
            sink.error(
                parameters.line,
                &at,
                format!("{kind} task '{name}' is missing parameter '{key}'"),
            );
        }
    }
}

/// The shape of a task's fields: lists of names, cross-dependencies with a
/// name each, a condition that parses.
fn task_fields(entries: &[Entry], path: &str, sink: &mut Sink<'_>) {
    for entry in entries {
        let at = join_path(path, &entry.key);
        match entry.key.as_str() {
            "role" | "roles" | "groups" | "tags" | "requires" | "required_for" | "tasks" => {
                strings(&entry.value, &at, sink);
            }
            "cross-depends" | "cross-depended-by" => {
                each_map(&entry.value, &at, sink, |dep_at, dep, sink| {
                    require(dep, dep_at, &["name"], sink);
                });
            }
            "condition" => {
                if let Some(text) = entry.value.as_str()
                    && let Err(e) = crate::expr::Expr::parse(text)
                {
                    sink.error(
                        entry.value.line,
                        &at,
                        format!("{}\n{}", e.message, e.render()),
                    );
                }
            }
            _ => {}
        }
    }
}

fn tags(root: &Node, sink: &mut Sink<'_>) {
    let Some(entries) = map(root, "", sink) else {
        return;
    };
    for entry in entries {
        let tag = &entry.key;
        if tag.is_empty()
            || !tag
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            sink.error(
                entry.line,
                tag,
                format!("tag name '{tag}' may use only letters, digits, '_' and '-'"),
            );
        }
        if entry.value.is_null() {
            continue;
        }
        let Some(meta) = map(&entry.value, tag, sink) else {
            continue;
        };
        for m in meta {
            let at = join_path(tag, &m.key);
            match m.key.as_str() {
                "has_primary" => boolean(&m.value, &at, sink),
                other => sink.warning(m.line, &at, format!("unknown tag property '{other}'")),
            }
        }
    }
}

fn attribute(node: &Node, path: &str, required: &[&str], sink: &mut Sink<'_>) {
    if map(node, path, sink).is_none() {
        return;
    }
    require(node, path, required, sink);
    if let Some(kind) = node.get("type") {
        string(kind, &join_path(path, "type"), sink);
    }
    if let Some(weight) = node.get("weight") {
        integer(weight, &join_path(path, "weight"), sink);
    }
    if let Some(r) = node.get("restrictions") {
        restrictions(r, &join_path(path, "restrictions"), sink);
    }
    if node.get("type").is_none() || has_bad_restrictions(node) {
        return;
    }
    // Patterns compile, `values` have their data, bounds are numbers.
    let name = path.rsplit('.').next().unwrap_or(path);
    if let Err(e) = Attribute::from_json(path, name, &node.to_json()) {
        sink.error(
            node.find(
                e.path
                    .strip_prefix(path)
                    .unwrap_or("")
                    .trim_start_matches('.'),
            )
            .line,
            &e.path,
            e.message,
        );
    }
}

/// Whether some restriction of `node` (already reported) does not read.
fn has_bad_restrictions(node: &Node) -> bool {
    node.get("restrictions")
        .and_then(Node::as_seq)
        .is_some_and(|items| {
            items
                .iter()
                .any(|r| Restriction::from_json("", &r.to_json()).is_err())
        })
}

/// Maps of sections whose entries (but `metadata`) are attributes, or of
/// attributes directly (an entry with a `type`).
fn sections(root: &Node, prefix: &str, required: &[&str], sink: &mut Sink<'_>) {
    if root.is_null() {
        return;
    }
    let Some(groups) = map(root, prefix, sink) else {
        return;
    };
    for group in groups {
        let path = join_path(prefix, &group.key);
        // NIC and bond attributes are flat; node attributes come in sections.
        if group.value.get("type").is_some() {
            attribute(&group.value, &path, required, sink);
            continue;
        }
        let Some(entries) = map(&group.value, &path, sink) else {
            continue;
        };
        for entry in entries {
            let at = join_path(&path, &entry.key);
            if entry.key == "metadata" {
                if let Some(r) = entry.value.get("restrictions") {
                    restrictions(r, &join_path(&at, "restrictions"), sink);
                }
            } else {
                attribute(&entry.value, &at, required, sink);
            }
        }
    }
}

fn plugin_attributes(root: &Node, sink: &mut Sink<'_>) {
    if root.is_null() {
        return;
    }
    let Some(entries) = map(root, "", sink) else {
        return;
    };
    for entry in entries {
        if entry.key != "attributes" {
            sink.warning(
                entry.line,
                &entry.key,
                format!(
                    "unknown key '{}' (attributes go under 'attributes')",
                    entry.key
                ),
            );
            continue;
        }
        let Some(attributes) = map(&entry.value, "attributes", sink) else {
            continue;
        };
        for attr in attributes {
            let at = join_path("attributes", &attr.key);
            if attr.key == "metadata" {
                if let Some(r) = attr.value.get("restrictions") {
                    restrictions(r, &join_path(&at, "restrictions"), sink);
                }
            } else {
                attribute(
                    &attr.value,
                    &at,
                    &["type", "label", "value", "weight"],
                    sink,
                );
            }
        }
    }
}

fn release_attributes(root: &Node, sink: &mut Sink<'_>) {
    if root.is_null() {
        return;
    }
    let Some(entries) = map(root, "", sink) else {
        return;
    };
    for entry in entries {
        match entry.key.as_str() {
            "editable" => sections(&entry.value, "editable", &["type"], sink),
            "generated" => {
                map(&entry.value, "generated", sink);
            }
            other => sink.warning(
                entry.line,
                other,
                format!("unknown key '{other}' (expected 'editable' or 'generated')"),
            ),
        }
    }
}

fn network_roles(root: &Node, sink: &mut Sink<'_>) {
    let Some(items) = list(root, "", sink) else {
        return;
    };
    let mut ids: BTreeMap<String, usize> = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        let path = index_path("", i);
        if map(item, &path, sink).is_none() {
            continue;
        }
        require(item, &path, &["id", "default_mapping", "properties"], sink);
        if let Some(id) = item
            .get("id")
            .and_then(|n| string(n, &join_path(&path, "id"), sink))
        {
            if let Some(first) = ids.get(&id) {
                sink.error(
                    item.line,
                    &path,
                    format!("network role '{id}' is defined twice (first on line {first})"),
                );
            } else {
                ids.insert(id, item.line);
            }
        }
        if let Some(mapping) = item.get("default_mapping") {
            string(mapping, &join_path(&path, "default_mapping"), sink);
        }
        if let Some(p) = item.get("properties") {
            network_role_properties(p, &join_path(&path, "properties"), sink);
        }
    }
}

fn network_role_properties(node: &Node, path: &str, sink: &mut Sink<'_>) {
    if map(node, path, sink).is_none() {
        return;
    }
    for flag in ["subnet", "gateway"] {
        if let Some(value) = node.get(flag) {
            boolean(value, &join_path(path, flag), sink);
        }
    }
    let Some(vips) = node.get("vip") else {
        return;
    };
    let vips_path = join_path(path, "vip");
    each_map(vips, &vips_path, sink, |at, vip, sink| {
        require(vip, at, &["name"], sink);
        for key in ["name", "namespace", "alias"] {
            if let Some(value) = vip.get(key) {
                string(value, &join_path(at, key), sink);
            }
        }
        if let Some(roles) = vip.get("node_roles") {
            let roles_path = join_path(at, "node_roles");
            for role in strings(roles, &roles_path, sink) {
                if crate::name::RoleName::new(&role).is_err() {
                    sink.error(
                        roles.line,
                        &roles_path,
                        format!("'{role}' is not a role name"),
                    );
                }
            }
        }
    });
}

/// A release's `networks_path`: Neutron's networks, each read as Mosaic
/// reads them, and its parameters' defaults.
fn networks(root: &Node, sink: &mut Sink<'_>) {
    if root.is_null() || map(root, "", sink).is_none() {
        return;
    }
    let Some(neutron) = root.get("neutron") else {
        return;
    };
    if map(neutron, "neutron", sink).is_none() {
        return;
    }
    if let Some(nets) = neutron.get("networks") {
        each_map(nets, "neutron.networks", sink, network_meta);
    }
    if let Some(config) = neutron.get("config")
        && let serde_json::Value::Object(map) = config.to_json()
        && let Err(e) = crate::network::NetworkingParameters::defaults(
            &map,
            crate::network::Segmentation::Vlan,
            true,
        )
    {
        sink.error(config.line, "neutron.config", e.to_string());
    }
}

/// One network of `neutron.networks` (a map: `each_map` checked it).
fn network_meta(path: &str, node: &Node, sink: &mut Sink<'_>) {
    require(node, path, &["name"], sink);
    if let Err(e) = serde_json::from_value::<crate::network::NetworkMeta>(node.to_json()) {
        sink.error(node.line, path, format!("does not read as a network: {e}"));
        return;
    }
    let address = |key: &str, sink: &mut Sink<'_>| {
        let Some(value) = node.get(key).filter(|v| !v.is_null()) else {
            return;
        };
        let ok = value.as_str().is_some_and(|text| match key {
            "cidr" => text.parse::<ipnet::Ipv4Net>().is_ok(),
            _ => text.parse::<std::net::Ipv4Addr>().is_ok(),
        });
        if !ok {
            let what = if key == "cidr" {
                "a CIDR"
            } else {
                "an IPv4 address"
            };
            sink.error(value.line, &join_path(path, key), format!("must be {what}"));
        }
    };
    address("cidr", sink);
    address("gateway", sink);
    if let Some(range) = node.get("ip_range") {
        let texts = strings(range, &join_path(path, "ip_range"), sink);
        if texts.len() != 2
            || texts
                .iter()
                .any(|t| t.parse::<std::net::Ipv4Addr>().is_err())
        {
            sink.error(
                range.line,
                &join_path(path, "ip_range"),
                "must be two IPv4 addresses [first, last]",
            );
        }
    }
    if let Some(vlan) = node.get("vlan_start").filter(|v| !v.is_null()) {
        integer(vlan, &join_path(path, "vlan_start"), sink);
    }
    if let Some(list) = node.get("restrictions") {
        restrictions(list, &join_path(path, "restrictions"), sink);
    }
}

/// `deployers.yaml` (a release's `deployers_path`): deployer name → its
/// declaration (SEMANTICS §12), every expression parsed, every list and
/// key where it belongs.
fn deployers(root: &Node, sink: &mut Sink<'_>) {
    if root.is_null() {
        return;
    }
    let Some(entries) = map(root, "", sink) else {
        return;
    };
    for entry in entries {
        let at = entry.key.clone();
        if !entry
            .key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            sink.error(
                entry.line,
                &at,
                format!(
                    "'{}' is not a deployer name (letters, digits, '-', '_')",
                    entry.key
                ),
            );
        }
        deployer(&entry.value, &at, sink);
        // A release's declaration has the inventory; a plugin's adds to
        // one, checked at install.
        if entry.value.get("inventory").is_some() {
            release_declaration(entry, sink);
        }
    }
    if !sink.has_errors()
        && let Err(e) = serde_json::from_value::<crate::deployer::Deployers>(root.to_json())
    {
        sink.error(root.line, "", format!("does not read as deployers: {e}"));
    }
}

/// A release's deployer declaration is of a deployer Mosaic knows
/// ([`crate::deployer::Known`]) and names only groups of its own
/// inventory (in a tag's placements, a service's patterns,
/// `own_roles_under` and the inventory's children) and only its own
/// globals (a service's `enabled_by`).
fn release_declaration(entry: &Entry, sink: &mut Sink<'_>) {
    if crate::deployer::Known::named(&entry.key).is_none() {
        sink.error(
            entry.line,
            &entry.key,
            format!(
                "Mosaic knows the particulars of no deployer '{}' (it knows {})",
                entry.key,
                crate::deployer::Known::names()
            ),
        );
    }
    let node = &entry.value;
    let names = |key: &str, field: &str| -> Vec<&str> {
        let items = node.get(key).and_then(Node::as_seq).unwrap_or_default();
        items
            .iter()
            .filter_map(|g| g.get(field).and_then(Node::as_str))
            .collect()
    };
    let groups = names("inventory", "group");
    let globals = names("globals", "name");
    for mention in mentions(node, &entry.key) {
        let (known, whose) = match mention.what {
            Mentioned::Group => (&groups, "the inventory"),
            Mentioned::Global => (&globals, "the deployer's globals"),
        };
        if !known.contains(&mention.name.as_str()) {
            let (what, name) = (mention.what.word(), &mention.name);
            let message = format!("{what} '{name}' is no {what} of {whose}");
            sink.error(mention.line, &mention.path, message);
        }
    }
}

/// Every group and global `deployers.yaml` (`root`, read from `file`)
/// names, with where (see [`DeployerMention`]).
pub(super) fn deployer_mentions(root: &Node, file: &str) -> Vec<DeployerMention> {
    let mut out = Vec::new();
    for entry in root.as_map().unwrap_or_default() {
        for mut mention in mentions(&entry.value, &entry.key) {
            mention.deployer = entry.key.clone();
            mention.file = file.to_owned();
            out.push(mention);
        }
    }
    out
}

/// The groups and globals one deployer's declaration names (`deployer`
/// and `file` left for the caller).
fn mentions(node: &Node, at: &str) -> Vec<DeployerMention> {
    fn list(n: Option<&Node>) -> &[Node] {
        n.and_then(Node::as_seq).unwrap_or_default()
    }
    // Each node that names groups, with its path.
    let mut named: Vec<(&Node, String)> = Vec::new();
    for tag in node.get("tags").and_then(Node::as_map).unwrap_or_default() {
        let tag_at = join_path(&join_path(at, "tags"), &tag.key);
        for (i, placement) in list(Some(&tag.value)).iter().enumerate() {
            named.push((
                placement.get("group").unwrap_or(placement),
                index_path(&tag_at, i),
            ));
        }
    }
    for (i, group) in list(node.get("own_roles_under")).iter().enumerate() {
        named.push((group, index_path(&join_path(at, "own_roles_under"), i)));
    }
    // A service's groups and an inventory group's children: a list in each
    // item of a list.
    for (outer, inner) in [("services", "groups"), ("inventory", "children")] {
        for (i, item) in list(node.get(outer)).iter().enumerate() {
            let item_at = join_path(&index_path(&join_path(at, outer), i), inner);
            for (j, name) in list(item.get(inner)).iter().enumerate() {
                named.push((name, index_path(&item_at, j)));
            }
        }
    }
    let mention = |what, name: &str, line, path: &str| DeployerMention {
        deployer: String::new(),
        what,
        name: name.to_owned(),
        file: String::new(),
        line,
        path: path.to_owned(),
    };
    let mut out = Vec::new();
    for (name, path) in named {
        for group in name.as_str().unwrap_or_default().split(":&") {
            if !group.is_empty() {
                out.push(mention(Mentioned::Group, group, name.line, &path));
            }
        }
    }
    for (i, service) in list(node.get("services")).iter().enumerate() {
        if let Some(global) = service.get("enabled_by") {
            let path = join_path(&index_path(&join_path(at, "services"), i), "enabled_by");
            let text = global.as_str().unwrap_or_default();
            out.push(mention(Mentioned::Global, text, global.line, &path));
        }
    }
    out
}

fn deployer(node: &Node, at: &str, sink: &mut Sink<'_>) {
    let Some(entries) = map(node, at, sink) else {
        return;
    };
    for entry in entries {
        let path = join_path(at, &entry.key);
        let value = &entry.value;
        match entry.key.as_str() {
            "series" | "openstack_release" => {
                string(value, &path, sink);
            }
            "booleans" => booleans(value, &path, sink),
            "own_roles_under" => {
                strings(value, &path, sink);
            }
            "inventory" => {
                each_map(value, &path, sink, |at, group, sink| {
                    require(group, at, &["group"], sink);
                });
            }
            "tags" => {
                for tag in map(value, &path, sink).unwrap_or_default() {
                    placements(&tag.value, &join_path(&path, &tag.key), sink);
                }
            }
            "services" => deployed_services(value, &path, sink),
            "globals" => computed_list(value, &path, &["name"], sink),
            "overrides" => computed_list(value, &path, &["file", "section", "name"], sink),
            "unsupported" => unsupported(value, &path, sink),
            "no_effect" => setting_rules(value, &path, sink),
            "runtime" => runtime(value, &path, sink),
            "disks" => disk_uses(value, &path, sink),
            other => sink.error(
                entry.line,
                &path,
                format!("unknown key '{other}' (expected series, openstack_release, booleans, inventory, tags, own_roles_under, services, globals, overrides, unsupported, no_effect, runtime or disks)"),
            ),
        }
    }
}

/// A deployer's `disks`: the volumes it uses and how each is prepared
/// (SEMANTICS §14, the hand-off) — `volume_group` and `swift_partitions`
/// with a `name`, `volume_group` and `mounted` with a `variable`; a `when`
/// (parsed) with its `reason`.
fn disk_uses(node: &Node, path: &str, sink: &mut Sink<'_>) {
    each_map(node, path, sink, |at, item, sink| {
        require(item, at, &["volume", "prepare"], sink);
        let needs: &[&str] = match item.get("prepare").and_then(Node::as_str) {
            Some("volume_group") => &["name", "variable"],
            Some("mounted") => &["variable"],
            Some("swift_partitions") => &["name"],
            Some(other) => {
                sink.error(
                    item.line,
                    &join_path(at, "prepare"),
                    format!("'{other}' is none of volume_group, mounted and swift_partitions"),
                );
                &[]
            }
            None => &[],
        };
        require(item, at, needs, sink);
        if let Some(when) = item.get("when") {
            expression(when, &join_path(at, "when"), sink);
            require(item, at, &["reason"], sink);
        }
    });
}

/// A deployer's `runtime`: the Python versions (`3.11`) and the packages
/// of its virtual environment, each pinned `NAME==VERSION` (an install
/// resolves nothing anew).
fn runtime(node: &Node, path: &str, sink: &mut Sink<'_>) {
    let Some(entries) = map(node, path, sink) else {
        return;
    };
    require(node, path, &["python", "requirements"], sink);
    for entry in entries {
        let at = join_path(path, &entry.key);
        let check: fn(&str) -> bool = match entry.key.as_str() {
            "python" => |v| {
                v.split_once('.').is_some_and(|(a, b)| {
                    [a, b]
                        .iter()
                        .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
                })
            },
            "requirements" => |v| {
                v.split_once("==").is_some_and(|(name, version)| {
                    !name.is_empty()
                        && !version.is_empty()
                        && name
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
                        && version
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || "-_.+!".contains(c))
                })
            },
            other => {
                sink.error(
                    entry.line,
                    &at,
                    format!("unknown key '{other}' (expected python or requirements)"),
                );
                continue;
            }
        };
        let what = if entry.key == "python" {
            "a Python version (3.11)"
        } else {
            "a pinned package (NAME==VERSION)"
        };
        for (i, item) in list(&entry.value, &at, sink)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            match item.as_str() {
                Some(v) if check(v) => {}
                _ => sink.error(item.line, &index_path(&at, i), format!("must be {what}")),
            }
        }
    }
}

/// The groups a tag places: each a group's name, or `{group, when}` with
/// its condition parsed.
fn placements(node: &Node, path: &str, sink: &mut Sink<'_>) {
    for (i, item) in list(node, path, sink)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let at = index_path(path, i);
        if item.as_str().is_some() {
            continue;
        }
        let Some(entries) = item.as_map() else {
            sink.error(
                item.line,
                &at,
                format!(
                    "must be a group's name or {{group, when}}, not {}",
                    item.kind()
                ),
            );
            continue;
        };
        require(item, &at, &["group"], sink);
        for entry in entries {
            let key = join_path(&at, &entry.key);
            match entry.key.as_str() {
                "group" => {
                    string(&entry.value, &key, sink);
                }
                "when" => expression(&entry.value, &key, sink),
                other => sink.error(
                    entry.line,
                    &key,
                    format!("unknown key '{other}' (expected group or when)"),
                ),
            }
        }
    }
}

/// The services a deployer runs: each `{service, groups, when}`, its
/// groups a list of names or `a:&b` patterns, its condition parsed.
fn deployed_services(node: &Node, path: &str, sink: &mut Sink<'_>) {
    each_map(node, path, sink, |at, item, sink| {
        require(item, at, &["service", "groups"], sink);
        for entry in item.as_map().unwrap_or_default() {
            let key = join_path(at, &entry.key);
            match entry.key.as_str() {
                "service" => {
                    string(&entry.value, &key, sink);
                }
                "groups" => {
                    let groups = strings(&entry.value, &key, sink);
                    if groups.iter().any(|g| g.split(":&").any(str::is_empty)) {
                        sink.error(entry.line, &key, "a group pattern names an empty group");
                    }
                }
                "when" => expression(&entry.value, &key, sink),
                "enabled_by" => {
                    string(&entry.value, &key, sink);
                }
                other => sink.error(
                    entry.line,
                    &key,
                    format!("unknown key '{other}' (expected service, groups, enabled_by or when)"),
                ),
            }
        }
    });
}

/// An expression written at `node`, parsed (with its caret on error).
fn expression(node: &Node, path: &str, sink: &mut Sink<'_>) {
    if let Some(text) = string(node, path, sink)
        && let Err(e) = crate::restriction::parse_expr(path, &text)
    {
        sink.error(node.line, path, e.message);
    }
}

fn computed_list(node: &Node, path: &str, required: &[&str], sink: &mut Sink<'_>) {
    each_map(node, path, sink, |at, item, sink| {
        require(item, at, required, sink);
        match (item.get("value"), item.get("template")) {
            (Some(value), None) => expression(value, &join_path(at, "value"), sink),
            (None, Some(template)) => template_parts(template, &join_path(at, "template"), sink),
            _ => sink.error(
                item.line,
                at,
                "give exactly one of 'value' (an expression) and 'template'",
            ),
        }
        if let Some(when) = item.get("when") {
            expression(when, &join_path(at, "when"), sink);
        }
        if let Some(forms) = item.get("booleans") {
            booleans(forms, &join_path(at, "booleans"), sink);
        }
        if let Some(file) = item.get("file").and_then(Node::as_str)
            && super::files::confine(file).is_err()
        {
            sink.error(
                item.line,
                &join_path(at, "file"),
                format!("'{file}' leaves the export's directory"),
            );
        }
    });
}

/// How true and false are written: two strings.
fn booleans(node: &Node, path: &str, sink: &mut Sink<'_>) {
    let json = node.to_json();
    let two = json
        .as_array()
        .filter(|a| a.len() == 2 && a.iter().all(|v| v.is_string()));
    if two.is_none() {
        sink.error(
            node.line,
            path,
            "how true and false are written: a list of two strings, such as [\"True\", \"False\"]",
        );
    }
}

/// A template's `{expression}` parts, each parsed: in a string, or in
/// every string of a list or map.
fn template_parts(node: &Node, path: &str, sink: &mut Sink<'_>) {
    match &node.value {
        Value::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                template_parts(item, &index_path(path, i), sink);
            }
            return;
        }
        Value::Map(entries) => {
            for entry in entries {
                template_parts(&entry.value, &join_path(path, &entry.key), sink);
            }
            return;
        }
        _ => {}
    }
    let Some(text) = string(node, path, sink) else {
        return;
    };
    // The deployer's own reading (`deployer::parts`): what installs is what
    // exports read.
    if let Err(e) = crate::deployer::parts(&text) {
        sink.error(node.line, path, e.to_string());
    }
}

fn unsupported(node: &Node, path: &str, sink: &mut Sink<'_>) {
    for entry in map(node, path, sink).unwrap_or_default() {
        let at = join_path(path, &entry.key);
        match entry.key.as_str() {
            "components" | "roles" => {
                each_map(&entry.value, &at, sink, |item_at, item, sink| {
                    require(item, item_at, &["name", "reason"], sink);
                    let name = item.get("name").and_then(Node::as_str).unwrap_or_default();
                    let bad = match entry.key.as_str() {
                        "components" => crate::component::Pattern::new(name).is_err(),
                        _ => crate::name::RoleName::new(name).is_err(),
                    };
                    if bad && !name.is_empty() {
                        sink.error(
                            item.line,
                            &join_path(item_at, "name"),
                            format!(
                                "'{name}' is not a {} name",
                                &entry.key[..entry.key.len() - 1]
                            ),
                        );
                    }
                });
            }
            "settings" => setting_rules(&entry.value, &at, sink),
            other => sink.error(
                entry.line,
                &at,
                format!("unknown key '{other}' (expected components, roles or settings)"),
            ),
        }
    }
}

fn setting_rules(node: &Node, path: &str, sink: &mut Sink<'_>) {
    each_map(node, path, sink, |at, item, sink| {
        require(item, at, &["setting", "when", "reason"], sink);
        if let Some(when) = item.get("when") {
            expression(when, &join_path(at, "when"), sink);
        }
    });
}
