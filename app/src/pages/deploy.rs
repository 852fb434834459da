//! An environment's Deploy tab (SEMANTICS §12, §15): its deployment — the
//! run under way, watched live, or the form that starts the next one —,
//! then the deployer its release declares with its series, and the
//! environment exported for it — each
//! node with the kolla groups that place it and the services they bring,
//! the warnings and a download of the files — or, when it is refused, every
//! problem with a link to the tab that fixes it (core's
//! `ExportProblem::fixed_on`).
//!
//! Usable with 1,000 nodes: the hosts are a table paged as the node table
//! is (core's `nodes::PAGE` rows), filtered by name, each row three cells
//! of plain text.

use leptos::prelude::*;
use mosaic_core::api::{DeployerSummary, ErrorCode, Export, ExportHost, ExportProblem, Run};
use mosaic_core::nodes::{count_line, page_count, page_of};

use crate::api::{self, ApiFailure};
use crate::components::live_run::{LiveRun, read_live};
use crate::components::loading::Loading;
use crate::components::pager::Pager;
use crate::components::run_start::RunStart;
use crate::components::table::Table;
use crate::environment::env;
use crate::route::Route;

/// What the tab found: the release's (first) deployer, and the export for
/// it or the refusal.
#[derive(Clone)]
enum Found {
    /// The release declares no deployer.
    Nothing,
    Exported(DeployerSummary, Export),
    /// 409 `not_exportable`: the refusal with every problem.
    Refused(DeployerSummary, ApiFailure),
}

/// The deployers, then the export for the first; a refusal is an answer
/// the tab shows, any other failure the page's.
async fn find(cluster_id: i64) -> Result<Found, ApiFailure> {
    let list: Vec<DeployerSummary> =
        api::get(api::path::of_cluster(cluster_id, "deployers")).await?;
    let Some(deployer) = list.into_iter().next() else {
        return Ok(Found::Nothing);
    };
    match api::get::<Export>(api::path::deployer(cluster_id, &deployer.name, "")).await {
        Ok(export) => Ok(Found::Exported(deployer, export)),
        Err(failure) if failure.code == Some(ErrorCode::NotExportable) => {
            Ok(Found::Refused(deployer, failure))
        }
        Err(failure) => Err(failure),
    }
}

#[component]
pub fn DeployPage() -> impl IntoView {
    let cluster_id = env().id;
    let found = LocalResource::new(move || find(cluster_id));
    let retry = Callback::new(move |()| found.refetch());
    view! {
            <Deployment cluster_id />
            <Loading label="Exporting the environment…" retry>
                {move || Suspend::new(async move {
                    Ok::<_, ApiFailure>(match found.await? {
                        Found::Nothing => view! {
                            <p class="muted">"The environment's release declares no deployer."</p>
                        }
                        .into_any(),
                        Found::Exported(deployer, export) => view! {
                            {head(cluster_id, &deployer, true)}
                            {warnings(&export.warnings)}
                            <Hosts export />
                        }
                        .into_any(),
                        Found::Refused(deployer, failure) => view! {
                            {head(cluster_id, &deployer, false)}
                            {problems(cluster_id, &deployer, failure.export_problems())}
                        }
                        .into_any(),
                    })
                })}
            </Loading>
    }
}

/// The deployer and its series, and the archive's download when the
/// environment can be exported.
fn head(cluster_id: i64, deployer: &DeployerSummary, exported: bool) -> impl IntoView + use<> {
    let archive = api::path::deployer(cluster_id, &deployer.name, "archive");
    view! {
        <p class="deployer">
            "Deployer: " <strong>{deployer.name.clone()}</strong>
            {format!(" {} (OpenStack {})", deployer.series, deployer.openstack_release)}
        </p>
        {exported.then(|| view! {
            <p>
                <a class="button download-archive" href=archive download="">
                    "Download the files (.tar.gz)"
                </a>
            </p>
        })}
    }
}

/// Every problem of a refusal, each with a link to the tab that fixes it.
fn problems(
    cluster_id: i64,
    deployer: &DeployerSummary,
    problems: &[ExportProblem],
) -> impl IntoView + use<> {
    let items: Vec<_> = problems
        .iter()
        .map(|p| {
            let fix = p.fixed_on.map(|tab| {
                let href = Route::of_tab(tab, cluster_id).path();
                view! { " " <a class="fix" href=href>{format!("Fix on the {} tab", tab.label())}</a> }
            });
            view! { <li>{p.message.clone()} {fix}</li> }
        })
        .collect();
    view! {
        <div class="notice notice-error export-problems" role="alert">
            <p>{format!("{} cannot take the environment as it is:", deployer.name)}</p>
            <ul>{items}</ul>
        </div>
    }
}

