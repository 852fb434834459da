//! A settings pattern's text, read into a tree: Fuel's patterns are
//! JavaScript and Python regexes, so this reads their common syntax (and
//! Rust's spellings of it), and names what it does not read.

use super::class::{Class, Perl};
use super::{Error, MAX_DEPTH, MAX_REPEAT};

/// One piece of a pattern.
#[derive(Debug, Clone)]
pub(super) enum Node {
    Empty,
    /// A literal; `fold` when case-insensitive (`c` is then folded).
    Char {
        c: char,
        fold: bool,
    },
    /// `.`; `dotall` when it also matches a newline (`(?s)`).
    Any {
        dotall: bool,
    },
    /// An index into [`Parsed::classes`] (a class repeated is stored once).
    Class(usize),
    Assert(Assertion),
    /// `( … )`: capturing when it has a group number.
    Group {
        node: Box<Node>,
        group: Option<usize>,
    },
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    /// `(?= … )`, `(?! … )`, `(?<= … )`, `(?<! … )`.
    Look {
        node: Box<Node>,
        ahead: bool,
        negate: bool,
    },
    /// `\1` … `\99`.
    Backref {
        group: usize,
        fold: bool,
    },
}

/// A zero-width assertion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Assertion {
    /// `^` (without `(?m)`) and `\A`.
    TextStart,
    /// `$` (without `(?m)`), `\z` and `\Z`.
    TextEnd,
    LineStart,
    LineEnd,
    /// `\b`.
    Word,
    /// `\B`.
    NotWord,
}

/// A parsed pattern, how many capturing groups it has, and its classes.
pub(super) struct Parsed {
    pub node: Node,
    pub groups: usize,
    pub classes: Vec<Class>,
}

/// A repetition's minimum and maximum (`None`: no maximum).
type Bounds = (u32, Option<u32>);

#[derive(Debug, Clone, Copy, Default)]
struct Flags {
    fold: bool,
    multi_line: bool,
    dotall: bool,
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    flags: Flags,
    groups: usize,
    /// The capturing groups not closed yet (a backreference cannot name one).
    open: Vec<usize>,
    classes: Vec<Class>,
    depth: usize,
}

