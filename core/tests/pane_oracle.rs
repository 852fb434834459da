//! Panes are decided in order (SEMANTICS §2.4): the engine's pane
//! evaluation against brute-force enumeration on random small registries.
//! For every pane: states agree with the oracle; picking an `available`
//! option keeps it selected and the pane completable; every `blocked`
//! option has a repair after which it is available, and the repair is the
//! smallest change — deselect-only first, then the first by sorted names.
//!
//! Selections are ones the wizard can be in (made by picking). `PROPTEST_CASES`
//! sets the number of registries (default 1,000).

mod common;

use common::{Oracle, case, mask_of};
use mosaic_core::component::{
    ComponentType, DEFAULT_REQUIRED_TYPES, Engine, Registry, Source, State,
};
use mosaic_core::wizard::{self, Layout, apply_repair};
use proptest::prelude::*;

/// The panes' masks: every component of a pane before `pane`, and of `pane`.
fn pane_masks(registry: &Registry, pane: ComponentType) -> (u32, u32) {
    let mut before = 0;
    let mut own = 0;
    for j in 0..registry.len() {
        let kind = registry.get(j).kind();
        if kind < pane {
            before |= 1 << j;
        } else if kind == pane {
            own |= 1 << j;
        }
    }
    (before, own)
}

/// Some valid full selection keeps `selection` on the panes before `pane`
/// exactly and holds `required`.
fn witness(oracle: &Oracle, before: u32, selection: u32, required: u32) -> bool {
    oracle
        .valid
        .iter()
        .any(|&v| v & before == selection & before && v & required == required)
}

/// A change's order (size, whether it selects, sorted names) and the change.
type Ranked = ((usize, bool, Vec<String>), (Vec<String>, Vec<String>));

struct Case<'a> {
    registry: &'a Registry,
    layout: &'a Layout,
    oracle: &'a Oracle,
    engine: &'a Engine,
}

impl Case<'_> {
    /// Whether `i` is available in pane `pane` of `selection` (a mask).
    fn available(&self, selection: &[bool], i: usize, pane: ComponentType) -> bool {
        let q = self.registry.get(i).kind().min(pane);
        let (before, own) = pane_masks(self.registry, q);
        let picked = mask_of(&self.layout.pick(selection, i));
        witness(
            self.oracle,
            before,
            mask_of(selection),
            (picked & own) | (1 << i),
        )
    }

    fn completable(&self, selection: &[bool], pane: ComponentType) -> bool {
        let (before, own) = pane_masks(self.registry, pane);
        let current = mask_of(selection);
        witness(self.oracle, before, current, current & own)
    }

    /// The best change (toggles of earlier panes' components, deselects of
    /// this pane's kept choices) after which `i` is available.
    fn best_repair(
        &self,
        selection: &[bool],
        i: usize,
        pane: ComponentType,
    ) -> (Vec<String>, Vec<String>) {
        let q = self.registry.get(i).kind().min(pane);
        let n = self.registry.len();
        let picked = self.layout.pick(selection, i);
        let mut universe: Vec<usize> = (0..n)
            .filter(|&j| j != i)
            .filter(|&j| {
                let kind = self.registry.get(j).kind();
                kind < q || (kind == q && selection[j] && picked[j])
            })
            .collect();
        universe.sort_by_key(|&j| self.registry.get(j).name.to_string());
        let mut best: Option<Ranked> = None;
        for sub in 0u32..1 << universe.len() {
            let mut after = selection.to_vec();
            for (k, &j) in universe.iter().enumerate() {
                if sub & (1 << k) != 0 {
                    after[j] = !after[j];
                }
            }
            if !self.available(&after, i, pane) {
                continue;
            }
            let toggled: Vec<usize> = universe
                .iter()
                .enumerate()
                .filter(|(k, _)| sub & (1 << k) != 0)
                .map(|(_, &j)| j)
                .collect();
            let name = |j: usize| self.registry.get(j).name.to_string();
            let select: Vec<String> = toggled
                .iter()
                .filter(|&&j| !selection[j])
                .map(|&j| name(j))
                .collect();
            let deselect: Vec<String> = toggled
                .iter()
                .filter(|&&j| selection[j])
                .map(|&j| name(j))
                .collect();
            let mut all: Vec<String> = toggled.iter().map(|&j| name(j)).collect();
            all.sort();
            let key = (toggled.len(), !select.is_empty(), all);
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                let (mut select, mut deselect) = (select, deselect);
                select.sort();
                deselect.sort();
                best = Some((key, (select, deselect)));
            }
        }
        best.expect("a blocked component has a repair").1
    }
}

