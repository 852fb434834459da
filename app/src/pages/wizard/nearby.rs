//! What a row shows only while it is near the screen: why a blocked option
//! is blocked and its smallest repair, and a selected or available
//! option's compatibility advice. Worked out in one
//! `Engine::blocked_in_pane` and one
//! `Engine::advice` call per evaluation of the pane shown, and again only
//! for the rows that come near later, until the next evaluation. A pane
//! can hold hundreds of blocked options and hundreds of advised ones whose
//! "not tested with" list changes with every choice; the rows near the
//! screen are a few dozen.

use std::collections::BTreeSet;
use std::sync::Arc;

use leptos::prelude::*;
use mosaic_core::component::{Evaluation, State};
use mosaic_core::wizard::Pane;

use super::{Flow, RowState, set_if_changed};
use crate::catalog::Catalog;

/// What the rows' blocking and advice were worked out for.
#[derive(Clone, PartialEq)]
struct Done {
    pane: Pane,
    selection: Vec<bool>,
    /// The rows whose repair or advice is shown for this pane and selection.
    rows: BTreeSet<usize>,
}

/// How many rows of a pane just shown are worked out before the page has
/// laid it out: about as many as fit within the near zone from its top.
const PANE_TOP: usize = 80;

/// Where each option's row is, for [`keep_up`].
pub(super) struct Places {
    /// Per option, its signals (whether it is near the screen among them).
    pub rows: Arc<Vec<RowState>>,
    /// Per option, its place in its pane's evaluation.
    pub positions: Arc<Vec<usize>>,
    /// Every option in the order the panes show them.
    pub order: Vec<usize>,
}

/// Keeps each row's blocking and advice up to date with the evaluation
/// `shown` and the rows near the screen: one effect, owned by the panes.
pub(super) fn keep_up(
    catalog: Arc<Catalog>,
    flow: Flow,
    shown: Memo<Option<(Pane, Evaluation)>>,
    places: Places,
) {
    Effect::new(move |done: Option<Option<Done>>| {
        let pane = shown.with(|shown| shown.as_ref().map(|(pane, _)| *pane))?;
        let selection = flow.selection.get_untracked();
        let previous = done
            .flatten()
            .filter(|d| d.pane == pane && d.selection == selection);
        let fresh = previous.is_none();
        let wanted = shown.with(|shown| {
            let (_, evaluation) = shown.as_ref()?;
            Some(rows_to_show(&catalog, pane, evaluation, &places, fresh))
        })?;
        let rows = &places.rows;
        if fresh {
            forget_far(&catalog, pane, &wanted, rows);
        }
        let mut done = previous.unwrap_or(Done {
            pane,
            selection,
            rows: BTreeSet::new(),
        });
        let new: Vec<(usize, State)> = wanted
            .into_iter()
            .filter(|(i, _)| !done.rows.contains(i))
            .collect();
        work_out(&catalog, pane, &done.selection, &new, rows);
        done.rows.extend(new.iter().map(|(i, _)| *i));
        Some(done)
    });
}

/// The rows of `pane` near the screen (tracked), with their states; for a
/// new evaluation, also those soon near (not tracked): a click that shifts
/// rows a little then brings no row near whose work is not done. A pane
/// just shown has no row near yet (a hidden row never is), and `Flow::go`
/// shows it from its top: its first rows are the ones that will be.
fn rows_to_show(
    catalog: &Catalog,
    pane: Pane,
    evaluation: &Evaluation,
    places: &Places,
    fresh: bool,
) -> Vec<(usize, State)> {
    let kind = pane.component_type();
    let own = |i: &usize| catalog.registry().get(*i).kind() == kind;
    let rows = &places.rows;
    let mut near: Vec<usize> = (0..rows.len())
        .filter(own)
        .filter(|&i| rows[i].near.get() || (fresh && rows[i].soon.get_untracked()))
        .collect();
    if fresh && near.is_empty() {
        near = places
            .order
            .iter()
            .copied()
            .filter(own)
            .take(PANE_TOP)
            .collect();
    }
    near.into_iter()
        .filter_map(|i| Some((i, evaluation.components.get(places.positions[i])?.state)))
        .collect()
}

/// A new evaluation: the rows of `pane` not shown show nothing until they
/// come near.
fn forget_far(catalog: &Catalog, pane: Pane, wanted: &[(usize, State)], rows: &[RowState]) {
    let kind = pane.component_type();
    let mut near = vec![false; rows.len()];
    for &(i, _) in wanted {
        near[i] = true;
    }
    for i in (0..rows.len()).filter(|i| catalog.registry().get(*i).kind() == kind) {
        if !near[i] {
            set_if_changed(rows[i].blocking, &None);
            set_if_changed(rows[i].advice, &None);
        }
    }
}

/// The reasons and repairs of the blocked rows among `asked` and the advice
/// of the selected and available ones, each asked of the engine in one
/// call.
fn work_out(
    catalog: &Catalog,
    pane: Pane,
    selection: &[bool],
    asked: &[(usize, State)],
    rows: &[RowState],
) {
    let names = catalog.names(selection);
    let name = |i: usize| catalog.registry().get(i).name.to_string();
    let (blocked, advised): (Vec<_>, Vec<_>) = asked
        .iter()
        .filter(|(_, state)| *state != State::Dead)
        .partition(|(_, state)| *state == State::Blocked);
    let blocked_names: Vec<String> = blocked.iter().map(|(i, _)| name(*i)).collect();
    let advised_names: Vec<String> = advised.iter().map(|(i, _)| name(*i)).collect();
    let engine = &catalog.engine;
    if !blocked.is_empty() {
        let asked: Vec<&str> = blocked_names.iter().map(String::as_str).collect();
        let found = engine.blocked_in_pane(&names, pane.component_type(), &asked);
        for ((i, _), found) in blocked.iter().zip(found) {
            set_if_changed(rows[*i].blocking, &found);
            set_if_changed(rows[*i].advice, &None);
        }
    }
    if !advised.is_empty() {
        let asked: Vec<&str> = advised_names.iter().map(String::as_str).collect();
        for ((i, _), found) in advised.iter().zip(engine.advice(&names, &asked)) {
            set_if_changed(rows[*i].advice, &Some(found));
            set_if_changed(rows[*i].blocking, &None);
        }
    }
}
