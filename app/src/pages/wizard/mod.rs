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
//! would make a click slow.

mod finish;
mod nearby;
mod panes;

use std::sync::Arc;

use leptos::ev::{Event, KeyboardEvent, MouseEvent};
use leptos::prelude::*;
use mosaic_core::api::{ComponentView, ReleaseSummary};
use mosaic_core::component::{ComponentReport, Evaluation, State, Violation, validate_selection};
use mosaic_core::markup;
use mosaic_core::wizard::{self, Change, Pane};
use stylers_macro::style;
use web_sys::{HtmlInputElement, HtmlSelectElement};

use crate::api;
use crate::catalog::Catalog;
use crate::components::html::{closest, control};
use crate::components::loaded::loaded;
use crate::components::morph::keep_merged;
use crate::components::notice::ErrorNotice;
use crate::components::retry::RetryNotice;
use crate::components::var::Var;
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

#[component]
pub fn Wizard(releases: Vec<ReleaseSummary>) -> impl IntoView {
    let name = Var::new(String::new());
    let release_id = Var::new(releases[0].id);
    let releases = Var::new(releases);
    let release = Signal::derive(move || {
        releases.with_untracked(|list| {
            list.iter()
                .find(|r| r.id == release_id.get())
                .cloned()
                .unwrap_or_else(|| list[0].clone())
        })
    });
    let components = api::fetch(move || vec![api::path::components(release_id.get())]);
    let retry = Callback::new(move |()| components.refetch());

    view! {
        <section class="card wizard" data-page="wizard">
            <h1>"Create a new OpenStack environment"</h1>
            {loaded(components, "Loading components…", move |bodies| {
                let release = release.get_untracked();
                match api::answer::<Vec<ComponentView>>(&bodies, 0) {
                    Ok(list) => match Catalog::new(&release, list) {
                        Ok(catalog) => view! {
                            <WizardBody
                                catalog=Arc::new(catalog)
                                releases=releases.get_untracked()
                                release_id
                                name
                            />
                        }
                        .into_any(),
                        Err(message) => view! { <ErrorNotice message /> }.into_any(),
                    },
                    Err(failure) => view! { <RetryNotice failure on_retry=retry auto=true /> }.into_any(),
                }
            })}
        </section>
    }
}