/// Reads `source`; an error names what is wrong and at which character.
pub(super) fn parse(source: &str) -> Result<Parsed, Error> {
    let mut p = Parser {
        chars: source.chars().collect(),
        pos: 0,
        flags: Flags::default(),
        groups: 0,
        open: Vec::new(),
        classes: Vec::new(),
        depth: 0,
    };
    let node = p.alternation()?;
    if p.peek().is_some() {
        return Err(p.error(p.pos, "')' closes no group"));
    }
    Ok(Parsed {
        node,
        groups: p.groups,
        classes: p.classes,
    })
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        self.pos += usize::from(hit);
        hit
    }

    fn eat_str(&mut self, s: &str) -> bool {
        let hit = s
            .chars()
            .enumerate()
            .all(|(i, c)| self.peek_at(i) == Some(c));
        if hit {
            self.pos += s.chars().count();
        }
        hit
    }

    /// A syntax error at character `at` (counted from 1 in the message).
    fn error(&self, at: usize, reason: impl Into<String>) -> Error {
        Error::Syntax {
            at: at + 1,
            reason: reason.into(),
        }
    }

    fn alternation(&mut self) -> Result<Node, Error> {
        let mut branches = vec![self.concat()?];
        while self.eat('|') {
            branches.push(self.concat()?);
        }
        Ok(match branches.len() {
            1 => branches.swap_remove(0),
            _ => Node::Alt(branches),
        })
    }

    fn concat(&mut self) -> Result<Node, Error> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            if let Some(atom) = self.atom()? {
                items.push(self.quantified(atom)?);
            }
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.swap_remove(0),
            _ => Node::Concat(items),
        })
    }

    /// One atom, or `None` for a flag group such as `(?i)`.
    fn atom(&mut self) -> Result<Option<Node>, Error> {
        let at = self.pos;
        let Some(c) = self.peek() else {
            return Ok(Some(Node::Empty));
        };
        match c {
            '(' => return self.group(),
            '[' => return self.class().map(|class| Some(self.add_class(class))),
            '\\' => return self.escape().map(Some),
            _ => {}
        }
        if let Some(repetition) = self.repetition_text()? {
            return Err(self.error(at, format!("'{repetition}' repeats nothing")));
        }
        self.pos += 1;
        let flags = self.flags;
        Ok(Some(match c {
            '.' => Node::Any {
                dotall: flags.dotall,
            },
            '^' if flags.multi_line => Node::Assert(Assertion::LineStart),
            '^' => Node::Assert(Assertion::TextStart),
            '$' if flags.multi_line => Node::Assert(Assertion::LineEnd),
            '$' => Node::Assert(Assertion::TextEnd),
            c => literal(c, flags.fold),
        }))
    }

    /// The repetition after an atom, if any: `*`, `+`, `?`, `{n}`, `{n,}`,
    /// `{n,m}`, `{,m}` (Python's `{0,m}`), each lazy with a `?` after it.
    /// An assertion is not repeated, nor a repetition, as in Python and
    /// JavaScript.
    fn quantified(&mut self, atom: Node) -> Result<Node, Error> {
        let at = self.pos;
        let Some(((min, max), len)) = self.repetition()? else {
            return Ok(atom);
        };
        if let Node::Assert(_) = atom {
            let text = self.text(at, len);
            return Err(self.error(
                at,
                format!("'{text}' repeats an assertion, which matches no character"),
            ));
        }
        self.pos += len;
        let greedy = !self.eat('?');
        if let Some(repetition) = self.repetition_text()? {
            return Err(self.error(self.pos, format!("'{repetition}' repeats a repetition")));
        }
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greedy,
        })
    }

    /// The text of the repetition at the cursor, if one starts there.
    fn repetition_text(&mut self) -> Result<Option<String>, Error> {
        let found = self.repetition()?;
        Ok(found.map(|(_, len)| self.text(self.pos, len)))
    }

    /// The bounds of the repetition at the cursor (which stays there) and
    /// how many characters it takes.
    fn repetition(&mut self) -> Result<Option<(Bounds, usize)>, Error> {
        Ok(match self.peek() {
            Some('*') => Some(((0, None), 1)),
            Some('+') => Some(((1, None), 1)),
            Some('?') => Some(((0, Some(1)), 1)),
            Some('{') => self.count()?,
            _ => None,
        })
    }

    /// The bounds of `{n}`, `{n,}`, `{n,m}`, `{,m}` or `{,}` at the cursor
    /// (Python's counts: a missing minimum is 0) and its length; `None`
    /// when the text there is not a count (then `{` is a literal, as in
    /// Python and JavaScript).
    fn count(&self) -> Result<Option<(Bounds, usize)>, Error> {
        let start = self.pos;
        let mut end = start + 1;
        let digits = |end: &mut usize| {
            let from = *end;
            while self.chars.get(*end).is_some_and(char::is_ascii_digit) {
                *end += 1;
            }
            self.chars[from..*end].iter().collect::<String>()
        };
        let low = digits(&mut end);
        let high = match self.chars.get(end) == Some(&',') {
            true => {
                end += 1;
                Some(digits(&mut end))
            }
            false => None,
        };
        if (low.is_empty() && high.is_none()) || self.chars.get(end) != Some(&'}') {
            return Ok(None);
        }
        let number = |s: &str| {
            s.parse::<u32>()
                .ok()
                .filter(|n| *n <= MAX_REPEAT)
                .ok_or_else(|| self.error(start, format!("a count is at most {MAX_REPEAT}")))
        };
        let min = match low.as_str() {
            "" => 0,
            low => number(low)?,
        };
        let max = match high.as_deref() {
            None => Some(min),
            Some("") => None,
            Some(high) => Some(number(high)?),
        };
        if max.is_some_and(|max| max < min) {
            return Err(self.error(start, "this count's maximum is below its minimum"));
        }
        Ok(Some(((min, max), end + 1 - start)))
    }

    /// `len` characters of the pattern from `at`.
    fn text(&self, at: usize, len: usize) -> String {
        self.chars[at..at + len].iter().collect()
    }

    fn group(&mut self) -> Result<Option<Node>, Error> {
        let open = self.pos;
        self.pos += 1;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(open, format!("groups nest deeper than {MAX_DEPTH}")));
        }
        let saved = self.flags;
        let kind = self.group_kind(open)?;
        let node = match kind {
            GroupKind::Flags => {
                self.depth -= 1;
                return Ok(None);
            }
            _ => self.alternation()?,
        };
        if !self.eat(')') {
            return Err(self.error(open, "this group is not closed"));
        }
        self.flags = saved;
        self.depth -= 1;
        if let GroupKind::Capture(group) = kind {
            self.open.retain(|g| *g != group);
        }
        let node = Box::new(node);
        Ok(Some(match kind {
            GroupKind::Capture(group) => Node::Group {
                node,
                group: Some(group),
            },
            GroupKind::Look { ahead, negate } => Node::Look {
                node,
                ahead,
                negate,
            },
            GroupKind::Plain | GroupKind::Flags => Node::Group { node, group: None },
        }))
    }

    /// What follows `(`: consumes the `?…` prefix of a special group.
    fn group_kind(&mut self, open: usize) -> Result<GroupKind, Error> {
        if !self.eat('?') {
            return Ok(self.capture());
        }
        let looks = [
            ("=", true, false),
            ("!", true, true),
            ("<=", false, false),
            ("<!", false, true),
        ];
        for (prefix, ahead, negate) in looks {
            if self.eat_str(prefix) {
                return Ok(GroupKind::Look { ahead, negate });
            }
        }
        if self.eat_str("P<") || self.eat('<') {
            self.group_name(open)?;
            return Ok(self.capture());
        }
        if self.peek() == Some('P') {
            return Err(self.error(open, "named backreferences are not supported"));
        }
        self.flag_group(open)
    }

    fn capture(&mut self) -> GroupKind {
        self.groups += 1;
        self.open.push(self.groups);
        GroupKind::Capture(self.groups)
    }

    fn group_name(&mut self, open: usize) -> Result<(), Error> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.pos += 1;
        }
        if self.pos == start || !self.eat('>') {
            return Err(self.error(open, "a group name is letters, digits and '_', then '>'"));
        }
        Ok(())
    }

    /// `(?ims-ims)` (for the rest of the enclosing group) or `(?ims-ims: … )`.
    fn flag_group(&mut self, open: usize) -> Result<GroupKind, Error> {
        let mut on = true;
        loop {
            let at = self.pos;
            match self.peek() {
                Some(')') => {
                    self.pos += 1;
                    return Ok(GroupKind::Flags);
                }
                Some(':') => {
                    self.pos += 1;
                    return Ok(GroupKind::Plain);
                }
                Some('-') if on => on = false,
                Some('i') => self.flags.fold = on,
                Some('m') => self.flags.multi_line = on,
                Some('s') => self.flags.dotall = on,
                Some(c) => return Err(self.error(at, format!("unknown group flag '{c}'"))),
                None => return Err(self.error(open, "this group is not closed")),
            }
            self.pos += 1;
        }
    }

    fn class(&mut self) -> Result<Class, Error> {
        let open = self.pos;
        self.pos += 1;
        let negated = self.eat('^');
        let (mut ranges, mut perls) = (Vec::new(), Vec::new());
        loop {
            let at = self.pos;
            match self.peek() {
                None => return Err(self.error(open, "this class is not closed")),
                Some(']') if !(ranges.is_empty() && perls.is_empty()) => break,
                Some('[') if self.peek_at(1) == Some(':') => {
                    return Err(self.error(at, "POSIX classes such as [:alpha:] are not supported"));
                }
                _ => {}
            }
            match self.class_item()? {
                ClassItem::Range(low, high) => ranges.push((low, high)),
                ClassItem::Perl(perl, negated) => perls.push((perl, negated)),
            }
        }
        self.pos += 1;
        Ok(Class::new(ranges, perls, negated, self.flags.fold))
    }

    /// `class` as a node, kept in the pattern's classes.
    fn add_class(&mut self, class: Class) -> Node {
        self.classes.push(class);
        Node::Class(self.classes.len() - 1)
    }

    /// One character, range or Perl class inside `[ … ]`.
    fn class_item(&mut self) -> Result<ClassItem, Error> {
        let at = self.pos;
        let low = match self.class_char()? {
            Ok(c) => c,
            Err(perl) => return Ok(perl),
        };
        let is_range = self.peek() == Some('-') && !matches!(self.peek_at(1), None | Some(']'));
        if !is_range {
            return Ok(ClassItem::Range(low, low));
        }
        self.pos += 1;
        match self.class_char()? {
            Ok(high) if high >= low => Ok(ClassItem::Range(low, high)),
            Ok(high) => Err(self.error(at, format!("the range {low}-{high} is backwards"))),
            Err(_) => Err(self.error(at, "a range cannot end in a class")),
        }
    }

    /// A character inside `[ … ]`, or the Perl class an escape names.
    fn class_char(&mut self) -> Result<Result<char, ClassItem>, Error> {
        let at = self.pos;
        let Some(c) = self.peek() else {
            return Err(self.error(at, "this class is not closed"));
        };
        self.pos += 1;
        if c != '\\' {
            return Ok(Ok(c));
        }
        let Some(e) = self.peek() else {
            return Err(self.error(at, "'\\' ends the pattern"));
        };
        if let Some((perl, negated)) = perl_class(e) {
            self.pos += 1;
            return Ok(Err(ClassItem::Perl(perl, negated)));
        }
        if e == 'b' {
            self.pos += 1;
            return Ok(Ok('\u{8}'));
        }
        self.char_escape(at).map(Ok)
    }

    /// `\…` outside a class.
    fn escape(&mut self) -> Result<Node, Error> {
        let at = self.pos;
        self.pos += 1;
        let Some(e) = self.peek() else {
            return Err(self.error(at, "'\\' ends the pattern"));
        };
        if let Some((perl, negated)) = perl_class(e) {
            self.pos += 1;
            return Ok(self.add_class(Class::perl(perl, negated)));
        }
        let assertion = match e {
            'b' => Some(Assertion::Word),
            'B' => Some(Assertion::NotWord),
            'A' => Some(Assertion::TextStart),
            'z' | 'Z' => Some(Assertion::TextEnd),
            _ => None,
        };
        if let Some(a) = assertion {
            self.pos += 1;
            return Ok(Node::Assert(a));
        }
        if e.is_ascii_digit() && e != '0' && !self.octal_ahead() {
            return self.backref(at);
        }
        self.char_escape(at).map(|c| literal(c, self.flags.fold))
    }

    /// Whether three octal digits follow the `\`: `\101` is `A`, as in
    /// Python (and in JavaScript, short of 101 groups).
    fn octal_ahead(&self) -> bool {
        (0..3).all(|i| self.peek_at(i).is_some_and(|c| c.is_digit(8)))
    }

    /// `\1` … `\99`: a group that is closed before it, as in Python.
    fn backref(&mut self, at: usize) -> Result<Node, Error> {
        let mut group = 0;
        for _ in 0..2 {
            match self.peek().and_then(|c| c.to_digit(10)) {
                Some(d) => group = group * 10 + d as usize,
                None => break,
            }
            self.pos += 1;
        }
        if group > self.groups {
            let reason =
                format!("\\{group} refers to group {group}, which does not come before it");
            return Err(self.error(at, reason));
        }
        if self.open.contains(&group) {
            let reason = format!("\\{group} refers to group {group} from inside it");
            return Err(self.error(at, reason));
        }
        Ok(Node::Backref {
            group,
            fold: self.flags.fold,
        })
    }

    /// The character a `\` escape stands for (cursor after the `\`).
    fn char_escape(&mut self, at: usize) -> Result<char, Error> {
        let Some(e) = self.peek() else {
            return Err(self.error(at, "'\\' ends the pattern"));
        };
        self.pos += 1;
        match e {
            'n' => Ok('\n'),
            't' => Ok('\t'),
            'r' => Ok('\r'),
            'f' => Ok('\u{c}'),
            'v' => Ok('\u{b}'),
            '0'..='7' => self.octal(at, e),
            'x' => self.hex(at, 2),
            'u' => self.hex(at, 4),
            'p' | 'P' => Err(self.error(at, "Unicode classes (\\p) are not supported")),
            c if c.is_ascii_alphanumeric() => {
                Err(self.error(at, format!("unknown escape '\\{c}'")))
            }
            c => Ok(c),
        }
    }

    /// `\0`, `\07`, `\177`: the first digit (`first`, read) and up to two
    /// more, at most `\377`, as in Python and JavaScript.
    fn octal(&mut self, at: usize, first: char) -> Result<char, Error> {
        let mut value = first.to_digit(8).unwrap_or_default();
        for _ in 0..2 {
            let Some(digit) = self.peek().and_then(|c| c.to_digit(8)) else {
                break;
            };
            value = value * 8 + digit;
            self.pos += 1;
        }
        match value {
            0..=0o377 => Ok(char::from_u32(value).unwrap_or_default()),
            _ => Err(self.error(at, "an octal escape is at most \\377")),
        }
    }

    /// `\xHH`, `\uHHHH`, or either with `{…}` around up to six digits.
    fn hex(&mut self, at: usize, digits: usize) -> Result<char, Error> {
        let braced = self.eat('{');
        let start = self.pos;
        let limit = if braced { 6 } else { digits };
        while self.pos - start < limit && self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        let closed = !braced || self.eat('}');
        let complete = if braced {
            !text.is_empty()
        } else {
            text.len() == digits
        };
        u32::from_str_radix(&text, 16)
            .ok()
            .filter(|_| closed && complete)
            .and_then(char::from_u32)
            .ok_or_else(|| {
                self.error(
                    at,
                    "a hexadecimal escape needs its digits and a valid character",
                )
            })
    }
}

/// What one item inside `[ … ]` adds to the class.
enum ClassItem {
    Range(char, char),
    /// A Perl class, negated when the flag is set (`\D`).
    Perl(Perl, bool),
}

enum GroupKind {
    Capture(usize),
    Plain,
    Look {
        ahead: bool,
        negate: bool,
    },
    /// `(?i)`: only flags, no group.
    Flags,
}

fn perl_class(e: char) -> Option<(Perl, bool)> {
    match e {
        'd' => Some((Perl::Digit, false)),
        'D' => Some((Perl::Digit, true)),
        'w' => Some((Perl::Word, false)),
        'W' => Some((Perl::Word, true)),
        's' => Some((Perl::Space, false)),
        'S' => Some((Perl::Space, true)),
        _ => None,
    }
}

fn literal(c: char, fold: bool) -> Node {
    match fold {
        true => Node::Char {
            c: super::fold(c),
            fold,
        },
        false => Node::Char { c, fold },
    }
}
