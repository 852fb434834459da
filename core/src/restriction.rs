//! Restrictions (SEMANTICS §3.2, §9): a condition over the environment's
//! models that, when true, disables or hides a role, a settings group, an
//! attribute or one of its values — or only says something (`none`). Shared
//! by roles and settings; read in any of the three forms, written back in
//! the long one.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::expr::{Expr, ExprError, Models};

/// Something in declared data that cannot be read: where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct FieldError {
    /// Where in the data: `mongo.limits.overrides[0].condition`.
    pub path: String,
    pub message: String,
}

impl FieldError {
    pub fn new(path: &str, message: impl Into<String>) -> FieldError {
        FieldError {
            path: path.to_owned(),
            message: message.into(),
        }
    }
}

/// Parses an expression, the error naming `path` and showing a caret.
pub fn parse_expr(path: &str, text: &str) -> Result<Expr, FieldError> {
    Expr::parse(text).map_err(|e| FieldError::new(path, format!("{}\n{}", e.message, e.render())))
}

/// What a true restriction does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Disable,
    Hide,
    /// Shows the message and restricts nothing.
    None,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Restriction {
    pub condition: Expr,
    pub message: Option<String>,
    pub action: Action,
    pub strict: bool,
}

impl Restriction {
    fn new(condition: Expr) -> Restriction {
        Restriction {
            condition,
            message: None,
            action: Action::Disable,
            strict: true,
        }
    }

    /// One restriction in any of its forms: `"cond"`,
    /// `{condition, message?, action?, strict?}` or `{"cond": "message"}`.
    pub fn from_json(path: &str, value: &Value) -> Result<Restriction, FieldError> {
        match value {
            Value::String(cond) => Ok(Restriction::new(parse_expr(path, cond)?)),
            Value::Object(map) if map.contains_key("condition") => long_form(path, map),
            Value::Object(map) if map.len() == 1 => {
                let (cond, message) = map.iter().next().expect("one entry");
                match message {
                    Value::String(message) => Ok(Restriction {
                        message: Some(message.clone()),
                        ..Restriction::new(parse_expr(path, cond)?)
                    }),
                    _ => Err(FieldError::new(
                        path,
                        "a {condition: message} restriction maps a string to a string",
                    )),
                }
            }
            _ => Err(FieldError::new(
                path,
                "a restriction is a string, {condition, message?, action?, strict?} or {condition: message}",
            )),
        }
    }

    /// A `restrictions` list (`null` or absent: none).
    pub fn list_from_json(
        path: &str,
        value: Option<&Value>,
    ) -> Result<Vec<Restriction>, FieldError> {
        match value {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, r)| Restriction::from_json(&format!("{path}[{i}]"), r))
                .collect(),
            Some(_) => Err(FieldError::new(path, "must be a list")),
        }
    }
}

fn long_form(path: &str, map: &Map<String, Value>) -> Result<Restriction, FieldError> {
    let mut restriction = Restriction::new(Expr::never());
    for (key, v) in map {
        let here = format!("{path}.{key}");
        match (key.as_str(), v) {
            ("condition", Value::String(c)) => restriction.condition = parse_expr(&here, c)?,
            ("message", Value::String(m)) => restriction.message = Some(m.clone()),
            ("action", Value::String(a)) => {
                restriction.action = match a.as_str() {
                    "disable" => Action::Disable,
                    "hide" => Action::Hide,
                    "none" => Action::None,
                    _ => {
                        return Err(FieldError::new(
                            &here,
                            "must be 'disable', 'hide' or 'none'",
                        ));
                    }
                }
            }
            ("strict", Value::Bool(b)) => restriction.strict = *b,
            ("condition" | "message" | "action" | "strict", _) => {
                return Err(FieldError::new(&here, "has the wrong type"));
            }
            (other, _) => return Err(FieldError::new(&here, format!("unknown key '{other}'"))),
        }
    }
    Ok(restriction)
}

#[cfg(feature = "openapi")]
crate::schema::schema!(Restriction, crate::schema::restriction());

