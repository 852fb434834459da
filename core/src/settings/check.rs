//! The check of an environment's settings (SEMANTICS §9): what each
//! group's, attribute's and choice's restrictions say, and every problem —
//! types, regexes, allowed values, numbers' bounds, a checkbox on while it
//! is disabled, a group switched on against its restrictions. Attributes of
//! a hidden, disabled or switched-off group, and hidden attributes, are not
//! checked: the operator cannot see or change them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::tree::{AttrType, Attribute, Group, is_generated};
use super::{Context, Problem, Settings};
use crate::expr::{JsonModels, Models};
use crate::restriction::{Restricted, Restriction, evaluate_with};

/// What the restrictions say of one attribute.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttrState {
    pub restricted: Restricted,
    /// Per entry of `values`: whether it can be chosen.
    pub choices: Vec<Restricted>,
    /// The value is filled in at deployment (`{generator: …}`).
    pub generated: bool,
}

/// What the restrictions say of one group and its attributes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupState {
    pub restricted: Restricted,
    pub attributes: Vec<AttrState>,
}

/// The states of every group (in tree order) and every problem.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evaluation {
    pub groups: Vec<GroupState>,
    pub problems: Vec<Problem>,
}

impl Evaluation {
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }
}

impl Settings {
    /// Evaluates every restriction and checks every value, against these
    /// settings and `context`.
    pub fn check(&self, context: &Context) -> Evaluation {
        let models = self.models(context);
        let mut problems = Vec::new();
        let groups = self
            .tree
            .groups
            .iter()
            .map(|group| check_group(group, &models, &mut problems))
            .collect();
        Evaluation { groups, problems }
    }
}

/// Evaluates `restrictions`; an expression that cannot be evaluated is a
/// problem at `path` and restricts nothing.
fn restricted(
    restrictions: &[Restriction],
    models: &JsonModels,
    path: &str,
    problems: &mut Vec<Problem>,
) -> Restricted {
    let fallback = |r: &Restriction| format!("'{}' holds", r.condition.source());
    evaluate_with(restrictions, models as &dyn Models, fallback).unwrap_or_else(|e| {
        problems.push(Problem::new(
            path,
            format!("a restriction cannot be evaluated:\n{}", e.render()),
        ));
        Restricted::default()
    })
}

fn check_group(group: &Group, models: &JsonModels, problems: &mut Vec<Problem>) -> GroupState {
    let restricted = restricted(&group.meta.restrictions, models, &group.name, problems);
    if group.meta.switchable && group.meta.enabled == Some(true) && restricted.disabled {
        problems.push(Problem::new(
            format!("{}.enabled", group.name),
            restricted.message.clone().unwrap_or_default(),
        ));
    }
    let skipped = restricted.blocked() || group.is_off();
    let mut own = Vec::new();
    let attributes = group
        .attributes
        .iter()
        .map(|a| {
            let path = format!("{}.{}", group.name, a.name);
            let state = attr_state(a, models, &path, &mut own);
            if !skipped && !state.restricted.hidden && !state.generated {
                check_value(a, &state, &path, &mut own);
            }
            state
        })
        .collect();
    // A group nobody can see or that is off says nothing about its attributes.
    if !skipped {
        problems.extend(own);
    }
    GroupState {
        restricted,
        attributes,
    }
}

fn attr_state(
    a: &Attribute,
    models: &JsonModels,
    path: &str,
    problems: &mut Vec<Problem>,
) -> AttrState {
    AttrState {
        restricted: restricted(&a.restrictions, models, path, problems),
        choices: a
            .choices
            .iter()
            .map(|c| restricted(&c.restrictions, models, path, problems))
            .collect(),
        generated: is_generated(&a.value),
    }
}

/// The value's type, pattern, allowed values and bounds.
fn check_value(a: &Attribute, state: &AttrState, path: &str, problems: &mut Vec<Problem>) {
    let mut fail = |message: String| problems.push(Problem::new(path, message));
    let value = &a.value;
    match &a.kind {
        AttrType::Checkbox => match value {
            Value::Bool(true) if state.restricted.disabled => fail(
                state
                    .restricted
                    .message
                    .clone()
                    .unwrap_or_else(|| "is not available".to_owned()),
            ),
            Value::Bool(_) => {}
            other => fail(format!("must be true or false, not {other}")),
        },
        AttrType::Text | AttrType::Textarea | AttrType::Password => match value {
            Value::String(text) => check_pattern(a, text, &mut fail),
            other => fail(format!("must be text, not {other}")),
        },
        AttrType::Select | AttrType::Radio => {
            match a.choices.iter().position(|c| &c.data == value) {
                Some(i) if state.choices[i].blocked() => fail(format!(
                    "{value} cannot be chosen: {}",
                    state.choices[i].message.clone().unwrap_or_default()
                )),
                Some(_) => {}
                None => {
                    let allowed: Vec<String> =
                        a.choices.iter().map(|c| c.data.to_string()).collect();
                    fail(format!("{value} is not one of {}", allowed.join(", ")));
                }
            }
        }
        AttrType::Number => match value.as_f64() {
            Some(n) => check_bounds(a, n, "", &mut fail),
            None => fail(format!("must be a number, not {value}")),
        },
        AttrType::TextList | AttrType::TextareaList => match value.as_array() {
            Some(items) => {
                check_bounds(a, items.len() as f64, " entries", &mut fail);
                for item in items {
                    match item.as_str() {
                        Some(text) => check_pattern(a, text, &mut fail),
                        None => fail(format!("every entry must be text, not {item}")),
                    }
                }
            }
            None => fail(format!("must be a list of text, not {value}")),
        },
        AttrType::Other(_) => {}
    }
}

fn check_pattern(a: &Attribute, text: &str, fail: &mut impl FnMut(String)) {
    let Some(regex) = &a.regex else {
        return;
    };
    match regex.matches(text) {
        Ok(true) => {}
        Ok(false) if regex.error.is_empty() => {
            fail(format!("'{text}' does not match '{}'", regex.source))
        }
        Ok(false) => fail(regex.error.clone()),
        Err(e) => fail(e),
    }
}

fn check_bounds(a: &Attribute, n: f64, unit: &str, fail: &mut impl FnMut(String)) {
    if let Some(min) = a.min
        && n < min
    {
        fail(format!("must be at least {min}{unit}"));
    }
    if let Some(max) = a.max
        && n > max
    {
        fail(format!("must be at most {max}{unit}"));
    }
}
