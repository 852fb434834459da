//! The head of an environment's pages: its name, and tabs for its nodes
//! (with the deployment preview) and its settings.

use leptos::prelude::*;
use mosaic_core::api::Cluster;

use crate::api;
use crate::route::{Route, set_title};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Nodes,
    Settings,
    Tags,
}

#[component]
pub fn EnvironmentTabs(cluster_id: i64, current: Tab) -> impl IntoView {
    let cluster = api::fetch(move || vec![api::path::cluster(cluster_id)]);
    // One parse of the answer for both the heading and the page title.
    let title = Memo::new(move |_| {
        cluster
            .get()
            .and_then(|b| api::answer::<Cluster>(&b, 0).ok())
            .map_or_else(
                || format!("Environment {cluster_id}"),
                |c| format!("Environment {}", c.name),
            )
    });
    crate::components::watch::watch(move || {
        let page = match current {
            Tab::Nodes => "Nodes and deployment",
            Tab::Settings => "Settings",
            Tab::Tags => "Tags",
        };
        set_title(&format!("{} · {page}", title.get()));
    });
    let tab = move |to: Tab, route: Route, label: &'static str| {
        let here = to == current;
        view! {
            <li class="tab" class:current=here aria-current=here.then_some("page")>
                <a href=route.path()>{label}</a>
            </li>
        }
    };
    view! {
        <h1>{title}</h1>
        <ul class="tabs" role="list">
            {tab(Tab::Nodes, Route::Environment(cluster_id), "Nodes and deployment")}
            {tab(Tab::Settings, Route::EnvironmentSettings(cluster_id), "Settings")}
            {tab(Tab::Tags, Route::EnvironmentTags(cluster_id), "Tags")}
        </ul>
    }
}