impl Serialize for Restriction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = Map::new();
        map.insert("condition".into(), self.condition.source().into());
        if let Some(m) = &self.message {
            map.insert("message".into(), m.clone().into());
        }
        if self.action != Action::Disable {
            map.insert(
                "action".into(),
                serde_json::to_value(self.action).unwrap_or_default(),
            );
        }
        if !self.strict {
            map.insert("strict".into(), false.into());
        }
        map.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Restriction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        Restriction::from_json("restriction", &value).map_err(serde::de::Error::custom)
    }
}

/// What a list of restrictions says in one environment.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restricted {
    pub disabled: bool,
    pub hidden: bool,
    /// The joined messages of the true restrictions (of any action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Restricted {
    /// Whether the thing is out of reach (disabled or hidden).
    pub fn blocked(&self) -> bool {
        self.disabled || self.hidden
    }
}

/// Joins messages with ". ", never doubling a message's own period.
pub fn join_messages<'a>(messages: impl IntoIterator<Item = &'a str>) -> String {
    let parts: Vec<&str> = messages
        .into_iter()
        .map(|m| m.trim().trim_end_matches('.'))
        .filter(|m| !m.is_empty())
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("{}.", parts.join(". "))
    }
}

/// Evaluates restrictions; `fallback` is the message of a true restriction
/// without one.
pub fn evaluate(
    restrictions: &[Restriction],
    models: &dyn Models,
    fallback: &str,
) -> Result<Restricted, ExprError> {
    evaluate_with(restrictions, models, |_| fallback.to_owned())
}

/// Evaluates restrictions; `fallback` gives the message of a true
/// restriction without one.
pub fn evaluate_with(
    restrictions: &[Restriction],
    models: &dyn Models,
    fallback: impl Fn(&Restriction) -> String,
) -> Result<Restricted, ExprError> {
    let mut result = Restricted::default();
    let mut messages: Vec<String> = Vec::new();
    for r in restrictions {
        if r.condition.holds(models, r.strict)? {
            match r.action {
                Action::Disable => result.disabled = true,
                Action::Hide => result.hidden = true,
                Action::None => {}
            }
            messages.push(r.message.clone().unwrap_or_else(|| fallback(r)));
        }
    }
    if !messages.is_empty() {
        messages.dedup();
        result.message = Some(join_messages(messages.iter().map(String::as_str)));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::JsonModels;
    use serde_json::json;

    fn parse(value: Value) -> Result<Restriction, FieldError> {
        Restriction::from_json("r", &value)
    }

    #[test]
    fn three_forms_and_three_actions() {
        assert_eq!(parse(json!("a == 1")).unwrap().action, Action::Disable);
        let r = parse(json!({"a == 1": "A is one"})).unwrap();
        assert_eq!(r.message.as_deref(), Some("A is one"));
        let r = parse(json!({"condition": "true", "action": "none", "strict": false})).unwrap();
        assert_eq!((r.action, r.strict), (Action::None, false));
        assert_eq!(
            parse(json!({"condition": "true", "action": "drop"}))
                .unwrap_err()
                .path,
            "r.action"
        );
        assert_eq!(parse(json!(42)).unwrap_err().path, "r");
        assert!(parse(json!("a ==")).unwrap_err().message.contains('^'));
    }

    #[test]
    fn the_long_form_round_trips() {
        let r = parse(json!({"condition": "x", "message": "m", "action": "hide"})).unwrap();
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(
            json,
            json!({"condition": "x", "message": "m", "action": "hide"})
        );
        assert_eq!(serde_json::from_value::<Restriction>(json).unwrap(), r);
    }

    #[test]
    fn none_says_without_restricting() {
        let list = vec![
            parse(json!({"condition": "true", "action": "none", "message": "Note."})).unwrap(),
        ];
        let got = evaluate(&list, &JsonModels::default(), "fallback").unwrap();
        assert!(!got.blocked());
        assert_eq!(got.message.as_deref(), Some("Note."));
    }
}
