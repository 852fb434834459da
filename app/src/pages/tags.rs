//! Tags of a release or of an environment (SEMANTICS §5): every tag with
//! where it comes from, whether it has a primary and how many nodes carry
//! it; create, change and delete the ones created here. Tags a role names
//! or a release or plugin defines are read-only, and a tag nodes carry
//! cannot be deleted (the server names the nodes).

use leptos::prelude::*;
use mosaic_core::api::{CreateTag, TagView};

use crate::api::{self, TagOwner};
use crate::components::environment_tabs::{EnvironmentTabs, Tab};
use crate::components::loaded::loaded;
use crate::components::notice::ErrorNotice;
use crate::components::retry::RetryNotice;
use crate::route::{Route, set_title};

#[component]
pub fn TagsPage(owner: TagOwner) -> impl IntoView {
    let refresh = RwSignal::new(0u32);
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
        TagOwner::Environment(id) => {
            view! { <EnvironmentTabs cluster_id=id current=Tab::Tags /> }.into_any()
        }
        TagOwner::Release(id) => {
            set_title(&format!("Release {id} · Tags"));
            view! {
                <h1>{format!("Tags of release {id}")}</h1>
                <p class="hint">
                    "Every environment on this release sees these tags. "
                    <a href=Route::ReleaseMatrix(id).path()>"The release's compatibility matrix"</a>
                </p>
            }
            .into_any()
        }
    };
    view! {
        <section class="card tags-page" data-page="tags">
            {head}
            <p class="hint">
                "Nodes can also carry numbered instances of a tag, such as " <code>"mysql:1"</code>
                " and " <code>"mysql:2"</code> ", for services that run once per instance."
            </p>
            {loaded(tags, "Loading the tags…", move |bodies| {
                match api::answer::<Vec<TagView>>(&bodies, 0) {
                    Ok(list) => view! { <TagTable owner list editable changed /> }.into_any(),
                    Err(failure) => view! { <RetryNotice failure on_retry=changed auto=true /> }.into_any(),
                }
            })}
            {editable.then(|| view! { <CreateTagForm owner changed /> })}
        </section>
    }
}

fn source_label(source: &str) -> &'static str {
    match source {
        "release" => "the release",
        "role" => "a role",
        "plugin" => "a plugin",
        "user" => "created on the release",
        "environment" => "created here",
        _ => "elsewhere",
    }
}

#[component]
fn TagTable(
    owner: TagOwner,
    list: Vec<TagView>,
    editable: bool,
    changed: Callback<()>,
) -> impl IntoView {
    let own = match owner {
        TagOwner::Release(_) => "user",
        TagOwner::Environment(_) => "environment",
    };
    view! {
        <table class="tags-table">
            <caption class="visually-hidden">"Tags"</caption>
            <thead>
                <tr>
                    <th scope="col">"Name"</th>
                    <th scope="col">"Comes from"</th>
                    <th scope="col">"Has a primary"</th>
                    <th scope="col">"Nodes"</th>
                    <th scope="col">"Actions"</th>
                </tr>
            </thead>
            <tbody>
                {list
                    .into_iter()
                    .map(|tag| {
                        let mine = editable && tag.source == own;
                        view! { <TagRow owner tag mine changed /> }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

#[component]
fn TagRow(owner: TagOwner, tag: TagView, mine: bool, changed: Callback<()>) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let name = tag.name.clone();
    let toggle_primary = {
        let name = name.clone();
        let now = tag.has_primary;
        move |_| {
            let name = name.clone();
            leptos::task::spawn_local(async move {
                match api::update_tag(owner, &name, !now).await {
                    Ok(_) => changed.run(()),
                    Err(e) => error.set(Some(e.message)),
                }
            });
        }
    };
    let delete = {
        let name = name.clone();
        move |_| {
            let name = name.clone();
            leptos::task::spawn_local(async move {
                match api::delete_tag(owner, &name).await {
                    Ok(()) => changed.run(()),
                    Err(e) => error.set(Some(e.message)),
                }
            });
        }
    };
    let label = format!("{name} has a primary");
    let why = if tag.deletable {
        ""
    } else {
        "Named by a role: it cannot be deleted."
    };
    view! {
        <tr data-tag=name.clone()>
            <th scope="row">{name.clone()}</th>
            <td>{source_label(&tag.source)}</td>
            <td>
                <input type="checkbox" class="has-primary" aria-label=label prop:checked=tag.has_primary
                    prop:disabled=!mine on:change=toggle_primary />
            </td>
            <td class="tag-nodes">{tag.nodes}</td>
            <td>
                {if mine && tag.deletable {
                    view! { <button class="delete-tag danger" on:click=delete>"Delete"</button> }.into_any()
                } else if mine {
                    view! { <span class="muted">{why}</span> }.into_any()
                } else {
                    view! { <span class="muted">"read-only"</span> }.into_any()
                }}
                {move || error.get().map(|message| view! { <ErrorNotice message /> })}
            </td>
        </tr>
    }
}

/// A new tag for `owner` (also on the environment page, beside its nodes).
#[component]
pub fn CreateTagForm(owner: TagOwner, changed: Callback<()>) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let primary = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let create = move |ev: leptos::ev::SubmitEvent| {
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
    view! {
        <form class="new-tag" on:submit=create>
            <h2>"New tag"</h2>
            <label>
                "Name "
                <input class="new-tag-name" required placeholder="e.g. mysql"
                    prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
            </label>
            <label>
                <input type="checkbox" class="new-tag-primary" prop:checked=move || primary.get()
                    on:change=move |_| primary.update(|p| *p = !*p) />
                " has a primary (one node is chosen as primary in HA)"
            </label>
            <button type="submit" class="create-tag">"Create the tag"</button>
            {move || error.get().map(|message| view! { <ErrorNotice message /> })}
        </form>
    }
}
