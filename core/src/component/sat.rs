//! The engine's SAT solver: clauses over component variables, solving
//! under assumptions, models and unsatisfiable cores.
//!
//! A small conflict-driven clause-learning solver in the MiniSat tradition:
//! two watched literals per clause, first-UIP learning with backjumping,
//! variable activities (VSIDS) kept in a heap, geometric restarts, and
//! assumptions decided first, one per level, so that a refuted assumption's
//! core is read off the trail (`final_core`). A false phase is tried first:
//! a model then holds few components, which the engine grows itself.
//! It replaced the `batsat` crate, which was 15 KB (gzipped) of the
//! browser's download for the same answers; `tests` hold it to a brute-force
//! oracle on random formulas.

/// A literal: variable index and polarity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lit {
    pub var: u32,
    pub positive: bool,
}

impl Lit {
    pub fn pos(var: usize) -> Lit {
        Lit {
            var: var as u32,
            positive: true,
        }
    }

    pub fn neg(var: usize) -> Lit {
        Lit {
            var: var as u32,
            positive: false,
        }
    }

    /// Its code: the variable twice, plus one when negative.
    fn code(self) -> u32 {
        self.var * 2 + u32::from(!self.positive)
    }
}

/// A CNF formula that can be loaded into fresh solvers.
#[derive(Debug, Clone, Default)]
pub struct Cnf {
    pub vars: usize,
    pub clauses: Vec<Vec<Lit>>,
}

impl Cnf {
    pub fn new_var(&mut self) -> usize {
        self.vars += 1;
        self.vars - 1
    }

    pub fn add(&mut self, clause: Vec<Lit>) {
        self.clauses.push(clause);
    }
}

/// The answer to one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A model: the value of every variable.
    Sat(Vec<bool>),
    /// Unsatisfiable; the variables of the assumptions involved (a subset of
    /// the assumptions, not necessarily minimal).
    Unsat(Vec<usize>),
}

/// A literal code's variable and its negation.
fn var(code: u32) -> usize {
    (code / 2) as usize
}

fn not(code: u32) -> u32 {
    code ^ 1
}

/// No reason: a decision (or an assumption).
const DECIDED: u32 = u32::MAX;

/// A variable's value: true, false, or not assigned yet.
const UNSET: u8 = 2;

/// A solver loaded with one formula, queried many times under assumptions.
/// Clauses learned for one query stay for the next ones (they follow from
/// the formula alone).
#[derive(Debug)]
pub struct Solver {
    /// Every clause's literal codes, one after another; `starts` marks
    /// where each begins (and, last, where the arena ends). The first two
    /// literals of a clause are the watched ones.
    arena: Vec<u32>,
    starts: Vec<u32>,
    /// Per literal code, the clauses watching it.
    watches: Vec<Vec<u32>>,
    /// Per variable: its value, decision level, and the clause that
    /// implied it.
    value: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    trail: Vec<u32>,
    /// Where each decision level starts on the trail.
    levels: Vec<usize>,
    /// How far the trail has been propagated.
    head: usize,
    order: Order,
    seen: Vec<bool>,
    /// False when the formula is unsatisfiable without any assumption.
    ok: bool,
}

impl Solver {
    pub fn new(cnf: &Cnf) -> Solver {
        let n = cnf.vars;
        let mut solver = Solver {
            arena: Vec::new(),
            starts: vec![0],
            watches: vec![Vec::new(); 2 * n],
            value: vec![UNSET; n],
            level: vec![0; n],
            reason: vec![DECIDED; n],
            trail: Vec::new(),
            levels: Vec::new(),
            head: 0,
            order: Order::new(n),
            seen: vec![false; n],
            ok: true,
        };
        let mut codes = Vec::new();
        for clause in &cnf.clauses {
            codes.clear();
            codes.extend(clause.iter().map(|l| l.code()));
            solver.ok = solver.ok && solver.add_clause(&mut codes);
        }
        solver.ok = solver.ok && solver.propagate().is_none();
        solver
    }

    /// Adds a clause of the formula (at level 0); false when it makes the
    /// formula unsatisfiable.
    fn add_clause(&mut self, codes: &mut Vec<u32>) -> bool {
        codes.sort_unstable();
        codes.dedup();
        if codes.windows(2).any(|w| w[1] == not(w[0])) {
            return true; // a tautology
        }
        codes.retain(|&c| self.lit_value(c) != Some(false));
        if codes.iter().any(|&c| self.lit_value(c) == Some(true)) {
            return true;
        }
        match codes.len() {
            0 => false,
            1 => {
                self.assign(codes[0], DECIDED);
                true
            }
            _ => {
                self.attach(codes);
                true
            }
        }
    }

