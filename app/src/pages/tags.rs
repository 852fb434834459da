//! Tags of a release or of an environment (SEMANTICS §5): every tag with
//! where it comes from, whether it has a primary and how many nodes carry
//! it; create, change and delete the ones created here. Tags a role names
//! or a release or plugin defines are read-only, and a tag nodes carry
//! cannot be deleted (the server names the nodes).

use leptos::prelude::*;
use mosaic_core::api::{CreateTag, TagView};
use mosaic_core::markup::tags::{self, NewTag, Tags};

use crate::api::{self, ApiFailure, TagOwner};
use web_sys::Event;

use crate::components::environment_tabs::{Tab, environment_tabs};
use crate::components::html::closest;
use crate::components::loaded::followed;
use crate::components::retry::retry_notice;
use crate::components::var::Var;
use crate::dom::{View, el, fragment};
use crate::route::{Route, set_title};

pub fn tags_page(owner: TagOwner) -> View {
    let refresh = Var::new(0u32);
    let tags = api::fetch(move || {
        refresh.get();
        vec![owner.path()]
    });
    let changed = Callback::new(move |()| refresh.update(|n| *n += 1));
    // Release tags are the admin's; an environment's, an operator's.
    let editable = crate::session::session().can(match owner {
        TagOwner::Release(_) => mosaic_core::access::Role::Admin,
        TagOwner::Environment(_) => mosaic_core::access::Role::Operator,
    });
    let head = match owner {
        TagOwner::Environment(id) => environment_tabs(id, Tab::Tags),
        TagOwner::Release(id) => {
            set_title(&format!("Release {id} · Tags"));
            let matrix = el("a")
                .attr("href", &Route::ReleaseMatrix(id).path())
                .text("The release's compatibility matrix");
            fragment([
                el("h1").text(&format!("Tags of release {id}")).into(),
                el("p")
                    .class("hint")
                    .text("Every environment on this release sees these tags. ")
                    .child(matrix)
                    .into(),
            ])
        }
    };
    el("section")
        .class("card tags-page")
        .attr("data-page", "tags")
        .child(head)
        .child(el("p").class("hint").html(
            "Nodes can also carry numbered instances of a tag, such as <code>mysql:1</code> \
             and <code>mysql:2</code>, for services that run once per instance.",
        ))
        .child(followed(
            tags,
            "Loading the tags…",
            |bodies| api::answer::<Vec<TagView>>(bodies, 0),
            move |list| tag_table(owner, list, editable, changed),
            move |failure| retry_notice(failure, changed, true),
        ))
        .maybe(editable.then(|| create_tag_form(owner, changed)))
        .into()
}

/// The tags in `list`, following it.
fn tag_table(
    owner: TagOwner,
    list: Var<Option<Vec<TagView>>>,
    editable: bool,
    changed: Callback<()>,
) -> View {
    let own = tags::own_source(matches!(owner, TagOwner::Release(_)));
    // A change refused: the tag and why.
    let failure = Var::new(None::<(String, String)>);
    let render = move || {
        let failure = failure.get();
        let failure = failure.as_ref().map(|(t, m)| (t.as_str(), m.as_str()));
        list.with(|list| {
            tags::table(&Tags {
                list: list.as_deref().unwrap_or_default(),
                own,
                editable,
                failure,
            })
        })
    };
    let report = move |name: String, result: Result<(), ApiFailure>| match result {
        Ok(()) => {
            failure.set(None);
            changed.run(())
        }
        Err(e) => failure.set(Some((name, e.message))),
    };
    let act = move |ev: &Event, control: &str| {
        let row = closest(ev, control).and_then(|c| c.closest("tr[data-tag]").ok().flatten());
        row.and_then(|r| r.get_attribute("data-tag"))
    };
    let toggle_primary = move |ev: Event| {
        let Some(name) = act(&ev, "input.has-primary") else {
            return;
        };
        let now =
            list.with_untracked(|l| l.iter().flatten().any(|t| t.name == name && t.has_primary));
        leptos::task::spawn_local(async move {
            let result = api::update_tag(owner, &name, !now).await.map(|_| ());
            report(name, result);
        });
    };
    let delete = move |ev: Event| {
        let Some(name) = act(&ev, "button.delete-tag") else {
            return;
        };
        leptos::task::spawn_local(async move {
            let result = api::delete_tag(owner, &name).await;
            report(name, result);
        });
    };
    el("div")
        .merged(render)
        .on("change", toggle_primary)
        .on("click", delete)
        .into()
}

/// A new tag for `owner` (also on the environment page, beside its nodes).
pub fn create_tag_form(owner: TagOwner, changed: Callback<()>) -> View {
    let name = Var::new(String::new());
    let primary = Var::new(false);
    let error = Var::new(None::<String>);
    let render = move || {
        let (typed, error) = (name.get(), error.get());
        tags::new_tag(&NewTag {
            name: &typed,
            primary: primary.get(),
            error: error.as_deref(),
        })
    };
    let create = move |ev: Event| {
        ev.prevent_default();
        let tag = CreateTag {
            name: name.get_untracked().trim().to_owned(),
            has_primary: primary.get_untracked(),
        };
        leptos::task::spawn_local(async move {
            match api::create_tag(owner, &tag).await {
                Ok(_) => {
                    name.set(String::new());
                    error.set(None);
                    changed.run(());
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    let typed = move |ev: Event| {
        if closest(&ev, "input.new-tag-name").is_some() {
            name.set(event_target_value(&ev))
        }
    };
    let ticked = move |ev: Event| {
        if closest(&ev, "input.new-tag-primary").is_some() {
            primary.update(|p| *p = !*p)
        }
    };
    el("div")
        .merged(render)
        .on("submit", create)
        .on("input", typed)
        .on("change", ticked)
        .into()
}
