//! The exact component engine (SEMANTICS §2.3–2.4): for a current
//! selection, the state of every component — `selected`, `available`,
//! `blocked` or `dead` — with reasons built from the operator's own choices,
//! a minimal repair for each blocked component, and compatibility advice.
//!
//! Exactness comes by construction: the rules of a valid full selection that
//! the wizard can produce are encoded as CNF and every question is a SAT
//! query under assumptions. An option is `available` only if a model (a
//! valid full selection) containing it and the current selection exists;
//! that model is its witness.

use serde::{Deserialize, Serialize};

use super::layout::Layout;
use super::model::Quantifier;
use super::name::ComponentType;
use super::registry::Registry;
use super::sat::{Cnf, Lit, Outcome, Solver};
use super::validate::{Requirement, Violation, requirements, validate_selection};

mod frame;
mod pane;
mod queries;

use frame::Frame;
use pane::{Cache, Ctx};
use queries::{Extra, Queries};

/// Which components an evaluation judges.
#[derive(Debug, Clone, Copy)]
enum Scope<'a> {
    All,
    /// The pane's own, in full or only their states (a dead component's
    /// reasons, which are worked out once per registry, included).
    Own {
        states_only: bool,
    },
    /// These components (sorted), with their reasons and repairs.
    Listed(&'a [usize]),
}

/// What an option shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Selected,
    /// Some valid full selection contains the current one plus this.
    Available,
    /// Not with the current selection; `repair` says what to deselect.
    Blocked,
    /// No valid full selection contains it at all.
    Dead,
}

impl State {
    /// Its name in the API and on the page (`data-state`).
    pub fn as_str(self) -> &'static str {
        match self {
            State::Selected => "selected",
            State::Available => "available",
            State::Blocked => "blocked",
            State::Dead => "dead",
        }
    }

    /// Blocked or dead: it cannot be picked as things are.
    pub fn unavailable(self) -> bool {
        matches!(self, State::Blocked | State::Dead)
    }
}

/// Why a component is blocked or dead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reason {
    /// `incompatible`, `requires`, `combination`, `dead`, or (judged in a
    /// pane) `earlier_pane`.
    pub kind: String,
    /// The component first, then the components involved (selected ones;
    /// for `earlier_pane`, the earlier pane's components that would do).
    pub components: Vec<String>,
    pub message: String,
    /// For `earlier_pane`: the decided pane that stands in the way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pane: Option<ComponentType>,
}

/// A smallest change that makes a blocked component available: components
/// to select and selected ones to deselect (sorted). Judged against the
/// whole selection a repair only deselects; judged in a pane it may also
/// select, and may change earlier panes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Repair {
    #[serde(default)]
    pub select: Vec<String>,
    pub deselect: Vec<String>,
}

/// What a blocked option of a pane shows besides its state: why it is
/// blocked and the smallest change that makes it available
/// ([`Engine::blocked_in_pane`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Blocking {
    pub reasons: Vec<Reason>,
    pub repair: Repair,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Compatibility {
    /// Declared compatible with every other selected component of its own
    /// and earlier panes.
    Compatible,
    /// Not declared compatible with some of them (see `untested_with`).
    Untested,
}

/// Compatibility advice for a selected or available component: whether it
/// was declared compatible with the other choices it sits (or would sit)
/// with, and the ones it was not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Advice {
    /// `None` for a hypervisor, which is never advised about.
    pub compatibility: Option<Compatibility>,
    pub untested_with: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComponentReport {
    pub name: String,
    pub source: String,
    pub state: State,
    pub reasons: Vec<Reason>,
    pub repair: Option<Repair>,
    pub compatibility: Option<Compatibility>,
    pub untested_with: Vec<String>,
}

/// The engine's answer for one selection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evaluation {
    /// The selection itself is a valid full selection (no violation).
    pub valid: bool,
    /// Some valid full selection the wizard can produce contains it.
    pub completable: bool,
    pub violations: Vec<Violation>,
    /// In registry order.
    pub components: Vec<ComponentReport>,
}

/// Where a requirement's `q` variable sits and what it wants.
#[derive(Debug, Clone)]
struct Encoded {
    requirement: Requirement,
    var: usize,
}

/// A registry compiled for evaluation; build once per registry, evaluate
/// for every click.
#[derive(Debug)]
pub struct Engine {
    registry: Registry,
    layout: Layout,
    required_types: Vec<ComponentType>,
    cnf: Cnf,
    /// Per component, its encoded requirements.
    requires: Vec<Vec<Encoded>>,
    /// Per component, the components it conflicts with (both directions).
    conflicts: Vec<Vec<usize>>,
    /// Per component, the components it is declared compatible with, from
    /// either side, sorted.
    compatible: Vec<Vec<usize>>,
    /// Per component, the components of its radio group other than itself.
    peers: Vec<Vec<usize>>,
    /// Per component, the `one_of`/`none_of` requirements (owner, index)
    /// it is a candidate of: adding it can break them.
    watchers: Vec<Vec<(usize, usize)>>,
    /// Per ML2 driver, the ML2 core it needs (when the registry has one).
    needs_ml2: Vec<Option<usize>>,
    dead: Vec<bool>,
    /// Why each dead component is dead (empty for the others): it does not
    /// depend on the selection, so it is worked out once.
    dead_reasons: Vec<Vec<Reason>>,
    /// What each variable past the components stands for.
    extra: Vec<Extra>,
    /// Per component, its place in name order (sorting by it sorts by name).
    rank: Vec<usize>,
}

/// Adds "at most one of `lits` is true", only when `guard` holds (if any).
fn at_most_one(cnf: &mut Cnf, lits: &[Lit], guard: Option<Lit>) {
    let negate = |l: Lit| Lit {
        var: l.var,
        positive: !l.positive,
    };
    let with_guard = |mut clause: Vec<Lit>| {
        if let Some(g) = guard {
            clause.push(negate(g));
        }
        clause
    };
    if lits.len() <= 6 {
        for (n, &a) in lits.iter().enumerate() {
            for &b in &lits[n + 1..] {
                cnf.add(with_guard(vec![negate(a), negate(b)]));
            }
        }
        return;
    }
    // Sequential counter (Sinz): s_k means "one of the first k+1 is true".
    let s: Vec<usize> = (0..lits.len() - 1).map(|_| cnf.new_var()).collect();
    cnf.add(with_guard(vec![negate(lits[0]), Lit::pos(s[0])]));
    for k in 1..lits.len() - 1 {
        cnf.add(with_guard(vec![negate(lits[k]), Lit::pos(s[k])]));
        cnf.add(with_guard(vec![Lit::neg(s[k - 1]), Lit::pos(s[k])]));
        cnf.add(with_guard(vec![negate(lits[k]), Lit::neg(s[k - 1])]));
    }
    let last = lits.len() - 1;
    cnf.add(with_guard(vec![negate(lits[last]), Lit::neg(s[last - 1])]));
}

