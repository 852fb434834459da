//! The Plugins page: what is installed, upload, uninstall.

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::{PluginKind, PluginRelease, PluginSummary};

use crate::api::{self, ApiFailure};
use crate::components::loading::Loading;
use crate::components::notice::ErrorNotice;
use crate::components::plugin_upload::PluginUpload;
use crate::components::table::Table;
use crate::records::{Record, Records};
use crate::route::{Route, set_title};
use crate::session::session;

impl Record for PluginSummary {
    type Key = i64;

    fn key(&self) -> i64 {
        self.id
    }
}

#[component]
pub fn Plugins() -> impl IntoView {
    set_title("Plugins");
    let session = session();
    let admin = Signal::derive(move || session.can(Role::Admin));
    // The list the table follows: its rows stay as answers arrive again.
    let list = Records::new();
    let plugins = LocalResource::new(move || list.load(api::get(api::path::plugins())));
    let changed = Callback::new(move |()| plugins.refetch());
    let arrived = Memo::new(move |_| plugins.with(|a| a.as_ref().is_some_and(Result::is_ok)));
    view! {
        <section class="card plugins" data-page="plugins">
            <h1>"Plugins"</h1>
            <p class="hint">
                "Releases and everything the wizard offers come from plugin packages. Upload one here, or install it on the server with "
                <code>"mosaic plugin install PATH"</code> "."
            </p>
            <Show when=move || admin.get()>
                <PluginUpload installed=Callback::new(move |_| changed.run(())) />
            </Show>
            <Loading label="Loading plugins…" retry=changed>
                // The loading line, and a failed answer's notice.
                {move || plugins.get()}
                <Show when=move || arrived.get()>
                    <PluginTable list admin changed />
                </Show>
            </Loading>
        </section>
    }
}

/// The plugin table's columns.
const HEADS: [&str; 7] = [
    "Plugin", "Version", "Kind", "Releases", "Used by", "Warnings", "Actions",
];

/// The installed plugins, a row each, and for an admin the button
/// uninstalling one: the first click asks for a second.
#[component]
pub fn PluginTable(
    list: Records<PluginSummary>,
    /// The user may uninstall plugins.
    admin: Signal<bool>,
    /// Told when a plugin was uninstalled.
    changed: Callback<()>,
) -> impl IntoView {
    let confirming = RwSignal::new(None::<i64>);
    let uninstall = Action::new_unsync(move |&id: &i64| async move {
        let result = api::uninstall_plugin(id).await;
        if result.is_ok() {
            changed.try_run(());
        }
        (id, result)
    });
    let uninstalling = Uninstalling {
        admin,
        confirming,
        uninstall,
    };
    view! {
        <Show
            when=move || list.all().with(|list| !list.is_empty())
            fallback=|| view! { <p class="empty">"No plugin is installed."</p> }
        >
            <Table class="plugin-table" caption="The installed plugins" columns=&HEADS>
                <For each=list.keys() key=|id| *id let:id>
                    {list.row(&id).map(|row| view! { <PluginRow plugin=row.into() uninstalling /> })}
                </For>
            </Table>
        </Show>
    }
}

/// What the rows share about uninstalling.
#[derive(Clone, Copy)]
struct Uninstalling {
    admin: Signal<bool>,
    /// The plugin whose Uninstall was clicked once.
    confirming: RwSignal<Option<i64>>,
    /// Which plugin, and how it went.
    uninstall: Action<i64, (i64, Result<(), ApiFailure>)>,
}

#[component]
fn PluginRow(
    /// The plugin as last answered (as it was, once it is gone).
    plugin: Signal<PluginSummary>,
    uninstalling: Uninstalling,
) -> impl IntoView {
    let id = plugin.with_untracked(|p| p.id);
    let field = move |f: fn(&PluginSummary) -> String| move || plugin.with(f);
    let kind = move || plugin.with(|p| p.kind);
    view! {
        <tr data-plugin=field(|p| p.name.clone()) data-version=field(|p| p.version.clone()) data-key=id>
            <td>
                <strong>{field(|p| p.title.clone())}</strong>
                <div class="muted">{field(|p| p.name.clone())}</div>
            </td>
            <td>{field(|p| p.version.clone())}</td>
            <td>{move || kind().as_str()}</td>
            <td>
                <For each=move || plugin.with(|p| p.releases.clone()) key=|r| r.id let:release>
                    <ReleaseLine release links=kind() == PluginKind::Release />
                </For>
                {move || {
                    plugin
                        .with(PluginSummary::idle_reason)
                        .map(|why| view! { <strong class="notice notice-warn idle-plugin">{why}</strong> })
                }}
            </td>
            <td>{field(|p| p.used_by.join(", "))}</td>
            <td title=field(PluginSummary::warning_lines)>{move || plugin.with(|p| p.warnings.len())}</td>
            <td>
                <Show when=move || uninstalling.admin.get()>
                    <UninstallButton id uninstalling />
                </Show>
            </td>
        </tr>
    }
}

/// A release the plugin ships or fits; a release plugin's with links to
/// its matrix and tags.
#[component]
fn ReleaseLine(release: PluginRelease, links: bool) -> impl IntoView {
    let links = links.then(|| {
        view! {
            " "
            <a href=Route::ReleaseMatrix(release.id).path()>"matrix"</a>
            " · "
            <a href=Route::ReleaseTags(release.id).path() class="release-tags">"tags"</a>
        }
    });
    view! { <div>{release.label()} {links}</div> }
}

#[component]
fn UninstallButton(id: i64, uninstalling: Uninstalling) -> impl IntoView {
    let Uninstalling {
        confirming,
        uninstall,
        ..
    } = uninstalling;
    let asked = move || confirming.get() == Some(id);
    let busy = move || uninstall.input().with(|input| *input == Some(id));
    let failure = move || {
        uninstall.value().with(|value| match value {
            Some((at, Err(failure))) if *at == id => Some(failure.message.clone()),
            _ => None,
        })
    };
    let click = move |_| {
        if confirming.get_untracked() != Some(id) {
            // A new question: the last refusal is old news.
            uninstall.value().set(None);
            confirming.set(Some(id));
            return;
        }
        confirming.set(None);
        uninstall.dispatch(id);
    };
    view! {
        <button type="button" class="uninstall" class:danger=asked disabled=busy on:click=click>
            {move || if asked() { "Confirm uninstall" } else { "Uninstall" }}
        </button>
        {move || failure().map(|message| view! { <ErrorNotice message /> })}
    }
}
