//! Mosaic's browser app (Leptos, client-side rendered): the environment
//! wizard, environments with their nodes and deployment preview, plugins
//! and Heat template sets. Every rule it shows comes from `mosaic-core`,
//! the code the server validates with.

pub mod api;
pub mod catalog;
pub mod components;
mod http;
pub mod pages;
pub mod route;
pub mod session;

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::{ReleaseSummary, SessionView};

use crate::api::TagOwner;
use crate::components::loaded::loaded;
use crate::components::retry::RetryNotice;
use crate::components::var::Var;
use crate::pages::environment::EnvironmentPage;
use crate::pages::environments::Environments;
use crate::pages::heat::HeatPage;
use crate::pages::matrix::MatrixPage;
use crate::pages::onboarding::Onboarding;
use crate::pages::plugins::PluginsPage;
use crate::pages::settings::SettingsPage;
use crate::pages::sign_in::SignInPage;
use crate::pages::tags::TagsPage;
use crate::pages::wizard::Wizard;
use crate::route::{Route, Router};
use crate::session::Session;

/// The whole app: who is signed in (the sign-in page when nobody is),
/// then the header with the navigation and the current page.
#[component]
pub fn App() -> impl IntoView {
    let router = Router::install();
    let session = Session(Var::new(None::<SessionView>));
    provide_context(session);
    api::on_unauthorized(move || session.0.set(None));
    let known = api::fetch(|| vec![api::path::session()]);
    let retry = Callback::new(move |()| known.refetch());
    view! {
        {loaded(known, "Loading…", move |bodies| {
            match api::answer::<SessionView>(&bodies, 0) {
                Ok(view) => session.0.set(Some(view)),
                Err(failure) if failure.offline => {
                    return view! { <main class="page"><RetryNotice failure on_retry=retry auto=true /></main> }
                        .into_any();
                }
                Err(_) => {}
            }
            view! {
                <Show
                    when=move || session.0.with(Option::is_some)
                    fallback=move || view! { <main class="page"><SignInPage session /></main> }
                >
                    <Signed router session />
                </Show>
            }
            .into_any()
        })}
    }
}

/// Who is signed in, with a way out.
#[component]
fn Account(session: Session) -> impl IntoView {
    let who = move || {
        session.0.with(|s| {
            s.as_ref()
                .map(|s| format!("{} ({})", s.username, s.role))
                .unwrap_or_default()
        })
    };
    let sign_out = move |_| {
        leptos::task::spawn_local(async move {
            let _ = api::sign_out().await;
            session.0.set(None);
        });
    };
    view! {
        <span class="account">
            <span class="who">{who}</span>
            <button type="button" class="sign-out" on:click=sign_out>"Sign out"</button>
        </span>
    }
}

/// The app for a signed-in user.
#[component]
fn Signed(router: Router, session: Session) -> impl IntoView {
    let route = router.0;
    let nav = move |to: Route, label: &'static str| {
        let current = move || {
            let here = route.get();
            here == to
                || (to == Route::Environments
                    && matches!(
                        here,
                        Route::Environment(_)
                            | Route::EnvironmentSettings(_)
                            | Route::EnvironmentTags(_)
                    ))
        };
        view! {
            <span class="nav-item" class:current=current>
                <a href=to.path()>{label}</a>
            </span>
        }
    };
    view! {
        <header class="topbar">
            <span class="brand">"Mosaic"</span>
            <nav class="nav">
                {nav(Route::Environments, "Environments")}
                {nav(Route::Plugins, "Plugins")}
                {nav(Route::Heat, "Heat templates")}
            </nav>
            <Account session />
        </header>
        <main class="page">
            {move || match route.get() {
                Route::Environments => view! { <Home /> }.into_any(),
                Route::Environment(id) => view! { <EnvironmentPage cluster_id=id /> }.into_any(),
                Route::EnvironmentSettings(id) => view! { <SettingsPage cluster_id=id /> }.into_any(),
                Route::EnvironmentTags(id) => view! { <TagsPage owner=TagOwner::Environment(id) /> }.into_any(),
                Route::ReleaseTags(id) => view! { <TagsPage owner=TagOwner::Release(id) /> }.into_any(),
                Route::ReleaseMatrix(id) => view! { <MatrixPage release_id=id /> }.into_any(),
                Route::Plugins => view! { <PluginsPage /> }.into_any(),
                Route::Heat => view! { <HeatPage /> }.into_any(),
            }}
        </main>
    }
}

/// The wizard and the environments; onboarding when no release is
/// installed. Fetched anew each time the page is shown, so that installing
/// or uninstalling a release plugin shows at once.
#[component]
fn Home() -> impl IntoView {
    let refresh = Var::new(0u32);
    let releases = api::fetch(move || {
        refresh.get();
        vec![api::path::releases()]
    });
    let installed = Callback::new(move |()| refresh.update(|n| *n += 1));
    crate::route::set_title("Environments");
    view! {
        {loaded(releases, "Loading releases…", move |bodies| {
            let list = api::answer::<Vec<ReleaseSummary>>(&bodies, 0);
            let welcome = matches!(&list, Ok(list) if list.is_empty());
            crate::route::set_title(if welcome { "Welcome" } else { "Environments" });
            match list {
                Ok(list) if list.is_empty() => view! { <Onboarding installed /> }.into_any(),
                Ok(list) => {
                    let creates = crate::session::session().can(Role::Operator);
                    view! {
                        {creates.then(|| view! { <Wizard releases=list /> })}
                        {(!creates).then(|| view! {
                            <p class="card hint" data-role-note="">
                                "Your role can look at environments; an operator creates and changes them."
                            </p>
                        })}
                        <Environments />
                    }
                    .into_any()
                }
                Err(failure) => {
                    view! { <RetryNotice failure on_retry=installed auto=true /> }.into_any()
                }
            }
        })}
    }
}
