//! Settings the components decide (SEMANTICS §9.1): a setting a chosen
//! component's `bind` sets, and the switch of a plugin one of whose
//! components is chosen, belong to the selection. An edit may not give them
//! another value; the way to change them is to change the components.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Environment;
use crate::component::{BindModel, ComponentName, validate_selection};
use crate::settings::{Edits, Problem, bind_key};
use crate::wizard::Pane;

/// A setting (`group.attr`) or a plugin's switch (`plugin.enabled`) that a
/// chosen component decides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Bound {
    pub path: String,
    /// The value the selection gives it.
    pub value: Value,
    pub component: ComponentName,
    /// The component's label and the wizard pane it is chosen in.
    pub label: String,
    pub pane: String,
}

impl Bound {
    /// Why it cannot be edited, as the Settings page and a refusal say it.
    pub fn sentence(&self) -> String {
        format!(
            "Set by the choice of '{}' in {}; change the environment's components to change it.",
            self.label, self.pane
        )
    }
}

impl Environment<'_> {
    /// Every setting and plugin switch the selection decides, by path. A
    /// setting some component binds is decided by the selection either way:
    /// by the last chosen component that binds it (binds apply in registry
    /// order), else it keeps its default, and the first component that
    /// would bind it is the one to choose. A switch (a plugin's, or a
    /// group's) is bound only while a component that sets it is chosen.
    pub fn bound(&self) -> Vec<Bound> {
        let registry = self.registry();
        let mut out: Vec<Bound> = Vec::new();
        for chosen in [true, false] {
            for i in (0..registry.len()).filter(|&i| self.selected[i] == chosen) {
                for (path, value) in self.binds_of(i) {
                    let known = out.iter().position(|b| b.path == path);
                    let value = match chosen {
                        true => value,
                        // A switch is bound only while its component is chosen.
                        false if known.is_some() || path.ends_with(".enabled") => continue,
                        false => match self.default_of(&path) {
                            Some(default) => default,
                            None => continue,
                        },
                    };
                    if let Some(at) = known {
                        out.remove(at);
                    }
                    out.push(self.bound_by(i, path, value));
                }
            }
        }
        out
    }

    /// The settings paths component `i` sets (`group.attr`,
    /// `group.enabled`), with values, its plugins' switches included.
    fn binds_of(&self, i: usize) -> Vec<(String, Value)> {
        let component = self.registry().get(i);
        let mut out = Vec::new();
        for b in component
            .bind
            .iter()
            .filter(|b| b.model == BindModel::Settings)
        {
            if let Some((group, attr)) = bind_key(b.path()) {
                out.push((format!("{group}.{attr}"), b.value.clone()));
            }
        }
        if self.selected[i] {
            for plugin in self.plugins.iter().filter(|p| provides(p, &component.name)) {
                out.push((format!("{}.enabled", plugin.name), Value::Bool(true)));
            }
        }
        out
    }

    /// A setting's value before any bind: the release's or plugin's default.
    fn default_of(&self, path: &str) -> Option<Value> {
        let (group, attr) = path.split_once('.')?;
        let defaults = &self.foundation.settings;
        match attr {
            "enabled" => defaults.enabled(group).map(Value::Bool),
            _ => defaults.value(group, attr).cloned(),
        }
    }

    fn bound_by(&self, i: usize, path: String, value: Value) -> Bound {
        let component = self.registry().get(i);
        let pane = Pane::ALL
            .into_iter()
            .find(|p| p.component_type() == component.name.kind())
            .map_or("the components", Pane::title);
        Bound {
            path,
            value,
            component: component.name.clone(),
            label: self.registry().label(i).to_owned(),
            pane: pane.to_owned(),
        }
    }

    /// What is wrong with `edits` (`{group: {attr: value, enabled: bool}}`)
    /// before they are applied: a bound setting given another value, a
    /// plugin switched on while its components conflict with the selection.
    pub fn refused_edits(&self, edits: &Edits) -> Vec<Problem> {
        let bound = self.bound();
        let mut problems = Vec::new();
        for (group, changes) in edits {
            for (attr, value) in changes.as_object().into_iter().flatten() {
                let path = format!("{group}.{attr}");
                match bound.iter().find(|b| b.path == path) {
                    Some(b) if b.value != *value => problems.push(Problem::new(path, b.sentence())),
                    Some(_) => {}
                    None if attr == "enabled" && value == &Value::Bool(true) => {
                        problems.extend(self.conflicting_plugin(group, &path));
                    }
                    None => {}
                }
            }
        }
        problems
    }

    /// Everything wrong with saving the change `edits`, which gives
    /// `after`: what the components decide first (it is changed with the
    /// components), then every other problem of the result, one per path.
    pub fn save_problems(&self, edits: &Edits, after: &Environment<'_>) -> Vec<Problem> {
        let mut problems = self.refused_edits(edits);
        // The change's own edits must name settings that exist.
        let named = after.settings().clone().apply_edits(edits);
        for problem in named.into_iter().chain(after.evaluation().problems) {
            if !problems.iter().any(|p| p.path == problem.path) {
                problems.push(problem);
            }
        }
        problems
    }

    /// Every problem of the settings as they are: edits that contradict
    /// what the components decide (an environment file can say anything),
    /// then every other problem, one per path.
    pub fn settings_problems(&self) -> Vec<Problem> {
        self.save_problems(&self.spec.edits, self)
    }

    /// Switching on plugin `name` by hand: refused when none of its
    /// components could join the selection (the validator's reasons).
    fn conflicting_plugin(&self, name: &str, path: &str) -> Option<Problem> {
        let plugin = self.plugins.iter().find(|p| p.name.as_str() == name)?;
        if plugin.components_metadata.is_empty() {
            return None;
        }
        let chosen: Vec<String> = self
            .selected_names()
            .iter()
            .map(ToString::to_string)
            .collect();
        let mut reasons: Vec<String> = Vec::new();
        for component in &plugin.components_metadata {
            let mut names = chosen.clone();
            names.push(component.name.to_string());
            let violations = validate_selection(
                self.registry(),
                &self.release.required_component_types,
                &names,
            );
            let theirs: Vec<String> = violations
                .into_iter()
                .filter(|v| {
                    v.components
                        .iter()
                        .any(|c| *c == component.name.to_string())
                })
                .map(|v| v.message)
                .collect();
            if theirs.is_empty() {
                return None;
            }
            reasons.extend(theirs);
        }
        Some(Problem::new(
            path,
            format!(
                "The plugin's components conflict with the environment's: {}",
                reasons.join("; ")
            ),
        ))
    }
}

/// Whether `plugin` declares `component`.
fn provides(plugin: &crate::plugin::Package, component: &ComponentName) -> bool {
    plugin
        .components_metadata
        .iter()
        .any(|c| c.name == *component)
}