    /// Stores a clause of two literals or more, watching its first two.
    fn attach(&mut self, codes: &[u32]) -> u32 {
        let c = (self.starts.len() - 1) as u32;
        self.arena.extend_from_slice(codes);
        self.starts.push(self.arena.len() as u32);
        self.watches[not(codes[0]) as usize].push(c);
        self.watches[not(codes[1]) as usize].push(c);
        c
    }

    fn lit_value(&self, code: u32) -> Option<bool> {
        match self.value[var(code)] {
            UNSET => None,
            v => Some((v == 1) != (code & 1 == 1)),
        }
    }

    fn assign(&mut self, code: u32, reason: u32) {
        let v = var(code);
        self.value[v] = u8::from(code & 1 == 0);
        self.level[v] = self.levels.len() as u32;
        self.reason[v] = reason;
        self.trail.push(code);
    }

    /// Solves under `assumptions`: a model, or the assumptions' variables
    /// that cannot hold together.
    pub fn solve(&mut self, assumptions: &[Lit]) -> Outcome {
        if !self.ok {
            return Outcome::Unsat(Vec::new());
        }
        let assumed: Vec<u32> = assumptions.iter().map(|l| l.code()).collect();
        let outcome = self.search(&assumed);
        self.backjump(0);
        outcome
    }

    /// The search proper: conflicts learned from and backjumped over,
    /// assumptions decided first, then the most active variable, false.
    fn search(&mut self, assumed: &[u32]) -> Outcome {
        let mut conflicts = 0_u32;
        let mut restart_at = 100_u32;
        loop {
            if let Some(conflict) = self.propagate() {
                if self.levels.is_empty() {
                    self.ok = false;
                    return Outcome::Unsat(Vec::new());
                }
                self.learn(conflict);
                conflicts += 1;
                continue;
            }
            if conflicts >= restart_at {
                restart_at += restart_at / 2;
                self.backjump(0);
            }
            match self.next_decision(assumed) {
                Decision::Refuted(core) => return Outcome::Unsat(core),
                Decision::Complete => return Outcome::Sat(self.model()),
                Decision::Literal(code) => {
                    self.levels.push(self.trail.len());
                    self.assign(code, DECIDED);
                }
                Decision::Holds => self.levels.push(self.trail.len()),
            }
        }
    }

    /// What to decide next: the next assumption, else a free variable.
    fn next_decision(&mut self, assumed: &[u32]) -> Decision {
        if let Some(&code) = assumed.get(self.levels.len()) {
            return match self.lit_value(code) {
                Some(true) => Decision::Holds,
                Some(false) => Decision::Refuted(self.final_core(code)),
                None => Decision::Literal(code),
            };
        }
        while let Some(v) = self.order.pop() {
            if self.value[v] == UNSET {
                return Decision::Literal(2 * v as u32 + 1);
            }
        }
        Decision::Complete
    }

    fn model(&self) -> Vec<bool> {
        self.value.iter().map(|&v| v == 1).collect()
    }

    /// Unit propagation over the watched literals; a clause all of whose
    /// literals are false, if one is found.
    fn propagate(&mut self) -> Option<u32> {
        while self.head < self.trail.len() {
            let t = self.trail[self.head];
            self.head += 1;
            // The clauses watching `not(t)`, just made false. None moves its
            // watch onto this list: a watch moves to a literal not false.
            let mut list = std::mem::take(&mut self.watches[t as usize]);
            let mut conflict = None;
            let mut kept = 0;
            for k in 0..list.len() {
                let c = list[k];
                if conflict.is_none() {
                    match self.visit(c, not(t)) {
                        Watch::Moved => continue,
                        Watch::Conflict => conflict = Some(c),
                        Watch::Kept => {}
                    }
                }
                list[kept] = c;
                kept += 1;
            }
            list.truncate(kept);
            self.watches[t as usize] = list;
            if conflict.is_some() {
                return conflict;
            }
        }
        None
    }

