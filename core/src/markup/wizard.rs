//! The wizard's last step: the environment's name and what was chosen,
//! pane by pane.

use super::Markup;
use crate::component::Registry;
use crate::wizard::Pane;

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
}
