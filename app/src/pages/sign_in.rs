//! The sign-in page: a user name and a password, exchanged for the
//! session cookie (HttpOnly: the app never sees it).

use leptos::prelude::*;
use mosaic_core::api::SignIn as Credentials;

use crate::api;
use crate::components::action::on_success;
use crate::components::notice::ErrorNotice;
use crate::route::set_title;
use crate::session::session;

#[component]
pub fn SignIn() -> impl IntoView {
    set_title("Sign in");
    let session = session();
    let username = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let sign_in = Action::new_unsync(|credentials: &Credentials| {
        let credentials = credentials.clone();
        async move { api::sign_in(&credentials).await }
    });
    on_success(sign_in, move |view| {
        password.set(String::new());
        session.set(Some(view.clone()));
    });
    let error = move || match sign_in.value().get() {
        Some(Err(failure)) if !sign_in.pending().get() => Some(failure.message),
        _ => None,
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        sign_in.dispatch(Credentials {
            username: username.get_untracked().trim().to_owned(),
            password: password.get_untracked(),
        });
    };
    view! {
        <section class="card sign-in" data-page="sign-in">
            <h1>"Sign in to Mosaic"</h1>
            <form on:submit=submit>
                <Field label="User name" id="username" kind="text" autocomplete="username" value=username />
                <Field label="Password" id="password" kind="password" autocomplete="current-password" value=password />
                {move || error().map(|message| view! { <ErrorNotice message /> })}
                <button id="sign-in" type="submit" class="primary" disabled=move || sign_in.pending().get()>
                    "Sign in"
                </button>
            </form>
            <p class="hint">
                "The first start of the server created the user " <code>"admin"</code>
                " and wrote its password to " <code>"<data-dir>/initial-admin-password"</code>
                ". Admins add users with " <code>"mosaic user create NAME --role operator"</code> "."
            </p>
        </section>
    }
}

/// A labelled input whose text is `value`.
#[component]
fn Field(
    label: &'static str,
    id: &'static str,
    kind: &'static str,
    autocomplete: &'static str,
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label}</span>
            <input id=id type=kind autocomplete=autocomplete required bind:value=value />
        </label>
    }
}
