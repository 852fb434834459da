//! Starting a deployment from the Deploy tab (SEMANTICS §15): whether this
//! server can run kolla-ansible (and what to run when it cannot), then
//! what to run — the whole deployment, what changed since the last one, or
//! some actions —, how the hosts are reached, what it will do (the
//! server's dry run: each step and the hosts it runs on, what changed)
//! before it starts, and Start.

use leptos::prelude::*;
use mosaic_core::api::{
    Action as KollaAction, Connection, PlannedStep, Run, RunPlan, RunRequest, Runner,
};

use crate::api::{self, ApiFailure};
use crate::components::action::{ActionError, Request, on_success};
use crate::components::loading::Loading;

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
    let runner = LocalResource::new(move || api::get::<Runner>(api::path::runner_of(cluster_id)));
    let retry = Callback::new(move |()| runner.refetch());
    view! {
        <Loading label="Asking whether this server runs kolla-ansible…" retry>
            {move || Suspend::new(async move {
                let runner = runner.await?;
                Ok::<_, ApiFailure>(if runner.installed {
                    view! { <Form cluster_id deployed started /> }.into_any()
                } else {
                    view! { <Missing runner /> }.into_any()
                })
            })}
        </Loading>
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

/// What to run, how the hosts are reached, Preview and Start.
// Long: mostly markup; the request it builds is read by both actions.
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
    // The request the last Preview asked about: its plan is shown only
    // while the form still asks the same (a preview answered late for an
    // older request is not).
    let asked = RwSignal::new(None::<RunRequest>);
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
                <select
                    prop:value=move || connection.get().as_str()
                    on:change=move |ev| connection.set(Connection::parse(&event_target_value(&ev)).unwrap_or(Connection::Ssh))
                >
                    <option value="ssh">"over SSH, at their management addresses"</option>
                    <option value="local">"on this server (a local connection: labs and tests)"</option>
                </select>
            </label>
            <p>
                <button class="preview-run" on:click=move |_| {
                    asked.set(Some(request()));
                    preview.dispatch(request());
                }>"Preview"</button>
                " "
                <button class="start-run" disabled=move || start.pending().get() on:click=move |_| { start.dispatch(request()); }>
                    "Start"
                </button>
            </p>
            {move || {
                let current = asked.get() == Some(request());
                let plan = preview.value().get().and_then(Result::ok).filter(|_| current);
                plan.map(|plan| view! { <PlanView plan /> })
            }}
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
/// follows, what changed (core's lines, as the CLI's dry run prints them).
#[component]
fn PlanView(plan: RunPlan) -> impl IntoView {
    let list = |lines: Vec<String>| {
        lines
            .into_iter()
            .map(|l| view! { <li>{l}</li> })
            .collect_view()
    };
    let steps = list(plan.steps.iter().map(PlannedStep::line).collect());
    let changes = plan
        .changes
        .as_ref()
        .map(|c| view! { <ul class="run-changes">{list(c.lines())}</ul> });
    view! {
        <div class="run-plan notice" data-plan="">
            <p>{format!("This {} run will do:", plan.kind.as_str())}</p>
            <ol>{steps}</ol>
            {changes}
            <p>{plan.follows()}</p>
        </div>
    }
}
