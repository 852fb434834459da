//! An environment's History tab (SEMANTICS §15, Fuel 10's deployment
//! history): its runs, newest first, and for the one chosen its steps with
//! the command line each ran, each host's counts, and every task on every
//! node — filtered by node, status and task name on the server, a page at
//! a time, downloadable as CSV — with a link to the raw output.

use leptos::prelude::*;
use mosaic_core::api::{HistoryRow, HostSummary, Run, TaskStatus};

use crate::api::{self, ApiFailure, HistoryFilters};
use crate::components::loading::Loading;
use crate::components::table::Table;
use crate::environment::env;

/// History rows a page.
const PAGE: usize = 100;

#[component]
pub fn HistoryPage() -> impl IntoView {
    let cluster_id = env().id;
    let runs =
        LocalResource::new(move || api::get::<Vec<Run>>(api::path::of_cluster(cluster_id, "runs")));
    // The run clicked, else the newest; a memo, so that clicking the run
    // shown again changes nothing.
    let clicked = RwSignal::new(None::<i64>);
    let chosen = Memo::new(move |_| {
        clicked.get().or_else(|| {
            runs.get()
                .and_then(Result::ok)
                .and_then(|runs| runs.first().map(|r| r.id))
        })
    });
    let retry = Callback::new(move |()| runs.refetch());
    view! {
        <Loading label="Reading the runs…" retry>
            {move || Suspend::new(async move {
                let runs = runs.await?;
                Ok::<_, ApiFailure>(if runs.is_empty() {
                    view! { <p class="muted">"No run yet: start one on the Deploy tab."</p> }.into_any()
                } else {
                    view! { <Runs runs chosen clicked /> <Chosen chosen /> }.into_any()
                })
            })}
        </Loading>
    }
}

