//! Reading a package: `metadata.yaml`, its `releases:` records with every
//! `*_path` key resolved (files, directories, globs, `base_release_path`),
//! and the fixed files — collecting every problem on the way.

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json};

use crate::name::GraphType;
use crate::yaml::{self, Limits, Node, Value, index_path, join_path};

use super::files::{Files, Kind, confine, glob, is_glob};
use super::report::{Diagnostic, PluginId, ReleaseId, Report, Sink};
use super::schema::{self, FileKind, boolean, list, map, string, strings, valid_name};
use super::{Package, Severity};

const METADATA: &str = "metadata.yaml";

const PACKAGE_VERSIONS: &[&str] = &["3.0.0", "4.0.0", "5.0.0"];

const GROUPS: &[&str] = &[
    "network",
    "storage",
    "storage::cinder",
    "storage::glance",
    "hypervisor",
    "equipment",
    "monitoring",
];

/// The fixed files: name, the key they are stored under, their kind, and
/// the first package version that reads them.
pub(crate) const FIXED_FILES: &[(&str, &str, FileKind, &str)] = &[
    (
        "environment_config.yaml",
        "attributes_metadata",
        FileKind::PluginAttributes,
        "3.0.0",
    ),
    (
        "node_roles.yaml",
        "roles_metadata",
        FileKind::Roles,
        "3.0.0",
    ),
    (
        "volumes.yaml",
        "volumes_metadata",
        FileKind::Volumes,
        "3.0.0",
    ),
    (
        "deployment_tasks.yaml",
        "deployment_tasks",
        FileKind::Tasks,
        "3.0.0",
    ),
    (
        "network_roles.yaml",
        "network_roles_metadata",
        FileKind::NetworkRoles,
        "3.0.0",
    ),
    (
        "components.yaml",
        "components_metadata",
        FileKind::Components,
        "4.0.0",
    ),
    ("node_tags.yaml", "tags_metadata", FileKind::Tags, "4.0.0"),
    (
        "deployers.yaml",
        "deployers_metadata",
        FileKind::Deployers,
        "5.0.0",
    ),
    (
        "node_config.yaml",
        "node_attributes_metadata",
        FileKind::AttributeSections,
        "5.0.0",
    ),
    (
        "nic_config.yaml",
        "nic_attributes_metadata",
        FileKind::AttributeSections,
        "5.0.0",
    ),
    (
        "bond_config.yaml",
        "bond_attributes_metadata",
        FileKind::AttributeSections,
        "5.0.0",
    ),
];

/// `*_path` keys of a release record: the file kind of what they point at.
fn path_kind(key: &str) -> Option<FileKind> {
    Some(match key {
        "components_path" => FileKind::Components,
        "roles_path" => FileKind::Roles,
        "volumes_path" => FileKind::Volumes,
        "tags_path" => FileKind::Tags,
        "network_roles_path" => FileKind::NetworkRoles,
        "networks_path" => FileKind::Networks,
        "deployers_path" => FileKind::Deployers,
        "attributes_path" => FileKind::ReleaseAttributes,
        "vmware_attributes_path"
        | "node_attributes_path"
        | "nic_attributes_path"
        | "bond_attributes_path" => FileKind::AttributeSections,
        "deployment_tasks_path" | "tasks_path" => FileKind::Tasks,
        _ => return None,
    })
}

/// Record keys after loading → the names a release is stored with.
const STORED_NAMES: &[(&str, &str)] = &[
    ("release_name", "name"),
    ("os", "operating_system"),
    ("roles", "roles_metadata"),
    ("components", "components_metadata"),
    ("volumes", "volumes_metadata"),
    ("networks", "networks_metadata"),
    ("network_roles", "network_roles_metadata"),
    ("deployers", "deployers_metadata"),
    ("attributes", "attributes_metadata"),
    ("tags", "tags_metadata"),
    ("vmware_attributes", "vmware_attributes_metadata"),
    ("node_attributes", "node_attributes_metadata"),
    ("nic_attributes", "nic_attributes_metadata"),
    ("bond_attributes", "bond_attributes_metadata"),
];

const RELEASE_KEYS: &[&str] = &[
    "is_release",
    "release_name",
    "name",
    "description",
    "operating_system",
    "os",
    "version",
    "required_component_types",
    "graphs",
    "is_hotpluggable",
    "base_release_path",
    "networks_path",
    "volumes_path",
    "roles_path",
    "tags_path",
    "network_roles_path",
    "deployers_path",
    "components_path",
    "attributes_path",
    "vmware_attributes_path",
    "node_attributes_path",
    "nic_attributes_path",
    "bond_attributes_path",
    "deployment_tasks_path",
    "deployment_scripts_path",
    "repository_path",
];

const EXTENSION_KEYS: &[&str] = &[
    "os",
    "operating_system",
    "version",
    "mode",
    "deployment_scripts_path",
    "repository_path",
];

/// A package read, with everything wrong with it. `package` is `None`
/// when the report has errors.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub package: Option<Package>,
    pub report: Report,
}

