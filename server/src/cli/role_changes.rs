//! `mosaic roles list|show|create|update|delete`: a release's or an
//! environment's roles on a running server (SEMANTICS §5.1), beside
//! `mosaic roles check`, which works on files.

use clap::Args;
use serde_json::{Value, json};

use super::client::{Failure, Remote, print, with_client};
use super::tags::Owner;

const COLUMNS: &[&str] = &["id", "name", "tags", "tags_source", "created"];

#[derive(Debug, Args)]
pub struct RoleList {
    #[command(flatten)]
    owner: Owner,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct RoleShow {
    name: String,
    #[command(flatten)]
    owner: Owner,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct RoleCreate {
    name: String,
    #[command(flatten)]
    owner: Owner,
    /// Its display name.
    #[arg(long)]
    label: String,
    #[arg(long, default_value = "")]
    description: String,
    /// A tag the role brings (repeat for several).
    #[arg(long = "tag", value_name = "TAG")]
    tags: Vec<String>,
    /// A role it conflicts with (repeat for several).
    #[arg(long = "conflict", value_name = "ROLE")]
    conflicts: Vec<String>,
    /// Its limits as JSON (`{"max": 3}`).
    #[arg(long, value_name = "JSON")]
    limits: Option<String>,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct RoleUpdate {
    name: String,
    #[command(flatten)]
    owner: Owner,
    /// The role's tags at this level (repeat for several; none: no tags).
    #[arg(long = "tag", value_name = "TAG")]
    tags: Vec<String>,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct RoleDelete {
    name: String,
    #[command(flatten)]
    owner: Owner,
    #[command(flatten)]
    remote: Remote,
}

fn path(owner: &Owner) -> String {
    format!("{}/roles", owner.base())
}

pub fn list(args: RoleList) -> i32 {
    with_client(&args.remote, |c| {
        print(
            args.remote.format,
            &c.json("GET", &path(&args.owner), None)?,
            COLUMNS,
        );
        Ok(())
    })
}

pub fn show(args: RoleShow) -> i32 {
    with_client(&args.remote, |c| {
        let roles = c.json("GET", &path(&args.owner), None)?;
        let role = roles
            .as_array()
            .and_then(|all| all.iter().find(|r| r["id"] == args.name.as_str()))
            .ok_or_else(|| Failure::Refused(format!("role '{}' does not exist", args.name)))?;
        print(args.remote.format, role, COLUMNS);
        Ok(())
    })
}

pub fn create(args: RoleCreate) -> i32 {
    with_client(&args.remote, |c| {
        let mut body = json!({
            "name": args.name,
            "label": args.label,
            "description": args.description,
            "tags": args.tags,
            "conflicts": args.conflicts,
        });
        if let Some(limits) = &args.limits {
            let limits: Value = serde_json::from_str(limits)
                .map_err(|e| Failure::Broken(format!("--limits: not JSON: {e}")))?;
            body["limits"] = limits;
        }
        let role = c.json("POST", &path(&args.owner), Some(&body))?;
        print(args.remote.format, &role, COLUMNS);
        Ok(())
    })
}

pub fn update(args: RoleUpdate) -> i32 {
    with_client(&args.remote, |c| {
        let uri = format!("{}/{}", path(&args.owner), args.name);
        let role = c.json("PUT", &uri, Some(&json!({"tags": args.tags})))?;
        print(args.remote.format, &role, COLUMNS);
        Ok(())
    })
}

pub fn delete(args: RoleDelete) -> i32 {
    with_client(&args.remote, |c| {
        c.json(
            "DELETE",
            &format!("{}/{}", path(&args.owner), args.name),
            None,
        )?;
        if args.remote.format == super::Format::Text {
            eprintln!("mosaic: role '{}' reset or deleted", args.name);
        }
        Ok(())
    })
}
