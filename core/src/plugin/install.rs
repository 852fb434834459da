//! What an install checks against what is already installed (SEMANTICS
//! §2.2, §4, §7.5): a component, role or volume defined twice for one
//! release, a release or plugin version installed twice, volume mappings
//! naming volumes that exist nowhere.

use std::collections::BTreeSet;

use crate::component::ComponentName;
use crate::release::Release;

use super::report::Diagnostic;
use super::{Mentioned, Package, Severity};

/// The installed plugins, each with the releases it ships.
#[derive(Debug, Clone, Copy)]
pub struct Installed<'a> {
    pub plugins: &'a [Package],
}

fn warning(file: &str, message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        ..error(file, message)
    }
}

/// The plugin's components that bind settings neither `release` nor the
/// plugin's own group have.
fn bind_warnings(new: &Package, release: &Release) -> Vec<Diagnostic> {
    let group = crate::settings::PluginGroup {
        name: new.name.as_str(),
        title: &new.title,
        version: new.version.as_str(),
        attributes: &new.attributes_metadata.group,
    };
    let settings =
        crate::settings::Settings::defaults(&release.attributes_metadata.editable, &[group]);
    crate::settings::unknown_binds(&settings.tree, &new.components_metadata)
        .into_iter()
        .map(|(component, target)| {
            warning(
                "components.yaml",
                format!(
                    "component '{component}' binds '{target}', which neither release '{}' nor the plugin defines; the bind does nothing there",
                    release.label()
                ),
            )
        })
        .collect()
}

/// The plugin's relations that name components nothing declares for
/// `release` (the release, the plugin, the other plugins extending it),
/// with the closest declared names: `hypervisor:kvm` where the release has
/// `hypervisor:libvirt:kvm` is almost always a typo that makes a relation
/// silently void.
fn mention_warnings(new: &Package, release: &Release, others: &[&Package]) -> Vec<Diagnostic> {
    let declared: Vec<&ComponentName> = release
        .components_metadata
        .iter()
        .chain(&new.components_metadata)
        .chain(
            others
                .iter()
                .filter(|p| !p.is_release_plugin() && p.extends(release))
                .flat_map(|p| p.components_metadata.iter()),
        )
        .map(|c| &c.name)
        .collect();
    let mut out = Vec::new();
    for component in &new.components_metadata {
        for (relation, pattern) in component.mentions() {
            if declared.iter().any(|d| pattern.matches(d)) {
                continue;
            }
            let closest = closest_names(pattern.as_str(), &declared);
            let hint = if closest.is_empty() {
                String::new()
            } else {
                format!("; did you mean {}?", closest.join(" or "))
            };
            out.push(warning(
                "components.yaml",
                format!(
                    "component '{}' names '{pattern}' in {relation}, but no component of release '{}' or its plugins is called that{hint}",
                    component.name,
                    release.label()
                ),
            ));
        }
    }
    out
}

/// Up to three declared names of the pattern's type that look most like
/// it: those ending in the same segment when there are any, else those
/// within half their length in edit distance, nearest first.
fn closest_names(pattern: &str, declared: &[&ComponentName]) -> Vec<String> {
    let kind = pattern.split(':').next().unwrap_or_default();
    let last = pattern.rsplit(':').next().unwrap_or_default();
    let mut ranked: Vec<(bool, usize, &str)> = declared
        .iter()
        .map(|d| d.as_str())
        .filter(|d| d.split(':').next() == Some(kind))
        .map(|d| {
            let same_end = d.rsplit(':').next() == Some(last);
            (!same_end, edit_distance(pattern, d), d)
        })
        .filter(|(other_end, distance, d)| {
            !other_end || *distance <= d.len().max(pattern.len()) / 2
        })
        .collect();
    ranked.sort();
    ranked.dedup_by(|a, b| a.2 == b.2);
    // A name ending the same way is the likely one: the others are noise.
    if ranked.first().is_some_and(|(other_end, _, _)| !other_end) {
        ranked.retain(|(other_end, _, _)| !other_end);
    }
    ranked
        .into_iter()
        .take(3)
        .map(|(_, _, d)| format!("'{d}'"))
        .collect()
}

/// Levenshtein distance over bytes (component names are ASCII).
fn edit_distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

fn error(file: &str, message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        file: file.to_owned(),
        line: None,
        path: None,
        message,
    }
}

