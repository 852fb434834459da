//! An environment's settings as the settings page shows them: the groups
//! in weight order, each with its switch, why it is restricted and its
//! problems, then each setting as its control (checkbox, text, password,
//! number, select, radio, list) with its description, why it is restricted
//! and its problems.
//!
//! The page writes the groups again after every change and merges them
//! into what is shown (`morph` in the app): every group and setting carries
//! `data-key`, and its tree index (`data-g`, `data-a`), which is how the
//! app knows what an input changed ([`crate::settings::Settings::enter`]).

use serde_json::Value;

use super::{Markup, plural};
use crate::settings::{
    AttrState, AttrType, Attribute, Evaluation, Group, Problem, Settings, control_disabled, text_of,
};

/// What the bar above the settings says, and the outcome of the last save.
#[derive(Debug, Clone, Copy)]
pub struct Bar<'a> {
    /// The user may change the settings (otherwise a note says why not).
    pub editable: bool,
    /// Settings changed since the last save.
    pub changes: usize,
    /// Problems the check finds in the changed settings.
    pub problems: usize,
    pub saving: bool,
    pub outcome: Option<Outcome<'a>>,
}

/// How the last save went.
#[derive(Debug, Clone, Copy)]
pub enum Outcome<'a> {
    Saved,
    /// The server refused it: its message, and every problem it found.
    Refused(&'a str, &'a [Problem]),
}

/// The count of unsaved changes and problems with Discard and Save
/// (`.settings-bar`), the outcome of the last save (`.settings-notice`),
/// and for a user who may not change them, a note (`[data-role-note]`).
pub fn bar(b: &Bar<'_>) -> Markup {
    let mut m = Markup::new();
    m.open("div")
        .classes(&[("settings-bar", true), ("hidden", !b.editable)]);
    m.open("span").attr("class", "muted");
    m.text(&match (b.changes, b.problems) {
        (0, _) => "No unsaved changes.".to_owned(),
        (n, 0) => format!("{n} unsaved change{}.", plural(n)),
        (n, p) => format!(
            "{n} unsaved change{}; {p} problem{} to fix.",
            plural(n),
            plural(p)
        ),
    });
    m.close("span")
        .open("button")
        .attr("class", "discard-settings");
    m.flag("disabled", b.changes == 0)
        .text("Discard")
        .close("button");
    m.open("button")
        .attr("class", "save-settings primary")
        .flag("disabled", b.changes == 0 || b.saving)
        .text(if b.saving { "Saving…" } else { "Save" })
        .close("button")
        .close("div");
    match b.outcome {
        Some(Outcome::Saved) => {
            m.open("div")
                .attr("class", "notice notice-ok settings-notice")
                .attr("role", "status")
                .text("Saved. Roles and the deployment preview follow the new settings.")
                .close("div");
        }
        Some(Outcome::Refused(message, problems)) => refused(&mut m, message, problems),
        None => {}
    }
    if !b.editable {
        m.open("p")
            .attr("class", "hint")
            .attr("data-role-note", "")
            .text("Your role can read the settings; an operator changes them.")
            .close("p");
    }
    m
}

/// A refused save: why, each problem by its `group.attr` path, and a way
/// back to what is saved.
fn refused(m: &mut Markup, message: &str, problems: &[Problem]) {
    m.open("div")
        .attr("class", "notice notice-error settings-notice")
        .attr("role", "alert");
    m.leaf(
        "p",
        &match problems.len() {
            0 => format!("Not saved: {message}"),
            1 => "Not saved: the server found a problem.".to_owned(),
            n => format!("Not saved: the server found {n} problems."),
        },
    );
    m.open("ul");
    for p in problems {
        m.leaf("li", &format!("{}: {}", p.path, p.message));
    }
    m.close("ul")
        .open("button")
        .attr("class", "reload-settings");
    m.text("Reload the saved settings")
        .close("button")
        .close("div");
}

/// Every group of `settings`, as `evaluation` (their check) finds them.
pub fn groups(settings: &Settings, evaluation: &Evaluation) -> Markup {
    let mut m = Markup::new();
    for g in settings.tree.display_order() {
        group(&mut m, settings, evaluation, g);
    }
    m
}

fn group(m: &mut Markup, settings: &Settings, evaluation: &Evaluation, g: usize) {
    let group = &settings.tree.groups[g];
    let state = &evaluation.groups[g].restricted;
    let on = group.meta.enabled != Some(false);
    m.open("fieldset")
        .classes(&[
            ("settings-group", true),
            ("hidden", state.hidden),
            ("off", !on),
        ])
        .attr("data-group", &group.name)
        .attr("data-key", &group.name)
        .num("data-g", g);
    m.open("legend").text(&group.meta.label);
    if group.meta.switchable {
        m.text(" ")
            .open("label")
            .attr("class", "switch")
            .attr("data-switch", &group.name);
        m.open("input")
            .attr("type", "checkbox")
            .flag("checked", on)
            .text(if group.meta.plugin.is_some() {
                "Use this plugin"
            } else {
                "Enabled"
            });
        m.close("label");
    }
    m.close("legend");
    reason(m, state.message.as_deref());
    problems(m, evaluation, &format!("{}.enabled", group.name));
    let locked = settings.locked(g, evaluation);
    for (a, attr) in group.attributes.iter().enumerate() {
        if attr.kind != AttrType::Other("hidden".to_owned()) {
            let state = &evaluation.groups[g].attributes[a];
            setting(m, group, a, state, locked, evaluation);
        }
    }
    m.close("fieldset");
}