/// Where the operator is, what they chose and what they were told; shared
/// by the panes, the step list and the buttons.
#[derive(Debug, Clone, Copy)]
struct Flow {
    step: Var<usize>,
    /// The furthest step reached: steps up to it are links.
    furthest: Var<usize>,
    name: Var<String>,
    selection: Var<Vec<bool>>,
    notices: Var<Vec<String>>,
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

/// The steps for one release; created anew (with its defaults) whenever the
/// release changes.
#[component]
fn WizardBody(
    catalog: Arc<Catalog>,
    releases: Vec<ReleaseSummary>,
    release_id: Var<i64>,
    name: Var<String>,
) -> impl IntoView {
    let selection = Var::new(wizard::defaults(catalog.registry(), catalog.layout()));
    let problems = std::array::from_fn(|step| {
        let catalog = catalog.clone();
        Memo::new(move |_| name.with(|n| selection.with(|s| problem(&catalog, step, n, s))))
    });
    let flow = Flow {
        step: Var::new(0),
        furthest: Var::new(0),
        name,
        selection,
        notices: Var::new(Vec::new()),
        problems,
    };
    // One evaluation per change of the selection or the pane, of the pane
    // shown, in the browser, with the engine the server's CLI uses. Every
    // evaluation counts as a change: `reports` compares row by row.
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
    let reports = Arc::new(reports(&catalog, shown, &positions));
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
            {panes::panes(catalog.clone(), flow, shown, reports, positions)}
            <div class="pane-body" data-pane="finish" class:hidden=move || flow.step.get() != LAST>
                <finish::Finish catalog=catalog.clone() flow release_id violations />
            </div>
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
fn set_if_changed<T: Clone + PartialEq + Send + Sync + 'static>(signal: Var<T>, value: &T) {
    if signal.with_untracked(|old| old != value) {
        signal.set(value.clone());
    }
}

/// Every option's report, one signal each, set from the evaluation of the
/// pane shown. Only the reports that changed are set, so a click
/// re-renders the rows it changed and no others (a memo per row over the
/// one evaluation would wake every row of the wizard on every click); the
/// other panes' rows keep their last report until their pane is shown
/// again, and until it first is, a hidden row holds a placeholder.
fn reports(
    catalog: &Arc<Catalog>,
    shown: Memo<Option<(Pane, Evaluation)>>,
    positions: &Arc<Vec<usize>>,
) -> Vec<Var<ComponentReport>> {
    let registry = catalog.registry();
    let reports: Vec<Var<ComponentReport>> = (0..registry.len())
        .map(|i| {
            Var::new(ComponentReport {
                name: registry.get(i).name.to_string(),
                source: registry.source(i).0.clone(),
                state: State::Available,
                reasons: Vec::new(),
                repair: None,
                compatibility: None,
                untested_with: Vec::new(),
            })
        })
        .collect();
    let (catalog, positions) = (catalog.clone(), positions.clone());
    let signals = reports.clone();
    crate::components::watch::watch(move || {
        shown.with(|shown| {
            let Some((pane, evaluation)) = shown else {
                return;
            };
            let registry = catalog.registry();
            let own =
                (0..registry.len()).filter(|&i| registry.get(i).kind() == pane.component_type());
            for i in own {
                if let Some(report) = evaluation.components.get(positions[i]) {
                    set_if_changed(signals[i], report);
                }
            }
        });
    });
    reports
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
    let items = STEPS
        .iter()
        .enumerate()
        .map(|(n, title)| {
            let reachable =
                move || n != flow.step.get() && n <= flow.furthest.get() && flow.can_reach(n);
            view! { class = class_name,
                <li
                    class:active=move || flow.step.get() == n
                    class:done={move || flow.step.get() > n}
                    aria-current=move || (flow.step.get() == n).then_some("step")
                >
                    <button
                        type="button"
                        class="step-link"
                        data-step=n.to_string()
                        prop:disabled=move || !reachable()
                        on:click=move |_| go.run(n)
                    >
                        {*title}
                    </button>
                </li>
            }
        })
        .collect_view();
    view! { class = class_name, <ol class="steps">{items}</ol> }
}

/// Step 0: the environment's name and release
/// (`markup::wizard::name_step`). Enter in the name goes on.
#[component]
fn NameStep(
    flow: Flow,
    releases: Vec<ReleaseSummary>,
    release_id: Var<i64>,
    go: Callback<usize>,
) -> impl IntoView {
    let holder = NodeRef::<leptos::html::Div>::new();
    keep_merged(holder, move || {
        flow.name.with(|name| {
            let matrix = |id| Route::ReleaseMatrix(id).path();
            markup::wizard::name_step(name, &releases, release_id.get(), &matrix)
        })
    });
    let typed = move |ev: Event| {
        if let Some(input) = control::<HtmlInputElement>(&ev, "#environment-name") {
            flow.name.set(input.value());
        }
    };
    let chosen = move |ev: Event| {
        let select = control::<HtmlSelectElement>(&ev, "#release");
        if let Some(id) = select.and_then(|s| s.value().parse().ok()) {
            release_id.set(id);
        }
    };
    let entered = move |ev: KeyboardEvent| {
        if ev.key() == "Enter" && control::<HtmlInputElement>(&ev, "#environment-name").is_some() {
            ev.prevent_default();
            go.run(1);
        }
    };
    view! {
        <div
            class="pane-body"
            class:hidden=move || flow.step.get() != 0
            node_ref=holder
            on:input=typed
            on:change=chosen
            on:keydown=entered
        ></div>
    }
}

/// The notices of the last change, Back, what keeps the operator on the
/// step, and Next (`markup::wizard::controls`).
#[component]
fn Controls(flow: Flow, problem: Signal<Option<String>>, go: Callback<usize>) -> impl IntoView {
    let holder = NodeRef::<leptos::html::Div>::new();
    keep_merged(holder, move || {
        let problem = problem.get();
        flow.notices.with(|notices| {
            markup::wizard::controls(&markup::wizard::Controls {
                step: flow.step.get(),
                last: LAST,
                problem: problem.as_deref(),
                notices,
            })
        })
    });
    let clicked = move |ev: MouseEvent| {
        let here = flow.step.get_untracked();
        if closest(&ev, "#back").is_some() {
            go.run(here.saturating_sub(1));
        } else if closest(&ev, "#next").is_some() {
            go.run(here + 1);
        }
    };
    view! { <div node_ref=holder on:click=clicked></div> }
}
