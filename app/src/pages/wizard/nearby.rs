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
use mosaic_core::component::{Advice, Blocking, Evaluation, State};
use mosaic_core::wizard::Pane;

use super::{Flow, set_if_changed};
use crate::catalog::Catalog;
use crate::components::var::Var;

/// Per option, what it shows while near the screen (`None` otherwise, and
/// until worked out).
#[derive(Clone)]
pub(super) struct Nearby {
    pub blocking: Vec<Var<Option<Blocking>>>,
    pub advice: Vec<Var<Option<Advice>>>,
}

/// What the signals were worked out for.
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

/// Where each option's row is, for [`Nearby::keep_up`].
pub(super) struct Places {
    pub zones: Arc<Zones>,
    /// Per option, its place in its pane's evaluation.
    pub positions: Arc<Vec<usize>>,
    /// Every option in the order the panes show them.
    pub order: Vec<usize>,
}

impl Nearby {
    pub fn new(n: usize) -> Nearby {
        Nearby {
            blocking: (0..n).map(|_| Var::new(None)).collect(),
            advice: (0..n).map(|_| Var::new(None)).collect(),
        }
    }

    /// Keeps the signals up to date with the evaluation `shown` and the
    /// rows near the screen.
    pub fn keep_up(
        &self,
        catalog: Arc<Catalog>,
        flow: Flow,
        shown: Memo<Option<(Pane, Evaluation)>>,
        places: Places,
    ) {
        let signals = self.clone();
        crate::components::watch::watch_from(move |done: Option<Done>| {
            let pane = shown.with(|shown| shown.as_ref().map(|(pane, _)| *pane))?;
            let selection = flow.selection.get_untracked();
            let previous = done.filter(|d| d.pane == pane && d.selection == selection);
            let fresh = previous.is_none();
            let wanted = shown.with(|shown| {
                let (_, evaluation) = shown.as_ref()?;
                Some(rows_to_show(&catalog, pane, evaluation, &places, fresh))
            })?;
            if fresh {
                forget_far(&catalog, pane, &wanted, &signals);
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
            work_out(&catalog, pane, &done.selection, &new, &signals);
            done.rows.extend(new.iter().map(|(i, _)| *i));
            Some(done)
        });
    }
}

/// Per option, whether its row is near the screen, and whether it is
/// within the wider band around it.
pub(super) struct Zones {
    pub near: Vec<Var<bool>>,
    pub soon: Vec<Var<bool>>,
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
    let zones = &places.zones;
    let mut rows: Vec<usize> = (0..zones.near.len())
        .filter(own)
        .filter(|&i| zones.near[i].get() || (fresh && zones.soon[i].get_untracked()))
        .collect();
    if fresh && rows.is_empty() {
        rows = places
            .order
            .iter()
            .copied()
            .filter(own)
            .take(PANE_TOP)
            .collect();
    }
    rows.into_iter()
        .filter_map(|i| Some((i, evaluation.components.get(places.positions[i])?.state)))
        .collect()
}

/// A new evaluation: the rows of `pane` not shown show nothing until they
/// come near.
fn forget_far(
    catalog: &Catalog,
    pane: Pane,
    wanted: &[(usize, State)],
    Nearby { blocking, advice }: &Nearby,
) {
    let kind = pane.component_type();
    let mut near = vec![false; blocking.len()];
    for &(i, _) in wanted {
        near[i] = true;
    }
    for i in (0..blocking.len()).filter(|i| catalog.registry().get(*i).kind() == kind) {
        if !near[i] {
            set_if_changed(blocking[i], &None);
            set_if_changed(advice[i], &None);
        }
    }
}

/// The reasons and repairs of the blocked rows among `rows` and the advice
/// of the selected and available ones, each asked of the engine in one
/// call.
fn work_out(
    catalog: &Catalog,
    pane: Pane,
    selection: &[bool],
    rows: &[(usize, State)],
    Nearby { blocking, advice }: &Nearby,
) {
    let names = catalog.names(selection);
    let name = |i: usize| catalog.registry().get(i).name.to_string();
    let (blocked, advised): (Vec<_>, Vec<_>) = rows
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
            set_if_changed(blocking[*i], &found);
            set_if_changed(advice[*i], &None);
        }
    }
    if !advised.is_empty() {
        let asked: Vec<&str> = advised_names.iter().map(String::as_str).collect();
        for ((i, _), found) in advised.iter().zip(engine.advice(&names, &asked)) {
            set_if_changed(advice[*i], &Some(found));
            set_if_changed(blocking[*i], &None);
        }
    }
}
