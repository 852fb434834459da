//! Task conditions (SEMANTICS §9): a string is an expression of the
//! expression language over the environment's models; `{yaql_exp: …}` is
//! read in a small subset of yaql — settings values (`$.group.attr`,
//! `$.get('group').attr`), `not`, `and`, `or`, `=`/`==`, `!=`, `in`,
//! literals, and `changed(…)`/`changedAny(…)`/`changedAll(…)`, which are
//! true (a first deployment changes everything). What the subset cannot
//! decide — other functions, operators, or names that are not settings —
//! leaves the task running and the plan warning.

use serde_json::{Map, Value};

use crate::expr::{Expr, Model, Models, Val, path_hash};

/// How deep parentheses and `not` may nest in a yaql condition.
const MAX_DEPTH: usize = 100;

/// A task's `condition`.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// An expression of the expression language.
    Expr(Expr),
    /// `{yaql_exp: …}` within the subset.
    Yaql { source: String, expr: Yaql },
    /// `{yaql_exp: …}` outside the subset: why.
    Unsupported { source: String, why: String },
    /// Not a condition at all, or a string that does not parse: the
    /// message (with a caret line where there is a place).
    Invalid(String),
}

/// What a condition decides in one environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Run,
    /// The condition is false: why, for the plan's `skipped`.
    Skip(String),
    /// The condition cannot be decided here: the task runs, with this warning.
    Undecided(String),
    /// The condition is broken: a plan error.
    Error(String),
}

impl Condition {
    pub fn from_json(value: &Value) -> Condition {
        match value {
            Value::String(text) => match Expr::parse(text) {
                Ok(expr) => Condition::Expr(expr),
                Err(e) => Condition::Invalid(e.render()),
            },
            Value::Object(map) if map.len() == 1 && map.contains_key("yaql_exp") => {
                match &map["yaql_exp"] {
                    Value::String(text) => {
                        let source = text.trim().to_owned();
                        match Parser::new(&source).parse() {
                            Ok(expr) => Condition::Yaql { source, expr },
                            Err(why) => Condition::Unsupported { source, why },
                        }
                    }
                    other => Condition::Invalid(format!("yaql_exp must be a string, not {other}")),
                }
            }
            other => Condition::Invalid(format!(
                "a condition is an expression string or {{yaql_exp: …}}, not {other}"
            )),
        }
    }

    /// Decides the condition against the environment's models.
    pub fn evaluate(&self, models: &dyn Models) -> Outcome {
        match self {
            Condition::Expr(expr) => match expr.holds(models, true) {
                Ok(true) => Outcome::Run,
                Ok(false) => Outcome::Skip(format!("condition '{}' is false", expr.source())),
                Err(e) => Outcome::Error(format!(
                    "its condition cannot be evaluated:\n{}",
                    e.render()
                )),
            },
            Condition::Yaql { source, expr } => match expr.eval(models) {
                Tri::Known(v) if Val::of(&v).truthy() => Outcome::Run,
                Tri::Known(_) => Outcome::Skip(format!("condition (yaql) '{source}' is false")),
                Tri::Unknown(why) => Outcome::Undecided(format!(
                    "its condition (yaql) '{source}' cannot be decided before deployment ({why}); it runs"
                )),
            },
            Condition::Unsupported { source, why } => Outcome::Undecided(format!(
                "its condition (yaql) '{source}' is outside the subset Mosaic evaluates ({why}); it runs"
            )),
            Condition::Invalid(message) => {
                Outcome::Error(format!("its condition does not parse:\n{message}"))
            }
        }
    }
}

/// A yaql condition within the subset.
#[derive(Debug, Clone, PartialEq)]
pub enum Yaql {
    Lit(Value),
    /// `$` followed by steps: `.name` or `.get('name'[, default])`.
    Path(Vec<String>),
    /// `changed(…)`, `changedAny(…)`, `changedAll(…)`: always true.
    Changed,
    Not(Box<Yaql>),
    And(Box<Yaql>, Box<Yaql>),
    Or(Box<Yaql>, Box<Yaql>),
    Eq(Box<Yaql>, Box<Yaql>, bool),
    In(Box<Yaql>, Box<Yaql>),
}

