//! The app's pages as an enum, to and from the URL path. Navigation pushes
//! the path onto the browser history; the server answers every non-API path
//! with the app, so a reload lands on the same page. Links are plain `<a>`
//! elements: one listener on the window follows them ([`follow`]).

use leptos::ev::MouseEvent;
use leptos::prelude::*;

use crate::components::var::Var;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// The wizard (or onboarding without releases) and the environments.
    Environments,
    /// One environment: its nodes, tags and deployment preview.
    Environment(i64),
    /// One environment's settings.
    EnvironmentSettings(i64),
    /// One environment's tags.
    EnvironmentTags(i64),
    /// A release's tags.
    ReleaseTags(i64),
    /// A release's compatibility matrix.
    ReleaseMatrix(i64),
    Plugins,
    Heat,
}

impl Route {
    pub fn from_path(path: &str) -> Route {
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        match parts.as_slice() {
            ["plugins"] => Route::Plugins,
            ["heat"] => Route::Heat,
            ["environments", id] => id
                .parse()
                .map(Route::Environment)
                .unwrap_or(Route::Environments),
            ["environments", id, "settings"] => id
                .parse()
                .map(Route::EnvironmentSettings)
                .unwrap_or(Route::Environments),
            ["environments", id, "tags"] => id
                .parse()
                .map(Route::EnvironmentTags)
                .unwrap_or(Route::Environments),
            ["releases", id, "tags"] => id
                .parse()
                .map(Route::ReleaseTags)
                .unwrap_or(Route::Environments),
            ["releases", id, "matrix"] => id
                .parse()
                .map(Route::ReleaseMatrix)
                .unwrap_or(Route::Environments),
            _ => Route::Environments,
        }
    }

    pub fn path(self) -> String {
        match self {
            Route::Environments => "/".to_owned(),
            Route::Environment(id) => format!("/environments/{id}"),
            Route::EnvironmentSettings(id) => format!("/environments/{id}/settings"),
            Route::EnvironmentTags(id) => format!("/environments/{id}/tags"),
            Route::ReleaseTags(id) => format!("/releases/{id}/tags"),
            Route::ReleaseMatrix(id) => format!("/releases/{id}/matrix"),
            Route::Plugins => "/plugins".to_owned(),
            Route::Heat => "/heat".to_owned(),
        }
    }
}

/// The current route, shared through context.
#[derive(Debug, Clone, Copy)]
pub struct Router(pub Var<Route>);

impl Router {
    /// Starts at the browser's path and follows Back/Forward.
    pub fn install() -> Router {
        let path = window().location().pathname().unwrap_or_default();
        let route = Var::new(Route::from_path(&path));
        let handle = window_event_listener(leptos::ev::popstate, move |_| {
            let path = window().location().pathname().unwrap_or_default();
            route.set(Route::from_path(&path));
        });
        let router = Router(route);
        let links = window_event_listener(leptos::ev::click, move |ev| follow(router, &ev));
        on_cleanup(move || {
            handle.remove();
            links.remove();
        });
        provide_context(router);
        router
    }

    pub fn go(self, to: Route) {
        if let Ok(history) = window().history() {
            let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&to.path()));
        }
        self.0.set(to);
    }
}

/// Names the page in the browser's title bar and history: "PAGE — Mosaic".
pub fn set_title(page: &str) {
    document().set_title(&format!("{page} — Mosaic"));
}

/// Follows a click on a link to one of the app's pages without reloading
/// the page, for every `<a>` in the document — written in a view or in
/// markup from core. A click that asks for something else goes to the
/// browser: a new tab or window (a modifier key, another button), a
/// download, a link with a `target`, a path outside the app (`/api/…`).
fn follow(router: Router, ev: &MouseEvent) {
    let modified = ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key();
    if ev.default_prevented() || ev.button() != 0 || modified {
        return;
    }
    let Some(link) = crate::components::html::closest(ev, "a[href]") else {
        return;
    };
    if link.has_attribute("download") || link.has_attribute("target") {
        return;
    }
    let href = link.get_attribute("href").unwrap_or_default();
    if !href.starts_with('/') || href.starts_with("//") || href.starts_with("/api/") {
        return;
    }
    ev.prevent_default();
    router.go(Route::from_path(&href));
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::Route;

    #[wasm_bindgen_test]
    fn paths_round_trip() {
        for route in [
            Route::Environments,
            Route::Environment(7),
            Route::EnvironmentSettings(7),
            Route::EnvironmentTags(7),
            Route::ReleaseTags(3),
            Route::ReleaseMatrix(3),
            Route::Plugins,
            Route::Heat,
        ] {
            assert_eq!(Route::from_path(&route.path()), route);
        }
        assert_eq!(Route::from_path("/environments/x"), Route::Environments);
        assert_eq!(Route::from_path("/nowhere"), Route::Environments);
    }
}
