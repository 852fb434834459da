//! An environment exported for a deployer (SEMANTICS §12), from what
//! Mosaic already worked out: each node's effective tags (its primaries
//! included), its addresses and its interfaces' layout, the VIPs, the
//! components, settings and networking parameters. Refused with every
//! problem at once when something has no equivalent there; nothing is
//! partial. `hand_off.rs` prepares the hosts' disks, `write.rs` writes the
//! files, `kolla.rs` holds what is kolla-ansible's alone (its host
//! variables, its README), `problem.rs` says why an export is refused; the
//! deployer data they read is `crate::deployer`'s.

mod hand_off;
mod kolla;
mod problem;
mod write;

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use hand_off::{
    HostDisks, PLAYBOOK, PreparedDisk, PreparedGroup, PreparedPartition, PreparedVolume,
};
pub use problem::{ExportProblem, ExportProblemKind, ExportRefusal, Subject};

use crate::deployer::{
    Computed, DeployedService, Deployer, DeployerSummary, Expression, Known, Part, Template,
};
use crate::disks::VolumesMetadata;
use crate::environment::{EnvTab, Environment};
use crate::expr::JsonModels;
use crate::name::TagName;
use crate::network::NetworkConfiguration;
use crate::network::metadata::MANAGEMENT;
use crate::tag::NodeTags;
use hand_off::{HandOff, hand_off};
use problem::{listed, problem, problem_on, reads, tab_read_by};
use write::{Inventory, globals_yaml, ini, prepare_disks};

/// One host of the export: its node, its host name, every group it is in
/// (directly or through a group's children), the groups that list it by
/// name (`placed`: those its tags place, a role of one's own) and its
/// host variables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExportHost {
    pub node: i64,
    pub name: String,
    pub groups: Vec<String>,
    /// The groups that list the host itself, in the inventory's order; the
    /// others of `groups` follow from them through children (the services
    /// they bring).
    #[serde(default)]
    pub placed: Vec<String>,
    /// The services the deployer runs there (the deployer data's
    /// `services`), in the data's order.
    #[serde(default)]
    pub services: Vec<String>,
    pub vars: BTreeMap<String, String>,
}

