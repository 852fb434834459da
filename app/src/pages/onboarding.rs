use leptos::prelude::*;

use crate::api;
use crate::components::notice::error_notice_of;
use crate::components::plugin_upload::plugin_upload;
use crate::components::var::Var;
use crate::dom::{View, el, fragment};

/// Shown when no release is installed — on a fresh install, or after the
/// last release was uninstalled: the wizard cannot start without one.
pub fn onboarding(installed: Callback<()>) -> View {
    let admin = crate::session::session().can(mosaic_core::access::Role::Admin);
    let upload = match admin {
        true => fragment([
            el("p")
                .text("Or upload a release plugin package here:")
                .into(),
            plugin_upload(Callback::new(move |_| installed.run(()))),
        ]),
        false => el("p")
            .class("hint")
            .attr("data-role-note", "")
            .text("An admin installs plugins; ask one to install a release.")
            .into(),
    };
    el("section")
        .class("card onboarding")
        .attr("data-page", "onboarding")
        .child(el("h1").text("Welcome to Mosaic"))
        .child(el("p").text(
            "No OpenStack release is installed, so no environment can be created yet. \
             Environments are created from a release, and releases ship as release plugins.",
        ))
        .maybe(admin.then(|| reinstall(installed)))
        .child(el("h2").text("Install a release plugin"))
        .child(el("p").text("On the server, with the command line:"))
        .child(
            el("pre")
                .class("command")
                .text("mosaic plugin install PATH"),
        )
        .child(el("p").class("hint").html(
            "PATH is a release plugin directory or .tar.gz. \
             <code>mosaic plugin create NAME --release</code> scaffolds one; \
             Mosaic's own OpenStack release is <code>releases/openstack</code> in its repository.",
        ))
        .child(upload)
        .into()
}

/// One click installs the OpenStack release built into the server (the one
/// a fresh install starts with).
fn reinstall(installed: Callback<()>) -> View {
    let busy = Var::new(false);
    let error = Var::new(None::<String>);
    let install = move |_| {
        busy.set(true);
        leptos::task::spawn_local(async move {
            let result = api::reinstall_bundled().await;
            busy.set(false);
            match result {
                Ok(_) => installed.run(()),
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    let button = el("button")
        .class("reinstall-bundled primary")
        .disabled_when(move || busy.get())
        .on("click", install)
        .text("Install the built-in OpenStack release");
    fragment([
        el("h2").text("Mosaic's own release").into(),
        el("p")
            .text("The OpenStack release Mosaic comes with is built into the server. ")
            .child(button)
            .into(),
        error_notice_of(error),
    ])
}
