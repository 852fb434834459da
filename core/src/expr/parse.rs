//! Lexing and parsing. The grammar (SEMANTICS §3.1):
//!
//! ```text
//! expr    := or
//! or      := and ('or' and)*
//! and     := cmp ('and' cmp)*
//! cmp     := unary (('==' | '!=') unary)*
//! unary   := 'not' unary | in
//! in      := primary ('in' primary)*
//! primary := NUMBER | STRING | 'true' | 'false' | 'null' | PATH | '(' expr ')'
//! ```
//!
//! Binary operators are parsed in loops and nesting (parentheses and `not`)
//! is counted, so no input can overflow the stack.

use super::error::{ErrorKind, ExprError};

/// Nesting allowed for parentheses and `not`, together.
pub const MAX_DEPTH: usize = 100;

/// The models a path can name; `settings` when none is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Model {
    Settings,
    Cluster,
    Release,
    Version,
    NetworkingParameters,
}

impl Model {
    pub fn parse(name: &str) -> Option<Model> {
        Some(match name {
            "settings" => Model::Settings,
            "cluster" => Model::Cluster,
            "release" => Model::Release,
            "version" => Model::Version,
            "networking_parameters" => Model::NetworkingParameters,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Model::Settings => "settings",
            Model::Cluster => "cluster",
            Model::Release => "release",
            Model::Version => "version",
            Model::NetworkingParameters => "networking_parameters",
        }
    }
}

/// A path into a model: `settings:storage.volumes_ceph.value`. Its text
/// stays in the expression's source ([`Expr::dotted`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    pub model: Model,
    /// Byte range of the segments (`storage.volumes_ceph.value`) in the source.
    pub dotted: (usize, usize),
    /// A trailing `?`: a missing value is `null` even in strict mode.
    pub optional: bool,
    pub span: (usize, usize),
    /// `path_hash` of the dotted text, computed once when parsing.
    pub hash: u64,
}

/// The hash paths are looked up by (FxHash's mixing, eight bytes of the
/// dotted path at a time): cheap, and the same when parsing and when
/// indexing models.
pub fn path_hash(dotted: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = dotted.len() as u64;
    for chunk in dotted.as_bytes().chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    h
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Literal {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
}

/// Chains of one operator are flat lists, so long chains nest nothing.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Lit(Literal),
    /// Index into `Expr::paths`.
    Path(usize),
    Not(Box<Node>),
    And(Vec<Node>),
    Or(Vec<Node>),
    /// `first (==|!= operand)*`, left to right; `true` means `==`.
    Cmp(Box<Node>, Vec<(bool, Node)>),
    /// `first (in operand)*`, left to right, with each right operand's span.
    In(Box<Node>, Vec<(Node, (usize, usize))>),
    /// `path == literal` or `path != literal` (either order): the most
    /// common restriction clause, evaluated without recursion.
    PathCmp(usize, Literal, bool),
}

/// A parsed expression, ready to be evaluated many times.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub(crate) source: String,
    pub(crate) root: Node,
    pub(crate) paths: Vec<Path>,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    LParen,
    RParen,
    EqEq,
    NotEq,
    And,
    Or,
    Not,
    In,
    Lit(Literal),
    /// A path's text (without a trailing `?`) and whether it had one; the
    /// `Path` is built when the parser takes it.
    Path {
        end: usize,
        optional: bool,
    },
}

/// Errors travel boxed inside the parser, so results stay small.
type Fail = Box<ExprError>;

/// A token and its byte range.
type Spanned = (Token, (usize, usize));

struct Lexer<'a> {
    source: &'a str,
    pos: usize,
}

/// Bytes that may appear in a path or number token: `[A-Za-z0-9_.:-]`.
static PATH_CHARS: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':');
        c += 1;
    }
    table
};

fn is_path_char(c: u8) -> bool {
    PATH_CHARS[usize::from(c)]
}

impl<'a> Lexer<'a> {
    fn error(&self, kind: ErrorKind, span: (usize, usize), message: impl Into<String>) -> Fail {
        Box::new(ExprError::new(kind, Some(span), message, self.source))
    }

