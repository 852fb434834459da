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
//! once per event. The hosts are keyed rows (`Records`): a frame patches
//! the rows of the hosts its events touched (core's `Touched`) and no
//! other. A step's end asks for the hosts' counts again (Ansible's own
//! stats, as the server stored them).

use futures_util::StreamExt;
use gloo_net::eventsource::futures::EventSource;
use leptos::prelude::*;
use mosaic_core::api::{HostSummary, Run, RunEvent, StepStatus};
use mosaic_core::nodes::{count_line, name_matches, page_count, page_of};
use mosaic_core::run::{RunView, Touched};

use crate::api::{self, ApiFailure};
use crate::components::action::{ActionError, Request};
use crate::components::pager::Pager;
use crate::components::table::Table;
use crate::records::{Record, Records};

impl Record for HostSummary {
    type Key = String;

    fn key(&self) -> String {
        self.host.clone()
    }
}

/// The live view of `run` (read with `hosts` at its `last_seq`); `ended`
/// hears of its end, with the run as it ended.
#[component]
pub fn LiveRun(run: Run, hosts: Vec<HostSummary>, ended: Callback<Run>) -> impl IntoView {
    let id = run.id;
    let rows = Records::new();
    rows.answer(hosts.clone());
    let view = StoredValue::new_local(RunView::new(run.clone(), hosts));
    let version = RwSignal::new(0_u64);
    let follow = Follow {
        view,
        version,
        rows,
        touched: StoredValue::new_local(Touched::default()),
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
    // A memo: every host row reads it, and reruns only when it flips.
    let finished = Memo::new(move |_| {
        version.track();
        view.with_value(|v| v.run.status.is_final())
    });
    view! {
        <section class="live-run" data-run=id data-status=status aria-live="polite">
            <h2>{run.title()} " — " <span class="run-status">{status}</span></h2>
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
            <Hosts rows finished />
        </section>
    }
}

/// What the stream's reader changes: the fold, the run's parts (status,
/// progress, steps, failures: `version`) and the hosts' rows.
#[derive(Clone, Copy)]
struct Follow {
    view: StoredValue<RunView, LocalStorage>,
    version: RwSignal<u64>,
    rows: Records<HostSummary>,
    /// The hosts whose rows changed since the last frame.
    touched: StoredValue<Touched, LocalStorage>,
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
        self.touched.try_update_value(|t| t.note(event));
        if event.event == "step_end" {
            self.recount(id);
        }
        if !scheduled.get_value() {
            scheduled.set_value(true);
            request_animation_frame(move || {
                scheduled.set_value(false);
                self.show();
            });
        }
    }

    /// The page follows the fold: the run's parts, and the rows of the
    /// hosts touched since the last time. (A frame may come after the view
    /// went: every access tries.)
    fn show(self) {
        self.version.try_update(|n| *n += 1);
        match self.touched.try_update_value(Touched::take) {
            Some(Touched::Every) => {
                if let Some(all) = self.view.try_with_value(RunView::hosts) {
                    self.rows.answer(all);
                }
            }
            Some(Touched::Hosts(names)) => {
                let touched = (self.view)
                    .try_with_value(|v| names.iter().filter_map(|n| v.host(n)).collect());
                if let Some(touched) = touched {
                    self.rows.patch(touched);
                }
            }
            Some(Touched::Nothing) | None => {}
        }
    }

    /// The hosts' counts as the server stored them (Ansible's stats once a
    /// step ended).
    fn recount(self, id: i64) {
        leptos::task::spawn_local(async move {
            if let Ok(hosts) = api::get::<Vec<HostSummary>>(api::path::run(id, "hosts")).await {
                // The view may have gone while the counts were asked for.
                let fresh = (self.view)
                    .try_update_value(|v| *v = RunView::new(v.run.clone(), hosts.clone()));
                if fresh.is_some() {
                    self.rows.answer(hosts);
                    self.version.try_update(|n| *n += 1);
                }
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
                    let class = format!("step step-{}", s.status.as_str());
                    let current = (s.status == StepStatus::Running).then_some("step");
                    view! { <li class=class aria-current=current>{s.line()}</li> }
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

/// Each host's state and counts, filtered by name and paged; each row
/// reads its own host.
#[component]
fn Hosts(rows: Records<HostSummary>, finished: Memo<bool>) -> impl IntoView {
    let filter = RwSignal::new(String::new());
    let page = RwSignal::new(0usize);
    let all = rows.all();
    let shown = Memo::new(move |_| {
        filter.with(|text| {
            all.with(|all| {
                all.iter()
                    .filter(|h| name_matches(text, &h.host))
                    .map(|h| h.host.clone())
                    .collect::<Vec<_>>()
            })
        })
    });
    let pages = Memo::new(move |_| shown.with(|s| page_count(s.len())));
    let count = move || count_line(page.get(), shown.with(Vec::len), all.with(Vec::len), 0);
    let on_page = move || shown.with(|names| page_of(names, page.get()).to_vec());
    let row = move |name: String| view! { <HostRow name rows finished /> };
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
                <For each=on_page key=|name| name.clone() children=row />
            </Table>
            <Pager page pages label="Pages of hosts" />
        </div>
    }
}

/// One host's row: only what changed in its record changes it (an answer
/// that sets it again to the same record changes nothing).
#[component]
fn HostRow(name: String, rows: Records<HostSummary>, finished: Memo<bool>) -> impl IntoView {
    let row = rows.row(&name);
    let host = Memo::new(move |_| row.as_ref().map(|r| r.get()));
    let state = move || host.with(|h| h.as_ref().map(|h| h.state(finished.get())));
    let count = move |of: fn(&HostSummary) -> u32| {
        move || host.with(|h| h.as_ref().map(of).unwrap_or_default())
    };
    let label = name.clone();
    view! {
        <tr data-host=name class=move || state().map(|s| s.class())>
            <th scope="row">{label}</th>
            <td class="host-state">{move || state().map(|s| s.label())}</td>
            <td>{count(|h| h.ok)}</td>
            <td>{count(|h| h.changed)}</td>
            <td>{count(|h| h.failures)}</td>
            <td>{count(|h| h.unreachable)}</td>
            <td>{count(|h| h.skipped)}</td>
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
