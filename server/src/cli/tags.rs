//! `mosaic tags list|create|update|delete|assign|unassign`: the seed's tag
//! operations for a release or an environment, and on nodes, on a running
//! server (beside `mosaic tags resolve`, which works on files).

use clap::{ArgGroup, Args};
use serde_json::json;

use super::client::{Remote, print, with_client};

/// `--env ID` or `--release ID`: whose tags.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("owner").required(true).args(["env", "release"])))]
pub struct Owner {
    /// An environment's tags (its own, its release's and its plugins').
    #[arg(long = "env", value_name = "ID")]
    env: Option<i64>,
    /// A release's tags.
    #[arg(long = "release", value_name = "ID")]
    release: Option<i64>,
}

impl Owner {
    /// The environment's or the release's path.
    pub(super) fn base(&self) -> String {
        match (self.env, self.release) {
            (Some(env), _) => format!("/api/v1/clusters/{env}"),
            (None, Some(release)) => format!("/api/v1/releases/{release}"),
            (None, None) => unreachable!("clap requires --env or --release"),
        }
    }

    fn path(&self) -> String {
        format!("{}/tags", self.base())
    }
}

#[derive(Debug, Args)]
pub struct TagList {
    #[command(flatten)]
    owner: Owner,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct TagCreate {
    name: String,
    #[command(flatten)]
    owner: Owner,
    /// Nodes with the tag have a primary one (`primary-NAME`).
    #[arg(long)]
    has_primary: bool,
    /// A role bringing the tag spreads its nodes over N instances (`NAME:1`
    /// … `NAME:N`).
    #[arg(long, value_name = "N")]
    instances: Option<u32>,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct TagUpdate {
    name: String,
    #[command(flatten)]
    owner: Owner,
    #[arg(long, value_name = "true|false", required = true, action = clap::ArgAction::Set)]
    has_primary: bool,
    /// Its instances (left as they are when not given; 0: none).
    #[arg(long, value_name = "N")]
    instances: Option<u32>,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct TagDelete {
    name: String,
    #[command(flatten)]
    owner: Owner,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct TagAssign {
    node: i64,
    #[arg(required = true)]
    tags: Vec<String>,
    #[command(flatten)]
    remote: Remote,
}

const TAG_COLUMNS: &[&str] = &[
    "name",
    "source",
    "has_primary",
    "instances",
    "nodes",
    "deletable",
];
const NODE_COLUMNS: &[&str] = &["id", "name", "status", "roles", "tags"];

pub fn list(args: TagList) -> i32 {
    with_client(&args.remote, |c| {
        print(
            args.remote.format,
            &c.json("GET", &args.owner.path(), None)?,
            TAG_COLUMNS,
        );
        Ok(())
    })
}

pub fn create(args: TagCreate) -> i32 {
    with_client(&args.remote, |c| {
        let mut body = json!({"name": args.name, "has_primary": args.has_primary});
        if let Some(n) = args.instances {
            body["instances"] = n.into();
        }
        let tag = c.json("POST", &args.owner.path(), Some(&body))?;
        print(args.remote.format, &tag, TAG_COLUMNS);
        Ok(())
    })
}

pub fn update(args: TagUpdate) -> i32 {
    with_client(&args.remote, |c| {
        let path = format!("{}/{}", args.owner.path(), args.name);
        let mut body = json!({"has_primary": args.has_primary});
        match args.instances {
            Some(0) => body["instances"] = serde_json::Value::Null,
            Some(n) => body["instances"] = n.into(),
            None => {}
        }
        let tag = c.json("PUT", &path, Some(&body))?;
        print(args.remote.format, &tag, TAG_COLUMNS);
        Ok(())
    })
}

pub fn delete(args: TagDelete) -> i32 {
    with_client(&args.remote, |c| {
        c.json(
            "DELETE",
            &format!("{}/{}", args.owner.path(), args.name),
            None,
        )?;
        if args.remote.format == super::Format::Text {
            eprintln!("mosaic: deleted tag '{}'", args.name);
        }
        Ok(())
    })
}

/// Assigns (`unassign` false) or unassigns tags on a node.
pub fn assign(args: TagAssign, unassign: bool) -> i32 {
    with_client(&args.remote, |c| {
        let method = if unassign { "DELETE" } else { "POST" };
        let path = format!("/api/v1/nodes/{}/tags", args.node);
        let node = c.json(method, &path, Some(&json!({"tags": args.tags})))?;
        print(args.remote.format, &node, NODE_COLUMNS);
        Ok(())
    })
}
