//! The engine's SAT questions, answered by the `batsat` crate (a Rust port
//! of MiniSat): a thin adapter from clauses over component variables to its
//! solver — solving under assumptions, models, and unsatisfiable cores of
//! the assumptions. `tests` hold the adapter to a brute-force oracle on
//! random formulas.

use batsat::{BasicSolver, Lit as BLit, SolverInterface, Var, lbool};

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

/// A solver loaded with one formula, queried many times under assumptions.
/// Clauses learned for one query stay for the next ones (they follow from
/// the formula alone).
pub struct Solver {
    inner: BasicSolver,
    /// batsat's variable for each of the formula's, made in order in a
    /// fresh solver: batsat's index of each is the formula's, which the
    /// model and the core are read by.
    vars: Vec<Var>,
    /// False when the formula is unsatisfiable without any assumption.
    ok: bool,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("vars", &self.vars.len())
            .field("ok", &self.ok)
            .finish_non_exhaustive()
    }
}

impl Solver {
    pub fn new(cnf: &Cnf) -> Solver {
        let mut inner = BasicSolver::default();
        let vars: Vec<Var> = (0..cnf.vars).map(|_| inner.new_var_default()).collect();
        let mut ok = true;
        let mut buffer = Vec::new();
        for clause in &cnf.clauses {
            buffer.clear();
            buffer.extend(clause.iter().map(|&l| lit(&vars, l)));
            // batsat answers false once the formula is refuted; adding more
            // after that is harmless, and `ok` remembers it.
            ok &= inner.add_clause_reuse(&mut buffer);
        }
        Solver { inner, vars, ok }
    }

    /// Solves under `assumptions`: a model, or the assumptions' variables
    /// that cannot hold together.
    pub fn solve(&mut self, assumptions: &[Lit]) -> Outcome {
        if !self.ok {
            return Outcome::Unsat(Vec::new());
        }
        let assumed: Vec<BLit> = assumptions.iter().map(|&l| lit(&self.vars, l)).collect();
        if self.inner.solve_limited(&assumed) == lbool::TRUE {
            let model = self.inner.get_model();
            Outcome::Sat(model.iter().map(|&v| v == lbool::TRUE).collect())
        } else {
            // The core is the negations of the assumptions involved: only
            // their variables matter to the engine.
            let core = self.inner.unsat_core().iter();
            Outcome::Unsat(core.map(|l| l.var().idx() as usize).collect())
        }
    }
}

/// `l` as batsat's literal over `vars`.
fn lit(vars: &[Var], l: Lit) -> BLit {
    BLit::new(vars[l.var as usize], l.positive)
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