    /// Clause `c`, whose watched literal `falsified` just became false:
    /// satisfied by its other watch, watching another literal now, implying
    /// its other watch, or a conflict. The watched literals are the
    /// clause's first two; the other watch goes first.
    fn visit(&mut self, c: u32, falsified: u32) -> Watch {
        let (start, end) = self.range(c);
        if self.arena[start] == falsified {
            self.arena.swap(start, start + 1);
        }
        let other = self.arena[start];
        if self.lit_value(other) == Some(true) {
            return Watch::Kept;
        }
        for k in start + 2..end {
            let candidate = self.arena[k];
            if self.lit_value(candidate) != Some(false) {
                self.arena.swap(start + 1, k);
                self.watches[not(candidate) as usize].push(c);
                return Watch::Moved;
            }
        }
        if self.lit_value(other).is_some() {
            return Watch::Conflict;
        }
        self.assign(other, c);
        Watch::Kept
    }

    fn range(&self, c: u32) -> (usize, usize) {
        let c = c as usize;
        (self.starts[c] as usize, self.starts[c + 1] as usize)
    }

    /// Learns from a conflict: the first-UIP clause is added, the search
    /// backjumps to where it implies its UIP, and does.
    fn learn(&mut self, conflict: u32) {
        let learnt = self.analyze(conflict);
        let back = learnt.get(1).map_or(0, |&c| self.level[var(c)] as usize);
        self.backjump(back);
        match learnt.len() {
            1 => self.assign(learnt[0], DECIDED),
            _ => {
                let c = self.attach(&learnt);
                self.assign(learnt[0], c);
            }
        }
        self.order.decay();
    }

    /// The first-UIP clause of a conflict: the conflict's literals resolved
    /// with their reasons, back along the trail, until one literal of the
    /// current level is left (first). The literal of the highest level
    /// after it comes second.
    fn analyze(&mut self, conflict: u32) -> Vec<u32> {
        let current = self.levels.len() as u32;
        let mut learnt = vec![0];
        let mut open = 0;
        let mut clause = conflict;
        let mut at = self.trail.len();
        loop {
            let (start, end) = self.range(clause);
            for k in start..end {
                let code = self.arena[k];
                let v = var(code);
                if self.seen[v] || self.level[v] == 0 || self.lit_value(code) == Some(true) {
                    continue;
                }
                self.seen[v] = true;
                self.order.bump(v);
                if self.level[v] == current {
                    open += 1;
                } else {
                    learnt.push(code);
                }
            }
            at -= 1;
            while !self.seen[var(self.trail[at])] {
                at -= 1;
            }
            let p = self.trail[at];
            self.seen[var(p)] = false;
            open -= 1;
            if open == 0 {
                learnt[0] = not(p);
                break;
            }
            clause = self.reason[var(p)];
        }
        for &code in &learnt[1..] {
            self.seen[var(code)] = false;
        }
        if let Some(top) = (1..learnt.len()).max_by_key(|&k| self.level[var(learnt[k])]) {
            learnt.swap(1, top);
        }
        learnt
    }

    /// The assumptions that make assumption `p` false: those decided on the
    /// trail that `not(p)` was implied from (and `p` itself).
    fn final_core(&mut self, p: u32) -> Vec<usize> {
        let mut core = vec![var(p)];
        if self.level[var(p)] == 0 {
            return core;
        }
        self.seen[var(p)] = true;
        for k in (self.levels[0]..self.trail.len()).rev() {
            let v = var(self.trail[k]);
            if !self.seen[v] {
                continue;
            }
            self.seen[v] = false;
            if self.reason[v] == DECIDED {
                if v != var(p) {
                    core.push(v);
                }
                continue;
            }
            let (start, end) = self.range(self.reason[v]);
            for j in start..end {
                let u = var(self.arena[j]);
                if u != v && self.level[u] > 0 {
                    self.seen[u] = true;
                }
            }
        }
        core
    }

    /// Backjumps to `level`, the unassigned variables back in the order.
    fn backjump(&mut self, level: usize) {
        let Some(&start) = self.levels.get(level) else {
            return;
        };
        for &code in &self.trail[start..] {
            let v = var(code);
            self.value[v] = UNSET;
            self.reason[v] = DECIDED;
            self.order.push(v);
        }
        self.trail.truncate(start);
        self.levels.truncate(level);
        self.head = self.head.min(start);
    }
}

