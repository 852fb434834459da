//! What the wizard shows, as data its components render: an option's row
//! (what it always shows, [`OptionHead`], and what changes with the
//! selection, [`OptionParts`]) and the last step's summary.

use crate::component::{
    Advice, Blocking, Compatibility, ComponentReport, Reason, Registry, Repair, State,
};
use crate::wizard::Pane;

/// What an option's row always shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionHead {
    /// The component's name (`data-component`, the input's value).
    pub name: String,
    /// The input's id (the label's `for`): `option-` and the name, its
    /// colons as dashes.
    pub id: String,
    pub label: String,
    pub description: String,
    /// The plugin that provides it, if not the release.
    pub plugin: Option<String>,
    /// The radio group it belongs to (`Layout::radio_group`); a checkbox
    /// when none.
    pub radio_group: Option<String>,
}

impl OptionHead {
    /// Option `i` of `registry`.
    pub fn new(
        registry: &Registry,
        i: usize,
        plugin: Option<&str>,
        radio_group: Option<String>,
    ) -> OptionHead {
        let c = registry.get(i);
        let name = c.name.as_str();
        OptionHead {
            name: name.to_owned(),
            id: format!("option-{}", name.replace(':', "-")),
            label: c.display_label().to_owned(),
            description: c.description.clone(),
            plugin: plugin.map(str::to_owned),
            radio_group,
        }
    }
}

/// One option as it is shown now.
#[derive(Debug, Clone, Copy)]
pub struct OptionView<'a> {
    pub registry: &'a Registry,
    /// Its place in the registry.
    pub i: usize,
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
    /// The operator opened its "not tested with" list: the list is worked
    /// out (only then: it changes with every choice).
    pub open: bool,
}

/// What of an option's row changes with the selection, each part as the
/// row shows it. The app binds each part to its element: a click changes
/// the count of untested choices of dozens of rows, and only that text
/// changes in them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionParts {
    /// An ML2 driver under the ML2 core, shown indented.
    pub nested: bool,
    /// `data-state`: `selected`, `available`, `blocked`, `dead`.
    pub state: &'static str,
    pub checked: bool,
    pub disabled: bool,
    /// "● tested" is shown.
    pub tested: bool,
    /// "not tested with N choices", empty when there are none.
    pub untested: String,
    /// The labels of the untested choices, while the list is open.
    pub list: Vec<String>,
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
        OptionParts {
            nested: self.nested,
            state: state.as_str(),
            checked: state == State::Selected,
            disabled: unavailable,
            tested: compatible && state == State::Selected,
            untested: match untested.len() {
                0 => String::new(),
                n => format!("not tested with {}", choices(n)),
            },
            list: match self.open {
                true => untested
                    .iter()
                    .map(|name| label_of(self.registry, name).to_owned())
                    .collect(),
                false => Vec::new(),
            },
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
    format!("{n} choice{}", crate::text::plural(n))
}

/// What was chosen, pane by pane: each pane's title and the labels of its
/// selected components, "—" for none.
pub fn summary(registry: &Registry, selection: &[bool]) -> Vec<(&'static str, String)> {
    Pane::ALL
        .into_iter()
        .map(|pane| {
            let labels: Vec<&str> = (0..selection.len())
                .filter(|&i| selection[i] && registry.get(i).kind() == pane.component_type())
                .map(|i| registry.label(i))
                .collect();
            let shown = match labels.is_empty() {
                true => "—".to_owned(),
                false => labels.join(", "),
            };
            (pane.title(), shown)
        })
        .collect()
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
        let summary = summary(&registry, &[true, true, false]);
        assert_eq!(summary[0], ("Compute", "KVM, vCenter".to_owned()));
        assert_eq!(summary[1], ("Networking", "—".to_owned()));
        assert_eq!(summary.len(), 4);
        assert!(summary.iter().all(|(_, labels)| !labels.contains("ML2")));
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

    fn view<'a>(registry: &'a Registry, i: usize, report: &'a ComponentReport) -> OptionView<'a> {
        OptionView {
            registry,
            i,
            nested: false,
            report,
            blocking: None,
            advice: None,
            open: false,
        }
    }

    #[test]
    fn the_head_names_the_input_and_the_plugin() {
        let registry = crate::component::test_registry(OPTIONS);
        let head = OptionHead::new(&registry, 1, Some("vmware"), Some("hv".to_owned()));
        assert_eq!(head.name, "hypervisor:vmware");
        assert_eq!(head.id, "option-hypervisor-vmware");
        assert_eq!(head.label, "vCenter");
        assert_eq!(head.description, "VMware <vSphere>");
        assert_eq!(head.plugin.as_deref(), Some("vmware"));
        assert_eq!(head.radio_group.as_deref(), Some("hv"));
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
        let parts = OptionView {
            blocking: Some(&blocking),
            ..view(&registry, 1, &report)
        }
        .parts();
        assert!(!parts.nested);
        assert_eq!(parts.state, "blocked");
        assert!(parts.disabled && !parts.checked);
        assert_eq!(parts.reasons, "Not with KVM; Nor NSX.");
        assert_eq!(parts.fix, "Fix: select NSX, deselect KVM, gone:x");
        let fixless = view(&registry, 1, &report).parts();
        assert_eq!(fixless.fix, "");
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
        let parts = OptionView {
            advice: Some(&tested),
            ..view(&registry, 0, &selected)
        }
        .parts();
        assert!(parts.checked && parts.tested);
        assert_eq!((parts.untested.as_str(), parts.reasons.as_str()), ("", ""));

        let available = report("network:neutron:core:nsx", State::Available, &[]);
        let untested = Advice {
            compatibility: Some(Compatibility::Untested),
            untested_with: vec!["hypervisor:vmware".to_owned()],
        };
        let closed = OptionView {
            advice: Some(&untested),
            nested: true,
            ..view(&registry, 2, &available)
        }
        .parts();
        assert!(closed.nested && !closed.disabled);
        assert!(!closed.tested);
        assert_eq!(closed.untested, "not tested with 1 choice");
        assert!(closed.list.is_empty(), "listed only while open");
        let open = OptionView {
            advice: Some(&untested),
            open: true,
            ..view(&registry, 2, &available)
        }
        .parts();
        assert_eq!(open.list, ["vCenter"]);
        let two = Advice {
            compatibility: Some(Compatibility::Untested),
            untested_with: vec!["hypervisor:vmware".to_owned(), "x:y".to_owned()],
        };
        let parts = OptionView {
            advice: Some(&two),
            ..view(&registry, 2, &available)
        }
        .parts();
        assert_eq!(parts.untested, "not tested with 2 choices");
    }
}
