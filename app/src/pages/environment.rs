//! One environment's nodes: the table (filters, pages, bulk changes), the
//! pre-deployment checks, adding a node and a tag, deleting the
//! environment. The deployment preview is a tab of its own
//! (`pages/preview.rs`): its plan is asked for only there.
//!
//! The page's answers (nodes, roles, tags, checks) are asked for at once,
//! each a resource. After a bulk change the nodes it changed come back
//! with its answer and patch their rows (`Records::patch`): the list of
//! every node is not asked for again, which at 10,000 nodes is megabytes.
//! A change to one node (added, deleted, edited) asks for the list again.
//! Either way the roles still offered, the tags' counts and the checks
//! are asked for again, and the views follow the answers in place: the
//! table, what the admin chose in it and the control in use stay as they
//! were.

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::{ConfigurationView, NodeView, RoleView, TagView};
use mosaic_core::environment::{Check, UNFOLDED_WARNINGS, headline};

use crate::api::{self, TagOwner};
use crate::components::action::{ActionError, Request, on_success};
use crate::components::loading::{Answer, Loaded, Loading, latest, outcome};
use crate::components::new_tag_form::NewTagForm;
use crate::components::node_table::{NodeTable, NodesChanged, TableState};
use crate::components::upgrades::Upgrades;
use crate::environment::{Env, env};
use crate::records::Records;
use crate::route::Route;

#[component]
pub fn EnvironmentNodes() -> impl IntoView {
    use api::path::of_cluster;
    let Env {
        id,
        networks,
        table,
        ..
    } = env();
    // A viewer sees the nodes; an operator changes them.
    let editable = crate::session::session().can(Role::Operator);
    // Asked for together, not one after another.
    let nodes = Records::<NodeView>::new();
    let listed: Answer<()> =
        LocalResource::new(move || nodes.load(api::get(of_cluster(id, "nodes"))));
    let offered_roles: Answer<Vec<RoleView>> =
        LocalResource::new(move || api::get(of_cluster(id, "roles")));
    let tags: Answer<Vec<TagView>> =
        LocalResource::new(move || api::get(TagOwner::Environment(id).path()));
    let checks: Answer<Vec<Check>> = LocalResource::new(move || api::get(of_cluster(id, "checks")));
    let (groups, network_names) = offered_networks(networks);
    // What else a change to nodes may change: the roles still offered,
    // the tags' counts and instances, the checks.
    let changed = Callback::new(move |change: NodesChanged| {
        match change {
            NodesChanged::These(changed) => nodes.patch(changed),
            NodesChanged::Unknown => listed.refetch(),
        }
        offered_roles.refetch();
        tags.refetch();
        checks.refetch();
    });
    // A tag created changes what inputs offer, nothing else.
    let tag_created = Callback::new(move |()| tags.refetch());
    // What failed is asked for again.
    let retry = Callback::new(move |()| {
        networks.refetch();
        changed.run(NodesChanged::Unknown);
    });
    let upgraded = Callback::new(move |()| changed.run(NodesChanged::Unknown));
    let data = Data {
        nodes,
        tags: latest(tags),
        checks: latest(checks),
    };
    let roles = latest(offered_roles);
    let arrived = move || {
        vec![
            outcome(&listed),
            outcome(&offered_roles),
            outcome(&tags),
            outcome(&checks),
        ]
    };
    view! {
        <Loading label="Loading the environment…" retry>
            <Loaded arrived=arrived>
                <div>
                    <Head id data editable table />
                </div>
                <Upgrades cluster_id=id editable changed=upgraded />
                <h2>"Nodes"</h2>
                <NodeTable
                    cluster_id=id
                    nodes
                    roles
                    groups
                    networks=network_names
                    state=table
                    editable
                    changed
                />
                {editable
                    .then(|| {
                        view! { <NewTagForm owner=TagOwner::Environment(id) created=tag_created /> }
                    })}
            </Loaded>
        </Loading>
    }
}

/// The node groups and networks the table offers, by name, from the
/// frame's network configuration: not waited for, the table shows without
/// them.
fn offered_networks(
    networks: Answer<crate::api::Tagged<ConfigurationView>>,
) -> (Signal<Vec<String>>, Signal<Vec<String>>) {
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
    (
        Signal::derive(move || offered.with(|o| o.0.clone())),
        Signal::derive(move || offered.with(|o| o.1.clone())),
    )
}

/// The answers the head reads.
#[derive(Clone, Copy)]
struct Data {
    nodes: Records<NodeView>,
    tags: Memo<Vec<TagView>>,
    checks: Memo<Vec<Check>>,
}

/// The page's head: the tags inputs offer (`known-tags`), the environment
/// file, deleting the environment — after a confirmation that names what
/// goes —, and the checks, whose buttons show only their nodes in the
/// table.
#[component]
fn Head(id: i64, data: Data, editable: bool, table: TableState) -> impl IntoView {
    let offered = Memo::new(move |_| data.tags.with(|tags| mosaic_core::tag::offered(tags)));
    let delete: Request<(), ()> = Action::new_unsync(move |()| api::delete_cluster(id));
    let navigate = leptos_router::hooks::use_navigate();
    on_success(delete, move |()| {
        navigate(&Route::Environments.path(), Default::default())
    });
    let ask = move |_| {
        let question = data.nodes.all().with_untracked(|nodes| {
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