/// Every reason `new` cannot be installed next to `installed`; warnings for
/// what is odd but allowed (an extension no installed release can use).
pub fn check_install(new: &Package, installed: Installed<'_>) -> Vec<Diagnostic> {
    // Versions of one plugin install side by side (§7.6): an environment
    // is built from one of them, never from two, so another version of
    // the same plugin is not compared against.
    let others: Vec<&Package> = installed
        .plugins
        .iter()
        .filter(|p| p.name != new.name)
        .collect();
    let releases: Vec<(&Package, &Release)> = others
        .iter()
        .flat_map(|p| p.releases().map(move |r| (*p, r)))
        .collect();
    let mut out = installed_twice(new, installed, &releases);
    if new.is_release_plugin() {
        return out;
    }
    let targets: Vec<&(&Package, &Release)> =
        releases.iter().filter(|(_, r)| new.extends(r)).collect();
    if targets.is_empty() {
        out.push(Diagnostic {
            path: Some("releases".to_owned()),
            ..warning(
                "metadata.yaml",
                "no installed release is compatible with this plugin; it will not be offered until one is".to_owned(),
            )
        });
    }
    for (owner, release) in targets {
        out.extend(bind_warnings(new, release));
        out.extend(mention_warnings(new, release, &others));
        let neighbours: Vec<&Package> = others
            .iter()
            .copied()
            .filter(|p| !p.is_release_plugin() && p.extends(release))
            .collect();
        let release_source = format!("release '{}' ({})", release.label(), owner.source());
        out.extend(component_collisions(
            new,
            (&release_source, release),
            &neighbours,
        ));
        out.extend(role_and_volume_collisions(
            new,
            (&release_source, release),
            &neighbours,
        ));
        out.extend(network_role_collisions(
            new,
            (&release_source, release),
            &neighbours,
        ));
        out.extend(unknown_mapped_volumes(new, release));
        out.extend(unknown_deployer_mentions(new, release));
    }
    out
}

/// The groups and globals the plugin's deployer entries name that
/// `release`'s deployer of that name does not have (a global of the
/// plugin's own entry counts): an export would refuse every environment
/// using them, so the install refuses the plugin. (Entries for a deployer
/// the release does not declare are never read.)
fn unknown_deployer_mentions(new: &Package, release: &Release) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for mention in &new.deployer_mentions {
        let Some(deployer) = release.deployers_metadata.get(&mention.deployer) else {
            continue;
        };
        let name = mention.name.as_str();
        let (known, list) = match mention.what {
            Mentioned::Group => (
                deployer.inventory.iter().any(|g| g.group == name),
                "inventory",
            ),
            Mentioned::Global => {
                let own = new.deployers_metadata.get(&mention.deployer);
                let mut globals =
                    (deployer.globals.iter()).chain(own.iter().flat_map(|d| &d.globals));
                (globals.any(|g| g.name == name), "globals")
            }
        };
        let what = mention.what.word();
        if !known {
            out.push(Diagnostic {
                severity: Severity::Error,
                file: mention.file.clone(),
                line: Some(mention.line),
                path: Some(mention.path.clone()),
                message: format!(
                    "{what} '{name}' is no {what} of release '{}''s {} {list}",
                    release.label(),
                    mention.deployer,
                ),
            });
        }
    }
    out
}

/// This version of the plugin, or a release it ships, installed already.
fn installed_twice(
    new: &Package,
    installed: Installed<'_>,
    releases: &[(&Package, &Release)],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if installed
        .plugins
        .iter()
        .any(|p| p.name == new.name && p.version == new.version)
    {
        out.push(error(
            "metadata.yaml",
            format!("{} is already installed", new.source()),
        ));
    }
    for release in new.releases() {
        for (owner, existing) in releases {
            if existing.name == release.name && existing.version == release.version {
                out.push(error(
                    "metadata.yaml",
                    format!(
                        "release '{}' is already installed by {}",
                        release.label(),
                        owner.source()
                    ),
                ));
            }
        }
    }
    out
}

