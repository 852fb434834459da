//! The component as declared in `components.yaml` and served by
//! `GET /api/v1/releases/{id}/components`: relations, `requires` in both of
//! its formats, and `bind` (SEMANTICS §2.1, §2.3, §2.6).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

use super::name::{ComponentName, ComponentType, Pattern};

/// The weight a component without one sorts with.
pub const DEFAULT_WEIGHT: i64 = 100;

/// One selectable part of a release, as plugins and releases declare it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Component {
    pub name: ComponentName,
    #[serde(default)]
    pub label: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "default_weight")]
    pub weight: i64,
    #[serde(default)]
    pub default: bool,
    #[serde(default)]
    pub compatible: Vec<Relation>,
    #[serde(default)]
    pub incompatible: Vec<Relation>,
    #[serde(default)]
    pub requires: Requires,
    /// Server-side only: serialized for storage as `[target, value]` pairs,
    /// but never part of an API answer (the API serves `ComponentView`,
    /// which leaves it out).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "deserialize_bind"
    )]
    pub bind: Vec<Bind>,
}

fn default_weight() -> i64 {
    DEFAULT_WEIGHT
}

impl Component {
    pub fn kind(&self) -> ComponentType {
        self.name.kind()
    }

    /// Every name or pattern its relations mention, with the relation:
    /// `compatible`, `incompatible` or `requires`.
    pub fn mentions(&self) -> Vec<(&'static str, &Pattern)> {
        let mut out: Vec<(&'static str, &Pattern)> = Vec::new();
        out.extend(self.compatible.iter().map(|r| ("compatible", &r.name)));
        out.extend(self.incompatible.iter().map(|r| ("incompatible", &r.name)));
        match &self.requires {
            Requires::None => {}
            Requires::Any(relations) => out.extend(relations.iter().map(|r| ("requires", &r.name))),
            Requires::Predicates(predicates) => out.extend(
                predicates
                    .iter()
                    .flat_map(|p| p.body.items.iter().map(|i| ("requires", i))),
            ),
        }
        out
    }

    /// The label, or the name when the label is empty.
    pub fn display_label(&self) -> &str {
        if self.label.is_empty() {
            self.name.as_str()
        } else {
            &self.label
        }
    }
}

/// An entry of `compatible` or `incompatible`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Relation {
    pub name: Pattern,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl<'de> Deserialize<'de> for Relation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // `description` is an alias of `message` that real plugins use.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            name: Pattern,
            message: Option<String>,
            description: Option<String>,
        }
        let raw = Raw::deserialize(d)?;
        Ok(Relation {
            name: raw.name,
            message: raw.message.or(raw.description),
        })
    }
}

/// A component's `requires`, in the old list format or the predicate format.
/// Mixing the two in one component is rejected when it is read.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Requires {
    #[default]
    None,
    /// `[{name, message?}]`: grouped by the required type; any one match in a
    /// group is enough, and every group must be satisfied.
    Any(Vec<Relation>),
    /// `[{one_of|any_of|none_of|all_of: {items, message?, message_invalid?}}]`.
    Predicates(Vec<Predicate>),
}

impl Requires {
    pub fn is_empty(&self) -> bool {
        match self {
            Requires::None => true,
            Requires::Any(v) => v.is_empty(),
            Requires::Predicates(v) => v.is_empty(),
        }
    }
}

/// How many of the matched components a predicate wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantifier {
    OneOf,
    AnyOf,
    NoneOf,
    AllOf,
}

