//! `mosaic plugin`: validate, show, create, build, and install into /
//! list / uninstall from a Mosaic database.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use mosaic_core::api::PluginRelease;
use mosaic_core::plugin::{Files, Package, Report, load};
use mosaic_core::release::Release;

use super::{Format, print_json};
use crate::DbConfig;
use crate::db::Db;
use crate::install::{InstallError, install};
use crate::out::outln;
use crate::package;

use super::client::{self, Body, Client, Failure, Remote, with_client};

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate a package (a directory or a .tar.gz/.zip): every problem
    /// with file and line. Exit 0 without errors, 1 with errors, 2 when
    /// PATH cannot be read.
    Validate(ValidateArgs),
    /// Print the loaded package after `*_path` resolution: what the server
    /// stores. Exit 1 (with the report on stderr) when it has errors.
    Show(ShowArgs),
    /// Create a new plugin directory NAME that passes `validate`.
    Create(CreateArgs),
    /// Validate a package directory, then write it as a reproducible
    /// .tar.gz (NAME-VERSION.tar.gz unless -o is given).
    Build(BuildArgs),
    /// Validate a package and install it into the database `mosaic serve`
    /// uses. Exit 1 when it is invalid or collides with installed plugins.
    Install(InstallArgs),
    /// List the installed plugins.
    List(ListArgs),
    /// Uninstall a plugin (by id, or by name when one version is installed).
    Uninstall(UninstallArgs),
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    path: PathBuf,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum ShowFormat {
    #[default]
    Json,
    Text,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    path: PathBuf,
    #[arg(long, value_enum, default_value_t)]
    format: ShowFormat,
}

#[derive(Debug, Args)]
pub struct CreateArgs {
    /// The plugin name (`^[a-z0-9_-]+$`), also the directory created.
    name: String,
    /// A release plugin (ships a release) instead of an extension.
    #[arg(long)]
    release: bool,
    /// Where to create the directory NAME.
    #[arg(long, default_value = ".")]
    dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The package directory.
    path: PathBuf,
    /// The archive to write.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    path: PathBuf,
    #[command(flatten)]
    over: Over,
    #[command(flatten)]
    db: DbConfig,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    over: Over,
    #[command(flatten)]
    db: DbConfig,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

#[derive(Debug, Args)]
pub struct UninstallArgs {
    /// A plugin id, or a name.
    plugin: String,
    #[command(flatten)]
    over: Over,
    #[command(flatten)]
    db: DbConfig,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// `--server URL` (with `--token`): work on a running server over HTTP
/// instead of on the database.
#[derive(Debug, Args)]
pub struct Over {
    /// Work on this server over HTTP instead of on the database.
    #[arg(long, env = "MOSAIC_SERVER")]
    server: Option<String>,
    /// An admin's API token, with --server.
    #[arg(long, env = "MOSAIC_TOKEN", hide_env_values = true)]
    token: Option<String>,
}

impl Over {
    fn remote(&self, format: Format) -> Option<Remote> {
        self.server.clone().map(|server| Remote {
            server,
            token: self.token.clone(),
            format,
        })
    }
}

pub async fn run(command: Command) -> i32 {
    match command {
        Command::Validate(args) => validate(args),
        Command::Show(args) => show(args),
        Command::Create(args) => create(args),
        Command::Build(args) => build(args),
        Command::Install(args) => match args.over.remote(args.format) {
            Some(remote) => remote_install(&args.path, &remote),
            None => install_command(args).await,
        },
        Command::List(args) => match args.over.remote(args.format) {
            Some(remote) => remote_list(&remote),
            None => list(args).await,
        },
        Command::Uninstall(args) => match args.over.remote(args.format) {
            Some(remote) => remote_uninstall(&args.plugin, &remote),
            None => uninstall(args).await,
        },
    }
}

fn fail(message: impl std::fmt::Display) -> i32 {
    eprintln!("mosaic: {message}");
    2
}

fn open(path: &Path) -> Result<Box<dyn Files + Send + Sync>, i32> {
    package::open(path).map_err(fail)
}

fn print_report(report: &Report, format: Format) {
    match format {
        Format::Json => print_json(report),
        Format::Text => outln!("{report}"),
    }
}

fn validate(args: ValidateArgs) -> i32 {
    let files = match open(&args.path) {
        Ok(files) => files,
        Err(code) => return code,
    };
    let loaded = load(files.as_ref());
    print_report(&loaded.report, args.format);
    i32::from(loaded.report.has_errors())
}

/// The package at `path` when it has no errors; else the report goes to
/// stderr and the exit code is 1 (2 when it cannot be read).
fn load_valid(path: &Path) -> Result<(Package, Report), i32> {
    let files = open(path)?;
    let loaded = load(files.as_ref());
    match loaded.package {
        Some(package) => Ok((package, loaded.report)),
        None => {
            eprintln!("{}", loaded.report);
            Err(1)
        }
    }
}

fn show(args: ShowArgs) -> i32 {
    let (package, _) = match load_valid(&args.path) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    match args.format {
        ShowFormat::Json => print_json(&package),
        ShowFormat::Text => {
            outln!("{} {} — {}", package.name, package.version, package.title);
            for release in package.releases() {
                outln!(
                    "release {} {} ({}): {} components, {} roles, {} graphs",
                    release.name,
                    release.version,
                    release.operating_system,
                    release.components_metadata.len(),
                    release.roles_metadata.0.len(),
                    release.graphs.len()
                );
            }
            for c in package.compatibility() {
                outln!("compatible with {} {}", c.operating_system, c.version);
            }
            outln!(
                "{} components, {} roles, {} volumes, {} tasks",
                package.components_metadata.len(),
                package.roles_metadata.0.len(),
                package.volume_ids().len(),
                package.deployment_tasks.len()
            );
        }
    }
    0
}

fn create(args: CreateArgs) -> i32 {
    let name = &args.name;
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
    {
        return fail(format!("plugin name '{name}' must match ^[a-z0-9_-]+$"));
    }
    let root = args.dir.join(name);
    if root.exists() {
        return fail(format!("{} already exists", root.display()));
    }
    let files = if args.release {
        scaffold::RELEASE
    } else {
        scaffold::EXTENSION
    };
    for (path, text) in files {
        let target = root.join(path);
        let written = target
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&target, text.replace("NAME", name)));
        if let Err(e) = written {
            return fail(format!("cannot write {}: {e}", target.display()));
        }
    }
    outln!(
        "created {} plugin {} in {}; check it with `mosaic plugin validate {}`",
        if args.release { "release" } else { "extension" },
        name,
        root.display(),
        root.display()
    );
    0
}

