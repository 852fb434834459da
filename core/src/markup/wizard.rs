//! The wizard's options, each a row with what the engine says of it, and
//! its last step: the environment's name and what was chosen, pane by pane.

use super::{Markup, class_list};
use crate::api::ReleaseSummary;
use crate::component::{
    Advice, Blocking, Compatibility, ComponentReport, Reason, Registry, Repair, State, Violation,
};
use crate::wizard::Pane;

/// One option as it is shown now.
#[derive(Debug, Clone, Copy)]
pub struct OptionView<'a> {
    pub registry: &'a Registry,
    /// Its place in the registry.
    pub i: usize,
    /// The plugin that provides it, if not the release.
    pub plugin: Option<&'a str>,
    /// The radio group it belongs to (`Layout::radio_group`); a checkbox
    /// when none.
    pub radio_group: Option<&'a str>,
    /// An ML2 driver under the ML2 core.
    pub nested: bool,
    /// The engine's report (a blocked option's reasons and repair, and the
    /// advice, come apart).
    pub report: &'a ComponentReport,
    /// Why it is blocked and its smallest repair, worked out while it is
    /// blocked and near the screen.
    pub blocking: Option<&'a Blocking>,
    /// Whether it was tested with the other choices, worked out while it is
    /// selected or available and near the screen.
    pub advice: Option<&'a Advice>,
    /// The operator opened its "not tested with" list: the list is written
    /// out (only then: it changes with every choice).
    pub open: bool,
}

/// What of an option's row changes with the selection, each part as the
/// row shows it: [`option`] writes the row from it, and the app, once the
/// row is shown, changes only the parts that differ (a click changes the
/// count of untested choices of dozens of rows: writing and parsing each
/// row again would cost more than the click's evaluation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionParts {
    /// The row's `class`.
    pub class: String,
    /// `data-state`: `selected`, `available`, `blocked`, `dead`.
    pub state: &'static str,
    pub checked: bool,
    pub disabled: bool,
    /// "● tested" is shown.
    pub tested: bool,
    /// "not tested with N choices", empty when there are none.
    pub untested: String,
    /// The untested choices as `<li>` items, while the list is open.
    pub list: Markup,
    /// Why it cannot be picked, empty while it can.
    pub reasons: String,
    /// "Fix: select …, deselect …", empty without a repair.
    pub fix: String,
}

impl OptionView<'_> {
    /// Why it cannot be picked: the report's reasons (a dead option's),
    /// else those worked out with its repair; none until they are.
    fn reasons(&self) -> &[Reason] {
        match self.blocking {
            Some(blocking) if self.report.reasons.is_empty() => &blocking.reasons,
            _ => &self.report.reasons,
        }
    }

    pub fn parts(&self) -> OptionParts {
        let state = self.report.state;
        let unavailable = state.unavailable();
        let compatible =
            self.advice.and_then(|a| a.compatibility) == Some(Compatibility::Compatible);
        let untested = untested(self.advice);
        let mut list = Markup::new();
        if self.open {
            for name in untested {
                list.leaf("li", label_of(self.registry, name));
            }
        }
        OptionParts {
            class: class_list(&[
                ("option", true),
                ("nested", self.nested),
                ("unavailable", unavailable),
            ]),
            state: state.as_str(),
            checked: state == State::Selected,
            disabled: unavailable,
            tested: compatible && state == State::Selected,
            untested: match untested.len() {
                0 => String::new(),
                n => format!("not tested with {}", choices(n)),
            },
            list,
            reasons: if unavailable {
                reasons_text(self.reasons())
            } else {
                String::new()
            },
            fix: self
                .blocking
                .map(|b| repair_text(self.registry, &b.repair))
                .unwrap_or_default(),
        }
    }
}