/// A value, or why it cannot be known before deployment.
#[derive(Debug, Clone, PartialEq)]
pub enum Tri {
    Known(Value),
    Unknown(String),
}

impl Yaql {
    pub fn eval(&self, models: &dyn Models) -> Tri {
        match self {
            Yaql::Lit(v) => Tri::Known(v.clone()),
            Yaql::Changed => Tri::Known(Value::Bool(true)),
            Yaql::Path(steps) => settings_value(models, steps),
            Yaql::Not(inner) => match inner.eval(models) {
                Tri::Known(v) => Tri::Known(Value::Bool(!Val::of(&v).truthy())),
                unknown => unknown,
            },
            Yaql::And(a, b) => both(a.eval(models), || b.eval(models), false),
            Yaql::Or(a, b) => both(a.eval(models), || b.eval(models), true),
            Yaql::Eq(a, b, is_eq) => match (a.eval(models), b.eval(models)) {
                (Tri::Known(x), Tri::Known(y)) => {
                    Tri::Known(Value::Bool(Val::of(&x).equals(Val::of(&y)) == *is_eq))
                }
                (Tri::Unknown(why), _) | (_, Tri::Unknown(why)) => Tri::Unknown(why),
            },
            Yaql::In(a, b) => match (a.eval(models), b.eval(models)) {
                (Tri::Known(x), Tri::Known(y)) => contains(&y, &x),
                (Tri::Unknown(why), _) | (_, Tri::Unknown(why)) => Tri::Unknown(why),
            },
        }
    }
}

/// Python's `a and b` / `a or b` with unknowns: a known operand that
/// decides the answer wins over an unknown one.
fn both(a: Tri, b: impl FnOnce() -> Tri, is_or: bool) -> Tri {
    let decides = |v: &Value| Val::of(v).truthy() == is_or;
    match a {
        Tri::Known(v) if decides(&v) => Tri::Known(v),
        Tri::Known(_) => b(),
        Tri::Unknown(why) => match b() {
            Tri::Known(v) if decides(&v) => Tri::Known(v),
            _ => Tri::Unknown(why),
        },
    }
}

fn contains(haystack: &Value, needle: &Value) -> Tri {
    let found = match (haystack, needle) {
        (Value::Array(items), _) => items.iter().any(|x| Val::of(x).equals(Val::of(needle))),
        (Value::Object(map), Value::String(key)) => map.contains_key(key),
        (Value::String(text), Value::String(part)) => text.contains(part.as_str()),
        _ => return Tri::Unknown(format!("'in' cannot look for {needle} in {haystack}")),
    };
    Tri::Known(Value::Bool(found))
}

/// `$.group.attr…` against the settings: a group's attributes read as
/// their values, `metadata` as it is; further steps index the value.
fn settings_value(models: &dyn Models, steps: &[String]) -> Tri {
    let shown = || format!("$.{}", steps.join("."));
    let Some(group_name) = steps.first() else {
        return Tri::Unknown("'$' is the whole deployment, not a setting".to_owned());
    };
    let Some(Value::Object(group)) =
        models.lookup(Model::Settings, group_name, path_hash(group_name))
    else {
        return Tri::Unknown(format!("'{}' is not a setting", shown()));
    };
    let mut value = match steps.get(1).map(String::as_str) {
        None => Value::Object(
            group
                .iter()
                .map(|(k, v)| {
                    let v = if k == "metadata" {
                        v.clone()
                    } else {
                        v["value"].clone()
                    };
                    (k.clone(), v)
                })
                .collect::<Map<_, _>>(),
        ),
        Some("metadata") => group["metadata"].clone(),
        Some(attr) => match group.get(attr) {
            Some(a) => a["value"].clone(),
            None => return Tri::Unknown(format!("'{}' is not a setting", shown())),
        },
    };
    for step in steps.iter().skip(2) {
        value = value.get(step.as_str()).cloned().unwrap_or(Value::Null);
    }
    Tri::Known(value)
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Dollar,
    Dot,
    Comma,
    Open,
    Close,
    OpenList,
    CloseList,
    OpenMap,
    CloseMap,
    Eq(bool),
    Word(String),
    Str(String),
    Num(f64),
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
    error: Option<String>,
}

