//! The environment wizard: Name & release → Compute → Networking → Storage
//! → Additional services → Finish. Panes are decided in order (SEMANTICS
//! §2.4): each pane's states come from `Engine::evaluate_pane_states`, the
//! reasons, repairs and compatibility advice of the options near the
//! screen from one engine call each (`nearby.rs`),
//! and every click goes through
//! `mosaic_core::wizard` (toggle, fix, arrive), the rules the server and
//! the CLI use.
//!
//! A click costs one evaluation of the pane shown, and re-renders only the
//! rows whose report changed: with thousands of options, evaluating the
//! hidden panes or letting every row watch the whole evaluation is what
//! would make a click slow. So each option has signals of its own
//! ([`RowState`]), set from the evaluation only where they changed, and its
//! row (`components::option_row`) a memo of what it shows.

mod finish;
mod nearby;
mod panes;

use std::sync::Arc;

use leptos::prelude::*;
use mosaic_core::api::{ComponentView, ReleaseSummary};
use mosaic_core::component::{
    Advice, Blocking, ComponentReport, Evaluation, State, Violation, validate_selection,
};
use mosaic_core::wizard::{self, Change, Pane};
use stylers_macro::style;

use crate::api;
use crate::catalog::Catalog;
use crate::components::loading::Loading;
use crate::components::notice::ErrorNotice;
use crate::route::Route;

const STEPS: [&str; 6] = [
    "Name & release",
    "Compute",
    "Networking",
    "Storage",
    "Additional services",
    "Finish",
];

/// The last step, Finish.
const LAST: usize = STEPS.len() - 1;

/// What keeps the operator on step `step`, if anything.
fn problem(catalog: &Catalog, step: usize, name: &str, selection: &[bool]) -> Option<String> {
    match step {
        0 if name.trim().is_empty() => Some("Give the environment a name.".to_owned()),
        _ => pane_of(step).and_then(|pane| wizard::leave_problem(&catalog.engine, selection, pane)),
    }
}

/// The pane step `step` shows (steps 1 to 4).
fn pane_of(step: usize) -> Option<Pane> {
    step.checked_sub(1).and_then(|n| Pane::ALL.get(n).copied())
}

/// The wizard for `releases` (at least one), the first one chosen. The
/// environment created opens its page.
#[component]
pub fn Wizard(releases: Vec<ReleaseSummary>) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let release_id = RwSignal::new(releases[0].id);
    let releases = Arc::new(releases);
    let components = LocalResource::new(move || {
        api::get::<Vec<ComponentView>>(api::path::components(release_id.get()))
    });
    let retry = Callback::new(move |()| components.refetch());
    // The steps for one release, made anew (with its defaults) whenever
    // the release changes; the name stays.
    let body = move || {
        components.get().map(|answer| {
            answer.map(|list| {
                let id = release_id.get_untracked();
                let release = releases.iter().find(|r| r.id == id).unwrap_or(&releases[0]);
                match Catalog::new(release, list) {
                    Ok(catalog) => view! {
                        <WizardBody
                            catalog=Arc::new(catalog)
                            releases=releases.to_vec()
                            release_id
                            name
                        />
                    }
                    .into_any(),
                    Err(message) => view! { <ErrorNotice message /> }.into_any(),
                }
            })
        })
    };
    view! {
        <section class="card wizard" data-page="wizard">
            <h1>"Create a new OpenStack environment"</h1>
            <Loading label="Loading components…" retry>
                {body.clone()}
            </Loading>
        </section>
    }
}

/// Where the operator is, what they chose and what they were told; shared
/// by the panes, the step list and the buttons.
#[derive(Debug, Clone, Copy)]
struct Flow {
    step: RwSignal<usize>,
    /// The furthest step reached: steps up to it are links.
    furthest: RwSignal<usize>,
    name: RwSignal<String>,
    selection: RwSignal<Vec<bool>>,
    notices: RwSignal<Vec<String>>,
    /// Per step, what keeps the operator on it: worked out once per change
    /// of the name or the selection, for the steps something asks about.
    problems: [Memo<Option<String>>; STEPS.len()],
}

