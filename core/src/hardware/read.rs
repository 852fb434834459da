//! A file of found hardware read, whatever it is: told apart by content
//! (SEMANTICS §13) — Ironic's inspection data has an `inventory`, anything
//! else with Ansible's keys is facts — every problem with the file (and
//! the host) it comes from.

use super::model::{Found, ReadProblem};
use super::{ansible, ironic};

/// Whether `path` (relative, `/`-separated) names a hidden file
/// (`.DS_Store`) or one in a hidden directory (`.git/…`): not facts, in
/// an archive, a directory or a folder picked in the browser.
pub fn hidden(path: &str) -> bool {
    path.split('/')
        .any(|part| part.starts_with('.') && part != ".")
}

/// The largest file read (Ansible's facts of a host are ≈ 100 KiB; an
/// inventory far less).
pub const FILE_LIMIT: usize = 16 << 20;

/// The host file `file` (its text `text`) describes.
pub fn read(file: &str, text: &str) -> Result<Found, ReadProblem> {
    if text.len() > FILE_LIMIT {
        return Err(problem(
            file,
            format!("over {FILE_LIMIT} bytes: no facts file is that large"),
        ));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| problem(file, format!("not JSON: {e}")))?;
    read_value(file, &value)
}

/// The most NICs, bonds or disks one host has: more is no machine's facts
/// (and would let one file hold an import's memory).
pub const ITEM_LIMIT: usize = 1024;

/// The host file `file` describes, its JSON already read.
pub fn read_value(file: &str, value: &serde_json::Value) -> Result<Found, ReadProblem> {
    let found = read_any(file, value)?;
    let hw = &found.hardware;
    for (what, count) in [
        ("NICs", hw.interfaces.len()),
        ("bonds", hw.bonds.len()),
        ("disks", hw.disks.len()),
    ] {
        if count > ITEM_LIMIT {
            return Err(ReadProblem {
                file: file.to_owned(),
                host: Some(found.name.clone()),
                message: format!("{count} {what}: more than {ITEM_LIMIT} is no machine's facts"),
            });
        }
    }
    Ok(found)
}

fn read_any(file: &str, value: &serde_json::Value) -> Result<Found, ReadProblem> {
    let Some(object) = value.as_object() else {
        return Err(problem(
            file,
            "not a JSON object: neither Ansible's facts nor Ironic's inspection data".to_owned(),
        ));
    };
    if ironic::is_inspection(object) {
        ironic::read(file, object)
    } else if ansible::is_facts(object) {
        ansible::read(file, object)
    } else {
        Err(problem(
            file,
            "neither Ansible's facts (`ansible_facts`, or `ansible_*` keys) nor Ironic's inspection data (`inventory`)".to_owned(),
        ))
    }
}

/// A problem of the file as a whole.
pub fn problem(file: &str, message: String) -> ReadProblem {
    ReadProblem {
        file: file.to_owned(),
        host: None,
        message,
    }
}