/// What a visit did to a clause's watch.
enum Watch {
    Kept,
    Moved,
    Conflict,
}

/// What the search decides next.
enum Decision {
    /// An assumption or a free variable's value.
    Literal(u32),
    /// The next assumption holds already: an empty level for it.
    Holds,
    /// The next assumption is false: these assumptions exclude it.
    Refuted(Vec<usize>),
    /// Every variable has a value: a model.
    Complete,
}

/// The free variables by activity, most active first (a binary heap): a
/// variable met in a conflict's analysis gains activity, and every
/// conflict makes later gains weigh more (VSIDS).
#[derive(Debug)]
struct Order {
    activity: Vec<f64>,
    heap: Vec<usize>,
    /// Per variable, its place in the heap (`NONE`: not in it).
    place: Vec<usize>,
    gain: f64,
}

const NONE: usize = usize::MAX;

impl Order {
    fn new(n: usize) -> Order {
        Order {
            activity: vec![0.0; n],
            heap: (0..n).collect(),
            place: (0..n).collect(),
            gain: 1.0,
        }
    }

    fn push(&mut self, v: usize) {
        if self.place[v] == NONE {
            self.place[v] = self.heap.len();
            self.heap.push(v);
            self.up(self.heap.len() - 1);
        }
    }

    fn pop(&mut self) -> Option<usize> {
        let last = self.heap.pop()?;
        let Some(&top) = self.heap.first() else {
            self.place[last] = NONE;
            return Some(last);
        };
        self.place[top] = NONE;
        self.heap[0] = last;
        self.place[last] = 0;
        self.down(0);
        Some(top)
    }

    fn bump(&mut self, v: usize) {
        self.activity[v] += self.gain;
        if self.activity[v] > 1e100 {
            self.activity.iter_mut().for_each(|a| *a *= 1e-100);
            self.gain *= 1e-100;
        }
        if self.place[v] != NONE {
            self.up(self.place[v]);
        }
    }

    fn decay(&mut self) {
        self.gain /= 0.95;
    }

    fn up(&mut self, mut k: usize) {
        while k > 0 {
            let parent = (k - 1) / 2;
            if self.activity[self.heap[parent]] >= self.activity[self.heap[k]] {
                break;
            }
            self.swap(k, parent);
            k = parent;
        }
    }

