//! The app's pages as an enum, to the URL paths `lib.rs`'s `<Routes>`
//! serve, for the links pages write. `leptos_router` follows every `<a>` to an app path without
//! reloading; the server answers every path that names no file with the
//! app, so a reload lands on the same page.

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use mosaic_core::environment::EnvTab;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// The wizard (or onboarding without releases) and the environments.
    Environments,
    /// One environment: its nodes and the checks before deploying.
    Environment(i64),
    /// One environment's deployment preview.
    EnvironmentPreview(i64),
    /// One environment's networks, node groups and VIPs.
    EnvironmentNetworks(i64),
    /// One environment's settings.
    EnvironmentSettings(i64),
    /// One environment's tags.
    EnvironmentTags(i64),
    /// One environment's components, changed later.
    EnvironmentComponents(i64),
    /// One environment handed to its deployer: the export's hosts, its
    /// problems or warnings, the archive.
    EnvironmentDeploy(i64),
    /// One environment's runs: each task on each node, the hosts' counts,
    /// the output.
    EnvironmentHistory(i64),
    /// A release's tags.
    ReleaseTags(i64),
    /// A release's compatibility matrix.
    ReleaseMatrix(i64),
    Plugins,
    Heat,
}

impl Route {
    /// The page of tab `tab` of environment `id`.
    pub fn of_tab(tab: EnvTab, id: i64) -> Route {
        match tab {
            // Configure Disks opens from the Nodes tab.
            EnvTab::Nodes | EnvTab::Disks => Route::Environment(id),
            EnvTab::Preview => Route::EnvironmentPreview(id),
            EnvTab::Networks => Route::EnvironmentNetworks(id),
            EnvTab::Settings => Route::EnvironmentSettings(id),
            EnvTab::Tags => Route::EnvironmentTags(id),
            EnvTab::Components => Route::EnvironmentComponents(id),
            EnvTab::Deploy => Route::EnvironmentDeploy(id),
            EnvTab::History => Route::EnvironmentHistory(id),
        }
    }

    pub fn path(self) -> String {
        match self {
            Route::Environments => "/".to_owned(),
            Route::Environment(id) => format!("/environments/{id}"),
            Route::EnvironmentPreview(id) => format!("/environments/{id}/preview"),
            Route::EnvironmentNetworks(id) => format!("/environments/{id}/networks"),
            Route::EnvironmentSettings(id) => format!("/environments/{id}/settings"),
            Route::EnvironmentTags(id) => format!("/environments/{id}/tags"),
            Route::EnvironmentComponents(id) => format!("/environments/{id}/components"),
            Route::EnvironmentDeploy(id) => format!("/environments/{id}/deploy"),
            Route::EnvironmentHistory(id) => format!("/environments/{id}/history"),
            Route::ReleaseTags(id) => format!("/releases/{id}/tags"),
            Route::ReleaseMatrix(id) => format!("/releases/{id}/matrix"),
            Route::Plugins => "/plugins".to_owned(),
            Route::Heat => "/heat".to_owned(),
        }
    }
}

/// Names the page in the browser's title bar and history: "PAGE — Mosaic".
pub fn set_title(page: &str) {
    document().set_title(&format!("{page} — Mosaic"));
}

/// The parts of the app the header links to: a path belongs to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NavSection {
    /// The wizard, the environments and each environment's pages (a
    /// release's tags and matrix are reached from there too).
    Environments,
    Plugins,
    Heat,
}

impl NavSection {
    /// The section whose link is current on the page at `path`.
    pub fn of(path: &str) -> NavSection {
        match path.trim_matches('/') {
            "plugins" => NavSection::Plugins,
            "heat" => NavSection::Heat,
            _ => NavSection::Environments,
        }
    }

    pub fn href(self) -> String {
        match self {
            NavSection::Environments => Route::Environments,
            NavSection::Plugins => Route::Plugins,
            NavSection::Heat => Route::Heat,
        }
        .path()
    }
}

