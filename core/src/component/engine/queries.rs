//! The engine's SAT questions, answered without the solver when that is
//! easy and exact. A valid full selection built greedily and checked in
//! full proves a question satisfiable; a requirement whose candidates the
//! assumptions rule out, a conflict or a radio peer among them proves it
//! unsatisfiable, with the assumptions involved as the core. The solver is
//! made on the first question these leave open: loading the formula is a
//! good part of what a small question costs.
//!
//! A question in a pane's frame names only what it adds to the frame's
//! fixed values (and which of them it leaves free): the frame holds
//! thousands of values, the question a few.

use super::super::model::Quantifier;
use super::super::sat::{Lit, Outcome, Solver};
use super::super::validate::Requirement;
use super::Engine;
use super::frame::Frame;

/// What a variable of the engine's formula past the components stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Extra {
    /// "Requirement `k` of component `owner` holds", implied by the owner.
    Requirement { owner: usize, k: usize },
    /// A variable of an at-most-one encoding.
    Counter,
}

/// One evaluation's questions (or a click's): the solver, made on first
/// use, and scratch space.
pub(super) struct Queries<'a> {
    engine: &'a Engine,
    solver: Option<Solver>,
    /// Per component, what the question assumes besides its frame.
    on: Vec<bool>,
    off: Vec<bool>,
    /// Per component, a frame value the question leaves free.
    free: Vec<bool>,
    model: Vec<bool>,
}

/// The question being answered: its frame (if any) and its own marks.
struct Question<'q> {
    frame: Option<&'q Frame>,
    on: &'q [bool],
    off: &'q [bool],
    free: &'q [bool],
}

impl Question<'_> {
    fn on(&self, c: usize) -> bool {
        self.on[c]
            || self
                .frame
                .is_some_and(|f| f.fixed[c] == Some(true) && !self.free[c])
    }

    fn off(&self, c: usize) -> bool {
        self.off[c] || self.frame.is_some_and(|f| f.forbidden[c] && !self.free[c])
    }
}

impl<'a> Queries<'a> {
    pub fn new(engine: &'a Engine) -> Queries<'a> {
        let n = engine.registry.len();
        Queries {
            engine,
            solver: None,
            on: vec![false; n],
            off: vec![false; n],
            free: vec![false; n],
            model: vec![false; n],
        }
    }

    /// Whether the assumptions can all hold.
    pub fn satisfiable(&mut self, assumptions: &[Lit]) -> bool {
        matches!(self.ask(None, &[], assumptions, false), Outcome::Sat(_))
    }

    /// As [`Solver::solve`], for the cores: a satisfiable answer's model
    /// may be left empty.
    pub fn solve(&mut self, assumptions: &[Lit]) -> Outcome {
        self.ask(None, &[], assumptions, false)
    }

    /// Whether `frame`'s fixed values, but those of `free`, and the
    /// assumptions can all hold.
    pub fn satisfiable_in(&mut self, frame: &Frame, free: &[usize], assumptions: &[Lit]) -> bool {
        matches!(
            self.ask(Some(frame), free, assumptions, false),
            Outcome::Sat(_)
        )
    }

    /// [`Queries::solve`] with `frame`'s fixed values, but those of `free`,
    /// assumed too.
    pub fn solve_in(&mut self, frame: &Frame, free: &[usize], assumptions: &[Lit]) -> Outcome {
        self.ask(Some(frame), free, assumptions, true)
    }

    /// The answer; without `model`, a satisfiable answer may come without
    /// its model.
    fn ask(
        &mut self,
        frame: Option<&Frame>,
        free: &[usize],
        assumptions: &[Lit],
        model: bool,
    ) -> Outcome {
        for &j in free {
            self.free[j] = true;
        }
        let answer = self.shortcut(frame, assumptions, model);
        for &j in free {
            self.free[j] = false;
        }
        if let Some(outcome) = answer {
            return outcome;
        }
        let engine = self.engine;
        let solver = self.solver.get_or_insert_with(|| Solver::new(&engine.cnf));
        match frame {
            None => solver.solve(assumptions),
            Some(frame) => {
                // The question's own assumptions first: the solver's cores
                // lean on what it assumed first.
                let mut all = assumptions.to_vec();
                all.extend(
                    frame
                        .lits()
                        .iter()
                        .filter(|l| !free.contains(&(l.var as usize))),
                );
                solver.solve(&all)
            }
        }
    }

    fn shortcut(
        &mut self,
        frame: Option<&Frame>,
        assumptions: &[Lit],
        keep: bool,
    ) -> Option<Outcome> {
        let engine = self.engine;
        let n = engine.registry.len();
        let mut marked: Vec<usize> = Vec::with_capacity(assumptions.len());
        let mut own: Vec<usize> = Vec::new();
        let mut wanted: Vec<(usize, &Requirement)> = Vec::new();
        let mut answer = None;
        for l in assumptions {
            let v = l.var as usize;
            if v >= n {
                match engine.extra[v - n] {
                    Extra::Requirement { owner, k } if l.positive => {
                        wanted.push((v, &engine.requires[owner][k].requirement));
                        continue;
                    }
                    _ => {
                        answer = Some(None);
                        break;
                    }
                }
            }
            let question = Question {
                frame,
                on: &self.on,
                off: &self.off,
                free: &self.free,
            };
            let (already, contrary) = if l.positive {
                (question.on(v), question.off(v))
            } else {
                (question.off(v), question.on(v))
            };
            if contrary {
                answer = Some(Some(Outcome::Unsat(vec![v])));
                break;
            }
            if !already {
                if l.positive {
                    self.on[v] = true;
                    own.push(v);
                } else {
                    self.off[v] = true;
                }
                marked.push(v);
            }
        }
        let answer = match answer {
            Some(answer) => answer,
            None => {
                let mut chosen = own;
                if let Some(frame) = frame {
                    chosen.extend(frame.kept.iter().copied().filter(|&j| !self.free[j]));
                }
                let question = Question {
                    frame,
                    on: &self.on,
                    off: &self.off,
                    free: &self.free,
                };
                match question.contradiction(engine, &chosen, &wanted) {
                    Some(core) => Some(Outcome::Unsat(core)),
                    None => question
                        .greedy(engine, &chosen, &wanted, &mut self.model, keep)
                        .map(Outcome::Sat),
                }
            }
        };
        for v in marked {
            self.on[v] = false;
            self.off[v] = false;
        }
        answer
    }
}

impl Question<'_> {
    /// Assumptions that cannot hold together, visibly: two of them in
    /// conflict or in one radio group, a driver without its ML2 core, or a
    /// requirement of a chosen component (or one assumed to hold) that they
    /// rule out.
    fn contradiction(
        &self,
        engine: &Engine,
        chosen: &[usize],
        wanted: &[(usize, &Requirement)],
    ) -> Option<Vec<usize>> {
        for &p in chosen {
            let clash = engine.conflicts[p]
                .iter()
                .chain(&engine.peers[p])
                .find(|&&k| self.on(k));
            if let Some(&k) = clash {
                return Some(vec![p, k]);
            }
            if let Some(ml2) = engine.needs_ml2[p].filter(|&m| self.off(m)) {
                return Some(vec![p, ml2]);
            }
            for encoded in &engine.requires[p] {
                if let Some(mut core) = self.ruled_out(engine, &encoded.requirement) {
                    core.push(p);
                    return Some(core);
                }
            }
        }
        wanted.iter().find_map(|&(v, requirement)| {
            self.ruled_out(engine, requirement).map(|mut core| {
                core.push(v);
                core
            })
        })
    }