impl Quantifier {
    pub fn as_str(self) -> &'static str {
        match self {
            Quantifier::OneOf => "one_of",
            Quantifier::AnyOf => "any_of",
            Quantifier::NoneOf => "none_of",
            Quantifier::AllOf => "all_of",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PredicateBody {
    pub items: Vec<Pattern>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_invalid: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Predicate {
    pub quantifier: Quantifier,
    pub body: PredicateBody,
}

impl Serialize for Requires {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Requires::None => s.serialize_seq(Some(0))?.end(),
            Requires::Any(relations) => relations.serialize(s),
            Requires::Predicates(predicates) => {
                struct One<'a>(&'a Predicate);
                impl Serialize for One<'_> {
                    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                        let mut map = s.serialize_map(Some(1))?;
                        map.serialize_entry(self.0.quantifier.as_str(), &self.0.body)?;
                        map.end()
                    }
                }
                let mut seq = s.serialize_seq(Some(predicates.len()))?;
                for p in predicates {
                    seq.serialize_element(&One(p))?;
                }
                seq.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Requires {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let entries = Option::<Vec<serde_json::Value>>::deserialize(d)?.unwrap_or_default();
        let mut old = Vec::new();
        let mut predicates = Vec::new();
        for (i, value) in entries.into_iter().enumerate() {
            let is_old = value.as_object().is_some_and(|m| m.contains_key("name"));
            if is_old {
                let relation: Relation = serde_json::from_value(value)
                    .map_err(|e| serde::de::Error::custom(format!("requires[{i}]: {e}")))?;
                old.push(relation);
                continue;
            }
            match serde_json::from_value::<BTreeMap<Quantifier, PredicateBody>>(value) {
                Ok(map) if map.len() == 1 => {
                    let (quantifier, body) = map.into_iter().next().expect("one entry");
                    predicates.push(Predicate { quantifier, body });
                }
                _ => {
                    return Err(serde::de::Error::custom(format!(
                        "requires[{i}]: expected {{name, message?}} or one of one_of, any_of, none_of, all_of with {{items, message?, message_invalid?}}"
                    )));
                }
            }
        }
        match (old.is_empty(), predicates.is_empty()) {
            (true, true) => Ok(Requires::None),
            (false, true) => Ok(Requires::Any(old)),
            (true, false) => Ok(Requires::Predicates(predicates)),
            (false, false) => Err(serde::de::Error::custom(
                "requires mixes the old [{name}] format with predicates (one_of, any_of, none_of, all_of); use one format",
            )),
        }
    }
}

#[cfg(feature = "openapi")]
crate::schema::schema!(Requires, requires_schema());

#[cfg(feature = "openapi")]
/// `requires` as declared: a list of `{name, message?}`, or of predicates
/// `{one_of|any_of|none_of|all_of: {items, message?, message_invalid?}}`.
fn requires_schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::PartialSchema;
    use utoipa::openapi::schema::{
        AdditionalProperties, AnyOfBuilder, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema,
    };
    let mut predicate = OneOfBuilder::new();
    for q in [
        Quantifier::OneOf,
        Quantifier::AnyOf,
        Quantifier::NoneOf,
        Quantifier::AllOf,
    ] {
        predicate = predicate.item(
            ObjectBuilder::new()
                .property(q.as_str(), PredicateBody::schema())
                .required(q.as_str())
                .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(false))),
        );
    }
    // Any of: an empty list is both.
    AnyOfBuilder::new()
        .item(ArrayBuilder::new().items(Relation::schema()))
        .item(ArrayBuilder::new().items(predicate))
        .description(Some(
            "The components required, in the format they were declared in: \
             a list of {name, message?}, or of predicates",
        ))
        .into()
}

/// The model a `bind` entry writes into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BindModel {
    Settings,
    Cluster,
    /// Any other model: kept so that it can be reported, never applied.
    Other,
}

/// One `bind` entry: set `path` in `model` to `value` when the component is chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Bind {
    pub model: BindModel,
    /// The whole `model:path` as written.
    pub target: String,
    pub value: serde_json::Value,
}

impl Serialize for Bind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (&self.target, &self.value).serialize(s)
    }
}

impl Bind {
    /// The path without its model (`storage.volumes_lvm.value`).
    pub fn path(&self) -> &str {
        self.target.split_once(':').map_or("", |(_, p)| p)
    }

    fn new(target: String, value: serde_json::Value) -> Result<Bind, String> {
        let (model, path) = target
            .split_once(':')
            .ok_or_else(|| format!("bind target '{target}' is not of the form model:path"))?;
        if path.is_empty() {
            return Err(format!("bind target '{target}' has an empty path"));
        }
        let model = match model {
            "settings" => BindModel::Settings,
            "cluster" => BindModel::Cluster,
            _ => BindModel::Other,
        };
        Ok(Bind {
            model,
            target,
            value,
        })
    }
}

