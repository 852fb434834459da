//! `mosaic expr eval`.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use mosaic_core::expr::{ErrorKind, Expr, ExprError};
use serde_json::json;

use super::models::read_models;
use super::{Format, print_json};
use crate::out::outln;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Evaluate an expression against models. Exit 0 with its value, 2 on a
    /// parse or evaluation error (and on unreadable input).
    Eval(EvalArgs),
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The expression, e.g. "settings:storage.volumes_ceph.value == false".
    expr: String,
    /// YAML {settings: …, cluster: …, release: …, version: …, networking_parameters: …}.
    #[arg(long, value_name = "FILE")]
    models: PathBuf,
    /// Missing paths are null instead of errors.
    #[arg(long)]
    non_strict: bool,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

pub fn run(command: Command) -> i32 {
    let Command::Eval(args) = command;
    let models = match read_models(&args.models) {
        Ok(models) => models,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let result = Expr::parse(&args.expr).and_then(|expr| {
        expr.eval_with(&models, !args.non_strict)
            .map(|v| v.to_json())
    });
    match (result, args.format) {
        (Ok(value), Format::Json) => {
            print_json(&json!({ "value": value }));
            0
        }
        (Ok(value), Format::Text) => {
            outln!("{value}");
            0
        }
        (Err(e), Format::Json) => {
            print_json(&json!({ "error": {
                "kind": kind(&e),
                "span": e.span.map(|(s, end)| [s, end]),
                "message": e.message,
            }}));
            2
        }
        (Err(e), Format::Text) => {
            eprintln!("{} error:\n{}", kind(&e), e.render());
            2
        }
    }
}

fn kind(e: &ExprError) -> &'static str {
    match e.kind {
        ErrorKind::Parse => "parse",
        ErrorKind::Undefined => "undefined",
        ErrorKind::UnknownModel => "unknown_model",
        ErrorKind::Type => "type",
        ErrorKind::TooDeep => "too_deep",
    }
}
