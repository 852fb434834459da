//! The component registry of one release: its components and every installed
//! plugin's, in registry order, with relations read in both directions
//! (duplex closure, SEMANTICS §2.2) without touching the declared data.

use std::collections::HashMap;

use super::model::{Component, Relation};
use super::name::{ComponentName, ComponentType, Pattern};

/// Where a component was declared: the release or a plugin, by display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source(pub String);

/// Two sources declared the same component name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("component '{name}' is declared by both {first} and {second}")]
pub struct DuplicateComponent {
    pub name: ComponentName,
    pub first: String,
    pub second: String,
}

/// A conflict between two components, as found from either side.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict<'a> {
    /// The component whose `incompatible` list matched the other.
    pub declared_by: usize,
    pub relation: &'a Relation,
}

#[derive(Debug, Clone, Default)]
pub struct Registry {
    components: Vec<Component>,
    sources: Vec<Source>,
    index: HashMap<ComponentName, usize>,
    /// Labels as messages show them (see [`Registry::label`]).
    labels: Vec<String>,
}

impl Registry {
    /// Builds a registry from sources in order; a name declared twice is an
    /// error naming both sources.
    pub fn new(
        sources: impl IntoIterator<Item = (Source, Vec<Component>)>,
    ) -> Result<Registry, DuplicateComponent> {
        let mut registry = Registry::default();
        for (source, components) in sources {
            for component in components {
                if let Some(&i) = registry.index.get(&component.name) {
                    return Err(DuplicateComponent {
                        name: component.name,
                        first: registry.sources[i].0.clone(),
                        second: source.0,
                    });
                }
                registry
                    .index
                    .insert(component.name.clone(), registry.components.len());
                registry.components.push(component);
                registry.sources.push(source.clone());
            }
        }
        registry.labels = registry.contextual_labels();
        Ok(registry)
    }

    /// Each label, with the component's place when another component has
    /// the same label ("Swift (object storage)", "Ceph RBD (images)").
    fn contextual_labels(&self) -> Vec<String> {
        let plain: Vec<&str> = self
            .components
            .iter()
            .map(Component::display_label)
            .collect();
        (0..plain.len())
            .map(|i| {
                let repeated = plain
                    .iter()
                    .enumerate()
                    .any(|(j, l)| j != i && *l == plain[i]);
                if repeated {
                    format!("{} ({})", plain[i], self.place(i))
                } else {
                    plain[i].to_owned()
                }
            })
            .collect()
    }

    /// What component `i`'s place is called in messages: its storage
    /// section, its kind of network component, or its pane.
    pub fn place(&self, i: usize) -> String {
        let name = &self.components[i].name;
        match name.kind() {
            ComponentType::Hypervisor => "compute".to_owned(),
            ComponentType::AdditionalService => "additional service".to_owned(),
            ComponentType::Network if name.has_inner_segment("ml2") => "ML2 driver".to_owned(),
            ComponentType::Network if name.has_inner_segment("service") => {
                "network service".to_owned()
            }
            ComponentType::Network => "network core".to_owned(),
            ComponentType::Storage => match name.segments().next().unwrap_or_default() {
                "block" => "block storage".to_owned(),
                "object" => "object storage".to_owned(),
                "image" => "images".to_owned(),
                "ephemeral" => "ephemeral volumes".to_owned(),
                other => format!("{other} storage"),
            },
        }
    }

    /// Component `i`'s label as messages and summaries show it: its label
    /// (or name), with its place when another component shares the label.
    pub fn label(&self, i: usize) -> &str {
        &self.labels[i]
    }

    /// Components in registry order.
    pub fn components(&self) -> &[Component] {
        &self.components
    }

    pub fn len(&self) -> usize {
        self.components.len()
    }

    pub fn is_empty(&self) -> bool {
        self.components.is_empty()
    }

    pub fn get(&self, i: usize) -> &Component {
        &self.components[i]
    }

    pub fn source(&self, i: usize) -> &Source {
        &self.sources[i]
    }

    pub fn position(&self, name: &str) -> Option<usize> {
        let name = ComponentName::new(name).ok()?;
        self.index.get(&name).copied()
    }

