//! Reading the files the expression and role commands take.

use std::path::Path;

use mosaic_core::expr::JsonModels;
use mosaic_core::yaml;
use serde_json::Value;

/// Reads a YAML (or JSON) file into `T`; errors are `file:line:col: message`
/// or `mosaic: cannot read FILE: …`.
pub fn read_yaml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("mosaic: cannot read {}: {e}", path.display()))?;
    yaml::parse(&path.display().to_string(), &text).map_err(|e| e.to_string())
}

/// A models file: `{settings, cluster, release, version, networking_parameters}`,
/// each optional.
pub fn read_models(path: &Path) -> Result<JsonModels, String> {
    let value: Value = read_yaml::<Option<Value>>(path)?.unwrap_or(Value::Null);
    let map = match value {
        Value::Null => return Ok(JsonModels::default()),
        Value::Object(map) => map,
        _ => {
            return Err(format!(
                "{}: a models file maps settings, cluster, release, version and networking_parameters to their values",
                path.display()
            ));
        }
    };
    let mut models = JsonModels::default();
    for (key, value) in map {
        let slot = match key.as_str() {
            "settings" => &mut models.settings,
            "cluster" => &mut models.cluster,
            "release" => &mut models.release,
            "version" => &mut models.version,
            "networking_parameters" => &mut models.networking_parameters,
            other => {
                return Err(format!(
                    "{}: unknown model '{other}' (expected settings, cluster, release, version or networking_parameters)",
                    path.display()
                ));
            }
        };
        *slot = value;
    }
    Ok(models)
}
