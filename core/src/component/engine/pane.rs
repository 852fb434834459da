//! Panes are decided in order (SEMANTICS §2.4): what a pane's evaluation
//! holds fixed (a [`Frame`], `frame.rs`), the reasons an earlier pane gives, and
//! repairs that may select as well as deselect, earlier panes included.

use super::super::name::ComponentType;
use super::super::sat::{Lit, Outcome};
use super::frame::Frame;
use super::queries::Queries;
use super::{Engine, Reason, Repair, first_hitting_set};
use crate::component::layout::{Dropped, Pane};

/// Models found for one frame, each grown to witness as much as it can.
#[derive(Debug, Clone)]
pub(super) struct Cache {
    pub models: Vec<Vec<bool>>,
    /// Components true in some model holding the frame's base.
    pub seen: Vec<bool>,
}

/// The state of one evaluation.
pub(super) struct Ctx<'a> {
    pub selection: Vec<bool>,
    pub selected: Vec<usize>,
    pub solver: Queries<'a>,
    pub scratch: Vec<bool>,
    pub caches: Vec<Cache>,
    /// Only states: no blocked component's reasons or smallest repair, no
    /// advice.
    pub states_only: bool,
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
        Queries::new(self).satisfiable(&fixed)
    }

    /// The selection with the choices of `from` and later panes that no
    /// longer fit dropped, each with why: panes before `from` are decided
    /// and kept exactly; the others are kept in pane order, then registry
    /// order, while a valid full selection still holds them all.
    pub fn settle(&self, selection: &[bool], from: ComponentType) -> (Vec<bool>, Vec<Dropped>) {
        let registry = &self.registry;
        let n = registry.len();
        let frame = Frame::pane(registry, selection, from);
        let mut solver = Queries::new(self);
        let mut kept: Vec<Lit> = Vec::new();
        let mut next: Vec<bool> = (0..n).map(|j| frame.fixed[j] == Some(true)).collect();
        let mut later: Vec<usize> = (0..n)
            .filter(|&j| selection[j] && frame.fixed[j].is_none())
            .collect();
        later.sort_by_key(|&j| (registry.get(j).kind(), j));
        let mut dropped = Vec::new();
        for j in later {
            kept.push(Lit::pos(j));
            if solver.satisfiable_in(&frame, &[], &kept) {
                next[j] = true;
                continue;
            }
            kept.pop();
            let base: Vec<usize> = (0..n).filter(|&k| next[k]).collect();
            let (mut reasons, met) = self.explain_direct(&mut solver, j, &base);
            self.explain_earlier(&mut solver, j, &frame, &base, &met, &mut reasons);
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
    /// that only components the earlier pane left out could meet (`met`:
    /// per requirement, whether [`Engine::explain_direct`] found it can be
    /// met next to the rest of `base`).
    pub(super) fn explain_earlier(
        &self,
        solver: &mut Queries<'_>,
        i: usize,
        frame: &Frame,
        base: &[usize],
        met: &[bool],
        reasons: &mut Vec<Reason>,
    ) {
        let registry = &self.registry;
        let label = |j: usize| registry.label(j);
        let mut open: Vec<Lit> = base.iter().map(|&j| Lit::pos(j)).collect();
        open.extend(self.conflicts[i].iter().map(|&k| Lit::neg(k)));
        open.extend(self.peers[i].iter().map(|&k| Lit::neg(k)));
        // With a conflict in `base` nothing can be met next to all of it.
        let conflicting = base
            .iter()
            .any(|j| self.conflicts[i].binary_search(j).is_ok());
        for (encoded, &met) in self.requires[i].iter().zip(met) {
            if conflicting || !met {
                continue; // a `requires` or `incompatible` reason says why
            }
            let mut assumptions = open.clone();
            assumptions.push(Lit::pos(encoded.var));
            // The same with what the earlier panes left out.
            if solver.satisfiable_in(frame, &[], &assumptions) {
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
                    crate::text::agree(labels.len(), "is", "are"),
                    pane_title(pane)
                ),
                pane: Some(pane),
            });
        }
        if reasons.is_empty() {
            // Nothing on its own: the choices together, earlier panes'
            // left-out components included.
            let left_out: Vec<Lit> = frame.left_out().collect();
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
    /// `first` is a contradiction already found among `i`, `frame` and this
    /// pane's choices (the variables involved): the search starts from it.
    pub(super) fn repair_pane(
        &self,
        solver: &mut Queries<'_>,
        i: usize,
        frame: &Frame,
        (selected, selection): (&[usize], &[bool]),
        first: Vec<usize>,
    ) -> Repair {
        let registry = &self.registry;
        let rank = |j: usize| self.rank[j];
        let picked = self.layout.pick_indices(selected, selection, i);
        let (changes, pane_kept) = self.changeable(frame, &picked, selection, i);
        let is_change = |j: usize| changes.binary_search_by_key(&rank(j), |&x| rank(x)).is_ok();
        let as_core = |vars: Vec<usize>, hitting: &[usize]| {
            let mut core: Vec<usize> = vars
                .into_iter()
                .filter(|&j| j < registry.len() && is_change(j) && !hitting.contains(&j))
                .collect();
            core.sort_by_key(|&j| rank(j));
            core.dedup();
            core
        };
        let mut cores: Vec<Vec<usize>> = Vec::new();
        let first = as_core(first, &[]);
        if !first.is_empty() {
            cores.push(first);
        }
        loop {
            let mut hitting = best_hitting_set(&self.rank, selection, &cores);
            // The earlier panes' values but the changed ones (the frame),
            // this pane's kept choices but the deselected ones, `i`, and
            // what picking `i` adds besides it (the ML2 core for a driver).
            let free: Vec<usize> = hitting
                .iter()
                .copied()
                .filter(|&j| frame.fixed[j].is_some())
                .collect();
            let mut assumptions: Vec<Lit> = vec![Lit::pos(i)];
            assumptions.extend(
                pane_kept
                    .iter()
                    .filter(|j| !hitting.contains(j))
                    .map(|&j| Lit::pos(j)),
            );
            assumptions.extend(
                picked
                    .iter()
                    .filter(|&&j| !selection[j] && j != i)
                    .map(|&j| Lit::pos(j)),
            );
            match solver.solve_in(frame, &free, &assumptions) {
                Outcome::Sat(model) => {
                    // A change the witness did not make is not needed.
                    hitting.retain(|&j| model[j] != selection[j]);
                    return self.repair_of(&hitting, selection);
                }
                Outcome::Unsat(core) => {
                    let core = as_core(core, &hitting);
                    if core.is_empty() {
                        // Only a dead component has no repair at all.
                        return Repair::default();
                    }
                    cores.push(core);
                }
            }
        }
    }

    /// What a repair of `i` in `frame` may change, in name order: earlier
    /// panes' components may be toggled (a dead one is never worth
    /// selecting; this part is the same for every component of the pane),
    /// and this pane's kept choices (returned second) may be deselected.
    fn changeable(
        &self,
        frame: &Frame,
        picked: &[usize],
        selection: &[bool],
        i: usize,
    ) -> (Vec<usize>, Vec<usize>) {
        let registry = &self.registry;
        let rank = |j: usize| self.rank[j];
        let mut changes = frame
            .changeable
            .get_or_init(|| {
                let mut earlier: Vec<usize> = (0..registry.len())
                    .filter(|&j| frame.fixed[j].is_some_and(|on| on || !self.dead[j]))
                    .collect();
                earlier.sort_by_key(|&j| rank(j));
                earlier
            })
            .clone();
        let pane_kept: Vec<usize> = picked
            .iter()
            .copied()
            .filter(|&j| {
                j != i && selection[j] && frame.fixed[j].is_none() && frame.holds(registry, j)
            })
            .collect();
        for &j in &pane_kept {
            let at = changes.partition_point(|&x| rank(x) < rank(j));
            changes.insert(at, j);
        }
        (changes, pane_kept)
    }

    /// The repair that makes the changes `made`: names to select, names to
    /// deselect, each sorted.
    fn repair_of(&self, made: &[usize], selection: &[bool]) -> Repair {
        let names = |want: bool| {
            let mut v: Vec<String> = made
                .iter()
                .filter(|&&j| selection[j] != want)
                .map(|&j| self.registry.get(j).name.to_string())
                .collect();
            v.sort();
            v
        };
        Repair {
            select: names(true),
            deselect: names(false),
        }
    }
}

/// The best set of changes that intersects every core: the smallest;
/// among those, one without selects (of components `selection` leaves
/// out) if there is one; then the first by sorted names (`rank`).
fn best_hitting_set(rank: &[usize], selection: &[bool], cores: &[Vec<usize>]) -> Vec<usize> {
    let mut useful: Vec<usize> = cores.iter().flatten().copied().collect();
    useful.sort_by_key(|&j| rank[j]);
    useful.dedup();
    let deselects: Vec<usize> = useful.iter().copied().filter(|&j| selection[j]).collect();
    for size in 0..=useful.len() {
        for pool in [&deselects, &useful] {
            if let Some(found) = first_hitting_set(pool, size, cores) {
                return found;
            }
        }
    }
    useful
}
