//! The engine against a brute-force oracle on random small registries:
//! every `available` has a witness, `blocked` and `dead` have none, every
//! repair works and is the smallest (first by name among equals), and
//! `valid`/`completable` agree with enumeration of every selection.

mod common;

use common::{Oracle, case, mask_of};
use mosaic_core::component::{
    DEFAULT_REQUIRED_TYPES, Engine, Registry, Source, State, validate_selection,
};
use mosaic_core::wizard::Layout;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn the_engine_agrees_with_brute_force((components, selection) in case()) {
        let registry = Registry::new([(Source("random".into()), components)]).unwrap();
        let layout = Layout::new(&registry);
        let oracle = Oracle::new(&registry, &layout);
        let engine = Engine::new(registry.clone(), &DEFAULT_REQUIRED_TYPES);
        let n = registry.len();
        let names: Vec<String> = (0..n)
            .filter(|&i| selection[i])
            .map(|i| registry.get(i).name.to_string())
            .collect();
        let evaluation = engine.evaluate(&names);
        let current = mask_of(&selection);

        prop_assert_eq!(evaluation.completable, oracle.extendable(current));
        prop_assert_eq!(
            evaluation.valid,
            validate_selection(&registry, &DEFAULT_REQUIRED_TYPES, &names).is_empty()
        );
        for (i, report) in evaluation.components.iter().enumerate() {
            let alive = oracle.extendable(1 << i);
            if selection[i] {
                prop_assert_eq!(report.state, State::Selected);
                continue;
            }
            let after = mask_of(&layout.pick(&selection, i));
            let expected = if !alive {
                State::Dead
            } else if oracle.extendable(after) {
                State::Available
            } else {
                State::Blocked
            };
            prop_assert_eq!(report.state, expected, "component {}", report.name);
            if expected != State::Blocked {
                prop_assert!(report.repair.is_none());
                continue;
            }
            prop_assert!(!report.reasons.is_empty());
            // The repair works…
            let deselect: Vec<&String> = report.repair.as_ref().unwrap().deselect.iter().collect();
            let removed = deselect
                .iter()
                .map(|name| registry.position(name).unwrap())
                .fold(0u32, |m, j| m | (1 << j));
            prop_assert_eq!(removed & (1 << i), 0);
            prop_assert_eq!(removed & !after, 0, "a repair deselects only selected components");
            prop_assert!(oracle.extendable(after & !removed));
            // …and is the smallest, the first by sorted names among equals.
            let mut others: Vec<usize> = (0..n).filter(|&j| j != i && after & (1 << j) != 0).collect();
            others.sort_by_key(|&j| registry.get(j).name.to_string());
            let best = (0u32..1 << others.len())
                .filter(|&sub| {
                    let r = others.iter().enumerate().filter(|(k, _)| sub & (1 << k) != 0).fold(0u32, |m, (_, &j)| m | (1 << j));
                    oracle.extendable(after & !r)
                })
                .map(|sub| {
                    others.iter().enumerate().filter(|(k, _)| sub & (1 << k) != 0).map(|(_, &j)| registry.get(j).name.to_string()).collect::<Vec<_>>()
                })
                .min_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)))
                .unwrap();
            let got: Vec<String> = deselect.into_iter().cloned().collect();
            prop_assert_eq!(got, best);
        }
    }
}