    fn next(&mut self) -> Result<Option<Spanned>, Fail> {
        let bytes = self.source.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        let start = self.pos;
        let Some(&c) = bytes.get(start) else {
            return Ok(None);
        };
        let token = match c {
            b'(' => {
                self.pos += 1;
                Token::LParen
            }
            b')' => {
                self.pos += 1;
                Token::RParen
            }
            b'=' | b'!' => {
                if bytes.get(start + 1) != Some(&b'=') {
                    let what = if c == b'=' {
                        "'=' (did you mean '==')"
                    } else {
                        "'!' (did you mean '!=' or 'not')"
                    };
                    return Err(self.error(
                        ErrorKind::Parse,
                        (start, start + 1),
                        format!("unexpected {what}"),
                    ));
                }
                self.pos += 2;
                if c == b'=' { Token::EqEq } else { Token::NotEq }
            }
            b'"' | b'\'' => {
                let close = self.source[start + 1..].find(c as char).ok_or_else(|| {
                    self.error(
                        ErrorKind::Parse,
                        (start, bytes.len()),
                        "unterminated string",
                    )
                })?;
                let end = start + 1 + close;
                self.pos = end + 1;
                Token::Lit(Literal::Str(self.source[start + 1..end].to_owned()))
            }
            b'-' | b'0'..=b'9' => self.number(start)?,
            c if is_path_char(c) => self.word(start),
            _ => {
                let ch = self.source[start..].chars().next().unwrap_or_default();
                let end = start + ch.len_utf8();
                return Err(self.error(
                    ErrorKind::Parse,
                    (start, end),
                    format!("unexpected character '{ch}'"),
                ));
            }
        };
        Ok(Some((token, (start, self.pos))))
    }

    /// A number starting at `start`.
    fn number(&mut self, start: usize) -> Result<Token, Fail> {
        let bytes = self.source.as_bytes();
        let mut end = start + 1;
        while end < bytes.len() && is_path_char(bytes[end]) {
            end += 1;
        }
        self.pos = end;
        let text = &self.source[start..end];
        // `parse` reads more than expressions write (`1e5`, `-inf`),
        // and too many digits for a float are infinity, not an error.
        match text.parse::<f64>() {
            Ok(n) if is_number(text) && n.is_finite() => Ok(Token::Lit(Literal::Num(n))),
            _ => Err(self.error(
                ErrorKind::Parse,
                (start, end),
                format!("invalid number '{text}'"),
            )),
        }
    }

    /// A keyword, a literal word, or a path (with `?`, optional) starting at
    /// `start`.
    fn word(&mut self, start: usize) -> Token {
        let bytes = self.source.as_bytes();
        let mut end = start;
        while end < bytes.len() && is_path_char(bytes[end]) {
            end += 1;
        }
        let text = &self.source[start..end];
        let optional = bytes.get(end) == Some(&b'?');
        self.pos = end + usize::from(optional);
        match (text, optional) {
            ("and", false) => Token::And,
            ("or", false) => Token::Or,
            ("not", false) => Token::Not,
            ("in", false) => Token::In,
            ("true", false) => Token::Lit(Literal::Bool(true)),
            ("false", false) => Token::Lit(Literal::Bool(false)),
            ("null", false) => Token::Lit(Literal::Null),
            _ => Token::Path { end, optional },
        }
    }

