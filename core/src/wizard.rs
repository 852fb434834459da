//! The environment wizard's rules (SEMANTICS §2.4): how a registry is laid
//! out in panes (checkboxes, radio groups, ML2 drivers under the ML2 core —
//! those it needs exactly one of as a radio group —, storage sections),
//! what picking an option does to the selection, and the state each option
//! shows.
//!
//! The state each option shows is the engine's (`component::Engine`),
//! which uses this layout for the swaps that picking implies.

use crate::component::{ComponentType, Engine, Registry, Repair, requirements};

pub use crate::component::layout::{
    Control, DriverGroup, Dropped, Layout, Member, NetworkLayout, Pane, StorageSection,
};

pub mod view;

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
            pane.title().to_ascii_lowercase()
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

/// What one action in the wizard did: the selection after it, and what
/// the operator is told about it (earlier panes changed by a repair,
/// choices dropped because they no longer fit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub selection: Vec<bool>,
    pub notices: Vec<String>,
}

/// The panes after `kind`'s re-decided: the choices there that no longer
/// fit are dropped, with why.
fn settle_after(engine: &Engine, selection: Vec<bool>, kind: ComponentType) -> Change {
    match ComponentType::ALL.into_iter().find(|t| *t > kind) {
        Some(next) => {
            let (selection, dropped) = engine.settle(&selection, next);
            let notices = dropped.into_iter().map(|d| d.message).collect();
            Change { selection, notices }
        }
        None => Change {
            selection,
            notices: Vec::new(),
        },
    }
}

/// Ticking or unticking option `i` on its own pane (SEMANTICS §2.4):
/// picking applies the layout's swaps and keeps `i` selected (a pick that
/// brings the ML2 core also fills its radio groups of drivers where it
/// can); unticking also drops the pane's options that needed it. Later
/// panes are settled.
pub fn toggle(engine: &Engine, selection: &[bool], i: usize) -> Change {
    let registry = engine.registry();
    let kind = registry.get(i).kind();
    if selection[i] {
        let unpicked = engine.layout().unpick(selection, i);
        let (next, dropped) = drop_dependents(registry, selection, &unpicked, kind);
        let mut change = settle_after(engine, next, kind);
        let mut notices: Vec<String> = dropped.into_iter().map(|d| d.message).collect();
        notices.append(&mut change.notices);
        change.notices = notices;
        change
    } else {
        let picked = engine.layout().pick(selection, i);
        settle_after(
            engine,
            fill_driver_groups(engine, selection, picked, kind),
            kind,
        )
    }
}

/// When a click on pane `kind` selected the ML2 core (in `after`, not in
/// `before`): each of its radio groups of drivers with no member selected
/// gets the first member — the group's default first, then in display
/// order — with which the pane can be left (the Networking pane, or `kind`
/// when later); none when no member allows it (the operator then chooses,
/// and Next says what is missing). So the click's promise holds: the pane
/// stays completable.
fn fill_driver_groups(
    engine: &Engine,
    before: &[bool],
    mut after: Vec<bool>,
    kind: ComponentType,
) -> Vec<bool> {
    let network = &engine.layout().network;
    if !network.ml2_core.is_some_and(|m| after[m] && !before[m]) {
        return after;
    }
    for group in &network.driver_groups {
        if group.members.iter().any(|&j| after[j]) {
            continue;
        }
        let others = group
            .members
            .iter()
            .copied()
            .filter(|&j| j != group.default);
        for j in std::iter::once(group.default).chain(others) {
            after[j] = true;
            if engine.can_leave(&after, kind.max(ComponentType::Network)) {
                break;
            }
            after[j] = false;
        }
    }
    after
}