    fn down(&mut self, mut k: usize) {
        loop {
            let (l, r) = (2 * k + 1, 2 * k + 2);
            let mut top = k;
            for child in [l, r] {
                if child < self.heap.len()
                    && self.activity[self.heap[child]] > self.activity[self.heap[top]]
                {
                    top = child;
                }
            }
            if top == k {
                return;
            }
            self.swap(k, top);
            k = top;
        }
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.heap.swap(a, b);
        self.place[self.heap[a]] = a;
        self.place[self.heap[b]] = b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::synthetic::Rng;

    #[test]
    fn models_and_cores() {
        let mut cnf = Cnf::default();
        let (a, b, c) = (cnf.new_var(), cnf.new_var(), cnf.new_var());
        cnf.add(vec![Lit::neg(a), Lit::neg(b)]);
        cnf.add(vec![Lit::neg(c), Lit::pos(a)]);
        let mut solver = Solver::new(&cnf);
        let Outcome::Sat(model) = solver.solve(&[Lit::pos(c)]) else {
            panic!("c alone is satisfiable")
        };
        assert!(model[a] && !model[b]);
        let Outcome::Unsat(mut core) = solver.solve(&[Lit::pos(b), Lit::pos(c)]) else {
            panic!("b and c conflict")
        };
        core.sort_unstable();
        assert_eq!(core, [b, c]);
        assert!(matches!(solver.solve(&[Lit::pos(b)]), Outcome::Sat(_)));
    }

    #[test]
    fn a_formula_unsatisfiable_alone_has_an_empty_core() {
        let mut cnf = Cnf::default();
        let a = cnf.new_var();
        cnf.add(vec![Lit::pos(a)]);
        cnf.add(vec![Lit::neg(a)]);
        assert_eq!(Solver::new(&cnf).solve(&[]), Outcome::Unsat(Vec::new()));
        assert_eq!(
            Solver::new(&cnf).solve(&[Lit::pos(a)]),
            Outcome::Unsat(Vec::new())
        );
    }

    /// `pigeons` pigeons in `holes` holes, each in one, no two together:
    /// hard for resolution, so it takes many conflicts, learned clauses and
    /// restarts to refute with one pigeon too many.
    fn pigeonhole(pigeons: usize, holes: usize) -> Cnf {
        let at = |p: usize, h: usize| p * holes + h;
        let mut cnf = Cnf {
            vars: pigeons * holes,
            clauses: Vec::new(),
        };
        for p in 0..pigeons {
            cnf.add((0..holes).map(|h| Lit::pos(at(p, h))).collect());
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    cnf.add(vec![Lit::neg(at(p, h)), Lit::neg(at(q, h))]);
                }
            }
        }
        cnf
    }

    #[test]
    fn pigeons_fit_their_holes_and_one_more_does_not() {
        let fits = pigeonhole(7, 7);
        let Outcome::Sat(model) = Solver::new(&fits).solve(&[]) else {
            panic!("seven pigeons fit seven holes")
        };
        assert!(holds(&fits.clauses, &model));
        let mut solver = Solver::new(&pigeonhole(7, 6));
        let Outcome::Unsat(core) = solver.solve(&[Lit::pos(0)]) else {
            panic!("seven pigeons do not fit six holes")
        };
        assert!(core.iter().all(|&v| v == 0), "{core:?}");
        assert_eq!(solver.solve(&[]), Outcome::Unsat(Vec::new()));
    }

    /// A random literal over `vars` variables.
    fn lit(rng: &mut Rng, vars: usize) -> Lit {
        Lit {
            var: rng.below(vars) as u32,
            positive: rng.below(2) == 0,
        }
    }

    fn holds(clauses: &[Vec<Lit>], model: &[bool]) -> bool {
        clauses
            .iter()
            .all(|c| c.iter().any(|l| model[l.var as usize] == l.positive))
    }

    /// Whether some assignment satisfies the clauses and the units.
    fn brute_force(vars: usize, clauses: &[Vec<Lit>], units: &[Lit]) -> bool {
        (0..1_u32 << vars).any(|bits| {
            let model: Vec<bool> = (0..vars).map(|v| bits >> v & 1 == 1).collect();
            holds(clauses, &model) && units.iter().all(|l| model[l.var as usize] == l.positive)
        })
    }

    /// Random formulas of up to 9 variables, each asked several questions
    /// in a row of one solver (what it learns carries over): a model holds
    /// the formula and the assumptions; a core is made of assumptions and
    /// is itself unsatisfiable; satisfiability agrees with brute force.
    #[test]
    fn answers_agree_with_brute_force() {
        let mut rng = Rng::new(11);
        for _ in 0..4_000 {
            let vars = 1 + rng.below(9);
            let mut cnf = Cnf {
                vars,
                clauses: Vec::new(),
            };
            for _ in 0..rng.below(4 * vars + 2) {
                let width = 1 + rng.below(4);
                cnf.add((0..width).map(|_| lit(&mut rng, vars)).collect());
            }
            let mut solver = Solver::new(&cnf);
            for _ in 0..4 {
                let assumptions: Vec<Lit> =
                    (0..rng.below(5)).map(|_| lit(&mut rng, vars)).collect();
                check(&cnf, &mut solver, &assumptions);
            }
        }
    }

    fn check(cnf: &Cnf, solver: &mut Solver, assumptions: &[Lit]) {
        let expected = brute_force(cnf.vars, &cnf.clauses, assumptions);
        match solver.solve(assumptions) {
            Outcome::Sat(model) => {
                assert!(expected, "{cnf:?} {assumptions:?}: not satisfiable");
                assert!(holds(&cnf.clauses, &model), "{cnf:?}: {model:?}");
                assert!(
                    assumptions
                        .iter()
                        .all(|l| model[l.var as usize] == l.positive)
                );
            }
            Outcome::Unsat(core) => {
                assert!(!expected, "{cnf:?} {assumptions:?}: satisfiable");
                let kept: Vec<Lit> = assumptions
                    .iter()
                    .copied()
                    .filter(|l| core.contains(&(l.var as usize)))
                    .collect();
                assert!(
                    core.iter()
                        .all(|v| kept.iter().any(|l| l.var as usize == *v))
                );
                assert!(
                    !brute_force(cnf.vars, &cnf.clauses, &kept),
                    "{cnf:?} {assumptions:?}: the core {core:?} is satisfiable"
                );
            }
        }
    }
}
