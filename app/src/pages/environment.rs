//! One environment: its nodes as a table (filters, pages, bulk changes),
//! the pre-deployment checks, and the deployment preview of the graph type
//! chosen — nodes with the same tasks grouped, each group's tasks in order
//! and, on demand, as a graph; deleting the environment.
//!
//! The page's answers (nodes, roles, tags, graph types, plan, checks) are
//! asked for at once, each a resource; after a change the page asks again
//! for what it affects (the plan, too, when another graph type is chosen),
//! and the views follow the answers in place: the table, what the admin
//! chose in it and the control in use stay as they were.

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::{GraphSummary, NodeView, RoleView, TagView};
use mosaic_core::environment::{Check, UNFOLDED_WARNINGS, headline};
use mosaic_core::name::{GraphType, TaskId};
use mosaic_core::nodes::PlanGroup;
use mosaic_core::task::{Plan, graph_svg};

use crate::api::{self, TagOwner};
use crate::components::action::{ActionError, Request, on_success};
use crate::components::graph_choice::GraphChoice;
use crate::components::loading::{Answer, Loaded, Loading, latest, outcome};
use crate::components::new_tag_form::NewTagForm;
use crate::components::node_table::{NodeTable, TableState};
use crate::components::upgrades::Upgrades;
use crate::environment::{Env, env};
use crate::route::Route;

#[component]
pub fn EnvironmentNodes() -> impl IntoView {
    use api::path::of_cluster;
    let Env { id, networks, .. } = env();
    // A viewer sees the nodes and the plan; an operator changes them.
    let editable = crate::session::session().can(Role::Operator);
    // Asked for together, not one after another.
    let nodes: Answer<Vec<NodeView>> =
        LocalResource::new(move || api::get(of_cluster(id, "nodes")));
    let roles: Answer<Vec<RoleView>> =
        LocalResource::new(move || api::get(of_cluster(id, "roles")));
    let tags: Answer<Vec<TagView>> =
        LocalResource::new(move || api::get(TagOwner::Environment(id).path()));
    let graphs: Answer<Vec<GraphSummary>> =
        LocalResource::new(move || api::get(of_cluster(id, "graphs")));
    // The preview's graph type: its plan is asked for again when it changes.
    let graph = RwSignal::new(GraphType::deployment());
    let plan: Answer<Plan> = LocalResource::new(move || api::plan(id, graph.get()));
    let checks: Answer<Vec<Check>> = LocalResource::new(move || api::get(of_cluster(id, "checks")));
    // The node groups and networks the table offers (the frame's answer):
    // not waited for, the table shows without them.
    let offered = Memo::new(move |_| {
        networks
            .map(|r| {
                r.as_ref()
                    .map(|c| {
                        let groups: Vec<String> =
                            c.value.node_groups.iter().map(|g| g.name.clone()).collect();
                        (groups, c.value.network_names())
                    })
                    .unwrap_or_default()
            })
            .unwrap_or_default()
    });
    let groups = Signal::derive(move || offered.with(|o: &(Vec<String>, Vec<String>)| o.0.clone()));
    let network_names = Signal::derive(move || offered.with(|o| o.1.clone()));
    // A node changed: its tags, the tags' counts and instances, the roles
    // still offered, the plan and the checks may have changed with it.
    let changed = Callback::new(move |()| {
        nodes.refetch();
        roles.refetch();
        tags.refetch();
        plan.refetch();
        checks.refetch();
    });
    // A tag created changes what inputs offer, nothing else.
    let tag_created = Callback::new(move |()| tags.refetch());
    // What failed is asked for again, the graph types with the rest.
    let retry = Callback::new(move |()| {
        graphs.refetch();
        networks.refetch();
        changed.run(());
    });
    let choose = Callback::new(move |kind| graph.set(kind));
    let data = Data {
        nodes: latest(nodes),
        roles: latest(roles),
        tags: latest(tags),
        graphs: latest(graphs),
        plan: latest(plan),
        checks: latest(checks),
    };
    // Outside the part shown once loaded: filters and the selection
    // survive a failed answer.
    let table = TableState::new();
    let arrived = move || {
        vec![
            outcome(&nodes),
            outcome(&roles),
            outcome(&tags),
            outcome(&graphs),
            outcome(&plan),
            outcome(&checks),
        ]
    };
    view! {
        <Loading label="Loading the environment…" retry>
                <Loaded arrived=arrived>
                    <div>
                        <Head id data editable table />
                    </div>
                    <Upgrades cluster_id=id editable changed />
                    <h2>"Nodes"</h2>
                    <NodeTable
                        cluster_id=id
                        nodes=data.nodes
                        roles=data.roles
                        groups
                        networks=network_names
                        state=table
                        editable
                        changed
                    />
                    {editable
                        .then(|| {
                            view! {
                                <NewTagForm owner=TagOwner::Environment(id) created=tag_created />
                            }
                        })}
                    <h2>"Deployment preview"</h2>
                    <div>
                        <GraphChoice graphs=data.graphs chosen=graph choose />
                        <Preview plan=data.plan nodes=data.nodes />
                    </div>
                </Loaded>
        </Loading>
    }
}