/// An option's row (`.option`, `data-component`, `data-state`): its
/// checkbox or radio button, label, plugin and description; a green light
/// when tested with the other choices or the choices it was not tested
/// with; why it cannot be picked and the Fix that would make it available.
/// Each element whose content changes has a class the app finds it by;
/// `p` is what [`OptionView::parts`] says of it.
pub fn option(v: &OptionView<'_>, p: &OptionParts) -> Markup {
    let c = v.registry.get(v.i);
    let name = c.name.as_str();
    let id = format!("option-{}", name.replace(':', "-"));
    let mut m = Markup::new();
    m.open("div")
        .attr("class", &p.class)
        .attr("data-component", name)
        .attr("data-state", p.state);
    m.open("input").attr("id", &id);
    m.attr(
        "type",
        if v.radio_group.is_some() {
            "radio"
        } else {
            "checkbox"
        },
    );
    if let Some(group) = v.radio_group {
        m.attr("name", group);
    }
    m.attr("value", name)
        .flag("checked", p.checked)
        .flag("disabled", p.disabled);
    m.open("span").attr("class", "head");
    m.open("label").attr("class", "label").attr("for", &id);
    m.text(c.display_label()).close("label");
    if let Some(plugin) = v.plugin {
        m.open("span").attr("class", "source");
        m.text(&format!("from plugin {plugin}")).close("span");
    }
    m.open("span")
        .classes(&[("tested", true), ("hidden", !p.tested)])
        .attr("data-advice", "tested")
        .attr("title", "Tested with your other choices")
        .text("● tested")
        .close("span");
    m.open("details")
        .classes(&[("untested", true), ("hidden", p.untested.is_empty())])
        .attr("data-advice", "untested")
        .flag("open", !p.list.is_empty());
    m.leaf("summary", &p.untested);
    m.open("ul").append(p.list.clone()).close("ul");
    m.close("details").close("span");
    m.open("span").attr("class", "description");
    m.text(&c.description).close("span");
    m.open("span")
        .classes(&[("reason", true), ("hidden", p.reasons.is_empty())])
        .attr("role", "note");
    m.open("span").attr("class", "reason-text");
    m.text(&p.reasons).close("span");
    m.open("button")
        .attr("type", "button")
        .classes(&[("fix", true), ("hidden", p.fix.is_empty())])
        .text(&p.fix)
        .close("button");
    m.close("span").close("div");
    m
}

/// The choices it was not tested with, if any.
fn untested(advice: Option<&Advice>) -> &[String] {
    match advice {
        Some(Advice {
            compatibility: Some(Compatibility::Untested),
            untested_with,
        }) => untested_with,
        _ => &[],
    }
}

/// The reasons as one sentence list; empty without any.
fn reasons_text(reasons: &[Reason]) -> String {
    if reasons.is_empty() {
        return String::new();
    }
    let messages: Vec<&str> = reasons
        .iter()
        .map(|reason| reason.message.trim_end_matches('.'))
        .collect();
    messages.join("; ") + "."
}

/// "Fix: select vCenter, deselect KVM".
fn repair_text(registry: &Registry, repair: &Repair) -> String {
    let labels = |names: &[String]| -> String {
        let labels: Vec<&str> = names.iter().map(|n| label_of(registry, n)).collect();
        labels.join(", ")
    };
    let mut parts = Vec::new();
    if !repair.select.is_empty() {
        parts.push(format!("select {}", labels(&repair.select)));
    }
    if !repair.deselect.is_empty() {
        parts.push(format!("deselect {}", labels(&repair.deselect)));
    }
    format!("Fix: {}", parts.join(", "))
}

/// The label operators know a component by; its name when it is not in
/// the registry.
fn label_of<'a>(registry: &'a Registry, name: &'a str) -> &'a str {
    registry.position(name).map_or(name, |i| registry.label(i))
}

/// "1 choice", "3 choices".
fn choices(n: usize) -> String {
    format!("{n} choice{}", super::plural(n))
}