    /// When the assumptions make `requirement` fail whatever else is
    /// chosen: the assumptions that do.
    fn ruled_out(&self, engine: &Engine, requirement: &Requirement) -> Option<Vec<usize>> {
        self.ruled_out_within(engine, requirement, 2)
    }

    /// [`Question::ruled_out`], following candidates' own requirements
    /// `depth` levels down.
    fn ruled_out_within(
        &self,
        engine: &Engine,
        requirement: &Requirement,
        depth: usize,
    ) -> Option<Vec<usize>> {
        let candidates = &requirement.candidates;
        match requirement.quantifier {
            Quantifier::AnyOf | Quantifier::OneOf => {
                let mut core = Vec::new();
                for &c in candidates {
                    core.extend(self.why_off(engine, c, depth)?);
                }
                Some(core)
            }
            Quantifier::AllOf => candidates
                .iter()
                .find_map(|&c| self.why_off(engine, c, depth)),
            Quantifier::NoneOf => candidates.iter().find(|&&c| self.on(c)).map(|&c| vec![c]),
        }
    }

    /// Whether component `c` is false in every model of the assumptions,
    /// and the assumptions that make it so (none: the formula alone): it is
    /// dead, assumed out, in conflict or a radio peer of one assumed in, a
    /// driver whose ML2 core is out, or — looking `depth` levels down — one
    /// of its requirements is ruled out.
    fn why_off(&self, engine: &Engine, c: usize, depth: usize) -> Option<Vec<usize>> {
        if engine.dead[c] {
            return Some(Vec::new());
        }
        if self.off(c) {
            return Some(vec![c]);
        }
        let clash = engine.conflicts[c]
            .iter()
            .chain(&engine.peers[c])
            .find(|&&k| self.on(k));
        if let Some(&k) = clash {
            return Some(vec![k]);
        }
        if depth == 0 {
            return None;
        }
        if let Some(core) = engine.needs_ml2[c].and_then(|ml2| self.why_off(engine, ml2, depth - 1))
        {
            return Some(core);
        }
        engine.requires[c]
            .iter()
            .find_map(|e| self.ruled_out_within(engine, &e.requirement, depth - 1))
    }

    /// A valid full selection holding the assumptions, built greedily (see
    /// [`Engine::quick_witness`]) and checked in full; when a requirement
    /// assumed to hold does not, again with each of its candidates added.
    fn greedy(
        &self,
        engine: &Engine,
        chosen: &[usize],
        wanted: &[(usize, &Requirement)],
        model: &mut [bool],
        keep: bool,
    ) -> Option<Vec<bool>> {
        if let Some(found) = self.build(engine, chosen, wanted, model, keep) {
            return Some(found);
        }
        let [(_, requirement)] = wanted else {
            return None;
        };
        if requirement.quantifier == Quantifier::NoneOf {
            return None;
        }
        let mut more = chosen.to_vec();
        for &c in &requirement.candidates {
            if self.on(c) || self.off(c) || engine.dead[c] {
                continue;
            }
            more.push(c);
            if requirement.quantifier == Quantifier::AllOf {
                continue;
            }
            if let Some(found) = self.build(engine, &more, wanted, model, keep) {
                return Some(found);
            }
            more.pop();
        }
        if requirement.quantifier == Quantifier::AllOf {
            return self.build(engine, &more, wanted, model, keep);
        }
        None
    }

    fn build(
        &self,
        engine: &Engine,
        chosen: &[usize],
        wanted: &[(usize, &Requirement)],
        model: &mut [bool],
        keep: bool,
    ) -> Option<Vec<bool>> {
        let mut members = Vec::new();
        let built = engine
            .try_witness(chosen, |c| self.off(c), model, &mut members)
            .is_some()
            && wanted.iter().all(|(_, r)| r.holds(model));
        let found = built.then(|| if keep { model.to_vec() } else { Vec::new() });
        for m in members {
            model[m] = false;
        }
        found
    }
}
