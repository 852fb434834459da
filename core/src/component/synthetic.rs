//! Synthetic registries for benchmarks and scale tests: deterministic (a
//! seeded generator, no randomness from the environment), shaped like real
//! ones — a few hypervisors and network cores, many ML2 drivers requiring the
//! ML2 core, storage sections, additional services — with a chosen number of
//! components and about five relations each.

use super::model::{Component, Relation, Requires};
use super::name::{ComponentName, Pattern};

/// xorshift64*: small, fast and good enough to spread relations; also the
/// seeded generator of the engine's benchmark walk and the SAT solver's
/// random formulas.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// The same numbers for the same `seed` (any: zero is not a fixed
    /// point once made odd).
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (not 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn component(name: String) -> Component {
    Component {
        name: ComponentName::new(name).expect("generated names are valid"),
        label: String::new(),
        description: String::new(),
        weight: 100,
        default: false,
        compatible: Vec::new(),
        incompatible: Vec::new(),
        requires: Requires::None,
        bind: Vec::new(),
    }
}

fn relation(name: &str) -> Relation {
    Relation {
        name: Pattern::new(name).expect("generated patterns are valid"),
        message: None,
    }
}

/// A registry of `size` components (at least 50) with about `5 * size`
/// relations, the same for the same `seed`.
pub fn registry(size: usize, seed: u64) -> Vec<Component> {
    let size = size.max(50);
    let mut rng = Rng::new(seed);
    let hypervisors = (size / 100).max(3);
    let cores = (size / 50).max(3);
    let drivers = size / 5;
    let services = size / 20;
    let additional = size / 8;
    let storage = size - hypervisors - cores - drivers - services - additional;
    let sections = ["block", "object", "image", "ephemeral", "file", "backup"];

    let mut components = Vec::with_capacity(size);
    for i in 0..hypervisors {
        components.push(component(format!("hypervisor:h{i}")));
    }
    components.push(component("network:neutron:core:ml2".to_owned()));
    for i in 1..cores {
        components.push(component(format!("network:neutron:core:c{i}")));
    }
    for i in 0..drivers {
        components.push(component(format!("network:neutron:ml2:d{i}")));
    }
    for i in 0..services {
        components.push(component(format!("network:neutron:service:s{i}")));
    }
    for i in 0..storage {
        let section = sections[i % sections.len()];
        components.push(component(format!("storage:{section}:b{i}")));
    }
    for i in 0..additional {
        components.push(component(format!("additional_service:a{i}")));
    }
    components[0].default = true;
    components[hypervisors].default = true;
    let first_storage = hypervisors + cores + drivers + services;
    components[first_storage].default = true;

    let names: Vec<String> = components.iter().map(|c| c.name.to_string()).collect();
    let n = names.len();
    // Per type (in pane order), the components of earlier panes.
    let before: Vec<Vec<usize>> = (0..4)
        .map(|rank| {
            (0..n)
                .filter(|&j| (components[j].name.kind() as usize) < rank)
                .collect()
        })
        .collect();
    for (i, c) in components.iter_mut().enumerate() {
        // Two conflicts and two compatibilities with components anywhere
        // (never one of the defaults, so that the defaults stay valid).
        for _ in 0..2 {
            let j = rng.below(n);
            let is_default = j == 0 || j == hypervisors || j == first_storage;
            if j != i && !is_default && i != 0 && i != hypervisors && i != first_storage {
                c.incompatible.push(relation(&names[j]));
            }
            c.compatible.push(relation(&names[rng.below(n)]));
        }
        // One requirement: drivers need the ML2 core; others, one of three
        // components of an earlier pane, or occasionally a wildcard.
        let earlier = &before[c.name.kind() as usize];
        if c.name.has_inner_segment("ml2") {
            c.requires = Requires::Any(vec![relation("network:neutron:core:ml2")]);
        } else if !earlier.is_empty() && rng.below(10) < 7 && !c.default {
            let pick = |rng: &mut Rng| relation(&names[earlier[rng.below(earlier.len())]]);
            let entries = if rng.below(10) == 0 {
                vec![relation("hypervisor:*")]
            } else {
                (0..3).map(|_| pick(&mut rng)).collect()
            };
            c.requires = Requires::Any(entries);
        }
    }
    components
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::{DEFAULT_REQUIRED_TYPES, Engine, Registry, Source};

    #[test]
    fn synthetic_registries_are_deterministic_and_sized() {
        let a = registry(2000, 7);
        assert_eq!(a.len(), 2000);
        assert_eq!(a, registry(2000, 7));
        let relations: usize = a
            .iter()
            .map(|c| {
                c.incompatible.len()
                    + c.compatible.len()
                    + match &c.requires {
                        Requires::Any(r) => r.len(),
                        _ => 0,
                    }
            })
            .sum();
        assert!(
            (9_000..12_000).contains(&relations),
            "{relations} relations"
        );
    }

    #[test]
    fn the_defaults_of_a_synthetic_registry_are_valid() {
        let components = registry(300, 3);
        let defaults: Vec<String> = components
            .iter()
            .filter(|c| c.default)
            .map(|c| c.name.to_string())
            .collect();
        let registry = Registry::new([(Source("synthetic".into()), components)]).unwrap();
        let engine = Engine::new(registry, &DEFAULT_REQUIRED_TYPES);
        let evaluation = engine.evaluate(&defaults);
        assert!(evaluation.valid, "{:?}", evaluation.violations);
    }
}