    fn path(&self, text: &str, optional: bool, span: (usize, usize)) -> Result<Path, Fail> {
        // One pass: where the model ends, and whether every segment after it
        // is non-empty and free of further ':'.
        let mut colon = None;
        let mut bad = false;
        let mut segment_start = true;
        for (i, &b) in text.as_bytes().iter().enumerate() {
            match b {
                b':' => {
                    bad |= colon.is_some();
                    colon.get_or_insert(i);
                    segment_start = true;
                }
                b'.' => {
                    bad |= segment_start;
                    segment_start = true;
                }
                _ => segment_start = false,
            }
        }
        bad |= segment_start;
        let (model, rest) = match colon {
            Some(c) => {
                let name = &text[..c];
                let model = Model::parse(name).ok_or_else(|| {
                    self.error(
                        ErrorKind::UnknownModel,
                        (span.0, span.0 + c),
                        format!(
                            "unknown model '{name}' (expected settings, cluster, release, version or networking_parameters)"
                        ),
                    )
                })?;
                (model, &text[c + 1..])
            }
            None => (Model::Settings, text),
        };
        if bad {
            return Err(self.error(
                ErrorKind::Parse,
                span,
                format!("invalid path '{text}': segments are [A-Za-z0-9_-]+ separated by '.'"),
            ));
        }
        let end = span.0 + text.len();
        Ok(Path {
            model,
            dotted: (end - rest.len(), end),
            optional,
            span,
            hash: path_hash(rest),
        })
    }
}

fn is_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    all_digits(int) && frac.is_none_or(all_digits)
}

struct Parser<'a> {
    lexer: Lexer<'a>,
    peeked: Option<Spanned>,
    depth: usize,
    paths: Vec<Path>,
}

impl<'a> Parser<'a> {
    fn peek(&mut self) -> Result<Option<&Token>, Fail> {
        if self.peeked.is_none() {
            self.peeked = self.lexer.next()?;
        }
        Ok(self.peeked.as_ref().map(|(t, _)| t))
    }

    fn bump(&mut self) -> Result<Option<Spanned>, Fail> {
        self.peek()?;
        Ok(self.peeked.take())
    }

    fn end_span(&self) -> (usize, usize) {
        let n = self.lexer.source.len();
        (n, n)
    }

    fn error(&self, span: (usize, usize), message: impl Into<String>) -> Fail {
        Box::new(ExprError::new(
            ErrorKind::Parse,
            Some(span),
            message,
            self.lexer.source,
        ))
    }

    fn nest(&mut self, span: (usize, usize)) -> Result<(), Fail> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Box::new(ExprError::new(
                ErrorKind::TooDeep,
                Some(span),
                format!("expression nested more than {MAX_DEPTH} levels deep"),
                self.lexer.source,
            )));
        }
        Ok(())
    }

    /// `next (op next)*` as one flat node (`make`), or just `next`.
    fn chain(
        &mut self,
        op: Token,
        next: fn(&mut Self) -> Result<Node, Fail>,
        make: fn(Vec<Node>) -> Node,
    ) -> Result<Node, Fail> {
        let first = next(self)?;
        if self.peek()? != Some(&op) {
            return Ok(first);
        }
        let mut operands = Vec::with_capacity(4);
        operands.push(first);
        while self.peek()? == Some(&op) {
            self.bump()?;
            operands.push(next(self)?);
        }
        Ok(make(operands))
    }

    fn or(&mut self) -> Result<Node, Fail> {
        self.chain(Token::Or, Self::and, Node::Or)
    }

    fn and(&mut self) -> Result<Node, Fail> {
        self.chain(Token::And, Self::cmp, Node::And)
    }

    fn cmp_op(&mut self) -> Result<Option<bool>, Fail> {
        Ok(match self.peek()? {
            Some(Token::EqEq) => Some(true),
            Some(Token::NotEq) => Some(false),
            _ => None,
        })
    }

    fn cmp(&mut self) -> Result<Node, Fail> {
        let first = self.unary()?;
        let Some(is_eq) = self.cmp_op()? else {
            return Ok(first);
        };
        self.bump()?;
        let second = self.unary()?;
        if self.cmp_op()?.is_none() {
            // One comparison, the common case: no list needed.
            return Ok(match (first, second) {
                (Node::Path(p), Node::Lit(lit)) | (Node::Lit(lit), Node::Path(p)) => {
                    Node::PathCmp(p, lit, is_eq)
                }
                (first, second) => Node::Cmp(Box::new(first), vec![(is_eq, second)]),
            });
        }
        let mut rest = vec![(is_eq, second)];
        while let Some(is_eq) = self.cmp_op()? {
            self.bump()?;
            rest.push((is_eq, self.unary()?));
        }
        Ok(Node::Cmp(Box::new(first), rest))
    }

    fn unary(&mut self) -> Result<Node, Fail> {
        if self.peek()? == Some(&Token::Not) {
            let (_, span) = self.bump()?.expect("peeked");
            self.nest(span)?;
            let operand = self.unary()?;
            self.depth -= 1;
            return Ok(Node::Not(Box::new(operand)));
        }
        self.in_()
    }

    fn in_(&mut self) -> Result<Node, Fail> {
        let (first, _) = self.primary()?;
        let mut rest = Vec::new();
        while self.peek()? == Some(&Token::In) {
            self.bump()?;
            rest.push(self.primary()?);
        }
        Ok(if rest.is_empty() {
            first
        } else {
            Node::In(Box::new(first), rest)
        })
    }

    fn primary(&mut self) -> Result<(Node, (usize, usize)), Fail> {
        let Some((token, span)) = self.bump()? else {
            return Err(self.error(
                self.end_span(),
                "expected a value, found the end of the expression",
            ));
        };
        match token {
            Token::Lit(literal) => Ok((Node::Lit(literal), span)),
            Token::Path { end, optional } => {
                let text = &self.lexer.source[span.0..end];
                let path = self.lexer.path(text, optional, span)?;
                self.paths.push(path);
                Ok((Node::Path(self.paths.len() - 1), span))
            }
            Token::LParen => {
                self.nest(span)?;
                let inner = self.or()?;
                self.depth -= 1;
                match self.bump()? {
                    Some((Token::RParen, close)) => Ok((inner, (span.0, close.1))),
                    Some((_, other)) => Err(self.error(other, "expected ')'")),
                    None => Err(self.error(span, "unclosed '('")),
                }
            }
            other => Err(self.error(
                span,
                format!("expected a value, found {}", describe(&other)),
            )),
        }
    }
}

