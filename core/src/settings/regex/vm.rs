//! The backtracking machine: runs a [`Program`] from each start position,
//! trying alternatives depth first. One budget per search counts the work
//! every step does (see [`STEP_LIMIT`]), and one stack, shared by the
//! lookarounds' runs, holds at most [`STACK_LIMIT`] frames.

use super::parse::Assertion;
use super::program::{Inst, Program};
use super::{Error, STACK_LIMIT, STEP_LIMIT, fold};

/// Whether `program` matches somewhere in `text`.
pub(super) fn search(program: &Program, text: &str) -> Result<bool, Error> {
    let mut vm = Vm {
        program,
        text,
        steps: 0,
        stack: Vec::new(),
    };
    vm.charge(program.slots)?;
    let mut slots = vec![None; program.slots];
    let starts = text.char_indices().map(|(i, _)| i).chain([text.len()]);
    for start in starts {
        if vm.run(0, start, &mut slots, None)? {
            return Ok(true);
        }
        if program.anchored {
            break;
        }
    }
    Ok(false)
}

type Slots = [Option<usize>];

struct Vm<'p, 't> {
    program: &'p Program,
    text: &'t str,
    steps: usize,
    /// Every run's frames, a lookaround's above those of the run it is in.
    stack: Vec<Frame>,
}

/// What to undo when backtracking past it.
enum Frame {
    /// The other way of a split.
    Alt { pc: usize, pos: usize },
    /// A slot's value before an instruction set it.
    Restore { slot: usize, old: Option<usize> },
}

// STACK_LIMIT's memory (8 MB natively, 4 MB on wasm32) holds while a frame
// is at most four words.
const _: () = assert!(size_of::<Frame>() <= 4 * size_of::<usize>());

enum Step {
    Go,
    Fail,
    Match,
}

impl Vm<'_, '_> {
    /// Counts `work` steps against the budget.
    fn charge(&mut self, work: usize) -> Result<(), Error> {
        self.steps = self.steps.saturating_add(work);
        match self.steps > STEP_LIMIT {
            true => Err(Error::TooCostly),
            false => Ok(()),
        }
    }

    fn push(&mut self, frame: Frame) -> Result<(), Error> {
        if self.stack.len() >= STACK_LIMIT {
            return Err(Error::TooCostly);
        }
        self.stack.push(frame);
        Ok(())
    }

    /// Runs from `pc` at `pos`; with `end_at`, a match must end there
    /// (lookbehind). On a match `slots` hold what it recorded; otherwise
    /// they are as they were. The stack is as it was either way.
    fn run(
        &mut self,
        pc: usize,
        pos: usize,
        slots: &mut Slots,
        end_at: Option<usize>,
    ) -> Result<bool, Error> {
        let base = self.stack.len();
        let found = self.run_above(base, (pc, pos), slots, end_at);
        self.stack.truncate(base);
        found
    }

    /// [`Vm::run`], its frames above `base`.
    fn run_above(
        &mut self,
        base: usize,
        (mut pc, mut pos): (usize, usize),
        slots: &mut Slots,
        end_at: Option<usize>,
    ) -> Result<bool, Error> {
        loop {
            self.charge(1)?;
            match self.step(&mut pc, &mut pos, slots)? {
                Step::Go => {}
                Step::Match if end_at.is_none_or(|end| end == pos) => return Ok(true),
                Step::Match | Step::Fail => {
                    if !self.backtrack(base, &mut pc, &mut pos, slots) {
                        return Ok(false);
                    }
                }
            }
        }
    }

    /// Runs one instruction.
    fn step(&mut self, pc: &mut usize, pos: &mut usize, slots: &mut Slots) -> Result<Step, Error> {
        let next = self.text[*pos..].chars().next();
        let consume = |ok: bool, pc: &mut usize, pos: &mut usize| match (ok, next) {
            (true, Some(c)) => {
                *pos += c.len_utf8();
                *pc += 1;
                Step::Go
            }
            _ => Step::Fail,
        };
        Ok(match self.program.insts[*pc] {
            Inst::Char(c) => consume(next == Some(c), pc, pos),
            Inst::CharFold(c) => consume(next.map(fold) == Some(c), pc, pos),
            Inst::Any => consume(next.is_some(), pc, pos),
            Inst::AnyButNewline => consume(next.is_some_and(|c| c != '\n'), pc, pos),
            Inst::Class(i) => consume(
                next.is_some_and(|c| self.program.classes[i].matches(c)),
                pc,
                pos,
            ),
            Inst::Assert(a) => match self.holds(a, *pos) {
                true => advance(pc),
                false => Step::Fail,
            },
            Inst::Split { first, second } => {
                self.push(Frame::Alt {
                    pc: second,
                    pos: *pos,
                })?;
                *pc = first;
                Step::Go
            }
            Inst::Jmp(to) => {
                *pc = to;
                Step::Go
            }
            Inst::Save(slot) => {
                self.set(slots, slot, Some(*pos))?;
                advance(pc)
            }
            Inst::Progress { slot, exit } if slots[slot] == Some(*pos) => match exit {
                Some(exit) => {
                    *pc = exit;
                    Step::Go
                }
                None => Step::Fail,
            },
            Inst::Progress { .. } => advance(pc),
            Inst::Look {
                ahead,
                negate,
                next,
            } => self.look(*pc, *pos, slots, (ahead, negate, next), pc)?,
            Inst::Backref { group, fold } => match self.backref(slots, group, fold, *pos)? {
                Some(len) => {
                    *pos += len;
                    advance(pc)
                }
                None => Step::Fail,
            },
            Inst::Match => Step::Match,
        })
    }

