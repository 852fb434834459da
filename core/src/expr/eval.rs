//! Evaluation: Python-like truthiness and `and`/`or` operand results,
//! strict `==`, `in` over lists, maps and strings, and missing paths as
//! errors in strict mode (`null` in non-strict mode or with a trailing `?`).

use serde_json::{Map, Value};

use super::error::{ErrorKind, ExprError};
use hashbrown::HashTable;

use super::parse::{Expr, Literal, Model, Node, path_hash};

/// Where paths are read from.
pub trait Models {
    /// The value at `dotted` (`storage.volumes_ceph.value`) in `model`, or
    /// `None` when it does not exist. `hash` is `path_hash(dotted)`.
    fn lookup(&self, model: Model, dotted: &str, hash: u64) -> Option<&Value>;
}

/// Models held as JSON values, one per model name.
#[derive(Debug, Clone, Default)]
pub struct JsonModels {
    pub settings: Value,
    pub cluster: Value,
    pub release: Value,
    pub version: Value,
    pub networking_parameters: Value,
}

impl JsonModels {
    fn root(&self, model: Model) -> &Value {
        match model {
            Model::Settings => &self.settings,
            Model::Cluster => &self.cluster,
            Model::Release => &self.release,
            Model::Version => &self.version,
            Model::NetworkingParameters => &self.networking_parameters,
        }
    }
}

impl Models for JsonModels {
    fn lookup(&self, model: Model, dotted: &str, _hash: u64) -> Option<&Value> {
        let mut value = self.root(model);
        for segment in dotted.split('.') {
            value = match value {
                Value::Object(map) => map.get(segment)?,
                Value::Array(items) => items.get(segment.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(value)
    }
}

/// Models indexed by path for fast lookups: every value reachable in each
/// model is keyed by its dotted path, and found by the hash the parser
/// computed. Build once per environment, evaluate many expressions.
#[derive(Debug, Clone, Default)]
pub struct FlatModels {
    tables: [HashTable<(Box<str>, Value)>; 5],
}

fn model_index(model: Model) -> usize {
    match model {
        Model::Settings => 0,
        Model::Cluster => 1,
        Model::Release => 2,
        Model::Version => 3,
        Model::NetworkingParameters => 4,
    }
}

impl FlatModels {
    pub fn new(models: &JsonModels) -> FlatModels {
        let mut flat = FlatModels::default();
        for model in [
            Model::Settings,
            Model::Cluster,
            Model::Release,
            Model::Version,
            Model::NetworkingParameters,
        ] {
            let table = &mut flat.tables[model_index(model)];
            index(table, "", models.root(model));
        }
        flat
    }
}

fn index(table: &mut HashTable<(Box<str>, Value)>, prefix: &str, value: &Value) {
    let children: Vec<(String, &Value)> = match value {
        Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v))
            .collect(),
        _ => return,
    };
    for (key, child) in children {
        let path = if prefix.is_empty() {
            key
        } else {
            format!("{prefix}.{key}")
        };
        index(table, &path, child);
        let hash = path_hash(&path);
        table.insert_unique(hash, (path.into(), child.clone()), |(k, _)| path_hash(k));
    }
}

impl Models for FlatModels {
    fn lookup(&self, model: Model, dotted: &str, hash: u64) -> Option<&Value> {
        self.tables[model_index(model)]
            .find(hash, |(k, _)| **k == *dotted)
            .map(|(_, v)| v)
    }
}

/// A value during evaluation, borrowed from the models or the expression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val<'a> {
    Null,
    Bool(bool),
    Num(f64),
    Str(&'a str),
    List(&'a [Value]),
    Map(&'a Map<String, Value>),
}

impl<'a> Val<'a> {
    pub fn of(value: &'a Value) -> Val<'a> {
        match value {
            Value::Null => Val::Null,
            Value::Bool(b) => Val::Bool(*b),
            Value::Number(n) => Val::Num(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => Val::Str(s),
            Value::Array(items) => Val::List(items),
            Value::Object(map) => Val::Map(map),
        }
    }

    /// Python's truthiness.
    pub fn truthy(self) -> bool {
        match self {
            Val::Null => false,
            Val::Bool(b) => b,
            Val::Num(n) => n != 0.0,
            Val::Str(s) => !s.is_empty(),
            Val::List(items) => !items.is_empty(),
            Val::Map(map) => !map.is_empty(),
        }
    }

    /// Strict equality: no conversions between kinds; numbers by value.
    pub fn equals(self, other: Val<'_>) -> bool {
        match (self, other) {
            (Val::Null, Val::Null) => true,
            (Val::Bool(a), Val::Bool(b)) => a == b,
            (Val::Num(a), Val::Num(b)) => a == b,
            (Val::Str(a), Val::Str(b)) => a == b,
            (Val::List(a), Val::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| Val::of(x).equals(Val::of(y)))
            }
            (Val::Map(a), Val::Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, v)| b.get(k).is_some_and(|w| Val::of(v).equals(Val::of(w))))
            }
            _ => false,
        }
    }

    /// The value as JSON.
    pub fn to_json(self) -> Value {
        match self {
            Val::Null => Value::Null,
            Val::Bool(b) => Value::Bool(b),
            Val::Num(n) => {
                if n.fract() == 0.0 && n.abs() < 9.0e15 {
                    Value::from(n as i64)
                } else {
                    serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
                }
            }
            Val::Str(s) => Value::String(s.to_owned()),
            Val::List(items) => Value::Array(items.to_vec()),
            Val::Map(map) => Value::Object(map.clone()),
        }
    }

    fn kind(self) -> &'static str {
        match self {
            Val::Null => "null",
            Val::Bool(_) => "a boolean",
            Val::Num(_) => "a number",
            Val::Str(_) => "a string",
            Val::List(_) => "a list",
            Val::Map(_) => "a map",
        }
    }
}

/// Errors travel boxed inside the evaluator, so results stay small.
type Fail = Box<ExprError>;

/// Walks the tree; `lookup` gives the value of the expression's path number
/// `i` (from models, or already bound).
struct Evaluator<'e, L> {
    expr: &'e Expr,
    lookup: L,
    strict: bool,
}

