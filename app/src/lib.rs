//! Mosaic's browser app, client-side rendered with Leptos: the environment
//! wizard, environments with their nodes and deployment preview, plugins
//! and Heat template sets. Every rule it shows comes from `mosaic-core`,
//! the code the server validates with.

pub mod api;
pub mod catalog;
pub mod components;
pub mod environment;
pub mod lazy_pages;
pub mod pages;
pub mod records;
pub mod route;
pub mod session;

use leptos::prelude::*;
use leptos_router::components::{ParentRoute, Route, Router, Routes};
use leptos_router::hooks::use_location;
use leptos_router::{Lazy, path};
use mosaic_core::access::Role;
use mosaic_core::api::ReleaseSummary;

use crate::api::ApiFailure;
use crate::components::action::on_answer;
use crate::components::loading::Loading;
use crate::components::retry::RetryNotice;
use crate::environment::EnvironmentLayout;
use crate::pages::environments::Environments;
use crate::pages::onboarding::Onboarding;
use crate::pages::sign_in::SignIn;
use crate::pages::wizard::Wizard;
use crate::route::{NavSection, set_title};
use crate::session::Session;

/// The whole app: who is signed in (the sign-in page when nobody is),
/// then the header with the navigation and the current page.
#[component]
pub fn App() -> impl IntoView {
    let session = Session::provide();
    api::on_unauthorized(move || session.set(None));
    let known = LocalResource::new(api::session);
    FirstReleases::provide();
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
                // One frame for an environment's tabs, read once.
                <ParentRoute path=path!("/environments/:id") view=EnvironmentLayout>
                    <Route path=path!("") view={Lazy::<lazy_pages::NodesTab>::new()} />
                    <Route path=path!("preview") view={Lazy::<lazy_pages::PreviewTab>::new()} />
                    <Route path=path!("networks") view={Lazy::<lazy_pages::NetworksTab>::new()} />
                    <Route path=path!("settings") view={Lazy::<lazy_pages::SettingsTab>::new()} />
                    <Route path=path!("tags") view={Lazy::<lazy_pages::TagsTab>::new()} />
                    <Route path=path!("components") view={Lazy::<lazy_pages::ComponentsTab>::new()} />
                    <Route path=path!("deploy") view={Lazy::<lazy_pages::DeployTab>::new()} />
                    <Route path=path!("history") view={Lazy::<lazy_pages::HistoryTab>::new()} />
                </ParentRoute>
                <Route path=path!("/releases/:id/tags") view={Lazy::<lazy_pages::ReleaseTags>::new()} />
                <Route path=path!("/releases/:id/matrix") view={Lazy::<lazy_pages::ReleaseMatrix>::new()} />
                <Route path=path!("/plugins") view={Lazy::<lazy_pages::PluginsRoute>::new()} />
                <Route path=path!("/heat") view={Lazy::<lazy_pages::HeatRoute>::new()} />
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
    on_answer(sign_out, move |_| session.set(None));
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

/// What a path without a number where one belongs shows.
pub(crate) fn home() -> AnyView {
    view! { <Home /> }.into_any()
}

/// The wizard and the environments; onboarding when no release is
/// installed. Asked anew each time the page is shown, so that installing
/// or uninstalling a release plugin shows at once.
#[component]
fn Home() -> impl IntoView {
    set_title("Environments");
    let releases = LocalResource::new(FirstReleases::or_ask);
    let installed = Callback::new(move |()| releases.refetch());
    let session = session::session();
    view! {
        <Loading label="Loading releases…" retry=installed>
            {move || Suspend::new(async move {
                let list = releases.await?;
                if list.is_empty() {
                    return Ok::<_, ApiFailure>(view! { <Onboarding installed /> }.into_any());
                }
                set_title("Environments");
                let start = match untrack(|| session.can(Role::Operator)) {
                    true => view! { <Wizard releases=list /> }.into_any(),
                    false => view! {
                        <p class="card hint" data-role-note="">
                            "Your role can look at environments; an operator creates and changes them."
                        </p>
                    }
                    .into_any(),
                };
                Ok(view! { {start} <Environments /> }.into_any())
            })}
        </Loading>
    }
}

type ReleaseList = LocalResource<Result<Vec<ReleaseSummary>, ApiFailure>>;

/// The release list, asked for as the app starts, beside who is signed in
/// (index.html preloads both while the WebAssembly downloads, and this
/// request is answered from the preload): a first visit to `/` shows the
/// wizard one round trip sooner (docs/benchmarks.md, "What a visit
/// costs"). Only the home page the app opened on reads it; on any other
/// first page it is dropped, so that no page shows a list older than
/// itself, and every later home page asks anew.
#[derive(Clone, Copy)]
struct FirstReleases(StoredValue<Option<ReleaseList>, LocalStorage>);

impl FirstReleases {
    fn provide() {
        // Asked for whatever the page, so that the preload is always used.
        let list: ReleaseList = LocalResource::new(|| api::get(api::path::releases()));
        let home = window().location().pathname().is_ok_and(|p| p == "/");
        provide_context(FirstReleases(StoredValue::new_local(home.then_some(list))));
    }

    /// The release list: the one asked for at the start, the first time
    /// and if it was answered; else asked for now (a refetch, another
    /// first page, or a list refused before a sign-in).
    fn or_ask() -> impl Future<Output = Result<Vec<ReleaseSummary>, ApiFailure>> {
        let first = use_context::<FirstReleases>()
            .and_then(|FirstReleases(first)| first.try_update_value(Option::take).flatten());
        async move {
            if let Some(first) = first {
                // Untracked: a resource awaited in another's fetcher is
                // tracked by it, and its answer would ask again.
                if let Ok(list) = ScopedFuture::new_untracked(first.into_future()).await {
                    return Ok(list);
                }
            }
            api::get(api::path::releases()).await
        }
    }
}
