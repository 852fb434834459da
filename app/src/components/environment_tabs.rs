//! The head of an environment's pages: its name, and tabs for its nodes
//! (with the deployment preview) and its settings.

use leptos::prelude::*;
use mosaic_core::api::Cluster;

use crate::api;
use crate::dom::{View, el, fragment};
use crate::route::{Route, set_title};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Nodes,
    Settings,
    Tags,
}

pub fn environment_tabs(cluster_id: i64, current: Tab) -> View {
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
        let item = el("li").class(if here { "tab current" } else { "tab" });
        let item = match here {
            true => item.attr("aria-current", "page"),
            false => item,
        };
        item.child(el("a").attr("href", &route.path()).text(label))
    };
    let tabs = el("ul")
        .class("tabs")
        .attr("role", "list")
        .child(tab(
            Tab::Nodes,
            Route::Environment(cluster_id),
            "Nodes and deployment",
        ))
        .child(tab(
            Tab::Settings,
            Route::EnvironmentSettings(cluster_id),
            "Settings",
        ))
        .child(tab(Tab::Tags, Route::EnvironmentTags(cluster_id), "Tags"));
    fragment([el("h1").text_from(move || title.get()).into(), tabs.into()])
}
