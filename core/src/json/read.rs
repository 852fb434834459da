//! [`Read`]: a Rust value taken from a JSON value without serde's
//! visitors, for the API's answers in the browser.
//!
//! Reading through serde costs a field-name visitor, a sequence visitor
//! and a map visitor per type, and reading a nested object through serde
//! from a `Value` first copied it into a `Value` of its own. Here a list is a
//! loop, an object's fields are looked up where they are, unit enums are
//! read by their `as_str` (`variant_names!`, a test holds it to serde's
//! names) and names through their constructors, so their checks stay
//! written once (docs/benchmarks.md, "App size").

use std::collections::BTreeMap;

use serde::de::{self, Unexpected};
use serde_json::{Map, Value};

use super::{Error, found};

/// A value read from the JSON value the server wrote for it, with the
/// same result and the same errors as serde's `Deserialize`.
pub trait Read: Sized {
    fn read(value: &Value) -> Result<Self, Error>;
}

/// `value` is not what `expected` names.
#[inline(never)]
pub(crate) fn wrong(value: &Value, expected: &'static str) -> Error {
    de::Error::invalid_type(found(value), &expected)
}

/// A string checked by `make` (a name's constructor), its refusal the
/// error, as the name's `Deserialize` words it.
pub fn checked<T, E: std::fmt::Display>(
    value: &Value,
    make: impl FnOnce(String) -> Result<T, E>,
) -> Result<T, Error> {
    make(String::read(value)?).map_err(|e| Error(e.to_string()))
}

/// A unit variant of `all` by its name as `name` writes it (the enum's
/// `as_str`, which a test holds to serde's name): what
/// [`variant_names!`] reads enums with.
pub fn variant<T: Copy>(value: &Value, all: &[T], name: fn(T) -> &'static str) -> Result<T, Error> {
    match value {
        Value::String(text) => named(text, all, name),
        other => Err(wrong(other, "a variant name")),
    }
}

/// The variant of `all` that `name` writes as `text` (a value or a map's key).
pub fn named<T: Copy>(text: &str, all: &[T], name: fn(T) -> &'static str) -> Result<T, Error> {
    match all.iter().copied().find(|v| name(*v) == text) {
        Some(v) => Ok(v),
        None => Err(unknown_variant(
            text,
            all.iter().map(|v| name(*v)).collect(),
        )),
    }
}

#[inline(never)]
fn unknown_variant(text: &str, names: Vec<&str>) -> Error {
    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    Error(format!(
        "unknown variant `{text}`, expected one of {}",
        names.join(", ")
    ))
}

/// A unit enum's names as the API writes them (serde's `rename_all =
/// "snake_case"` names, which a test holds them to): writes `as_str` and
/// [`Read`] from one list of `Variant => "name"`; the `match` in `as_str`
/// makes the compiler check that no variant is missing.
macro_rules! variant_names {
    ($t:ident { $($v:ident => $name:literal),+ $(,)? }) => {
        impl $t {
            /// The variant's name as the API writes it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($t::$v => $name),+
                }
            }
        }
        impl $crate::json::Read for $t {
            fn read(value: &serde_json::Value) -> Result<Self, $crate::json::Error> {
                $crate::json::variant(value, &[$($t::$v),+], $t::as_str)
            }
        }
        #[cfg(test)]
        impl $t {
            /// Every variant, for the test that holds `as_str` to serde's names.
            pub(crate) const VARIANTS: &'static [$t] = &[$($t::$v),+];
        }
    };
}
pub(crate) use variant_names;

impl Read for Value {
    fn read(value: &Value) -> Result<Self, Error> {
        Ok(value.clone())
    }
}

impl Read for bool {
    fn read(value: &Value) -> Result<Self, Error> {
        value.as_bool().ok_or_else(|| wrong(value, "a boolean"))
    }
}

impl Read for String {
    fn read(value: &Value) -> Result<Self, Error> {
        match value {
            Value::String(s) => Ok(s.clone()),
            other => Err(wrong(other, "a string")),
        }
    }
}

impl Read for i64 {
    fn read(value: &Value) -> Result<Self, Error> {
        match value.as_i64() {
            Some(n) => Ok(n),
            None => Err(integer_error(value, "i64")),
        }
    }
}

impl Read for u64 {
    fn read(value: &Value) -> Result<Self, Error> {
        match value.as_u64() {
            Some(n) => Ok(n),
            None => Err(integer_error(value, "u64")),
        }
    }
}

impl Read for usize {
    fn read(value: &Value) -> Result<Self, Error> {
        narrow(value, "usize")
    }
}

impl Read for u32 {
    fn read(value: &Value) -> Result<Self, Error> {
        narrow(value, "u32")
    }
}

impl Read for u16 {
    fn read(value: &Value) -> Result<Self, Error> {
        narrow(value, "u16")
    }
}

/// An unsigned integer of a narrower type than `u64`.
fn narrow<T: TryFrom<u64>>(value: &Value, name: &'static str) -> Result<T, Error> {
    let n = value.as_u64().ok_or_else(|| integer_error(value, name))?;
    T::try_from(n).map_err(|_| de::Error::invalid_value(Unexpected::Unsigned(n), &name))
}

/// Why `value` is not an integer of type `name`: a negative number for an
/// unsigned type is a value out of range, anything else the wrong type.
fn integer_error(value: &Value, name: &'static str) -> Error {
    match value.as_i64() {
        Some(n) => de::Error::invalid_value(Unexpected::Signed(n), &name),
        None => match value.as_u64() {
            Some(n) => de::Error::invalid_value(Unexpected::Unsigned(n), &name),
            None => wrong(value, name),
        },
    }
}

