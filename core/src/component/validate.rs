//! Validating a full selection (SEMANTICS §2.3): every violation is
//! collected, in kind order, as data; the message is only a rendering.

use serde::{Deserialize, Serialize};

use super::model::{Quantifier, Requires};
use super::name::ComponentType;
use super::registry::Registry;

/// The component types a release needs one of each, unless it says otherwise.
pub const DEFAULT_REQUIRED_TYPES: [ComponentType; 3] = [
    ComponentType::Hypervisor,
    ComponentType::Network,
    ComponentType::Storage,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ViolationKind {
    Unknown,
    Incompatible,
    Requires,
    RequiredType,
}

/// One reason a selection is not valid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Violation {
    pub kind: ViolationKind,
    /// The subject first, then the others involved (see SEMANTICS §2.3).
    pub components: Vec<String>,
    pub message: String,
}

/// What one requirement of a component wants of the selection.
#[derive(Debug, Clone, PartialEq)]
pub struct Requirement {
    pub quantifier: Quantifier,
    /// Registry indices of the components the requirement's patterns match.
    pub candidates: Vec<usize>,
    pub message: Option<String>,
    pub message_invalid: Option<String>,
}

impl Requirement {
    /// Whether the selection satisfies it.
    pub fn holds(&self, selected: &[bool]) -> bool {
        let matched = self.candidates.iter().filter(|&&c| selected[c]).count();
        match self.quantifier {
            Quantifier::OneOf => matched == 1,
            Quantifier::AnyOf => matched >= 1,
            Quantifier::NoneOf => matched == 0,
            Quantifier::AllOf => matched == self.candidates.len(),
        }
    }

    /// The message to show when it fails: the declared one, or one built
    /// from the candidates — never a bare "Not all requires options enabled".
    pub fn describe(&self, registry: &Registry) -> String {
        if let Some(m) = &self.message {
            return m.clone();
        }
        let labels: Vec<&str> = self.candidates.iter().map(|&c| registry.label(c)).collect();
        if labels.is_empty() {
            return "Requires a component that no installed release or plugin provides".to_owned();
        }
        let list = labels.join(", ");
        match self.quantifier {
            Quantifier::OneOf => format!("Requires exactly one of: {list}"),
            Quantifier::AnyOf => format!("Requires one of: {list}"),
            Quantifier::NoneOf => format!("Cannot be combined with: {list}"),
            Quantifier::AllOf => format!("Requires all of: {list}"),
        }
    }
}

/// Completes a selection made before its release asked for a choice (an
/// environment stored before the release gained the segmentation, say):
/// while a chosen component has a `one_of` or `any_of` requirement that no
/// chosen component meets and exactly one of its candidates is the
/// release's default, that default is chosen too. Returns what was added,
/// in the order added; the selection is then validated as usual.
pub fn complete_with_defaults(registry: &Registry, selected: &mut [bool]) -> Vec<usize> {
    let mut added = Vec::new();
    // Each round adds at least one component, or stops.
    for _ in 0..registry.len() {
        let missing = (0..registry.len())
            .filter(|&i| selected[i])
            .flat_map(|i| requirements(registry, i))
            .filter(|r| matches!(r.quantifier, Quantifier::OneOf | Quantifier::AnyOf))
            .filter(|r| r.candidates.iter().all(|&c| !selected[c]))
            .find_map(|r| {
                let mut defaults = r.candidates.iter().filter(|&&c| registry.get(c).default);
                match (defaults.next(), defaults.next()) {
                    (Some(&only), None) => Some(only),
                    _ => None,
                }
            });
        let Some(default) = missing else { break };
        selected[default] = true;
        added.push(default);
    }
    added
}

