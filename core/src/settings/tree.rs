//! The settings tree as declared: groups of attributes (a release's
//! `attributes_metadata.editable`, a plugin's `environment_config.yaml`),
//! read once into typed values — types, allowed values, compiled regexes,
//! parsed restrictions — and kept whole beside them, so that what is
//! stored and served reads back as declared.

use serde_json::{Map, Value};

use super::regex::Regex;
use crate::restriction::{FieldError, Restriction};

/// The kind of control an attribute is, and what its value must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttrType {
    Checkbox,
    Text,
    Textarea,
    Password,
    Select,
    Radio,
    Number,
    /// Lists of strings (Fuel's DNS and NTP server lists).
    TextList,
    TextareaList,
    /// Any other type (`hidden`, `file`, `custom_repo_configuration`, …):
    /// any value is kept.
    Other(String),
}

impl AttrType {
    pub fn parse(name: &str) -> AttrType {
        match name {
            "checkbox" => AttrType::Checkbox,
            "text" => AttrType::Text,
            "textarea" => AttrType::Textarea,
            "password" => AttrType::Password,
            "select" => AttrType::Select,
            "radio" => AttrType::Radio,
            "number" => AttrType::Number,
            "text_list" => AttrType::TextList,
            "textarea_list" => AttrType::TextareaList,
            other => AttrType::Other(other.to_owned()),
        }
    }

    /// Whether the value is one of `values[].data`.
    pub fn has_choices(&self) -> bool {
        matches!(self, AttrType::Select | AttrType::Radio)
    }
}

/// `regex: {source, error}`: a value must match (searched; sources anchor
/// themselves). The syntax JavaScript and Python share, lookarounds and
/// backreferences included (see [`super::regex`]).
#[derive(Debug, Clone)]
pub struct Pattern {
    pub source: String,
    pub error: String,
    compiled: Regex,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source && self.error == other.error
    }
}

impl Pattern {
    fn from_json(path: &str, value: &Value) -> Result<Pattern, FieldError> {
        let source = value["source"]
            .as_str()
            .ok_or_else(|| FieldError::new(&format!("{path}.source"), "must be a string"))?;
        let compiled = Regex::new(source).map_err(|e| {
            FieldError::new(
                &format!("{path}.source"),
                format!("'{source}' is not a valid pattern: {e}"),
            )
        })?;
        Ok(Pattern {
            source: source.to_owned(),
            error: value["error"].as_str().unwrap_or_default().to_owned(),
            compiled,
        })
    }

    /// Whether `text` matches; an error when the match is too costly to decide.
    pub fn matches(&self, text: &str) -> Result<bool, String> {
        self.compiled
            .is_match(text)
            .map_err(|e| format!("the value cannot be checked against '{}': {e}", self.source))
    }
}

/// One entry of a select's or radio's `values`.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub data: Value,
    pub label: String,
    pub restrictions: Vec<Restriction>,
}

/// One attribute of a group.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub kind: AttrType,
    pub label: String,
    pub weight: i64,
    /// The current value (the default until binds and edits change it).
    pub value: Value,
    pub choices: Vec<Choice>,
    pub regex: Option<Pattern>,
    pub restrictions: Vec<Restriction>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// The attribute as declared.
    declared: Map<String, Value>,
}

/// A value Fuel fills in when it deploys (`{generator: password}`).
pub fn is_generated(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|m| m.contains_key("generator"))
}

fn number(path: &str, map: &Map<String, Value>, key: &str) -> Result<Option<f64>, FieldError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_f64()
            .map(Some)
            .ok_or_else(|| FieldError::new(&format!("{path}.{key}"), "must be a number")),
    }
}

fn choices(path: &str, value: Option<&Value>) -> Result<Vec<Choice>, FieldError> {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let items = value
        .as_array()
        .ok_or_else(|| FieldError::new(path, "must be a list of {data, label}"))?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let at = format!("{path}[{i}]");
            let data = item
                .get("data")
                .cloned()
                .ok_or_else(|| FieldError::new(&at, "needs 'data'"))?;
            Ok(Choice {
                label: item["label"].as_str().unwrap_or_default().to_owned(),
                restrictions: Restriction::list_from_json(
                    &format!("{at}.restrictions"),
                    item.get("restrictions"),
                )?,
                data,
            })
        })
        .collect()
}

impl Attribute {
    /// Reads `editable.<group>.<name>` (`path`).
    pub fn from_json(path: &str, name: &str, value: &Value) -> Result<Attribute, FieldError> {
        let map = value
            .as_object()
            .ok_or_else(|| FieldError::new(path, "an attribute must be a map"))?;
        let kind = match map.get("type") {
            Some(Value::String(t)) => AttrType::parse(t),
            Some(_) => return Err(FieldError::new(&format!("{path}.type"), "must be a string")),
            None => return Err(FieldError::new(path, "missing required key 'type'")),
        };
        let weight = match map.get("weight") {
            None | Some(Value::Null) => 100,
            Some(w) => w.as_i64().ok_or_else(|| {
                FieldError::new(&format!("{path}.weight"), "must be a whole number")
            })?,
        };
        let regex = match map.get("regex") {
            None | Some(Value::Null) => None,
            Some(r) => Some(Pattern::from_json(&format!("{path}.regex"), r)?),
        };
        Ok(Attribute {
            name: name.to_owned(),
            label: map
                .get("label")
                .and_then(Value::as_str)
                .unwrap_or(name)
                .to_owned(),
            weight,
            value: map.get("value").cloned().unwrap_or(Value::Null),
            choices: choices(&format!("{path}.values"), map.get("values"))?,
            regex,
            restrictions: Restriction::list_from_json(
                &format!("{path}.restrictions"),
                map.get("restrictions"),
            )?,
            min: number(path, map, "min")?,
            max: number(path, map, "max")?,
            kind,
            declared: map.clone(),
        })
    }