    /// Indices in display order: weight, then name.
    pub fn display_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.components.len()).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&self.components[a], &self.components[b]);
            (a.weight, &a.name).cmp(&(b.weight, &b.name))
        });
        order
    }

    /// Indices of the components a pattern matches, in registry order.
    pub fn resolve(&self, pattern: &Pattern) -> Vec<usize> {
        if !pattern.has_wildcard() {
            // A pattern without wildcards is a name: look it up.
            return ComponentName::new(pattern.as_str())
                .ok()
                .and_then(|name| self.index.get(&name).copied())
                .into_iter()
                .collect();
        }
        (0..self.components.len())
            .filter(|&j| pattern.matches(&self.components[j].name))
            .collect()
    }

    /// Indices of the components a pattern list matches, never `owner`
    /// itself, sorted and without repeats.
    pub fn matching<'a>(
        &'a self,
        owner: usize,
        patterns: impl IntoIterator<Item = &'a Pattern>,
    ) -> Vec<usize> {
        let mut hits: Vec<usize> = patterns
            .into_iter()
            .flat_map(|p| self.resolve(p))
            .filter(|&j| j != owner)
            .collect();
        hits.sort_unstable();
        hits.dedup();
        hits
    }

    /// For every component, the components it conflicts with, declared on
    /// either side (duplex closure), sorted.
    pub fn conflict_graph(&self) -> Vec<Vec<usize>> {
        self.relation_graph(|c| &c.incompatible)
    }

    /// For every component, the components it is declared compatible with,
    /// on either side, sorted.
    pub fn compatible_graph(&self) -> Vec<Vec<usize>> {
        self.relation_graph(|c| &c.compatible)
    }

    /// The undirected graph of one kind of relation.
    fn relation_graph(&self, relations: impl Fn(&Component) -> &[Relation]) -> Vec<Vec<usize>> {
        let mut graph = vec![Vec::new(); self.components.len()];
        for (a, component) in self.components.iter().enumerate() {
            for b in self.matching(a, relations(component).iter().map(|r| &r.name)) {
                graph[a].push(b);
                graph[b].push(a);
            }
        }
        for edges in &mut graph {
            edges.sort_unstable();
            edges.dedup();
        }
        graph
    }

    /// Whether `a` and `b` conflict, read from both sides; when both declare
    /// it, the one earlier in registry order speaks.
    pub fn conflict(&self, a: usize, b: usize) -> Option<Conflict<'_>> {
        if a == b {
            return None;
        }
        let (first, second) = if a < b { (a, b) } else { (b, a) };
        [(first, second), (second, first)]
            .into_iter()
            .find_map(|(x, y)| {
                self.components[x]
                    .incompatible
                    .iter()
                    .find(|r| r.name.matches(&self.components[y].name))
                    .map(|relation| Conflict {
                        declared_by: x,
                        relation,
                    })
            })
    }

    /// The message a conflict shows: the declared one, or for the side that
    /// only sees it by duplex closure, "Not compatible with <label>".
    pub fn conflict_message(&self, conflict: &Conflict<'_>) -> String {
        conflict
            .relation
            .message
            .clone()
            .unwrap_or_else(|| format!("Not compatible with {}", self.label(conflict.declared_by)))
    }

    /// Whether `a` lists `b` as compatible or `b` lists `a`.
    pub fn compatible(&self, a: usize, b: usize) -> bool {
        a != b
            && (self.components[a]
                .compatible
                .iter()
                .any(|r| r.name.matches(&self.components[b].name))
                || self.components[b]
                    .compatible
                    .iter()
                    .any(|r| r.name.matches(&self.components[a].name)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(yaml: &str) -> Registry {
        crate::component::test_registry(yaml)
    }

    #[test]
    fn conflicts_are_seen_from_both_sides() {
        let r = registry(
            "[{name: 'hypervisor:vmware', label: vCenter}, {name: 'network:contrail', incompatible: [{name: 'hypervisor:*'}]}]",
        );
        let c = r.conflict(0, 1).unwrap();
        assert_eq!(c.declared_by, 1);
        assert_eq!(
            r.conflict_message(&c),
            "Not compatible with network:contrail"
        );
        assert!(r.conflict(1, 0).is_some());
    }

    #[test]
    fn a_component_never_matches_itself() {
        let r = registry("[{name: 'hypervisor:a', incompatible: [{name: 'hypervisor:*'}]}]");
        assert!(r.conflict(0, 0).is_none());
        assert_eq!(
            r.matching(0, r.get(0).incompatible.iter().map(|x| &x.name)),
            Vec::<usize>::new()
        );
    }

    #[test]
    fn duplicate_names_name_both_sources() {
        let c: Vec<Component> =
            crate::yaml::parse("test.yaml", "[{name: 'hypervisor:a'}]").unwrap();
        let err = Registry::new([
            (Source("release openstack".into()), c.clone()),
            (Source("plugin x 1.0.0".into()), c),
        ])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "component 'hypervisor:a' is declared by both release openstack and plugin x 1.0.0"
        );
    }
}