/// The requirements of component `i`, in declaration order. Old-format
/// entries become one `any_of` per required type.
pub fn requirements(registry: &Registry, i: usize) -> Vec<Requirement> {
    match &registry.get(i).requires {
        Requires::None => Vec::new(),
        Requires::Any(relations) => {
            let mut groups: Vec<(ComponentType, Requirement)> = Vec::new();
            for relation in relations {
                let kind = relation.name.kind();
                let at = match groups.iter().position(|(k, _)| *k == kind) {
                    Some(at) => at,
                    None => {
                        groups.push((
                            kind,
                            Requirement {
                                quantifier: Quantifier::AnyOf,
                                candidates: Vec::new(),
                                message: None,
                                message_invalid: None,
                            },
                        ));
                        groups.len() - 1
                    }
                };
                let group = &mut groups[at].1;
                group
                    .candidates
                    .extend(registry.matching(i, [&relation.name]));
                if group.message.is_none() {
                    group.message = relation.message.clone();
                }
            }
            groups
                .into_iter()
                .map(|(_, mut r)| {
                    r.candidates.sort();
                    r.candidates.dedup();
                    r
                })
                .collect()
        }
        Requires::Predicates(predicates) => predicates
            .iter()
            .map(|p| Requirement {
                quantifier: p.quantifier,
                candidates: registry.matching(i, &p.body.items),
                message: p.body.message.clone(),
                message_invalid: p.body.message_invalid.clone(),
            })
            .collect(),
    }
}

