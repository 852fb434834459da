//! The environment wizard's rules (SEMANTICS §2.4): how a registry is laid
//! out in panes (checkboxes, radio groups, ML2 drivers under the ML2 core,
//! storage sections), what picking an option does to the selection, and the
//! state each option shows.
//!
//! The state each option shows is the engine's (`component::Engine`),
//! which uses this layout for the swaps that picking implies.

use serde::{Deserialize, Serialize};

use crate::component::{ComponentType, Engine, Registry, Repair, requirements};

/// The panes after "Name & release", in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pane {
    Compute,
    Networking,
    Storage,
    AdditionalServices,
}

impl Pane {
    pub const ALL: [Pane; 4] = [
        Pane::Compute,
        Pane::Networking,
        Pane::Storage,
        Pane::AdditionalServices,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Pane::Compute => "Compute",
            Pane::Networking => "Networking",
            Pane::Storage => "Storage",
            Pane::AdditionalServices => "Additional services",
        }
    }

    pub fn component_type(self) -> ComponentType {
        match self {
            Pane::Compute => ComponentType::Hypervisor,
            Pane::Networking => ComponentType::Network,
            Pane::Storage => ComponentType::Storage,
            Pane::AdditionalServices => ComponentType::AdditionalService,
        }
    }
}

/// The Networking pane: one radio group of cores, ML2 drivers as checkboxes
/// (nested under the ML2 core when there is one), services as checkboxes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetworkLayout {
    pub cores: Vec<usize>,
    pub ml2_core: Option<usize>,
    pub drivers: Vec<usize>,
    pub services: Vec<usize>,
}

/// A Storage section, named by the second name segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageSection {
    pub name: String,
    /// At least two members, every pair mutually incompatible.
    pub radio: bool,
    pub members: Vec<usize>,
}

/// How every component of a registry is presented, in display order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    pub compute: Vec<usize>,
    pub network: NetworkLayout,
    pub storage: Vec<StorageSection>,
    pub additional: Vec<usize>,
}

/// What kind of control a component is shown as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    Checkbox,
    Radio,
}

fn is_ml2_driver(registry: &Registry, i: usize) -> bool {
    registry.get(i).name.has_inner_segment("ml2")
}

fn is_network_service(registry: &Registry, i: usize) -> bool {
    registry.get(i).name.has_inner_segment("service")
}

impl Layout {
    pub fn new(registry: &Registry) -> Layout {
        let mut layout = Layout::default();
        for i in registry.display_order() {
            let component = registry.get(i);
            match component.kind() {
                ComponentType::Hypervisor => layout.compute.push(i),
                ComponentType::AdditionalService => layout.additional.push(i),
                ComponentType::Network if is_ml2_driver(registry, i) => {
                    layout.network.drivers.push(i);
                }
                ComponentType::Network if is_network_service(registry, i) => {
                    layout.network.services.push(i);
                }
                ComponentType::Network => {
                    if component.name.last_segment() == "ml2" && layout.network.ml2_core.is_none() {
                        layout.network.ml2_core = Some(i);
                    }
                    layout.network.cores.push(i);
                }
                ComponentType::Storage => {
                    let section = component.name.segments().next().unwrap_or_default();
                    match layout.storage.iter_mut().find(|s| s.name == section) {
                        Some(s) => s.members.push(i),
                        None => layout.storage.push(StorageSection {
                            name: section.to_owned(),
                            radio: false,
                            members: vec![i],
                        }),
                    }
                }
            }
        }
        for section in &mut layout.storage {
            let m = &section.members;
            section.radio = m.len() >= 2
                && m.iter().enumerate().all(|(n, &a)| {
                    m[n + 1..]
                        .iter()
                        .all(|&b| registry.conflict(a, b).is_some())
                });
        }
        // Storage sections in the usual order, any others after them by name.
        let rank = |name: &str| {
            ["block", "object", "image", "ephemeral"]
                .iter()
                .position(|s| *s == name)
                .unwrap_or(usize::MAX)
        };
        layout
            .storage
            .sort_by(|a, b| (rank(&a.name), &a.name).cmp(&(rank(&b.name), &b.name)));
        layout
    }