/// The runs, newest first; a click chooses one.
#[component]
fn Runs(
    runs: Vec<Run>,
    chosen: Memo<Option<i64>>,
    clicked: RwSignal<Option<i64>>,
) -> impl IntoView {
    let rows = runs
        .into_iter()
        .map(|run| {
            let id = run.id;
            let here = move || chosen.get() == Some(id);
            view! {
                <tr class:current=here data-run=id>
                    <th scope="row">
                        <button class="link choose-run" aria-pressed=move || here().to_string() on:click=move |_| clicked.set(Some(id))>
                            {format!("Run {id}")}
                        </button>
                    </th>
                    <td>{run.kind.as_str()}</td>
                    <td class=format!("run-status status-{}", run.status.as_str())>{run.status.as_str()}</td>
                    <td>{run.created_by.clone()}</td>
                    <td>{run.created_at.clone()}</td>
                    <td>{run.finished_at.clone().unwrap_or_default()}</td>
                    <td>{run.message.clone().unwrap_or_default()}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <Table class="runs-table" caption="The environment's runs, newest first"
            columns=&["Run", "Kind", "Status", "By", "Started", "Ended", "Why"]>
            {rows}
        </Table>
    }
}

/// The chosen run: its steps, hosts and history.
#[component]
fn Chosen(chosen: Memo<Option<i64>>) -> impl IntoView {
    move || {
        chosen.get().map(|id| {
            let run = LocalResource::new(move || api::get::<Run>(api::path::run(id, "")));
            let hosts = LocalResource::new(move || api::get::<Vec<HostSummary>>(api::path::run(id, "hosts")));
            let retry = Callback::new(move |()| {
                run.refetch();
                hosts.refetch();
            });
            view! {
                <section class="run-detail" data-run=id>
                    <Loading label="Reading the run…" retry>
                        {move || Suspend::new(async move {
                            let (run, hosts) = (run.await?, hosts.await?);
                            Ok::<_, ApiFailure>(view! {
                                <RunSteps run=run.clone() />
                                <p>
                                    <a href=api::path::run(id, "stdout") target="_blank" class="run-output">"The raw output"</a>
                                </p>
                                <HostCounts hosts=hosts.clone() />
                                <History id hosts />
                            })
                        })}
                    </Loading>
                </section>
            }
        })
    }
}

#[component]
fn RunSteps(run: Run) -> impl IntoView {
    let steps = run
        .steps
        .iter()
        .map(|s| {
            view! {
                <li class=format!("step step-{}", s.status.as_str())>
                    {s.line()}
                    {(!s.argv.is_empty()).then(|| view! { <br /> <code class="argv">{s.argv.join(" ")}</code> })}
                </li>
            }
        })
        .collect_view();
    view! {
        <h2>{format!("{} — {}", run.title(), run.status.as_str())}</h2>
        <ol class="run-steps">{steps}</ol>
    }
}

/// Each host's counts (Ansible's `PLAY RECAP`).
#[component]
fn HostCounts(hosts: Vec<HostSummary>) -> impl IntoView {
    let rows = hosts
        .iter()
        .map(|h| {
            view! {
                <tr data-host=h.host.clone()>
                    <th scope="row">{h.host.clone()}</th>
                    <td>{h.ok}</td><td>{h.changed}</td><td>{h.failures}</td><td>{h.unreachable}</td>
                    <td>{h.skipped}</td><td>{h.ignored}</td><td>{h.rescued}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <Table class="run-recap" caption="What the run did on each host"
            columns=&["Host", "Ok", "Changed", "Failed", "Unreachable", "Skipped", "Ignored", "Rescued"]>
            {rows}
        </Table>
    }
}

/// The node × task table: filters, a page of rows, Previous and Next, the
/// CSV of what the filters keep.
// Long: mostly markup, the filters and the pager around one read.
#[component]
fn History(id: i64, hosts: Vec<HostSummary>) -> impl IntoView {
    let filters = RwSignal::new(HistoryFilters::default());
    let page = RwSignal::new(0usize);
    let rows = LocalResource::new(move || {
        let (filters, offset) = (filters.get(), page.get() * PAGE);
        // One row more than a page: whether there is a next page.
        async move { api::run_history(id, &filters, offset, PAGE + 1).await }
    });
    let retry = Callback::new(move |()| rows.refetch());
    let csv = move || filters.with(|f| api::path::run_history_csv(id, f));
    // A filter's change: the first page of what it keeps.
    let set = move |field: fn(&mut HistoryFilters) -> &mut String| {
        move |ev: leptos::ev::Event| {
            let value = event_target_value(&ev);
            filters.update(|f| *field(f) = value);
            page.set(0);
        }
    };
    let nodes = hosts
        .iter()
        .filter_map(|h| Some((h.node_id?, h.host.clone())))
        .map(|(id, host)| view! { <option value=id.to_string()>{host}</option> })
        .collect_view();
    let statuses = TaskStatus::ALL
        .map(|s| view! { <option value=s.as_str()>{s.as_str()}</option> })
        .collect_view();
    let more = move || {
        rows.get()
            .and_then(Result::ok)
            .is_some_and(|r| r.len() > PAGE)
    };
    view! {
        <div class="run-history">
            <div class="filters">
                <label>"Node " <select on:change=set(|f| &mut f.nodes)>
                    <option value="">"any"</option>{nodes}
                </select></label>
                <label>"Status " <select on:change=set(|f| &mut f.statuses)>
                    <option value="">"any"</option>{statuses}
                </select></label>
                <label>"Task " <input type="search" placeholder="The task's name" on:change=set(|f| &mut f.tasks) /></label>
                " " <a class="button download-history" href=csv download="">"Download as CSV"</a>
            </div>
            <Loading label="Reading the history…" retry>
                {move || Suspend::new(async move {
                    let rows = rows.await?;
                    Ok::<_, ApiFailure>(view! {
                        <Table class="history-table" caption="Each task on each node"
                            columns=&["Task", "Node", "Status", "Started", "Ended", "Step", "Role"]>
                            {rows.iter().take(PAGE).map(history_row).collect_view()}
                        </Table>
                    })
                })}
            </Loading>
            <nav class="pages" aria-label="Pages of the history">
                <button class="previous-page" disabled=move || page.get() == 0 on:click=move |_| page.update(|p| *p = p.saturating_sub(1))>"Previous"</button>
                <span>{move || format!(" Page {} ", page.get() + 1)}</span>
                <button class="next-page" disabled=move || !more() on:click=move |_| page.update(|p| *p += 1)>"Next"</button>
            </nav>
        </div>
    }
}

fn history_row(row: &HistoryRow) -> impl IntoView + use<> {
    view! {
        <tr class=format!("status-{}", row.status.as_str())>
            <td>{row.task_name.clone()}{row.message.clone().map(|m| view! { <br /> <small class="failure-message">{m}</small> })}</td>
            <td>{row.host.clone()}</td>
            <td>{row.status.as_str()}</td>
            <td>{row.time_start.clone().unwrap_or_default()}</td>
            <td>{row.time_end.clone().unwrap_or_default()}</td>
            <td>{row.step.as_str()}</td>
            <td>{row.role.clone().unwrap_or_default()}</td>
        </tr>
    }
}