/// Encodes component `owner`'s requirements: each gets a variable `q`
/// (owner → q) whose clauses say what the requirement asks.
fn encode_requirements(
    cnf: &mut Cnf,
    requirements: Vec<Requirement>,
    owner: usize,
) -> Vec<Encoded> {
    let mut encoded = Vec::new();
    for requirement in requirements {
        let q = cnf.new_var();
        cnf.add(vec![Lit::neg(owner), Lit::pos(q)]);
        let c = &requirement.candidates;
        match requirement.quantifier {
            Quantifier::AnyOf | Quantifier::OneOf => {
                let mut clause = vec![Lit::neg(q)];
                clause.extend(c.iter().map(|&j| Lit::pos(j)));
                cnf.add(clause);
                if requirement.quantifier == Quantifier::OneOf {
                    let lits: Vec<Lit> = c.iter().map(|&j| Lit::pos(j)).collect();
                    at_most_one(cnf, &lits, Some(Lit::pos(q)));
                }
            }
            Quantifier::NoneOf => {
                for &j in c {
                    cnf.add(vec![Lit::neg(q), Lit::neg(j)]);
                }
            }
            Quantifier::AllOf => {
                for &j in c {
                    cnf.add(vec![Lit::neg(q), Lit::pos(j)]);
                }
            }
        }
        encoded.push(Encoded {
            requirement,
            var: q,
        });
    }
    encoded
}

/// What the wizard can produce: one network core, one member per radio
/// group of drivers (already implied by the ML2 core's `one_of`) and per
/// radio storage section (already implied by its conflicts), and ML2
/// drivers only under the ML2 core.
fn encode_wizard_shape(cnf: &mut Cnf, layout: &Layout) {
    let cores: Vec<Lit> = layout.network.cores.iter().map(|&i| Lit::pos(i)).collect();
    at_most_one(cnf, &cores, None);
    let radio_storage = layout.storage.iter().filter(|s| s.radio);
    let drivers = layout.network.driver_groups.iter().map(|g| &g.members);
    let groups = drivers.chain(radio_storage.map(|s| &s.members));
    for group in groups {
        let members: Vec<Lit> = group.iter().map(|&i| Lit::pos(i)).collect();
        at_most_one(cnf, &members, None);
    }
    if let Some(ml2) = layout.network.ml2_core {
        for &d in &layout.network.drivers {
            cnf.add(vec![Lit::neg(d), Lit::pos(ml2)]);
        }
    }
}

/// Per component, the `one_of`/`none_of` requirements (owner, index) it is
/// a candidate of.
fn watchers(requires: &[Vec<Encoded>], n: usize) -> Vec<Vec<(usize, usize)>> {
    let mut watchers = vec![Vec::new(); n];
    for (owner, encoded) in requires.iter().enumerate() {
        for (k, e) in encoded.iter().enumerate() {
            if matches!(
                e.requirement.quantifier,
                Quantifier::OneOf | Quantifier::NoneOf
            ) {
                for &c in &e.requirement.candidates {
                    watchers[c].push((owner, k));
                }
            }
        }
    }
    watchers
}

/// What each of the `vars` variables past the `n` components stands for: a
/// requirement's, or else a counter of `at_most_one`.
fn extras(requires: &[Vec<Encoded>], n: usize, vars: usize) -> Vec<Extra> {
    let mut extra = vec![Extra::Counter; vars - n];
    for (owner, encoded) in requires.iter().enumerate() {
        for (k, e) in encoded.iter().enumerate() {
            extra[e.var - n] = Extra::Requirement { owner, k };
        }
    }
    extra
}

/// Per component, its place in name order.
fn name_ranks(registry: &Registry) -> Vec<usize> {
    let mut by_name: Vec<usize> = (0..registry.len()).collect();
    by_name.sort_by_key(|&i| &registry.get(i).name);
    let mut rank = vec![0; by_name.len()];
    for (place, &i) in by_name.iter().enumerate() {
        rank[i] = place;
    }
    rank
}