/// Accepts a list whose entries are `"model:path"` strings (bound to `true`),
/// `[path, value]` pairs (what `!!pairs` loads as) or single-entry maps.
fn deserialize_bind<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Bind>, D::Error> {
    use serde::de::Error;
    use serde_json::Value;
    let entries = match Value::deserialize(d)? {
        Value::Null => return Ok(Vec::new()),
        Value::Array(entries) => entries,
        _ => return Err(D::Error::custom("bind must be a list")),
    };
    let mut binds = Vec::with_capacity(entries.len());
    for (i, entry) in entries.into_iter().enumerate() {
        let bind = match entry {
            Value::String(target) => Bind::new(target, Value::Bool(true)),
            Value::Array(pair) if pair.len() == 2 => {
                let mut pair = pair.into_iter();
                match (pair.next(), pair.next()) {
                    (Some(Value::String(target)), Some(v)) => Bind::new(target, v),
                    _ => Err("a bind pair is [\"model:path\", value]".to_owned()),
                }
            }
            Value::Object(map) if map.len() == 1 => {
                let (target, v) = map.into_iter().next().expect("one entry");
                Bind::new(target, v)
            }
            _ => Err(
                "expected \"model:path\", [\"model:path\", value] or {\"model:path\": value}"
                    .to_owned(),
            ),
        };
        binds.push(bind.map_err(|e| D::Error::custom(format!("bind[{i}]: {e}")))?);
    }
    Ok(binds)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(yaml: &str) -> Component {
        crate::yaml::parse("test.yaml", yaml).unwrap()
    }

    #[test]
    fn reads_a_full_component_with_pairs_binds() {
        let c = parse(
            r#"
name: storage:block:ceph
label: Ceph
weight: 10
bind: !!pairs
  - "settings:storage.volumes_ceph.value": true
  - "settings:storage.volumes_lvm.value": false
incompatible:
  - name: storage:block:lvm
    description: Not with LVM
"#,
        );
        assert_eq!(c.weight, 10);
        assert_eq!(c.incompatible[0].message.as_deref(), Some("Not with LVM"));
        assert_eq!(c.bind.len(), 2);
        assert_eq!(c.bind[1].value, serde_json::json!(false));
        assert_eq!(c.bind[0].model, BindModel::Settings);
    }

    #[test]
    fn reads_string_and_list_binds() {
        let c = parse(
            "name: storage:block:lvm\nbind: ['settings:storage.volumes_lvm.value', ['cluster:net_provider', neutron]]",
        );
        assert_eq!(c.bind[0].value, serde_json::json!(true));
        assert_eq!(c.bind[1].model, BindModel::Cluster);
        assert_eq!(c.bind[1].value, serde_json::json!("neutron"));
    }

    #[test]
    fn binds_round_trip_through_storage() {
        let c = parse("name: storage:block:lvm\nbind: ['settings:a.b', ['cluster:x', 1]]");
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(
            json["bind"],
            serde_json::json!([["settings:a.b", true], ["cluster:x", 1]])
        );
        assert_eq!(json["weight"], 100);
        let again: Component = serde_json::from_value(json).unwrap();
        assert_eq!(again, c);
    }

    #[test]
    fn reads_both_requires_formats() {
        let c = parse(
            "name: network:neutron:ml2:dvs\nrequires: [{name: 'network:neutron:core:ml2'}, {name: 'hypervisor:vmware'}]",
        );
        assert!(matches!(c.requires, Requires::Any(ref v) if v.len() == 2));
        let c = parse(
            "name: network:neutron:ml2:tun\nrequires: [{one_of: {items: ['network:neutron:core:ml2'], message: m}}]",
        );
        let Requires::Predicates(p) = &c.requires else {
            panic!("expected predicates, got {:?}", c.requires)
        };
        assert_eq!(p[0].quantifier, Quantifier::OneOf);
        assert_eq!(p[0].body.message.as_deref(), Some("m"));
        // Round trip through JSON, the wire format.
        let again: Component = serde_json::from_value(serde_json::to_value(&c).unwrap()).unwrap();
        assert_eq!(again.requires, c.requires);
    }

    #[test]
    fn mixed_requires_formats_are_rejected() {
        let err = crate::yaml::parse::<Component>("test.yaml", 
            "name: network:a\nrequires: [{name: 'hypervisor:x'}, {any_of: {items: ['hypervisor:y']}}]",
        )
        .unwrap_err();
        assert!(err.to_string().contains("mixes"), "{err}");
    }

    #[test]
    fn bad_names_in_relations_are_rejected() {
        let err = crate::yaml::parse::<Component>(
            "test.yaml",
            "name: network:a\nincompatible: [{name: 'hypervisor:lib*'}]",
        )
        .unwrap_err();
        assert!(err.to_string().contains("hypervisor:lib*"), "{err}");
    }
}