    /// The attribute as declared, with its current value.
    pub fn to_json(&self) -> Value {
        let mut map = self.declared.clone();
        map.insert("value".to_owned(), self.value.clone());
        Value::Object(map)
    }

    /// What the attribute was declared with.
    pub fn declared_value(&self) -> &Value {
        self.declared.get("value").unwrap_or(&Value::Null)
    }

    pub fn description(&self) -> &str {
        self.declared
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }
}

/// A group's `metadata`.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupMeta {
    pub label: String,
    pub weight: i64,
    pub restrictions: Vec<Restriction>,
    /// `metadata.enabled`: whether the group is on (plugins, toggleable groups).
    pub enabled: Option<bool>,
    /// Whether the operator can switch the group on and off (plugin groups
    /// and `toggleable: true` ones).
    pub switchable: bool,
    /// The plugin the group belongs to, for plugin groups.
    pub plugin: Option<String>,
    declared: Map<String, Value>,
}

impl GroupMeta {
    fn from_json(path: &str, name: &str, value: Option<&Value>) -> Result<GroupMeta, FieldError> {
        let empty = Map::new();
        let map = match value {
            None | Some(Value::Null) => &empty,
            Some(Value::Object(map)) => map,
            Some(_) => return Err(FieldError::new(path, "must be a map")),
        };
        let enabled = match map.get("enabled") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(_) => {
                return Err(FieldError::new(
                    &format!("{path}.enabled"),
                    "must be true or false",
                ));
            }
        };
        let plugin = (map.get("class").and_then(Value::as_str) == Some("plugin")).then(|| {
            map.get("name")
                .and_then(Value::as_str)
                .unwrap_or(name)
                .to_owned()
        });
        Ok(GroupMeta {
            label: map
                .get("label")
                .and_then(Value::as_str)
                .unwrap_or(name)
                .to_owned(),
            weight: map.get("weight").and_then(Value::as_i64).unwrap_or(100),
            restrictions: Restriction::list_from_json(
                &format!("{path}.restrictions"),
                map.get("restrictions"),
            )?,
            enabled,
            switchable: plugin.is_some() || map.get("toggleable") == Some(&Value::Bool(true)),
            plugin,
            declared: map.clone(),
        })
    }

    fn to_json(&self) -> Value {
        let mut map = self.declared.clone();
        if let Some(enabled) = self.enabled {
            map.insert("enabled".to_owned(), Value::Bool(enabled));
        }
        Value::Object(map)
    }
}

/// One settings group.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub name: String,
    pub meta: GroupMeta,
    pub attributes: Vec<Attribute>,
}

impl Group {
    /// Reads `editable.<name>` (`path`): `metadata` and attributes.
    pub fn from_json(path: &str, name: &str, value: &Value) -> Result<Group, FieldError> {
        let map = value
            .as_object()
            .ok_or_else(|| FieldError::new(path, "a settings group must be a map"))?;
        let meta = GroupMeta::from_json(&format!("{path}.metadata"), name, map.get("metadata"))?;
        let attributes = map
            .iter()
            .filter(|(key, _)| *key != "metadata")
            .map(|(key, v)| Attribute::from_json(&format!("{path}.{key}"), key, v))
            .collect::<Result<Vec<_>, _>>()?;
        if meta.switchable && attributes.iter().any(|a| a.name == "enabled") {
            return Err(FieldError::new(
                &format!("{path}.enabled"),
                "a group with an on/off switch cannot have an attribute named 'enabled'",
            ));
        }
        Ok(Group {
            name: name.to_owned(),
            meta,
            attributes,
        })
    }

    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    pub fn attribute_mut(&mut self, name: &str) -> Option<&mut Attribute> {
        self.attributes.iter_mut().find(|a| a.name == name)
    }

    /// Whether the group is switched off.
    pub fn is_off(&self) -> bool {
        self.meta.enabled == Some(false)
    }

    /// `{metadata: …, attr: {…, value}, …}` with the current values.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        if !self.meta.declared.is_empty() || self.meta.enabled.is_some() {
            map.insert("metadata".to_owned(), self.meta.to_json());
        }
        for a in &self.attributes {
            map.insert(a.name.clone(), a.to_json());
        }
        Value::Object(map)
    }
}

/// Groups of settings in declared order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SettingsTree {
    pub groups: Vec<Group>,
}

impl SettingsTree {
    /// Reads an `editable` map (`path` names it in errors).
    pub fn from_json(path: &str, value: &Value) -> Result<SettingsTree, FieldError> {
        match value {
            Value::Null => Ok(SettingsTree::default()),
            Value::Object(map) => map
                .iter()
                .map(|(name, g)| Group::from_json(&format!("{path}.{name}"), name, g))
                .collect::<Result<_, _>>()
                .map(|groups| SettingsTree { groups }),
            _ => Err(FieldError::new(path, "must map group names to groups")),
        }
    }

    pub fn to_json(&self) -> Value {
        Value::Object(
            self.groups
                .iter()
                .map(|g| (g.name.clone(), g.to_json()))
                .collect(),
        )
    }

    pub fn group(&self, name: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.name == name)
    }

    pub fn group_mut(&mut self, name: &str) -> Option<&mut Group> {
        self.groups.iter_mut().find(|g| g.name == name)
    }

    /// Group indices for display: by weight, then declared order.
    pub fn display_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        order.sort_by_key(|&i| self.groups[i].meta.weight);
        order
    }
}