fn describe(token: &Token) -> &'static str {
    match token {
        Token::LParen => "'('",
        Token::RParen => "')'",
        Token::EqEq => "'=='",
        Token::NotEq => "'!='",
        Token::And => "'and'",
        Token::Or => "'or'",
        Token::Not => "'not'",
        Token::In => "'in'",
        Token::Lit(_) | Token::Path { .. } => "a value",
    }
}

impl Expr {
    /// `false`, the condition that never holds (no parsing, nothing to fail).
    pub fn never() -> Expr {
        Expr {
            source: "false".to_owned(),
            root: Node::Lit(Literal::Bool(false)),
            paths: Vec::new(),
        }
    }

    /// Parses `source`; every error names its place.
    pub fn parse(source: &str) -> Result<Expr, ExprError> {
        Expr::parse_boxed(source).map_err(|e| *e)
    }

    fn parse_boxed(source: &str) -> Result<Expr, Fail> {
        let mut parser = Parser {
            lexer: Lexer { source, pos: 0 },
            peeked: None,
            depth: 0,
            paths: Vec::with_capacity(4),
        };
        if parser.peek()?.is_none() {
            return Err(parser.error((0, source.len()), "empty expression"));
        }
        let root = parser.or()?;
        if let Some((token, span)) = parser.bump()? {
            return Err(parser.error(
                span,
                format!(
                    "unexpected {} after a complete expression",
                    describe(&token)
                ),
            ));
        }
        Ok(Expr {
            source: source.to_owned(),
            root,
            paths: parser.paths,
        })
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// The paths the expression reads, in order of appearance.
    pub fn paths(&self) -> &[Path] {
        &self.paths
    }

    /// A path's segments joined by dots: `storage.volumes_ceph.value`.
    pub fn dotted(&self, path: &Path) -> &str {
        &self.source[path.dotted.0..path.dotted.1]
    }

    /// `model:seg.seg` (without the `?`).
    pub fn display(&self, path: &Path) -> String {
        format!("{}:{}", path.model.as_str(), self.dotted(path))
    }
}
