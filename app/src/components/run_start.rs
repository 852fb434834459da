//! Starting a deployment from the Deploy tab (SEMANTICS §15): whether this
//! server can run kolla-ansible (and what to run when it cannot), then
//! what to run — the whole deployment, what changed since the last one, or
//! some actions —, how the hosts are reached, what it will do (the
//! server's dry run: each step and the hosts it runs on, what changed)
//! before it starts, and Start.

use leptos::prelude::*;
use mosaic_core::api::{Action as KollaAction, Connection, Run, RunPlan, RunRequest, Runner};

use crate::api;
use crate::components::action::{ActionError, Request, on_success};

/// What the operator chose to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Deploy,
    Changes,
    Actions,
}

/// The form; `deployed`: the environment was deployed once (then "Deploy
/// changes" is what it offers first); `started` hears of the run started.
#[component]
pub fn RunStart(cluster_id: i64, deployed: bool, started: Callback<Run>) -> impl IntoView {
    let runner = LocalResource::new(move || {
        api::get::<Runner>(api::path::of_cluster(
            cluster_id,
            "deployers/kolla-ansible/runner",
        ))
    });
    view! {
        {move || runner.get().map(|answer| match answer {
            Ok(runner) if !runner.installed => view! { <Missing runner /> }.into_any(),
            Ok(_) => view! { <Form cluster_id deployed started /> }.into_any(),
            Err(failure) => view! { <p class="notice notice-error">{failure.message}</p> }.into_any(),
        })}
    }
}

/// kolla-ansible is not installed on the server: what to run.
#[component]
fn Missing(runner: Runner) -> impl IntoView {
    view! {
        <div class="notice notice-warn runner-missing" role="status">
            <p>"This server cannot run kolla-ansible yet."</p>
            <p>{runner.missing.unwrap_or_default()}</p>
        </div>
    }
}

#[component]
fn Form(cluster_id: i64, deployed: bool, started: Callback<Run>) -> impl IntoView {
    let kind = RwSignal::new(if deployed {
        Kind::Changes
    } else {
        Kind::Deploy
    });
    let chosen = RwSignal::new(vec![KollaAction::GatherFacts]);
    let connection = RwSignal::new(Connection::Ssh);
    let request = move || RunRequest {
        actions: (kind.get() == Kind::Actions).then(|| chosen.get()),
        changes: kind.get() == Kind::Changes,
        connection: connection.get(),
        ..RunRequest::default()
    };
    let preview: Request<RunRequest, RunPlan> = Action::new_local(move |r: &RunRequest| {
        let r = r.clone();
        async move { api::plan_run(cluster_id, &r).await }
    });
    let start: Request<RunRequest, Run> = Action::new_local(move |r: &RunRequest| {
        let r = r.clone();
        async move { api::start_run(cluster_id, &r).await }
    });
    on_success(start, move |run| started.run(run.clone()));
    // A change of what is asked for puts the last preview away.
    Effect::new(move || {
        request();
        preview.value().set(None);
    });
    view! {
        <form class="run-start" on:submit=move |ev| ev.prevent_default()>
            <fieldset>
                <legend>"Run"</legend>
                <KindChoice kind value=Kind::Deploy label="Deploy: bootstrap, check, pull, deploy and post-deploy on every node" />
                <KindChoice kind value=Kind::Changes label="Deploy changes: what changed since the last deployment" />
                <KindChoice kind value=Kind::Actions label="Some kolla-ansible actions:" />
                <Show when=move || kind.get() == Kind::Actions>
                    <ActionChoices chosen />
                </Show>
            </fieldset>
            <label class="connection">
                "Reach the hosts "
                <select on:change=move |ev| connection.set(match event_target_value(&ev).as_str() {
                    "local" => Connection::Local,
                    _ => Connection::Ssh,
                })>
                    <option value="ssh" selected=true>"over SSH, at their management addresses"</option>
                    <option value="local">"on this server (a local connection: labs and tests)"</option>
                </select>
            </label>
            <p>
                <button class="preview-run" on:click=move |_| { preview.dispatch(request()); }>"Preview"</button>
                " "
                <button class="start-run" disabled=move || start.pending().get() on:click=move |_| { start.dispatch(request()); }>
                    "Start"
                </button>
            </p>
            {move || preview.value().get().and_then(Result::ok).map(|plan| view! { <PlanView plan /> })}
            <ActionError action=preview />
            <ActionError action=start />
        </form>
    }
}

#[component]
fn KindChoice(kind: RwSignal<Kind>, value: Kind, label: &'static str) -> impl IntoView {
    view! {
        <label class="run-kind">
            <input
                type="radio"
                name="run-kind"
                prop:checked=move || kind.get() == value
                on:change=move |_| kind.set(value)
            />
            " " {label}
        </label>
    }
}

/// A checkbox per kolla-ansible action.
#[component]
fn ActionChoices(chosen: RwSignal<Vec<KollaAction>>) -> impl IntoView {
    let boxes = KollaAction::ALL
        .into_iter()
        .map(|action| {
            let on = move || chosen.with(|c| c.contains(&action));
            let toggle = move |_| {
                chosen.update(|c| match c.iter().position(|a| *a == action) {
                    Some(i) => {
                        c.remove(i);
                    }
                    None => {
                        c.push(action);
                        c.sort();
                    }
                })
            };
            view! {
                <label class="run-action">
                    <input type="checkbox" value=action.as_str() prop:checked=on on:change=toggle />
                    " " {action.as_str()}
                </label>
            }
        })
        .collect_view();
    view! { <div class="run-actions">{boxes}</div> }
}

/// What the run will do: each step and its hosts, the nodes whose status
/// follows, what changed.
#[component]
fn PlanView(plan: RunPlan) -> impl IntoView {
    let steps = plan
        .steps
        .iter()
        .map(|s| {
            let on = if s.limit.is_empty() {
                "every host".to_owned()
            } else {
                s.limit.join(", ")
            };
            view! { <li>{format!("{} on {on}", s.action)}</li> }
        })
        .collect_view();
    let changes = plan.changes.map(|c| {
        let mut lines = Vec::new();
        if !c.added.is_empty() {
            lines.push(format!("New hosts: {}", c.added.join(", ")));
        }
        for (host, groups) in &c.grown {
            lines.push(format!("{host} joins {}", groups.join(", ")));
        }
        if !c.files.is_empty() {
            lines.push(format!("Changed: {}", c.files.join(", ")));
        }
        if !c.vars.is_empty() {
            lines.push(format!("Hosts whose addresses or interfaces changed: {}", c.vars.join(", ")));
        }
        view! { <ul class="run-changes">{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul> }
    });
    let nodes = plan.nodes.len();
    let follows = if nodes == 0 {
        "No node's status changes (facts and checks deploy nothing).".to_owned()
    } else {
        format!("{nodes} node(s) will be deploying, then ready or in error.")
    };
    view! {
        <div class="run-plan notice" data-plan="">
            <p>{format!("This {} run will do:", plan.kind.as_str())}</p>
            <ol>{steps}</ol>
            {changes}
            <p>{follows}</p>
        </div>
    }
}
