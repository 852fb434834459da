//! A run as it goes (the Deploy tab, SEMANTICS §15): read once, then its
//! stream folded in with core's `RunView` — the fold the CLI's `--follow`
//! uses —, an event seen twice (the browser reconnects by itself with
//! `Last-Event-ID`) changing nothing. It shows the progress, the steps,
//! each host's state and counts (paged and filtered by name, so a run of a
//! thousand nodes costs a page of rows), the failures with their messages,
//! and Stop with what stopping kolla-ansible leaves behind.
//!
//! Events arrive in bursts of hundreds: each is folded at once, and the
//! page follows once per animation frame (`request_animation_frame`), not
//! once per event. A step's end asks for the hosts' counts again (Ansible's
//! own stats, as the server stored them).

use futures_util::StreamExt;
use gloo_net::eventsource::futures::EventSource;
use leptos::prelude::*;
use mosaic_core::api::{HostSummary, Run, RunEvent, StepStatus};
use mosaic_core::nodes::{count_line, page_count, page_of};
use mosaic_core::run::RunView;

use crate::api::{self, ApiFailure};
use crate::components::action::{ActionError, Request};
use crate::components::pager::Pager;
use crate::components::table::Table;

/// The live view of `run` (read with `hosts` at its `last_seq`); `ended`
/// hears of its end, with the run as it ended.
#[component]
pub fn LiveRun(run: Run, hosts: Vec<HostSummary>, ended: Callback<Run>) -> impl IntoView {
    let id = run.id;
    let view = StoredValue::new_local(RunView::new(run.clone(), hosts));
    let version = RwSignal::new(0_u64);
    let follow = Follow {
        view,
        version,
        ended,
    };
    follow.listen(id, run.last_seq);
    let read = move |f: &dyn Fn(&RunView) -> String| {
        version.track();
        view.with_value(|v| f(v))
    };
    let status = move || read(&|v| v.run.status.as_str().to_owned());
    let percent = move || {
        version.track();
        view.with_value(|v| v.run.progress.percent(v.run.status.is_final()))
    };
    let plays = move || {
        read(&|v| {
            format!(
                "{} of {} plays",
                v.run.progress.plays_started, v.run.progress.plays_total
            )
        })
    };
    let finished = Signal::derive(move || {
        version.track();
        view.with_value(|v| v.run.status.is_final())
    });
    view! {
        <section class="live-run" data-run=id data-status=status aria-live="polite">
            <h2>{format!("Run {id}: {}", run.kind.as_str())} " — " <span class="run-status">{status}</span></h2>
            <p class="run-progress">
                <progress max="100" value=percent aria-label="Progress of the run">{percent}</progress>
                " " {plays}
            </p>
            <Steps view version />
            <p class="run-message">{move || read(&|v| v.run.message.clone().unwrap_or_default())}</p>
            <Show when=move || !finished.get()>
                <Stop id />
            </Show>
            <Failures view version />
            <Hosts view version />
        </section>
    }
}

/// What the stream's reader changes.
#[derive(Clone, Copy)]
struct Follow {
    view: StoredValue<RunView, LocalStorage>,
    version: RwSignal<u64>,
    ended: Callback<Run>,
}

impl Follow {
    /// Opens the stream after `after` and folds it in until its end; the
    /// stream is closed when the view goes.
    fn listen(self, id: i64, after: i64) {
        let url = format!("{}?after={after}", api::path::run(id, "stream"));
        let Ok(mut source) = EventSource::new(&url) else {
            return;
        };
        let (Ok(messages), Ok(end)) = (source.subscribe("message"), source.subscribe("end")) else {
            return;
        };
        let kept = StoredValue::new_local(Some(source));
        on_cleanup(move || {
            if let Some(source) = kept.try_update_value(Option::take).flatten() {
                source.close();
            }
        });
        let scheduled = StoredValue::new_local(false);
        leptos::task::spawn_local(async move {
            let mut all = futures_util::stream::select(messages, end);
            while let Some(Ok((kind, message))) = all.next().await {
                let data = message.data().as_string().unwrap_or_default();
                if kind == "end" {
                    self.finish(&data);
                    if let Some(source) = kept.try_update_value(Option::take).flatten() {
                        source.close();
                    }
                    break;
                }
                if let Ok(event) = serde_json::from_str::<RunEvent>(&data) {
                    self.fold(id, &event, scheduled);
                }
            }
        });
    }

    fn fold(self, id: i64, event: &RunEvent, scheduled: StoredValue<bool, LocalStorage>) {
        let applied = self
            .view
            .try_update_value(|v| v.apply(event))
            .unwrap_or(false);
        if !applied {
            return;
        }
        if event.event == "step_end" {
            self.recount(id);
        }
        if !scheduled.get_value() {
            scheduled.set_value(true);
            let version = self.version;
            request_animation_frame(move || {
                scheduled.set_value(false);
                version.update(|n| *n += 1);
            });
        }
    }

    /// The hosts' counts as the server stored them (Ansible's stats once a
    /// step ended).
    fn recount(self, id: i64) {
        leptos::task::spawn_local(async move {
            if let Ok(hosts) = api::get::<Vec<HostSummary>>(api::path::run(id, "hosts")).await {
                self.view
                    .update_value(|v| *v = RunView::new(v.run.clone(), hosts));
                self.version.update(|n| *n += 1);
            }
        });
    }

    fn finish(self, data: &str) {
        if let Ok(run) = serde_json::from_str::<Run>(data) {
            self.view.update_value(|v| {
                v.run.status = run.status;
                v.run.message.clone_from(&run.message);
                v.run.steps.clone_from(&run.steps);
            });
            self.recount(run.id);
            self.version.update(|n| *n += 1);
            self.ended.run(run);
        }
    }
}