fn literal(lit: &Literal) -> Val<'_> {
    match lit {
        Literal::Null => Val::Null,
        Literal::Bool(b) => Val::Bool(*b),
        Literal::Num(n) => Val::Num(*n),
        Literal::Str(s) => Val::Str(s),
    }
}

impl<'e: 'v, 'v, L: Fn(usize) -> Option<&'v Value>> Evaluator<'e, L> {
    #[inline]
    fn path(&self, i: usize) -> Result<Val<'v>, Fail> {
        match (self.lookup)(i) {
            Some(value) => Ok(Val::of(value)),
            None if self.expr.paths[i].optional || !self.strict => Ok(Val::Null),
            None => Err(self.undefined(i)),
        }
    }

    /// `path == literal` (or `!=`), straight on the JSON value.
    #[inline]
    fn path_cmp(&self, i: usize, lit: &Literal, is_eq: bool) -> Result<bool, Fail> {
        let equal = match (self.lookup)(i) {
            Some(value) => match (value, lit) {
                (Value::Null, Literal::Null) => true,
                (Value::Bool(a), Literal::Bool(b)) => a == b,
                (Value::Number(n), Literal::Num(x)) => n.as_f64() == Some(*x),
                (Value::String(a), Literal::Str(b)) => a == b,
                _ => false,
            },
            None if self.expr.paths[i].optional || !self.strict => *lit == Literal::Null,
            None => return Err(self.undefined(i)),
        };
        Ok(equal == is_eq)
    }

    /// The truth of a node, without building the value where only its
    /// truth matters (`and`/`or` operands are truthy exactly when their
    /// Python-like results are).
    fn truthy(&self, node: &'e Node) -> Result<bool, Fail> {
        match node {
            Node::PathCmp(i, lit, is_eq) => self.path_cmp(*i, lit, *is_eq),
            Node::And(operands) => {
                for operand in operands {
                    if !self.truthy(operand)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Node::Or(operands) => {
                for operand in operands {
                    if self.truthy(operand)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Node::Not(inner) => Ok(!self.truthy(inner)?),
            other => Ok(self.eval(other)?.truthy()),
        }
    }

    #[cold]
    fn undefined(&self, i: usize) -> Fail {
        let path = &self.expr.paths[i];
        Box::new(ExprError::new(
            ErrorKind::Undefined,
            Some(path.span),
            format!("'{}' is not defined", self.expr.display(path)),
            &self.expr.source,
        ))
    }

    #[inline(never)]
    fn in_chain(
        &self,
        first: &'e Node,
        rest: &'e [(Node, (usize, usize))],
    ) -> Result<Val<'v>, Fail> {
        let mut value = self.eval(first)?;
        for (operand, span) in rest {
            value = Val::Bool(self.contains(self.eval(operand)?, value, *span)?);
        }
        Ok(value)
    }

    /// `needle in haystack`.
    fn contains(
        &self,
        haystack: Val<'_>,
        needle: Val<'_>,
        span: (usize, usize),
    ) -> Result<bool, Fail> {
        let type_error = |message: String| {
            Box::new(ExprError::new(
                ErrorKind::Type,
                Some(span),
                message,
                &self.expr.source,
            ))
        };
        match haystack {
            Val::List(items) => Ok(items.iter().any(|x| needle.equals(Val::of(x)))),
            Val::Map(map) => Ok(matches!(needle, Val::Str(key) if map.contains_key(key))),
            Val::Str(text) => match needle {
                Val::Str(part) => Ok(text.contains(part)),
                other => Err(type_error(format!(
                    "'in' a string needs a string on the left, found {}",
                    other.kind()
                ))),
            },
            other => Err(type_error(format!(
                "'in' needs a list, a map or a string on the right, found {}",
                other.kind()
            ))),
        }
    }

    fn eval(&self, node: &'e Node) -> Result<Val<'v>, Fail> {
        Ok(match node {
            Node::Lit(lit) => literal(lit),
            Node::Path(i) => self.path(*i)?,
            Node::PathCmp(i, lit, is_eq) => Val::Bool(self.path_cmp(*i, lit, *is_eq)?),
            Node::Not(inner) => Val::Bool(!self.truthy(inner)?),
            Node::And(operands) => {
                let mut value = Val::Bool(true);
                for operand in operands {
                    value = self.eval(operand)?;
                    if !value.truthy() {
                        break;
                    }
                }
                value
            }
            Node::Or(operands) => {
                let mut value = Val::Bool(false);
                for operand in operands {
                    value = self.eval(operand)?;
                    if value.truthy() {
                        break;
                    }
                }
                value
            }
            Node::Cmp(first, rest) => {
                let mut value = self.eval(first)?;
                for (is_eq, operand) in rest {
                    let equal = value.equals(self.eval(operand)?);
                    value = Val::Bool(equal == *is_eq);
                }
                value
            }
            Node::In(first, rest) => self.in_chain(first, rest)?,
        })
    }
}

impl Expr {
    /// Evaluates in strict mode: a missing path is an error naming it
    /// (unless written with a trailing `?`).
    pub fn eval<'v, M: Models + ?Sized>(&'v self, models: &'v M) -> Result<Val<'v>, ExprError> {
        self.eval_with(models, true)
    }

    /// Evaluates; with `strict` false, missing paths are `null`.
    pub fn eval_with<'v, M: Models + ?Sized>(
        &'v self,
        models: &'v M,
        strict: bool,
    ) -> Result<Val<'v>, ExprError> {
        Evaluator {
            expr: self,
            lookup: |i: usize| self.lookup_in(models, i),
            strict,
        }
        .eval(&self.root)
        .map_err(|e| *e)
    }

    /// Evaluates to a truth value (as restrictions use it).
    pub fn holds<M: Models + ?Sized>(&self, models: &M, strict: bool) -> Result<bool, ExprError> {
        Evaluator {
            expr: self,
            lookup: |i: usize| self.lookup_in(models, i),
            strict,
        }
        .truthy(&self.root)
        .map_err(|e| *e)
    }

    fn lookup_in<'v, M: Models + ?Sized>(&'v self, models: &'v M, i: usize) -> Option<&'v Value> {
        let path = &self.paths[i];
        models.lookup(path.model, self.dotted(path), path.hash)
    }

    /// Looks every path up once, for evaluating the same expression against
    /// the same models many times (every node of one environment).
    pub fn bind<'v, M: Models + ?Sized>(&'v self, models: &'v M) -> Bound<'v> {
        Bound {
            expr: self,
            values: (0..self.paths.len())
                .map(|i| self.lookup_in(models, i))
                .collect(),
        }
    }
}

/// An expression with its paths already looked up in one set of models.
#[derive(Debug, Clone)]
pub struct Bound<'v> {
    expr: &'v Expr,
    values: Vec<Option<&'v Value>>,
}