impl Engine {
    /// Compiles a registry: the CNF of every rule, and which components are dead.
    pub fn new(registry: Registry, required_types: &[ComponentType]) -> Engine {
        let n = registry.len();
        let layout = Layout::new(&registry);
        let mut cnf = Cnf {
            vars: n,
            clauses: Vec::new(),
        };
        let conflicts = registry.conflict_graph();
        for (a, others) in conflicts.iter().enumerate() {
            for &b in others.iter().filter(|&&b| b > a) {
                cnf.add(vec![Lit::neg(a), Lit::neg(b)]);
            }
        }
        let requires: Vec<Vec<Encoded>> = (0..n)
            .map(|i| encode_requirements(&mut cnf, requirements(&registry, i), i))
            .collect();
        for kind in required_types {
            let clause: Vec<Lit> = (0..n)
                .filter(|&i| registry.get(i).kind() == *kind)
                .map(Lit::pos)
                .collect();
            cnf.add(clause);
        }
        encode_wizard_shape(&mut cnf, &layout);
        let mut needs_ml2 = vec![None; n];
        for &d in &layout.network.drivers {
            needs_ml2[d] = layout.network.ml2_core;
        }
        let mut engine = Engine {
            peers: (0..n).map(|i| layout.radio_peers(i)).collect(),
            compatible: registry.compatible_graph(),
            watchers: watchers(&requires, n),
            extra: extras(&requires, n, cnf.vars),
            rank: name_ranks(&registry),
            registry,
            layout,
            required_types: required_types.to_vec(),
            cnf,
            requires,
            conflicts,
            needs_ml2,
            dead: vec![false; n],
            dead_reasons: vec![Vec::new(); n],
        };
        engine.dead = engine.find_dead();
        let mut solver = Queries::new(&engine);
        let dead_reasons = (0..n)
            .map(|i| {
                if engine.dead[i] {
                    engine.explain(&mut solver, i, &[])
                } else {
                    Vec::new()
                }
            })
            .collect();
        engine.dead_reasons = dead_reasons;
        engine
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    pub fn required_types(&self) -> &[ComponentType] {
        &self.required_types
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Whether component `i` is in no valid full selection.
    pub fn is_dead(&self, i: usize) -> bool {
        self.dead[i]
    }

    /// Why component `i` is dead (empty when it is not).
    pub fn dead_reasons(&self, i: usize) -> &[Reason] {
        &self.dead_reasons[i]
    }

    fn find_dead(&self) -> Vec<bool> {
        let n = self.registry.len();
        let mut solver = Solver::new(&self.cnf);
        let mut known_alive = vec![false; n];
        let mut scratch = vec![false; n];
        let mut dead = vec![false; n];
        let none = vec![false; n];
        for i in 0..n {
            if known_alive[i] || self.quick_witness(&[i], &none, &mut scratch) {
                continue;
            }
            match solver.solve(&[Lit::pos(i)]) {
                Outcome::Sat(mut model) => {
                    model.truncate(n);
                    let unknown: Vec<usize> = (i + 1..n).filter(|&j| !known_alive[j]).collect();
                    self.grow(&mut model, &unknown, &none);
                    for (j, alive) in known_alive.iter_mut().enumerate() {
                        *alive |= model[j];
                    }
                }
                Outcome::Unsat(_) => dead[i] = true,
            }
        }
        dead
    }

    /// Evaluates a selection given by names (unknown names are reported as
    /// violations and otherwise ignored): every component judged against
    /// the whole selection at once.
    pub fn evaluate(&self, names: &[String]) -> Evaluation {
        self.evaluate_in(names, None, Scope::All)
    }

    /// Evaluates a selection as the wizard's pane `pane` shows it (SEMANTICS
    /// §2.4, panes are decided in order): the panes before it are fixed
    /// exactly as they are, its own current choices must stay, later panes
    /// are free. Components of earlier panes are judged as their own pane
    /// would show them. Repairs may select as well as deselect, and may
    /// change earlier panes.
    pub fn evaluate_pane(&self, names: &[String], pane: ComponentType) -> Evaluation {
        self.evaluate_in(names, Some(pane), Scope::All)
    }

    /// What pane `pane` itself shows: [`Engine::evaluate_pane`] judging only
    /// the components of `pane` (`components` holds them, in registry
    /// order; their reports are those `evaluate_pane` gives). On a large
    /// registry, judging the other panes' components too is most of the
    /// work, and they are not shown.
    pub fn evaluate_pane_own(&self, names: &[String], pane: ComponentType) -> Evaluation {
        self.evaluate_in(names, Some(pane), Scope::Own { states_only: false })
    }

    /// [`Engine::evaluate_pane_own`] without what explains a blocked
    /// component or advises an available one: every blocked component's
    /// `reasons` is empty and its `repair` `None`, every `compatibility`
    /// `None` and every `untested_with` empty (a dead component keeps its
    /// reasons). The wizard asks this on every click, and
    /// [`Engine::blocked_in_pane`] and [`Engine::advice`] for the rows near
    /// the screen only: on a pane with hundreds of blocked options, their
    /// reasons are two thirds of the states' cost and their smallest
    /// repairs several times more, and advice that changes with every
    /// choice would change hundreds of rows no one sees.
    pub fn evaluate_pane_states(&self, names: &[String], pane: ComponentType) -> Evaluation {
        self.evaluate_in(names, Some(pane), Scope::Own { states_only: true })
    }

    /// Per component asked, in the order asked: its reasons and repair as
    /// [`Engine::evaluate_pane`] gives them, or `None` unless it is a
    /// blocked component of `pane`. The frames are set up once and the
    /// solver's models shared between the components asked, which is what
    /// the wizard needs for the rows that come near the screen together.
    /// (The reasons name the same requirements and conflicts as the whole
    /// evaluation's; where several contradictions block a component, which
    /// one a `combination` reason names may depend on what was asked
    /// before.)
    pub fn blocked_in_pane(
        &self,
        names: &[String],
        pane: ComponentType,
        asked: &[&str],
    ) -> Vec<Option<Blocking>> {
        let at: Vec<Option<usize>> = asked
            .iter()
            .map(|name| self.registry.position(name))
            .map(|i| i.filter(|&i| self.registry.get(i).kind() == pane))
            .collect();
        let mut listed: Vec<usize> = at.iter().flatten().copied().collect();
        listed.sort_unstable();
        listed.dedup();
        if listed.is_empty() {
            return vec![None; asked.len()];
        }
        // Only the frames and these components: not the selection's
        // violations or whether it can be completed, which the wizard has.
        let scope = Scope::Listed(&listed);
        let (frames, mut ctx, _) = self.prepare(names, Some(pane), scope);
        let found: Vec<Option<Blocking>> = self
            .judge_scope(&frames, &mut ctx, Some(pane), scope)
            .into_iter()
            .map(|report| {
                let repair = report.repair?;
                Some(Blocking {
                    reasons: report.reasons,
                    repair,
                })
            })
            .collect();
        at.iter()
            .map(|i| i.and_then(|i| found[listed.binary_search(&i).ok()?].clone()))
            .collect()
    }

    /// The advice [`Engine::evaluate`] gives each of `asked` with the
    /// selection `names`: a selected component is advised about the
    /// selection, another about the selection picking it would produce.
    /// Meaningful for selected and available components only; an unknown
    /// name gets the default.
    pub fn advice(&self, names: &[String], asked: &[&str]) -> Vec<Advice> {
        let (selection, _) = self.selection_of(names);
        let selected: Vec<usize> = (0..selection.len()).filter(|&j| selection[j]).collect();
        asked
            .iter()
            .map(|name| match self.registry.position(name) {
                None => Advice::default(),
                Some(i) if selection[i] => self.advise(i, &selected),
                Some(i) => self.advise(i, &self.layout.pick_indices(&selected, &selection, i)),
            })
            .collect()
    }

    /// The selection `names` gives, per component; whether one of them is
    /// not a component.
    fn selection_of(&self, names: &[String]) -> (Vec<bool>, bool) {
        let mut selection = vec![false; self.registry.len()];
        let mut unknown = false;
        for name in names {
            match self.registry.position(name) {
                Some(i) => selection[i] = true,
                None => unknown = true,
            }
        }
        (selection, unknown)
    }

    fn evaluate_in(
        &self,
        names: &[String],
        pane: Option<ComponentType>,
        scope: Scope,
    ) -> Evaluation {
        let (frames, mut ctx, unknown) = self.prepare(names, pane, scope);
        let violations = validate_selection(&self.registry, &self.required_types, names);
        let last = frames.last().expect("at least one frame");
        let base = last.base(&self.registry, &ctx.selected);
        let completable = !unknown && ctx.solver.satisfiable_in(last, &[], &base);
        Evaluation {
            valid: violations.is_empty(),
            completable,
            violations,
            components: self.judge_scope(&frames, &mut ctx, pane, scope),
        }
    }

    /// The frames of `pane` (or of the whole selection) and the caches
    /// every question shares; whether `names` holds an unknown name.
    fn prepare(
        &self,
        names: &[String],
        pane: Option<ComponentType>,
        scope: Scope,
    ) -> (Vec<Frame>, Ctx<'_>, bool) {
        let n = self.registry.len();
        let (selection, unknown) = self.selection_of(names);
        let frames: Vec<Frame> = match pane {
            None => vec![Frame::whole(n)],
            Some(p) => ComponentType::ALL
                .into_iter()
                .filter(|q| *q <= p)
                .map(|q| Frame::pane(&self.registry, &selection, q))
                .collect(),
        };
        let ctx = Ctx {
            selected: (0..n).filter(|&j| selection[j]).collect(),
            solver: Queries::new(self),
            scratch: vec![false; n],
            caches: vec![
                Cache {
                    models: Vec::new(),
                    seen: vec![false; n],
                };
                frames.len()
            ],
            selection,
            states_only: matches!(scope, Scope::Own { states_only: true }),
        };
        (frames, ctx, unknown)
    }

    /// The reports of the components `scope` names, each judged in the
    /// frame of its pane.
    fn judge_scope(
        &self,
        frames: &[Frame],
        ctx: &mut Ctx<'_>,
        pane: Option<ComponentType>,
        scope: Scope,
    ) -> Vec<ComponentReport> {
        let judged = |i: usize| match scope {
            Scope::All => true,
            Scope::Own { .. } => pane == Some(self.registry.get(i).kind()),
            Scope::Listed(listed) => listed.binary_search(&i).is_ok(),
        };
        (0..self.registry.len())
            .filter(|&i| judged(i))
            .map(|i| {
                let f = frames
                    .iter()
                    .position(|f| f.pane.is_none_or(|q| q >= self.registry.get(i).kind()))
                    .unwrap_or(frames.len() - 1);
                self.judge(i, &frames[f], ctx, f)
            })
            .collect()
    }

    /// One component's state, reasons, repair and advice in `frame`.
    fn judge(&self, i: usize, frame: &Frame, ctx: &mut Ctx<'_>, f: usize) -> ComponentReport {
        let c = self.registry.get(i);
        let mut report = ComponentReport {
            name: c.name.to_string(),
            source: self.registry.source(i).0.clone(),
            state: State::Selected,
            reasons: Vec::new(),
            repair: None,
            compatibility: None,
            untested_with: Vec::new(),
        };
        if ctx.selection[i] {
            self.advise_in(i, &ctx.selected, ctx, &mut report);
            return report;
        }
        if self.dead[i] {
            report.state = State::Dead;
            report.reasons = self.dead_reasons[i].clone();
            return report;
        }
        // What must be in a witness: the fixed panes, this pane's choices
        // after the swap picking `i` implies, and `i`.
        let picked = self.layout.pick_indices(&ctx.selected, &ctx.selection, i);
        let chosen: Vec<usize> = picked
            .into_iter()
            .filter(|&j| j == i || frame.holds(&self.registry, j))
            .collect();
        let witnessed = self.witnessed(i, frame, &chosen, ctx, f);
        let Err(core) = witnessed else {
            report.state = State::Available;
            // Advice for the selection picking it would produce.
            if !ctx.states_only {
                let produced = self.layout.pick_indices(&ctx.selected, &ctx.selection, i);
                self.advise_in(i, &produced, ctx, &mut report);
            }
            return report;
        };
        // What an earlier pane keeps and this pane's choices, in registry order.
        let mut base: Vec<usize> = frame
            .kept
            .iter()
            .copied()
            .chain(chosen.iter().copied().filter(|&j| j != i))
            .collect();
        base.sort_unstable();
        base.dedup();
        report.state = State::Blocked;
        if ctx.states_only {
            return report;
        }
        if frame.pane.is_some() {
            let (mut reasons, met) = self.explain_direct(&mut ctx.solver, i, &base);
            self.explain_earlier(&mut ctx.solver, i, frame, &base, &met, &mut reasons);
            report.reasons = reasons;
            report.repair = Some(self.repair_pane(
                &mut ctx.solver,
                i,
                frame,
                (&ctx.selected, &ctx.selection),
                core,
            ));
        } else {
            report.reasons = self.explain(&mut ctx.solver, i, &base);
            report.repair = Some(self.repair(&mut ctx.solver, i, &base));
        }
        report
    }

    /// Whether a valid full selection holds `frame`'s fixed values and
    /// `chosen`: from a model found before, a quick greedy witness, or the
    /// solver (whose model is grown and kept to witness others). When none
    /// does, the variables of a contradiction among them.
    fn witnessed(
        &self,
        i: usize,
        frame: &Frame,
        chosen: &[usize],
        ctx: &mut Ctx<'_>,
        f: usize,
    ) -> Result<(), Vec<usize>> {
        let n = self.registry.len();
        let holds = |m: &[bool]| chosen.iter().all(|&j| m[j]) && frame.admits(m);
        if ctx.caches[f].models.iter().any(|m| holds(m)) {
            return Ok(());
        }
        let with_fixed: Vec<usize> = chosen
            .iter()
            .copied()
            .chain(frame.kept.iter().copied())
            .collect();
        if self.quick_witness(&with_fixed, &frame.forbidden, &mut ctx.scratch) {
            return Ok(());
        }
        let assumptions: Vec<Lit> = chosen.iter().map(|&j| Lit::pos(j)).collect();
        match ctx.solver.solve_in(frame, &[], &assumptions) {
            Outcome::Sat(mut model) => {
                model.truncate(n);
                let cache = &mut ctx.caches[f];
                let unseen: Vec<usize> = (i + 1..n).filter(|&j| !cache.seen[j]).collect();
                self.grow(&mut model, &unseen, &frame.forbidden);
                // Only a model holding the frame's whole base can witness the
                // components that just add themselves.
                if ctx
                    .selected
                    .iter()
                    .all(|&j| !frame.holds(&self.registry, j) || model[j])
                {
                    for (j, m) in model.iter().enumerate() {
                        cache.seen[j] |= *m;
                    }
                }
                cache.models.push(model);
                Ok(())
            }
            Outcome::Unsat(core) => Err(core),
        }
    }

    /// Adds to a valid full selection every component that keeps it valid
    /// — those of `first` before any other, then all, until nothing more
    /// fits — so that one model witnesses as many components as it can.
    fn grow(&self, model: &mut [bool], first: &[usize], forbidden: &[bool]) {
        let n = self.registry.len();
        let mut changed = true;
        while changed {
            changed = false;
            for u in first.iter().copied().chain(0..n) {
                if !model[u] && !self.dead[u] && !forbidden[u] {
                    model[u] = true;
                    if self.still_valid_with(model, u) {
                        changed = true;
                    } else {
                        model[u] = false;
                    }
                }
            }
        }
    }

    /// Tries to build a valid full selection holding `chosen` without the
    /// solver: satisfy each unmet requirement with its first candidate that
    /// fits, then each required type. Whatever it builds is checked in full,
    /// so `Some` is always a true witness; `None` only means "ask the solver".
    fn quick_witness(&self, chosen: &[usize], forbidden: &[bool], model: &mut [bool]) -> bool {
        let mut members: Vec<usize> = Vec::new();
        let found = self
            .try_witness(chosen, |c| forbidden[c], model, &mut members)
            .is_some();
        for &m in &members {
            model[m] = false;
        }
        found
    }

    /// The work of `quick_witness` on a cleared `model`, recording in
    /// `members` every component it sets. Long: one greedy pass whose
    /// steps (`fits`, `add`) share `model` and `members`, on the engine's
    /// hot path.
    fn try_witness(
        &self,
        chosen: &[usize],
        forbidden: impl Fn(usize) -> bool,
        model: &mut [bool],
        members: &mut Vec<usize>,
    ) -> Option<()> {
        let n = self.registry.len();
        let fits = |model: &[bool], c: usize| {
            !self.dead[c]
                && !forbidden(c)
                && !self.conflicts[c].iter().any(|&k| model[k])
                && !self.peers[c].iter().any(|&k| model[k])
        };
        let add = |model: &mut [bool], members: &mut Vec<usize>, c: usize| {
            if !model[c] {
                model[c] = true;
                members.push(c);
            }
        };
        for &c in chosen {
            add(model, members, c);
        }
        let mut next = 0;
        loop {
            while next < members.len() {
                let x = members[next];
                next += 1;
                if let Some(ml2) = self.needs_ml2[x].filter(|&m| !model[m]) {
                    if !fits(model, ml2) {
                        return None;
                    }
                    add(model, members, ml2);
                }
                for e in &self.requires[x] {
                    let r = &e.requirement;
                    if r.holds(model) {
                        continue;
                    }
                    match r.quantifier {
                        Quantifier::AnyOf | Quantifier::OneOf => {
                            if r.candidates.iter().any(|&c| model[c]) {
                                return None;
                            }
                            let c = r.candidates.iter().copied().find(|&c| fits(model, c))?;
                            add(model, members, c);
                        }
                        Quantifier::AllOf => {
                            for &c in &r.candidates {
                                if !model[c] {
                                    if !fits(model, c) {
                                        return None;
                                    }
                                    add(model, members, c);
                                }
                            }
                        }
                        Quantifier::NoneOf => return None,
                    }
                }
            }
            let missing = self.required_types.iter().find(|kind| {
                !members
                    .iter()
                    .any(|&m| self.registry.get(m).kind() == **kind)
            });
            let Some(kind) = missing else { break };
            let c = (0..n).find(|&c| self.registry.get(c).kind() == *kind && fits(model, c))?;
            add(model, members, c);
        }
        let valid = members.iter().all(|&x| {
            !self.conflicts[x].iter().any(|&k| model[k])
                && !self.peers[x].iter().any(|&k| model[k])
                && self.needs_ml2[x].is_none_or(|ml2| model[ml2])
                && self.requires[x].iter().all(|e| e.requirement.holds(model))
        });
        let cores = self
            .layout
            .network
            .cores
            .iter()
            .filter(|&&c| model[c])
            .count();
        (valid && cores <= 1).then_some(())
    }

    /// Whether a valid full selection stays valid with `u` (already set) in
    /// it: only `u`'s conflicts, its requirements, the wizard's structure and
    /// the counting requirements `u` is a candidate of can break.
    fn still_valid_with(&self, model: &[bool], u: usize) -> bool {
        if self.conflicts[u].iter().any(|&k| model[k]) || self.peers[u].iter().any(|&k| model[k]) {
            return false;
        }
        if self.needs_ml2[u].is_some_and(|ml2| !model[ml2]) {
            return false;
        }
        self.requires[u].iter().all(|e| e.requirement.holds(model))
            && self.watchers[u].iter().all(|&(owner, k)| {
                !model[owner] || self.requires[owner][k].requirement.holds(model)
            })
    }

    /// Compatibility advice for a selected or available component, given
    /// the selected components (sorted indices) it would sit with.
    fn advise(&self, i: usize, selected: &[usize]) -> Advice {
        let kind = self.registry.get(i).kind();
        if kind == ComponentType::Hypervisor {
            return Advice::default();
        }
        let untested_with: Vec<String> = selected
            .iter()
            .copied()
            .filter(|&j| {
                j != i
                    && self.registry.get(j).kind() <= kind
                    && !self.peers[i].contains(&j)
                    && self.compatible[i].binary_search(&j).is_err()
            })
            .map(|j| self.registry.get(j).name.to_string())
            .collect();
        Advice {
            compatibility: Some(match untested_with.is_empty() {
                true => Compatibility::Compatible,
                false => Compatibility::Untested,
            }),
            untested_with,
        }
    }

    /// Puts the advice into `report`, unless this evaluation leaves it out.
    fn advise_in(&self, i: usize, selected: &[usize], ctx: &Ctx<'_>, report: &mut ComponentReport) {
        if ctx.states_only {
            return;
        }
        let advice = self.advise(i, selected);
        report.compatibility = advice.compatibility;
        report.untested_with = advice.untested_with;
    }

    /// Why `i` cannot join the components in `base` (empty: why it is dead).
    fn explain(&self, solver: &mut Queries<'_>, i: usize, base: &[usize]) -> Vec<Reason> {
        let (mut reasons, _) = self.explain_direct(solver, i, base);
        if reasons.is_empty() {
            reasons.push(self.explain_combination(solver, i, base, &[]));
        }
        reasons
    }

    /// The conflicts with `base` and the requirements that cannot be met
    /// next to it; per requirement, whether it can.
    fn explain_direct(
        &self,
        solver: &mut Queries<'_>,
        i: usize,
        base: &[usize],
    ) -> (Vec<Reason>, Vec<bool>) {
        let registry = &self.registry;
        let name = |j: usize| registry.get(j).name.to_string();
        let mut reasons = Vec::new();
        let conflicts = |j: usize| self.conflicts[i].binary_search(&j).is_ok();
        for &j in base.iter().filter(|&&j| conflicts(j)) {
            if let Some(conflict) = registry.conflict(i, j) {
                reasons.push(Reason {
                    kind: "incompatible".to_owned(),
                    components: vec![name(i), name(j)],
                    message: registry.conflict_message(&conflict),
                    pane: None,
                });
            }
        }
        // Each requirement on its own: can it be met next to the rest of
        // `base`, with `i`'s conflicts and radio peers kept out?
        let rest: Vec<usize> = base.iter().copied().filter(|&j| !conflicts(j)).collect();
        let mut excluded: Vec<Lit> = self.conflicts[i].iter().map(|&k| Lit::neg(k)).collect();
        excluded.extend(self.peers[i].iter().map(|&k| Lit::neg(k)));
        let mut met = Vec::with_capacity(self.requires[i].len());
        for encoded in &self.requires[i] {
            let mut assumptions: Vec<Lit> = rest.iter().map(|&j| Lit::pos(j)).collect();
            assumptions.extend(excluded.iter().copied());
            assumptions.push(Lit::pos(encoded.var));
            let outcome = solver.solve(&assumptions);
            met.push(matches!(outcome, Outcome::Sat(_)));
            if let Outcome::Unsat(core) = outcome {
                let mut involved: Vec<usize> =
                    rest.iter().copied().filter(|j| core.contains(j)).collect();
                involved.sort_by_key(|&j| self.rank[j]);
                let requirement = &encoded.requirement;
                reasons.push(Reason {
                    kind: "requires".to_owned(),
                    components: std::iter::once(i).chain(involved).map(name).collect(),
                    message: requirement
                        .message_invalid
                        .clone()
                        .unwrap_or_else(|| requirement.describe(registry)),
                    pane: None,
                });
            }
        }
        (reasons, met)
    }

    /// No single conflict or requirement: the components of `base` (with
    /// `fixed` assumptions) that together exclude `i`, or `dead`.
    fn explain_combination(
        &self,
        solver: &mut Queries<'_>,
        i: usize,
        base: &[usize],
        fixed: &[Lit],
    ) -> Reason {
        let registry = &self.registry;
        let name = |j: usize| registry.get(j).name.to_string();
        {
            let mut assumptions: Vec<Lit> = base.iter().map(|&j| Lit::pos(j)).collect();
            assumptions.extend(fixed.iter().copied());
            assumptions.push(Lit::pos(i));
            let involved: Vec<usize> = match solver.solve(&assumptions) {
                Outcome::Unsat(core) => {
                    let mut v: Vec<usize> =
                        base.iter().copied().filter(|j| core.contains(j)).collect();
                    v.sort_by_key(|&j| self.rank[j]);
                    v
                }
                Outcome::Sat(_) => Vec::new(),
            };
            let (kind, message) = if base.is_empty() {
                (
                    "dead",
                    "No valid environment can include it with the installed components".to_owned(),
                )
            } else {
                let labels: Vec<&str> = involved.iter().map(|&j| registry.label(j)).collect();
                (
                    "combination",
                    format!("Cannot be combined with the selected {}", labels.join(", ")),
                )
            };
            Reason {
                kind: kind.to_owned(),
                components: std::iter::once(i).chain(involved).map(name).collect(),
                message,
                pane: None,
            }
        }
    }

    /// A smallest set of `base` to deselect so that `i` becomes available;
    /// among equally small sets, the one whose sorted names come first.
    /// Implicit hitting sets: every unsatisfiable core must be hit.
    fn repair(&self, solver: &mut Queries<'_>, i: usize, base: &[usize]) -> Repair {
        let registry = &self.registry;
        let mut order: Vec<usize> = base.to_vec();
        order.sort_by_key(|&j| self.rank[j]);
        let mut cores: Vec<Vec<usize>> = Vec::new();
        loop {
            let hitting = smallest_hitting_set(&order, &cores);
            let mut assumptions: Vec<Lit> = order
                .iter()
                .copied()
                .filter(|j| !hitting.contains(j))
                .map(Lit::pos)
                .collect();
            assumptions.push(Lit::pos(i));
            match solver.solve(&assumptions) {
                Outcome::Sat(_) => {
                    return Repair {
                        select: Vec::new(),
                        deselect: hitting
                            .iter()
                            .map(|&j| registry.get(j).name.to_string())
                            .collect(),
                    };
                }
                Outcome::Unsat(core) => {
                    let core: Vec<usize> = order
                        .iter()
                        .copied()
                        .filter(|j| core.contains(j) && !hitting.contains(j))
                        .collect();
                    if core.is_empty() {
                        // Only possible for a dead component, which has no repair.
                        return Repair {
                            select: Vec::new(),
                            deselect: order
                                .iter()
                                .map(|&j| registry.get(j).name.to_string())
                                .collect(),
                        };
                    }
                    cores.push(core);
                }
            }
        }
    }
}

/// The first (in `order`'s lexicographic order) among the smallest subsets
/// of `order` that intersect every core.
fn smallest_hitting_set(order: &[usize], cores: &[Vec<usize>]) -> Vec<usize> {
    // Only elements of some core can help; keep `order`'s order.
    let useful: Vec<usize> = order
        .iter()
        .copied()
        .filter(|j| cores.iter().any(|c| c.contains(j)))
        .collect();
    for size in 0..=useful.len() {
        if let Some(found) = first_hitting_set(&useful, size, cores) {
            return found;
        }
    }
    useful
}

/// The first subset of `items` of `size` elements that intersects every
/// core, in the order of combinations of `items` (lexicographic in their
/// positions), when no smaller subset does (the repairs ask for sizes in
/// increasing order). A core of one element is hit by that element in
/// every answer; the rest are searched for with the first element of each
/// answer tried in order, pruned as soon as the cores left cannot be hit
/// with what is left.
pub(super) fn first_hitting_set(
    items: &[usize],
    size: usize,
    cores: &[Vec<usize>],
) -> Option<Vec<usize>> {
    let position = |j: usize| items.iter().position(|&x| x == j);
    let mut forced: Vec<usize> = Vec::new();
    for core in cores.iter().filter(|c| c.len() == 1) {
        let at = position(core[0])?;
        if !forced.contains(&at) {
            forced.push(at);
        }
    }
    if forced.len() > size {
        return None;
    }
    // The other cores, not hit by the forced elements, as positions in
    // `items` (those outside `items` cannot help).
    let mut open: Vec<Vec<usize>> = Vec::new();
    for core in cores {
        let mut at: Vec<usize> = core.iter().filter_map(|&j| position(j)).collect();
        if at.iter().any(|k| forced.contains(k)) {
            continue;
        }
        if at.is_empty() {
            return None;
        }
        at.sort_unstable();
        at.dedup();
        open.push(at);
    }
    let mut member_of = vec![Vec::new(); items.len()];
    for (c, core) in open.iter().enumerate() {
        for &k in core {
            member_of[k].push(c);
        }
    }
    let mut search = Search {
        free: (0..items.len()).filter(|k| !forced.contains(k)).collect(),
        hits: vec![0; open.len()],
        cores: open,
        member_of,
        taken: vec![false; items.len()],
        picked: Vec::new(),
    };
    if !search.pick(0, size - forced.len()) {
        return None;
    }
    let mut picked = search.picked;
    picked.extend(forced);
    picked.sort_unstable();
    Some(picked.into_iter().map(|k| items[k]).collect())
}

/// The search of [`first_hitting_set`] for the cores left: positions in
/// `items`, ascending.
struct Search {
    /// The positions that may be picked.
    free: Vec<usize>,
    cores: Vec<Vec<usize>>,
    /// Per position, the cores it is in.
    member_of: Vec<Vec<usize>>,
    /// Per core, how many picked positions hit it.
    hits: Vec<u32>,
    /// Scratch for the bound: positions some counted core holds.
    taken: Vec<bool>,
    picked: Vec<usize>,
}

impl Search {
    /// Picks exactly `need` of `free[start..]` hitting every core, the
    /// first such choice in order. Each pick must hit a core not hit yet —
    /// in a smallest answer every element does —, a core whose last
    /// position is already behind ends the search, and so do more cores
    /// that share nothing among the positions left than picks left.
    fn pick(&mut self, start: usize, need: usize) -> bool {
        let Some(deadline) = (0..self.cores.len())
            .filter(|&c| self.hits[c] == 0)
            .map(|c| *self.cores[c].last().expect("cores are not empty"))
            .min()
        else {
            return need == 0;
        };
        if need == 0 || start >= self.free.len() || self.disjoint_open(self.free[start]) > need {
            return false;
        }
        for at in start..self.free.len() {
            let k = self.free[at];
            if k > deadline || self.free.len() - at < need {
                break;
            }
            if self.member_of[k].iter().all(|&c| self.hits[c] > 0) {
                continue;
            }
            for &c in &self.member_of[k] {
                self.hits[c] += 1;
            }
            self.picked.push(k);
            if self.pick(at + 1, need - 1) {
                return true;
            }
            self.picked.pop();
            for &c in &self.member_of[k] {
                self.hits[c] -= 1;
            }
        }
        false
    }

    /// How many cores not hit yet share no position from `from` on with
    /// each other (a lower bound on the picks still needed), counted
    /// greedily, smallest cores first.
    fn disjoint_open(&mut self, from: usize) -> usize {
        let mut open: Vec<&[usize]> = (0..self.cores.len())
            .filter(|&c| self.hits[c] == 0)
            .map(|c| {
                let core = &self.cores[c];
                &core[core.partition_point(|&k| k < from)..]
            })
            .collect();
        open.sort_by_key(|c| c.len());
        let mut count = 0;
        for core in &open {
            if core.iter().all(|&k| !self.taken[k]) {
                count += 1;
                for &k in *core {
                    self.taken[k] = true;
                }
            }
        }
        for core in &open {
            for &k in *core {
                self.taken[k] = false;
            }
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::DEFAULT_REQUIRED_TYPES;

    fn registry(yaml: &str) -> Registry {
        crate::component::test_registry(yaml)
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn report<'a>(e: &'a Evaluation, name: &str) -> &'a ComponentReport {
        e.components.iter().find(|c| c.name == name).unwrap()
    }

    const STORAGE: &str = r#"
- {name: 'hypervisor:kvm', label: KVM}
- {name: 'network:core:ml2', label: ML2}
- {name: 'storage:block:lvm', label: LVM, incompatible: [{name: 'storage:block:ceph', message: 'LVM or Ceph'}]}
- {name: 'storage:block:ceph', label: Ceph}
- {name: 'storage:block:nfs', label: NFS}
- {name: 'storage:image:ceph', label: Ceph images, requires: [{name: 'storage:block:ceph', message: 'Needs Ceph block storage'}]}
- {name: 'storage:ephemeral:x', requires: [{name: 'hypervisor:xen'}]}
"#;

    #[test]
    fn an_option_whose_only_way_conflicts_is_blocked_with_a_repair() {
        let r = registry(STORAGE);
        let engine = Engine::new(r, &DEFAULT_REQUIRED_TYPES);
        let e = engine.evaluate(&names(&[
            "hypervisor:kvm",
            "network:core:ml2",
            "storage:block:lvm",
        ]));
        assert!(e.valid && e.completable);
        let images = report(&e, "storage:image:ceph");
        assert_eq!(images.state, State::Blocked);
        assert_eq!(images.reasons[0].kind, "requires");
        assert_eq!(
            images.reasons[0].components,
            ["storage:image:ceph", "storage:block:lvm"]
        );
        assert_eq!(images.reasons[0].message, "Needs Ceph block storage");
        assert_eq!(
            images.repair.as_ref().unwrap().deselect,
            ["storage:block:lvm"]
        );
        // Ceph block storage conflicts directly, with the declared message.
        let ceph = report(&e, "storage:block:ceph");
        assert_eq!(ceph.state, State::Blocked);
        assert_eq!(ceph.reasons[0].kind, "incompatible");
        assert_eq!(ceph.reasons[0].message, "LVM or Ceph");
        assert_eq!(report(&e, "storage:block:nfs").state, State::Available);
    }

    #[test]
    fn a_component_no_selection_can_hold_is_dead() {
        let r = registry(STORAGE);
        let engine = Engine::new(r, &DEFAULT_REQUIRED_TYPES);
        let e = engine.evaluate(&[]);
        let x = report(&e, "storage:ephemeral:x");
        assert_eq!(x.state, State::Dead);
        assert_eq!(x.reasons[0].kind, "requires");
        assert_eq!(x.repair, None);
        assert!(!e.valid && e.completable);
    }

    #[test]
    fn radio_members_swap_instead_of_blocking() {
        let r = registry(
            r#"
- {name: 'hypervisor:kvm'}
- {name: 'network:core:a'}
- {name: 'network:core:ml2'}
- {name: 'network:neutron:ml2:ovs', requires: [{name: 'network:core:ml2'}]}
- {name: 'storage:block:lvm', incompatible: [{name: 'storage:block:ceph'}]}
- {name: 'storage:block:ceph'}
"#,
        );
        let engine = Engine::new(r, &DEFAULT_REQUIRED_TYPES);
        let e = engine.evaluate(&names(&[
            "hypervisor:kvm",
            "network:core:a",
            "storage:block:lvm",
        ]));
        assert_eq!(report(&e, "storage:block:ceph").state, State::Available);
        assert_eq!(report(&e, "network:core:ml2").state, State::Available);
        // Picking the driver switches the core to ML2.
        assert_eq!(
            report(&e, "network:neutron:ml2:ovs").state,
            State::Available
        );
        // Two cores at once cannot be produced by the wizard.
        let e = engine.evaluate(&names(&["network:core:a", "network:core:ml2"]));
        assert!(!e.completable);
    }

    #[test]
    fn among_equal_repairs_the_first_by_name_wins() {
        let r = registry(
            r#"
- {name: 'hypervisor:b'}
- {name: 'hypervisor:a'}
- {name: 'network:n', requires: [{one_of: {items: ['hypervisor:*']}}]}
- {name: 'storage:s'}
"#,
        );
        let engine = Engine::new(r, &DEFAULT_REQUIRED_TYPES);
        let e = engine.evaluate(&names(&["hypervisor:a", "hypervisor:b", "storage:s"]));
        let n = report(&e, "network:n");
        assert_eq!(n.state, State::Blocked);
        assert_eq!(n.repair.as_ref().unwrap().deselect, ["hypervisor:a"]);
        assert_eq!(
            n.reasons[0].components,
            ["network:n", "hypervisor:a", "hypervisor:b"]
        );
        assert_eq!(
            n.reasons[0].message,
            "Requires exactly one of: hypervisor:b, hypervisor:a"
        );
    }

    #[test]
    fn compatibility_advice_looks_at_this_and_earlier_panes() {
        let r = registry(
            r#"
- {name: 'hypervisor:kvm'}
- {name: 'hypervisor:xen'}
- {name: 'network:a', compatible: [{name: 'hypervisor:kvm'}]}
- {name: 'network:b'}
- {name: 'storage:s', compatible: [{name: 'hypervisor:*'}, {name: 'network:*'}]}
- {name: 'additional_service:m'}
"#,
        );
        let engine = Engine::new(r, &DEFAULT_REQUIRED_TYPES);
        let e = engine.evaluate(&names(&["hypervisor:kvm", "network:a"]));
        let a = report(&e, "network:a");
        assert_eq!(
            (a.compatibility, a.untested_with.len()),
            (Some(Compatibility::Compatible), 0)
        );
        // network:b is a radio peer of network:a: the peer does not count.
        let b = report(&e, "network:b");
        assert_eq!(b.compatibility, Some(Compatibility::Untested));
        assert_eq!(b.untested_with, ["hypervisor:kvm"]);
        assert_eq!(
            report(&e, "storage:s").compatibility,
            Some(Compatibility::Compatible)
        );
        assert_eq!(report(&e, "hypervisor:xen").compatibility, None);
        assert_eq!(
            report(&e, "additional_service:m").untested_with,
            ["hypervisor:kvm", "network:a"]
        );
    }

    #[test]
    fn unknown_names_make_a_selection_neither_valid_nor_completable() {
        let r = registry(STORAGE);
        let engine = Engine::new(r, &DEFAULT_REQUIRED_TYPES);
        let e = engine.evaluate(&names(&[
            "hypervisor:kvm",
            "network:core:ml2",
            "storage:block:lvm",
            "nope",
        ]));
        assert!(!e.valid && !e.completable);
        assert_eq!(
            e.violations[0].kind,
            crate::component::ViolationKind::Unknown
        );
        assert_eq!(report(&e, "storage:block:nfs").state, State::Available);
    }

    const PANES: &str = r#"
- {name: 'hypervisor:libvirt:kvm', label: KVM}
- {name: 'hypervisor:vmware', label: vCenter}
- {name: 'network:neutron:core:ml2', label: ML2}
- {name: 'network:neutron:core:nsx', label: VMware NSX, requires: [{name: 'hypervisor:vmware', message: 'VMware NSX works only with vCenter compute.'}]}
- {name: 'network:neutron:ml2:dvs', label: DVS, requires: [{name: 'network:neutron:core:ml2'}, {name: 'hypervisor:vmware'}]}
- {name: 'storage:block:lvm', label: LVM}
"#;

    #[test]
    fn a_pane_keeps_earlier_panes_as_they_are() {
        let engine = Engine::new(registry(PANES), &DEFAULT_REQUIRED_TYPES);
        let selection = names(&["hypervisor:libvirt:kvm", "network:neutron:core:ml2"]);
        // Judged on the whole selection, NSX looks available (vCenter could be added)…
        let whole = engine.evaluate(&selection);
        assert_eq!(
            report(&whole, "network:neutron:core:nsx").state,
            State::Available
        );
        // …but on Networking, Compute is decided.
        let e = engine.evaluate_pane(&selection, ComponentType::Network);
        let nsx = report(&e, "network:neutron:core:nsx");
        assert_eq!(nsx.state, State::Blocked);
        assert_eq!(nsx.reasons[0].kind, "earlier_pane");
        assert_eq!(
            nsx.reasons[0].message,
            "VMware NSX requires vCenter, which is not selected in Compute."
        );
        assert_eq!(nsx.reasons[0].pane, Some(ComponentType::Hypervisor));
        assert_eq!(
            nsx.reasons[0].components,
            ["network:neutron:core:nsx", "hypervisor:vmware"]
        );
        let repair = nsx.repair.as_ref().unwrap();
        assert_eq!(
            (repair.select.as_slice(), repair.deselect.len()),
            (&["hypervisor:vmware".to_owned()][..], 0)
        );
        assert_eq!(report(&e, "network:neutron:ml2:dvs").state, State::Blocked);
        // Compute itself is judged as the Compute pane shows it.
        assert_eq!(report(&e, "hypervisor:vmware").state, State::Available);
        assert!(e.completable);
    }

    #[test]
    fn a_repair_replaces_what_an_earlier_pane_cannot_keep() {
        // vCenter and KVM exclude each other: NSX needs vCenter instead of KVM.
        let yaml = PANES.replace(
            "{name: 'hypervisor:vmware', label: vCenter}",
            "{name: 'hypervisor:vmware', label: vCenter, incompatible: [{name: 'hypervisor:libvirt:kvm'}]}",
        );
        let engine = Engine::new(registry(&yaml), &DEFAULT_REQUIRED_TYPES);
        let e = engine.evaluate_pane(
            &names(&["hypervisor:libvirt:kvm", "network:neutron:core:ml2"]),
            ComponentType::Network,
        );
        let repair = report(&e, "network:neutron:core:nsx")
            .repair
            .clone()
            .unwrap();
        assert_eq!(repair.select, ["hypervisor:vmware"]);
        assert_eq!(repair.deselect, ["hypervisor:libvirt:kvm"]);
        // Judged on the whole selection, repairs only deselect.
        let whole = engine.evaluate(&names(&[
            "hypervisor:libvirt:kvm",
            "network:neutron:core:ml2",
        ]));
        assert!(
            whole
                .components
                .iter()
                .filter_map(|c| c.repair.as_ref())
                .all(|r| r.select.is_empty())
        );
    }

    #[test]
    fn among_equally_small_repairs_deselecting_comes_first() {
        // Service C needs hypervisor A (Compute, decided) or service B, which
        // cannot sit with the selected service Y: add A, or drop Y.
        let engine = Engine::new(
            registry(
                r#"
- {name: 'hypervisor:a'}
- {name: 'hypervisor:h'}
- {name: 'network:neutron:core:ml2'}
- {name: 'network:neutron:service:b', incompatible: [{name: 'network:neutron:service:y'}]}
- {name: 'network:neutron:service:c', requires: [{any_of: {items: ['hypervisor:a', 'network:neutron:service:b']}}]}
- {name: 'network:neutron:service:y'}
- {name: 'storage:s'}
"#,
            ),
            &DEFAULT_REQUIRED_TYPES,
        );
        let e = engine.evaluate_pane(
            &names(&[
                "hypervisor:h",
                "network:neutron:core:ml2",
                "network:neutron:service:y",
                "storage:s",
            ]),
            ComponentType::Network,
        );
        let c = report(&e, "network:neutron:service:c");
        assert_eq!(c.state, State::Blocked);
        let repair = c.repair.as_ref().unwrap();
        assert!(repair.select.is_empty(), "{repair:?}");
        assert_eq!(repair.deselect, ["network:neutron:service:y"]);
    }

    #[test]
    fn hitting_sets_are_the_first_of_the_smallest_in_order() {
        // Against every subset, on random cores over ten elements; the
        // pool is sometimes only some of them (as deselect-only repairs).
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut below = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let all: Vec<usize> = (0..10).map(|k| 100 + 7 * k).collect();
        for _ in 0..3000 {
            let pool: Vec<usize> = if below(3) == 0 {
                all.iter().copied().filter(|_| below(4) != 0).collect()
            } else {
                all.clone()
            };
            let cores: Vec<Vec<usize>> = (0..below(7))
                .map(|_| (0..1 + below(4)).map(|_| all[below(all.len())]).collect())
                .collect();
            let first_of = |size: usize| {
                (0u32..1 << pool.len())
                    .filter(|m| m.count_ones() as usize == size)
                    .map(|m| {
                        (0..pool.len())
                            .filter(|k| m & (1 << k) != 0)
                            .collect::<Vec<_>>()
                    })
                    .filter(|at| {
                        cores
                            .iter()
                            .all(|c| at.iter().any(|&k| c.contains(&pool[k])))
                    })
                    .min()
                    .map(|at| at.into_iter().map(|k| pool[k]).collect::<Vec<_>>())
            };
            for size in 0..=pool.len() {
                let expected = first_of(size);
                assert_eq!(
                    first_hitting_set(&pool, size, &cores),
                    expected,
                    "pool {pool:?}, cores {cores:?}, size {size}"
                );
                if expected.is_some() {
                    break;
                }
            }
        }
    }
}
