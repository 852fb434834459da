//! A release's component registry as the browser compiles it: the same
//! registry (same sources, same order) the server builds, with the engine
//! the wizard and the matrix page evaluate with.

use mosaic_core::api::{ComponentView, ReleaseSummary};
use mosaic_core::component::{Component, Engine, Registry, Source};
use mosaic_core::wizard;

/// A release's registry, compiled.
#[derive(Debug)]
pub struct Catalog {
    pub engine: Engine,
    /// Per component, the plugin that provides it (none: the release).
    plugins: Vec<Option<String>>,
}

impl Catalog {
    /// The registry as the server built it: the components in registry
    /// order, grouped into their sources (the release's, then each plugin's).
    pub fn new(
        release: &ReleaseSummary,
        components: Vec<ComponentView>,
    ) -> Result<Catalog, String> {
        let plugins = components.iter().map(|c| c.plugin.clone()).collect();
        let mut sources: Vec<(Source, Vec<Component>)> = Vec::new();
        for view in components {
            let source = view.source.clone();
            match sources.last_mut() {
                Some((last, list)) if last.0 == source => list.push(Component::from(view)),
                _ => sources.push((Source(source), vec![Component::from(view)])),
            }
        }
        let registry = Registry::new(sources).map_err(|e| e.to_string())?;
        Ok(Catalog {
            engine: Engine::new(registry, &release.required_component_types),
            plugins,
        })
    }

    pub fn registry(&self) -> &Registry {
        self.engine.registry()
    }

    pub fn layout(&self) -> &wizard::Layout {
        self.engine.layout()
    }

    pub fn plugin(&self, i: usize) -> Option<&str> {
        self.plugins.get(i).and_then(Option::as_deref)
    }

    pub fn names(&self, selection: &[bool]) -> Vec<String> {
        (0..self.registry().len())
            .filter(|&i| selection[i])
            .map(|i| self.registry().get(i).name.to_string())
            .collect()
    }
}
