//! Mosaic's browser app, client-side rendered (Leptos's signals, the DOM
//! layer in [`dom`]): the environment wizard, environments with their nodes
//! and deployment preview, plugins and Heat template sets. Every rule it
//! shows comes from `mosaic-core`, the code the server validates with.

pub mod api;
pub mod catalog;
pub mod components;
pub mod dom;
pub mod pages;
pub mod route;
pub mod session;

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::{ReleaseSummary, SessionView};

use crate::api::TagOwner;
use crate::components::loaded::loaded;
use crate::components::retry::retry_notice;
use crate::components::var::Var;
use crate::dom::{View, dynamic, el, fragment};
use crate::pages::environment::environment_page;
use crate::pages::environments::environments;
use crate::pages::heat::heat_page;
use crate::pages::matrix::matrix_page;
use crate::pages::onboarding::onboarding;
use crate::pages::plugins::plugins_page;
use crate::pages::settings::settings_page;
use crate::pages::sign_in::sign_in_page;
use crate::pages::tags::tags_page;
use crate::pages::wizard::wizard;
use crate::route::{Route, Router};
use crate::session::Session;

/// The whole app: who is signed in (the sign-in page when nobody is),
/// then the header with the navigation and the current page.
pub fn app() -> View {
    let router = Router::install();
    let session = Session(Var::new(None::<SessionView>));
    provide_context(session);
    api::on_unauthorized(move || session.0.set(None));
    let known = api::fetch(|| vec![api::path::session()]);
    let retry = Callback::new(move |()| known.refetch());
    loaded(known, "Loading…", move |bodies| {
        match api::answer::<SessionView>(&bodies, 0) {
            Ok(view) => session.0.set(Some(view)),
            Err(failure) if failure.offline => {
                return el("main")
                    .class("page")
                    .child(retry_notice(failure, retry, true))
                    .into();
            }
            Err(_) => {}
        }
        // Built again when someone signs in or out, not for every answer
        // that says who is signed in (a refused password is one).
        let signed_in = Memo::new(move |_| session.0.with(Option::is_some));
        dynamic(move || match signed_in.get() {
            true => untrack(|| signed(router, session)),
            false => el("main")
                .class("page")
                .child(untrack(|| sign_in_page(session)))
                .into(),
        })
    })
}

/// Who is signed in, with a way out.
fn account(session: Session) -> View {
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
    el("span")
        .class("account")
        .child(el("span").class("who").text_from(who))
        .child(
            el("button")
                .attr("type", "button")
                .class("sign-out")
                .on("click", sign_out)
                .text("Sign out"),
        )
        .into()
}

/// The app for a signed-in user.
fn signed(router: Router, session: Session) -> View {
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
        el("span")
            .class("nav-item")
            .class_when("current", current)
            .child(el("a").attr("href", &to.path()).text(label))
    };
    let header = el("header")
        .class("topbar")
        .child(el("span").class("brand").text("Mosaic"))
        .child(
            el("nav")
                .class("nav")
                .child(nav(Route::Environments, "Environments"))
                .child(nav(Route::Plugins, "Plugins"))
                .child(nav(Route::Heat, "Heat templates")),
        )
        .child(account(session));
    let page = el("main").class("page").child(dynamic(move || {
        let here = route.get();
        untrack(|| match here {
            Route::Environments => home(),
            Route::Environment(id) => environment_page(id),
            Route::EnvironmentSettings(id) => settings_page(id),
            Route::EnvironmentTags(id) => tags_page(TagOwner::Environment(id)),
            Route::ReleaseTags(id) => tags_page(TagOwner::Release(id)),
            Route::ReleaseMatrix(id) => matrix_page(id),
            Route::Plugins => plugins_page(),
            Route::Heat => heat_page(),
        })
    }));
    fragment([header.into(), page.into()])
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
