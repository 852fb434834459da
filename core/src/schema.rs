//! The OpenAPI schemas of the types whose `Serialize` and `Deserialize`
//! are written by hand (validated names, closed vocabularies, the
//! `requires` formats), for the server's document (feature `openapi`).
//! Derived schemas cover the rest; the browser app builds core without
//! this feature, so none of it reaches its download.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type,
};

/// A string matching `pattern` (anchored), described by `description`.
pub(crate) fn pattern(pattern: &str, description: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(pattern))
        .description(Some(description))
        .into()
}

/// One of the strings `values`.
pub(crate) fn one_of_strings<'a>(
    values: impl IntoIterator<Item = &'a str>,
    description: &str,
) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values))
        .description(Some(description))
        .into()
}

/// Implements `ToSchema` for a type whose schema is `$schema`; `as
/// "Name"` names it (for a generic type, whose default name would be the
/// same for every argument).
macro_rules! schema {
    ($name:ty, $schema:expr) => {
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                $schema
            }
        }

        impl utoipa::ToSchema for $name {}
    };
    ($name:ty as $label:literal, $schema:expr) => {
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                $schema
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($label)
            }
        }
    };
}
pub(crate) use schema;

/// A plan's node: a node's id, or `"master"` (Fuel's master pseudo-node).
pub(crate) fn node_id() -> RefOr<Schema> {
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Integer).format(Some(
            utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64),
        )))
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(["master"])),
        )
        .description(Some("A node's id, or \"master\""))
        .into()
}

/// A list of [`node_id`]s.
pub(crate) fn node_ids() -> RefOr<Schema> {
    ArrayBuilder::new().items(node_id()).into()
}

/// A value typed as text ([`crate::network::Typed`]): any string is read —
/// one that does not parse is kept as typed and is a problem of the
/// checks (`invalid_value`), not a refusal of the request — and written
/// back as it was typed.
pub(crate) fn typed(what: &str, example: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(format!(
            "{what}, as typed: a value that does not parse is kept and reported by the checks (`invalid_value`)"
        )))
        .examples([serde_json::Value::from(example)])
        .into()
}

/// `[first, last]`: two addresses as typed ([`crate::network::RangeField`]).
pub(crate) fn range_field() -> RefOr<Schema> {
    ArrayBuilder::new()
        .items(typed("An IPv4 address", "192.168.0.2"))
        .min_items(Some(2))
        .max_items(Some(2))
        .description(Some("A range of addresses: [first, last], both included"))
        .into()
}

/// `[low, high]`, or `null` (an `Option<[i64; 2]>`).
pub(crate) fn optional_int_pair() -> RefOr<Schema> {
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(
            ArrayBuilder::new()
                .items(ObjectBuilder::new().schema_type(Type::Integer).format(Some(
                    utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64),
                )))
                .min_items(Some(2))
                .max_items(Some(2)),
        )
        .description(Some("[low, high], both included"))
        .into()
}

/// A restriction as the server writes it (the long form; SEMANTICS §3.2).
pub(crate) fn restriction() -> RefOr<Schema> {
    ObjectBuilder::new()
        .property(
            "condition",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .description(Some("An expression over the environment's models")),
        )
        .required("condition")
        .property("message", ObjectBuilder::new().schema_type(Type::String))
        .property(
            "action",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(["hide", "none"]))
                .description(Some("What a true condition does; absent: `disable`")),
        )
        .property(
            "strict",
            ObjectBuilder::new()
                .schema_type(Type::Boolean)
                .description(Some("Absent: `true`")),
        )
        .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(false)))
        .description(Some("When the condition holds, the thing is disabled or hidden (`action`), or only the message is shown"))
        .into()
}

/// A problem of one node ([`crate::environment::NodeProblem`]): its id, its name
/// (none for an id that is not in the environment) and the message;
/// nothing else.
pub(crate) fn node_problem() -> RefOr<Schema> {
    ObjectBuilder::new()
        .property("node", int64())
        .required("node")
        .property("name", ObjectBuilder::new().schema_type(Type::String))
        .property("message", ObjectBuilder::new().schema_type(Type::String))
        .required("message")
        .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(false)))
        .description(Some(
            "A problem of one node: its id, its name (absent for an id that is not in the environment) and the message",
        ))
        .into()
}

pub(crate) fn int64() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Integer).format(Some(
        utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64),
    ))
}