fn reason(m: &mut Markup, message: Option<&str>) {
    if let Some(message) = message {
        m.open("p")
            .attr("class", "setting-reason")
            .text(message)
            .close("p");
    }
}

/// The problems of `path`, each an alert.
fn problems(m: &mut Markup, evaluation: &Evaluation, path: &str) {
    m.open("ul").attr("class", "setting-problems");
    for p in evaluation.problems.iter().filter(|p| p.path == path) {
        m.open("li")
            .attr("class", "setting-problem")
            .attr("role", "alert");
        m.text(path).text(": ").text(&p.message).close("li");
    }
    m.close("ul");
}

fn setting(
    m: &mut Markup,
    group: &Group,
    a: usize,
    state: &AttrState,
    locked: bool,
    evaluation: &Evaluation,
) {
    let attr = &group.attributes[a];
    let path = format!("{}.{}", group.name, attr.name);
    m.open("div")
        .classes(&[
            ("setting", true),
            ("hidden", state.restricted.hidden),
            ("inline", attr.kind == AttrType::Checkbox),
        ])
        .attr("data-setting", &path)
        .attr("data-key", &path)
        .num("data-a", a);
    m.open("label")
        .attr("for", &path)
        .text(&attr.label)
        .close("label");
    m.open("div").attr("class", "control");
    let disabled = control_disabled(locked, state, &attr.value);
    control(m, attr, &path, state, disabled);
    m.close("div");
    if !attr.description().is_empty() {
        m.open("p")
            .attr("class", "setting-description")
            .text(attr.description())
            .close("p");
    }
    reason(m, state.restricted.message.as_deref());
    problems(m, evaluation, &path);
    m.close("div");
}

/// The control of `attr`; `path` is its id (a radio group's name).
fn control(m: &mut Markup, attr: &Attribute, path: &str, state: &AttrState, disabled: bool) {
    match &attr.kind {
        AttrType::Checkbox => {
            m.open("input")
                .attr("type", "checkbox")
                .attr("id", path)
                .flag("checked", attr.value == Value::Bool(true))
                .flag("disabled", disabled);
        }
        AttrType::Select => select(m, attr, path, state, disabled),
        AttrType::Radio => radios(m, attr, path, state, disabled),
        AttrType::Number | AttrType::Text | AttrType::Password => {
            let kind = match attr.kind {
                AttrType::Number => "number",
                AttrType::Password => "password",
                _ => "text",
            };
            m.open("input").attr("type", kind).attr("id", path);
            if state.generated {
                m.attr("placeholder", "generated at deployment");
            }
            m.attr("value", &text_of(&attr.value))
                .flag("disabled", disabled);
        }
        AttrType::Textarea | AttrType::TextList | AttrType::TextareaList => {
            m.open("textarea").attr("id", path).attr("rows", "3");
            if attr.kind != AttrType::Textarea {
                m.attr("placeholder", "one per line");
            }
            m.flag("disabled", disabled)
                .text(&text_of(&attr.value))
                .close("textarea");
        }
        AttrType::Other(kind) => {
            m.open("code")
                .attr("class", "muted")
                .attr(
                    "title",
                    &format!("a '{kind}' setting is changed through the API"),
                )
                .text(&attr.value.to_string())
                .close("code");
        }
    }
}

fn select(m: &mut Markup, attr: &Attribute, path: &str, state: &AttrState, disabled: bool) {
    m.open("select").attr("id", path).flag("disabled", disabled);
    for (i, choice) in attr.choices.iter().enumerate() {
        let choice_state = state.choices.get(i);
        m.open("option")
            .num("value", i)
            .flag("selected", attr.value == choice.data)
            .flag("disabled", choice_state.is_some_and(|c| c.blocked()));
        if let Some(why) = choice_state.and_then(|c| c.message.as_deref()) {
            m.attr("title", why);
        }
        m.text(&choice.label).close("option");
    }
    m.close("select");
}

