//! The deployer data's expressions and templates, parsed once — when the
//! data is read, so at install — and evaluated by every export (STYLE.md,
//! "Deployer data is data"). A template is the one place `{…}` is read:
//! the install's check, the export's filling and the tab a problem is
//! fixed on all take its parts from here.

use std::fmt;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::expr::{Expr, ExprError};

/// An expression of the deployer data, parsed. Written back as the text
/// it was read from; two are equal when their texts are.
#[derive(Debug, Clone)]
pub struct Expression(Expr);

impl Expression {
    pub fn parse(text: &str) -> Result<Expression, ExprError> {
        Expr::parse(text).map(Expression)
    }

    pub fn source(&self) -> &str {
        self.0.source()
    }

    pub fn expr(&self) -> &Expr {
        &self.0
    }
}

impl PartialEq for Expression {
    fn eq(&self, other: &Expression) -> bool {
        self.source() == other.source()
    }
}

impl Eq for Expression {}

impl Serialize for Expression {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.source())
    }
}

impl<'de> Deserialize<'de> for Expression {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Expression, D::Error> {
        let text = String::deserialize(d)?;
        Expression::parse(&text).map_err(|e| D::Error::custom(format!("'{text}': {}", e.message)))
    }
}

/// A template: a string whose `{expression}` parts are filled in, or a
/// list or map of such strings (other values are kept as they are).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Template {
    Text(Vec<Part>),
    List(Vec<Template>),
    Map(Vec<(String, Template)>),
    /// A number, a boolean or null, written as it is.
    Plain(Value),
}

/// A piece of a template's string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Literal(String),
    Expression(Expression),
}

/// Why a template's string does not read, and where in it (a byte offset).
#[derive(Debug, Clone, PartialEq)]
pub enum TemplateError {
    /// A `{` with no `}` after it.
    Unclosed { at: usize },
    /// A `{…}` part that is no expression.
    Expression { at: usize, error: ExprError },
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TemplateError::Unclosed { .. } => write!(f, "a '{{' without its '}}'"),
            TemplateError::Expression { error, .. } => {
                write!(f, "{}\n{}", error.message, error.render())
            }
        }
    }
}

impl Template {
    /// `value` read: every string in it split into its parts. The error
    /// names the string's place (`[1].key`, empty at the top) with why.
    pub fn parse(value: &Value) -> Result<Template, (String, TemplateError)> {
        Ok(match value {
            Value::String(text) => Template::Text(parts(text).map_err(|e| (String::new(), e))?),
            Value::Array(items) => Template::List(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| Template::parse(item).map_err(|(p, e)| (at_index(i, &p), e)))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(map) => Template::Map(
                map.iter()
                    .map(|(k, v)| {
                        let template = Template::parse(v).map_err(|(p, e)| (at_key(k, &p), e))?;
                        Ok((k.clone(), template))
                    })
                    .collect::<Result<_, _>>()?,
            ),
            other => Template::Plain(other.clone()),
        })
    }

    /// Every expression in it, in order.
    pub fn expressions(&self) -> Vec<&Expression> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect<'t>(&'t self, out: &mut Vec<&'t Expression>) {
        match self {
            Template::Text(parts) => out.extend(parts.iter().filter_map(|p| match p {
                Part::Expression(e) => Some(e),
                Part::Literal(_) => None,
            })),
            Template::List(items) => items.iter().for_each(|t| t.collect(out)),
            Template::Map(entries) => entries.iter().for_each(|(_, t)| t.collect(out)),
            Template::Plain(_) => {}
        }
    }

    /// As it was written.
    pub fn to_json(&self) -> Value {
        match self {
            Template::Text(parts) => Value::String(
                parts
                    .iter()
                    .map(|p| match p {
                        Part::Literal(text) => text.clone(),
                        Part::Expression(e) => format!("{{{}}}", e.source()),
                    })
                    .collect(),
            ),
            Template::List(items) => Value::Array(items.iter().map(Template::to_json).collect()),
            Template::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, t)| (k.clone(), t.to_json()))
                    .collect(),
            ),
            Template::Plain(value) => value.clone(),
        }
    }
}

