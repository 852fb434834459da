//! An environment's upgrades (SEMANTICS §7.6), on its page: which of the
//! versions it pins have newer installed versions, and for one of them the
//! preview of the move — components, settings, roles, tasks grouped by
//! nodes, the changes made on the release carried or not — with Upgrade
//! (on the settings version read with the preview, `If-Match`) and Cancel;
//! a refusal shows what the move would do and says why; an upgrade done
//! says which changes made on the release it did not carry.

use leptos::prelude::*;
use mosaic_core::api::{
    Attributes, ChangeKind, NotCarried, ReleaseCarry, UpgradeConsequences, UpgradeOffer,
    UpgradeRequest,
};

use crate::api::{self, ApiFailure};
use crate::components::action::{Request, on_success};
use crate::components::changes::{Refusal, network_items, task_item};

/// The upgrade being previewed, what the preview said and the settings
/// version it was read at.
type Previewed = (
    UpgradeRequest,
    Result<(UpgradeConsequences, i64), ApiFailure>,
);

async fn preview(cluster: i64, request: UpgradeRequest) -> Previewed {
    let answer = async {
        let path = api::path::of_cluster(cluster, "attributes");
        let version = api::get::<Attributes>(path).await?.version;
        Ok((api::preview_upgrade(cluster, &request).await?, version))
    }
    .await;
    (request, answer)
}

#[component]
pub fn Upgrades(
    cluster_id: i64,
    /// The user may upgrade.
    editable: bool,
    /// Told when an upgrade changed the environment.
    changed: Callback<()>,
) -> impl IntoView {
    let offers = LocalResource::new(move || {
        api::get::<Vec<UpgradeOffer>>(api::path::of_cluster(cluster_id, "upgrades"))
    });
    let ask =
        Action::new_unsync(move |request: &UpgradeRequest| preview(cluster_id, request.clone()));
    // The preview shown: the last one asked for, until it is cancelled or
    // carried out.
    let shown = ask.value();
    let apply: Request<_, _> =
        Action::new_unsync(move |(request, version): &(UpgradeRequest, i64)| {
            let (request, version) = (request.clone(), *version);
            async move {
                let upgraded = api::upgrade(cluster_id, &request, version).await?;
                Ok::<_, ApiFailure>(upgraded.release_changes.not_carried)
            }
        });
    on_success(apply, move |_| {
        shown.set(None);
        offers.refetch();
        changed.run(());
    });
    let list = move || offers.get().and_then(Result::ok).unwrap_or_default();
    view! {
        <Show when=move || !list().is_empty()>
            <div class="upgrades notice notice-warn" data-upgrades="">
                <h2>"Newer versions are installed"</h2>
                <ul>
                    <For each=list key=|o| (o.plugin.clone(), o.to.clone()) let:offer>
                        <OfferLine offer editable ask />
                    </For>
                </ul>
            </div>
        </Show>
        {move || {
            shown
                .get()
                .map(|(request, answer)| match answer {
                    Ok((consequences, version)) => {
                        view! { <UpgradePreview request consequences version apply shown /> }
                            .into_any()
                    }
                    // Refused: what it would do, then why.
                    Err(failure) => {
                        let would = failure.upgrade().map(|c| {
                            view! {
                                <div class="consequences upgrade-preview" data-consequences="">
                                    <UpgradeConsequencesView consequences=c />
                                </div>
                            }
                        });
                        view! { {would} <Refusal failure /> }.into_any()
                    }
                })
        }}
        <Upgraded apply />
    }
}

/// What the last upgrade did: refused and why, or done with what it did
/// not carry.
#[component]
fn Upgraded(apply: Request<(UpgradeRequest, i64), Vec<NotCarried>>) -> impl IntoView {
    view! {
        {move || {
            apply
                .value()
                .get()
                .and_then(Result::err)
                .map(|failure| view! { <Refusal failure /> })
        }}
        {move || {
            apply
                .value()
                .get()
                .and_then(Result::ok)
                .map(|not_carried| {
                    let lines = not_carried
                        .iter()
                        .map(|n| view! { <li>{n.to_string()}</li> })
                        .collect_view();
                    view! {
                        <div class="notice notice-ok" role="status" data-upgraded="">
                            <p>"Upgraded."</p>
                            <ul>{lines}</ul>
                        </div>
                    }
                })
        }}
    }
}