impl Flow {
    fn apply(self, change: Change) {
        self.selection.set(change.selection);
        // Most clicks have no notice: what shows them wakes only for one.
        set_if_changed(self.notices, &change.notices);
    }

    /// Whether every step from the current one up to `target` can be left.
    fn can_reach(self, target: usize) -> bool {
        let here = self.step.get();
        (here..target).all(|step| self.problems[step].with(Option::is_none))
    }

    /// Goes to step `target`: back at once; forward when nothing keeps the
    /// operator on the steps in between, settling the pane arrived on.
    fn go(self, catalog: &Catalog, target: usize) {
        let here = self.step.get_untracked();
        if target == here || (target > here && !untrack(|| self.can_reach(target))) {
            return;
        }
        self.notices.set(Vec::new());
        if let (true, Some(pane)) = (target > here, pane_of(target)) {
            let change = self
                .selection
                .with_untracked(|s| wizard::arrive(&catalog.engine, s, pane));
            self.apply(change);
        }
        self.step.set(target);
        self.furthest.update(|f| *f = (*f).max(target));
        // A step is shown from its top, wherever the operator scrolled to
        // on the one before (Next sits below a long pane).
        window().scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// What one option's row follows, each a signal of its own: set only when
/// it changed, so that a click re-renders the rows it changed and no
/// others (a memo per row over the one evaluation would wake every row of
/// the pane on every click).
#[derive(Debug, Clone, Copy)]
struct RowState {
    /// Its report in the last evaluation of its pane; until its pane is
    /// first shown, a placeholder.
    report: RwSignal<ComponentReport>,
    /// Why it is blocked and its repair, while it is near the screen.
    blocking: RwSignal<Option<Blocking>>,
    /// Its compatibility advice, while it is near the screen.
    advice: RwSignal<Option<Advice>>,
    /// Its "not tested with" list is open.
    open: RwSignal<bool>,
    /// Its row is near the screen (`components::near_view`), or within the
    /// wider band around it.
    near: RwSignal<bool>,
    soon: RwSignal<bool>,
}

/// The steps for one release; made anew (with its defaults) whenever the
/// release changes.
#[component]
fn WizardBody(
    catalog: Arc<Catalog>,
    releases: Vec<ReleaseSummary>,
    release_id: RwSignal<i64>,
    name: RwSignal<String>,
) -> impl IntoView {
    let selection = RwSignal::new(wizard::defaults(catalog.registry(), catalog.layout()));
    let problems = std::array::from_fn(|step| {
        let catalog = catalog.clone();
        Memo::new(move |_| name.with(|n| selection.with(|s| problem(&catalog, step, n, s))))
    });
    let flow = Flow {
        step: RwSignal::new(0),
        furthest: RwSignal::new(0),
        name,
        selection,
        notices: RwSignal::new(Vec::new()),
        problems,
    };
    // One evaluation per change of the selection or the pane, of the pane
    // shown, in the browser, with the engine the server's CLI uses. Every
    // evaluation counts as a change: the rows' reports compare row by row.
    let shown: Memo<Option<(Pane, Evaluation)>> = {
        let catalog = catalog.clone();
        Memo::new_with_compare(
            move |_| {
                let pane = pane_of(flow.step.get())?;
                let evaluation = flow.selection.with(|s| {
                    catalog
                        .engine
                        .evaluate_pane_states(&catalog.names(s), pane.component_type())
                });
                Some((pane, evaluation))
            },
            |_, _| true,
        )
    };
    let positions = Arc::new(positions(&catalog));
    let rows = Arc::new(row_states(&catalog));
    keep_reports(&catalog, shown, &rows, &positions);
    let violations: Memo<Vec<Violation>> = {
        let catalog = catalog.clone();
        Memo::new(move |_| {
            flow.selection.with(|s| {
                validate_selection(
                    catalog.registry(),
                    catalog.engine.required_types(),
                    &catalog.names(s),
                )
            })
        })
    };
    let problem = Signal::derive(move || flow.problems[flow.step.get()].get());
    let go = {
        let catalog = catalog.clone();
        Callback::new(move |target: usize| flow.go(&catalog, target))
    };
    view! {
        <StepList flow go />
        <div class="pane" data-step=move || flow.step.get().to_string()>
            <NameStep flow releases release_id go />
            <panes::Panes catalog=catalog.clone() flow shown rows positions />
            <finish::Finish catalog flow release_id violations />
            <Controls flow problem go />
        </div>
    }
}

/// Per option, its place in its pane's evaluation: the evaluation of a
/// pane holds that pane's components, in registry order.
fn positions(catalog: &Catalog) -> Vec<usize> {
    let registry = catalog.registry();
    let mut seen = std::collections::HashMap::new();
    (0..registry.len())
        .map(|i| {
            let count = seen.entry(registry.get(i).kind()).or_insert(0);
            *count += 1;
            *count - 1
        })
        .collect()
}

/// Sets `signal` to a copy of `value` when it holds something else, so
/// that what watches it wakes only for a change.
fn set_if_changed<T: Clone + PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: &T) {
    if signal.with_untracked(|old| old != value) {
        signal.set(value.clone());
    }
}

/// Every option's signals, its report a placeholder until its pane is
/// first shown.
fn row_states(catalog: &Catalog) -> Vec<RowState> {
    let registry = catalog.registry();
    (0..registry.len())
        .map(|i| RowState {
            report: RwSignal::new(ComponentReport {
                name: registry.get(i).name.to_string(),
                source: registry.source(i).0.clone(),
                state: State::Available,
                reasons: Vec::new(),
                repair: None,
                compatibility: None,
                untested_with: Vec::new(),
            }),
            blocking: RwSignal::new(None),
            advice: RwSignal::new(None),
            open: RwSignal::new(false),
            near: RwSignal::new(false),
            soon: RwSignal::new(false),
        })
        .collect()
}

/// Sets the reports of the pane shown from each evaluation, only those that
/// changed; the other panes' rows keep their last report until their pane
/// is shown again. (An effect rather than a memo per row: one pass over
/// the evaluation instead of a subscriber per row re-run on every click.)
fn keep_reports(
    catalog: &Arc<Catalog>,
    shown: Memo<Option<(Pane, Evaluation)>>,
    rows: &Arc<Vec<RowState>>,
    positions: &Arc<Vec<usize>>,
) {
    let (catalog, rows, positions) = (catalog.clone(), rows.clone(), positions.clone());
    Effect::new(move || {
        shown.with(|shown| {
            let Some((pane, evaluation)) = shown else {
                return;
            };
            let registry = catalog.registry();
            let own =
                (0..registry.len()).filter(|&i| registry.get(i).kind() == pane.component_type());
            for i in own {
                if let Some(report) = evaluation.components.get(positions[i]) {
                    set_if_changed(rows[i].report, report);
                }
            }
        });
    });
}

/// The steps as a list; the ones reached so far are buttons that go there.
#[component]
fn StepList(flow: Flow, go: Callback<usize>) -> impl IntoView {
    let class_name = style! {
        .steps {
            display: flex;
            flex-wrap: wrap;
            gap: 0.4rem;
            list-style: none;
            padding: 0;
            margin: 0 0 1.2rem;
            counter-reset: step;
        }
        li {
            counter-increment: step;
            padding: 0.3rem 0.7rem;
            border-radius: 999px;
            background: #f1f5f9;
            color: var(--muted);
            font-size: 0.85rem;
        }
        li::before {
            content: counter(step) raw_str(". ");
        }
        li.active {
            background: var(--accent);
            color: white;
        }
        li.done {
            background: #dbeafe;
            color: #1e3a8a;
        }
        .step-link {
            background: none;
            border: none;
            padding: 0;
            font: inherit;
            color: inherit;
        }
        .step-link:not(:disabled) {
            cursor: pointer;
            text-decoration: underline;
        }
        .step-link:disabled {
            cursor: default;
            opacity: 1;
        }
    };
    // The scoped stylesheet's class, on every element it styles.
    let steps = STEPS.iter().enumerate().map(|(n, title)| {
        let reachable =
            move || n != flow.step.get() && n <= flow.furthest.get() && flow.can_reach(n);
        view! {
            <li
                class=class_name
                class:active=move || flow.step.get() == n
                class:done=move || { flow.step.get() > n }
                aria-current=move || (flow.step.get() == n).then_some("step")
            >
                <button
                    class=format!("step-link {class_name}")
                    type="button"
                    data-step=n.to_string()
                    disabled=move || !reachable()
                    on:click=move |_| go.run(n)
                >
                    {*title}
                </button>
            </li>
        }
    });
    view! { <ol class=format!("steps {class_name}")>{steps.collect_view()}</ol> }
}

/// Step 0: the environment's name (`#environment-name`) and its release
/// (`#release`), with a link to the release's compatibility matrix. Enter
/// in the name goes on.
#[component]
fn NameStep(
    flow: Flow,
    releases: Vec<ReleaseSummary>,
    release_id: RwSignal<i64>,
    go: Callback<usize>,
) -> impl IntoView {
    let chosen = release_id.get_untracked();
    let options = releases
        .into_iter()
        .map(|r| {
            view! {
                <option value=r.id.to_string() selected=r.id == chosen>
                    {r.label()}
                </option>
            }
        })
        .collect_view();
    let entered = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" {
            ev.prevent_default();
            go.run(1);
        }
    };
    let release_chosen = move |ev: leptos::ev::Event| {
        if let Ok(id) = event_target_value(&ev).parse() {
            release_id.set(id);
        }
    };
    view! {
        <div class="pane-body" class:hidden=move || flow.step.get() != 0>
            <label class="field">
                <span>"Name"</span>
                <input
                    id="environment-name"
                    type="text"
                    placeholder="e.g. production-east"
                    bind:value=flow.name
                    on:keydown=entered
                />
            </label>
            <label class="field">
                <span>"OpenStack release"</span>
                <select id="release" on:change=release_chosen>
                    {options}
                </select>
            </label>
            <p class="hint">
                <a
                    href=move || Route::ReleaseMatrix(release_id.get()).path()
                    class="matrix-link"
                >
                    "What can be combined: the release's compatibility matrix"
                </a>
            </p>
        </div>
    }
}