    fn holds(&self, a: Assertion, pos: usize) -> bool {
        let before = self.text[..pos].chars().next_back();
        let after = self.text[pos..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        match a {
            Assertion::TextStart => pos == 0,
            Assertion::TextEnd => pos == self.text.len(),
            Assertion::LineStart => before.is_none_or(|c| c == '\n'),
            Assertion::LineEnd => after.is_none_or(|c| c == '\n'),
            Assertion::Word => word(before) != word(after),
            Assertion::NotWord => word(before) == word(after),
        }
    }

    /// A lookaround at `at`: runs its sub-program on a copy of the slots; a
    /// positive one that matched keeps the groups it recorded. The copy
    /// and the merge each cost a step per slot.
    fn look(
        &mut self,
        at: usize,
        pos: usize,
        slots: &mut Slots,
        (ahead, negate, next): (bool, bool, usize),
        pc: &mut usize,
    ) -> Result<Step, Error> {
        self.charge(slots.len())?;
        let mut inner = slots.to_vec();
        let found = match ahead {
            true => self.run(at + 1, pos, &mut inner, None)?,
            false => self.behind(at + 1, pos, &mut inner)?,
        };
        if found == negate {
            return Ok(Step::Fail);
        }
        if found {
            self.charge(slots.len())?;
            for (slot, value) in inner.into_iter().enumerate() {
                if slots[slot] != value {
                    self.set(slots, slot, value)?;
                }
            }
        }
        *pc = next;
        Ok(Step::Go)
    }

    /// A lookbehind: the sub-program matches some text that ends at `pos`,
    /// the nearest start tried first.
    fn behind(&mut self, pc: usize, pos: usize, slots: &mut Slots) -> Result<bool, Error> {
        let starts = self.text[..pos].char_indices().map(|(i, _)| i).rev();
        for start in [pos].into_iter().chain(starts) {
            if self.run(pc, start, slots, Some(pos))? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The length of the text at `pos` that repeats `group`'s match; `None`
    /// when it does not, or the group has not matched. Comparing costs a
    /// step per byte compared.
    fn backref(
        &mut self,
        slots: &Slots,
        group: usize,
        fold_case: bool,
        pos: usize,
    ) -> Result<Option<usize>, Error> {
        let (Some(start), Some(end)) = (slots[2 * group], slots[2 * group + 1]) else {
            return Ok(None);
        };
        let Some(earlier) = self.text.get(start..end) else {
            return Ok(None);
        };
        let rest = &self.text[pos..];
        self.charge(earlier.len().min(rest.len()))?;
        if !fold_case {
            return Ok(rest.starts_with(earlier).then_some(earlier.len()));
        }
        let mut len = 0;
        let mut chars = rest.chars();
        for e in earlier.chars() {
            let Some(c) = chars.next().filter(|c| fold(*c) == fold(e)) else {
                return Ok(None);
            };
            len += c.len_utf8();
        }
        Ok(Some(len))
    }

    fn set(&mut self, slots: &mut Slots, slot: usize, value: Option<usize>) -> Result<(), Error> {
        self.push(Frame::Restore {
            slot,
            old: slots[slot],
        })?;
        slots[slot] = value;
        Ok(())
    }

    /// Undoes the frames above `base` up to the latest alternative and
    /// resumes there; false when none is left.
    fn backtrack(
        &mut self,
        base: usize,
        pc: &mut usize,
        pos: &mut usize,
        slots: &mut Slots,
    ) -> bool {
        while self.stack.len() > base {
            match self.stack.pop() {
                Some(Frame::Alt { pc: p, pos: q }) => {
                    (*pc, *pos) = (p, q);
                    return true;
                }
                Some(Frame::Restore { slot, old }) => slots[slot] = old,
                None => break,
            }
        }
        false
    }
}

fn advance(pc: &mut usize) -> Step {
    *pc += 1;
    Step::Go
}