/// "storage_demo 1.0.0 → 2.0.0" with a Preview button per newer version.
#[component]
fn OfferLine(
    offer: UpgradeOffer,
    editable: bool,
    ask: Action<UpgradeRequest, Previewed>,
) -> impl IntoView {
    let buttons = offer
        .to
        .iter()
        .map(|version| {
            let request = UpgradeRequest {
                plugin: offer.plugin.clone(),
                version: version.clone(),
            };
            let label = format!("Preview {version}");
            editable.then(|| {
                view! {
                    " "
                    <button
                        type="button"
                        class="preview-upgrade"
                        data-version=version.clone()
                        disabled=move || ask.pending().get()
                        on:click=move |_| {
                            ask.dispatch(request.clone());
                        }
                    >
                        {label}
                    </button>
                }
            })
        })
        .collect_view();
    view! {
        <li data-plugin=offer.plugin.to_string()>
            {format!("{} {} → {}", offer.plugin, offer.from, offer.to.join(", "))}
            {buttons}
        </li>
    }
}

/// What the upgrade would do, with Upgrade and Cancel.
#[component]
fn UpgradePreview(
    request: UpgradeRequest,
    consequences: UpgradeConsequences,
    version: i64,
    apply: Action<(UpgradeRequest, i64), Result<Vec<NotCarried>, ApiFailure>>,
    shown: MappedSignal<Option<Previewed>>,
) -> impl IntoView {
    let title = format!("Upgrading {} to {}", request.plugin, request.version);
    view! {
        <div class="consequences upgrade-preview" data-consequences="">
            <h2>{title}</h2>
            <UpgradeConsequencesView consequences />
            <div class="actions">
                <button
                    id="apply-upgrade"
                    type="button"
                    class="primary"
                    disabled=move || apply.pending().get()
                    on:click=move |_| {
                        apply.dispatch((request.clone(), version));
                    }
                >
                    "Upgrade"
                </button>
                <button id="cancel-upgrade" type="button" on:click=move |_| shown.set(None)>
                    "Cancel"
                </button>
            </div>
        </div>
    }
}

/// A list of `lines` under `title` ("None." when there are none), each an
/// item with `attr` = its key.
fn part(title: &'static str, name: &'static str, lines: Vec<(String, String)>) -> impl IntoView {
    let items = if lines.is_empty() {
        view! { <li class="muted">"None."</li> }.into_any()
    } else {
        lines
            .into_iter()
            .map(|(key, line)| view! { <li data-key=key>{line}</li> })
            .collect_view()
            .into_any()
    };
    view! {
        <h3>{title}</h3>
        <ul data-part=name>{items}</ul>
    }
}

#[component]
fn UpgradeConsequencesView(consequences: UpgradeConsequences) -> impl IntoView {
    let UpgradeConsequences {
        components,
        settings,
        roles,
        tasks,
        networks,
        release_changes,
    } = consequences;
    let marked = |mark: &str, names: Vec<String>| -> Vec<(String, String)> {
        names
            .into_iter()
            .map(|n| (n.clone(), format!("{mark} {n}")))
            .collect()
    };
    let names = |list: &[_]| -> Vec<String> { list.iter().map(ToString::to_string).collect() };
    let mut component_lines = marked("Added:", names(&components.added));
    component_lines.extend(marked("Removed:", names(&components.removed)));
    let mut setting_lines = marked("Added:", settings.added);
    setting_lines.extend(marked("Removed:", settings.removed));
    setting_lines.extend(settings.changed.into_iter().map(|s| {
        (
            s.path.clone(),
            format!("Changed: {}: {} → {}", s.path, s.before, s.after),
        )
    }));
    let mut role_lines = marked(
        "Added:",
        roles.added.iter().map(ToString::to_string).collect(),
    );
    role_lines.extend(roles.removed.into_iter().map(|r| {
        let held = match r.nodes.as_slice() {
            [] => String::new(),
            nodes => format!(" — held by {}: the upgrade is refused", nodes.join(", ")),
        };
        (r.role.to_string(), format!("Removed: {}{held}", r.role))
    }));
    view! {
        {part("Components", "components", component_lines)}
        {part("Settings", "settings", setting_lines)}
        {part("Roles", "roles", role_lines)}
        <h3>"Tasks"</h3>
        <ul data-part="tasks">{tasks.into_iter().map(task_item).collect_view()}</ul>
        <h3>"Networks"</h3>
        <ul data-part="networks">{network_items(&networks)}</ul>
        {part("Changes made on the release", "release", release_lines(release_changes))}
    }
}

/// The changes made on the release: each carried, or not and why.
fn release_lines(release: ReleaseCarry) -> Vec<(String, String)> {
    let key = |kind: ChangeKind, name: &str| format!("{}:{name}", kind.as_str());
    let carried = release.carried.into_iter().map(|c| {
        let line = format!("Carried: {} {}", c.kind.as_str(), c.name);
        (key(c.kind, &c.name), line)
    });
    let not = release.not_carried.into_iter().map(|n| {
        let line = format!("Not carried: {} {} — {}", n.kind.as_str(), n.name, n.why());
        (key(n.kind, &n.name), line)
    });
    carried.chain(not).collect()
}
