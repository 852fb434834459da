//! A thin layer over the `batsat` SAT solver: clauses over component
//! variables, solving under assumptions, models and unsatisfiable cores.

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
pub struct Solver {
    inner: BasicSolver,
    vars: Vec<Var>,
    /// False when the formula is unsatisfiable without any assumption.
    ok: bool,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("vars", &self.vars.len())
            .finish()
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
            buffer.extend(
                clause
                    .iter()
                    .map(|l| BLit::new(vars[l.var as usize], l.positive)),
            );
            ok &= inner.add_clause_reuse(&mut buffer);
        }
        Solver { inner, vars, ok }
    }

    pub fn solve(&mut self, assumptions: &[Lit]) -> Outcome {
        if !self.ok {
            return Outcome::Unsat(Vec::new());
        }
        let assumed: Vec<BLit> = assumptions
            .iter()
            .map(|l| BLit::new(self.vars[l.var as usize], l.positive))
            .collect();
        let result = self.inner.solve_limited(&assumed);
        if result == lbool::TRUE {
            let model = self.inner.get_model();
            Outcome::Sat(model.iter().map(|v| *v == lbool::TRUE).collect())
        } else {
            let core: Vec<usize> = self
                .inner
                .unsat_core()
                .iter()
                .map(|l| l.var().idx() as usize)
                .collect();
            Outcome::Unsat(core)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order;

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
        order::sort(&mut core);
        assert_eq!(core, [b, c]);
        assert!(matches!(solver.solve(&[Lit::pos(b)]), Outcome::Sat(_)));
    }
}