/// Loads and validates the package `files` holds.
pub fn load(files: &dyn Files) -> Loaded {
    load_with_limits(files, Limits::default())
}

pub fn load_with_limits(files: &dyn Files, limits: Limits) -> Loaded {
    let mut loader = Loader {
        files,
        limits,
        diagnostics: Vec::new(),
        deployer_mentions: Vec::new(),
    };
    let (plugin, releases, tree) = loader.package();
    let diagnostics = loader.diagnostics;
    let deployer_mentions = loader.deployer_mentions;
    let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
    let mut report = Report::new(plugin, releases, diagnostics);
    let package = match tree {
        Some(tree) if !has_errors => match serde_json::from_value::<Package>(Json::Object(tree)) {
            Ok(mut package) => {
                package.deployer_mentions = deployer_mentions;
                let mut diagnostics = report.diagnostics;
                diagnostics.extend(release_bind_warnings(&package));
                report = Report::new(report.plugin, report.releases, diagnostics);
                Some(package)
            }
            Err(e) => {
                // The schema checks should have caught it; say so rather than lose it.
                report.diagnostics.push(Diagnostic {
                    severity: Severity::Error,
                    file: METADATA.to_owned(),
                    line: None,
                    path: None,
                    message: format!("the package does not load: {e}"),
                });
                report = Report::new(report.plugin, report.releases, report.diagnostics);
                None
            }
        },
        _ => None,
    };
    Loaded { package, report }
}

/// A release's components that bind settings its attributes do not have:
/// the bind does nothing, which is almost certainly a mistake.
fn release_bind_warnings(package: &Package) -> Vec<Diagnostic> {
    package
        .releases()
        .flat_map(|release| {
            crate::settings::unknown_binds(&release.attributes_metadata.editable, &release.components_metadata)
                .into_iter()
                .map(move |(component, target)| Diagnostic {
                    severity: Severity::Warning,
                    file: METADATA.to_owned(),
                    line: None,
                    path: None,
                    message: format!(
                        "component '{component}' of release '{}' binds '{target}', which is not one of its settings (a value `group.attr.value` or a switch `group.metadata.enabled`); the bind does nothing",
                        release.name
                    ),
                })
        })
        .collect()
}

struct Loader<'a> {
    files: &'a dyn Files,
    limits: Limits,
    diagnostics: Vec<Diagnostic>,
    /// The groups and globals the deployer data names (`Package::deployer_mentions`).
    deployer_mentions: Vec<super::DeployerMention>,
}

/// How a list of graph records is read: a release record's and a plugin's
/// differ in what a second record of one type means and in what the
/// `default` graph already holds.
#[derive(Clone, Copy)]
struct GraphRules<'t> {
    /// A second record of one type: a warning in a release record (it
    /// replaces the first, as Fuel's did), an error in a plugin's.
    repeated: Severity,
    /// The files the `default` graph's tasks also come from (a plugin's
    /// `deployment_tasks.yaml`).
    default_files: &'t [(String, Node)],
}

impl GraphRules<'_> {
    const RELEASE: GraphRules<'static> = GraphRules {
        repeated: Severity::Warning,
        default_files: &[],
    };
}

/// What a `*_path` key resolved to.
enum Resolved {
    /// A directory, kept as the path.
    Dir(String),
    /// The data of the file(s), and each file's tree (for checks that span
    /// files, such as duplicate task ids).
    Data(Json, Vec<(String, Node)>),
}

fn version_at_least(package_version: &str, wanted: &str) -> bool {
    let parse = |v: &str| -> Vec<u32> { v.split('.').filter_map(|p| p.parse().ok()).collect() };
    parse(package_version) >= parse(wanted)
}