/// The answers as the views read them.
#[derive(Clone, Copy)]
struct Data {
    nodes: Memo<Vec<NodeView>>,
    roles: Memo<Vec<RoleView>>,
    tags: Memo<Vec<TagView>>,
    graphs: Memo<Vec<GraphSummary>>,
    plan: Memo<Plan>,
    checks: Memo<Vec<Check>>,
}

/// The page's head: the tags inputs offer (`known-tags`), the environment
/// file, deleting the environment — after a confirmation that names what
/// goes —, and the checks, whose buttons show only their nodes in the
/// table.
#[component]
fn Head(id: i64, data: Data, editable: bool, table: TableState) -> impl IntoView {
    let offered = Memo::new(move |_| {
        data.tags.with(|tags| {
            data.plan
                .with(|plan| mosaic_core::tag::offered(tags, &plan.instances))
        })
    });
    let delete: Request<(), ()> = Action::new_unsync(move |()| api::delete_cluster(id));
    let navigate = leptos_router::hooks::use_navigate();
    on_success(delete, move |()| {
        navigate(&Route::Environments.path(), Default::default())
    });
    let ask = move |_| {
        let question = data.nodes.with_untracked(|nodes| {
            data.tags
                .with_untracked(|tags| mosaic_core::tag::deletion_question(nodes.len(), tags))
        });
        if window().confirm_with_message(&question).unwrap_or(false) {
            delete.dispatch(());
        }
    };
    let show_only = Callback::new(move |nodes: Vec<i64>| table.show_only(nodes));
    view! {
        <datalist id="known-tags">
            <For
                each=move || offered.get()
                key=|tag| tag.clone()
                children=|tag| view! { <option value=tag></option> }
            />
        </datalist>
        <div class="environment-actions">
            <a class="button export" href=api::path::of_cluster(id, "environment") download="">
                "Download the environment file"
            </a>
            {editable
                .then(|| {
                    view! {
                        <button class="delete-environment danger" on:click=ask>
                            "Delete the environment"
                        </button>
                    }
                })}
            <ActionError action=delete />
        </div>
        <Checks checks=data.checks show_only />
    }
}