    /// The members of `i`'s radio group other than `i`, if it is in one.
    pub fn radio_peers(&self, i: usize) -> Vec<usize> {
        if self.network.cores.contains(&i) {
            return self
                .network
                .cores
                .iter()
                .copied()
                .filter(|&j| j != i)
                .collect();
        }
        self.storage
            .iter()
            .find(|s| s.radio && s.members.contains(&i))
            .map(|s| s.members.iter().copied().filter(|&j| j != i).collect())
            .unwrap_or_default()
    }

    pub fn control(&self, i: usize) -> Control {
        let radio_storage = self
            .storage
            .iter()
            .any(|s| s.radio && s.members.contains(&i));
        if self.network.cores.contains(&i) || radio_storage {
            Control::Radio
        } else {
            Control::Checkbox
        }
    }

    /// The selection after picking `i`: radio peers are replaced, a core
    /// other than the ML2 core drops the ML2 drivers, and a driver switches
    /// the core to the ML2 core.
    pub fn pick(&self, selection: &[bool], i: usize) -> Vec<bool> {
        let selected: Vec<usize> = (0..selection.len()).filter(|&j| selection[j]).collect();
        let mut next = vec![false; selection.len()];
        for j in self.pick_indices(&selected, selection, i) {
            next[j] = true;
        }
        next
    }

