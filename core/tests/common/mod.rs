//! Random small registries and a brute-force enumeration of the valid
//! full selections the wizard can produce: what the engine's property
//! tests compare it with; `bundled`: the bundled release, for the tests
//! about it.
#![allow(dead_code)]

pub mod bundled;

use mosaic_core::component::{
    Component, ComponentName, DEFAULT_REQUIRED_TYPES, Pattern, Predicate, PredicateBody,
    Quantifier, Registry, Relation, Requires, validate_selection,
};
use mosaic_core::wizard::Layout;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};

pub const NAMES: &[&str] = &[
    "hypervisor:libvirt:kvm",
    "hypervisor:libvirt:qemu",
    "hypervisor:vmware",
    "network:neutron:core:ml2",
    "network:neutron:core:nsx",
    "network:neutron:ml2:ovs",
    "network:neutron:ml2:dvs",
    "network:neutron:service:l3",
    "storage:block:lvm",
    "storage:block:ceph",
    "storage:object:swift",
    "storage:object:ceph",
    "additional_service:sahara",
];

const PATTERNS: &[&str] = &[
    "hypervisor:*",
    "hypervisor:libvirt:*",
    "network:neutron:ml2:*",
    "network:*",
    "storage:block:*",
    "storage:*",
    "hypervisor:xen",
];

fn pattern() -> impl Strategy<Value = Pattern> {
    prop_oneof![
        3 => select(NAMES),
        1 => select(PATTERNS),
    ]
    .prop_map(|p| Pattern::new(p).unwrap())
}

fn relations(max: usize) -> impl Strategy<Value = Vec<Relation>> {
    prop::collection::vec(pattern(), 0..=max).prop_map(|ps| {
        ps.into_iter()
            .map(|name| Relation {
                name,
                message: None,
            })
            .collect()
    })
}

fn requires() -> impl Strategy<Value = Requires> {
    let quantifier = select(
        &[
            Quantifier::OneOf,
            Quantifier::AnyOf,
            Quantifier::NoneOf,
            Quantifier::AllOf,
        ][..],
    );
    let predicate =
        (quantifier, prop::collection::vec(pattern(), 1..=2)).prop_map(|(q, items)| Predicate {
            quantifier: q,
            body: PredicateBody {
                items,
                message: None,
                message_invalid: None,
            },
        });
    prop_oneof![
        3 => Just(Requires::None),
        2 => relations(2).prop_map(|r| if r.is_empty() { Requires::None } else { Requires::Any(r) }),
        2 => prop::collection::vec(predicate, 1..=2).prop_map(Requires::Predicates),
    ]
}

/// What the ML2 core requires: often exactly one of the drivers (a radio
/// group of drivers, as the bundled release's segmentation), else anything.
fn ml2_requires() -> impl Strategy<Value = Requires> {
    let one_driver = Requires::Predicates(vec![Predicate {
        quantifier: Quantifier::OneOf,
        body: PredicateBody {
            items: vec![Pattern::new("network:neutron:ml2:*").unwrap()],
            message: None,
            message_invalid: None,
        },
    }]);
    prop_oneof![2 => requires(), 1 => Just(one_driver)]
}

fn component(name: &'static str) -> impl Strategy<Value = Component> {
    let requires = if name == "network:neutron:core:ml2" {
        ml2_requires().boxed()
    } else {
        requires().boxed()
    };
    (relations(1), relations(2), requires, any::<bool>()).prop_map(
        move |(compatible, incompatible, requires, default)| Component {
            name: ComponentName::new(name).unwrap(),
            label: String::new(),
            description: String::new(),
            weight: 100,
            default,
            compatible,
            incompatible,
            requires,
            bind: Vec::new(),
        },
    )
}

/// A registry of 3 to 9 of the names, with random relations, and a random
/// current selection of its components.
pub fn case() -> impl Strategy<Value = (Vec<Component>, Vec<bool>)> {
    subsequence(NAMES, 3..=9)
        .prop_flat_map(|names| names.into_iter().map(component).collect::<Vec<_>>())
        .prop_flat_map(|components| {
            let n = components.len();
            (
                Just(components),
                prop::collection::vec(prop::bool::weighted(0.3), n),
            )
        })
}

pub struct Oracle {
    /// Every subset (as a bit mask) that is a valid full selection the wizard can produce.
    pub valid: Vec<u32>,
}

impl Oracle {
    pub fn new(registry: &Registry, layout: &Layout) -> Oracle {
        let n = registry.len();
        let valid = (0u32..1 << n)
            .filter(|&mask| {
                let names: Vec<String> = (0..n)
                    .filter(|&i| mask & (1 << i) != 0)
                    .map(|i| registry.get(i).name.to_string())
                    .collect();
                let cores = layout
                    .network
                    .cores
                    .iter()
                    .filter(|&&i| mask & (1 << i) != 0)
                    .count();
                let radio_storage = layout.storage.iter().filter(|s| s.radio);
                let radio_ok = (layout.network.driver_groups.iter().map(|g| &g.members))
                    .chain(radio_storage.map(|s| &s.members))
                    .all(|group| group.iter().filter(|&&i| mask & (1 << i) != 0).count() <= 1);
                let drivers_ok = match layout.network.ml2_core {
                    Some(ml2) => {
                        mask & (1 << ml2) != 0
                            || layout.network.drivers.iter().all(|&d| mask & (1 << d) == 0)
                    }
                    None => true,
                };
                cores <= 1
                    && radio_ok
                    && drivers_ok
                    && validate_selection(registry, &DEFAULT_REQUIRED_TYPES, &names).is_empty()
            })
            .collect();
        Oracle { valid }
    }

    pub fn extendable(&self, mask: u32) -> bool {
        self.valid.iter().any(|&v| v & mask == mask)
    }
}

pub fn mask_of(selection: &[bool]) -> u32 {
    selection
        .iter()
        .enumerate()
        .filter(|(_, s)| **s)
        .fold(0, |m, (i, _)| m | (1 << i))
}