/// Components (§2.2) the release or a neighbour defines too: one error per
/// name and source, naming both sources.
fn component_collisions(
    new: &Package,
    (release_source, release): (&str, &Release),
    neighbours: &[&Package],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for component in &new.components_metadata {
        let name = &component.name;
        if release.components_metadata.iter().any(|c| &c.name == name) {
            out.push(error(
                "components.yaml",
                format!(
                    "component '{name}' is defined by both {release_source} and {}",
                    new.source()
                ),
            ));
        }
        for other in neighbours {
            if other.components_metadata.iter().any(|c| &c.name == name) {
                out.push(error(
                    "components.yaml",
                    format!(
                        "component '{name}' is defined by both {} and {} (both extend release '{}')",
                        other.source(),
                        new.source(),
                        release.label()
                    ),
                ));
            }
        }
    }
    out
}

/// Roles and volumes (§4) the release or a neighbour defines too: one error
/// per source and file, listing every name.
fn role_and_volume_collisions(
    new: &Package,
    (release_source, release): (&str, &Release),
    neighbours: &[&Package],
) -> Vec<Diagnostic> {
    let role_names = |roles: &crate::role::Roles| -> Vec<String> {
        roles.names().map(ToString::to_string).collect()
    };
    let roles = role_names(&new.roles_metadata);
    let volumes = new.volume_ids();
    let against = std::iter::once((
        release_source.to_owned(),
        role_names(&release.roles_metadata),
        release.volume_ids(),
    ))
    .chain(neighbours.iter().map(|other| {
        (
            other.source(),
            role_names(&other.roles_metadata),
            other.volume_ids(),
        )
    }));
    let mut out = Vec::new();
    for (source, their_roles, their_volumes) in against {
        let r = shared_names(&roles, &their_roles);
        if !r.is_empty() {
            out.push(error(
                "node_roles.yaml",
                format!("roles already defined by {source}: {}", r.join(", ")),
            ));
        }
        let v = shared_names(&volumes, &their_volumes);
        if !v.is_empty() {
            out.push(error(
                "volumes.yaml",
                format!("volumes already defined by {source}: {}", v.join(", ")),
            ));
        }
    }
    out
}

/// The names of `mine` that `theirs` has too, in `mine`'s order.
fn shared_names(mine: &[String], theirs: &[String]) -> Vec<String> {
    let theirs: BTreeSet<&String> = theirs.iter().collect();
    mine.iter()
        .filter(|n| theirs.contains(n))
        .cloned()
        .collect()
}

/// Volume mappings may name the release's volumes; each named must exist,
/// in the plugin or in `release`.
fn unknown_mapped_volumes(new: &Package, release: &Release) -> Vec<Diagnostic> {
    let known: BTreeSet<String> = new
        .volume_ids()
        .into_iter()
        .chain(release.volume_ids())
        .collect();
    let Some(mapping) = new.volumes_metadata["volumes_roles_mapping"].as_object() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (role, list) in mapping {
        let ids = list
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v["id"].as_str());
        for id in ids.filter(|id| !known.contains(*id)) {
            out.push(error(
                "volumes.yaml",
                format!(
                    "volumes_roles_mapping.{role}: volume '{id}' is defined neither by the plugin nor by release '{}'",
                    release.label()
                ),
            ));
        }
    }
    out
}

/// The plugin's network roles that the release or another plugin extending
/// it declares already (SEMANTICS §11.1): one error per id, naming both
/// sources with file and line.
fn network_role_collisions(
    new: &Package,
    (release_source, release): (&str, &Release),
    neighbours: &[&Package],
) -> Vec<Diagnostic> {
    let mut theirs: Vec<(String, &crate::network::NetworkRole)> = release
        .network_roles_metadata
        .iter()
        .map(|r| (release_source.to_owned(), r))
        .collect();
    for other in neighbours {
        theirs.extend(
            other
                .network_roles_metadata
                .iter()
                .map(|r| (other.source(), r)),
        );
    }
    let mut out = Vec::new();
    for role in &new.network_roles_metadata {
        let Some((source, first)) = theirs.iter().find(|(_, r)| r.id == role.id) else {
            continue;
        };
        let message = crate::network::DuplicateNetworkRole {
            id: role.id.clone(),
            first: crate::network::metadata::described(source, first),
            second: crate::network::metadata::described(&new.source(), role),
        }
        .to_string();
        out.push(Diagnostic {
            severity: Severity::Error,
            file: role
                .source
                .as_ref()
                .map_or("network_roles.yaml".to_owned(), |p| p.file.clone()),
            line: role.source.as_ref().map(|p| p.line),
            path: Some(role.id.clone()),
            message,
        });
    }
    out
}
