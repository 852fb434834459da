//! Tags of a release or of an environment (SEMANTICS §5): every tag with
//! where it comes from, whether it has a primary and how many nodes carry
//! it; create, change and delete the ones created here. Tags a role names
//! or a release or plugin defines are read-only, and a tag nodes carry
//! cannot be deleted (the server names the nodes).

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::{ReleaseSummary, TagView};
use mosaic_core::tag::{TagAccess, instance_lines, own_source, source_label};

use crate::api::{self, TagOwner};
use crate::components::loading::{Answer, Loading, outcome};
use crate::components::new_tag_form::NewTagForm;
use crate::components::notice::ErrorNotice;
use crate::components::roles::RolesSection;
use crate::components::table::Table;
use crate::environment::env;
use crate::records::{Record, Records};
use crate::route::{Route, set_title};
use crate::session::session;

impl Record for TagView {
    type Key = String;

    fn key(&self) -> String {
        self.name.clone()
    }
}

/// A change to one tag, from its row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Whether it has a primary.
    Primary(String, bool),
    Delete(String),
}

impl Change {
    fn tag(&self) -> &str {
        match self {
            Change::Primary(name, _) | Change::Delete(name) => name,
        }
    }
}

/// An environment's Tags tab.
#[component]
pub fn EnvironmentTagsPage() -> impl IntoView {
    view! { <TagsPage owner=TagOwner::Environment(env().id) /> }
}

/// A release's tags, with the release named and a link to its matrix.
#[component]
pub fn ReleaseTagsPage(id: i64) -> impl IntoView {
    let release = LocalResource::new(move || {
        api::get::<ReleaseSummary>(format!("{}/{id}", api::path::releases()))
    });
    let named = move || {
        release
            .get()
            .and_then(Result::ok)
            .map_or_else(|| id.to_string(), |r| r.label())
    };
    Effect::new(move || set_title(&format!("Release {} · Tags", named())));
    view! {
        <section class="card tags-page" data-page="tags">
            <h1>"Tags of release " {named}</h1>
            <p class="hint">
                "Every environment on this release sees these tags. "
                <a href=Route::ReleaseMatrix(id).path()>"The release's compatibility matrix"</a>
            </p>
            <TagsPage owner=TagOwner::Release(id) />
        </section>
    }
}

/// The tags of `owner`, with its roles.
#[component]
fn TagsPage(owner: TagOwner) -> impl IntoView {
    // A change to a row, answered: the tags are asked for again.
    let change = Action::new_unsync(move |change: &Change| {
        let change = change.clone();
        async move {
            let result = match &change {
                Change::Primary(name, on) => api::update_tag(owner, name, *on).await.map(drop),
                Change::Delete(name) => api::delete_tag(owner, name).await,
            };
            (change.tag().to_owned(), result)
        }
    });
    let list = Records::new();
    let tags = LocalResource::new(move || {
        change.version().track();
        list.load(api::get(owner.path()))
    });
    let reload = Callback::new(move |()| tags.refetch());
    // The last change refused: the tag and why (until one goes through).
    let failure = Signal::derive(move || {
        change.value().with(|v| match v {
            Some((name, Err(e))) => Some((name.clone(), e.message.clone())),
            _ => None,
        })
    });
    // Release tags are the admin's; an environment's, an operator's.
    let session = session();
    let editable = Signal::derive(move || {
        session.can(match owner {
            TagOwner::Release(_) => Role::Admin,
            TagOwner::Environment(_) => Role::Operator,
        })
    });
    let own = own_source(matches!(owner, TagOwner::Release(_)));
    view! {
            <p class="hint">
                "Nodes can also carry numbered instances of a tag, such as " <code>"mysql:1"</code>
                " and " <code>"mysql:2"</code> ", for services that run once per instance."
            </p>
            <Loading label="Loading the tags…" retry=reload>
                <TagsAnswer tags list own editable failure changed=Callback::new(move |c| {
                    change.dispatch(c);
                }) />
            </Loading>
            <Show when=move || editable.get()>
                <NewTagForm owner created=reload />
            </Show>
            <RolesSection owner editable changed=reload />
    }
}

/// The table once the tags have arrived, or why they did not. The table
/// is built once and follows the tags as they are asked for again after
/// each change: its rows stay the same elements (the box just clicked
/// keeps the focus), and every answer reaches them, so a box the server
/// did not change goes back to what it says.
#[component]
fn TagsAnswer(
    tags: Answer<()>,
    list: Records<TagView>,
    own: &'static str,
    editable: Signal<bool>,
    failure: Signal<Option<(String, String)>>,
    changed: Callback<Change>,
) -> impl IntoView {
    // Read under `Loading` (created here, below it): the loading line
    // shows until the first answer.
    let arrived = Memo::new(move |_| outcome(&tags));
    move || {
        arrived
            .get()
            .map(|answer| answer.map(|()| view! { <TagTable list own editable failure changed /> }))
    }
}