fn build(args: BuildArgs) -> i32 {
    if !args.path.is_dir() {
        return fail(format!("{}: not a package directory", args.path.display()));
    }
    let (package, report) = match load_valid(&args.path) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    if report.warnings > 0 {
        eprintln!("{report}");
    }
    let prefix = format!("{}-{}", package.name, package.version);
    let output = args
        .output
        .unwrap_or_else(|| PathBuf::from(format!("{prefix}.tar.gz")));
    // Write next to the target, then rename: no half-written archive.
    let partial = output.with_extension("partial");
    let file = match std::fs::File::create(&partial) {
        Ok(f) => f,
        Err(e) => return fail(format!("cannot write {}: {e}", partial.display())),
    };
    let mut out = std::io::BufWriter::new(file);
    let interactive = std::io::stderr().is_terminal();
    let mut last = 0;
    let mut progress = |done: usize, total: usize| {
        // Large packages show progress: every file on a terminal, every
        // 1,000 files otherwise (logs).
        if total >= 200 && (interactive || done - last >= 1000 || done == total) {
            if interactive {
                eprint!("\rpacking {done}/{total} files");
            } else {
                eprintln!("packing {done}/{total} files");
            }
            last = done;
        }
    };
    let written = package::build_archive(&args.path, &prefix, &mut out, &mut progress)
        .and_then(|()| out.flush().map_err(Into::into));
    if interactive {
        eprintln!();
    }
    drop(out);
    if let Err(e) = written.and_then(|()| std::fs::rename(&partial, &output).map_err(Into::into)) {
        let _ = std::fs::remove_file(&partial);
        return fail(format!("cannot write {}: {e:#}", output.display()));
    }
    let size = std::fs::metadata(&output).map(|m| m.len()).unwrap_or(0);
    outln!("wrote {} ({size} bytes)", output.display());
    0
}

