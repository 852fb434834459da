//! A parsed pattern as a program for the backtracking machine in `vm.rs`:
//! repetitions expanded, alternatives as splits, lookarounds as
//! sub-programs that end in their own `Match`.

use super::class::Class;
use super::parse::{Assertion, Node, Parsed};
use super::{Error, MAX_INSTS};

#[derive(Debug, Clone, Copy)]
pub(super) enum Inst {
    Char(char),
    /// A character whose folded form is this one.
    CharFold(char),
    Any,
    AnyButNewline,
    /// An index into [`Program::classes`].
    Class(usize),
    Assert(Assertion),
    /// Go on at `first`; on failure, at `second`.
    Split {
        first: usize,
        second: usize,
    },
    Jmp(usize),
    /// Record the position in a slot (group bounds, loop starts).
    Save(usize),
    /// A loop body's end: when the position equals the slot's, the body
    /// matched nothing, which ends the loop, keeping what its groups
    /// recorded (as in Python: `(\b)*\1` matches) — going on at `exit`.
    /// Without `exit` (a body with no groups) it fails instead: going on
    /// would only repeat what skipping the body does, and nested loops
    /// would repeat it exponentially.
    Progress {
        slot: usize,
        exit: Option<usize>,
    },
    /// Run the sub-program that starts after this instruction; go on at
    /// `next` when it matches (or, when `negate`, when it does not).
    Look {
        ahead: bool,
        negate: bool,
        next: usize,
    },
    Backref {
        group: usize,
        fold: bool,
    },
    Match,
}

#[derive(Debug, Clone)]
pub(super) struct Program {
    pub insts: Vec<Inst>,
    pub classes: Vec<Class>,
    /// Group `g` records its bounds in slots `2g` and `2g + 1`; loop
    /// registers follow.
    pub slots: usize,
    /// Every match starts at the start of the text.
    pub anchored: bool,
}

pub(super) fn compile(parsed: &Parsed) -> Result<Program, Error> {
    let mut c = Compiler {
        insts: Vec::new(),
        slots: 2 * (parsed.groups + 1),
        visits: 0,
    };
    c.node(&parsed.node)?;
    c.push(Inst::Match)?;
    Ok(Program {
        insts: c.insts,
        classes: parsed.classes.clone(),
        slots: c.slots,
        anchored: anchored(&parsed.node),
    })
}

/// Whether every match of `node` must start at the start of the text.
fn anchored(node: &Node) -> bool {
    match node {
        Node::Assert(Assertion::TextStart) => true,
        Node::Concat(nodes) => nodes.first().is_some_and(anchored),
        Node::Group { node, .. } => anchored(node),
        Node::Alt(branches) => branches.iter().all(anchored),
        Node::Repeat { node, min, .. } => *min > 0 && anchored(node),
        _ => false,
    }
}

struct Compiler {
    insts: Vec<Inst>,
    slots: usize,
    /// Nodes compiled so far, repetitions counted: a repeated empty group
    /// adds no instruction, so this bounds the work instead.
    visits: usize,
}

impl Compiler {
    fn push(&mut self, inst: Inst) -> Result<usize, Error> {
        if self.insts.len() >= MAX_INSTS {
            return Err(Error::TooLarge);
        }
        self.insts.push(inst);
        Ok(self.insts.len() - 1)
    }

    fn node(&mut self, node: &Node) -> Result<(), Error> {
        self.visits += 1;
        if self.visits > 4 * MAX_INSTS {
            return Err(Error::TooLarge);
        }
        match node {
            Node::Empty => {}
            Node::Char { c, fold: false } => _ = self.push(Inst::Char(*c))?,
            Node::Char { c, fold: true } => _ = self.push(Inst::CharFold(*c))?,
            Node::Any { dotall: true } => _ = self.push(Inst::Any)?,
            Node::Any { dotall: false } => _ = self.push(Inst::AnyButNewline)?,
            Node::Class(class) => _ = self.push(Inst::Class(*class))?,
            Node::Assert(a) => _ = self.push(Inst::Assert(*a))?,
            Node::Group { node, group } => self.group(node, *group)?,
            Node::Concat(nodes) => nodes.iter().try_for_each(|n| self.node(n))?,
            Node::Alt(branches) => self.alternation(branches)?,
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => self.repeat(node, *min, *max, *greedy)?,
            Node::Look {
                node,
                ahead,
                negate,
            } => self.look(node, *ahead, *negate)?,
            Node::Backref { group, fold } => {
                self.push(Inst::Backref {
                    group: *group,
                    fold: *fold,
                })?;
            }
        }
        Ok(())
    }

