//! Panes are decided in order (SEMANTICS §2.4): what a pane's evaluation
//! holds fixed (a [`Frame`]), the reasons an earlier pane gives, and
//! repairs that may select as well as deselect, earlier panes included.

use super::super::name::ComponentType;
use super::super::registry::Registry;
use super::super::sat::{Lit, Outcome, Solver};
use super::{Engine, Reason, Repair, first_combination};
use crate::wizard::{Dropped, Pane};

/// What one evaluation holds fixed.
#[derive(Debug, Clone)]
pub(super) struct Frame {
    /// The pane being decided; `None`: the whole selection at once.
    pub pane: Option<ComponentType>,
    /// Per component: `Some(value)` when an earlier pane fixes it.
    pub fixed: Vec<Option<bool>>,
    /// The components an earlier pane keeps out.
    pub forbidden: Vec<bool>,
}

impl Frame {
    pub fn whole(n: usize) -> Frame {
        Frame {
            pane: None,
            fixed: vec![None; n],
            forbidden: vec![false; n],
        }
    }

    /// Pane `pane` of `selection`: every earlier pane fixed as it is.
    pub fn pane(registry: &Registry, selection: &[bool], pane: ComponentType) -> Frame {
        let fixed: Vec<Option<bool>> = (0..selection.len())
            .map(|j| (registry.get(j).kind() < pane).then_some(selection[j]))
            .collect();
        let forbidden = fixed.iter().map(|v| *v == Some(false)).collect();
        Frame {
            pane: Some(pane),
            fixed,
            forbidden,
        }
    }

    /// Whether a selected component must stay in a witness: every one for
    /// the whole selection, the pane's own in a pane (earlier ones are fixed
    /// by [`Frame::lits`], later ones are free).
    pub fn holds(&self, registry: &Registry, j: usize) -> bool {
        self.pane.is_none_or(|p| registry.get(j).kind() == p)
    }

    /// The fixed values as assumptions.
    pub fn lits(&self) -> Vec<Lit> {
        self.fixed
            .iter()
            .enumerate()
            .filter_map(|(j, v)| v.map(|on| if on { Lit::pos(j) } else { Lit::neg(j) }))
            .collect()
    }

    /// The assumptions of "this pane can still be completed".
    pub fn base(&self, registry: &Registry, selected: &[usize]) -> Vec<Lit> {
        let mut lits = self.lits();
        lits.extend(
            selected
                .iter()
                .filter(|&&j| self.holds(registry, j))
                .map(|&j| Lit::pos(j)),
        );
        lits
    }

    /// Whether `model` keeps the fixed values.
    pub fn admits(&self, model: &[bool]) -> bool {
        self.fixed
            .iter()
            .zip(model)
            .all(|(v, m)| v.is_none_or(|on| on == *m))
    }
}

/// Models found for one frame, each grown to witness as much as it can.
#[derive(Debug, Clone)]
pub(super) struct Cache {
    pub models: Vec<Vec<bool>>,
    /// Components true in some model holding the frame's base.
    pub seen: Vec<bool>,
}

/// The state of one evaluation.
pub(super) struct Ctx {
    pub selection: Vec<bool>,
    pub selected: Vec<usize>,
    pub solver: Solver,
    pub scratch: Vec<bool>,
    pub caches: Vec<Cache>,
}

fn pane_title(kind: ComponentType) -> &'static str {
    Pane::ALL
        .into_iter()
        .find(|p| p.component_type() == kind)
        .map_or("an earlier pane", Pane::title)
}