/// The notices of the last change (`[data-notices]`), then Back (`#back`),
/// what keeps the operator on the step, and Next (`#next`, hidden on the
/// last step).
#[component]
fn Controls(flow: Flow, problem: Signal<Option<String>>, go: Callback<usize>) -> impl IntoView {
    let notices = move || {
        flow.notices.with(|notices| {
            (!notices.is_empty()).then(|| {
                let lines = notices
                    .iter()
                    .map(|notice| view! { <p>{notice.clone()}</p> })
                    .collect_view();
                view! {
                    <div class="notice notice-warn" role="status" data-notices="">
                        {lines}
                    </div>
                }
            })
        })
    };
    let back = move |_| go.run(flow.step.get_untracked().saturating_sub(1));
    let next = move |_| go.run(flow.step.get_untracked() + 1);
    view! {
        <div>
            {notices}
            <div class="actions">
                <button id="back" type="button" disabled=move || flow.step.get() == 0 on:click=back>
                    "Back"
                </button>
                <span class="hint" role="status">
                    {move || problem.get().unwrap_or_default()}
                </span>
                <button
                    id="next"
                    type="button"
                    class="primary"
                    class:hidden=move || { flow.step.get() >= LAST }
                    disabled=move || problem.with(Option::is_some)
                    on:click=next
                >
                    "Next"
                </button>
            </div>
        </div>
    }
}
