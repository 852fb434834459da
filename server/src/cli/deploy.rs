//! `mosaic env export ENV --to DEPLOYER -o DIR`: an environment's export
//! for a deployer written as files (docs/deployers.md). Refused: every
//! problem on stderr, exit 1, nothing written.

use std::path::{Component, Path};

use mosaic_core::api::Export;

use super::Format;
use super::client::{Client, Failure};
use super::print_json;
use crate::out::outln;

pub fn export(
    client: &Client,
    id: i64,
    deployer: &str,
    dir: Option<&Path>,
    format: Format,
) -> Result<(), Failure> {
    let answer = client.json(
        "GET",
        &format!("/api/v1/clusters/{id}/deployers/{deployer}"),
        None,
    )?;
    if format == Format::Json {
        print_json(&answer);
        if dir.is_none() {
            return Ok(());
        }
    }
    let Some(dir) = dir else {
        return Err(Failure::Broken(
            "--to needs -o DIR, the directory to write the files under (or --format json)"
                .to_owned(),
        ));
    };
    let export: Export = serde_json::from_value(answer)
        .map_err(|e| Failure::Broken(format!("the server's answer is not an export: {e}")))?;
    for (path, text) in &export.files {
        let relative = Path::new(path);
        if relative.is_absolute()
            || relative
                .components()
                .any(|c| matches!(c, Component::ParentDir))
        {
            return Err(Failure::Broken(format!(
                "the server's export names a file outside the directory: {path}"
            )));
        }
        let target = dir.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Failure::Broken(format!("cannot create {}: {e}", parent.display())))?;
        }
        std::fs::write(&target, text)
            .map_err(|e| Failure::Broken(format!("cannot write {}: {e}", target.display())))?;
        if format == Format::Text {
            outln!("wrote {}", target.display());
        }
    }
    for warning in &export.warnings {
        eprintln!("mosaic: warning: {warning}");
    }
    Ok(())
}