/// "vCenter", "KVM or QEMU", "A, B or C".
fn either(labels: &[&str]) -> String {
    match labels {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

impl Engine {
    /// Whether the operator can leave pane `pane`: some valid full
    /// selection keeps it and every earlier pane exactly as they are.
    pub fn can_leave(&self, selection: &[bool], pane: ComponentType) -> bool {
        let fixed: Vec<Lit> = (0..selection.len())
            .filter(|&j| self.registry.get(j).kind() <= pane)
            .map(|j| {
                if selection[j] {
                    Lit::pos(j)
                } else {
                    Lit::neg(j)
                }
            })
            .collect();
        Solver::new(&self.cnf).satisfiable(&fixed)
    }

    /// The selection with the choices of `from` and later panes that no
    /// longer fit dropped, each with why: panes before `from` are decided
    /// and kept exactly; the others are kept in pane order, then registry
    /// order, while a valid full selection still holds them all.
    pub fn settle(&self, selection: &[bool], from: ComponentType) -> (Vec<bool>, Vec<Dropped>) {
        let registry = &self.registry;
        let n = registry.len();
        let frame = Frame::pane(registry, selection, from);
        let mut solver = Solver::new(&self.cnf);
        let mut kept = frame.lits();
        let mut next: Vec<bool> = (0..n).map(|j| frame.fixed[j] == Some(true)).collect();
        let mut later: Vec<usize> = (0..n)
            .filter(|&j| selection[j] && frame.fixed[j].is_none())
            .collect();
        later.sort_by_key(|&j| (registry.get(j).kind(), j));
        let mut dropped = Vec::new();
        for j in later {
            kept.push(Lit::pos(j));
            if solver.satisfiable(&kept) {
                next[j] = true;
                continue;
            }
            kept.pop();
            let base: Vec<usize> = (0..n).filter(|&k| next[k]).collect();
            let mut reasons = self.explain_direct(&mut solver, j, &base);
            self.explain_earlier(&mut solver, j, &frame, &base, &mut reasons);
            let why: Vec<String> = reasons.into_iter().map(|r| r.message).collect();
            dropped.push(Dropped {
                name: registry.get(j).name.to_string(),
                message: format!(
                    "{} was deselected: {}",
                    registry.label(j),
                    crate::restriction::join_messages(why.iter().map(String::as_str))
                ),
            });
        }
        (next, dropped)
    }

    /// Reasons an earlier pane gives for `i` being blocked: a requirement
    /// that only components the earlier pane left out could meet.
    pub(super) fn explain_earlier(
        &self,
        solver: &mut Solver,
        i: usize,
        frame: &Frame,
        base: &[usize],
        reasons: &mut Vec<Reason>,
    ) {
        let registry = &self.registry;
        let label = |j: usize| registry.label(j);
        let mut open: Vec<Lit> = base.iter().map(|&j| Lit::pos(j)).collect();
        open.extend(self.conflicts[i].iter().map(|&k| Lit::neg(k)));
        open.extend(self.peers[i].iter().map(|&k| Lit::neg(k)));
        let left_out: Vec<Lit> = frame
            .forbidden
            .iter()
            .enumerate()
            .filter(|(_, f)| **f)
            .map(|(j, _)| Lit::neg(j))
            .collect();
        for encoded in &self.requires[i] {
            let mut assumptions = open.clone();
            assumptions.push(Lit::pos(encoded.var));
            if !solver.satisfiable(&assumptions) {
                continue; // a `requires` reason already says why
            }
            assumptions.extend(left_out.iter().copied());
            if solver.satisfiable(&assumptions) {
                continue;
            }
            let candidates: Vec<usize> = encoded
                .requirement
                .candidates
                .iter()
                .copied()
                .filter(|&c| frame.forbidden[c] && !self.dead[c])
                .collect();
            let Some(&first) = candidates.first() else {
                continue;
            };
            let pane = registry.get(first).kind();
            let labels: Vec<&str> = candidates.iter().map(|&c| label(c)).collect();
            reasons.push(Reason {
                kind: "earlier_pane".to_owned(),
                components: std::iter::once(i)
                    .chain(candidates.iter().copied())
                    .map(|j| registry.get(j).name.to_string())
                    .collect(),
                message: format!(
                    "{} requires {}, which {} not selected in {}.",
                    label(i),
                    either(&labels),
                    if labels.len() == 1 { "is" } else { "are" },
                    pane_title(pane)
                ),
                pane: Some(pane),
            });
        }
        if reasons.is_empty() {
            // Nothing on its own: the choices together, earlier panes'
            // left-out components included.
            let mut reason = self.explain_combination(solver, i, base, &left_out);
            if reason.kind == "combination" && reason.components.len() == 1 {
                let pane = frame
                    .fixed
                    .iter()
                    .enumerate()
                    .find_map(|(j, v)| v.map(|_| registry.get(j).kind()));
                reason.kind = "earlier_pane".to_owned();
                reason.message = format!(
                    "{} cannot be combined with the choices made in {}.",
                    label(i),
                    pane.map_or("the earlier panes", pane_title)
                );
                reason.pane = pane;
            }
            reasons.push(reason);
        }
    }

    /// A smallest change after which `i` is available in `frame`: earlier
    /// panes' components toggled, this pane's selected ones deselected.
    /// Among equally small changes, deselect-only ones first, then the one
    /// whose sorted names come first. Implicit hitting sets over the
    /// changes: a change left free (its value not assumed) that a witness
    /// keeps as it was is not needed, so a feasible optimum is exact.
    pub(super) fn repair_pane(
        &self,
        solver: &mut Solver,
        i: usize,
        frame: &Frame,
        selection: &[bool],
    ) -> Repair {
        let registry = &self.registry;
        let n = registry.len();
        let selected: Vec<usize> = (0..n).filter(|&j| selection[j]).collect();
        let picked = self.layout.pick_indices(&selected, selection, i);
        // Earlier panes' components may be toggled (a dead one is never
        // worth selecting); this pane's kept choices may be deselected.
        let mut changes: Vec<usize> = (0..n)
            .filter(|&j| j != i)
            .filter(|&j| match frame.fixed[j] {
                Some(on) => on || !self.dead[j],
                None => selection[j] && picked.contains(&j) && frame.holds(registry, j),
            })
            .collect();
        changes.sort_by_key(|&j| registry.get(j).name.clone());
        let selects: Vec<bool> = changes.iter().map(|&j| !selection[j]).collect();
        let mut cores: Vec<Vec<usize>> = Vec::new();
        loop {
            let hitting = best_hitting_set(&changes, &selects, &cores);
            let mut assumptions: Vec<Lit> = vec![Lit::pos(i)];
            for &j in changes.iter().filter(|j| !hitting.contains(j)) {
                // An earlier pane's value, or this pane's kept choice.
                assumptions.push(if selection[j] {
                    Lit::pos(j)
                } else {
                    Lit::neg(j)
                });
            }
            // What picking `i` adds besides it (the ML2 core for a driver).
            assumptions.extend(
                picked
                    .iter()
                    .filter(|&&j| !selection[j] && j != i)
                    .map(|&j| Lit::pos(j)),
            );
            match solver.solve(&assumptions) {
                Outcome::Sat(model) => {
                    // A change the witness did not make is not needed.
                    let made: Vec<usize> = hitting
                        .into_iter()
                        .filter(|&j| model[j] != selection[j])
                        .collect();
                    let names = |want: bool| {
                        let mut v: Vec<String> = made
                            .iter()
                            .filter(|&&j| selection[j] != want)
                            .map(|&j| registry.get(j).name.to_string())
                            .collect();
                        v.sort();
                        v
                    };
                    return Repair {
                        select: names(true),
                        deselect: names(false),
                    };
                }
                Outcome::Unsat(core) => {
                    let core: Vec<usize> = changes
                        .iter()
                        .copied()
                        .filter(|j| core.contains(j) && !hitting.contains(j))
                        .collect();
                    if core.is_empty() {
                        // Only a dead component has no repair at all.
                        return Repair::default();
                    }
                    cores.push(core);
                }
            }
        }
    }
}

/// The best subset of `order` (sorted by name) that intersects every core:
/// the smallest; among those, one without selects if there is one; then the
/// first by sorted names.
fn best_hitting_set(order: &[usize], selects: &[bool], cores: &[Vec<usize>]) -> Vec<usize> {
    let useful: Vec<usize> = order
        .iter()
        .copied()
        .filter(|j| cores.iter().any(|c| c.contains(j)))
        .collect();
    let deselects: Vec<usize> = useful
        .iter()
        .copied()
        .filter(|j| {
            order
                .iter()
                .position(|o| o == j)
                .is_some_and(|k| !selects[k])
        })
        .collect();
    for size in 0..=useful.len() {
        for pool in [&deselects, &useful] {
            let mut picked = Vec::with_capacity(size);
            if let Some(found) = first_combination(pool, size, 0, &mut picked, cores) {
                return found;
            }
        }
    }
    useful
}
