//! Environments as every command on them names and prints them: by id or
//! by name (`environment_id`, asked of the server), and as table rows
//! whose release reads as core names releases (`print_envs`).

use mosaic_core::api::ReleasePlugin;
use serde_json::Value;

use super::client::{Client, Failure, print};
use super::{Format, print_json};

/// The id of environment `env`: a number as it is, otherwise the
/// environment of that name.
pub(super) fn environment_id(client: &Client, env: &str) -> Result<i64, Failure> {
    if let Ok(id) = env.parse() {
        return Ok(id);
    }
    let all = client.json("GET", "/api/v1/clusters", None)?;
    all.as_array()
        .into_iter()
        .flatten()
        .find(|e| e["name"] == env)
        .and_then(|e| e["id"].as_i64())
        .ok_or_else(|| Failure::Refused(format!("there is no environment named '{env}'")))
}

/// An environment's row in a table; `release` is its release's name and
/// version ([`print_envs`]).
const ENV_COLUMNS: &[&str] = &["id", "name", "release_id", "release", "mode", "components"];

/// Environments (one, or a list) as `print` prints them, each release
/// named as core names releases (name and version), so that two versions
/// of one release read apart; with `--format json`, the API's answer.
pub(super) fn print_envs(format: Format, answer: &Value) {
    if format == Format::Json {
        print_json(answer);
        return;
    }
    let mut rows = answer.clone();
    let all: Vec<&mut Value> = match &mut rows {
        Value::Array(items) => items.iter_mut().collect(),
        other => vec![other],
    };
    for env in all {
        let label = serde_json::from_value::<ReleasePlugin>(env["release"].clone())
            .map_or(Value::Null, |r| Value::from(r.label()));
        env["release"] = label;
    }
    print(format, &rows, ENV_COLUMNS);
}