/// The first step: the environment's name (`#environment-name`) and its
/// release (`#release`), with a link to the release's compatibility
/// matrix (`matrix` gives the path of a release's matrix page).
pub fn name_step(
    name: &str,
    releases: &[ReleaseSummary],
    release_id: i64,
    matrix: &dyn Fn(i64) -> String,
) -> Markup {
    let mut m = Markup::new();
    m.open("label").attr("class", "field").leaf("span", "Name");
    m.open("input")
        .attr("id", "environment-name")
        .attr("type", "text")
        .attr("placeholder", "e.g. production-east")
        .attr("value", name)
        .close("label");
    m.open("label")
        .attr("class", "field")
        .leaf("span", "OpenStack release");
    m.open("select").attr("id", "release");
    for r in releases {
        m.open("option")
            .num_i64("value", r.id)
            .flag("selected", r.id == release_id)
            .text(&format!("{} ({})", r.name, r.version))
            .close("option");
    }
    m.close("select").close("label");
    m.open("p").attr("class", "hint").open("a");
    m.attr("href", &matrix(release_id))
        .attr("class", "matrix-link")
        .text("What can be combined: the release's compatibility matrix")
        .close("a")
        .close("p");
    m
}

/// What the step shown says and offers below it.
#[derive(Debug, Clone, Copy)]
pub struct Controls<'a> {
    /// The step shown, from 0 (name and release) to `last`.
    pub step: usize,
    pub last: usize,
    /// What keeps the operator on this step, if anything.
    pub problem: Option<&'a str>,
    /// What the last change did besides what was clicked.
    pub notices: &'a [String],
}

/// The notices of the last change (`[data-notices]`), then Back (`#back`),
/// what keeps the operator on the step, and Next (`#next`, hidden on the
/// last step).
pub fn controls(c: &Controls<'_>) -> Markup {
    let mut m = Markup::new();
    if !c.notices.is_empty() {
        m.open("div")
            .attr("class", "notice notice-warn")
            .attr("role", "status")
            .attr("data-notices", "");
        for notice in c.notices {
            m.leaf("p", notice);
        }
        m.close("div");
    }
    m.open("div").attr("class", "actions").open("button");
    m.attr("id", "back")
        .attr("type", "button")
        .flag("disabled", c.step == 0)
        .text("Back")
        .close("button");
    m.open("span")
        .attr("class", "hint")
        .attr("role", "status")
        .text(c.problem.unwrap_or_default())
        .close("span");
    m.open("button")
        .attr("id", "next")
        .attr("type", "button")
        .classes(&[("primary", true), ("hidden", c.step >= c.last)])
        .flag("disabled", c.problem.is_some())
        .text("Next")
        .close("button");
    m.close("div");
    m
}