fn radios(m: &mut Markup, attr: &Attribute, path: &str, state: &AttrState, disabled: bool) {
    for (i, choice) in attr.choices.iter().enumerate() {
        let blocked = state.choices.get(i).is_some_and(|c| c.blocked());
        m.open("label").attr("class", "choice").open("input");
        m.attr("type", "radio")
            .attr("name", path)
            .num("value", i)
            .flag("checked", attr.value == choice.data)
            .flag("disabled", disabled || blocked);
        m.text(&choice.label).close("label");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_counts_changes_and_problems_and_says_how_a_save_went() {
        let bar_of = |changes, problems, outcome| {
            bar(&Bar {
                editable: true,
                changes,
                problems,
                saving: false,
                outcome,
            })
            .into_string()
        };
        let clean = bar_of(0, 0, None);
        assert!(clean.contains("No unsaved changes."), "{clean}");
        assert!(
            clean.contains("<button class=\"discard-settings\" disabled=\"\">Discard</button>")
        );
        assert!(
            clean.contains("<button class=\"save-settings primary\" disabled=\"\">Save</button>")
        );
        assert!(!clean.contains("data-role-note"));
        assert!(bar_of(1, 0, None).contains(">1 unsaved change.<"));
        let both = bar_of(2, 1, Some(Outcome::Saved));
        assert!(both.contains(">2 unsaved changes; 1 problem to fix.<"));
        assert!(both.contains("<button class=\"save-settings primary\">Save</button>"));
        assert!(both.contains("settings-notice\" role=\"status\">Saved."));
        let problems = [Problem::new("access.user", "must not be empty")];
        let refused = bar_of(1, 0, Some(Outcome::Refused("no", &problems)));
        assert!(refused.contains("<p>Not saved: the server found a problem.</p><ul><li>access.user: must not be empty</li></ul>"));
        assert!(
            bar_of(1, 0, Some(Outcome::Refused("busy", &[]))).contains("<p>Not saved: busy</p>")
        );
        let viewer = bar(&Bar {
            editable: false,
            changes: 0,
            problems: 0,
            saving: false,
            outcome: None,
        })
        .into_string();
        assert!(viewer.starts_with("<div class=\"settings-bar hidden\">"));
        assert!(viewer.ends_with(
            "data-role-note=\"\">Your role can read the settings; an operator changes them.</p>"
        ));
    }
    use crate::settings::Context;
    use serde_json::json;

    fn settings() -> Settings {
        Settings::from_editable(&json!({
            "common": {
                "metadata": {"label": "Common", "weight": 10},
                "debug": {"type": "checkbox", "value": false, "label": "Debug",
                          "description": "More logs"},
                "level": {"type": "select", "value": "info", "label": "Level",
                          "values": [{"data": "info", "label": "Info"},
                                     {"data": "trace", "label": "Trace",
                                      "restrictions": [{"settings:common.debug.value == false": "needs debug"}]}]},
                "workers": {"type": "number", "value": 4, "label": "Workers", "min": 1},
                "dns": {"type": "text_list", "value": ["8.8.8.8", "1.1.1.1"], "label": "DNS"},
                "secret": {"type": "hidden", "value": "x", "label": "Secret"}
            },
            "lbaas": {
                "metadata": {"label": "LBaaS plugin", "weight": 20, "toggleable": true,
                             "enabled": false, "plugin_id": 3, "class": "plugin"},
                "port": {"type": "text", "value": "", "label": "Port", "regex": {"source": "^[0-9]+$", "error": "a port"}}
            }
        }))
        .unwrap()
    }

    fn html(settings: &Settings) -> String {
        let evaluation = settings.check(&Context::default());
        groups(settings, &evaluation).into_string()
    }

    #[test]
    fn each_setting_is_its_control_with_its_description_and_tree_index() {
        let html = html(&settings());
        assert!(html.starts_with(r#"<fieldset class="settings-group" data-group="common" data-key="common" data-g="0"><legend>Common</legend><ul class="setting-problems"></ul>"#), "{html}");
        assert!(html.contains(r#"<div class="setting inline" data-setting="common.debug" data-key="common.debug" data-a="0"><label for="common.debug">Debug</label><div class="control"><input type="checkbox" id="common.debug"></div><p class="setting-description">More logs</p>"#), "{html}");
        assert!(html.contains(r#"<select id="common.level"><option value="0" selected="">Info</option><option value="1" disabled="" title="needs debug.">Trace</option></select>"#), "{html}");
        assert!(html.contains(r#"<input type="number" id="common.workers" value="4">"#));
        assert!(html.contains("<textarea id=\"common.dns\" rows=\"3\" placeholder=\"one per line\">8.8.8.8\n1.1.1.1</textarea>"));
        assert!(!html.contains("secret"), "hidden settings are not shown");
    }

    #[test]
    fn a_switched_off_group_locks_its_controls_and_problems_show_inline() {
        let mut s = settings();
        let before = html(&s);
        assert!(before.contains(r#"<fieldset class="settings-group off" data-group="lbaas""#));
        assert!(before.contains(r#"<label class="switch" data-switch="lbaas"><input type="checkbox">Use this plugin</label>"#), "{before}");
        assert!(before.contains(r#"<input type="text" id="lbaas.port" value="" disabled="">"#));
        s.switch(1, true);
        s.enter(1, 0, crate::settings::Input::Text("http".into()));
        let after = html(&s);
        assert!(
            after.contains(r#"<input type="text" id="lbaas.port" value="http">"#),
            "{after}"
        );
        assert!(
            after.contains(r#"<li class="setting-problem" role="alert">lbaas.port: a port</li>"#),
            "{after}"
        );
    }
}
