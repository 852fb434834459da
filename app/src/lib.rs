//! Mosaic's browser app, client-side rendered with Leptos: the environment
//! wizard, environments with their nodes and deployment preview, plugins
//! and Heat template sets. Every rule it shows comes from `mosaic-core`,
//! the code the server validates with.

pub mod api;
pub mod catalog;
pub mod components;
pub mod dom;
pub mod pages;
pub mod route;
pub mod session;

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::hooks::use_location;
use leptos_router::path;
use mosaic_core::access::Role;
use mosaic_core::api::ReleaseSummary;

use crate::api::TagOwner;
use crate::components::legacy::Legacy;
use crate::components::loaded::loaded;
use crate::components::retry::{RetryNotice, retry_notice};
use crate::components::var::Var;
use crate::dom::{View, el, fragment};
use crate::pages::environment::environment_page;
use crate::pages::environments::environments;
use crate::pages::heat::heat_page;
use crate::pages::matrix::matrix_page;
use crate::pages::onboarding::onboarding;
use crate::pages::plugins::plugins_page;
use crate::pages::settings::SettingsPage as EnvironmentSettings;
use crate::pages::sign_in::SignIn;
use crate::pages::tags::TagsPage;
use crate::pages::wizard::wizard;
use crate::route::{NavSection, id_param};
use crate::session::Session;

/// The whole app: who is signed in (the sign-in page when nobody is),
/// then the header with the navigation and the current page.
#[component]
pub fn App() -> impl IntoView {
    let session = Session::provide();
    api::on_unauthorized(move || session.set(None));
    let known = LocalResource::new(api::session);
    let retry = Callback::new(move |()| known.refetch());
    view! {
        <Router>
            <Transition fallback=|| view! { <main class="page"><p class="loading">"Loading…"</p></main> }>
                {move || Suspend::new(async move {
                    match known.await {
                        Ok(view) => session.set(Some(view)),
                        Err(failure) if failure.offline => {
                            return view! {
                                <main class="page"><RetryNotice failure retry auto=true /></main>
                            }
                            .into_any();
                        }
                        Err(_) => session.set(None),
                    }
                    view! {
                        <Show
                            when=move || session.signed_in()
                            fallback=|| view! { <main class="page"><SignIn /></main> }
                        >
                            <Shell />
                        </Show>
                    }
                    .into_any()
                })}
            </Transition>
        </Router>
    }
}

/// The app for a signed-in user: the header, and the page the URL names.
#[component]
fn Shell() -> impl IntoView {
    view! {
        <header class="topbar">
            <span class="brand">"Mosaic"</span>
            <nav class="nav">
                <NavItem section=NavSection::Environments label="Environments" />
                <NavItem section=NavSection::Plugins label="Plugins" />
                <NavItem section=NavSection::Heat label="Heat templates" />
            </nav>
            <Account />
        </header>
        <main class="page">
            // An unknown path shows the environments, as a mistyped URL did before.
            <Routes fallback=Home>
                <Route path=path!("/") view=Home />
                <Route path=path!("/environments/:id") view=EnvironmentPage />
                <Route path=path!("/environments/:id/settings") view=SettingsPage />
                <Route path=path!("/environments/:id/tags") view=EnvironmentTagsPage />
                <Route path=path!("/releases/:id/tags") view=ReleaseTagsPage />
                <Route path=path!("/releases/:id/matrix") view=MatrixPage />
                <Route path=path!("/plugins") view=PluginsPage />
                <Route path=path!("/heat") view=HeatPage />
            </Routes>
        </main>
    }
}

/// A link in the header, marked current on the pages of its section.
#[component]
fn NavItem(section: NavSection, label: &'static str) -> impl IntoView {
    let location = use_location();
    let current = Memo::new(move |_| location.pathname.with(|p| NavSection::of(p) == section));
    view! {
        <span class="nav-item" class:current=current>
            <a href=section.href() aria-current=move || current.get().then_some("page")>
                {label}
            </a>
        </span>
    }
}