impl ExportHost {
    /// The services it runs, compactly: two or more sharing a first word
    /// written once (`nova (api, conductor, scheduler)`; the service named
    /// by the word alone as itself: `keystone (keystone, ssh, fernet)`), in
    /// the data's order.
    pub fn services_summary(&self) -> String {
        let mut families: Vec<(&str, Vec<&str>)> = Vec::new();
        for service in &self.services {
            let family = service.split_once('-').map_or(service.as_str(), |(f, _)| f);
            match families.iter_mut().find(|(f, _)| *f == family) {
                Some((_, members)) => members.push(service),
                None => families.push((family, vec![service])),
            }
        }
        families
            .iter()
            .map(|(family, members)| match members.as_slice() {
                [one] => (*one).to_owned(),
                _ => {
                    let short: Vec<&str> = members
                        .iter()
                        .map(|m| {
                            m.strip_prefix(family)
                                .and_then(|r| r.strip_prefix('-'))
                                .unwrap_or(m)
                        })
                        .collect();
                    format!("{family} ({})", short.join(", "))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The export: the deployer and its series, the files (path → text), the
/// hosts, and what has no effect there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Export {
    pub deployer: String,
    pub series: String,
    pub openstack_release: String,
    /// Path → text: `inventory`, `globals.yml`, `config/…`,
    /// `prepare-disks.yml` (when a host's disks are prepared), `README.md`.
    pub files: BTreeMap<String, String>,
    pub hosts: Vec<ExportHost>,
    pub warnings: Vec<String>,
}

/// Whether `name` is a host name (RFC 1123): dot-separated labels of 1–63
/// letters, digits and `-`, neither starting nor ending with `-`.
pub fn valid_host_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

impl Environment<'_> {
    /// The deployers its release declares, each with its series.
    pub fn deployers(&self) -> Vec<DeployerSummary> {
        self.release
            .deployers_metadata
            .0
            .iter()
            .filter(|d| Known::named(&d.name).is_some())
            .map(|d| DeployerSummary {
                name: d.name.clone(),
                series: d.series.clone(),
                openstack_release: d.openstack_release.clone(),
            })
            .collect()
    }

    /// Deployer `name` as the release declares it with the enabled
    /// plugins' entries added; `None` when the release declares none of
    /// that name that Mosaic knows ([`Known`]: a release's loading refuses
    /// any other).
    pub fn deployer(&self, name: &str) -> Option<Deployer> {
        Known::named(name)?;
        let mut deployer = self.release.deployers_metadata.get(name)?.clone();
        for plugin in self.enabled_plugins() {
            if let Some(extension) = plugin.deployers_metadata.get(name) {
                deployer = deployer.with(extension);
            }
        }
        Some(deployer)
    }

    /// The environment exported for deployer `name` (`None`: the release
    /// declares no such deployer). Its nodes must carry their addresses.
    pub fn export_to(&self, name: &str) -> Option<Result<Export, ExportRefusal>> {
        let known = Known::named(name)?;
        let deployer = self.deployer(name)?;
        Some(Exporting::new(self, &deployer, known).and_then(|e| e.export()))
    }
}

/// What an export works with.
struct Exporting<'e, 'a> {
    env: &'e Environment<'a>,
    deployer: &'e Deployer,
    /// Whose particulars the files take.
    known: Known,
    config: NetworkConfiguration,
    models: JsonModels,
    /// The nodes exported (not pending deletion), with their effective tags.
    nodes: Vec<(&'e NodeTags, Vec<TagName>)>,
}

impl Export {
    /// The indices of the hosts whose name holds `text`, any case (the node
    /// table's name filter): all of them for empty text.
    pub fn hosts_named(&self, text: &str) -> Vec<usize> {
        self.hosts
            .iter()
            .enumerate()
            .filter(|(_, h)| crate::nodes::name_matches(text, &h.name))
            .map(|(i, _)| i)
            .collect()
    }
}

/// Host name → its host variables.
type HostVars = BTreeMap<String, BTreeMap<String, String>>;

impl<'e, 'a> Exporting<'e, 'a> {
    fn new(
        env: &'e Environment<'a>,
        deployer: &'e Deployer,
        known: Known,
    ) -> Result<Self, ExportRefusal> {
        // The release's data at fault: no tab of the environment fixes it.
        let (config, _) = env.network_configuration().map_err(|e| ExportRefusal {
            deployer: deployer.name.clone(),
            problems: vec![problem(
                ExportProblemKind::ReleaseNetworks,
                e.to_string(),
                None,
            )],
        })?;
        let mut models = env.models().clone();
        let vips: Map<String, Value> = config
            .vips
            .iter()
            .map(|(name, vip)| (name.clone(), Value::from(vip.ipaddr.to_string())))
            .collect();
        if let Value::Object(params) = &mut models.networking_parameters {
            params.insert("vips".to_owned(), Value::Object(vips));
        }
        let nodes = env
            .spec
            .nodes
            .iter()
            .zip(env.effective_tags())
            .filter(|(n, _)| !n.pending_deletion)
            .collect();
        Ok(Exporting {
            env,
            deployer,
            known,
            config,
            models,
            nodes,
        })
    }

    fn export(self) -> Result<Export, ExportRefusal> {
        let mut problems = self.unsupported();
        problems.extend(self.node_problems());
        let (meta, mut more, unknown_disks) = self.disks();
        problems.append(&mut more);
        let hand_off = meta.as_ref().map(|m| self.hand_off(m)).unwrap_or_default();
        problems.extend(hand_off.problems.iter().cloned());
        let (placements, mut more) = self.placements();
        problems.append(&mut more);
        let (globals, mut more) = self.computed(&self.deployer.globals);
        problems.append(&mut more);
        let (overrides, mut more) = self.overrides();
        problems.append(&mut more);
        let (services, mut more) = self.services(&globals);
        problems.append(&mut more);
        if !problems.is_empty() {
            return Err(ExportRefusal {
                deployer: self.deployer.name.clone(),
                problems,
            });
        }
        let vars: HostVars = self
            .nodes
            .iter()
            .map(|(n, _)| {
                let name = n.display_name();
                let mut vars = self.host_vars(n);
                vars.extend(hand_off.vars.get(&name).cloned().unwrap_or_default());
                (name, vars)
            })
            .collect();
        let inventory = self.inventory(&placements);
        let mut warnings = self.warnings(&inventory);
        warnings.extend(unknown_disks_warning(&unknown_disks));
        warnings.extend(hand_off.warnings.iter().cloned());
        let mut files = BTreeMap::new();
        files.insert("inventory".to_owned(), inventory.text(self.header(), &vars));
        let globals = globals.into_iter().map(|(entry, value)| {
            let form = entry.booleans.as_ref().or(self.deployer.booleans.as_ref());
            (entry.name.clone(), written(form, value))
        });
        let globals = globals_yaml(&self.header(), self.globals_note(), globals);
        files.insert("globals.yml".to_owned(), globals);
        files.extend(overrides);
        let prepares = !hand_off.hosts.is_empty();
        if prepares {
            let playbook = prepare_disks(&self.header(), &hand_off.hosts);
            files.insert(PLAYBOOK.to_owned(), playbook);
        }
        files.insert("README.md".to_owned(), self.readme(prepares));
        Ok(Export {
            deployer: self.deployer.name.clone(),
            series: self.deployer.series.clone(),
            openstack_release: self.deployer.openstack_release.clone(),
            hosts: self.hosts(&inventory, vars, &services),
            files,
            warnings,
        })
    }

    fn header(&self) -> String {
        format!(
            "Environment '{}' for {} {} (OpenStack {}), written by Mosaic.",
            self.env.spec.name,
            self.deployer.name,
            self.deployer.series,
            self.deployer.openstack_release
        )
    }

    fn holds(&self, condition: &Expression) -> Result<bool, String> {
        (condition.expr())
            .holds(&self.models, true)
            .map_err(|e| e.message)
    }

    /// Whether an optional condition holds (always without one).
    fn holds_if(&self, condition: Option<&Expression>) -> Result<bool, String> {
        condition.map_or(Ok(true), |c| self.holds(c))
    }

    /// Components chosen, roles held and settings set that have no
    /// equivalent, each with why.
    fn unsupported(&self) -> Vec<ExportProblem> {
        let u = &self.deployer.unsupported;
        let mut out = Vec::new();
        let chosen = self.env.selected_names();
        for rule in &u.components {
            for name in chosen.iter().filter(|c| rule.name.matches(c)) {
                out.push(problem(
                    ExportProblemKind::UnsupportedComponent,
                    format!("component '{name}': {}", rule.reason),
                    Some(Subject::Component(name.to_string())),
                ));
            }
        }
        for rule in &u.roles {
            let holders: Vec<String> = self
                .nodes
                .iter()
                .filter(|(n, _)| n.all_roles().any(|r| *r == rule.name))
                .map(|(n, _)| n.display_name())
                .collect();
            if !holders.is_empty() {
                out.push(problem(
                    ExportProblemKind::UnsupportedRole,
                    format!(
                        "role '{}' (held by {}): {}",
                        rule.name,
                        holders.join(", "),
                        rule.reason
                    ),
                    Some(Subject::Role(rule.name.to_string())),
                ));
            }
        }
        for rule in &u.settings {
            match self.holds(&rule.when) {
                Ok(false) => {}
                Ok(true) => out.push(problem(
                    ExportProblemKind::UnsupportedSetting,
                    format!("setting '{}': {}", rule.setting, rule.reason),
                    Some(Subject::Setting(rule.setting.clone())),
                )),
                Err(e) => out.push(problem(
                    ExportProblemKind::Condition,
                    format!(
                        "setting '{}': its condition cannot be evaluated: {e}",
                        rule.setting
                    ),
                    Some(Subject::Setting(rule.setting.clone())),
                )),
            }
        }
        out
    }

    /// Nodes whose name is no host name, that share a name, or that have no
    /// management address.
    fn node_problems(&self) -> Vec<ExportProblem> {
        let mut out = Vec::new();
        let mut seen: BTreeMap<String, i64> = BTreeMap::new();
        for (node, _) in &self.nodes {
            let name = node.display_name();
            let subject = Some(Subject::Node(node.id));
            if !valid_host_name(&name) {
                out.push(problem(
                    ExportProblemKind::HostName,
                    format!("node '{name}': its name is not a valid host name (letters, digits, '-' and '.', labels of at most 63 characters, no '-' at either end)"),
                    subject.clone(),
                ));
            }
            if let Some(other) = seen.insert(name.to_ascii_lowercase(), node.id) {
                out.push(problem(
                    ExportProblemKind::SameHostName,
                    format!("node '{name}': node {other} has the same host name"),
                    subject.clone(),
                ));
            }
            if !node.addresses.contains_key(MANAGEMENT) {
                out.push(problem_on(
                    ExportProblemKind::NoManagementAddress,
                    Some(EnvTab::Networks),
                    format!("node '{name}': it has no management address (ansible_host); see the environment's network checks"),
                    subject,
                ));
            }
        }
        out
    }

    /// The volumes metadata, with every node short of disk space (Fuel's
    /// lines, fixed on Configure Disks) or, when it cannot be merged, its
    /// problems; and the names of the nodes whose disks are unknown.
    fn disks(&self) -> (Option<VolumesMetadata>, Vec<ExportProblem>, Vec<String>) {
        let meta = match self.env.volumes_metadata() {
            Ok(meta) => meta,
            Err(errors) => {
                let problems = errors
                    .iter()
                    .map(|e| problem(ExportProblemKind::Disks, format!("disks: {e}"), None))
                    .collect();
                return (None, problems, Vec::new());
            }
        };
        let (short, unknown) = self.env.disk_shortages(&meta);
        let problems = short
            .iter()
            .map(|s| {
                let node = Some(Subject::Node(s.node_id));
                problem_on(
                    ExportProblemKind::DiskSpace,
                    Some(EnvTab::Disks),
                    s.message(),
                    node,
                )
            })
            .collect();
        let unknown = unknown.iter().map(|n| n.display_name()).collect();
        (Some(meta), problems, unknown)
    }

    /// What the nodes' disk layouts hand to the deployer (SEMANTICS §14).
    fn hand_off(&self, meta: &VolumesMetadata) -> HandOff {
        let laid_out = self.nodes.iter().filter_map(|(n, _)| {
            let layout = n.disks.as_ref().filter(|l| !l.disks.is_empty())?;
            Some((n.display_name(), layout))
        });
        hand_off(&self.deployer.disks, meta, laid_out, &|w| self.holds(w))
    }

    /// The groups each tag places here (tag, group): those without a
    /// condition and those whose condition holds, with every condition that
    /// cannot be evaluated.
    fn placements(&self) -> (Vec<(&'e str, &'e str)>, Vec<ExportProblem>) {
        let mut out = Vec::new();
        let mut problems = Vec::new();
        for (tag, list) in &self.deployer.tags {
            for placement in list {
                match self.holds_if(placement.when.as_ref()) {
                    Ok(true) => out.push((tag.as_str(), placement.group.as_str())),
                    Ok(false) => {}
                    Err(e) => problems.push(problem(
                        ExportProblemKind::Condition,
                        format!(
                            "tag '{tag}' placing group '{}': its condition cannot be evaluated: {e}",
                            placement.group
                        ),
                        None,
                    )),
                }
            }
        }
        (out, problems)
    }

    /// `entries` worked out: each with its value (booleans as such), with
    /// every entry that cannot be.
    fn computed(
        &self,
        entries: &'e [Computed],
    ) -> (Vec<(&'e Computed, Value)>, Vec<ExportProblem>) {
        let mut values = Vec::new();
        let mut problems = Vec::new();
        for entry in entries {
            match self.value_of(entry) {
                Ok(Some(value)) => values.push((entry, value)),
                Ok(None) => {}
                Err(e) => problems.push(problem_on(
                    ExportProblemKind::Value,
                    reads(entry),
                    format!("{}: {e}", entry.name),
                    None,
                )),
            }
        }
        (values, problems)
    }

    /// An entry's value (`None` when its `when` does not hold).
    fn value_of(&self, entry: &Computed) -> Result<Option<Value>, String> {
        if !self.holds_if(entry.when.as_ref())? {
            return Ok(None);
        }
        if let Some(template) = &entry.template {
            return self.filled(template).map(Some);
        }
        Ok(Some(match &entry.value {
            Some(expression) => self.value(expression)?,
            None => Value::Null,
        }))
    }

    /// An expression's value.
    fn value(&self, expression: &Expression) -> Result<Value, String> {
        let value = expression
            .expr()
            .eval(&self.models)
            .map_err(|e| e.message)?;
        Ok(value.to_json())
    }

    /// `template` with every string in it filled.
    fn filled(&self, template: &Template) -> Result<Value, String> {
        Ok(match template {
            Template::Text(parts) => Value::String(self.fill(parts)?),
            Template::List(items) => Value::Array(
                items
                    .iter()
                    .map(|i| self.filled(i))
                    .collect::<Result<_, _>>()?,
            ),
            Template::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| Ok((k.clone(), self.filled(v)?)))
                    .collect::<Result<_, String>>()?,
            ),
            Template::Plain(value) => value.clone(),
        })
    }

    /// A template's string with each `{expression}` replaced by its value.
    fn fill(&self, parts: &[Part]) -> Result<String, String> {
        let mut out = String::new();
        for part in parts {
            match part {
                Part::Literal(text) => out.push_str(text),
                Part::Expression(expression) => match self.value(expression)? {
                    Value::String(s) => out.push_str(&s),
                    Value::Null => {}
                    other => out.push_str(&other.to_string()),
                },
            }
        }
        Ok(out)
    }

    /// The configuration files: file → text.
    fn overrides(&self) -> (BTreeMap<String, String>, Vec<ExportProblem>) {
        let mut problems = Vec::new();
        let mut files: BTreeMap<String, Vec<(String, String, String)>> = BTreeMap::new();
        for entry in &self.deployer.overrides {
            match self.value_of(&entry.key) {
                Ok(Some(value)) => {
                    let text = match written(entry.key.booleans.as_ref(), value) {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    files.entry(entry.file.clone()).or_default().push((
                        entry.section.clone(),
                        entry.key.name.clone(),
                        text,
                    ));
                }
                Ok(None) => {}
                Err(e) => problems.push(problem_on(
                    ExportProblemKind::Value,
                    reads(&entry.key),
                    format!("{} [{}] {}: {e}", entry.file, entry.section, entry.key.name),
                    None,
                )),
            }
        }
        let texts = files
            .into_iter()
            .map(|(file, keys)| (file, ini(&self.header(), &keys)))
            .collect();
        (texts, problems)
    }

    /// Each node's host variables, as the deployer's inventory takes them.
    fn host_vars(&self, node: &NodeTags) -> BTreeMap<String, String> {
        match self.known {
            Known::KollaAnsible => kolla::host_vars(self.env, &self.config, node),
        }
    }

    /// The inventory: the series' skeleton with each placed group listing
    /// the nodes carrying its tag (the primary first), and a group for each
    /// role of one's own.
    fn inventory(&self, placements: &[(&str, &str)]) -> Inventory {
        let mut placed: BTreeMap<&str, Vec<&NodeTags>> = BTreeMap::new();
        for (tag, group) in placements {
            let primary = format!("primary-{tag}");
            let mut carriers: Vec<(&NodeTags, bool)> = self
                .nodes
                .iter()
                .filter(|(_, tags)| tags.iter().any(|t| t.as_str() == *tag))
                .map(|(n, tags)| (*n, tags.iter().any(|t| t.as_str() == primary)))
                .collect();
            carriers.sort_by_key(|(n, primary)| (!primary, n.id));
            let list = placed.entry(group).or_default();
            for (node, _) in carriers {
                if !list.iter().any(|n| n.id == node.id) {
                    list.push(node);
                }
            }
        }
        let own: Vec<(String, Vec<&NodeTags>)> = self
            .env
            .roles()
            .iter()
            .filter(|r| {
                self.env
                    .role_origin(&r.id)
                    .is_some_and(|o| o.created.is_some())
            })
            .map(|r| {
                let holders = self
                    .nodes
                    .iter()
                    .filter(|(n, _)| n.all_roles().any(|x| x == &r.id))
                    .map(|(n, _)| *n)
                    .collect();
                (r.id.to_string(), holders)
            })
            .collect();
        Inventory::build(self.deployer, &placed, &own)
    }

    /// The services that run here (the global enabling them is true and
    /// their `when` holds, given the `globals` worked out), with every
    /// condition that cannot be evaluated and every group no inventory of
    /// the series has.
    fn services(
        &self,
        globals: &[(&Computed, Value)],
    ) -> (Vec<&'e DeployedService>, Vec<ExportProblem>) {
        let mut out = Vec::new();
        let mut problems = Vec::new();
        let known = |group: &str| self.deployer.inventory.iter().any(|g| g.group == group);
        for service in &self.deployer.services {
            if let Some(group) = service.group_names().find(|g| !known(g)) {
                problems.push(problem(
                    ExportProblemKind::UnknownGroup,
                    format!(
                        "service '{}': group '{group}' is no group of the inventory",
                        service.service
                    ),
                    None,
                ));
                continue;
            }
            let runs = self
                .enabled(service, globals)
                .and_then(|on| Ok(on && self.holds_if(service.when.as_ref())?));
            match runs {
                Ok(true) => out.push(service),
                Ok(false) => {}
                Err(e) => problems.push(problem_on(
                    ExportProblemKind::Condition,
                    tab_read_by(&service.when),
                    format!(
                        "service '{}': its condition cannot be evaluated: {e}",
                        service.service
                    ),
                    None,
                )),
            }
        }
        (out, problems)
    }

    /// Whether the global enabling `service` is true (always without one;
    /// false when the global's own `when` leaves it out).
    fn enabled(
        &self,
        service: &DeployedService,
        globals: &[(&Computed, Value)],
    ) -> Result<bool, String> {
        let Some(name) = &service.enabled_by else {
            return Ok(true);
        };
        if !self.deployer.globals.iter().any(|g| &g.name == name) {
            return Err(format!("global '{name}' enabling it is not declared"));
        }
        match globals.iter().find(|(g, _)| &g.name == name) {
            None => Ok(false),
            Some((_, Value::Bool(on))) => Ok(*on),
            Some((_, other)) => Err(format!(
                "global '{name}' enabling it is {other}, not a boolean"
            )),
        }
    }

    fn hosts(
        &self,
        inventory: &Inventory,
        mut vars: HostVars,
        services: &[&DeployedService],
    ) -> Vec<ExportHost> {
        let mut membership = inventory.membership();
        let mut placed = inventory.placed();
        // Hosts in the same groups run the same services: worked out once
        // for each set of groups (a few, however many nodes).
        let mut by_groups: HashMap<Vec<String>, Vec<String>> = HashMap::new();
        self.nodes
            .iter()
            .map(|(node, _)| {
                let name = node.display_name();
                let groups = membership.remove(&name).unwrap_or_default();
                let running = match by_groups.get(&groups) {
                    Some(running) => running.clone(),
                    None => {
                        let running = running_on(&groups, services);
                        by_groups.insert(groups.clone(), running.clone());
                        running
                    }
                };
                ExportHost {
                    node: node.id,
                    groups,
                    services: running,
                    placed: placed.remove(&name).unwrap_or_default(),
                    vars: vars.remove(&name).unwrap_or_default(),
                    name,
                }
            })
            .collect()
    }

    /// What has no effect there, nodes without interfaces, tags that
    /// place nothing, and nodes the inventory leaves out.
    fn warnings(&self, inventory: &Inventory) -> Vec<String> {
        let mut out = Vec::new();
        for rule in &self.deployer.no_effect {
            if self.holds(&rule.when).unwrap_or(false) {
                out.push(format!("setting '{}': {}", rule.setting, rule.reason));
            }
        }
        let bare: Vec<String> = self
            .nodes
            .iter()
            .filter(|(n, _)| n.interfaces.as_ref().is_none_or(|i| i.is_empty()))
            .map(|(n, _)| n.display_name())
            .collect();
        if !bare.is_empty() {
            out.push(format!(
                "{} declare{} no interfaces ({}): {}",
                crate::text::counted(bare.len(), "node"),
                crate::text::agree(bare.len(), "s", ""),
                listed(&bare),
                match self.known {
                    Known::KollaAnsible => kolla::BARE_NODES,
                }
            ));
        }
        let mut unplaced: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (node, tags) in &self.nodes {
            for tag in tags.iter().filter(|t| !t.as_str().starts_with("primary-")) {
                let base = tag.instance_of().unwrap_or(tag.as_str());
                if !self.deployer.tags.contains_key(base)
                    && !self.deployer.tags.contains_key(tag.as_str())
                {
                    unplaced
                        .entry(tag.to_string())
                        .or_default()
                        .push(node.display_name());
                }
            }
        }
        for (tag, nodes) in unplaced {
            out.push(format!(
                "tag '{tag}' places no {} group; its nodes ({}) get none of its services there",
                self.deployer.name,
                listed(&nodes)
            ));
        }
        let placed = inventory.host_names();
        let lost: Vec<String> = self
            .nodes
            .iter()
            .map(|(n, _)| n.display_name())
            .filter(|name| !placed.contains(name.as_str()))
            .collect();
        if !lost.is_empty() {
            out.push(format!(
                "nodes in no {} group, left out of the inventory: {}",
                self.deployer.name,
                listed(&lost)
            ));
        }
        out
    }

    /// The README of what to run next.
    fn readme(&self, prepares: bool) -> String {
        let d = self.deployer;
        match self.known {
            Known::KollaAnsible => {
                kolla::readme(&self.header(), &d.series, &d.openstack_release, prepares)
            }
        }
    }

    /// The note `globals.yml` carries under its header.
    fn globals_note(&self) -> &'static str {
        match self.known {
            Known::KollaAnsible => kolla::GLOBALS_NOTE,
        }
    }
}

/// A value as the deployer's files write it: a boolean in `form` (`[true's,
/// false's]`) when there is one.
fn written(form: Option<&[String; 2]>, value: Value) -> Value {
    match (form, value) {
        (Some([yes, no]), Value::Bool(b)) => Value::from(if b { yes } else { no }.as_str()),
        (_, value) => value,
    }
}

/// The services a host in `groups` runs, each once, in the data's order.
fn running_on(groups: &[String], services: &[&DeployedService]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in services.iter().filter(|s| s.maps_to(groups)) {
        if !out.contains(&s.service) {
            out.push(s.service.clone());
        }
    }
    out
}

/// The warning for nodes whose disks are unknown, if any.
fn unknown_disks_warning(names: &[String]) -> Option<String> {
    let n = names.len();
    (n > 0).then(|| {
        format!(
            "{} {} no known disks ({}): {} volumes are not checked, and {PLAYBOOK} prepares nothing there",
            crate::text::counted(n, "node"),
            crate::text::agree(n, "has", "have"),
            listed(names),
            crate::text::agree(n, "its", "their"),
        )
    })
}
