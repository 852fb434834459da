//! The Plugins page: what is installed, upload, uninstall.

use leptos::prelude::*;
use mosaic_core::api::PluginSummary;
use mosaic_core::markup::{self, plugins::Plugins};

use crate::api;
use crate::components::html::closest;
use crate::components::loaded::followed;
use crate::components::plugin_upload::plugin_upload;
use crate::components::retry::retry_notice;
use crate::components::var::Var;
use crate::dom::{View, el};
use crate::route::{Route, set_title};

pub fn plugins_page() -> View {
    let refresh = Var::new(0u32);
    let plugins = api::fetch(move || {
        refresh.get();
        vec![api::path::plugins()]
    });
    let changed = Callback::new(move |()| refresh.update(|n| *n += 1));
    set_title("Plugins");
    let admin = crate::session::session().can(mosaic_core::access::Role::Admin);
    el("section")
        .class("card plugins")
        .attr("data-page", "plugins")
        .child(el("h1").text("Plugins"))
        .child(el("p").class("hint").html(
            "Releases and everything the wizard offers come from plugin packages. Upload one \
             here, or install it on the server with <code>mosaic plugin install PATH</code>.",
        ))
        .maybe(admin.then(|| plugin_upload(Callback::new(move |_| changed.run(())))))
        .child(followed(
            plugins,
            "Loading plugins…",
            |bodies| api::answer::<Vec<PluginSummary>>(bodies, 0),
            move |list| plugin_table(list, changed),
            move |failure| retry_notice(failure, changed, true),
        ))
        .into()
}

/// The plugins in `list`, following it.
fn plugin_table(list: Var<Option<Vec<PluginSummary>>>, changed: Callback<()>) -> View {
    let admin = crate::session::session().can(mosaic_core::access::Role::Admin);
    // Two clicks uninstall: the first asks for confirmation in place.
    let confirming = Var::new(None::<i64>);
    let busy = Var::new(None::<i64>);
    let failure = Var::new(None::<(i64, String)>);
    let render = move || {
        let failure = failure.get();
        list.with(|list| {
            markup::plugins::table(&Plugins {
                list: list.as_deref().unwrap_or_default(),
                admin,
                confirming: confirming.get(),
                busy: busy.get(),
                failure: failure.as_ref().map(|(id, m)| (*id, m.as_str())),
                matrix: &|id| Route::ReleaseMatrix(id).path(),
                tags: &|id| Route::ReleaseTags(id).path(),
            })
        })
    };
    let uninstall = move |ev| {
        let row = closest(&ev, "button.uninstall").and_then(|b| b.closest("tr").ok().flatten());
        let Some(id) = row.and_then(|r| r.get_attribute("data-key")?.parse::<i64>().ok()) else {
            return;
        };
        if confirming.get_untracked() != Some(id) {
            failure.set(None);
            confirming.set(Some(id));
            return;
        }
        confirming.set(None);
        busy.set(Some(id));
        leptos::task::spawn_local(async move {
            let result = api::uninstall_plugin(id).await;
            busy.set(None);
            match result {
                Ok(()) => {
                    failure.set(None);
                    changed.run(())
                }
                Err(e) => failure.set(Some((id, e.message))),
            }
        });
    };
    el("div").merged(render).on("click", uninstall).into()
}