/// Validates a full selection against a registry and the release's required
/// types, collecting every violation (unknown, incompatible, requires,
/// required_type, in that order).
pub fn validate_selection(
    registry: &Registry,
    required_types: &[ComponentType],
    names: &[String],
) -> Vec<Violation> {
    let mut violations = Vec::new();
    let mut selected = vec![false; registry.len()];
    for name in names {
        match registry.position(name) {
            Some(i) => selected[i] = true,
            None => violations.push(Violation {
                kind: ViolationKind::Unknown,
                components: vec![name.clone()],
                message: format!("Unknown component '{name}'"),
            }),
        }
    }
    let chosen: Vec<usize> = (0..registry.len()).filter(|&i| selected[i]).collect();
    let name = |i: usize| registry.get(i).name.to_string();

    for (n, &a) in chosen.iter().enumerate() {
        for &b in &chosen[n + 1..] {
            if let Some(conflict) = registry.conflict(a, b) {
                let other = if conflict.declared_by == a { b } else { a };
                violations.push(Violation {
                    kind: ViolationKind::Incompatible,
                    components: vec![name(conflict.declared_by), name(other)],
                    message: registry.conflict_message(&conflict),
                });
            }
        }
    }

    for &i in &chosen {
        for requirement in requirements(registry, i) {
            if requirement.holds(&selected) {
                continue;
            }
            let others: Vec<usize> = match requirement.quantifier {
                // The components to deselect.
                Quantifier::NoneOf => requirement
                    .candidates
                    .iter()
                    .copied()
                    .filter(|&c| selected[c])
                    .collect(),
                _ => requirement.candidates.clone(),
            };
            violations.push(Violation {
                kind: ViolationKind::Requires,
                components: std::iter::once(i).chain(others).map(name).collect(),
                message: format!("{}: {}", registry.label(i), requirement.describe(registry)),
            });
        }
    }

    for kind in required_types {
        if !chosen.iter().any(|&i| registry.get(i).kind() == *kind) {
            violations.push(Violation {
                kind: ViolationKind::RequiredType,
                components: Vec::new(),
                message: format!(
                    "At least one {} component must be selected",
                    kind.as_str().replace('_', " ")
                ),
            });
        }
    }
    violations
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(yaml: &str) -> Registry {
        crate::component::test_registry(yaml)
    }

    fn check(registry: &Registry, select: &[&str], expect: &[(ViolationKind, &[&str])]) {
        let names: Vec<String> = select.iter().map(|s| s.to_string()).collect();
        let got = validate_selection(registry, &DEFAULT_REQUIRED_TYPES, &names);
        let got: Vec<(ViolationKind, Vec<String>)> =
            got.into_iter().map(|v| (v.kind, v.components)).collect();
        let expect: Vec<(ViolationKind, Vec<String>)> = expect
            .iter()
            .map(|(k, c)| (*k, c.iter().map(|s| s.to_string()).collect()))
            .collect();
        assert_eq!(got, expect, "selection {select:?}");
    }

    #[test]
    fn an_unmade_choice_takes_its_single_default() {
        let r = registry(
            r#"
- {name: 'network:core', requires: [{one_of: {items: ['network:seg:*']}}]}
- {name: 'network:seg:vlan', default: true}
- {name: 'network:seg:tun'}
- {name: 'network:other', requires: [{any_of: {items: ['network:x:*']}}]}
- {name: 'network:x:a', default: true}
- {name: 'network:x:b', default: true}
"#,
        );
        let mut selected = vec![true, false, false, false, false, false];
        assert_eq!(complete_with_defaults(&r, &mut selected), [1]);
        // A choice made stays; two defaults are no single default.
        let mut selected = vec![true, false, true, true, false, false];
        assert_eq!(
            complete_with_defaults(&r, &mut selected),
            Vec::<usize>::new()
        );
        assert_eq!(selected, [true, false, true, true, false, false]);
    }

    const DVS: &str = r#"
- {name: 'hypervisor:libvirt:kvm'}
- {name: 'hypervisor:vmware', label: vCenter}
- {name: 'network:neutron:core:ml2'}
- {name: 'network:neutron:ml2:dvs', requires: [{name: 'network:neutron:core:ml2'}, {name: 'hypervisor:vmware'}]}
- {name: 'storage:block:lvm', incompatible: [{name: 'storage:block:ceph', message: 'LVM or Ceph'}]}
- {name: 'storage:block:ceph'}
"#;

    #[test]
    fn dvs_style_requires_needs_both_groups() {
        let r = registry(DVS);
        use ViolationKind::*;
        check(
            &r,
            &[
                "hypervisor:libvirt:kvm",
                "network:neutron:ml2:dvs",
                "network:neutron:core:ml2",
                "storage:block:lvm",
            ],
            &[(Requires, &["network:neutron:ml2:dvs", "hypervisor:vmware"])],
        );
        check(
            &r,
            &[
                "hypervisor:vmware",
                "network:neutron:ml2:dvs",
                "network:neutron:core:ml2",
                "storage:block:lvm",
            ],
            &[],
        );
    }

    #[test]
    fn every_violation_is_collected_in_kind_order() {
        let r = registry(DVS);
        use ViolationKind::*;
        check(
            &r,
            &[
                "storage:block:ceph",
                "storage:block:lvm",
                "nope",
                "network:neutron:ml2:dvs",
            ],
            &[
                (Unknown, &["nope"]),
                (Incompatible, &["storage:block:lvm", "storage:block:ceph"]),
                (
                    Requires,
                    &["network:neutron:ml2:dvs", "network:neutron:core:ml2"],
                ),
                (Requires, &["network:neutron:ml2:dvs", "hypervisor:vmware"]),
                (RequiredType, &[]),
            ],
        );
    }

    #[test]
    fn predicates_count_matches() {
        let r = registry(
            r#"
- {name: 'hypervisor:a'}
- {name: 'hypervisor:b'}
- {name: 'network:one', requires: [{one_of: {items: ['hypervisor:*']}}]}
- {name: 'network:none', requires: [{none_of: {items: ['hypervisor:b'], message: 'not b'}}]}
- {name: 'network:all', requires: [{all_of: {items: ['hypervisor:*']}}]}
- {name: 'storage:s'}
"#,
        );
        use ViolationKind::*;
        check(&r, &["hypervisor:a", "network:one", "storage:s"], &[]);
        check(
            &r,
            &["hypervisor:a", "hypervisor:b", "network:one", "storage:s"],
            &[(Requires, &["network:one", "hypervisor:a", "hypervisor:b"])],
        );
        check(
            &r,
            &["hypervisor:b", "network:none", "storage:s"],
            &[(Requires, &["network:none", "hypervisor:b"])],
        );
        check(
            &r,
            &["hypervisor:a", "network:all", "storage:s"],
            &[(Requires, &["network:all", "hypervisor:a", "hypervisor:b"])],
        );
    }

    #[test]
    fn messages_are_built_from_the_requirement() {
        let r = registry(DVS);
        let names = vec!["network:neutron:ml2:dvs".to_owned()];
        let v = validate_selection(&r, &[], &names);
        assert_eq!(
            v[1].message,
            "network:neutron:ml2:dvs: Requires one of: vCenter"
        );
    }
}