async fn connect(db: &DbConfig) -> Result<Db, i32> {
    let url = db.database_url().map_err(|e| fail(format!("{e:#}")))?;
    Db::connect(&url).await.map_err(|e| fail(format!("{e:#}")))
}

/// The database and the plugins installed in it.
async fn installed(config: &DbConfig) -> Result<(Db, Vec<crate::db::StoredPlugin>), i32> {
    let db = connect(config).await?;
    let plugins = db.plugins().await.map_err(fail)?;
    Ok((db, plugins.to_vec()))
}

async fn install_command(args: InstallArgs) -> i32 {
    let files = match open(&args.path) {
        Ok(files) => files,
        Err(code) => return code,
    };
    let db = match connect(&args.db).await {
        Ok(db) => db,
        Err(code) => return code,
    };
    match install(&db, files).await {
        Ok((stored, report)) => {
            match args.format {
                Format::Json => print_json(&report),
                Format::Text => {
                    for d in &report.diagnostics {
                        eprintln!("{d}");
                    }
                    outln!("installed {} (id {})", stored.package.source(), stored.id);
                }
            }
            0
        }
        Err(InstallError::Invalid(report) | InstallError::Conflict(report)) => {
            print_report(&report, args.format);
            1
        }
        Err(InstallError::Db(e)) => fail(e),
    }
}

async fn list(args: ListArgs) -> i32 {
    let (_, plugins) = match installed(&args.db).await {
        Ok(found) => found,
        Err(code) => return code,
    };
    match args.format {
        Format::Json => {
            let rows: Vec<serde_json::Value> = plugins
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "id": p.id,
                        "name": p.package.name,
                        "version": p.package.version,
                        "kind": if p.package.is_release_plugin() { "release" } else { "extension" },
                        "releases": p.package.releases().map(|r| &r.name).collect::<Vec<_>>(),
                    })
                })
                .collect();
            print_json(&rows);
        }
        Format::Text => {
            for p in &plugins {
                let kind = if p.package.is_release_plugin() {
                    "release"
                } else {
                    "extension"
                };
                let releases: Vec<String> = p.package.releases().map(Release::label).collect();
                outln!(
                    "{:>4}  {} {}  ({kind})  {}{}",
                    p.id,
                    p.package.name,
                    p.package.version,
                    p.package.title,
                    if releases.is_empty() {
                        String::new()
                    } else {
                        format!("  releases: {}", releases.join(", "))
                    }
                );
            }
        }
    }
    0
}

