//! The Roles section of a release's or an environment's Tags page (SEMANTICS
//! §5.1): each role with its tags as chips that can be removed and added,
//! where its set comes from, Reset (or Delete for a role created here),
//! and New role. A changed set says how many nodes it affects before it is
//! saved, and (asking the server for a dry run) which instance tags its
//! holders would be given or lose.

use leptos::prelude::*;
use mosaic_core::api::{CreateRole, RoleView};
use mosaic_core::name::TagName;
use mosaic_core::role_layer::{Level, Undo, change_preview, instances_preview, tags_source_label};

use crate::api::{self, ApiFailure, TagOwner};
use crate::components::action::{ActionError, Request, on_success};
use crate::components::loading::{Answer, Loading, outcome};
use crate::components::notice::ErrorNotice;
use crate::records::{Record, Records};

impl Record for RoleView {
    type Key = String;

    fn key(&self) -> String {
        self.id.to_string()
    }
}

/// A change to one role, from its row.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Change {
    Tags(String, Vec<String>),
    Undo(String),
}

impl Change {
    fn role(&self) -> &str {
        match self {
            Change::Tags(name, _) | Change::Undo(name) => name,
        }
    }
}

fn level(owner: TagOwner) -> Level {
    match owner {
        TagOwner::Release(_) => Level::Release,
        TagOwner::Environment(_) => Level::Environment,
    }
}

/// The section: the roles as the owner's list shows them, changed through
/// one `Action` whose answer names the role, whether it went through or
/// not; `changed` when one went through (the tags may follow).
#[component]
pub fn RolesSection(
    owner: TagOwner,
    editable: Signal<bool>,
    changed: Callback<()>,
) -> impl IntoView {
    let change = Action::new_unsync(move |change: &Change| {
        let change = change.clone();
        async move {
            let result = match &change {
                Change::Tags(name, tags) => {
                    let tags: Result<Vec<TagName>, _> =
                        tags.iter().map(|t| TagName::new(t.as_str())).collect();
                    match tags {
                        Ok(tags) => api::put_role_tags(owner, name, tags).await.map(drop),
                        Err(e) => Err(ApiFailure::message(e.to_string())),
                    }
                }
                Change::Undo(name) => api::reset_role(owner, name).await,
            };
            let role = change.role().to_owned();
            result.map(|()| role.clone()).map_err(|e| (role, e))
        }
    });
    let list = Records::new();
    let roles = LocalResource::new(move || {
        change.version().track();
        list.load(api::get(owner.roles_path()))
    });
    on_success(change, move |_| changed.run(()));
    let reload = Callback::new(move |()| roles.refetch());
    let failure = Signal::derive(move || {
        change.value().with(|v| match v {
            Some(Err((name, e))) => Some((name.clone(), e.message.clone())),
            _ => None,
        })
    });
    let run = Callback::new(move |c: Change| {
        change.dispatch(c);
    });
    view! {
        <section class="roles-section" data-section="roles">
            <h2>"Roles"</h2>
            <p class="hint">
                "The tags each role brings to its nodes. A change here reaches every node "
                "holding the role; tags added or removed on a node by hand stay."
            </p>
            <Loading label="Loading the roles…" retry=reload>
                <RolesAnswer roles list owner editable failure run />
            </Loading>
            <Show when=move || editable.get()>
                <NewRoleForm owner created=reload />
            </Show>
        </section>
    }
}

/// The roles once they have arrived, or why they did not; the rows are
/// built once and follow each answer in place.
#[component]
fn RolesAnswer(
    roles: Answer<()>,
    list: Records<RoleView>,
    owner: TagOwner,
    editable: Signal<bool>,
    failure: Signal<Option<(String, String)>>,
    run: Callback<Change>,
) -> impl IntoView {
    let arrived = Memo::new(move |_| outcome(&roles));
    let names = list.keys();
    move || {
        arrived.get().map(|answer| {
            answer.map(|()| {
                view! {
                    <div class="roles-list">
                        <For each=names key=|name| name.clone() let(name)>
                            <RoleRow name list owner editable failure run />
                        </For>
                    </div>
                }
            })
        })
    }
}

/// One role (`data-role`): its chips — a draft until saved —, where its
/// set comes from, what a change affects, Save, Reset or Delete.
#[component]
fn RoleRow(
    name: String,
    list: Records<RoleView>,
    owner: TagOwner,
    editable: Signal<bool>,
    failure: Signal<Option<(String, String)>>,
    run: Callback<Change>,
) -> impl IntoView {
    let row = list.row(&name);
    let role = Memo::new(move |_| row.as_ref().map(|r| r.get()));
    let saved = Memo::new(move |_| {
        role.with(|r| {
            r.as_ref()
                .map_or_else(Vec::new, |r| r.tags.iter().map(|t| t.to_string()).collect())
        })
    });
    // The user's edit with the set it was made on: the draft while that
    // is still the saved set; an answer that changed the set (a save gone
    // through) replaces it.
    let edit = RwSignal::new(None::<(Vec<String>, Vec<String>)>);
    let draft = Memo::new(move |_| match edit.get() {
        Some((on, draft)) if saved.with(|s| *s == on) => draft,
        _ => saved.get(),
    });
    let set_draft = Callback::new(move |new| edit.set(Some((saved.get_untracked(), new))));
    let level = level(owner);
    let preview = move || {
        let nodes = role.with(|r| r.as_ref().map_or(0, |r| r.nodes));
        saved.with(|old| draft.with(|new| change_preview(old, new, nodes)))
    };
    let instances = instances(owner, name.clone(), saved, draft, editable);
    let instances = move || instances.get().flatten();
    let undo = move || role.with(|r| r.as_ref().and_then(|r| Undo::of(r, level)));
    let label = move || role.with(|r| r.as_ref().map(|r| r.name.clone()).unwrap_or_default());
    let source = move || role.with(|r| r.as_ref().map(tags_source_label).unwrap_or_default());
    let refused = {
        let key = name.clone();
        move || {
            failure.with(|f| {
                f.as_ref()
                    .filter(|(r, _)| *r == key)
                    .map(|(_, why)| why.clone())
            })
        }
    };
    let save = {
        let name = name.clone();
        move |_| run.run(Change::Tags(name.clone(), draft.get_untracked()))
    };
    let undo_click = {
        let name = name.clone();
        move |_| run.run(Change::Undo(name.clone()))
    };
    view! {
        <div class="role-row card" data-role=name.clone()>
            <h3>{label} " " <code>{name.clone()}</code></h3>
            <p class="muted role-source">{source}</p>
            <TagChips draft set_draft editable />
            {move || preview().map(|line| view! {
                <p class="role-preview">{line}</p>
                {instances().map(|line| view! { <p class="role-instances">{line}</p> })}
                <button class="save-role" on:click=save.clone()>"Save"</button>
                <button class="cancel-role" on:click=move |_| edit.set(None)>"Cancel"</button>
            })}
            {move || editable.get().then(undo).flatten().map(|u| match u {
                Undo::Reset => view! { <button class="reset-role" on:click=undo_click.clone()>"Reset"</button> }.into_any(),
                Undo::Delete => view! { <button class="delete-role danger" on:click=undo_click.clone()>"Delete role"</button> }.into_any(),
            })}
            {move || refused().map(|message| view! { <ErrorNotice message /> })}
        </div>
    }
}