fn tokenize(source: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let single = match c {
            '$' => Some(Token::Dollar),
            '.' => Some(Token::Dot),
            ',' => Some(Token::Comma),
            '(' => Some(Token::Open),
            ')' => Some(Token::Close),
            '[' => Some(Token::OpenList),
            ']' => Some(Token::CloseList),
            '{' => Some(Token::OpenMap),
            '}' => Some(Token::CloseMap),
            _ => None,
        };
        if let Some(token) = single {
            tokens.push(token);
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '=' || c == '!' {
            let double = chars.get(i + 1) == Some(&'=');
            match (c, double) {
                ('=', _) => tokens.push(Token::Eq(true)),
                ('!', true) => tokens.push(Token::Eq(false)),
                _ => return Err("'!' without '='".to_owned()),
            }
            i += 1 + usize::from(double);
        } else if c == '\'' || c == '"' {
            let end = chars[i + 1..]
                .iter()
                .position(|&d| d == c)
                .ok_or("an unterminated string")?;
            let text: String = chars[i + 1..i + 1 + end].iter().collect();
            if text.contains('\\') {
                return Err("escapes in strings".to_owned());
            }
            tokens.push(Token::Str(text));
            i += end + 2;
        } else if c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            tokens.push(Token::Num(
                text.parse().map_err(|_| format!("the number '{text}'"))?,
            ));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            return Err(format!("the operator '{c}'"));
        }
    }
    Ok(tokens)
}

