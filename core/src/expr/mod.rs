//! The expression language of restrictions, limits and settings
//! (SEMANTICS §3.1): `settings:storage.volumes_ceph.value == false and
//! cluster:mode != 'ha_compact'`.
//!
//! An expression is parsed once ([`Expr::parse`]) and evaluated many times
//! against any [`Models`]; it knows nothing of settings or clusters beyond
//! the model names. Errors carry the source, a byte span and a reason, and
//! render a caret line under the span.

mod error;
mod eval;
mod parse;

pub use error::{ErrorKind, ExprError};
pub use eval::{Bound, FlatModels, JsonModels, Models, Val};
pub use parse::{Expr, MAX_DEPTH, Model, Path, path_hash};