/// The tags table, a row per tag (`data-tag`), keyed by name: a row
/// follows its tag in `list` in place. `own` is the source of the tags
/// created where it is shown (`tag::own_source`), which the user may change
/// when `editable`; `failure` is the last change refused (the tag and why).
#[component]
pub fn TagTable(
    list: Records<TagView>,
    own: &'static str,
    editable: Signal<bool>,
    failure: Signal<Option<(String, String)>>,
    changed: Callback<Change>,
) -> impl IntoView {
    let names = list.keys();
    view! {
        <div>
            <Table
                class="tags-table"
                caption="Tags"
                columns=&["Name", "Comes from", "Has a primary", "Nodes", "Actions"]
            >
                <For each=names key=|name| name.clone() let(name)>
                    <TagRow name list own editable failure changed />
                </For>
            </Table>
        </div>
    }
}

#[component]
fn TagRow(
    name: String,
    list: Records<TagView>,
    own: &'static str,
    editable: Signal<bool>,
    failure: Signal<Option<(String, String)>>,
    changed: Callback<Change>,
) -> impl IntoView {
    let tag = list.row(&name);
    let has_primary = field(&tag, |t| t.has_primary);
    let access = {
        let tag = tag.clone();
        Memo::new(move |_| {
            tag.as_ref().map_or(TagAccess::ReadOnly, |t| {
                t.with(|t| TagAccess::of(t, own, editable.get()))
            })
        })
    };
    let source = field(&tag, |t| source_label(&t.source));
    let nodes = field(&tag, |t| t.nodes.to_string());
    let instances = field(&tag, instance_lines);
    let toggle = {
        let (name, has_primary) = (name.clone(), has_primary.clone());
        move |_| {
            let now = has_primary().unwrap_or(false);
            changed.run(Change::Primary(name.clone(), !now));
        }
    };
    view! {
        <tr data-tag=name.clone() data-key=name.clone()>
            <th scope="row">{name.clone()}</th>
            <td>{source}</td>
            <td>
                <input
                    type="checkbox"
                    class="has-primary"
                    aria-label=format!("{name} has a primary")
                    prop:checked=move || has_primary().unwrap_or(false)
                    disabled=move || !access.get().changeable()
                    on:change=toggle
                />
            </td>
            <td class="tag-nodes">
                {nodes}
                <ul class="tag-instances plain">
                    {move || {
                        instances()
                            .unwrap_or_default()
                            .into_iter()
                            .map(|line| view! { <li>{line}</li> })
                            .collect_view()
                    }}
                </ul>
            </td>
            <TagActions name=name.clone() access failure changed />
        </tr>
    }
}

/// A tag's actions cell: Delete when it may go, else why not; and the last
/// change of it the server refused (`failure`, when it names this tag).
#[component]
fn TagActions(
    name: String,
    access: Memo<TagAccess>,
    failure: Signal<Option<(String, String)>>,
    changed: Callback<Change>,
) -> impl IntoView {
    let refused = {
        let key = name.clone();
        move || {
            failure.with(|f| {
                f.as_ref()
                    .filter(|(tag, _)| *tag == key)
                    .map(|(_, why)| why.clone())
            })
        }
    };
    let delete = move |_| changed.run(Change::Delete(name.clone()));
    view! {
        <td>
            {move || match access.get() {
                TagAccess::Deletable => view! {
                    <button class="delete-tag danger" on:click=delete.clone()>"Delete"</button>
                }
                .into_any(),
                TagAccess::NamedByRole => view! {
                    <span class="muted">"Named by a role: it cannot be deleted."</span>
                }
                .into_any(),
                TagAccess::ReadOnly => view! { <span class="muted">"read-only"</span> }.into_any(),
            }}
            {move || refused().map(|message| view! { <ErrorNotice message /> })}
        </td>
    }
}

/// What `read` makes of the row's `tag` as last answered (none when the
/// list has no such tag).
fn field<T: 'static>(
    tag: &Option<ArcRwSignal<TagView>>,
    read: fn(&TagView) -> T,
) -> impl Fn() -> Option<T> + Clone + Send + Sync + use<T> {
    let tag = tag.clone();
    move || tag.as_ref().map(|t| t.with(read))
}
