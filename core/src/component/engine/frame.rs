//! What one evaluation of the engine holds fixed: the whole selection, or
//! a pane with every earlier pane as it is (SEMANTICS §2.4). Both the
//! panes' decisions (`pane.rs`) and the SAT questions (`queries.rs`) read it.

use std::cell::OnceCell;

use super::super::name::ComponentType;
use super::super::registry::Registry;
use super::super::sat::Lit;

/// What one evaluation holds fixed.
#[derive(Debug, Clone)]
pub(super) struct Frame {
    /// The pane being decided; `None`: the whole selection at once.
    pub pane: Option<ComponentType>,
    /// Per component: `Some(value)` when an earlier pane fixes it.
    pub fixed: Vec<Option<bool>>,
    /// The components an earlier pane keeps out.
    pub forbidden: Vec<bool>,
    /// The components an earlier pane keeps in, in registry order.
    pub kept: Vec<usize>,
    /// The fixed values as assumptions (see [`Frame::lits`]).
    lits: Vec<Lit>,
    /// The fixed components a repair may toggle, in name order (worked out
    /// by the first repair).
    pub changeable: OnceCell<Vec<usize>>,
}

impl Frame {
    pub fn whole(n: usize) -> Frame {
        Frame::new(None, vec![None; n])
    }

    /// Pane `pane` of `selection`: every earlier pane fixed as it is.
    pub fn pane(registry: &Registry, selection: &[bool], pane: ComponentType) -> Frame {
        let fixed: Vec<Option<bool>> = (0..selection.len())
            .map(|j| (registry.get(j).kind() < pane).then_some(selection[j]))
            .collect();
        Frame::new(Some(pane), fixed)
    }

    fn new(pane: Option<ComponentType>, fixed: Vec<Option<bool>>) -> Frame {
        let forbidden = fixed.iter().map(|v| *v == Some(false)).collect();
        let kept = (0..fixed.len())
            .filter(|&j| fixed[j] == Some(true))
            .collect();
        let lits = fixed
            .iter()
            .enumerate()
            .filter_map(|(j, v)| v.map(|on| if on { Lit::pos(j) } else { Lit::neg(j) }))
            .collect();
        Frame {
            pane,
            fixed,
            forbidden,
            kept,
            lits,
            changeable: OnceCell::new(),
        }
    }

    /// Whether a selected component must stay in a witness: every one for
    /// the whole selection, the pane's own in a pane (earlier ones are fixed
    /// by [`Frame::lits`], later ones are free).
    pub fn holds(&self, registry: &Registry, j: usize) -> bool {
        self.pane.is_none_or(|p| registry.get(j).kind() == p)
    }

    /// The fixed values as assumptions.
    pub fn lits(&self) -> &[Lit] {
        &self.lits
    }

    /// The components an earlier pane keeps out, as assumptions.
    pub fn left_out(&self) -> impl Iterator<Item = Lit> + '_ {
        self.lits.iter().copied().filter(|l| !l.positive)
    }

    /// What "this pane can still be completed" assumes besides the fixed
    /// values: its own choices.
    pub fn base(&self, registry: &Registry, selected: &[usize]) -> Vec<Lit> {
        selected
            .iter()
            .filter(|&&j| self.holds(registry, j))
            .map(|&j| Lit::pos(j))
            .collect()
    }

    /// Whether `model` keeps the fixed values.
    pub fn admits(&self, model: &[bool]) -> bool {
        self.fixed
            .iter()
            .zip(model)
            .all(|(v, m)| v.is_none_or(|on| on == *m))
    }
}
