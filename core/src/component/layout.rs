//! How the wizard lays a registry out (SEMANTICS §2.4): its panes in
//! order, the network pane's cores and the ML2 drivers nested under the ML2
//! core — those it needs exactly one of as a radio group —, the storage
//! sections whose members exclude each other. The engine decides panes in
//! this order; `wizard` (what picking does) re-exports it.

use serde::{Deserialize, Serialize};

use super::{ComponentType, Quantifier, Registry, requirements};

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
/// (nested under the ML2 core when there is one) except those in a radio
/// group of their own, services as checkboxes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetworkLayout {
    pub cores: Vec<usize>,
    pub ml2_core: Option<usize>,
    pub drivers: Vec<usize>,
    /// Radio groups of drivers: each `one_of` requirement of the ML2 core
    /// whose candidates are two or more drivers, none in an earlier group
    /// (the bundled release's segmentation: VLAN or tunnelling).
    pub driver_groups: Vec<DriverGroup>,
    pub services: Vec<usize>,
}

/// One option of a pane as the wizard and the Components tab show it: its
/// place in the registry, and whether it is an ML2 driver nested under the
/// ML2 core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    pub index: usize,
    pub nested: bool,
}

impl NetworkLayout {
    /// The Networking pane's cores in order, the ML2 drivers right after
    /// the ML2 core and nested under it; without an ML2 core the drivers
    /// follow the cores as options of their own.
    pub fn core_members(&self) -> Vec<Member> {
        let member = |index, nested| Member { index, nested };
        let mut members = Vec::new();
        for &core in &self.cores {
            members.push(member(core, false));
            if Some(core) == self.ml2_core {
                members.extend(self.drivers.iter().map(|&d| member(d, true)));
            }
        }
        if self.ml2_core.is_none() {
            members.extend(self.drivers.iter().map(|&d| member(d, false)));
        }
        members
    }

    /// The whole pane: its cores and drivers, then its services.
    pub fn members(&self) -> Vec<Member> {
        let mut members = self.core_members();
        members.extend(self.services.iter().map(|&index| Member {
            index,
            nested: false,
        }));
        members
    }
}

/// A radio group of ML2 drivers under the ML2 core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverGroup {
    /// In display order.
    pub members: Vec<usize>,
    /// The member a click that selects the ML2 core tries first for the
    /// group ([`toggle`]): the first `default: true` member, else the first.
    pub default: usize,
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
    /// Pane `pane`'s options in the order it shows them.
    pub fn pane_members(&self, pane: Pane) -> Vec<Member> {
        let plain = |list: &[usize]| -> Vec<Member> {
            list.iter()
                .map(|&index| Member {
                    index,
                    nested: false,
                })
                .collect()
        };
        match pane {
            Pane::Compute => plain(&self.compute),
            Pane::Networking => self.network.members(),
            Pane::Storage => self
                .storage
                .iter()
                .flat_map(|s| plain(&s.members))
                .collect(),
            Pane::AdditionalServices => plain(&self.additional),
        }
    }

    /// Every option in the order the panes show them, pane after pane.
    pub fn shown_order(&self) -> Vec<usize> {
        Pane::ALL
            .into_iter()
            .flat_map(|pane| self.pane_members(pane))
            .map(|m| m.index)
            .collect()
    }

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
        layout.network.driver_groups = driver_groups(registry, &layout.network);
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
        let others = |group: &[usize]| group.iter().copied().filter(|&j| j != i).collect();
        if self.network.cores.contains(&i) {
            return others(&self.network.cores);
        }
        if let Some(group) = self.driver_group(i) {
            return others(&group.members);
        }
        self.storage
            .iter()
            .find(|s| s.radio && s.members.contains(&i))
            .map(|s| others(&s.members))
            .unwrap_or_default()
    }

    /// The radio group of drivers `i` is in, if any.
    fn driver_group(&self, i: usize) -> Option<&DriverGroup> {
        self.network
            .driver_groups
            .iter()
            .find(|g| g.members.contains(&i))
    }

    /// The radio group option `i` belongs to, if it is a radio button:
    /// `network-core` for the network cores, `network-ml2-N` for the
    /// members of the ML2 core's N-th radio group of drivers (from 0),
    /// `storage-SECTION` for the members of a storage section that is one
    /// radio group.
    pub fn radio_group(&self, registry: &Registry, i: usize) -> Option<String> {
        let drivers = self
            .network
            .driver_groups
            .iter()
            .position(|g| g.members.contains(&i));
        match self.control(i) {
            Control::Checkbox => None,
            Control::Radio if self.network.cores.contains(&i) => Some("network-core".to_owned()),
            Control::Radio if drivers.is_some() => drivers.map(|n| format!("network-ml2-{n}")),
            Control::Radio => {
                let section = registry.get(i).name.segments().next().unwrap_or_default();
                Some(format!("storage-{section}"))
            }
        }
    }

    pub fn control(&self, i: usize) -> Control {
        let radio_storage = self
            .storage
            .iter()
            .any(|s| s.radio && s.members.contains(&i));
        if self.network.cores.contains(&i) || self.driver_group(i).is_some() || radio_storage {
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

/// The ML2 core's radio groups of drivers ([`NetworkLayout::driver_groups`]).
fn driver_groups(registry: &Registry, network: &NetworkLayout) -> Vec<DriverGroup> {
    let Some(ml2) = network.ml2_core else {
        return Vec::new();
    };
    let mut groups: Vec<DriverGroup> = Vec::new();
    for requirement in requirements(registry, ml2) {
        let candidates = &requirement.candidates;
        let taken = |i: &usize| groups.iter().any(|g| g.members.contains(i));
        let fits = requirement.quantifier == Quantifier::OneOf
            && candidates.len() >= 2
            && candidates
                .iter()
                .all(|i| network.drivers.contains(i) && !taken(i));
        if fits {
            let shown = network.drivers.iter().copied();
            let members: Vec<usize> = shown.filter(|i| candidates.contains(i)).collect();
            let default = (members.iter().copied())
                .find(|&i| registry.get(i).default)
                .unwrap_or(members[0]);
            groups.push(DriverGroup { members, default });
        }
    }
    groups
}

/// A component the wizard took out of the selection, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dropped {
    pub name: String,
    pub message: String,
}
