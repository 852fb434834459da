//! The sign-in page: a user name and a password, exchanged for the
//! session cookie (HttpOnly: the app never sees it).

use leptos::prelude::*;
use mosaic_core::api::SignIn;

use crate::api;
use crate::components::notice::ErrorNotice;
use crate::components::var::Var;
use crate::route::set_title;
use crate::session::Session;

#[component]
pub fn SignInPage(session: Session) -> impl IntoView {
    set_title("Sign in");
    let username = Var::new(String::new());
    let password = Var::new(String::new());
    let busy = Var::new(false);
    let error = Var::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
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
    view! {
        <section class="card sign-in" data-page="sign-in">
            <h1>"Sign in to Mosaic"</h1>
            <form on:submit=submit>
                <label class="field">
                    <span>"User name"</span>
                    <input
                        id="username"
                        type="text"
                        autocomplete="username"
                        required
                        prop:value=move || username.get()
                        on:input=move |ev| username.set(event_target_value(&ev))
                    />
                </label>
                <label class="field">
                    <span>"Password"</span>
                    <input
                        id="password"
                        type="password"
                        autocomplete="current-password"
                        required
                        prop:value=move || password.get()
                        on:input=move |ev| password.set(event_target_value(&ev))
                    />
                </label>
                {move || error.get().map(|message| view! { <ErrorNotice message /> })}
                <button id="sign-in" type="submit" class="primary" prop:disabled=move || busy.get()>
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
