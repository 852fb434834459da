//! `mosaic user`, `mosaic token` and `mosaic audit`: accounts, API tokens
//! and the audit log, against the database `serve` uses (same
//! `--database-url` / `--data-dir`). Exit 0 on success, 1 when the change
//! is refused (a name taken, an unknown label), 2 on bad input or when the
//! database cannot be reached.

use std::io::BufRead;

use clap::{Args, Subcommand};
use mosaic_core::access::{Role, check_password, check_token_label, check_username};

use super::Format;
use crate::DbConfig;
use crate::access::secret::{hash_password, new_secret, secret_hash};
use crate::db::{Db, DbError};
use crate::out::outln;
use crate::timestamp::{now, rfc3339};

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create a user; the password is one line on stdin.
    Create(UserCreate),
    /// List the users and their roles.
    List(ListArgs),
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create an API token; stdout is the token alone, shown this once.
    Create(TokenCreate),
    /// List the tokens (labels and roles, never the secrets).
    List(ListArgs),
    /// Revoke the token with this label.
    Revoke(TokenRevoke),
}

fn parse_role(text: &str) -> Result<Role, String> {
    Role::parse(text)
}

#[derive(Debug, Args)]
pub struct UserCreate {
    name: String,
    #[arg(long, value_parser = parse_role, value_name = "viewer|operator|admin")]
    role: Role,
    #[command(flatten)]
    db: DbConfig,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    #[command(flatten)]
    db: DbConfig,
}

#[derive(Debug, Args)]
pub struct TokenCreate {
    #[arg(long, value_parser = parse_role, value_name = "viewer|operator|admin")]
    role: Role,
    /// The label to revoke it by (default `token-` and 8 hex digits).
    #[arg(long, value_name = "LABEL")]
    name: Option<String>,
    #[command(flatten)]
    db: DbConfig,
}

#[derive(Debug, Args)]
pub struct TokenRevoke {
    label: String,
    #[command(flatten)]
    db: DbConfig,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// How many entries, newest first.
    #[arg(long, default_value_t = 100)]
    limit: i64,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    #[command(flatten)]
    db: DbConfig,
}

fn fail(message: impl std::fmt::Display) -> i32 {
    eprintln!("mosaic: {message}");
    2
}

/// A refused change (exit 1), or a failure (exit 2).
fn refused(e: DbError) -> i32 {
    match e {
        DbError::Conflict(message) | DbError::NotFound(message) => {
            eprintln!("mosaic: {message}");
            1
        }
        other => fail(other),
    }
}

async fn connect(db: &DbConfig) -> Result<Db, i32> {
    let url = db.database_url().map_err(|e| fail(format!("{e:#}")))?;
    Db::connect(&url).await.map_err(|e| fail(format!("{e:#}")))
}

pub async fn user(command: UserCommand) -> i32 {
    match command {
        UserCommand::Create(args) => create_user(args).await,
        UserCommand::List(args) => list_users(args).await,
    }
}

/// The first line of stdin, without its line ending.
fn password_from_stdin() -> Result<String, i32> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| fail(format!("cannot read the password from stdin: {e}")))?;
    let password = line.trim_end_matches(['\n', '\r']).to_owned();
    check_password(&password).map_err(fail)?;
    Ok(password)
}

async fn create_user(args: UserCreate) -> i32 {
    if let Err(e) = check_username(&args.name) {
        return fail(e);
    }
    let password = match password_from_stdin() {
        Ok(p) => p,
        Err(code) => return code,
    };
    let hash = match hash_password(&password) {
        Ok(h) => h,
        Err(e) => return fail(format!("{e:#}")),
    };
    let db = match connect(&args.db).await {
        Ok(db) => db,
        Err(code) => return code,
    };
    match db.create_user(&args.name, args.role, &hash, now()).await {
        Ok(()) => {
            eprintln!("mosaic: created the user '{}' ({})", args.name, args.role);
            0
        }
        Err(e) => refused(e),
    }
}

async fn list_users(args: ListArgs) -> i32 {
    let db = match connect(&args.db).await {
        Ok(db) => db,
        Err(code) => return code,
    };
    let users = match db.users().await {
        Ok(users) => users,
        Err(e) => return fail(e),
    };
    let rows: Vec<serde_json::Value> = users
        .iter()
        .map(|u| {
            serde_json::json!({"username": u.username, "role": u.role, "created_at": rfc3339(u.created_at)})
        })
        .collect();
    super::print_rows(args.format, &rows, &["username", "role", "created_at"]);
    0
}

pub async fn token(command: TokenCommand) -> i32 {
    match command {
        TokenCommand::Create(args) => create_token(args).await,
        TokenCommand::List(args) => list_tokens(args).await,
        TokenCommand::Revoke(args) => revoke_token(args).await,
    }
}

async fn create_token(args: TokenCreate) -> i32 {
    let secret = match new_secret() {
        Ok(s) => s,
        Err(e) => return fail(format!("{e:#}")),
    };
    let hash = secret_hash(&secret);
    let label = args.name.unwrap_or_else(|| format!("token-{}", &hash[..8]));
    if let Err(e) = check_token_label(&label) {
        return fail(e);
    }
    let db = match connect(&args.db).await {
        Ok(db) => db,
        Err(code) => return code,
    };
    match db.create_token(&label, args.role, &hash, now()).await {
        Ok(()) => {
            outln!("{secret}");
            eprintln!(
                "mosaic: token '{label}' ({}) created; it is shown only this once",
                args.role
            );
            0
        }
        Err(e) => refused(e),
    }
}

async fn list_tokens(args: ListArgs) -> i32 {
    let db = match connect(&args.db).await {
        Ok(db) => db,
        Err(code) => return code,
    };
    match db.tokens().await {
        Ok(tokens) => {
            let rows: Vec<serde_json::Value> = tokens
                .iter()
                .map(|t| serde_json::json!({"label": t.label, "role": t.role, "created_at": rfc3339(t.created_at)}))
                .collect();
            super::print_rows(args.format, &rows, &["label", "role", "created_at"]);
            0
        }
        Err(e) => fail(e),
    }
}

async fn revoke_token(args: TokenRevoke) -> i32 {
    let db = match connect(&args.db).await {
        Ok(db) => db,
        Err(code) => return code,
    };
    match db.revoke_token(&args.label).await {
        Ok(true) => {
            eprintln!("mosaic: token '{}' revoked", args.label);
            0
        }
        Ok(false) => refused(DbError::NotFound(format!(
            "there is no token labelled '{}'",
            args.label
        ))),
        Err(e) => fail(e),
    }
}

pub async fn audit(args: AuditArgs) -> i32 {
    if !(1..=1_000_000).contains(&args.limit) {
        return fail(format!(
            "--limit must be between 1 and 1000000 (got {})",
            args.limit
        ));
    }
    let db = match connect(&args.db).await {
        Ok(db) => db,
        Err(code) => return code,
    };
    match db.audit(args.limit).await {
        Ok(entries) => {
            let rows: Vec<serde_json::Value> = entries
                .iter()
                .map(|e| serde_json::to_value(e).expect("entries serialize"))
                .collect();
            super::print_rows(
                args.format,
                &rows,
                &["at", "actor", "method", "target", "status"],
            );
            0
        }
        Err(e) => fail(e),
    }
}
