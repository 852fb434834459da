//! The OpenAPI schemas of the types whose `Serialize` and `Deserialize`
//! are written by hand (validated names, closed vocabularies, the
//! `requires` formats), for the server's document (feature `openapi`).
//! Derived schemas cover the rest; the browser app builds core without
//! this feature, so none of it reaches its download.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AdditionalProperties, AnyOfBuilder, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type,
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

/// Implements `ToSchema` for a type whose schema is `$schema`.
macro_rules! schema {
    ($name:ty, $schema:expr) => {
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                $schema
            }
        }

        impl utoipa::ToSchema for $name {}
    };
}
pub(crate) use schema;

/// `requires` as declared: a list of `{name, message?}`, or of predicates
/// `{one_of|any_of|none_of|all_of: {items, message?, message_invalid?}}`.
pub(crate) fn requires() -> RefOr<Schema> {
    use crate::component::{PredicateBody, Quantifier, Relation};
    use utoipa::PartialSchema;
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