impl<T: Read> Read for Option<T> {
    fn read(value: &Value) -> Result<Self, Error> {
        match value {
            Value::Null => Ok(None),
            other => T::read(other).map(Some),
        }
    }
}

impl<T: Read> Read for Box<T> {
    fn read(value: &Value) -> Result<Self, Error> {
        T::read(value).map(Box::new)
    }
}

impl<T: Read> Read for Vec<T> {
    fn read(value: &Value) -> Result<Self, Error> {
        let Value::Array(items) = value else {
            return Err(wrong(value, "a sequence"));
        };
        let mut list = Vec::with_capacity(items.len());
        for item in items {
            list.push(T::read(item)?);
        }
        Ok(list)
    }
}

impl<A: Read, B: Read> Read for (A, B) {
    fn read(value: &Value) -> Result<Self, Error> {
        match value {
            Value::Array(items) if items.len() == 2 => {
                Ok((A::read(&items[0])?, B::read(&items[1])?))
            }
            Value::Array(items) => {
                Err(de::Error::invalid_length(items.len(), &"a tuple of size 2"))
            }
            other => Err(wrong(other, "a tuple of size 2")),
        }
    }
}

/// A map's key, which JSON writes as a string.
pub trait MapKey: Ord + Sized {
    fn key(text: &str) -> Result<Self, Error>;
}

impl MapKey for String {
    fn key(text: &str) -> Result<Self, Error> {
        Ok(text.to_owned())
    }
}

impl MapKey for u64 {
    fn key(text: &str) -> Result<Self, Error> {
        number_key(text)
    }
}

/// A map's key that stands for a number (`{"3": …}`), for [`MapKey`] and
/// for serde's reading through `Reader`.
pub(crate) fn number_key<T: std::str::FromStr>(text: &str) -> Result<T, Error> {
    text.parse()
        .map_err(|_| de::Error::custom(format!("expected a number as key, found {text:?}")))
}

impl<K: MapKey, V: Read> Read for BTreeMap<K, V> {
    fn read(value: &Value) -> Result<Self, Error> {
        let Value::Object(map) = value else {
            return Err(wrong(value, "a map"));
        };
        let mut out = BTreeMap::new();
        for (key, value) in map {
            out.insert(K::key(key)?, V::read(value)?);
        }
        Ok(out)
    }
}

/// A struct's fields, read one by one: what [`read_fields!`] writes
/// [`Read`] (and, through it, `Deserialize`) with, for the API's answers
/// (types the server writes and clients read). A derived `Deserialize` is
/// about 400 bytes of the browser's download per field (a field-name
/// visitor, a slot, duplicate and missing checks, cleanup on every error
/// path); this is a call per field (docs/benchmarks.md, "App size").
/// Unknown fields are ignored and a duplicate key counts once (its last
/// value), as in `serde_json::Value`.
pub struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    pub fn of(value: &'a Value) -> Result<Fields<'a>, Error> {
        match value {
            Value::Object(map) => Ok(Fields(map)),
            other => Err(wrong(other, "an object")),
        }
    }

    /// Field `name`, which must be there.
    pub fn take<T: Read>(&self, name: &'static str) -> Result<T, Error> {
        match self.0.get(name) {
            Some(value) => field(name, value),
            None => Err(missing(name)),
        }
    }

    /// Field `name`, or the default value without it.
    pub fn take_or_default<T: Read + Default>(&self, name: &'static str) -> Result<T, Error> {
        match self.0.get(name) {
            Some(value) => field(name, value),
            None => Ok(T::default()),
        }
    }
}

/// A field's value, its errors naming it.
fn field<T: Read>(name: &'static str, value: &Value) -> Result<T, Error> {
    T::read(value).map_err(|e| in_field(name, e))
}

// The errors' wording, not generic: once in the download, not once per
// field type.

#[inline(never)]
fn missing(name: &'static str) -> Error {
    Error(format!("missing field `{name}`"))
}

#[inline(never)]
fn in_field(name: &'static str, error: Error) -> Error {
    Error(format!("{name}: {error}"))
}

/// [`Read`] and `Deserialize` for a struct, field by field through
/// [`Fields`]: list every field, a field that may be missing
/// (`#[serde(default)]`, and every `Option`) followed by `= default`. The
/// struct takes no serde attributes other than `default` and
/// `skip_serializing_if`. `Deserialize` reads a `Value` first, so that
/// the CLI, which reads answers with serde_json, reads them the same way.
///
/// `read_fields!(read T { … })` writes [`Read`] alone, for a type whose
/// `Deserialize` reads a richer format (a plugin's file) than the one its
/// `Serialize` writes into answers.
macro_rules! read_fields {
    (read $t:ident { $($field:ident $(= $default:ident)?),* $(,)? }) => {
        impl $crate::json::Read for $t {
            fn read(value: &serde_json::Value) -> Result<Self, $crate::json::Error> {
                let f = $crate::json::Fields::of(value)?;
                Ok($t { $($field: $crate::json::read_fields!(@take f $field $($default)?),)* })
            }
        }
    };
    ($t:ident { $($field:ident $(= $default:ident)?),* $(,)? }) => {
        $crate::json::read_fields!(read $t { $($field $(= $default)?),* });
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let value = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
                <$t as $crate::json::Read>::read(&value).map_err(serde::de::Error::custom)
            }
        }
    };
    (@take $f:ident $field:ident) => { $f.take(stringify!($field))? };
    (@take $f:ident $field:ident default) => { $f.take_or_default(stringify!($field))? };
}
pub(crate) use read_fields;