/// What the last step shows.
#[derive(Debug, Clone, Copy)]
pub struct Finish<'a> {
    pub name: &'a str,
    pub registry: &'a Registry,
    pub selection: &'a [bool],
    /// What makes the selection invalid, if anything.
    pub violations: &'a [Violation],
    /// The environment is being created.
    pub creating: bool,
    /// Why the last try failed: the message and its details.
    pub failure: Option<(&'a str, &'a [&'a str])>,
}

/// The last step: what was chosen (`.summary`), what keeps it from being
/// created, a failed try with Try again, and Create (`#create`), which
/// needs a name and a valid selection.
pub fn finish(f: &Finish<'_>) -> Markup {
    let mut m = Markup::new();
    m.open("dl").attr("class", "summary");
    m.append(summary(f.name, f.registry, f.selection));
    m.close("dl");
    if !f.violations.is_empty() {
        m.open("div")
            .attr("class", "notice notice-error")
            .attr("role", "alert");
        m.leaf("p", "This combination cannot be created:")
            .open("ul");
        m.append(items(f.violations.iter().map(|v| v.message.as_str())));
        m.close("ul").close("div");
    }
    if let Some((message, details)) = f.failure {
        m.retry(message, details, false);
    }
    let blocked = f.creating || !f.violations.is_empty() || f.name.trim().is_empty();
    m.open("button")
        .attr("id", "create")
        .attr("type", "button")
        .attr("class", "primary")
        .flag("disabled", blocked);
    m.text(if f.creating {
        "Creating…"
    } else {
        "Create environment"
    });
    m.close("button");
    m
}

/// The content of the summary's `<dl>`: the name, then each pane's title
/// and the labels of its selected components ("—" for none).
pub fn summary(name: &str, registry: &Registry, selection: &[bool]) -> Markup {
    let mut m = Markup::new();
    m.leaf("dt", "Name").leaf("dd", name);
    for pane in Pane::ALL {
        let labels: Vec<&str> = (0..selection.len())
            .filter(|&i| selection[i] && registry.get(i).kind() == pane.component_type())
            .map(|i| registry.label(i))
            .collect();
        m.leaf("dt", pane.title());
        m.leaf(
            "dd",
            &if labels.is_empty() {
                "—".to_owned()
            } else {
                labels.join(", ")
            },
        );
    }
    m
}

/// `<li>` items, one per text.
pub fn items<'a>(texts: impl IntoIterator<Item = &'a str>) -> Markup {
    let mut m = Markup::new();
    for text in texts {
        m.leaf("li", text);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_names_each_panes_choices() {
        let registry = crate::component::test_registry(
            "- {name: 'hypervisor:libvirt:kvm', label: KVM}\n\
             - {name: 'hypervisor:vmware', label: vCenter}\n\
             - {name: 'network:neutron:core:ml2', label: ML2 <core>}\n",
        );
        let html = summary("lab", &registry, &[true, true, false]).into_string();
        assert!(
            html.starts_with("<dt>Name</dt><dd>lab</dd><dt>Compute</dt><dd>KVM, vCenter</dd>"),
            "{html}"
        );
        assert!(html.contains("<dd>—</dd>"));
        assert!(!html.contains("ML2"));
        assert_eq!(items(["a <b>"]).into_string(), "<li>a &lt;b&gt;</li>");
    }

    #[test]
    fn create_needs_a_name_and_a_valid_selection() {
        let registry = crate::component::test_registry(OPTIONS);
        let finish_with = |name: &str, violations: &[Violation], creating: bool| {
            finish(&Finish {
                name,
                registry: &registry,
                selection: &[true, false, false],
                violations,
                creating,
                failure: None,
            })
            .into_string()
        };
        let ready = finish_with("lab", &[], false);
        assert!(
            ready.starts_with("<dl class=\"summary\"><dt>Name</dt><dd>lab</dd>"),
            "{ready}"
        );
        assert!(ready.ends_with(
            "<button id=\"create\" type=\"button\" class=\"primary\">Create environment</button>"
        ));
        assert!(finish_with(" ", &[], false).contains("disabled=\"\">Create environment"));
        assert!(finish_with("lab", &[], true).contains("disabled=\"\">Creating…"));
        let violation = Violation {
            kind: crate::component::ViolationKind::RequiredType,
            components: Vec::new(),
            message: "Pick a hypervisor.".to_owned(),
        };
        let invalid = finish_with("lab", &[violation], false);
        assert!(invalid.contains(
            "<p>This combination cannot be created:</p><ul><li>Pick a hypervisor.</li></ul>"
        ));
        assert!(invalid.contains("disabled=\"\">Create environment"));
        let failed = finish(&Finish {
            name: "lab",
            registry: &registry,
            selection: &[true, false, false],
            violations: &[],
            creating: false,
            failure: Some(("Cannot reach the server.", &[])),
        })
        .into_string();
        assert!(failed.contains("data-retry=\"\"><p>Cannot reach the server.</p>"));
    }

    #[test]
    fn the_name_step_selects_the_release_and_links_its_matrix() {
        let release = |id: i64, name: &str| ReleaseSummary {
            id,
            name: name.to_owned(),
            version: "2024.1".to_owned(),
            operating_system: "Ubuntu".to_owned(),
            state: "available".to_owned(),
            description: String::new(),
            required_component_types: Vec::new(),
        };
        let matrix = |id: i64| format!("/releases/{id}/matrix");
        let html = name_step(
            "lab <1>",
            &[release(1, "Caracal"), release(2, "Dalmatian")],
            2,
            &matrix,
        )
        .into_string();
        assert!(html.contains("id=\"environment-name\" type=\"text\" placeholder=\"e.g. production-east\" value=\"lab &lt;1&gt;\">"), "{html}");
        assert!(html.contains("<option value=\"1\">Caracal (2024.1)</option><option value=\"2\" selected=\"\">Dalmatian (2024.1)</option>"));
        assert!(html.contains("href=\"/releases/2/matrix\""));
    }

    #[test]
    fn controls_hold_the_notices_back_the_problem_and_next() {
        let notices = ["Selected KVM.".to_owned()];
        let first = controls(&Controls {
            step: 0,
            last: 5,
            problem: Some("Give the environment a name."),
            notices: &[],
        })
        .into_string();
        assert_eq!(
            first,
            "<div class=\"actions\"><button id=\"back\" type=\"button\" disabled=\"\">Back</button>\
             <span class=\"hint\" role=\"status\">Give the environment a name.</span>\
             <button id=\"next\" type=\"button\" class=\"primary\" disabled=\"\">Next</button></div>"
        );
        let last = controls(&Controls {
            step: 5,
            last: 5,
            problem: None,
            notices: &notices,
        })
        .into_string();
        assert!(last.starts_with("<div class=\"notice notice-warn\" role=\"status\" data-notices=\"\"><p>Selected KVM.</p></div>"));
        assert!(last.contains("<button id=\"back\" type=\"button\">Back</button>"));
        assert!(last.contains("class=\"primary hidden\">Next"));
    }

    const OPTIONS: &str = "- {name: 'hypervisor:libvirt:kvm', label: KVM}\n\
                           - {name: 'hypervisor:vmware', label: vCenter, description: 'VMware <vSphere>'}\n\
                           - {name: 'network:neutron:core:nsx', label: NSX}\n";

    fn report(name: &str, state: State, reasons: &[&str]) -> ComponentReport {
        let reasons = reasons.iter().map(|message| crate::component::Reason {
            kind: "incompatible".to_owned(),
            components: vec![name.to_owned()],
            message: (*message).to_owned(),
            pane: None,
        });
        ComponentReport {
            name: name.to_owned(),
            source: "release".to_owned(),
            state,
            reasons: reasons.collect(),
            repair: None,
            compatibility: None,
            untested_with: Vec::new(),
        }
    }

    /// The row as the app first writes it.
    fn row(v: &OptionView<'_>) -> Markup {
        option(v, &v.parts())
    }

    fn view<'a>(registry: &'a Registry, i: usize, report: &'a ComponentReport) -> OptionView<'a> {
        OptionView {
            registry,
            i,
            plugin: None,
            radio_group: None,
            nested: false,
            report,
            blocking: None,
            advice: None,
            open: false,
        }
    }

    #[test]
    fn a_blocked_option_says_why_and_offers_its_fix_by_label() {
        let registry = crate::component::test_registry(OPTIONS);
        let report = report(
            "hypervisor:vmware",
            State::Blocked,
            &["Not with KVM.", "Nor NSX"],
        );
        let repair = Repair {
            select: vec!["network:neutron:core:nsx".to_owned()],
            deselect: vec!["hypervisor:libvirt:kvm".to_owned(), "gone:x".to_owned()],
        };
        let blocking = Blocking {
            reasons: Vec::new(),
            repair,
        };
        let html = row(&OptionView {
            blocking: Some(&blocking),
            plugin: Some("vmware"),
            ..view(&registry, 1, &report)
        })
        .into_string();
        assert!(
            html.starts_with(
                "<div class=\"option unavailable\" data-component=\"hypervisor:vmware\" \
                 data-state=\"blocked\"><input id=\"option-hypervisor-vmware\" type=\"checkbox\" \
                 value=\"hypervisor:vmware\" disabled=\"\">"
            ),
            "{html}"
        );
        assert!(
            html.contains(
                "<label class=\"label\" for=\"option-hypervisor-vmware\">vCenter</label>"
            )
        );
        assert!(html.contains("<span class=\"source\">from plugin vmware</span>"));
        assert!(html.contains("VMware &lt;vSphere&gt;"));
        assert!(html.contains("<span class=\"reason\" role=\"note\"><span class=\"reason-text\">Not with KVM; Nor NSX.</span>"));
        assert!(
            html.contains(">Fix: select NSX, deselect KVM, gone:x</button>"),
            "{html}"
        );
        let fixless = row(&view(&registry, 1, &report)).into_string();
        assert!(fixless.contains("<button type=\"button\" class=\"fix hidden\"></button>"));
    }

    #[test]
    fn a_blocked_option_far_from_the_screen_says_why_once_worked_out() {
        let registry = crate::component::test_registry(OPTIONS);
        // As the states-only evaluation reports it: no reasons of its own.
        let states = report("hypervisor:vmware", State::Blocked, &[]);
        let far = view(&registry, 1, &states).parts();
        assert_eq!((far.state, far.disabled), ("blocked", true));
        assert_eq!((far.reasons.as_str(), far.fix.as_str()), ("", ""));
        let blocking = Blocking {
            reasons: report("hypervisor:vmware", State::Blocked, &["Not with KVM"]).reasons,
            repair: Repair {
                select: Vec::new(),
                deselect: vec!["hypervisor:libvirt:kvm".to_owned()],
            },
        };
        let near = OptionView {
            blocking: Some(&blocking),
            ..view(&registry, 1, &states)
        }
        .parts();
        assert_eq!(near.reasons, "Not with KVM.");
        assert_eq!(near.fix, "Fix: deselect KVM");
    }

    #[test]
    fn advice_is_a_green_light_or_the_untested_choices_listed_while_open() {
        let registry = crate::component::test_registry(OPTIONS);
        let selected = report("hypervisor:libvirt:kvm", State::Selected, &[]);
        let tested = Advice {
            compatibility: Some(Compatibility::Compatible),
            untested_with: Vec::new(),
        };
        let html = row(&OptionView {
            advice: Some(&tested),
            radio_group: Some("hv"),
            ..view(&registry, 0, &selected)
        })
        .into_string();
        assert!(
            html.contains(
                "type=\"radio\" name=\"hv\" value=\"hypervisor:libvirt:kvm\" checked=\"\">"
            )
        );
        assert!(
            html.contains("<span class=\"tested\" data-advice=\"tested\""),
            "{html}"
        );
        assert!(html.contains("class=\"untested hidden\""));
        assert!(html.contains(
            "<span class=\"reason hidden\" role=\"note\"><span class=\"reason-text\"></span>"
        ));

        let available = report("network:neutron:core:nsx", State::Available, &[]);
        let untested = Advice {
            compatibility: Some(Compatibility::Untested),
            untested_with: vec!["hypervisor:vmware".to_owned()],
        };
        let closed = row(&OptionView {
            advice: Some(&untested),
            nested: true,
            ..view(&registry, 2, &available)
        })
        .into_string();
        assert!(closed.starts_with("<div class=\"option nested\""));
        assert!(closed.contains("class=\"tested hidden\""));
        assert!(closed.contains("<details class=\"untested\" data-advice=\"untested\"><summary>not tested with 1 choice</summary><ul></ul></details>"), "{closed}");
        let open = row(&OptionView {
            advice: Some(&untested),
            open: true,
            ..view(&registry, 2, &available)
        })
        .into_string();
        assert!(open.contains("data-advice=\"untested\" open=\"\"><summary>not tested with 1 choice</summary><ul><li>vCenter</li></ul>"), "{open}");
    }
}
