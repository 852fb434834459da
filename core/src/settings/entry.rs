//! What the operator's input does to a setting: the value a control shows,
//! the value typed text stands for, and whether the control can be used.
//! The settings page (the app's `pages::settings`) shows values with
//! [`text_of`] and turns what was entered into a value with
//! [`Settings::enter`].

use serde_json::Value;

use super::Settings;
use super::check::{AttrState, Evaluation};
use super::tree::{AttrType, is_generated};

/// What was entered in a setting's control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A checkbox, ticked or not.
    Checked(bool),
    /// The `i`th of a select's or radio group's choices.
    Choice(usize),
    /// Text typed into a text, password, number or list control.
    Text(String),
}

impl Settings {
    /// Sets attribute `attr` of group `group` (tree indices) to what
    /// `input` stands for. An index out of range changes nothing.
    pub fn enter(&mut self, group: usize, attr: usize, input: Input) {
        let Some(a) = self
            .tree
            .groups
            .get_mut(group)
            .and_then(|g| g.attributes.get_mut(attr))
        else {
            return;
        };
        a.value = match input {
            Input::Checked(on) => Value::Bool(on),
            Input::Choice(i) => match a.choices.get(i) {
                Some(choice) => choice.data.clone(),
                None => return,
            },
            Input::Text(text) => typed(&a.kind, text),
        };
    }

    /// Switches group `group` (a tree index) on or off.
    pub fn switch(&mut self, group: usize, on: bool) {
        if let Some(g) = self.tree.groups.get_mut(group) {
            g.meta.enabled = Some(on);
        }
    }

    /// Whether the controls of group `group` are out of reach: the group is
    /// switched off or its restrictions disable it.
    pub fn locked(&self, group: usize, evaluation: &Evaluation) -> bool {
        let off = self.tree.groups[group].meta.enabled == Some(false);
        off || evaluation.groups[group].restricted.disabled
    }
}

/// Whether a control can be used: not when its group is locked, nor when
/// its restrictions disable it — except a disabled checkbox that is on,
/// which stays usable so that the operator can turn it off (the check
/// reports it on).
pub fn control_disabled(locked: bool, state: &AttrState, value: &Value) -> bool {
    locked || (state.restricted.disabled && *value != Value::Bool(true))
}

/// What a text control shows for `value`: a list one item per line; a
/// value generated at deployment shows nothing.
pub fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(text_of).collect::<Vec<_>>().join("\n"),
        _ if is_generated(value) => String::new(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The value typed into a text control of `kind`: a number (whole numbers
/// stay integers; text that is no number stays text, which the check
/// reports), a list (one item per non-blank line) or the text itself.
pub fn typed(kind: &AttrType, text: String) -> Value {
    match kind {
        // `inf` and `NaN` parse as floats, but JSON has no number for them.
        AttrType::Number => match text.trim().parse::<f64>() {
            Ok(n) if n.is_finite() => number(n),
            _ => Value::String(text),
        },
        AttrType::TextList | AttrType::TextareaList => Value::Array(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(|l| Value::String(l.to_owned()))
                .collect(),
        ),
        _ => Value::String(text),
    }
}

/// `n` as a JSON number: a whole number as an integer (`8`, not `8.0`)
/// while every integer up to it is exact in a float (2^53), any other as
/// a float.
fn number(n: f64) -> Value {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if n.fract() == 0.0 && n.abs() <= EXACT {
        Value::from(n as i64)
    } else {
        Value::from(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn typed_text_becomes_the_value_its_control_stands_for() {
        assert_eq!(typed(&AttrType::Number, " 42 ".into()), json!(42));
        assert_eq!(typed(&AttrType::Number, "1.5".into()), json!(1.5));
        assert_eq!(typed(&AttrType::Number, "lots".into()), json!("lots"));
        assert_eq!(
            typed(&AttrType::TextList, "8.8.8.8\n\n 1.1.1.1 \n".into()),
            json!(["8.8.8.8", "1.1.1.1"])
        );
        assert_eq!(typed(&AttrType::Text, " a ".into()), json!(" a "));
    }

    /// Whole numbers are integers while a float holds them exactly; what
    /// JSON has no number for stays text, which the check reports.
    #[test]
    fn numbers_in_the_forms_people_write_them() {
        for (text, n) in [
            ("-7", json!(-7)),
            ("+7", json!(7)),
            ("007", json!(7)),
            ("8.0", json!(8)),
            ("1e3", json!(1000)),
            (".5", json!(0.5)),
            ("5.", json!(5)),
            ("2.5E-4", json!(0.00025)),
            ("-0.0", json!(0)),
            ("9007199254740992", json!(9_007_199_254_740_992_i64)),
            ("1e300", json!(1e300)),
        ] {
            assert_eq!(typed(&AttrType::Number, text.into()), n, "{text}");
        }
        for text in [
            "", "e5", "1e", "1.2.3", "inf", "NaN", "0x10", "1_000", "1e999",
        ] {
            assert_eq!(
                typed(&AttrType::Number, text.into()),
                json!(text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_control_shows_lists_by_line_and_nothing_for_generated_values() {
        assert_eq!(text_of(&json!(["a", "b"])), "a\nb");
        assert_eq!(text_of(&json!({"generator": "password"})), "");
        assert_eq!(text_of(&json!(3)), "3");
        assert_eq!(text_of(&Value::Null), "");
    }

    #[test]
    fn a_disabled_checkbox_that_is_on_can_still_be_turned_off() {
        let mut state = AttrState::default();
        state.restricted.disabled = true;
        assert!(control_disabled(false, &state, &json!(false)));
        assert!(!control_disabled(false, &state, &json!(true)));
        assert!(control_disabled(true, &AttrState::default(), &json!(true)));
    }
}