/// The environment's tab at `path` (`/environments/7/networks`): the
/// Nodes tab for the environment's own path and anything unknown.
pub fn tab_of(path: &str) -> EnvTab {
    let last = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default();
    EnvTab::ALL
        .into_iter()
        .find(|&tab| Route::of_tab(tab, 0).path().ends_with(&format!("/{last}")))
        .unwrap_or(EnvTab::Nodes)
}

/// The `data-page` of an environment's tab, which tests and styles find
/// the page by.
pub fn page_of(tab: EnvTab) -> &'static str {
    match tab {
        EnvTab::Nodes | EnvTab::Disks => "environment",
        EnvTab::Preview => "preview",
        EnvTab::Networks => "networks",
        EnvTab::Settings => "settings",
        EnvTab::Tags => "tags",
        EnvTab::Components => "components",
        EnvTab::Deploy => "deploy",
        EnvTab::History => "history",
    }
}

/// The `:id` of the current route as a number, `None` when it is not one.
pub fn id_param() -> Memo<Option<i64>> {
    let params = use_params_map();
    Memo::new(move |_| params.with(|p| p.get("id").and_then(|id| id.parse().ok())))
}

/// The page for the `:id` the path names, built again when the id
/// changes (the router only updates the params); an id that is not a
/// number shows the environments instead.
pub fn for_id<V: IntoView + 'static>(page: impl Fn(i64) -> V + Send + Sync + 'static) -> AnyView {
    let id = id_param();
    (move || match id.get() {
        Some(id) => page(id).into_any(),
        None => crate::home(),
    })
    .into_any()
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use mosaic_core::environment::EnvTab;

    use super::{NavSection, Route, tab_of};

    /// The paths `lib.rs`'s `<Routes>` serve.
    #[wasm_bindgen_test]
    fn links_go_to_the_paths_the_router_serves() {
        for (route, path) in [
            (Route::Environments, "/"),
            (Route::Environment(7), "/environments/7"),
            (Route::EnvironmentNetworks(7), "/environments/7/networks"),
            (Route::EnvironmentSettings(7), "/environments/7/settings"),
            (Route::EnvironmentTags(7), "/environments/7/tags"),
            (
                Route::EnvironmentComponents(7),
                "/environments/7/components",
            ),
            (Route::EnvironmentDeploy(7), "/environments/7/deploy"),
            (Route::EnvironmentHistory(7), "/environments/7/history"),
            (Route::ReleaseTags(3), "/releases/3/tags"),
            (Route::ReleaseMatrix(3), "/releases/3/matrix"),
            (Route::Plugins, "/plugins"),
            (Route::Heat, "/heat"),
        ] {
            assert_eq!(route.path(), path);
        }
    }

    /// Every tab's own path names it, and the environment's path the
    /// Nodes tab.
    #[wasm_bindgen_test]
    fn a_path_names_its_tab() {
        for tab in EnvTab::ALL {
            assert_eq!(tab_of(&Route::of_tab(tab, 12).path()), tab);
            assert_eq!(tab_of(&format!("{}/", Route::of_tab(tab, 12).path())), tab);
        }
        assert_eq!(tab_of("/environments/0"), EnvTab::Nodes);
    }

    #[wasm_bindgen_test]
    fn every_path_belongs_to_one_section() {
        for (path, section) in [
            ("/", NavSection::Environments),
            ("/environments/3/settings", NavSection::Environments),
            ("/releases/1/matrix", NavSection::Environments),
            ("/plugins", NavSection::Plugins),
            ("/plugins/", NavSection::Plugins),
            ("/plugins/7", NavSection::Environments),
            ("/heat", NavSection::Heat),
            ("/nowhere", NavSection::Environments),
        ] {
            assert_eq!(NavSection::of(path), section, "{path}");
        }
    }
}
