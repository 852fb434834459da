//! A settings save as the API takes it (`PATCH …/attributes`): the patch
//! that turns saved settings into a draft, and the edits a patch asks for,
//! with every part of it that is not of the documented shape.

use serde::{Deserialize, Serialize};

use super::{Edits, Problem, Settings};

/// `PATCH /api/v1/clusters/{id}/attributes`: `{editable: {group: {attr:
/// {value}}, plugin: {metadata: {enabled}}}}`, partial, merged over what
/// is stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"editable": {"common": {"debug": {"value": true}}}})))]
pub struct PatchAttributes {
    pub editable: serde_json::Map<String, serde_json::Value>,
}

impl PatchAttributes {
    /// The patch that turns `saved` into `draft` (same tree): changed
    /// values as `{value}`, changed switches as `{metadata: {enabled}}`.
    pub fn between(saved: &Settings, draft: &Settings) -> PatchAttributes {
        let mut editable = serde_json::Map::new();
        for (group, changes) in draft.edits_from(saved) {
            let switch = draft.tree.group(&group).is_some_and(|g| g.meta.switchable);
            let mut out = serde_json::Map::new();
            for (key, value) in changes.as_object().into_iter().flatten() {
                let change = if switch && key == "enabled" {
                    (
                        "metadata".to_owned(),
                        serde_json::json!({ "enabled": value }),
                    )
                } else {
                    (key.clone(), serde_json::json!({ "value": value }))
                };
                out.insert(change.0, change.1);
            }
            editable.insert(group, serde_json::Value::Object(out));
        }
        PatchAttributes { editable }
    }

    /// The patch as edits (`{group: {attr: value, enabled: bool}}`), or what
    /// in it is not of the documented shape.
    pub fn edits(&self) -> Result<Edits, Vec<Problem>> {
        let mut edits = Edits::new();
        let mut problems = Vec::new();
        for (group, changes) in &self.editable {
            let Some(changes) = changes.as_object() else {
                problems.push(Problem::new(
                    group.clone(),
                    "must map attribute names to {value}",
                ));
                continue;
            };
            let mut out = serde_json::Map::new();
            for (attr, change) in changes {
                let path = format!("{group}.{attr}");
                match (attr.as_str(), change) {
                    ("metadata", serde_json::Value::Object(m))
                        if m.len() == 1 && m.contains_key("enabled") =>
                    {
                        out.insert("enabled".to_owned(), m["enabled"].clone());
                    }
                    ("metadata", _) => problems.push(Problem::new(
                        path,
                        "only {enabled: true|false} can be changed",
                    )),
                    (_, serde_json::Value::Object(m))
                        if m.len() == 1 && m.contains_key("value") =>
                    {
                        out.insert(attr.clone(), m["value"].clone());
                    }
                    _ => problems.push(Problem::new(path, "must be {value: …}")),
                }
            }
            edits.insert(group.clone(), serde_json::Value::Object(out));
        }
        if problems.is_empty() {
            Ok(edits)
        } else {
            Err(problems)
        }
    }
}