    /// [`Layout::pick`] on sorted indices: `selected` lists the components
    /// `selection` holds. The engine calls this once per option and click.
    pub fn pick_indices(&self, selected: &[usize], selection: &[bool], i: usize) -> Vec<usize> {
        let network = &self.network;
        let is_core = |j: usize| network.cores.contains(&j);
        let ml2 = network.ml2_core;
        let drops_drivers = ml2.is_some_and(|m| i != m && is_core(i));
        let switches_core = ml2.is_some_and(|m| !selection[m] && network.drivers.contains(&i));
        let peers = self.radio_peers(i);
        let mut out: Vec<usize> = selected
            .iter()
            .copied()
            .filter(|&j| {
                let dropped_driver = drops_drivers && network.drivers.contains(&j);
                let replaced_core = switches_core && is_core(j);
                !peers.contains(&j) && !dropped_driver && !replaced_core
            })
            .collect();
        out.push(i);
        if let (true, Some(m)) = (switches_core, ml2) {
            out.push(m);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The selection after unticking `i`; a radio member stays selected (a
    /// radio group is changed by picking another member).
    pub fn unpick(&self, selection: &[bool], i: usize) -> Vec<bool> {
        let mut next = selection.to_vec();
        if self.control(i) == Control::Checkbox {
            next[i] = false;
        }
        next
    }
}

/// The selection the wizard starts from: every `default: true` component,
/// with radio groups and the core rules applied in registry order.
pub fn defaults(registry: &Registry, layout: &Layout) -> Vec<bool> {
    let mut selection = vec![false; registry.len()];
    for (i, c) in registry.components().iter().enumerate() {
        if c.default {
            selection = layout.pick(&selection, i);
        }
    }
    selection
}

/// The selection after the "fix" action of a blocked component: the
/// repair's components are deselected (radio members too) and selected,
/// then `i` is picked.
pub fn apply_repair(
    registry: &Registry,
    layout: &Layout,
    selection: &[bool],
    i: usize,
    repair: &Repair,
) -> Vec<bool> {
    let mut next = selection.to_vec();
    for (names, on) in [(&repair.deselect, false), (&repair.select, true)] {
        for name in names {
            if let Some(j) = registry.position(name) {
                next[j] = on;
            }
        }
    }
    layout.pick(&next, i)
}

/// The components `selection` holds that `after` does not, or holds that
/// `selection` does not: what a change did, by name.
pub fn changes(
    registry: &Registry,
    selection: &[bool],
    after: &[bool],
) -> (Vec<String>, Vec<String>) {
    let names = |added: bool| {
        (0..registry.len())
            .filter(|&j| after[j] != selection[j] && after[j] == added)
            .map(|j| registry.get(j).name.to_string())
            .collect()
    };
    (names(true), names(false))
}

/// After unticking a component of pane `pane`: the components of that pane
/// whose requirements held before and fail now are deselected too, each
/// with why (earlier panes are decided; later ones are the engine's
/// [`crate::component::Engine::settle`]).
pub fn drop_dependents(
    registry: &Registry,
    before: &[bool],
    selection: &[bool],
    pane: ComponentType,
) -> (Vec<bool>, Vec<Dropped>) {
    let mut current = selection.to_vec();
    let mut dropped = Vec::new();
    loop {
        let failing = (0..registry.len()).find_map(|i| {
            if !current[i] || registry.get(i).kind() != pane {
                return None;
            }
            requirements(registry, i)
                .into_iter()
                .find(|r| r.holds(before) && !r.holds(&current))
                .map(|r| (i, r.describe(registry)))
        });
        let Some((i, message)) = failing else {
            return (current, dropped);
        };
        current[i] = false;
        dropped.push(Dropped {
            name: registry.get(i).name.to_string(),
            message: format!("{} was deselected: {message}", registry.label(i)),
        });
    }
}

/// What keeps the operator on pane `pane`, if anything: the release needs
/// one of its options, or its choices and the earlier panes' cannot be
/// completed (with the requirements that cannot be met any more).
pub fn leave_problem(engine: &Engine, selection: &[bool], pane: Pane) -> Option<String> {
    let registry = engine.registry();
    let kind = pane.component_type();
    let n = registry.len();
    let chosen = (0..n).any(|i| selection[i] && registry.get(i).kind() == kind);
    if engine.required_types().contains(&kind) && !chosen {
        return Some(format!(
            "Select at least one {} option.",
            pane.title().to_lowercase()
        ));
    }
    if engine.can_leave(selection, kind) {
        return None;
    }
    // Requirements that only decided panes could meet, and do not.
    let unmet: Vec<String> = (0..n)
        .filter(|&i| selection[i] && registry.get(i).kind() <= kind)
        .flat_map(|i| {
            requirements(registry, i)
                .into_iter()
                .filter(|r| !r.holds(selection))
                .filter(|r| r.candidates.iter().all(|&c| registry.get(c).kind() <= kind))
                .map(move |r| {
                    let why = r
                        .message_invalid
                        .clone()
                        .unwrap_or_else(|| r.describe(registry));
                    format!("{}: {}", registry.label(i), why)
                })
        })
        .collect();
    Some(if unmet.is_empty() {
        "These choices cannot be completed; change a choice on this pane.".to_owned()
    } else {
        unmet.join(" ")
    })
}

/// A component the wizard took out of the selection, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dropped {
    pub name: String,
    pub message: String,
}

/// Removes selected components whose requirements no longer hold after a
/// change (e.g. Open vSwitch once no libvirt hypervisor is left), repeating
/// until nothing else fails. Later choices that are still valid are kept;
/// the wizard tells the operator what was dropped.
pub fn settle(registry: &Registry, selection: &[bool]) -> (Vec<bool>, Vec<Dropped>) {
    let mut current = selection.to_vec();
    let mut dropped = Vec::new();
    loop {
        let failing = (0..registry.len()).find_map(|i| {
            if !current[i] {
                return None;
            }
            requirements(registry, i)
                .into_iter()
                .find(|r| !r.holds(&current))
                .map(|r| (i, r.describe(registry)))
        });
        let Some((i, message)) = failing else {
            return (current, dropped);
        };
        current[i] = false;
        dropped.push(Dropped {
            name: registry.get(i).name.to_string(),
            message: format!("{} was deselected: {message}", registry.label(i)),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(yaml: &str) -> Registry {
        crate::component::test_registry(yaml)
    }

    fn select(r: &Registry, names: &[&str]) -> Vec<bool> {
        let mut s = vec![false; r.len()];
        for n in names {
            s[r.position(n).unwrap()] = true;
        }
        s
    }

    const NET: &str = r#"
- {name: 'hypervisor:libvirt:kvm', default: true}
- {name: 'hypervisor:vmware', label: vCenter}
- {name: 'network:neutron:core:ml2', default: true}
- {name: 'network:neutron:core:contrail', label: Contrail, incompatible: [{name: 'hypervisor:vmware', message: 'Contrail does not support vCenter'}]}
- {name: 'network:neutron:core:nsx', requires: [{name: 'hypervisor:vmware'}]}
- {name: 'network:neutron:ml2:ovs', default: true, requires: [{name: 'network:neutron:core:ml2'}]}
- {name: 'network:neutron:service:vpnaas'}
- {name: 'storage:block:lvm', default: true, incompatible: [{name: 'storage:block:ceph'}]}
- {name: 'storage:block:ceph'}
- {name: 'storage:object:swift'}
- {name: 'storage:object:ceph', incompatible: [{name: 'storage:object:swift'}]}
- {name: 'storage:object:gluster'}
"#;

    #[test]
    fn layout_groups_network_and_storage() {
        let r = registry(NET);
        let l = Layout::new(&r);
        let names = |v: &[usize]| {
            v.iter()
                .map(|&i| r.get(i).name.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(l.network.cores.len(), 3);
        assert_eq!(l.network.ml2_core, r.position("network:neutron:core:ml2"));
        assert_eq!(names(&l.network.drivers), ["network:neutron:ml2:ovs"]);
        assert_eq!(
            names(&l.network.services),
            ["network:neutron:service:vpnaas"]
        );
        let block = &l.storage[0];
        assert_eq!((block.name.as_str(), block.radio), ("block", true));
        // A third member unrelated to the others turns the section into checkboxes.
        let object = &l.storage[1];
        assert_eq!((object.name.as_str(), object.radio), ("object", false));
    }

    #[test]
    fn picking_follows_the_core_rules() {
        let r = registry(NET);
        let l = Layout::new(&r);
        let start = defaults(&r, &l);
        assert_eq!(
            start,
            select(
                &r,
                &[
                    "hypervisor:libvirt:kvm",
                    "network:neutron:core:ml2",
                    "network:neutron:ml2:ovs",
                    "storage:block:lvm"
                ]
            )
        );
        let contrail = r.position("network:neutron:core:contrail").unwrap();
        let after = l.pick(&start, contrail);
        assert_eq!(
            after,
            select(
                &r,
                &[
                    "hypervisor:libvirt:kvm",
                    "network:neutron:core:contrail",
                    "storage:block:lvm"
                ]
            )
        );
        let ovs = r.position("network:neutron:ml2:ovs").unwrap();
        assert_eq!(l.pick(&after, ovs), start);
        let ceph = r.position("storage:block:ceph").unwrap();
        assert!(!l.pick(&start, ceph)[r.position("storage:block:lvm").unwrap()]);
        // A radio member cannot be unticked.
        assert_eq!(
            l.unpick(&start, r.position("network:neutron:core:ml2").unwrap()),
            start
        );
    }

    #[test]
    fn a_repair_deselects_then_picks() {
        let r = registry(NET);
        let l = Layout::new(&r);
        let s = select(
            &r,
            &[
                "hypervisor:vmware",
                "network:neutron:core:ml2",
                "storage:block:lvm",
            ],
        );
        let contrail = r.position("network:neutron:core:contrail").unwrap();
        let repair = Repair {
            select: Vec::new(),
            deselect: vec!["hypervisor:vmware".to_owned()],
        };
        assert_eq!(
            apply_repair(&r, &l, &s, contrail, &repair),
            select(&r, &["network:neutron:core:contrail", "storage:block:lvm"])
        );
    }

    #[test]
    fn settling_drops_what_lost_its_requirement_and_keeps_the_rest() {
        let r = registry(
            r#"
- {name: 'hypervisor:libvirt:kvm', label: KVM}
- {name: 'hypervisor:vmware'}
- {name: 'network:ovs', label: OVS, requires: [{name: 'hypervisor:libvirt:*', message: 'needs libvirt'}]}
- {name: 'network:l2', label: L2, requires: [{name: 'network:ovs'}]}
- {name: 'storage:lvm'}
"#,
        );
        let (after, dropped) = settle(
            &r,
            &select(
                &r,
                &[
                    "hypervisor:vmware",
                    "network:ovs",
                    "network:l2",
                    "storage:lvm",
                ],
            ),
        );
        assert_eq!(after, select(&r, &["hypervisor:vmware", "storage:lvm"]));
        let names: Vec<&str> = dropped.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["network:ovs", "network:l2"]);
        assert_eq!(dropped[0].message, "OVS was deselected: needs libvirt");
    }

    #[test]
    fn repeated_labels_name_their_place() {
        let r = registry(
            r#"
- {name: 'hypervisor:kvm', label: KVM}
- {name: 'storage:object:swift', label: Swift}
- {name: 'storage:image:swift', label: Swift}
- {name: 'storage:image:ceph', label: Ceph RBD}
- {name: 'storage:block:ceph', label: Ceph RBD}
- {name: 'network:neutron:service:l3', label: L3 agent}
"#,
        );
        let labels: Vec<&str> = (0..r.len()).map(|i| r.label(i)).collect();
        assert_eq!(
            labels,
            [
                "KVM",
                "Swift (object storage)",
                "Swift (images)",
                "Ceph RBD (images)",
                "Ceph RBD (block storage)",
                "L3 agent"
            ]
        );
    }
}
