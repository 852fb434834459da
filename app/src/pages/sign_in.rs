//! The sign-in page: a user name and a password, exchanged for the
//! session cookie (HttpOnly: the app never sees it).

use leptos::prelude::*;
use mosaic_core::api::SignIn;
use web_sys::Event;

use crate::api;
use crate::components::notice::error_notice_of;
use crate::components::var::Var;
use crate::dom::{El, View, el};
use crate::route::set_title;
use crate::session::Session;

pub fn sign_in_page(session: Session) -> View {
    set_title("Sign in");
    let username = Var::new(String::new());
    let password = Var::new(String::new());
    let busy = Var::new(false);
    let error = Var::new(None::<String>);
    let submit = move |ev: Event| {
        ev.prevent_default();
        let request = SignIn {
            username: username.get_untracked().trim().to_owned(),
            password: password.get_untracked(),
        };
        busy.set(true);
        error.set(None);
        leptos::task::spawn_local(async move {
            let result = api::sign_in(&request).await;
            busy.set(false);
            match result {
                Ok(view) => {
                    password.set(String::new());
                    session.0.set(Some(view));
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    let form = el("form")
        .on("submit", submit)
        .child(field("User name", "username", "text", "username", username))
        .child(field(
            "Password",
            "password",
            "password",
            "current-password",
            password,
        ))
        .child(error_notice_of(error))
        .child(
            el("button")
                .attr("id", "sign-in")
                .attr("type", "submit")
                .class("primary")
                .disabled_when(move || busy.get())
                .text("Sign in"),
        );
    el("section")
        .class("card sign-in")
        .attr("data-page", "sign-in")
        .child(el("h1").text("Sign in to Mosaic"))
        .child(form)
        .child(el("p").class("hint").html(
            "The first start of the server created the user <code>admin</code> and wrote its \
             password to <code>&lt;data-dir&gt;/initial-admin-password</code>. Admins add users \
             with <code>mosaic user create NAME --role operator</code>.",
        ))
        .into()
}

/// A labelled input whose text is `value`.
fn field(label: &str, id: &str, kind: &str, autocomplete: &str, value: Var<String>) -> El {
    let input = el("input")
        .attr("id", id)
        .attr("type", kind)
        .attr("autocomplete", autocomplete)
        .attr("required", "")
        .on("input", move |ev| value.set(event_target_value(&ev)));
    el("label")
        .class("field")
        .child(el("span").text(label))
        .child(input)
}