/// The Fix of blocked option `i` on its own pane: the repair is applied and
/// `i` picked; a repair that changes an earlier pane says so first.
pub fn fix(engine: &Engine, selection: &[bool], i: usize, repair: &Repair) -> Change {
    let registry = engine.registry();
    let kind = registry.get(i).kind();
    let repaired = apply_repair(registry, engine.layout(), selection, i, repair);
    let repaired = fill_driver_groups(engine, selection, repaired, kind);
    let mut notices: Vec<String> = Pane::ALL
        .into_iter()
        .filter(|p| p.component_type() < kind)
        .filter_map(|p| {
            let (added, removed) = changes_in(registry, selection, &repaired, p.component_type());
            let mut parts = Vec::new();
            if !added.is_empty() {
                parts.push(format!("selected {}", added.join(", ")));
            }
            if !removed.is_empty() {
                parts.push(format!("deselected {}", removed.join(", ")));
            }
            (!parts.is_empty()).then(|| {
                format!(
                    "To allow {}, {} changed: {}.",
                    registry.label(i),
                    p.title(),
                    parts.join("; ")
                )
            })
        })
        .collect();
    let mut change = settle_after(engine, repaired, kind);
    notices.append(&mut change.notices);
    change.notices = notices;
    change
}

/// Arriving on pane `pane`: the earlier panes are decided, so this pane's
/// and later choices that no longer fit them are dropped, with why.
pub fn arrive(engine: &Engine, selection: &[bool], pane: Pane) -> Change {
    let (selection, dropped) = engine.settle(selection, pane.component_type());
    Change {
        selection,
        notices: dropped.into_iter().map(|d| d.message).collect(),
    }
}