/// The pre-deployment checks: a headline, the errors, then the warnings
/// (folded when there are many), each with a button that shows the nodes
/// it concerns.
#[component]
pub fn Checks(checks: Memo<Vec<Check>>, show_only: Callback<Vec<i64>>) -> impl IntoView {
    let errors = Memo::new(move |_| {
        checks.with(|c| {
            c.iter()
                .filter(|c| c.is_error())
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let warnings = Memo::new(move |_| {
        checks.with(|c| {
            c.iter()
                .filter(|c| !c.is_error())
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let folded = Memo::new(move |_| warnings.with(Vec::len) > UNFOLDED_WARNINGS);
    let list = move |list: Memo<Vec<Check>>| {
        view! {
            <ul>
                // Keyed by place and content: two checks may say the same.
                <For
                    each=move || list.get().into_iter().enumerate()
                    key=|check| check.clone()
                    children=move |(_, check)| view! { <CheckItem check show_only /> }
                />
            </ul>
        }
    };
    view! {
        <section aria-labelledby="checks-heading" class="checks" class:has-errors=move || !errors.with(Vec::is_empty)>
            <h2 id="checks-heading">"Before deploying"</h2>
            <p class="checks-headline">{move || headline(errors.with(Vec::len), warnings.with(Vec::len))}</p>
            {list(errors)}
            {move || {
                if folded.get() {
                    view! {
                        <details class="check-warnings">
                            <summary>{move || warnings.with(Vec::len)}" warnings"</summary>
                            {list(warnings)}
                        </details>
                    }
                    .into_any()
                } else {
                    list(warnings).into_any()
                }
            }}
        </section>
    }
}

#[component]
fn CheckItem(check: Check, show_only: Callback<Vec<i64>>) -> impl IntoView {
    let error = check.is_error();
    let show = check.show_nodes().map(|label| {
        let nodes = check.nodes.clone();
        view! {
            " "
            <button class="show-nodes link" on:click=move |_| show_only.run(nodes.clone())>
                {label}
            </button>
        }
    });
    view! {
        <li class=if error { "check check-error" } else { "check check-warning" } data-kind=check.kind>
            <span class="severity">{if error { "Error: " } else { "Warning: " }}</span>
            {check.message}
            {show}
        </li>
    }
}

/// The label of a group's graph button while the graph is hidden.
const SHOW_GRAPH: &str = "Show the graph";
/// The label while it is shown.
const HIDE_GRAPH: &str = "Hide the graph";

/// The deployment preview: the plan's errors, skipped tasks and warnings,
/// then one entry per group of nodes with the same tasks ("12 nodes:
/// compute"), its tasks in order, and a button that shows them as a graph.
#[component]
pub fn Preview(plan: Memo<Plan>, nodes: Memo<Vec<NodeView>>) -> impl IntoView {
    let groups = Memo::new(move |_| plan.with(Plan::groups));
    let names = Memo::new(move |_| {
        nodes.with(|nodes| {
            nodes
                .iter()
                .map(|n| (n.id, n.name.clone()))
                .collect::<Vec<_>>()
        })
    });
    let errors = move || {
        plan.with(|p| {
            (!p.errors.is_empty()).then(|| {
                let items = p
                    .errors
                    .iter()
                    .map(|e| {
                        let kind = e.kind.as_str();
                        view! {
                            <li class="notice notice-error" data-kind=kind>
                                {kind}
                                ": "
                                {e.message.clone()}
                            </li>
                        }
                    })
                    .collect_view();
                view! { <ul class="plan-errors">{items}</ul> }
            })
        })
    };
    let skipped = Memo::new(move |_| plan.with(|p| p.skipped.clone()));
    let warnings = Memo::new(move |_| plan.with(|p| p.warnings.clone()));
    view! {
        <div class="preview">
            {errors}
            // Kept while there are skipped tasks, so that the list opened stays open.
            <Show when=move || !skipped.with(Vec::is_empty)>
                <details class="plan-skipped">
                    <summary>{move || skipped.with(Vec::len)}" tasks skipped by their conditions"</summary>
                    <ul>
                        {move || {
                            skipped
                                .get()
                                .into_iter()
                                .map(|s| {
                                    view! {
                                        <li data-task=s.id.to_string()>
                                            <code>{s.id.to_string()}</code>
                                            ": "
                                            {s.reason}
                                        </li>
                                    }
                                })
                                .collect_view()
                        }}
                    </ul>
                </details>
            </Show>
            <Show when=move || !warnings.with(Vec::is_empty)>
                <div class="notice notice-warn">
                    <p>"Warnings (they do not block the deployment):"</p>
                    <ul class="plan-warnings">
                        {move || warnings.get().into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
                    </ul>
                </div>
            </Show>
            // A group is known by its tasks (no two groups have the same):
            // its entry stays, graph and all, as its nodes change.
            <For
                each=move || { groups.with(|g| g.iter().map(|g| g.tasks.clone()).collect::<Vec<_>>()) }
                key=|tasks| tasks.clone()
                children=move |tasks| view! { <GroupEntry tasks groups names plan /> }
            />
        </div>
    }
}

/// One group: a summary naming its nodes, its tasks, the graph's button
/// and, while it is pressed, the graph.
#[component]
fn GroupEntry(
    tasks: Vec<TaskId>,
    groups: Memo<Vec<PlanGroup>>,
    names: Memo<Vec<(i64, String)>>,
    plan: Memo<Plan>,
) -> impl IntoView {
    let key = tasks.clone();
    // The group's place in the preview and the group as it is now.
    let group = Memo::new(move |_| {
        groups.with(|groups| {
            groups
                .iter()
                .position(|g| g.tasks == key)
                .map(|k| (k, groups[k].clone()))
        })
    });
    let read = move |f: fn(&PlanGroup) -> String| {
        move || group.with(|g| g.as_ref().map(|(_, g)| f(g)).unwrap_or_default())
    };
    let open = group.with_untracked(|g| g.as_ref().is_some_and(|(_, g)| g.open()));
    let names = move || {
        group.with(|g| {
            g.as_ref()
                .map(|(_, g)| names.with(|n| g.names(n)))
                .unwrap_or_default()
        })
    };
    let shown = RwSignal::new(false);
    let graph = {
        let tasks = tasks.clone();
        move || {
            shown.get().then(|| {
                let svg = plan.with(|p| graph_svg(&tasks, &p.edges));
                view! {
                    <div class="graph-scroll" tabindex="0" role="region" aria-label="Task graph" inner_html=svg></div>
                }
            })
        }
    };
    view! {
        <details
            class="node-plan plan-group"
            data-group=move || group.with(|g| g.as_ref().map_or(0, |(k, _)| *k))
            data-nodes=read(|g| g.node_ids().join(" "))
            open=open
        >
            <summary>
                <strong>{read(|g| g.headline().0)}</strong>
                {read(|g| g.headline().1)}
                <span class="muted">{names}</span>
            </summary>
            <ol class="tasks">{tasks.iter().map(|t| view! { <li>{t.to_string()}</li> }).collect_view()}</ol>
            <button
                class="show-graph"
                aria-expanded=move || if shown.get() { "true" } else { "false" }
                on:click=move |_| shown.update(|s| *s = !*s)
            >
                {move || if shown.get() { HIDE_GRAPH } else { SHOW_GRAPH }}
            </button>
            <div class="graph-slot">{graph}</div>
        </details>
    }
}
