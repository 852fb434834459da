//! An environment's Components tab (SEMANTICS §9.1): the wizard's four
//! panes at once with the environment's selection, each option a wizard
//! row (`OptionRow`) whose state, reasons and repair come from the engine's
//! evaluation of the whole selection — no pane fixed, as a change made
//! later has no earlier pane to keep — and whose clicks go through
//! `mosaic_core::wizard` (toggle, fix). Preview asks the server what the
//! change would do (a dry run); Save stores it on the settings version the
//! page read (`If-Match`), and a refusal names the nodes and roles.

use std::sync::Arc;

use leptos::prelude::*;
use mosaic_core::api::{
    Attributes, ChangeComponents, Cluster, ComponentView, Consequences, ReleaseSummary,
};
use mosaic_core::component::{Advice, Blocking, Evaluation, validate_selection};
use mosaic_core::wizard::view::{OptionHead, OptionParts, OptionView};
use mosaic_core::wizard::{self, Change, Pane};

use crate::api::{self, ApiFailure};
use crate::catalog::Catalog;
use crate::components::action::Request;
use crate::components::changes::{Refusal, network_items, task_item};
use crate::components::loading::Loading;
use crate::components::option_row::OptionRow;
use crate::environment::{Env, env};

/// What the tab is built from: the release's components, the environment
/// and the settings version its change is made on.
struct Loaded {
    catalog: Arc<Catalog>,
    cluster: Cluster,
    version: i64,
}

async fn load(env: Env) -> Result<Arc<Loaded>, ApiFailure> {
    let cluster: Cluster = env.cluster.await?;
    let cluster_id = env.id;
    let releases = api::get::<Vec<ReleaseSummary>>(api::path::releases()).await?;
    let components =
        api::get::<Vec<ComponentView>>(api::path::components(cluster.release_id)).await?;
    let attributes =
        api::get::<Attributes>(api::path::of_cluster(cluster_id, "attributes")).await?;
    let release = releases
        .iter()
        .find(|r| r.id == cluster.release_id)
        .ok_or_else(|| ApiFailure::message("The environment's release is not installed."))?;
    let catalog = Catalog::new(release, components).map_err(ApiFailure::message)?;
    Ok(Arc::new(Loaded {
        catalog: Arc::new(catalog),
        cluster,
        version: attributes.version,
    }))
}

#[component]
pub fn ComponentsPage() -> impl IntoView {
    let env = env();
    let cluster_id = env.id;
    let loaded = LocalResource::new(move || load(env));
    // The environment too, when it is what failed.
    let reload = Callback::new(move |()| {
        env.cluster.refetch();
        loaded.refetch();
    });
    view! {
        <Loading label="Loading the components…" retry=reload>
            {move || Suspend::new(async move {
                let loaded = loaded.await?;
                Ok::<_, ApiFailure>(view! { <Editor cluster_id loaded /> })
            })}
        </Loading>
    }
}

/// The selection being edited and what the engine says of it.
#[derive(Debug, Clone, Copy)]
struct Draft {
    selection: RwSignal<Vec<bool>>,
    notices: RwSignal<Vec<String>>,
    evaluation: Memo<Evaluation>,
}

impl Draft {
    fn apply(self, change: Change) {
        self.selection.set(change.selection);
        self.notices.set(change.notices);
    }
}

#[component]
fn Editor(cluster_id: i64, loaded: Arc<Loaded>) -> impl IntoView {
    let catalog = loaded.catalog.clone();
    let registry = catalog.registry();
    let chosen: Vec<bool> = (0..registry.len())
        .map(|i| loaded.cluster.components.contains(&registry.get(i).name))
        .collect();
    let selection = RwSignal::new(chosen);
    let evaluation = {
        let catalog = catalog.clone();
        Memo::new(move |_| selection.with(|s| catalog.engine.evaluate(&catalog.names(s))))
    };
    let draft = Draft {
        selection,
        notices: RwSignal::new(Vec::new()),
        evaluation,
    };
    let names = {
        let catalog = catalog.clone();
        Memo::new(move |_| selection.with(|s| catalog.names(s)))
    };
    let valid = {
        let catalog = catalog.clone();
        Memo::new(move |_| {
            names.with(|n| {
                validate_selection(catalog.registry(), catalog.engine.required_types(), n)
                    .is_empty()
            })
        })
    };
    let panes = Pane::ALL.map(|pane| {
        view! { <PaneRows catalog=catalog.clone() draft pane /> }
    });
    view! {
        <p class="hint">
            "Change the environment's components as in the wizard, with every pane open. "
            "Preview what the change does before saving it."
        </p>
        <div class="component-panes">{panes.collect_view()}</div>
        <Notices draft />
        <Changes cluster_id names valid version=loaded.version />
    }
}