/// A template's string split into literal text and `{expression}` parts.
pub fn parts(text: &str) -> Result<Vec<Part>, TemplateError> {
    let mut out = Vec::new();
    let mut offset = 0;
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        if start > 0 {
            out.push(Part::Literal(rest[..start].to_owned()));
        }
        let at = offset + start;
        let end = rest[start..]
            .find('}')
            .ok_or(TemplateError::Unclosed { at })?;
        let inner = &rest[start + 1..start + end];
        let expression =
            Expression::parse(inner).map_err(|error| TemplateError::Expression { at, error })?;
        out.push(Part::Expression(expression));
        offset += start + end + 1;
        rest = &rest[start + end + 1..];
    }
    if !rest.is_empty() {
        out.push(Part::Literal(rest.to_owned()));
    }
    Ok(out)
}

fn at_index(i: usize, rest: &str) -> String {
    format!("[{i}]{rest}")
}

fn at_key(key: &str, rest: &str) -> String {
    format!(".{key}{rest}")
}

impl Serialize for Template {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Template {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Template, D::Error> {
        let value = Value::deserialize(d)?;
        Template::parse(&value)
            .map_err(|(path, e)| D::Error::custom(format!("template{path}: {e}")))
    }
}

/// A service's group pattern: a group's name, or `a:&b` — a host in every
/// one of them (Ansible's intersection).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupPattern(Vec<String>);

impl GroupPattern {
    /// `None` when a part is empty (`a:&`).
    pub fn parse(text: &str) -> Option<GroupPattern> {
        let groups: Vec<String> = text.split(":&").map(str::to_owned).collect();
        groups
            .iter()
            .all(|g| !g.is_empty())
            .then_some(GroupPattern(groups))
    }

    /// The groups it names.
    pub fn groups(&self) -> &[String] {
        &self.0
    }

    /// Whether a host in `groups` is in every group it names.
    pub fn matches(&self, groups: &[String]) -> bool {
        self.0.iter().all(|g| groups.contains(g))
    }
}

impl fmt::Display for GroupPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(":&"))
    }
}

impl Serialize for GroupPattern {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for GroupPattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GroupPattern, D::Error> {
        let text = String::deserialize(d)?;
        GroupPattern::parse(&text).ok_or_else(|| {
            D::Error::custom(format!("'{text}': a group pattern names an empty group"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_template_reads_into_its_parts_and_writes_back_as_it_was() {
        let value = json!({"a": ["x {cluster:mode} y", 3], "b": "{settings:common.debug.value}"});
        let template = Template::parse(&value).unwrap();
        assert_eq!(template.to_json(), value);
        let sources: Vec<&str> = template.expressions().iter().map(|e| e.source()).collect();
        assert_eq!(sources, ["cluster:mode", "settings:common.debug.value"]);
    }

    #[test]
    fn a_templates_mistakes_are_data_with_their_place() {
        let unclosed = Template::parse(&json!(["ok", {"k": "x {cluster:mode"}]));
        assert_eq!(
            unclosed.unwrap_err(),
            ("[1].k".to_owned(), TemplateError::Unclosed { at: 2 })
        );
        let bad = parts("a {cluster:} b").unwrap_err();
        assert!(
            matches!(bad, TemplateError::Expression { at: 2, .. }),
            "{bad:?}"
        );
        assert_eq!(
            parts("no braces }").unwrap(),
            [Part::Literal("no braces }".into())]
        );
    }

    #[test]
    fn expressions_and_group_patterns_read_once_and_write_back() {
        let e: Expression = serde_json::from_value(json!("cluster:mode == 'ha'")).unwrap();
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!("cluster:mode == 'ha'")
        );
        assert!(serde_json::from_value::<Expression>(json!("cluster:mode ==")).is_err());
        let g: GroupPattern = serde_json::from_value(json!("a:&b")).unwrap();
        assert!(g.matches(&["b".into(), "a".into()]) && !g.matches(&["a".into()]));
        assert!(serde_json::from_value::<GroupPattern>(json!("a:&")).is_err());
    }
}