fn valid_version(v: &str) -> bool {
    let parts: Vec<&str> = v.split('.').collect();
    (parts.len() == 2 || parts.len() == 3)
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

impl Loader<'_> {
    fn sink(&mut self, file: &str) -> Sink<'_> {
        Sink {
            file: file.to_owned(),
            out: &mut self.diagnostics,
        }
    }

    /// Reads and parses one file; reports duplicate keys.
    fn parse(&mut self, file: &str) -> Option<Node> {
        let text = match self.files.read(file) {
            Ok(text) => text,
            Err(why) => {
                self.sink(file).push(
                    Severity::Error,
                    None,
                    "",
                    format!("cannot read {file}: {why}"),
                );
                return None;
            }
        };
        match yaml::load(file, &text, self.limits) {
            Ok(doc) => {
                let mut sink = self.sink(file);
                for d in &doc.duplicates {
                    sink.error(
                        d.line,
                        &join_path(&d.path, &d.key),
                        format!(
                            "key '{}' is given twice (lines {} and {}); the later value is used",
                            d.key, d.first_line, d.line
                        ),
                    );
                }
                Some(doc.root)
            }
            Err(e) => {
                self.diagnostics.push(Diagnostic {
                    severity: Severity::Error,
                    file: file.to_owned(),
                    line: e.line,
                    path: None,
                    message: e.message,
                });
                None
            }
        }
    }

    fn package(&mut self) -> (Option<PluginId>, Vec<ReleaseId>, Option<Map<String, Json>>) {
        match self.files.kind(METADATA) {
            Some(Kind::File) => {}
            Some(Kind::Outside) => {
                self.sink(METADATA).push(
                    Severity::Error,
                    None,
                    "",
                    "metadata.yaml is a link that leads out of the package",
                );
                return (None, Vec::new(), None);
            }
            _ => {
                self.sink(METADATA).push(
                    Severity::Error,
                    None,
                    "",
                    "metadata.yaml is missing: every package needs one at its root",
                );
                return (None, Vec::new(), None);
            }
        }
        let Some(meta) = self.parse(METADATA) else {
            return (None, Vec::new(), None);
        };
        let mut tree = Map::new();
        let package_version = self.metadata(&meta, &mut tree);
        let plugin = PluginId {
            name: text_of(&meta, "name"),
            version: text_of(&meta, "version"),
            package_version: package_version.clone(),
        };
        let (records, ids) = self.records(&meta, &plugin, &package_version);
        tree.insert("releases".to_owned(), Json::Array(records));
        let deployment_tasks = self.fixed_files(&package_version, &mut tree);
        let release_plugin = ids.iter().any(|id| id.is_release);
        self.plugin_graphs(
            &meta,
            &package_version,
            release_plugin,
            &deployment_tasks,
            &mut tree,
        );
        (Some(plugin), ids, Some(tree))
    }

    /// Checks the top-level keys of `metadata.yaml`, copying them into `tree`.
    /// Long: one arm per key, so the file's top level reads as one table.
    fn metadata(&mut self, meta: &Node, tree: &mut Map<String, Json>) -> String {
        let mut sink = Sink {
            file: METADATA.to_owned(),
            out: &mut self.diagnostics,
        };
        let Some(entries) = map(meta, "", &mut sink) else {
            return String::new();
        };
        for key in [
            "name",
            "title",
            "version",
            "package_version",
            "description",
            "licenses",
            "authors",
            "homepage",
            "releases",
        ] {
            if meta.get(key).is_none() {
                sink.error(meta.line, "", format!("missing required key '{key}'"));
            }
        }
        let mut package_version = String::new();
        for entry in entries {
            let (key, node) = (entry.key.as_str(), &entry.value);
            match key {
                "name" => {
                    if let Some(name) = string(node, key, &mut sink)
                        && !valid_name(&name)
                    {
                        sink.error(
                            node.line,
                            key,
                            format!("plugin name '{name}' must match ^[a-z0-9_-]+$"),
                        );
                    }
                }
                "title" | "description" | "homepage" => {
                    string(node, key, &mut sink);
                }
                "version" => match &node.value {
                    Value::String(v) if valid_version(v) => {}
                    Value::String(v) => sink.error(
                        node.line,
                        key,
                        format!("version '{v}' must look like 1.0 or 1.0.0"),
                    ),
                    _ => sink.error(
                        node.line,
                        key,
                        format!(
                            "must be a string such as '1.0.0' (quote it), not {}",
                            node.kind()
                        ),
                    ),
                },
                "package_version" => match node.as_str() {
                    Some(v) if PACKAGE_VERSIONS.contains(&v) => package_version = v.to_owned(),
                    _ => sink.error(
                        node.line,
                        key,
                        format!(
                            "package_version must be one of {} (quoted), not {}",
                            PACKAGE_VERSIONS.join(", "),
                            node.scalar_text().unwrap_or_else(|| node.kind().to_owned())
                        ),
                    ),
                },
                "licenses" | "authors" => {
                    if !matches!(node.value, Value::Seq(_)) {
                        sink.error(
                            node.line,
                            key,
                            format!("must be a list of strings, not {}", node.kind()),
                        );
                    } else {
                        strings(node, key, &mut sink);
                    }
                }
                "groups" => {
                    for (i, group) in strings(node, key, &mut sink).iter().enumerate() {
                        if !GROUPS.contains(&group.as_str()) {
                            sink.warning(
                                node.find(&format!("[{i}]")).line,
                                &index_path(key, i),
                                format!("unknown group '{group}' (known: {})", GROUPS.join(", ")),
                            );
                        }
                    }
                }
                "is_hotpluggable" => boolean(node, key, &mut sink),
                "releases" | "graphs" => continue,
                "fuel_version" | "mode" => {
                    sink.warning(
                        entry.line,
                        key,
                        format!("'{key}' is deprecated and ignored"),
                    );
                    continue;
                }
                other => {
                    sink.warning(
                        entry.line,
                        other,
                        format!("unknown key '{other}' is ignored"),
                    );
                    continue;
                }
            }
            tree.insert(key.to_owned(), node.to_json());
        }
        package_version
    }

    /// The `releases:` records, resolved; and their summary for the report.
    fn records(
        &mut self,
        meta: &Node,
        plugin: &PluginId,
        package_version: &str,
    ) -> (Vec<Json>, Vec<ReleaseId>) {
        let Some(node) = meta.get("releases") else {
            return (Vec::new(), Vec::new());
        };
        let mut sink = self.sink(METADATA);
        let Some(records) = list(node, "releases", &mut sink) else {
            return (Vec::new(), Vec::new());
        };
        if records.is_empty() {
            sink.error(
                node.line,
                "releases",
                "lists no release: a plugin needs at least one record",
            );
        }
        let mut out = Vec::new();
        let mut ids = Vec::new();
        let mut release_lines = Vec::new();
        let mut extension_lines = Vec::new();
        for (i, record) in records.iter().enumerate() {
            let path = index_path("releases", i);
            if map(record, &path, &mut self.sink(METADATA)).is_none() {
                continue;
            }
            let is_release = self.is_release(record, &path);
            let id = ReleaseId {
                name: text_of(record, "release_name").or_empty(|| text_of(record, "name")),
                version: text_of(record, "version"),
                operating_system: text_of(record, "operating_system")
                    .or_empty(|| text_of(record, "os")),
                is_release,
            };
            if is_release {
                release_lines.push(record.line);
                if !package_version.is_empty() && !version_at_least(package_version, "5.0.0") {
                    self.sink(METADATA).error(
                        record.line,
                        &path,
                        format!("release records need package_version 5.0.0 (this package is {package_version})"),
                    );
                }
                if !id.name.is_empty() && !id.name.eq_ignore_ascii_case(&plugin.name) {
                    self.sink(METADATA).warning(
                        record.line,
                        &path,
                        format!(
                            "the plugin name '{}' differs from the release name '{}'",
                            plugin.name, id.name
                        ),
                    );
                }
                out.push(Json::Object(self.release_record(record, &path)));
            } else {
                extension_lines.push(record.line);
                out.push(Json::Object(self.extension_record(record, &path)));
            }
            ids.push(id);
        }
        self.record_kinds(meta, node, &release_lines, &extension_lines);
        (out, ids)
    }

    /// A record's `is_release` (absent: false).
    fn is_release(&mut self, record: &Node, path: &str) -> bool {
        let Some(n) = record.get("is_release") else {
            return false;
        };
        n.as_bool().unwrap_or_else(|| {
            self.sink(METADATA).error(
                n.line,
                &join_path(path, "is_release"),
                format!("must be true or false, not {}", n.kind()),
            );
            false
        })
    }

    /// How the records mix, given the lines of the release records and of
    /// the extension records: never both kinds, one release at most
    /// expected, and no `is_hotpluggable` for a release plugin.
    fn record_kinds(
        &mut self,
        meta: &Node,
        node: &Node,
        release_lines: &[usize],
        extension_lines: &[usize],
    ) {
        let mut sink = self.sink(METADATA);
        if !release_lines.is_empty() && !extension_lines.is_empty() {
            sink.error(
                node.line,
                "releases",
                format!(
                    "a plugin is either a release plugin or an extension: release records on lines {} and extension records on lines {}",
                    join_lines(release_lines),
                    join_lines(extension_lines)
                ),
            );
        }
        if release_lines.len() > 1 {
            sink.warning(
                node.line,
                "releases",
                format!(
                    "{} release records in one plugin (lines {})",
                    release_lines.len(),
                    join_lines(release_lines)
                ),
            );
        }
        if !release_lines.is_empty()
            && let Some(hot) = meta.entry("is_hotpluggable")
            && hot.value.as_bool() == Some(true)
        {
            sink.warning(
                hot.line,
                "is_hotpluggable",
                "is_hotpluggable is ignored for release plugins",
            );
        }
    }

    fn extension_record(&mut self, record: &Node, path: &str) -> Map<String, Json> {
        let mut out = Map::new();
        let mut sink = self.sink(METADATA);
        if record.get("os").is_none() && record.get("operating_system").is_none() {
            sink.error(
                record.line,
                path,
                "missing required key 'os' (or 'operating_system')",
            );
        }
        for key in ["version", "deployment_scripts_path", "repository_path"] {
            if record.get(key).is_none() {
                sink.error(record.line, path, format!("missing required key '{key}'"));
            }
        }
        for entry in record.as_map().unwrap_or_default() {
            let at = join_path(path, &entry.key);
            let mut sink = self.sink(METADATA);
            match entry.key.as_str() {
                "os" | "operating_system" => {
                    if let Some(os) = string(&entry.value, &at, &mut sink) {
                        out.insert("operating_system".to_owned(), Json::String(os));
                    }
                }
                "version" => match entry.value.as_str() {
                    Some(v) => {
                        out.insert("version".to_owned(), Json::String(v.to_owned()));
                    }
                    None => sink.error(
                        entry.value.line,
                        &at,
                        format!("must be a string (quote it), not {}", entry.value.kind()),
                    ),
                },
                "mode" => {
                    let modes = strings(&entry.value, &at, &mut sink);
                    out.insert("mode".to_owned(), modes.into());
                }
                key if key.ends_with("_path") => {
                    if let Some(Resolved::Dir(dir)) = self.resolve(key, &entry.value, &at, true) {
                        out.insert(key.to_owned(), Json::String(dir));
                    }
                }
                other if !EXTENSION_KEYS.contains(&other) => {
                    sink.warning(entry.line, &at, format!("unknown key '{other}' is ignored"));
                }
                _ => {}
            }
        }
        out
    }

    /// A release record: its own keys over its base release's. Long: one
    /// arm per key of the record, so its schema reads as one table.
    fn release_record(&mut self, record: &Node, path: &str) -> Map<String, Json> {
        let mut sink = self.sink(METADATA);
        if record.get("release_name").is_none() {
            match record.entry("name") {
                Some(entry) => sink.warning(
                    entry.line,
                    &join_path(path, "name"),
                    "'name' is a deprecated alias of 'release_name'",
                ),
                None => sink.error(record.line, path, "missing required key 'release_name'"),
            }
        }
        if record.get("os").is_none() && record.get("operating_system").is_none() {
            sink.error(record.line, path, "missing required key 'operating_system'");
        }
        for key in ["version", "description"] {
            if record.get(key).is_none() {
                sink.error(record.line, path, format!("missing required key '{key}'"));
            }
        }
        let mut own = Map::new();
        let mut template = Map::new();
        for entry in record.as_map().unwrap_or_default() {
            let key = entry.key.as_str();
            let at = join_path(path, key);
            if let Some(plain) = key.strip_suffix("_path")
                && record.get(plain).is_some()
            {
                self.sink(METADATA).error(
                    entry.line,
                    &at,
                    format!("both '{plain}' and '{key}' are given; use one"),
                );
            }
            match key {
                "graphs" => {
                    let graphs = self.graphs(&entry.value, &at, GraphRules::RELEASE);
                    own.insert("graphs".to_owned(), graphs);
                }
                "base_release_path" => {
                    if let Some(Resolved::Data(Json::Object(data), _)) =
                        self.resolve(key, &entry.value, &at, false)
                    {
                        template = data;
                    } else if !self.has_error_at(&at) {
                        self.sink(METADATA).error(
                            entry.value.line,
                            &at,
                            "the base release must be a map of release fields",
                        );
                    }
                }
                "name" | "release_name" | "description" | "version" | "os" | "operating_system" => {
                    match entry.value.as_str() {
                        Some(text) => {
                            own.insert(key.to_owned(), Json::String(text.to_owned()));
                        }
                        None => self.sink(METADATA).error(
                            entry.value.line,
                            &at,
                            format!("must be a string (quote it), not {}", entry.value.kind()),
                        ),
                    }
                }
                "is_release" | "is_hotpluggable" => {}
                key if key.ends_with("_path") => {
                    if !RELEASE_KEYS.contains(&key) {
                        self.sink(METADATA).warning(
                            entry.line,
                            &at,
                            format!("unknown key '{key}' (its file is loaded but not used)"),
                        );
                    }
                    match self.resolve(key, &entry.value, &at, false) {
                        Some(Resolved::Dir(dir)) => {
                            own.insert(key.to_owned(), Json::String(dir));
                        }
                        // An empty file gives nothing (not `null`).
                        Some(Resolved::Data(Json::Null, _)) => {}
                        Some(Resolved::Data(data, _)) => {
                            own.insert(key[..key.len() - 5].to_owned(), data);
                        }
                        None => {}
                    }
                }
                other => {
                    if !RELEASE_KEYS.contains(&other)
                        && !STORED_NAMES.iter().any(|(a, b)| *a == other || *b == other)
                    {
                        self.sink(METADATA).warning(
                            entry.line,
                            &at,
                            format!("unknown key '{other}' is ignored"),
                        );
                        continue;
                    }
                    own.insert(other.to_owned(), entry.value.to_json());
                }
            }
        }
        let mut merged = stored_names(template);
        deep_merge(&mut merged, stored_names(own));
        merged.insert("is_release".to_owned(), Json::Bool(true));
        merged
    }

    fn has_error_at(&self, path: &str) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error && d.path.as_deref() == Some(path))
    }

    /// A plugin's own `graphs:` records (SEMANTICS §6.2): read from
    /// package version 5.0.0 on and for extension plugins (a release
    /// plugin's graphs are in its release records). A record of type
    /// `default` joins `deployment_tasks.yaml` (`deployment_tasks`): an id
    /// in both is defined twice in one graph.
    fn plugin_graphs(
        &mut self,
        meta: &Node,
        package_version: &str,
        release_plugin: bool,
        deployment_tasks: &[(String, Node)],
        tree: &mut Map<String, Json>,
    ) {
        let Some(entry) = meta.entry("graphs") else {
            return;
        };
        let ignored = if !package_version.is_empty() && !version_at_least(package_version, "5.0.0")
        {
            Some(format!(
                "graphs are read from package version 5.0.0 on; they are ignored in {package_version}"
            ))
        } else if release_plugin {
            Some(
                "a release plugin gives its graphs in its release records; these are ignored"
                    .to_owned(),
            )
        } else {
            None
        };
        if let Some(why) = ignored {
            self.sink(METADATA).warning(entry.line, "graphs", why);
            return;
        }
        let rules = GraphRules {
            repeated: Severity::Error,
            default_files: deployment_tasks,
        };
        let graphs = self.graphs(&entry.value, "graphs", rules);
        tree.insert("graphs".to_owned(), graphs);
    }

    /// `graphs: [{type, name?, tasks_path | tasks}]`.
    fn graphs(&mut self, node: &Node, path: &str, rules: GraphRules<'_>) -> Json {
        let mut out = Vec::new();
        let items = match list(node, path, &mut self.sink(METADATA)) {
            Some(items) => items,
            None => return Json::Array(out),
        };
        let mut types: BTreeMap<GraphType, usize> = BTreeMap::new();
        for (i, graph) in items.iter().enumerate() {
            let at = index_path(path, i);
            if map(graph, &at, &mut self.sink(METADATA)).is_none() {
                continue;
            }
            let mut entry = Map::new();
            let kind = self.graph_type(graph, &at, &mut types, rules.repeated);
            if let Some(kind) = &kind {
                entry.insert("type".to_owned(), Json::String(kind.to_string()));
            }
            // The files the graph's tasks already come from.
            let before = match &kind {
                Some(kind) if kind.is_deployment() => rules.default_files,
                _ => &[],
            };
            if let Some(name) = graph
                .get("name")
                .and_then(|n| string(n, &join_path(&at, "name"), &mut self.sink(METADATA)))
            {
                entry.insert("name".to_owned(), Json::String(name));
            }
            match (graph.get("tasks_path"), graph.get("tasks")) {
                (Some(_), Some(_)) => self.sink(METADATA).error(
                    graph.line,
                    &at,
                    "both 'tasks' and 'tasks_path' are given; use one",
                ),
                (None, None) => {
                    self.sink(METADATA)
                        .error(graph.line, &at, "missing required key 'tasks_path'")
                }
                (Some(p), None) => {
                    if let Some(Resolved::Data(tasks, trees)) =
                        self.resolve("tasks_path", p, &join_path(&at, "tasks_path"), false)
                    {
                        self.duplicate_tasks(before, &trees);
                        let tasks = if tasks.is_null() {
                            Json::Array(Vec::new())
                        } else {
                            tasks
                        };
                        entry.insert("tasks".to_owned(), tasks);
                    }
                }
                (None, Some(tasks)) => {
                    let tasks_at = join_path(&at, "tasks");
                    schema::tasks(tasks, &tasks_at, &mut self.sink(METADATA));
                    self.duplicate_tasks(before, &[(METADATA.to_owned(), tasks.clone())]);
                    let tasks = match tasks.to_json() {
                        Json::Null => Json::Array(Vec::new()),
                        tasks => tasks,
                    };
                    entry.insert("tasks".to_owned(), tasks);
                }
            }
            for other in graph.as_map().unwrap_or_default() {
                if !matches!(other.key.as_str(), "type" | "name" | "tasks" | "tasks_path") {
                    self.sink(METADATA).warning(
                        other.line,
                        &join_path(&at, &other.key),
                        format!("unknown key '{}' in a graph is ignored", other.key),
                    );
                }
            }
            out.push(Json::Object(entry));
        }
        Json::Array(out)
    }

    /// A graph record's `type`: there, a graph type, and the first record
    /// of that type (a `repeated` one is reported).
    fn graph_type(
        &mut self,
        graph: &Node,
        at: &str,
        types: &mut BTreeMap<GraphType, usize>,
        repeated: Severity,
    ) -> Option<GraphType> {
        let mut sink = self.sink(METADATA);
        let Some(node) = graph.get("type") else {
            sink.error(graph.line, at, "missing required key 'type'");
            return None;
        };
        let type_at = join_path(at, "type");
        let kind = match GraphType::new(string(node, &type_at, &mut sink)?) {
            Ok(kind) => kind,
            Err(e) => {
                sink.error(node.line, &type_at, e.to_string());
                return None;
            }
        };
        if let Some(first) = types.insert(kind.clone(), graph.line) {
            let message = match repeated {
                Severity::Warning => format!(
                    "a second graph of type '{kind}' (first on line {first}) replaces the first"
                ),
                Severity::Error => format!(
                    "a second graph of type '{kind}' (first on line {first}): give each type once"
                ),
            };
            sink.push(repeated, Some(graph.line), at, message);
        }
        Some(kind)
    }

    /// A task id given twice in one graph: within `trees` (its files
    /// together), or already in `before` (files of the same graph checked
    /// on their own).
    fn duplicate_tasks(&mut self, before: &[(String, Node)], trees: &[(String, Node)]) {
        let mut seen: BTreeMap<String, (String, usize)> = BTreeMap::new();
        for (file, tree) in before {
            for task in tree.as_seq().unwrap_or_default() {
                if let Some(id) = task.get("id").and_then(Node::as_str) {
                    seen.entry(id.to_owned())
                        .or_insert_with(|| (file.clone(), task.line));
                }
            }
        }
        for (file, tree) in trees {
            for (i, task) in tree.as_seq().unwrap_or_default().iter().enumerate() {
                let Some(id) = task.get("id").and_then(Node::as_str) else {
                    continue;
                };
                match seen.get(id) {
                    Some((first_file, first_line)) => {
                        let message = format!(
                            "task id '{id}' is defined twice (first in {first_file} line {first_line})"
                        );
                        self.sink(file)
                            .error(task.line, &format!("[{i}].id"), message);
                    }
                    None => {
                        seen.insert(id.to_owned(), (file.clone(), task.line));
                    }
                }
            }
        }
    }

    /// Resolves the `*_path` key `key` with value `node` (at YAML path
    /// `at` in metadata.yaml). `dir_expected`: only a directory makes sense.
    fn resolve(
        &mut self,
        key: &str,
        node: &Node,
        at: &str,
        dir_expected: bool,
    ) -> Option<Resolved> {
        let value = string(node, at, &mut self.sink(METADATA))?;
        let line = node.line;
        let leaves = |why: &str| format!("{key}: '{value}' leaves the package: {why}");
        let path = match confine(&value) {
            Ok(path) => path,
            Err(e) => {
                self.sink(METADATA).error(line, at, leaves(e.describe()));
                return None;
            }
        };
        let kind = path_kind(key);
        if is_glob(&path) {
            return self.resolve_glob((key, &value), &path, (line, at), kind);
        }
        match self.files.kind(&path) {
            None => {
                self.sink(METADATA).error(
                    line,
                    at,
                    format!("{key}: '{value}' does not exist in the package"),
                );
                None
            }
            Some(Kind::Outside) => {
                self.sink(METADATA).error(
                    line,
                    at,
                    leaves("it is (or goes through) a link that leads out of the package"),
                );
                None
            }
            Some(Kind::Dir) => Some(Resolved::Dir(value)),
            Some(Kind::File) if dir_expected => {
                self.sink(METADATA).error(
                    line,
                    at,
                    format!("{key}: '{value}' must be a directory, not a file"),
                );
                None
            }
            Some(Kind::File) => {
                let tree = self.data_file(&path, kind)?;
                Some(Resolved::Data(
                    data_json(kind, &path, &tree),
                    vec![(path, tree)],
                ))
            }
        }
    }

    /// One data file: parsed and checked as `kind`.
    /// A path with a glob: every file it matches, read and merged; none
    /// when it matches nothing or a match leads out of the package.
    fn resolve_glob(
        &mut self,
        (key, value): (&str, &str),
        path: &str,
        (line, at): (usize, &str),
        kind: Option<FileKind>,
    ) -> Option<Resolved> {
        let matched = glob(self.files, path);
        if matched.is_empty() {
            self.sink(METADATA).error(
                line,
                at,
                format!("{key}: '{value}' matches no file in the package"),
            );
            return None;
        }
        let mut trees = Vec::new();
        for file in &matched {
            if self.files.kind(file) == Some(Kind::Outside) {
                let why = format!("{file} is a link that leads out of the package");
                self.sink(METADATA).error(
                    line,
                    at,
                    format!("{key}: '{value}' leaves the package: {why}"),
                );
                continue;
            }
            if let Some(tree) = self.data_file(file, kind) {
                trees.push((file.clone(), tree));
            }
        }
        if trees.len() != matched.len() {
            return None;
        }
        self.merge(key, value, line, at, trees)
    }

    fn data_file(&mut self, file: &str, kind: Option<FileKind>) -> Option<Node> {
        let tree = self.parse(file)?;
        if let Some(kind) = kind {
            schema::check(kind, &tree, &mut self.sink(file));
        }
        if kind == Some(FileKind::Deployers) {
            self.deployer_mentions
                .extend(schema::deployer_mentions(&tree, file));
        }
        Some(tree)
    }

    /// Glob matches together: lists concatenated, maps merged key by key.
    fn merge(
        &mut self,
        key: &str,
        value: &str,
        line: usize,
        at: &str,
        trees: Vec<(String, Node)>,
    ) -> Option<Resolved> {
        let lists: Vec<&str> = trees
            .iter()
            .filter(|(_, t)| matches!(t.value, Value::Seq(_)))
            .map(|(f, _)| f.as_str())
            .collect();
        let maps: Vec<&str> = trees
            .iter()
            .filter(|(_, t)| matches!(t.value, Value::Map(_)))
            .map(|(f, _)| f.as_str())
            .collect();
        let others: Vec<&str> = trees
            .iter()
            .filter(|(_, t)| !matches!(t.value, Value::Seq(_) | Value::Map(_) | Value::Null))
            .map(|(f, _)| f.as_str())
            .collect();
        if !others.is_empty() || (!lists.is_empty() && !maps.is_empty()) {
            let message = format!(
                "{key}: '{value}' matches files that cannot be merged: lists in {}; maps in {}{}",
                or_none(&lists),
                or_none(&maps),
                if others.is_empty() {
                    String::new()
                } else {
                    format!("; neither in {}", others.join(", "))
                }
            );
            self.sink(METADATA).error(line, at, message);
            return None;
        }
        let data = if !maps.is_empty() {
            let mut merged = Map::new();
            for (_, tree) in &trees {
                if let Json::Object(m) = tree.to_json() {
                    merged.extend(m);
                }
            }
            Json::Object(merged)
        } else {
            Json::Array(
                trees
                    .iter()
                    .flat_map(|(f, t)| match data_json(path_kind(key), f, t) {
                        Json::Array(items) => items,
                        _ => Vec::new(),
                    })
                    .collect(),
            )
        };
        Some(Resolved::Data(data, trees))
    }

    /// Reads the fixed files into `tree`; returns `deployment_tasks.yaml`'s
    /// tree (for the checks of the `default` graph it joins).
    fn fixed_files(
        &mut self,
        package_version: &str,
        tree: &mut Map<String, Json>,
    ) -> Vec<(String, Node)> {
        let mut deployment_tasks = Vec::new();
        for (file, stored, kind, since) in FIXED_FILES {
            match self.files.kind(file) {
                None | Some(Kind::Dir) => continue,
                Some(Kind::Outside) => {
                    self.sink(file).push(
                        Severity::Error,
                        None,
                        "",
                        format!("{file} is a link that leads out of the package"),
                    );
                    continue;
                }
                Some(Kind::File) => {}
            }
            if !package_version.is_empty() && !version_at_least(package_version, since) {
                self.sink(file).push(
                    Severity::Warning,
                    None,
                    "",
                    format!("{file} is read from package version {since} on; it is ignored in {package_version}"),
                );
                continue;
            }
            if let Some(root) = self.data_file(file, Some(*kind)) {
                if *kind == FileKind::Tasks {
                    let trees = [(file.to_string(), root.clone())];
                    self.duplicate_tasks(&[], &trees);
                    deployment_tasks.extend(trees);
                }
                if !root.is_null() {
                    tree.insert(stored.to_string(), data_json(Some(*kind), file, &root));
                }
            }
        }
        if self.files.kind("tasks.yaml") == Some(Kind::File) {
            if version_at_least(package_version, "5.0.0") {
                self.sink("tasks.yaml").push(
                    Severity::Warning,
                    None,
                    "",
                    "tasks.yaml is not supported from package version 5.0.0 on and is ignored; use deployment_tasks.yaml",
                );
            } else if let Some(root) = self.parse("tasks.yaml") {
                list(&root, "", &mut self.sink("tasks.yaml"));
                tree.insert("tasks".to_owned(), root.to_json());
            }
        }
        deployment_tasks
    }
}

