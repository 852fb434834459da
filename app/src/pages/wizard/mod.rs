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

use leptos::prelude::*;
use mosaic_core::api::{ComponentView, ReleaseSummary};
use mosaic_core::component::{ComponentReport, Evaluation, State, Violation, validate_selection};
use mosaic_core::markup;
use mosaic_core::wizard::{self, Change, Pane};
use stylers_macro::style;
use wasm_bindgen::JsCast;
use web_sys::{Event, HtmlInputElement, HtmlSelectElement, KeyboardEvent};

use crate::api;
use crate::catalog::Catalog;
use crate::components::html::{closest, control};
use crate::components::loaded::loaded;
use crate::components::notice::error_notice;
use crate::components::retry::retry_notice;
use crate::components::var::Var;
use crate::dom::{El, View, el, fragment};
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

pub fn wizard(releases: Vec<ReleaseSummary>) -> View {
    let name = Var::new(String::new());
    let release_id = Var::new(releases[0].id);
    let releases = Var::new(releases);
    let release = move || {
        releases.with_untracked(|list| {
            list.iter()
                .find(|r| r.id == release_id.get_untracked())
                .cloned()
                .unwrap_or_else(|| list[0].clone())
        })
    };
    let components = api::fetch(move || vec![api::path::components(release_id.get())]);
    let retry = Callback::new(move |()| components.refetch());
    el("section")
        .class("card wizard")
        .attr("data-page", "wizard")
        .child(el("h1").text("Create a new OpenStack environment"))
        .child(loaded(
            components,
            "Loading components…",
            move |bodies| match api::answer::<Vec<ComponentView>>(&bodies, 0) {
                Ok(list) => match Catalog::new(&release(), list) {
                    Ok(catalog) => wizard_body(
                        Arc::new(catalog),
                        releases.get_untracked(),
                        release_id,
                        name,
                    ),
                    Err(message) => error_notice(&message),
                },
                Err(failure) => retry_notice(failure, retry, true),
            },
        ))
        .into()
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
fn wizard_body(
    catalog: Arc<Catalog>,
    releases: Vec<ReleaseSummary>,
    release_id: Var<i64>,
    name: Var<String>,
) -> View {
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
    let finish = el("div")
        .class("pane-body")
        .attr("data-pane", "finish")
        .class_when("hidden", move || flow.step.get() != LAST)
        .child(finish::finish(
            catalog.clone(),
            flow,
            release_id,
            violations,
        ));
    let pane = el("div")
        .class("pane")
        .attr_when("data-step", move || Some(flow.step.get().to_string()))
        .child(name_step(flow, releases, release_id, go))
        .child(panes::panes(
            catalog.clone(),
            flow,
            shown,
            reports,
            positions,
        ))
        .child(finish)
        .child(controls(flow, problem, go));
    fragment([step_list(flow, go), pane.into()])
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
fn step_list(flow: Flow, go: Callback<usize>) -> View {
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
    let styled = |tag: &str, class: &str| el(tag).class(&format!("{class} {class_name}"));
    let mut list = styled("ol", "steps");
    for (n, title) in STEPS.iter().enumerate() {
        let reachable =
            move || n != flow.step.get() && n <= flow.furthest.get() && flow.can_reach(n);
        let button = styled("button", "step-link")
            .attr("type", "button")
            .attr("data-step", &n.to_string())
            .disabled_when(move || !reachable())
            .on("click", move |_| go.run(n))
            .text(title);
        let item = el("li")
            .class(class_name)
            .class_when("active", move || flow.step.get() == n)
            .class_when("done", move || flow.step.get() > n)
            .attr_when("aria-current", move || {
                (flow.step.get() == n).then(|| "step".to_owned())
            })
            .child(button);
        list = list.child(item);
    }
    list.into()
}

/// Step 0: the environment's name and release
/// (`markup::wizard::name_step`). Enter in the name goes on.
fn name_step(
    flow: Flow,
    releases: Vec<ReleaseSummary>,
    release_id: Var<i64>,
    go: Callback<usize>,
) -> El {
    let render = move || {
        flow.name.with(|name| {
            let matrix = |id| Route::ReleaseMatrix(id).path();
            markup::wizard::name_step(name, &releases, release_id.get(), &matrix)
        })
    };
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
    let entered = move |ev: Event| {
        let Some(key) = ev.dyn_ref::<KeyboardEvent>() else {
            return;
        };
        if key.key() == "Enter" && control::<HtmlInputElement>(&ev, "#environment-name").is_some() {
            ev.prevent_default();
            go.run(1);
        }
    };
    el("div")
        .class("pane-body")
        .class_when("hidden", move || flow.step.get() != 0)
        .merged(render)
        .on("input", typed)
        .on("change", chosen)
        .on("keydown", entered)
}

/// The notices of the last change, Back, what keeps the operator on the
/// step, and Next (`markup::wizard::controls`).
fn controls(flow: Flow, problem: Signal<Option<String>>, go: Callback<usize>) -> El {
    let render = move || {
        let problem = problem.get();
        flow.notices.with(|notices| {
            markup::wizard::controls(&markup::wizard::Controls {
                step: flow.step.get(),
                last: LAST,
                problem: problem.as_deref(),
                notices,
            })
        })
    };
    let clicked = move |ev: Event| {
        let here = flow.step.get_untracked();
        if closest(&ev, "#back").is_some() {
            go.run(here.saturating_sub(1));
        } else if closest(&ev, "#next").is_some() {
            go.run(here + 1);
        }
    };
    el("div").merged(render).on("click", clicked)
}