/// The steps, each with its status (and exit code once it ended).
#[component]
fn Steps(view: StoredValue<RunView, LocalStorage>, version: RwSignal<u64>) -> impl IntoView {
    let steps = move || {
        version.track();
        view.with_value(|v| {
            v.run
                .steps
                .iter()
                .map(|s| {
                    let rc = s.rc.map(|rc| format!(" (exit {rc})")).unwrap_or_default();
                    let class = format!("step step-{}", s.status.as_str());
                    let current = (s.status == StepStatus::Running).then_some("step");
                    view! {
                        <li class=class aria-current=current>
                            {format!("{} — {}{rc}", s.action, s.status.as_str())}
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! { <ol class="run-steps">{steps}</ol> }
}

/// Stop, then what stopping does and a second click to do it.
#[component]
fn Stop(id: i64) -> impl IntoView {
    let asking = RwSignal::new(false);
    let stop: Request<(), Run> = Action::new_local(move |()| api::cancel_run(id));
    view! {
        <div class="stop-run">
            <Show
                when=move || asking.get()
                fallback=move || view! {
                    <button class="stop" on:click=move |_| asking.set(true)>"Stop"</button>
                }
            >
                <div class="notice notice-warn" role="alertdialog" aria-label="Stop the deployment?">
                    <p>
                        "Stop the deployment? kolla-ansible stops where each host is: a host may be left "
                        "half-configured, some of its containers deployed and others not. The nodes of "
                        "this run will be in error; run the deployment again to finish it (kolla-ansible's "
                        "actions can be run again)."
                    </p>
                    <button class="stop-confirm" on:click=move |_| { stop.dispatch(()); }>
                        "Stop the deployment"
                    </button>
                    " "
                    <button on:click=move |_| asking.set(false)>"Keep it running"</button>
                </div>
            </Show>
            <ActionError action=stop />
        </div>
    }
}

/// The failures so far, each with its host, task and message.
#[component]
fn Failures(view: StoredValue<RunView, LocalStorage>, version: RwSignal<u64>) -> impl IntoView {
    let items = move || {
        version.track();
        view.with_value(|v| {
            v.failures
                .iter()
                .map(|f| {
                    let message = f.message.clone().unwrap_or_default();
                    view! {
                        <li>
                            <strong>{f.host.clone()}</strong>
                            {format!(" — {} ({}): ", f.task, f.status.as_str())}
                            <span class="failure-message">{message}</span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let any = move || {
        version.track();
        view.with_value(|v| !v.failures.is_empty())
    };
    view! {
        <Show when=any>
            <div class="notice notice-error run-failures" role="alert">
                <p>"Failures"</p>
                <ul>{items}</ul>
            </div>
        </Show>
    }
}

/// Each host's state and counts, filtered by name and paged.
#[component]
fn Hosts(view: StoredValue<RunView, LocalStorage>, version: RwSignal<u64>) -> impl IntoView {
    let filter = RwSignal::new(String::new());
    let page = RwSignal::new(0usize);
    let hosts = Memo::new(move |_| {
        version.track();
        view.with_value(RunView::hosts)
    });
    let shown = Memo::new(move |_| {
        let text = filter.get().to_lowercase();
        hosts.with(|all| {
            all.iter()
                .enumerate()
                .filter(|(_, h)| h.host.to_lowercase().contains(&text))
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        })
    });
    let pages = Memo::new(move |_| shown.with(|s| page_count(s.len())));
    let count = move || count_line(page.get(), shown.with(Vec::len), hosts.with(Vec::len), 0);
    let ended = move || {
        version.track();
        view.with_value(|v| v.run.status.is_final())
    };
    let rows = move || {
        let ended = ended();
        shown.with(|ids| {
            hosts.with(|all| {
                page_of(ids, page.get())
                    .iter()
                    .map(|&i| host_row(&all[i], ended))
                    .collect_view()
            })
        })
    };
    view! {
        <div class="run-hosts">
            <input
                type="search"
                class="host-filter"
                placeholder="Filter by name"
                aria-label="Filter the hosts by name"
                on:input=move |ev| {
                    filter.set(event_target_value(&ev));
                    page.set(0);
                }
            />
            <p class="node-count">{count}</p>
            <Table
                class="run-hosts-table"
                caption="Each host of the run: where it is and Ansible's counts"
                columns=&["Host", "State", "Ok", "Changed", "Failed", "Unreachable", "Skipped"]
            >
                {rows}
            </Table>
            <Pager page pages label="Pages of hosts" />
        </div>
    }
}

fn host_row(host: &HostSummary, ended: bool) -> impl IntoView + use<> {
    let state = host.state(ended);
    view! {
        <tr data-host=host.host.clone() class=state.class()>
            <th scope="row">{host.host.clone()}</th>
            <td class="host-state">{state.label()}</td>
            <td>{host.ok}</td>
            <td>{host.changed}</td>
            <td>{host.failures}</td>
            <td>{host.unreachable}</td>
            <td>{host.skipped}</td>
        </tr>
    }
}

/// A run as read to show it live: the run and its hosts — the hosts
/// first, so that no event after them is missed (what came between the two
/// reads is counted again at the step's end).
pub async fn read_live(id: i64) -> Result<(Run, Vec<HostSummary>), ApiFailure> {
    let hosts: Vec<HostSummary> = api::get(api::path::run(id, "hosts")).await?;
    let run: Run = api::get(api::path::run(id, "")).await?;
    Ok((run, hosts))
}