/// A data file's tree as JSON; a network role also records where it is
/// declared (`source`: file and line), so that an id two sources declare
/// is reported with both places.
fn data_json(kind: Option<FileKind>, file: &str, tree: &Node) -> Json {
    let mut json = tree.to_json();
    if kind != Some(FileKind::NetworkRoles) {
        return json;
    }
    if let (Value::Seq(items), Json::Array(out)) = (&tree.value, &mut json) {
        for (item, value) in items.iter().zip(out.iter_mut()) {
            if let Json::Object(map) = value {
                map.insert(
                    "source".to_owned(),
                    serde_json::json!({"file": file, "line": item.line}),
                );
            }
        }
    }
    json
}

fn text_of(node: &Node, key: &str) -> String {
    node.get(key)
        .and_then(Node::scalar_text)
        .unwrap_or_default()
}

trait OrEmpty {
    fn or_empty(self, other: impl FnOnce() -> String) -> String;
}

impl OrEmpty for String {
    fn or_empty(self, other: impl FnOnce() -> String) -> String {
        if self.is_empty() { other() } else { self }
    }
}

fn join_lines(lines: &[usize]) -> String {
    lines
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn or_none(files: &[&str]) -> String {
    if files.is_empty() {
        "none".to_owned()
    } else {
        files.join(", ")
    }
}

/// Renames record keys to the names a release is stored with; a stored
/// name given directly wins over its record spelling.
fn stored_names(mut record: Map<String, Json>) -> Map<String, Json> {
    for (from, to) in STORED_NAMES {
        if let Some(value) = record.remove(*from)
            && !record.contains_key(*to)
        {
            record.insert(to.to_string(), value);
        }
    }
    record
}

/// `over` merged into `base`: maps key by key, recursively; anything else
/// replaced.
pub(crate) fn deep_merge(base: &mut Map<String, Json>, over: Map<String, Json>) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(Json::Object(b)), Json::Object(o)) => deep_merge(b, o),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}
