//! What the settings page says besides the controls (`entry.rs`): how many
//! unsaved changes and problems there are, why a save was refused, which
//! settings are shown and what a group's switch is called.

use super::check::Evaluation;
use super::tree::{AttrType, Attribute, Group};
use super::{Problem, Settings};
use crate::text::plural;

impl Settings {
    /// How many values and switches differ from `base` (same tree): the
    /// changes a save would send.
    pub fn changes_from(&self, base: &Settings) -> usize {
        self.edits_from(base)
            .values()
            .filter_map(|g| g.as_object())
            .map(|g| g.len())
            .sum()
    }
}

/// The unsaved changes and the problems to fix before they can be saved.
pub fn unsaved(changes: usize, problems: usize) -> String {
    match (changes, problems) {
        (0, _) => "No unsaved changes.".to_owned(),
        (n, 0) => format!("{n} unsaved change{}.", plural(n)),
        (n, p) => format!(
            "{n} unsaved change{}; {p} problem{} to fix.",
            plural(n),
            plural(p)
        ),
    }
}

/// Why a save was refused: the server's message, or how many problems it
/// found (listed after, each by its `group.attr`).
pub fn refused(message: &str, problems: &[Problem]) -> String {
    match problems.len() {
        0 => format!("Not saved: {message}"),
        1 => "Not saved: the server found a problem.".to_owned(),
        n => format!("Not saved: the server found {n} problems."),
    }
}

/// Whether the page shows `attr` (a `hidden` setting is only the API's).
pub fn shown(attr: &Attribute) -> bool {
    attr.kind != AttrType::Other("hidden".to_owned())
}

/// What a group's on/off switch says: a plugin's group switches the plugin.
pub fn switch_label(group: &Group) -> &'static str {
    if group.meta.plugin.is_some() {
        "Use this plugin"
    } else {
        "Enabled"
    }
}

/// The problems `evaluation` found at `path` (`group.attr`, or
/// `group.enabled` for a group's switch).
pub fn problems_at<'a>(
    evaluation: &'a Evaluation,
    path: &'a str,
) -> impl Iterator<Item = &'a Problem> + 'a {
    evaluation.problems.iter().filter(move |p| p.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Context, Input};
    use serde_json::json;

    #[test]
    fn the_bar_counts_changes_and_problems_and_says_why_a_save_was_refused() {
        assert_eq!(unsaved(0, 3), "No unsaved changes.");
        assert_eq!(unsaved(1, 0), "1 unsaved change.");
        assert_eq!(unsaved(2, 1), "2 unsaved changes; 1 problem to fix.");
        let problems = [Problem::new("access.user", "must not be empty")];
        assert_eq!(
            refused("no", &problems),
            "Not saved: the server found a problem."
        );
        assert_eq!(refused("busy", &[]), "Not saved: busy");
        let two = [problems[0].clone(), problems[0].clone()];
        assert_eq!(
            refused("no", &two),
            "Not saved: the server found 2 problems."
        );
    }

    fn settings() -> Settings {
        Settings::from_editable(&json!({
            "common": {
                "metadata": {"label": "Common", "weight": 10},
                "debug": {"type": "checkbox", "value": false, "label": "Debug"},
                "secret": {"type": "hidden", "value": "x", "label": "Secret"}
            },
            "lbaas": {
                "metadata": {"label": "LBaaS plugin", "weight": 20, "toggleable": true,
                             "enabled": false, "plugin_id": 3, "class": "plugin"},
                "port": {"type": "text", "value": "", "label": "Port",
                         "regex": {"source": "^[0-9]+$", "error": "a port"}}
            }
        }))
        .unwrap()
    }

    #[test]
    fn changes_count_values_and_switches_and_problems_are_found_by_path() {
        let saved = settings();
        let mut draft = saved.clone();
        assert_eq!(draft.changes_from(&saved), 0);
        draft.switch(1, true);
        draft.enter(1, 0, Input::Text("http".into()));
        draft.enter(0, 0, Input::Checked(true));
        assert_eq!(draft.changes_from(&saved), 3);
        let evaluation = draft.check(&Context::default());
        let found: Vec<_> = problems_at(&evaluation, "lbaas.port")
            .map(|p| p.message.as_str())
            .collect();
        assert_eq!(found, ["a port"]);
        assert_eq!(problems_at(&evaluation, "common.debug").count(), 0);
    }

    #[test]
    fn hidden_settings_are_not_shown_and_a_plugins_switch_says_so() {
        let s = settings();
        let common = &s.tree.groups[0];
        assert!(shown(&common.attributes[0]));
        assert!(
            !shown(&common.attributes[1]),
            "hidden settings are the API's"
        );
        assert_eq!(switch_label(&s.tree.groups[1]), "Use this plugin");
        assert_eq!(switch_label(common), "Enabled");
    }
}