/// What the deployer ignores or does otherwise: a warning each.
fn warnings(warnings: &[String]) -> impl IntoView + use<> {
    (!warnings.is_empty()).then(|| {
        let items: Vec<_> = warnings
            .iter()
            .map(|w| view! { <li>{w.clone()}</li> })
            .collect();
        view! {
            <div class="notice notice-warn export-warnings">
                <p>"Warnings"</p>
                <ul>{items}</ul>
            </div>
        }
    })
}

/// The exported hosts, filtered by name and paged.
#[component]
fn Hosts(export: Export) -> impl IntoView {
    let total = export.hosts.len();
    let export = StoredValue::new(export);
    let filter = RwSignal::new(String::new());
    let page = RwSignal::new(0usize);
    let shown = Memo::new(move |_| filter.with(|f| export.with_value(|e| e.hosts_named(f))));
    let pages = Memo::new(move |_| shown.with(|s| page_count(s.len())));
    let count = move || count_line(page.get(), shown.with(Vec::len), total, 0);
    let rows = move || {
        shown.with(|ids| {
            export.with_value(|e| {
                page_of(ids, page.get())
                    .iter()
                    .map(|&i| row(&e.hosts[i]))
                    .collect::<Vec<_>>()
            })
        })
    };
    view! {
        <div class="export-hosts">
            <input
                type="search"
                class="host-filter"
                placeholder="Filter by name"
                aria-label="Filter the nodes by name"
                on:input=move |ev| {
                    filter.set(event_target_value(&ev));
                    page.set(0);
                }
            />
            <p class="node-count" aria-live="polite">{count}</p>
            <Table
                class="hosts-table"
                caption="Each node's kolla groups and the services they bring"
                columns=&["Node", "Groups", "Services they bring"]
            >
                {rows}
            </Table>
            <Pager page pages label="Pages of hosts" />
        </div>
    }
}

/// One host: plain text, so that a page of them stays cheap.
fn row(host: &ExportHost) -> impl IntoView + use<> {
    view! {
        <tr data-host=host.name.clone()>
            <th scope="row">{host.name.clone()}</th>
            <td class="placed">{host.placed.join(", ")}</td>
            <td class="services">{host.services_summary()}</td>
        </tr>
    }
}

/// The run under way (or the one just started) live, and the form that
/// starts the next; the environment's page follows a run's end.
#[component]
fn Deployment(cluster_id: i64) -> impl IntoView {
    let env = env();
    let runs =
        LocalResource::new(move || api::get::<Vec<Run>>(api::path::of_cluster(cluster_id, "runs")));
    // The run shown live: one started here, else the one under way.
    let started = RwSignal::new(None::<i64>);
    let shown = Memo::new(move |_| {
        started.get().or_else(|| {
            runs.get()
                .and_then(Result::ok)
                .and_then(|runs| runs.iter().find(|r| !r.status.is_final()).map(|r| r.id))
        })
    });
    let live = LocalResource::new(move || {
        let id = shown.get();
        async move {
            match id {
                Some(id) => read_live(id).await.map(Some),
                None => Ok(None),
            }
        }
    });
    let ended = Callback::new(move |_run: Run| {
        env.cluster.refetch();
        runs.refetch();
        live.refetch();
    });
    let on_started = Callback::new(move |run: Run| {
        env.cluster.refetch();
        started.set(Some(run.id));
    });
    let retry = Callback::new(move |()| {
        runs.refetch();
        live.refetch();
    });
    let history = Route::EnvironmentHistory(cluster_id).path();
    // Built again only when a run starts or ends (the runs or the run shown
    // change), so the form keeps the operator's choices meanwhile.
    view! {
        <section class="deployment" aria-label="Deployment">
            <Loading label="Reading the runs…" retry>
                {move || Suspend::new(async move {
                    let deployed = runs.await?.iter().any(Run::deployed);
                    let live = live.await?;
                    let running = live.as_ref().is_some_and(|(run, _)| !run.status.is_final());
                    Ok::<_, ApiFailure>(view! {
                        {live.map(|(run, hosts)| view! { <LiveRun run hosts ended /> })}
                        {(!running).then(|| view! { <RunStart cluster_id deployed started=on_started /> })}
                    })
                })}
            </Loading>
            <p class="muted"><a href=history.clone()>"Every run of this environment, task by task"</a></p>
        </section>
    }
}