async fn uninstall(args: UninstallArgs) -> i32 {
    let (db, plugins) = match installed(&args.db).await {
        Ok(found) => found,
        Err(code) => return code,
    };
    let matches: Vec<_> = plugins
        .iter()
        .filter(|p| args.plugin.parse() == Ok(p.id) || p.package.name == args.plugin.as_str())
        .collect();
    let plugin = match matches.as_slice() {
        [one] => *one,
        [] => return fail(format!("no installed plugin '{}'", args.plugin)),
        several => {
            return fail(format!(
                "'{}' names several installed versions ({}); give the id",
                args.plugin,
                several
                    .iter()
                    .map(|p| format!("{} is {}", p.id, p.package.version))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    };
    match crate::install::uninstall(&db, plugin.id).await {
        Ok(()) => {
            outln!("uninstalled {}", plugin.package.source());
            0
        }
        Err(e) => {
            eprintln!("mosaic: {e}");
            1
        }
    }
}

/// A package as an upload: an archive as it is, a directory packed.
fn upload_body(path: &std::path::Path) -> Result<Body<'static>, Failure> {
    let broken = |e: &dyn std::fmt::Display| Failure::Broken(format!("{}: {e}", path.display()));
    if path.is_dir() {
        let prefix = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut bytes = Vec::new();
        package::build_archive(path, &prefix, &mut bytes, &mut |_, _| {})
            .map_err(|e| broken(&e))?;
        return Ok(Body {
            content_type: "application/gzip",
            bytes,
        });
    }
    let bytes = std::fs::read(path).map_err(|e| broken(&e))?;
    let zip = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
    let content_type = if zip {
        "application/zip"
    } else {
        "application/gzip"
    };
    Ok(Body {
        content_type,
        bytes,
    })
}

fn remote_install(path: &std::path::Path, remote: &Remote) -> i32 {
    with_client(remote, |c| {
        let plugin = c.json_of("POST", "/api/v1/plugins", Some(upload_body(path)?))?;
        match remote.format {
            Format::Json => print_json(&plugin),
            Format::Text => {
                for w in plugin["warnings"].as_array().into_iter().flatten() {
                    eprintln!(
                        "{}: warning: {}",
                        w["file"].as_str().unwrap_or_default(),
                        w["message"].as_str().unwrap_or_default()
                    );
                }
                outln!(
                    "installed plugin {} {} (id {})",
                    plugin["name"].as_str().unwrap_or_default(),
                    plugin["version"].as_str().unwrap_or_default(),
                    plugin["id"]
                );
            }
        }
        Ok(())
    })
}

fn remote_list(remote: &Remote) -> i32 {
    with_client(remote, |c| {
        let mut plugins = c.json("GET", "/api/v1/plugins", None)?;
        // Each release named as core names releases (name and version).
        for plugin in plugins.as_array_mut().into_iter().flatten() {
            if remote.format == Format::Text {
                let releases: Vec<PluginRelease> =
                    serde_json::from_value(plugin["releases"].clone()).unwrap_or_default();
                let labels: Vec<String> = releases.iter().map(PluginRelease::label).collect();
                plugin["releases"] = labels.into();
            }
        }
        client::print(
            remote.format,
            &plugins,
            &["id", "name", "version", "kind", "title", "releases"],
        );
        Ok(())
    })
}

fn remote_uninstall(plugin: &str, remote: &Remote) -> i32 {
    with_client(remote, |c| {
        let id = match plugin.parse::<i64>() {
            Ok(id) => id,
            Err(_) => remote_id(c, plugin)?,
        };
        c.json("DELETE", &format!("/api/v1/plugins/{id}"), None)?;
        if remote.format == Format::Text {
            outln!("uninstalled plugin {plugin} (id {id})");
        }
        Ok(())
    })
}

/// The id of the one installed version of plugin `name`.
fn remote_id(c: &Client, name: &str) -> Result<i64, Failure> {
    let plugins = c.json("GET", "/api/v1/plugins", None)?;
    let ids: Vec<i64> = plugins
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["name"] == name)
        .filter_map(|p| p["id"].as_i64())
        .collect();
    match ids.as_slice() {
        [one] => Ok(*one),
        [] => Err(Failure::Broken(format!("no installed plugin '{name}'"))),
        _ => Err(Failure::Broken(format!(
            "'{name}' names several installed versions; give the id"
        ))),
    }
}

/// The files `mosaic plugin create` writes; `NAME` is replaced by the
/// plugin's name.
mod scaffold {
    pub const EXTENSION: &[(&str, &str)] = &[
        (
            "metadata.yaml",
            "# The plugin's identity and the releases it extends.
name: NAME
title: NAME
version: '1.0.0'
package_version: '5.0.0'
description: Describe what NAME adds to an OpenStack environment.
licenses: ['Apache License Version 2.0']
authors: ['Your name or company']
homepage: 'https://example.org/NAME'
groups: []
is_hotpluggable: false
# Compatible with releases whose operating system is Ubuntu and whose
# version starts with 2024.1 (Mosaic's bundled release).
releases:
  - os: ubuntu
    version: '2024.1'
    mode: ['ha']
    deployment_scripts_path: deployment_scripts/
    repository_path: repositories/ubuntu
",
        ),
        (
            "components.yaml",
            "# Options this plugin adds to the environment wizard.
- name: additional_service:NAME
  label: NAME
  description: What enabling NAME does.
  weight: 100
",
        ),
        (
            "node_roles.yaml",
            "NAME:
  name: NAME
  description: Nodes that run NAME.
  has_primary: false
  public_ip_required: false
  weight: 100
  conflicts: [controller, compute]
  limits:
    max: 3
",
        ),
        (
            "node_tags.yaml",
            "NAME:
  has_primary: false
",
        ),
        (
            "volumes.yaml",
            "volumes: []
volumes_roles_mapping:
  NAME:
    - {allocate_size: min, id: os}
",
        ),
        (
            "deployment_tasks.yaml",
            "- id: NAME-deployment
  type: puppet
  version: 2.0.0
  tags: [NAME]
  requires: [deploy_start]
  required_for: [deploy_end]
  parameters:
    puppet_manifest: deploy.pp
    puppet_modules: .
    timeout: 3600
",
        ),
        (
            "environment_config.yaml",
            "attributes:
  metadata:
    group: other
  NAME_text:
    value: ''
    label: Text setting of NAME
    description: Passed to the deployment as NAME_text.
    weight: 25
    type: text
",
        ),
        (
            "deployment_scripts/deploy.pp",
            "notice('NAME is deployed')\n",
        ),
        (
            "repositories/ubuntu/README",
            "Packages of NAME for Ubuntu go here.\n",
        ),
    ];

    pub const RELEASE: &[(&str, &str)] = &[
        (
            "metadata.yaml",
            "# A release plugin: it ships the release NAME.
name: NAME
title: NAME
version: '1.0.0'
package_version: '5.0.0'
description: The NAME OpenStack release.
licenses: ['Apache License Version 2.0']
authors: ['Your name or company']
homepage: 'https://example.org/NAME'
groups: []
releases:
  - is_release: true
    release_name: NAME
    description: OpenStack as NAME deploys it.
    operating_system: ubuntu
    version: '1.0.0'
    components_path: metadata/components.yaml
    roles_path: metadata/roles.yaml
    tags_path: metadata/tags.yaml
    volumes_path: metadata/volumes.yaml
    attributes_path: metadata/attributes.yaml
    graphs:
      - type: default
        name: default deployment graph
        tasks_path: graphs/default/*.yaml
",
        ),
        (
            "metadata/components.yaml",
            "- name: hypervisor:kvm
  label: KVM
  default: true
- name: network:neutron:core:ml2
  label: Neutron with ML2
  default: true
- name: network:neutron:ml2:vlan
  label: VLAN segmentation
  default: true
  bind: [['cluster:net_segment_type', vlan]]
  requires:
    - name: network:neutron:core:ml2
- name: storage:block:lvm
  label: LVM
  default: true
",
        ),
        (
            "metadata/roles.yaml",
            "controller:
  name: Controller
  description: API services, database and message queue.
  has_primary: true
  conflicts: [compute]
  limits:
    min: 1
  tags: [controller, database, rabbitmq]
compute:
  name: Compute
  description: Runs virtual machines.
  conflicts: [controller]
  tags: [compute]
",
        ),
        (
            "metadata/tags.yaml",
            "controller: {has_primary: true}
database: {has_primary: true}
rabbitmq: {has_primary: true}
compute: {has_primary: false}
",
        ),
        (
            "metadata/volumes.yaml",
            "volumes:
  - id: os
    type: vg
    label: Base system
    min_size: {generator: calc_min_os_size}
    volumes:
      - {mount: /, type: lv, name: root, size: {generator: calc_total_root_vg}}
volumes_roles_mapping:
  controller:
    - {allocate_size: min, id: os}
  compute:
    - {allocate_size: min, id: os}
",
        ),
        (
            "metadata/attributes.yaml",
            "editable:
  common:
    debug:
      type: checkbox
      value: false
      label: Debug logging
",
        ),
        (
            "graphs/default/00-stages.yaml",
            "- id: deploy_start
  type: stage
- id: deploy_end
  type: stage
  requires: [deploy_start]
",
        ),
        (
            "graphs/default/10-services.yaml",
            "- id: database
  type: puppet
  version: 2.0.0
  tags: [database]
  requires: [deploy_start]
  required_for: [deploy_end]
  parameters: {puppet_manifest: database.pp, puppet_modules: /etc/puppet/modules, timeout: 3600}
- id: rabbitmq
  type: puppet
  version: 2.0.0
  tags: [rabbitmq]
  requires: [database]
  required_for: [deploy_end]
  parameters: {puppet_manifest: rabbitmq.pp, puppet_modules: /etc/puppet/modules, timeout: 3600}
- id: nova-compute
  type: puppet
  version: 2.0.0
  tags: [compute]
  requires: [deploy_start]
  required_for: [deploy_end]
  parameters: {puppet_manifest: compute.pp, puppet_modules: /etc/puppet/modules, timeout: 3600}
",
        ),
    ];
}