fn names_of(registry: &Registry, selection: &[bool]) -> Vec<String> {
    (0..registry.len())
        .filter(|&i| selection[i])
        .map(|i| registry.get(i).name.to_string())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000),
        ..ProptestConfig::default()
    })]

    #[test]
    fn panes_are_decided_in_order((components, selection) in case(), pane in 0usize..4) {
        let pane = ComponentType::ALL[pane];
        let registry = Registry::new([(Source("random".into()), components)]).unwrap();
        let layout = Layout::new(&registry);
        // A selection the wizard can be in: made by picking, so at most one
        // network core, one member per radio section, drivers under ML2.
        let selection = (0..registry.len())
            .filter(|&i| selection[i])
            .fold(vec![false; registry.len()], |s, i| layout.pick(&s, i));
        let oracle = Oracle::new(&registry, &layout);
        let engine = Engine::new(registry.clone(), &DEFAULT_REQUIRED_TYPES);
        let case = Case { registry: &registry, layout: &layout, oracle: &oracle, engine: &engine };
        let evaluation = engine.evaluate_pane(&names_of(&registry, &selection), pane);
        prop_assert_eq!(evaluation.completable, case.completable(&selection, pane));
        // What the wizard asks on every click: the pane's own components,
        // judged as the whole evaluation judges them.
        let own = engine.evaluate_pane_own(&names_of(&registry, &selection), pane);
        let judged = |e: &mosaic_core::component::Evaluation| -> Vec<_> {
            e.components
                .iter()
                .filter(|r| registry.get(registry.position(&r.name).unwrap()).kind() == pane)
                .map(|r| (r.name.clone(), r.state, r.repair.clone()))
                .collect()
        };
        prop_assert_eq!(judged(&own), judged(&evaluation));
        // What the wizard asks since reasons and repairs are worked out per
        // row on screen: the same states, and each row's own repair. (Reasons
        // may name another contradiction: which one is found first depends
        // on what the evaluation asked the solver before; there is one.)
        let names = names_of(&registry, &selection);
        let states = engine.evaluate_pane_states(&names, pane);
        prop_assert_eq!(states.components.len(), own.components.len());
        for (lazy, full) in states.components.iter().zip(&own.components) {
            prop_assert_eq!((&lazy.name, lazy.state), (&full.name, full.state));
            if full.state == State::Blocked {
                prop_assert_eq!(&lazy.reasons, &Vec::new());
            } else {
                prop_assert_eq!(&lazy.reasons, &full.reasons);
            }
            prop_assert_eq!(&lazy.repair, &None);
            prop_assert_eq!((lazy.compatibility, lazy.untested_with.len()), (None, 0));
            if matches!(full.state, State::Selected | State::Available) {
                let advice = engine.advice(&names, &[&full.name]);
                prop_assert_eq!(advice[0].compatibility, full.compatibility);
                prop_assert_eq!(&advice[0].untested_with, &full.untested_with);
            }
            let alone = engine.blocked_in_pane(&names, pane, &[&full.name]).pop().flatten();
            prop_assert_eq!(alone.as_ref().map(|b| &b.repair), full.repair.as_ref());
            if let Some(blocking) = alone {
                prop_assert!(!blocking.reasons.is_empty(), "{} has no reason", full.name);
                // Conflicts and unmet requirements are found the same way in
                // any evaluation; the combination a fallback names need not.
                let kinds = |r: &[mosaic_core::component::Reason]| -> Vec<String> {
                    r.iter()
                        .filter(|r| r.kind == "incompatible" || r.kind == "requires")
                        .map(|r| r.kind.clone())
                        .collect()
                };
                prop_assert_eq!(kinds(&blocking.reasons), kinds(&full.reasons));
            }
        }
        // Rows that come near the screen together are worked out in one
        // call: in any order, asked twice, or asked of another pane, each
        // answer is the row's own.
        let mut asked: Vec<&str> = own.components.iter().rev().map(|r| r.name.as_str()).collect();
        asked.extend(own.components.first().map(|r| r.name.as_str()));
        asked.extend(evaluation.components.iter().map(|r| r.name.as_str()));
        let together = engine.blocked_in_pane(&names, pane, &asked);
        prop_assert_eq!(together.len(), asked.len());
        for (name, blocking) in asked.iter().zip(&together) {
            let full = own.components.iter().find(|r| r.name == *name);
            prop_assert_eq!(
                blocking.as_ref().map(|b| &b.repair),
                full.and_then(|r| r.repair.as_ref()),
                "{}",
                name
            );
        }
        prop_assert_eq!(own.components.len(), judged(&evaluation).len());
        prop_assert_eq!((own.valid, own.completable), (evaluation.valid, evaluation.completable));
        for (i, report) in evaluation.components.iter().enumerate() {
            if selection[i] {
                prop_assert_eq!(report.state, State::Selected);
                continue;
            }
            let expected = if !oracle.extendable(1 << i) {
                State::Dead
            } else if case.available(&selection, i, pane) {
                State::Available
            } else {
                State::Blocked
            };
            prop_assert_eq!(report.state, expected, "{} in pane {:?}", report.name, pane);
            let own = registry.get(i).kind() == pane;
            if expected == State::Available && own && case.completable(&selection, pane) {
                // Picking it on its pane keeps it, and the pane completable.
                let after = wizard::toggle(case.engine, &selection, i).selection;
                prop_assert!(after[i], "{} dropped itself", report.name);
                prop_assert!(case.completable(&after, pane), "{} left the pane stuck", report.name);
            }
            if expected != State::Blocked {
                prop_assert!(report.repair.is_none());
                continue;
            }
            prop_assert!(!report.reasons.is_empty());
            let repair = report.repair.clone().unwrap();
            // The repair makes it available…
            let mut after = selection.clone();
            for (list, on) in [(&repair.deselect, false), (&repair.select, true)] {
                for name in list {
                    after[registry.position(name).unwrap()] = on;
                }
            }
            prop_assert!(case.available(&after, i, pane), "{}: {:?} does not make it available", report.name, repair);
            let fixed = apply_repair(&registry, &layout, &selection, i, &repair);
            prop_assert!(fixed[i]);
            if own {
                // The Fix button: the repair, the pick, later panes settled.
                let after = wizard::fix(case.engine, &selection, i, &repair).selection;
                prop_assert!(after[i], "{} dropped itself after its fix", report.name);
                prop_assert!(case.completable(&after, pane), "{}'s fix left the pane stuck", report.name);
            }
            // …and is the best change.
            let (select, deselect) = case.best_repair(&selection, i, pane);
            prop_assert_eq!((&repair.select, &repair.deselect), (&select, &deselect), "{}", report.name);
        }
    }
}
