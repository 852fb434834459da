//! Components: the selectable parts of a release (hypervisors, network
//! back-ends, storage back-ends, additional services), their names and
//! patterns, the registry of one release, and validation of a selection.

mod engine;
pub mod layout;
mod load;
pub mod matrix;
mod model;
mod name;
mod registry;
mod sat;
pub mod synthetic;
mod validate;

pub use engine::{
    Advice, Blocking, Compatibility, ComponentReport, Engine, Evaluation, Reason, Repair, State,
};
pub use load::{
    ComponentFile, Problem, RegistryReport, Severity, check_registry, load_components,
    load_registry,
};
pub use matrix::{
    Cell, Header, Highlight, Matrix, Table, TableCell, type_filters, type_order, type_title,
};
pub use model::{
    Bind, BindModel, Component, DEFAULT_WEIGHT, Predicate, PredicateBody, Quantifier, Relation,
    Requires,
};
pub use name::{ComponentName, ComponentType, NameError, Pattern};
pub use registry::{Conflict, DuplicateComponent, Registry, Source};
pub use validate::{
    DEFAULT_REQUIRED_TYPES, Requirement, Violation, ViolationKind, complete_with_defaults,
    requirements, validate_selection,
};

/// A registry of one source ("release") from a YAML component list, for tests.
#[cfg(test)]
pub(crate) fn test_registry(yaml: &str) -> Registry {
    let components: Vec<Component> =
        crate::yaml::parse("test.yaml", yaml).expect("test components parse");
    Registry::new([(Source("release".into()), components)]).expect("test components are unique")
}