    fn group(&mut self, node: &Node, group: Option<usize>) -> Result<(), Error> {
        let Some(g) = group else {
            return self.node(node);
        };
        self.push(Inst::Save(2 * g))?;
        self.node(node)?;
        self.push(Inst::Save(2 * g + 1))?;
        Ok(())
    }

    /// `Split(b1, s2) b1 Jmp(end) s2: Split(b2, s3) b2 Jmp(end) … bn end:`
    fn alternation(&mut self, branches: &[Node]) -> Result<(), Error> {
        let mut jumps = Vec::new();
        for (i, branch) in branches.iter().enumerate() {
            if i + 1 == branches.len() {
                self.node(branch)?;
                break;
            }
            let split = self.push(Inst::Jmp(0))?;
            self.node(branch)?;
            jumps.push(self.push(Inst::Jmp(0))?);
            let second = self.insts.len();
            self.insts[split] = Inst::Split {
                first: split + 1,
                second,
            };
        }
        let end = self.insts.len();
        jumps.iter().for_each(|j| self.insts[*j] = Inst::Jmp(end));
        Ok(())
    }

    /// `min` copies, then either a loop or `max - min` optional copies.
    fn repeat(
        &mut self,
        node: &Node,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    ) -> Result<(), Error> {
        for _ in 0..min {
            self.node(node)?;
        }
        let Some(max) = max else {
            return self.star(node, greedy);
        };
        let mut splits = Vec::new();
        for _ in min..max {
            splits.push(self.push(Inst::Jmp(0))?);
            self.node(node)?;
        }
        let end = self.insts.len();
        for split in splits {
            self.insts[split] = choice(split + 1, end, greedy);
        }
        Ok(())
    }

    /// `L: Split(B, X) B: Save(r) body Progress(r, X) Jmp(L) X:`
    fn star(&mut self, node: &Node, greedy: bool) -> Result<(), Error> {
        let register = self.slots;
        self.slots += 1;
        let split = self.push(Inst::Jmp(0))?;
        self.push(Inst::Save(register))?;
        self.node(node)?;
        let progress = self.push(Inst::Jmp(0))?;
        self.push(Inst::Jmp(split))?;
        let exit = self.insts.len();
        self.insts[split] = choice(split + 1, exit, greedy);
        self.insts[progress] = Inst::Progress {
            slot: register,
            exit: captures(node).then_some(exit),
        };
        Ok(())
    }

    fn look(&mut self, node: &Node, ahead: bool, negate: bool) -> Result<(), Error> {
        let at = self.push(Inst::Jmp(0))?;
        self.node(node)?;
        self.push(Inst::Match)?;
        self.insts[at] = Inst::Look {
            ahead,
            negate,
            next: self.insts.len(),
        };
        Ok(())
    }
}

/// Whether `node` holds a capturing group.
fn captures(node: &Node) -> bool {
    match node {
        Node::Group { group: Some(_), .. } => true,
        Node::Group { node, .. } | Node::Repeat { node, .. } | Node::Look { node, .. } => {
            captures(node)
        }
        Node::Concat(nodes) | Node::Alt(nodes) => nodes.iter().any(captures),
        _ => false,
    }
}

/// A split that prefers `body` when greedy and `skip` when lazy.
fn choice(body: usize, skip: usize, greedy: bool) -> Inst {
    match greedy {
        true => Inst::Split {
            first: body,
            second: skip,
        },
        false => Inst::Split {
            first: skip,
            second: body,
        },
    }
}
