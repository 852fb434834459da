//! A serde `Deserializer` over loaded [`Node`]s: typed data straight from
//! the line-keeping tree, so every error carries the line of the value (or
//! key) it is about. This is the one YAML path: files are read by
//! [`super::tree::load`] and typed through here.

use std::fmt;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::tree::{Entry, Node, Value};

/// A deserialization error and the line it is about, once known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeError {
    pub line: Option<usize>,
    pub message: String,
}

impl DeError {
    /// Attaches `line` unless a deeper value already did.
    fn at(mut self, line: usize) -> DeError {
        self.line.get_or_insert(line);
        self
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError {
            line: None,
            message: msg.to_string(),
        }
    }
}

/// Deserializes one node.
#[derive(Debug, Clone, Copy)]
pub struct NodeDeserializer<'a>(pub &'a Node);

impl<'de> de::Deserializer<'de> for NodeDeserializer<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let node = self.0;
        let result = match &node.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Int(i) => visitor.visit_i64(*i),
            Value::Float(f) => visitor.visit_f64(*f),
            Value::String(s) => visitor.visit_str(s),
            Value::Seq(items) => visitor.visit_seq(Items(items.iter())),
            Value::Map(entries) => visitor.visit_map(Entries {
                entries: entries.iter(),
                value: None,
            }),
        };
        result.map_err(|e| e.at(node.line))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
        .map_err(|e| e.at(self.0.line))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor
            .visit_newtype_struct(self)
            .map_err(|e| e.at(self.0.line))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let node = self.0;
        let result = match &node.value {
            // A unit variant: `mode: multinode`.
            Value::String(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            // A variant with data: `{one_of: {...}}`.
            Value::Map(entries) if entries.len() == 1 => visitor.visit_enum(Variant(&entries[0])),
            _ => Err(de::Error::custom(format!(
                "expected a name or a map with one entry, not {}",
                node.kind()
            ))),
        };
        result.map_err(|e| e.at(node.line))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

struct Items<'a>(std::slice::Iter<'a, Node>);

impl<'de> de::SeqAccess<'de> for Items<'_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        self.0
            .next()
            .map(|node| seed.deserialize(NodeDeserializer(node)))
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Entries<'a> {
    entries: std::slice::Iter<'a, Entry>,
    value: Option<&'a Node>,
}

impl<'de> de::MapAccess<'de> for Entries<'_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some(entry) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(&entry.value);
        seed.deserialize(Key(&entry.key))
            .map(Some)
            .map_err(|e| e.at(entry.line))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let node = self
            .value
            .take()
            .ok_or_else(|| <DeError as de::Error>::custom("a map value without its key"))?;
        seed.deserialize(NodeDeserializer(node))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// A map key: text, read as a number when the target wants one (as
/// JSON's keys are).
struct Key<'a>(&'a str);

macro_rules! parse_key {
    ($($method:ident => $visit:ident: $t:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            match self.0.parse::<$t>() {
                Ok(n) => visitor.$visit(n),
                Err(_) => visitor.visit_str(self.0),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Key<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_str(self.0)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_enum(self.0.into_deserializer())
    }

    parse_key!(deserialize_i64 => visit_i64: i64, deserialize_u64 => visit_u64: u64,
        deserialize_i32 => visit_i64: i64, deserialize_u32 => visit_u64: u64);

    serde::forward_to_deserialize_any! {
        bool i8 i16 i128 u8 u16 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

/// `{variant: data}`.
struct Variant<'a>(&'a Entry);

impl<'de> de::EnumAccess<'de> for Variant<'_> {
    type Error = DeError;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), DeError> {
        let name = seed.deserialize(Key(&self.0.key))?;
        Ok((name, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        de::Deserialize::deserialize(NodeDeserializer(&self.0.value))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        seed.deserialize(NodeDeserializer(&self.0.value))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_seq(NodeDeserializer(&self.0.value), visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_map(NodeDeserializer(&self.0.value), visitor)
    }
}