/// The last click's notices (what a repair or a swap changed elsewhere).
#[component]
fn Notices(draft: Draft) -> impl IntoView {
    move || {
        draft.notices.with(|notices| {
            (!notices.is_empty()).then(|| {
                let lines = notices
                    .iter()
                    .map(|n| view! { <p>{n.clone()}</p> })
                    .collect_view();
                view! { <div class="notice notice-warn" role="status" data-notices="">{lines}</div> }
            })
        })
    }
}

/// One pane's options as wizard rows.
#[component]
fn PaneRows(catalog: Arc<Catalog>, draft: Draft, pane: Pane) -> impl IntoView {
    let rows = catalog
        .layout()
        .pane_members(pane)
        .into_iter()
        .map(|m| view! { <Row catalog=catalog.clone() draft i=m.index nested=m.nested /> })
        .collect_view();
    view! {
        <fieldset data-pane=pane.component_type().to_string()>
            <legend>{pane.title()}</legend>
            {rows}
        </fieldset>
    }
}

/// Option `i`'s row: its report in the whole selection's evaluation, its
/// repair as the Fix.
#[component]
fn Row(catalog: Arc<Catalog>, draft: Draft, i: usize, nested: bool) -> impl IntoView {
    let registry = catalog.registry();
    let head = OptionHead::new(
        registry,
        i,
        catalog.plugin(i),
        catalog.layout().radio_group(registry, i),
    );
    let name = registry.get(i).name.to_string();
    let open = RwSignal::new(false);
    let parts: Memo<OptionParts> = {
        let catalog = catalog.clone();
        Memo::new(move |_| {
            draft.evaluation.with(|e| {
                let Some(report) = e.components.iter().find(|r| r.name == name) else {
                    return OptionParts::default();
                };
                let blocking = report.repair.clone().map(|repair| Blocking {
                    reasons: report.reasons.clone(),
                    repair,
                });
                let advice = Advice {
                    compatibility: report.compatibility,
                    untested_with: report.untested_with.clone(),
                };
                OptionView {
                    registry: catalog.registry(),
                    i,
                    nested,
                    report,
                    blocking: blocking.as_ref(),
                    advice: Some(&advice),
                    open: open.get(),
                }
                .parts()
            })
        })
    };
    let on_pick = {
        let catalog = catalog.clone();
        Callback::new(move |()| {
            let change = draft
                .selection
                .with_untracked(|s| wizard::toggle(&catalog.engine, s, i));
            draft.apply(change);
        })
    };
    let on_fix = {
        let name = registry.get(i).name.to_string();
        Callback::new(move |()| {
            let repair = draft.evaluation.with_untracked(|e| {
                e.components
                    .iter()
                    .find(|r| r.name == name)
                    .and_then(|r| r.repair.clone())
            });
            if let Some(repair) = repair {
                let change = draft
                    .selection
                    .with_untracked(|s| wizard::fix(&catalog.engine, s, i, &repair));
                draft.apply(change);
            }
        })
    };
    let on_open = Callback::new(move |o: bool| open.set(o));
    view! { <OptionRow head parts on_pick on_fix on_open /> }
}

/// A dry run's answer, with the components it was asked for.
type Previewed = (Vec<String>, Result<Consequences, ApiFailure>);

/// A preview of the components asked for (a dry run), answered with them.
fn preview_action(cluster_id: i64) -> Action<Vec<String>, Previewed> {
    Action::new_unsync(move |components: &Vec<String>| {
        let change = ChangeComponents {
            components: components.clone(),
        };
        let asked = components.clone();
        async move { (asked, api::preview_components(cluster_id, &change).await) }
    })
}

/// Saving the components on a settings version: the version it left.
fn save_action(cluster_id: i64) -> Request<(Vec<String>, i64), i64> {
    Action::new_unsync(move |(components, at): &(Vec<String>, i64)| {
        let change = ChangeComponents {
            components: components.clone(),
        };
        let at = *at;
        async move {
            api::change_components(cluster_id, &change, at).await?;
            let path = api::path::of_cluster(cluster_id, "attributes");
            Ok::<_, ApiFailure>(api::get::<Attributes>(path).await?.version)
        }
    })
}