/// Who is signed in, with a way out.
#[component]
fn Account() -> impl IntoView {
    let session = session::session();
    let who = move || {
        session
            .view()
            .map(|s| format!("{} ({})", s.username, s.role))
            .unwrap_or_default()
    };
    let sign_out = Action::new_unsync(|()| api::sign_out());
    // Signed out here whatever the server answered: a session it no
    // longer knows is gone too.
    Effect::new(move || {
        if sign_out.value().get().is_some() {
            session.set(None);
        }
    });
    view! {
        <span class="account">
            <span class="who">{who}</span>
            <button type="button" class="sign-out" on:click=move |_| {
                sign_out.dispatch(());
            }>
                "Sign out"
            </button>
        </span>
    }
}

/// A page still built with the app's former DOM layer (`dom`), shown for
/// the environment its path names; an id that is not a number shows the
/// environments instead.
fn legacy_for_id(page: fn(i64) -> View) -> impl IntoView {
    let id = id_param();
    move || match id.get() {
        Some(id) => view! { <Legacy page=move || page(id) /> }.into_any(),
        None => view! { <Home /> }.into_any(),
    }
}

#[component]
fn EnvironmentPage() -> impl IntoView {
    legacy_for_id(environment_page)
}

#[component]
fn SettingsPage() -> impl IntoView {
    let id = id_param();
    move || match id.get() {
        Some(cluster_id) => view! { <EnvironmentSettings cluster_id /> }.into_any(),
        None => view! { <Home /> }.into_any(),
    }
}

/// The tags of the environment or the release the path names.
fn tags_for_id(owner: fn(i64) -> TagOwner) -> impl IntoView {
    let id = id_param();
    move || match id.get() {
        Some(id) => view! { <TagsPage owner=owner(id) /> }.into_any(),
        None => view! { <Home /> }.into_any(),
    }
}

#[component]
fn EnvironmentTagsPage() -> impl IntoView {
    tags_for_id(TagOwner::Environment)
}

#[component]
fn ReleaseTagsPage() -> impl IntoView {
    tags_for_id(TagOwner::Release)
}

#[component]
fn MatrixPage() -> impl IntoView {
    legacy_for_id(matrix_page)
}

#[component]
fn PluginsPage() -> impl IntoView {
    view! { <Legacy page=plugins_page /> }
}

#[component]
fn HeatPage() -> impl IntoView {
    view! { <Legacy page=heat_page /> }
}

#[component]
fn Home() -> impl IntoView {
    view! { <Legacy page=home /> }
}

/// The wizard and the environments; onboarding when no release is
/// installed. Fetched anew each time the page is shown, so that installing
/// or uninstalling a release plugin shows at once.
fn home() -> View {
    let refresh = Var::new(0u32);
    let releases = api::fetch(move || {
        refresh.get();
        vec![api::path::releases()]
    });
    let installed = Callback::new(move |()| refresh.update(|n| *n += 1));
    crate::route::set_title("Environments");
    loaded(releases, "Loading releases…", move |bodies| {
        let list = api::answer::<Vec<ReleaseSummary>>(&bodies, 0);
        let welcome = matches!(&list, Ok(list) if list.is_empty());
        crate::route::set_title(if welcome { "Welcome" } else { "Environments" });
        match list {
            Ok(list) if list.is_empty() => onboarding(installed),
            Ok(list) => {
                let creates = crate::session::session().can(Role::Operator);
                let start = match creates {
                    true => wizard(list),
                    false => el("p")
                        .class("card hint")
                        .attr("data-role-note", "")
                        .text("Your role can look at environments; an operator creates and changes them.")
                        .into(),
                };
                fragment([start, environments()])
            }
            Err(failure) => retry_notice(failure, installed, true),
        }
    })
}