impl Parser {
    fn new(source: &str) -> Parser {
        let (tokens, error) = match tokenize(source) {
            Ok(tokens) => (tokens, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        Parser {
            tokens,
            at: 0,
            depth: 0,
            error,
        }
    }

    fn parse(mut self) -> Result<Yaql, String> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let expr = self.or()?;
        match self.tokens.get(self.at) {
            None => Ok(expr),
            Some(t) => Err(format!("{} after a complete expression", describe(t))),
        }
    }

    fn peek_word(&self, word: &str) -> bool {
        matches!(self.tokens.get(self.at), Some(Token::Word(w)) if w == word)
    }

    fn eat(&mut self, token: &Token) -> bool {
        let found = self.tokens.get(self.at) == Some(token);
        self.at += usize::from(found);
        found
    }

    fn expect(&mut self, token: Token) -> Result<(), String> {
        if self.eat(&token) {
            Ok(())
        } else {
            Err(format!(
                "{} where {} was expected",
                self.here(),
                describe(&token)
            ))
        }
    }

    fn here(&self) -> String {
        self.tokens
            .get(self.at)
            .map_or("the end".to_owned(), describe)
    }

    fn deeper(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nesting deeper than {MAX_DEPTH} levels"));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Yaql, String> {
        let mut left = self.and()?;
        while self.peek_word("or") {
            self.at += 1;
            left = Yaql::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Yaql, String> {
        let mut left = self.not()?;
        while self.peek_word("and") {
            self.at += 1;
            left = Yaql::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Yaql, String> {
        if self.peek_word("not") {
            self.at += 1;
            self.deeper()?;
            let inner = self.not()?;
            self.depth -= 1;
            return Ok(Yaql::Not(Box::new(inner)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Yaql, String> {
        let left = self.primary()?;
        if let Some(Token::Eq(is_eq)) = self.tokens.get(self.at).cloned() {
            self.at += 1;
            return Ok(Yaql::Eq(Box::new(left), Box::new(self.primary()?), is_eq));
        }
        if self.peek_word("in") {
            self.at += 1;
            return Ok(Yaql::In(Box::new(left), Box::new(self.primary()?)));
        }
        Ok(left)
    }

    fn primary(&mut self) -> Result<Yaql, String> {
        let token = self
            .tokens
            .get(self.at)
            .cloned()
            .ok_or("an incomplete expression")?;
        self.at += 1;
        match token {
            Token::Open => {
                self.deeper()?;
                let inner = self.or()?;
                self.depth -= 1;
                self.expect(Token::Close)?;
                Ok(inner)
            }
            Token::Dollar => self.path(),
            Token::Str(s) => Ok(Yaql::Lit(Value::String(s))),
            Token::Num(n) => Ok(Yaql::Lit(
                serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number),
            )),
            Token::OpenList => self.list(),
            Token::OpenMap => {
                self.expect(Token::CloseMap)
                    .map_err(|_| "a map literal that is not empty".to_owned())?;
                Ok(Yaql::Lit(Value::Object(Map::new())))
            }
            Token::Word(w) => match w.as_str() {
                "true" => Ok(Yaql::Lit(Value::Bool(true))),
                "false" => Ok(Yaql::Lit(Value::Bool(false))),
                "null" => Ok(Yaql::Lit(Value::Null)),
                "changed" | "changedAny" | "changedAll" => {
                    self.skip_arguments()?;
                    Ok(Yaql::Changed)
                }
                other => Err(format!("the name or function '{other}'")),
            },
            other => Err(format!("{} where a value was expected", describe(&other))),
        }
    }

    /// `[literal, …]`.
    fn list(&mut self) -> Result<Yaql, String> {
        let mut items = Vec::new();
        while !self.eat(&Token::CloseList) {
            if !items.is_empty() {
                self.expect(Token::Comma)?;
            }
            match self.primary()? {
                Yaql::Lit(v) => items.push(v),
                _ => return Err("a list of other things than literals".to_owned()),
            }
        }
        Ok(Yaql::Lit(Value::Array(items)))
    }

    /// The steps after `$`: `.name` and `.get('name'[, default])`.
    fn path(&mut self) -> Result<Yaql, String> {
        let mut steps = Vec::new();
        while self.eat(&Token::Dot) {
            match self.tokens.get(self.at).cloned() {
                Some(Token::Word(w))
                    if w == "get" && self.tokens.get(self.at + 1) == Some(&Token::Open) =>
                {
                    self.at += 2;
                    match self.tokens.get(self.at).cloned() {
                        Some(Token::Str(name)) => steps.push(name),
                        _ => return Err(".get() with something else than a name".to_owned()),
                    }
                    self.at += 1;
                    if self.eat(&Token::Comma) {
                        // A default: what a missing key reads as. Settings
                        // that exist are read; others stay undecided.
                        self.primary()?;
                    }
                    self.expect(Token::Close)?;
                }
                Some(Token::Word(w)) => {
                    self.at += 1;
                    if self.tokens.get(self.at) == Some(&Token::Open) {
                        return Err(format!("the method '{w}()'"));
                    }
                    steps.push(w);
                }
                _ => return Err(format!("{} after '.'", self.here())),
            }
        }
        Ok(Yaql::Path(steps))
    }

    /// `( … )` with anything inside, balanced.
    fn skip_arguments(&mut self) -> Result<(), String> {
        self.expect(Token::Open)?;
        let mut open = 1usize;
        while open > 0 {
            match self.tokens.get(self.at) {
                None => return Err("an unclosed '('".to_owned()),
                Some(Token::Open) => open += 1,
                Some(Token::Close) => open -= 1,
                Some(_) => {}
            }
            self.at += 1;
        }
        Ok(())
    }
}

fn describe(token: &Token) -> String {
    match token {
        Token::Dollar => "'$'".to_owned(),
        Token::Dot => "'.'".to_owned(),
        Token::Comma => "','".to_owned(),
        Token::Open => "'('".to_owned(),
        Token::Close => "')'".to_owned(),
        Token::OpenList => "'['".to_owned(),
        Token::CloseList => "']'".to_owned(),
        Token::OpenMap => "'{'".to_owned(),
        Token::CloseMap => "'}'".to_owned(),
        Token::Eq(true) => "'='".to_owned(),
        Token::Eq(false) => "'!='".to_owned(),
        Token::Word(w) => format!("'{w}'"),
        Token::Str(s) => format!("the string '{s}'"),
        Token::Num(n) => format!("the number {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::JsonModels;
    use serde_json::json;

    fn models() -> JsonModels {
        JsonModels {
            settings: json!({
                "storage": {"volumes_ceph": {"value": true}, "objects_ceph": {"value": false},
                            "backend": {"value": "ceph"}},
                "contrail": {"metadata": {"enabled": true}, "enable_tor_agents": {"value": false}},
                "detach-rabbitmq": {"metadata": {"enabled": false}}
            }),
            cluster: json!({"mode": "ha_compact"}),
            ..JsonModels::default()
        }
    }

    fn outcome(condition: Value) -> Outcome {
        Condition::from_json(&condition).evaluate(&models())
    }

    fn yaql(text: &str) -> Outcome {
        outcome(json!({"yaql_exp": text}))
    }

    #[test]
    fn expressions_decide_with_the_settings() {
        assert_eq!(
            outcome(json!("settings:storage.volumes_ceph.value == true")),
            Outcome::Run
        );
        assert_eq!(
            outcome(json!("settings:storage.objects_ceph.value")),
            Outcome::Skip("condition 'settings:storage.objects_ceph.value' is false".to_owned())
        );
        let Outcome::Error(message) = outcome(json!("settings:storage.volumes_ceph.value =="))
        else {
            panic!("a broken condition is an error");
        };
        assert!(message.contains('^'), "{message}");
        assert!(matches!(outcome(json!(42)), Outcome::Error(_)));
    }

    #[test]
    fn the_yaql_subset_reads_settings_values() {
        assert_eq!(yaql("$.storage.volumes_ceph"), Outcome::Run);
        assert!(matches!(yaql("$.storage.objects_ceph"), Outcome::Skip(_)));
        assert_eq!(
            yaql("$.storage.backend = 'ceph' and not $.storage.objects_ceph"),
            Outcome::Run
        );
        assert_eq!(yaql("$.get('storage').backend != \"swift\""), Outcome::Run);
        assert_eq!(yaql("$.contrail.metadata.enabled"), Outcome::Run);
        assert!(matches!(
            yaql("$.get('detach-rabbitmq').metadata.enabled"),
            Outcome::Skip(_)
        ));
        assert_eq!(yaql("'ceph' in ['lvm', 'ceph']"), Outcome::Run);
        assert!(matches!(
            yaql("$.contrail.enable_tor_agents"),
            Outcome::Skip(_)
        ));
    }

    #[test]
    fn changed_is_true_on_a_first_deployment() {
        assert_eq!(
            yaql("changedAny($.network_scheme, $.get('x', {}), ('a' in $.roles))"),
            Outcome::Run
        );
        assert!(matches!(
            yaql("$.storage.objects_ceph and changed($.storage)"),
            Outcome::Skip(_)
        ));
    }

    #[test]
    fn what_the_subset_cannot_decide_runs_with_a_warning() {
        for text in [
            "$.roles",
            "'dpdk' in $.roles",
            "$.storage.nothing_like_this",
            "len($.nodes) > 1",
            "$.storage.volumes_ceph + 1",
            "$.network_metadata.vips.get('x')",
        ] {
            assert!(
                matches!(yaql(text), Outcome::Undecided(_)),
                "{text}: {:?}",
                yaql(text)
            );
        }
        // A known operand decides where it can.
        assert!(matches!(
            yaql("$.storage.objects_ceph and $.roles"),
            Outcome::Skip(_)
        ));
        assert_eq!(yaql("$.storage.volumes_ceph or $.roles"), Outcome::Run);
        let deep = format!("{}true{}", "(".repeat(200), ")".repeat(200));
        assert!(matches!(yaql(&deep), Outcome::Undecided(ref w) if w.contains("deeper")));
    }
}
