//! A settings pattern's text, read into a tree: Fuel's patterns are
//! JavaScript and Python regexes, so this reads their common syntax (and
//! Rust's spellings of it), and names what it does not read.

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
    Class(Class),
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

/// `[ … ]`, `\d`, `\w`, `\s` and their negations.
#[derive(Debug, Clone)]
pub(super) struct Class {
    pub items: Vec<ClassItem>,
    pub negated: bool,
    pub fold: bool,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum ClassItem {
    Range(char, char),
    /// A Perl class, negated when the flag is set (`\D` inside `[ … ]`).
    Perl(Perl, bool),
}

/// `\d` and `\w` are ASCII, as in JavaScript, where Fuel's own UI checked
/// its patterns; `\s` is Unicode white space, as in JavaScript and Python.
#[derive(Debug, Clone, Copy)]
pub(super) enum Perl {
    Digit,
    Word,
    Space,
}

impl Perl {
    pub fn matches(self, c: char) -> bool {
        match self {
            Perl::Digit => c.is_ascii_digit(),
            Perl::Word => c.is_ascii_alphanumeric() || c == '_',
            Perl::Space => c.is_whitespace(),
        }
    }
}

/// A parsed pattern and how many capturing groups it has.
pub(super) struct Parsed {
    pub node: Node,
    pub groups: usize,
}

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
    depth: usize,
}

/// Reads `source`; an error names what is wrong and at which character.
pub(super) fn parse(source: &str) -> Result<Parsed, Error> {
    let mut p = Parser {
        chars: source.chars().collect(),
        pos: 0,
        flags: Flags::default(),
        groups: 0,
        depth: 0,
    };
    let node = p.alternation()?;
    if p.peek().is_some() {
        return Err(p.error(p.pos, "')' closes no group"));
    }
    check_backrefs(&node, p.groups)?;
    Ok(Parsed {
        node,
        groups: p.groups,
    })
}

/// A backreference names a group that exists.
fn check_backrefs(node: &Node, groups: usize) -> Result<(), Error> {
    match node {
        Node::Backref { group, .. } if *group > groups => Err(Error::Syntax {
            at: 0,
            reason: format!("\\{group} refers to group {group}, and there are {groups}"),
        }),
        Node::Group { node, .. } | Node::Repeat { node, .. } | Node::Look { node, .. } => {
            check_backrefs(node, groups)
        }
        Node::Concat(nodes) | Node::Alt(nodes) => {
            nodes.iter().try_for_each(|n| check_backrefs(n, groups))
        }
        _ => Ok(()),
    }
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
        if c == '(' {
            return self.group();
        }
        if c == '[' {
            return self.class().map(|c| Some(Node::Class(c)));
        }
        if c == '\\' {
            return self.escape().map(Some);
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
            '*' | '+' | '?' => return Err(self.error(at, format!("'{c}' repeats nothing"))),
            c => literal(c, flags.fold),
        }))
    }

    /// The repetition after an atom, if any: `*`, `+`, `?`, `{n}`, `{n,}`,
    /// `{n,m}`, each lazy with a `?` after it. A `{` that is not a count is
    /// a literal, as in Python and JavaScript.
    fn quantified(&mut self, atom: Node) -> Result<Node, Error> {
        let bounds = match self.peek() {
            Some('*') => Some((0, None)),
            Some('+') => Some((1, None)),
            Some('?') => Some((0, Some(1))),
            Some('{') => self.count()?,
            _ => None,
        };
        let Some((min, max)) = bounds else {
            return Ok(atom);
        };
        if self.peek() != Some('{') {
            self.pos += 1;
        } else {
            while !self.eat('}') {
                self.pos += 1;
            }
        }
        let greedy = !self.eat('?');
        if let Some(c @ ('*' | '+' | '?')) = self.peek() {
            return Err(self.error(self.pos, format!("'{c}' repeats a repetition")));
        }
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greedy,
        })
    }

    /// The bounds of `{n}`, `{n,}` or `{n,m}` at the cursor (which stays
    /// there); `None` when the text there is not a count.
    fn count(&mut self) -> Result<Option<(u32, Option<u32>)>, Error> {
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
        if low.is_empty() || self.chars.get(end) != Some(&'}') {
            return Ok(None);
        }
        let number = |s: &str| {
            s.parse::<u32>()
                .ok()
                .filter(|n| *n <= MAX_REPEAT)
                .ok_or_else(|| self.error(start, format!("a count is at most {MAX_REPEAT}")))
        };
        let min = number(&low)?;
        let max = match high.as_deref() {
            None => Some(min),
            Some("") => None,
            Some(high) => Some(number(high)?),
        };
        if max.is_some_and(|max| max < min) {
            return Err(self.error(start, "this count's maximum is below its minimum"));
        }
        Ok(Some((min, max)))
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
        let mut items = Vec::new();
        loop {
            let at = self.pos;
            match self.peek() {
                None => return Err(self.error(open, "this class is not closed")),
                Some(']') if !items.is_empty() => break,
                Some('[') if self.peek_at(1) == Some(':') => {
                    return Err(self.error(at, "POSIX classes such as [:alpha:] are not supported"));
                }
                _ => {}
            }
            items.push(self.class_item()?);
        }
        self.pos += 1;
        Ok(Class {
            items,
            negated,
            fold: self.flags.fold,
        })
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
        let fold = self.flags.fold;
        if let Some((perl, negated)) = perl_class(e) {
            self.pos += 1;
            return Ok(Node::Class(Class {
                items: vec![ClassItem::Perl(perl, false)],
                negated,
                fold: false,
            }));
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
        if e.is_ascii_digit() && e != '0' {
            return Ok(Node::Backref {
                group: self.backref_number(),
                fold,
            });
        }
        self.char_escape(at).map(|c| literal(c, fold))
    }

    /// One or two digits after `\`.
    fn backref_number(&mut self) -> usize {
        let mut n = 0;
        for _ in 0..2 {
            match self.peek().and_then(|c| c.to_digit(10)) {
                Some(d) => n = n * 10 + d as usize,
                None => break,
            }
            self.pos += 1;
        }
        n
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
            '0' => Ok('\0'),
            'x' => self.hex(at, 2),
            'u' => self.hex(at, 4),
            'p' | 'P' => Err(self.error(at, "Unicode classes (\\p) are not supported")),
            c if c.is_ascii_alphanumeric() => {
                Err(self.error(at, format!("unknown escape '\\{c}'")))
            }
            c => Ok(c),
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