/// Labels of the components of type `kind` that `after` added and removed.
fn changes_in(
    registry: &Registry,
    before: &[bool],
    after: &[bool],
    kind: ComponentType,
) -> (Vec<String>, Vec<String>) {
    let labels = |added: bool| {
        (0..registry.len())
            .filter(|&j| registry.get(j).kind() == kind)
            .filter(|&j| after[j] != before[j] && after[j] == added)
            .map(|j| registry.label(j).to_owned())
            .collect()
    };
    (labels(true), labels(false))
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
        let group = |name: &str| l.radio_group(&r, r.position(name).unwrap());
        assert_eq!(
            group("network:neutron:core:nsx").as_deref(),
            Some("network-core")
        );
        assert_eq!(
            group("storage:block:ceph").as_deref(),
            Some("storage-block")
        );
        assert_eq!(group("storage:object:ceph"), None);
        assert_eq!(group("network:neutron:ml2:ovs"), None);
    }

    #[test]
    fn the_networking_pane_nests_the_drivers_under_the_ml2_core() {
        let r = registry(NET);
        let l = Layout::new(&r);
        let shown = |members: Vec<Member>| {
            members
                .into_iter()
                .map(|m| (r.get(m.index).name.to_string(), m.nested))
                .collect::<Vec<_>>()
        };
        let pane = shown(l.pane_members(Pane::Networking));
        let at = |name: &str| pane.iter().position(|(n, _)| n == name).unwrap();
        assert_eq!(
            at("network:neutron:ml2:ovs"),
            at("network:neutron:core:ml2") + 1
        );
        assert!(pane[at("network:neutron:ml2:ovs")].1, "nested");
        assert_eq!(pane.last().unwrap().0, "network:neutron:service:vpnaas");
        assert_eq!(pane.len(), 5);
        // Without an ML2 core the drivers are options of their own after the cores.
        let mut flat = l.network.clone();
        flat.ml2_core = None;
        let cores = shown(flat.core_members());
        assert_eq!(
            cores.last().unwrap(),
            &("network:neutron:ml2:ovs".to_owned(), false)
        );
        // Every option once, pane after pane.
        let order = l.shown_order();
        assert_eq!(order.len(), r.len());
        assert_eq!(r.get(order[0]).name.to_string(), "hypervisor:libvirt:kvm");
        let mut once = order.clone();
        once.sort_unstable();
        once.dedup();
        assert_eq!(once.len(), r.len());
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

    /// The ML2 core needs exactly one segmentation: its `one_of` over two
    /// drivers makes them a radio group under it.
    const SEGMENTATION: &str = r#"
- {name: 'hypervisor:libvirt:kvm', default: true}
- name: network:neutron:core:ml2
  default: true
  requires: [{one_of: {items: ['network:neutron:ml2:vlan', 'network:neutron:ml2:tun']}}]
- {name: 'network:neutron:core:contrail'}
- {name: 'network:neutron:ml2:vlan', label: VLAN, default: true, weight: 5, requires: [{name: 'network:neutron:core:ml2'}]}
- {name: 'network:neutron:ml2:tun', label: Tunnelling, weight: 6, requires: [{name: 'network:neutron:core:ml2'}]}
- {name: 'network:neutron:ml2:ovs', default: true, weight: 10, requires: [{name: 'network:neutron:core:ml2'}]}
- {name: 'storage:block:lvm', default: true}
"#;

    #[test]
    fn the_drivers_the_ml2_core_needs_one_of_are_a_radio_group() {
        let e = engine(SEGMENTATION);
        let (r, l) = (e.registry(), e.layout());
        let at = |name: &str| r.position(name).unwrap();
        let (vlan, tun, ovs) = (
            at("network:neutron:ml2:vlan"),
            at("network:neutron:ml2:tun"),
            at("network:neutron:ml2:ovs"),
        );
        assert_eq!(
            l.network.driver_groups,
            [DriverGroup {
                members: vec![vlan, tun],
                default: vlan
            }]
        );
        assert_eq!(l.radio_peers(tun), [vlan]);
        assert_eq!(l.control(ovs), Control::Checkbox);
        assert_eq!(l.radio_group(r, tun).as_deref(), Some("network-ml2-0"));
        let start = defaults(r, l);
        let picked = [
            "hypervisor:libvirt:kvm",
            "network:neutron:core:ml2",
            "network:neutron:ml2:vlan",
            "network:neutron:ml2:ovs",
            "storage:block:lvm",
        ];
        assert_eq!(start, select(r, &picked));
        // Picking tunnelling swaps VLAN out; VLAN cannot be unticked alone.
        let change = toggle(&e, &start, tun);
        let mut swapped = picked;
        swapped[2] = "network:neutron:ml2:tun";
        assert_eq!(change.selection, select(r, &swapped));
        assert_eq!(change.notices, Vec::<String>::new());
        assert_eq!(toggle(&e, &start, vlan).selection, start);
        // Another core drops both; a click that brings the ML2 core back (on
        // it, or on a driver) brings the default with it, unless it brings a
        // member itself.
        let contrail = toggle(&e, &start, at("network:neutron:core:contrail")).selection;
        assert!(!contrail[vlan] && !contrail[tun] && !contrail[ovs]);
        let ml2 = at("network:neutron:core:ml2");
        let back = toggle(&e, &contrail, ml2).selection;
        assert!(back[ml2] && back[vlan] && !back[tun] && !back[ovs]);
        let back = toggle(&e, &contrail, ovs).selection;
        assert!(back[ml2] && back[vlan] && back[ovs]);
        let back = toggle(&e, &contrail, tun).selection;
        assert!(back[ml2] && back[tun] && !back[vlan]);
        // The layout's pick alone does not: the engine judges picks by it.
        assert!(!l.pick(&contrail, ml2)[vlan]);
    }

    #[test]
    fn a_one_of_over_one_driver_or_beyond_the_drivers_is_no_radio_group() {
        let r = registry(
            r#"
- name: network:neutron:core:ml2
  requires:
    - {one_of: {items: ['network:neutron:ml2:ovs']}}
    - {one_of: {items: ['network:neutron:ml2:lb', 'network:neutron:service:l3']}}
    - {any_of: {items: ['network:neutron:ml2:*']}}
- {name: 'network:neutron:ml2:ovs'}
- {name: 'network:neutron:ml2:lb'}
- {name: 'network:neutron:service:l3'}
"#,
        );
        let l = Layout::new(&r);
        assert_eq!(l.network.driver_groups, []);
        assert_eq!(
            l.control(r.position("network:neutron:ml2:lb").unwrap()),
            Control::Checkbox
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

    const PANES: &str = r#"
- {name: 'hypervisor:libvirt:kvm', label: KVM}
- {name: 'hypervisor:vmware', label: vCenter}
- {name: 'network:x:ml2:ovs', label: OVS, requires: [{name: 'hypervisor:libvirt:*', message: 'needs libvirt'}]}
- {name: 'network:x:ml2:l2', label: L2, requires: [{name: 'network:x:ml2:ovs'}]}
- {name: 'network:nsx', label: NSX, requires: [{name: 'hypervisor:vmware', message: 'works only with vCenter compute'}]}
- {name: 'storage:lvm'}
"#;

    fn engine(yaml: &str) -> Engine {
        Engine::new(registry(yaml), &crate::component::DEFAULT_REQUIRED_TYPES)
    }

    #[test]
    fn unticking_settles_later_panes_and_says_why() {
        let e = engine(PANES);
        let r = e.registry();
        let s = select(
            r,
            &[
                "hypervisor:libvirt:kvm",
                "hypervisor:vmware",
                "network:x:ml2:ovs",
                "network:x:ml2:l2",
                "storage:lvm",
            ],
        );
        let change = toggle(&e, &s, r.position("hypervisor:libvirt:kvm").unwrap());
        assert_eq!(
            change.selection,
            select(r, &["hypervisor:vmware", "storage:lvm"])
        );
        assert_eq!(change.notices.len(), 2);
        assert!(
            change.notices[0].starts_with("OVS was deselected: "),
            "{:?}",
            change.notices
        );
        assert!(
            change.notices[1].starts_with("L2 was deselected: "),
            "{:?}",
            change.notices
        );
    }

    #[test]
    fn unticking_drops_the_panes_options_that_needed_it() {
        let e = engine(PANES);
        let r = e.registry();
        let s = select(
            r,
            &[
                "hypervisor:libvirt:kvm",
                "network:x:ml2:ovs",
                "network:x:ml2:l2",
            ],
        );
        let change = toggle(&e, &s, r.position("network:x:ml2:ovs").unwrap());
        assert_eq!(change.selection, select(r, &["hypervisor:libvirt:kvm"]));
        assert_eq!(change.notices.len(), 1);
        assert!(change.notices[0].starts_with("L2 was deselected: "));
    }

    #[test]
    fn a_fix_that_changes_an_earlier_pane_says_so() {
        let e = engine(PANES);
        let r = e.registry();
        let s = select(r, &["hypervisor:libvirt:kvm", "network:x:ml2:ovs"]);
        let nsx = r.position("network:nsx").unwrap();
        let evaluation = e.evaluate_pane(
            &["hypervisor:libvirt:kvm".into(), "network:x:ml2:ovs".into()],
            ComponentType::Network,
        );
        let repair = evaluation.components[nsx]
            .repair
            .clone()
            .expect("NSX is blocked");
        assert_eq!(repair.select, ["hypervisor:vmware"]);
        let change = fix(&e, &s, nsx, &repair);
        assert!(change.selection[nsx]);
        assert_eq!(
            change.notices,
            ["To allow NSX, Compute changed: selected vCenter."]
        );
    }

    #[test]
    fn arriving_drops_what_the_earlier_panes_rule_out() {
        let e = engine(PANES);
        let r = e.registry();
        let s = select(
            r,
            &["hypervisor:vmware", "network:x:ml2:ovs", "storage:lvm"],
        );
        let change = arrive(&e, &s, Pane::Networking);
        assert_eq!(
            change.selection,
            select(r, &["hypervisor:vmware", "storage:lvm"])
        );
        assert_eq!(change.notices.len(), 1);
        assert!(
            change.notices[0]
                == "OVS was deselected: OVS requires KVM, which is not selected in Compute.",
            "{:?}",
            change.notices
        );
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