/// What `draft` would do to the role's holders' instance tags: the server
/// counts them (a dry run), on every environment of a release; nothing
/// while the draft is the saved set or the role cannot be changed here.
fn instances(
    owner: TagOwner,
    name: String,
    saved: Memo<Vec<String>>,
    draft: Memo<Vec<String>>,
    editable: Signal<bool>,
) -> LocalResource<Option<String>> {
    LocalResource::new(move || {
        let (old, new) = (saved.get(), draft.get());
        let name = name.clone();
        async move {
            let tags: Vec<TagName> = new
                .iter()
                .filter_map(|t| TagName::new(t.as_str()).ok())
                .collect();
            if old == new || !editable.get_untracked() {
                return None;
            }
            let counted = api::preview_role_tags(owner, &name, tags).await.ok()?;
            instances_preview(&counted)
        }
    })
}

/// A role's tags as chips, each removable, and a field adding one: they
/// change the `draft` (`set_draft`), which the row saves.
#[component]
fn TagChips(
    draft: Memo<Vec<String>>,
    set_draft: Callback<Vec<String>>,
    editable: Signal<bool>,
) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let tag = typed.get_untracked().trim().to_owned();
        let mut now = draft.get_untracked();
        if !tag.is_empty() && !now.contains(&tag) {
            now.push(tag);
            set_draft.run(now);
        }
        typed.set(String::new());
    };
    let chip = move |tag: String| {
        let remove = {
            let tag = tag.clone();
            move |_| {
                let mut now = draft.get_untracked();
                now.retain(|t| *t != tag);
                set_draft.run(now);
            }
        };
        let aria = format!("Remove {tag}");
        let data = tag.clone();
        view! {
            <span class="chip" data-tag=data>
                {tag}
                <Show when=move || editable.get()>
                    <button class="remove-tag" aria-label=aria.clone() on:click=remove.clone()>
                        "×"
                    </button>
                </Show>
            </span>
        }
    };
    view! {
        <div class="chips">
            <For each=move || draft.get() key=|t| t.clone() children=chip />
        </div>
        <Show when=move || editable.get()>
            <form class="add-role-tag" on:submit=add>
                <input class="role-tag-input" list="known-tags" placeholder="tag" bind:value=typed aria-label="A tag to add" />
                <button type="submit" class="add-role-tag-button">"Add tag"</button>
            </form>
        </Show>
    }
}

/// The form creating a role: its name, label and tags (comma or space
/// separated).
#[component]
fn NewRoleForm(owner: TagOwner, created: Callback<()>) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let label = RwSignal::new(String::new());
    let tags = RwSignal::new(String::new());
    let create: Request<_, ()> = Action::new_unsync(move |role: &Result<CreateRole, String>| {
        let role = role.clone();
        async move {
            match role {
                Ok(role) => api::create_role(owner, &role).await.map(drop),
                Err(message) => Err(ApiFailure::message(message)),
            }
        }
    });
    on_success(create, move |()| {
        name.set(String::new());
        label.set(String::new());
        tags.set(String::new());
        created.run(());
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let listed: Result<Vec<TagName>, String> = tags
            .get_untracked()
            .split([',', ' '])
            .filter(|t| !t.is_empty())
            .map(|t| TagName::new(t).map_err(|e| e.to_string()))
            .collect();
        create.dispatch(listed.map(|tags| CreateRole {
            name: name.get_untracked().trim().to_owned(),
            label: label.get_untracked().trim().to_owned(),
            description: String::new(),
            tags,
            conflicts: Vec::new(),
            limits: None,
        }));
    };
    view! {
        <form class="new-role" on:submit=submit>
            <h3>"New role"</h3>
            <label>"Name " <input class="new-role-name" required placeholder="e.g. messaging" bind:value=name /></label>
            " "
            <label>"Label " <input class="new-role-label" required placeholder="e.g. Messaging" bind:value=label /></label>
            " "
            <label>"Tags " <input class="new-role-tags" placeholder="e.g. rabbitmq" bind:value=tags /></label>
            " "
            <button type="submit" class="create-role">"Create the role"</button>
            <ActionError action=create />
        </form>
    }
}
