//! `mosaic env upgrades` and `mosaic env upgrade`: the newer versions an
//! environment's pinned plugins could move to, and moving one (or
//! previewing the move) on a running server (SEMANTICS §7.6).

use clap::Args;
use serde_json::json;

use mosaic_core::api::UpgradeConsequences;

use super::client::{Client, Failure, Remote, done, dry_run, print};
use super::environments::{environment_id, print_envs};
use super::preview::{not_a_preview, section, task_line};

#[derive(Debug, Args)]
pub struct EnvUpgrades {
    /// The environment: its id, or its name.
    env: String,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct EnvUpgrade {
    /// The environment: its id, or its name.
    env: String,
    /// The plugin to move: one it pins, or its release plugin.
    plugin: String,
    /// The newer installed version to move it to.
    version: String,
    /// Show what the upgrade would do, and change nothing.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    remote: Remote,
}

impl EnvUpgrades {
    pub fn remote(&self) -> &Remote {
        &self.remote
    }
}

impl EnvUpgrade {
    pub fn remote(&self) -> &Remote {
        &self.remote
    }
}

pub fn upgrades(client: &Client, args: &EnvUpgrades) -> Result<(), Failure> {
    let id = environment_id(client, &args.env)?;
    let offers = client.json("GET", &format!("/api/v1/clusters/{id}/upgrades"), None)?;
    print(args.remote.format, &offers, &["plugin", "from", "to"]);
    Ok(())
}

pub fn upgrade(client: &Client, args: &EnvUpgrade) -> Result<(), Failure> {
    let id = environment_id(client, &args.env)?;
    let body = json!({"plugin": args.plugin, "version": args.version});
    let path = format!("/api/v1/clusters/{id}/upgrade");
    if args.dry_run {
        let path = format!("{path}?dry_run=true");
        return dry_run(
            client,
            ("POST", &path, Some(&body)),
            args.remote.format,
            |v| {
                let consequences: UpgradeConsequences =
                    serde_json::from_value(v).map_err(not_a_preview)?;
                Ok(preview(&consequences))
            },
        );
    }
    let answer = client.json("POST", &path, Some(&body))?;
    print_envs(args.remote.format, &answer);
    done(
        args.remote.format,
        &format!("moved environment {id} to {} {}", args.plugin, args.version),
    );
    // The upgrade says which changes made on the release it did not carry.
    let outcome: Option<UpgradeConsequences> =
        serde_json::from_value(answer["upgrade"].clone()).ok();
    for not in outcome.iter().flat_map(|u| &u.release_changes.not_carried) {
        done(args.remote.format, &not.to_string());
    }
    Ok(())
}

/// Each of `names` after `mark` (`+`, `-`).
fn marked(mark: &'static str, names: Vec<String>) -> impl Iterator<Item = String> {
    names.into_iter().map(move |n| format!("{mark} {n}"))
}

fn names<T: ToString>(list: &[T]) -> Vec<String> {
    list.iter().map(ToString::to_string).collect()
}

/// A dry run's consequences for people: components, settings, roles,
/// tasks.
fn preview(c: &UpgradeConsequences) -> String {
    let mut out = String::new();
    let mut section = |title: &str, lines: Vec<String>| section(&mut out, title, lines);
    section(
        "Components",
        marked("+", names(&c.components.added))
            .chain(marked("-", names(&c.components.removed)))
            .collect(),
    );
    section(
        "Settings",
        marked("+", c.settings.added.clone())
            .chain(marked("-", c.settings.removed.clone()))
            .chain(
                c.settings
                    .changed
                    .iter()
                    .map(|s| format!("~ {}: {} -> {}", s.path, s.before, s.after)),
            )
            .collect(),
    );
    section(
        "Roles",
        marked("+", names(&c.roles.added))
            .chain(c.roles.removed.iter().map(|r| match r.nodes.as_slice() {
                [] => format!("- {}", r.role),
                nodes => format!("- {} (held by {}: refused)", r.role, nodes.join(", ")),
            }))
            .collect(),
    );
    section("Tasks", c.tasks.iter().map(task_line).collect());
    let release = &c.release_changes;
    section(
        "Changes made on the release",
        (release.carried.iter())
            .map(|k| format!("= {} {}: carried", k.kind.as_str(), k.name))
            .chain(
                (release.not_carried.iter())
                    .map(|n| format!("! {} {}: not carried: {}", n.kind.as_str(), n.name, n.why())),
            )
            .collect(),
    );
    out
}