impl<'v> Bound<'v> {
    pub fn eval_with(&self, strict: bool) -> Result<Val<'v>, ExprError> {
        Evaluator {
            expr: self.expr,
            lookup: |i: usize| self.values[i],
            strict,
        }
        .eval(&self.expr.root)
        .map_err(|e| *e)
    }

    pub fn holds(&self, strict: bool) -> Result<bool, ExprError> {
        Evaluator {
            expr: self.expr,
            lookup: |i: usize| self.values[i],
            strict,
        }
        .truthy(&self.expr.root)
        .map_err(|e| *e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn models() -> JsonModels {
        JsonModels {
            settings: json!({
                "storage": {"volumes_ceph": {"value": false}, "osd_pool_size": {"value": "3"}},
                "common": {"list": {"value": [1, "two", 3.0]}}
            }),
            cluster: json!({"mode": "ha_compact", "status": "new"}),
            version: json!({"feature_groups": ["experimental", "advanced"]}),
            ..JsonModels::default()
        }
    }

    #[test]
    fn never_is_false_parsed() {
        assert_eq!(Expr::never(), Expr::parse("false").unwrap());
        assert_eq!(
            Expr::never().eval(&models()).map(Val::to_json),
            Ok(json!(false))
        );
    }

    /// Evaluates `source` strictly; `Ok(json)` or `Err(kind)`.
    fn check(source: &str, expect: Result<Value, ErrorKind>) {
        let got = Expr::parse(source).and_then(|e| e.eval(&models()).map(Val::to_json));
        assert_eq!(got.map_err(|e| e.kind), expect, "{source}");
    }

    #[test]
    fn the_semantics_test_vectors_hold() {
        check("true or true and false or false", Ok(json!(true)));
        check("123 != \"123\"", Ok(json!(true)));
        check("null == false", Ok(json!(false)));
        check("(true or true) and not (false or false)", Ok(json!(true)));
        check("(true", Err(ErrorKind::Parse));
        check("false and", Err(ErrorKind::Parse));
        check("== 123", Err(ErrorKind::Parse));
        check(
            "cluster:mode != \"ha_compact\" and cluster:nokey == null",
            Ok(json!(false)),
        );
    }

    #[test]
    fn operators_behave_like_fuel() {
        check("not true == false", Ok(json!(true)));
        check("1 == 1.0", Ok(json!(true)));
        check("true == 1", Ok(json!(false)));
        check("'a' == 'a' == true", Ok(json!(true)));
        check("0 or 'x'", Ok(json!("x")));
        check("'' and 1", Ok(json!("")));
        check(
            "settings:storage.volumes_ceph.value == false",
            Ok(json!(true)),
        );
        check("storage.osd_pool_size.value", Ok(json!("3")));
        check("'experimental' in version:feature_groups", Ok(json!(true)));
        check("not ('beta' in version:feature_groups)", Ok(json!(true)));
        check("'mode' in cluster:", Err(ErrorKind::Parse));
        check("'ha' in cluster:mode", Ok(json!(true)));
        check("'two' in common.list.value", Ok(json!(true)));
        check("3 in common.list.value", Ok(json!(true)));
        check("common.list.value.1", Ok(json!("two")));
        check("1 in cluster:mode", Err(ErrorKind::Type));
        check("1 in 2", Err(ErrorKind::Type));
        check("-1.5 == -1.5", Ok(json!(true)));
    }

    #[test]
    fn missing_paths_are_errors_only_in_strict_mode() {
        let expr = Expr::parse("cluster:nokey.value == null").unwrap();
        let err = expr.eval(&models()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Undefined);
        assert_eq!(err.message, "'cluster:nokey.value' is not defined");
        assert_eq!(err.span, Some((0, 19)));
        assert_eq!(expr.eval_with(&models(), false).unwrap(), Val::Bool(true));
        check("cluster:nokey? == null", Ok(json!(true)));
    }

    #[test]
    fn flat_models_find_what_json_models_find() {
        let json = models();
        let flat = FlatModels::new(&json);
        for source in [
            "settings:storage.volumes_ceph.value",
            "storage.osd_pool_size",
            "common.list.value.1",
            "cluster:mode",
            "version:feature_groups",
            "cluster:nokey?",
            "common.list.value.7?",
        ] {
            let expr = Expr::parse(source).unwrap();
            assert_eq!(expr.eval(&flat), expr.eval(&json), "{source}");
            assert_eq!(
                expr.bind(&flat).eval_with(true),
                expr.eval(&json),
                "{source}"
            );
        }
    }

    #[test]
    fn numbers_are_decimals_a_float_holds() {
        check("-2.50 == -2.5", Ok(json!(true)));
        check("0.1 == 0.10", Ok(json!(true)));
        let huge = format!("{} == 1", "9".repeat(400));
        for source in ["1e5 == 1", "-inf == 1", "1. == 1", ".5 == 1", &huge] {
            check(source, Err(ErrorKind::Parse));
        }
    }

    #[test]
    fn malformed_paths_are_parse_errors() {
        for source in [
            "a..b",
            ".a",
            "a.",
            "cluster:",
            "cluster:a:b",
            "cluster:.a",
            "settings:a.b.",
        ] {
            assert_eq!(
                Expr::parse(source).unwrap_err().kind,
                ErrorKind::Parse,
                "{source}"
            );
        }
        assert_eq!(
            Expr::parse("a.b:c").unwrap_err().kind,
            ErrorKind::UnknownModel
        );
        let expr = Expr::parse("cluster:a-b.0_c?").unwrap();
        assert_eq!(expr.dotted(&expr.paths()[0]), "a-b.0_c");
    }

    #[test]
    fn unknown_models_are_rejected_when_parsing() {
        let err = Expr::parse("true or setings:x.value").unwrap_err();
        assert_eq!(err.kind, ErrorKind::UnknownModel);
        assert_eq!(err.span, Some((8, 15)));
    }

    #[test]
    fn errors_render_a_caret_line() {
        let err = Expr::parse("cluster:mode == 'ha").unwrap_err();
        assert_eq!(
            err.render(),
            "cluster:mode == 'ha\n                ^^^ unterminated string"
        );
        let err = Expr::parse("a = b").unwrap_err();
        assert_eq!(
            err.render(),
            "a = b\n  ^ unexpected '=' (did you mean '==')"
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "(".repeat(10_000) + "true" + &")".repeat(10_000);
        assert_eq!(Expr::parse(&deep).unwrap_err().kind, ErrorKind::TooDeep);
        let nots = "not ".repeat(10_000) + "true";
        assert_eq!(Expr::parse(&nots).unwrap_err().kind, ErrorKind::TooDeep);
        let ok = "(".repeat(100) + "true" + &")".repeat(100);
        assert!(Expr::parse(&ok).is_ok());
        let long = vec!["true"; 10_000].join(" and ");
        assert!(
            Expr::parse(&long)
                .unwrap()
                .eval(&models())
                .unwrap()
                .truthy()
        );
    }
}