/// Preview and Save, and what came of them.
#[component]
fn Changes(
    cluster_id: i64,
    names: Memo<Vec<String>>,
    valid: Memo<bool>,
    version: i64,
) -> impl IntoView {
    let (preview, save) = (preview_action(cluster_id), save_action(cluster_id));
    // The settings version a save is made on: the one loaded, then the
    // one the last successful save left (a refusal leaves it).
    let version = Memo::new(move |last: Option<&i64>| {
        save.value().with(|answer| match answer {
            Some(Ok(saved)) => *saved,
            _ => last.copied().unwrap_or(version),
        })
    });
    // A preview is shown for the selection it was asked for only; one the
    // server would refuse shows what the change would do, then why.
    let shown = move || {
        preview.value().get().and_then(|(asked, answer)| {
            names.with(|now| *now == asked).then(|| match answer {
                Ok(c) => view! { <ConsequencesView consequences=c /> }.into_any(),
                Err(e) => {
                    let would = e
                        .consequences()
                        .map(|c| view! { <ConsequencesView consequences=c /> });
                    view! { {would} <Refusal failure=e /> }.into_any()
                }
            })
        })
    };
    let outcome = move || {
        save.value().get().map(|answer| match answer {
            Ok(_) => view! {
                <div class="notice notice-ok" role="status" data-saved="">"Saved: the components changed."</div>
            }
            .into_any(),
            Err(e) => view! { <Refusal failure=e /> }.into_any(),
        })
    };
    view! {
        <div class="actions">
            <button
                id="preview-components"
                type="button"
                disabled=move || !valid.get() || preview.pending().get()
                on:click=move |_| {
                    preview.dispatch(names.get_untracked());
                }
            >
                "Preview"
            </button>
            <button
                id="save-components"
                type="button"
                class="primary"
                disabled=move || !valid.get() || save.pending().get()
                on:click=move |_| {
                    save.dispatch((names.get_untracked(), version.get_untracked()));
                }
            >
                "Save"
            </button>
        </div>
        {shown}
        {outcome}
    }
}

/// A dry run's consequences: settings, plugins, roles and tasks.
#[component]
fn ConsequencesView(consequences: Consequences) -> impl IntoView {
    let Consequences {
        settings,
        plugins,
        roles,
        tasks,
        networks,
    } = consequences;
    let settings = settings
        .into_iter()
        .map(|s| {
            view! {
                <li data-setting=s.path.clone()>
                    <code>{s.path.clone()}</code>
                    {format!(": {} → {}", s.before, s.after)}
                </li>
            }
        })
        .collect_view();
    let names = |ps: Vec<mosaic_core::name::PluginName>| {
        ps.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut plugin_lines = Vec::new();
    if !plugins.enabled.is_empty() {
        plugin_lines.push(format!("Switched on: {}", names(plugins.enabled)));
    }
    if !plugins.disabled.is_empty() {
        plugin_lines.push(format!("Switched off: {}", names(plugins.disabled)));
    }
    if plugin_lines.is_empty() {
        plugin_lines.push("No plugin is switched on or off.".to_owned());
    }
    let roles = roles
        .into_iter()
        .map(|r| {
            let held = match r.nodes.as_slice() {
                [] => String::new(),
                nodes => format!(" — held by {}: the change is refused", nodes.join(", ")),
            };
            view! { <li data-role=r.role.to_string()>{format!("{}{held}", r.role)}</li> }
        })
        .collect_view();
    let tasks = tasks.into_iter().map(task_item).collect_view();
    view! {
        <div class="consequences" data-consequences="">
            <h2>"What the change does"</h2>
            <h3>"Settings"</h3>
            <ul data-part="settings">{settings}</ul>
            <h3>"Plugins"</h3>
            <ul data-part="plugins">
                {plugin_lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
            </ul>
            <h3>"Roles that become unavailable"</h3>
            <ul data-part="roles">{roles}</ul>
            <h3>"Tasks"</h3>
            <ul data-part="tasks">{tasks}</ul>
            <h3>"Networks"</h3>
            <ul data-part="networks">{network_items(&networks)}</ul>
        </div>
    }
}
