//! The environment wizard: Name & release → Compute → Networking → Storage
//! → Additional services → Finish. Every option's state comes from
//! `mosaic_core::wizard`, the rules the server validates with.

use std::sync::Arc;

use leptos::prelude::*;
use mosaic_core::api::{ComponentView, CreateCluster, ReleaseSummary};
use mosaic_core::component::{Component, ComponentType, Engine, Registry, Source};
use mosaic_core::wizard::{self, Dropped, Pane};

use crate::api;
use crate::components::notice::ErrorNotice;
use crate::components::option_row::{Input, OptionRow};

/// A release's registry compiled for the wizard.
#[derive(Debug)]
pub struct Catalog {
    pub engine: Engine,
}

impl Catalog {
    /// The registry as the server built it: the components in registry
    /// order, grouped into their sources (the release's, then each plugin's).
    pub fn new(
        release: &ReleaseSummary,
        components: Vec<ComponentView>,
    ) -> Result<Catalog, String> {
        let mut sources: Vec<(Source, Vec<Component>)> = Vec::new();
        for view in components {
            let source = view.source.clone();
            match sources.last_mut() {
                Some((last, list)) if last.0 == source => list.push(Component::from(view)),
                _ => sources.push((Source(source), vec![Component::from(view)])),
            }
        }
        let registry = Registry::new(sources).map_err(|e| e.to_string())?;
        Ok(Catalog {
            engine: Engine::new(registry, &release.required_component_types),
        })
    }

    fn registry(&self) -> &Registry {
        self.engine.registry()
    }

    fn layout(&self) -> &wizard::Layout {
        self.engine.layout()
    }

    fn names(&self, selection: &[bool]) -> Vec<String> {
        (0..self.registry().len())
            .filter(|&i| selection[i])
            .map(|i| self.registry().get(i).name.to_string())
            .collect()
    }
}

const STEPS: [&str; 6] = [
    "Name & release",
    "Compute",
    "Networking",
    "Storage",
    "Additional services",
    "Finish",
];

#[component]
pub fn Wizard(releases: Vec<ReleaseSummary>) -> impl IntoView {
    let step = RwSignal::new(0usize);
    let name = RwSignal::new(String::new());
    let release_id = RwSignal::new(releases[0].id);
    let releases = StoredValue::new(releases);
    let release = Signal::derive(move || {
        releases.with_value(|list| {
            list.iter()
                .find(|r| r.id == release_id.get())
                .cloned()
                .unwrap_or_else(|| list[0].clone())
        })
    });
    let components = LocalResource::new(move || api::components(release_id.get()));

    view! {
        <section class="card wizard" data-page="wizard">
            <h1>"Create a new OpenStack environment"</h1>
            <ol class="steps">
                {STEPS
                    .iter()
                    .enumerate()
                    .map(|(n, title)| {
                        view! {
                            <li class:active=move || step.get() == n class:done={move || step.get() > n}>
                                {*title}
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
            <Suspense fallback=|| view! { <p class="loading">"Loading components…"</p> }>
                {move || Suspend::new(async move {
                    let release = release.get_untracked();
                    match components.await.map_err(|e| e.message).and_then(|c| Catalog::new(&release, c)) {
                        Ok(catalog) => {
                            view! {
                                <WizardBody
                                    catalog=Arc::new(catalog)
                                    releases=releases.get_value()
                                    release_id
                                    name
                                    step
                                />
                            }
                                .into_any()
                        }
                        Err(message) => view! { <ErrorNotice message /> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

/// The panes for one release; created anew (with its defaults) whenever the
/// release changes.
#[component]
fn WizardBody(
    catalog: Arc<Catalog>,
    releases: Vec<ReleaseSummary>,
    release_id: RwSignal<i64>,
    name: RwSignal<String>,
    step: RwSignal<usize>,
) -> impl IntoView {
    let selection = RwSignal::new(wizard::defaults(catalog.registry(), catalog.layout()));
    let dropped = RwSignal::new(Vec::<Dropped>::new());
    // One evaluation per change of the selection, in the browser, with the
    // engine the server's CLI uses.
    let evaluation = {
        let catalog = catalog.clone();
        Memo::new(move |_| selection.with(|s| catalog.engine.evaluate(&catalog.names(s))))
    };
    let apply = {
        let catalog = catalog.clone();
        move |next: Vec<bool>| {
            let (next, lost) = wizard::settle(catalog.registry(), &next);
            dropped.set(lost);
            selection.set(next);
        }
    };
    let toggle = {
        let catalog = catalog.clone();
        let apply = apply.clone();
        Callback::new(move |i: usize| {
            let current = selection.get_untracked();
            apply(if current[i] {
                catalog.layout().unpick(&current, i)
            } else {
                catalog.layout().pick(&current, i)
            });
        })
    };
    let fix = {
        let catalog = catalog.clone();
        Callback::new(move |i: usize| {
            let repair = evaluation.with_untracked(|e| e.components[i].repair.clone());
            if let Some(repair) = repair {
                let current = selection.get_untracked();
                apply(wizard::apply_repair(
                    catalog.registry(),
                    catalog.layout(),
                    &current,
                    i,
                    &repair,
                ));
            }
        })
    };
    let label_of = {
        let catalog = catalog.clone();
        Callback::new(move |name: String| {
            catalog
                .registry()
                .position(&name)
                .map(|i| catalog.registry().get(i).display_label().to_owned())
                .unwrap_or(name)
        })
    };
    let row = {
        let catalog = catalog.clone();
        move |i: usize, nested: bool| {
            let c = catalog.registry().get(i);
            let input = match catalog.layout().control(i) {
                wizard::Control::Checkbox => Input::Checkbox,
                wizard::Control::Radio => {
                    let group = if catalog.layout().network.cores.contains(&i) {
                        "network-core".to_owned()
                    } else {
                        format!("storage-{}", c.name.segments().next().unwrap_or_default())
                    };
                    Input::Radio(group)
                }
            };
            let report = Signal::derive(move || evaluation.with(|e| e.components[i].clone()));
            view! {
                <OptionRow
                    name=c.name.to_string()
                    label=c.display_label().to_owned()
                    description=c.description.clone()
                    input
                    report
                    label_of
                    on_toggle=Callback::new(move |()| toggle.run(i))
                    on_fix=Callback::new(move |()| fix.run(i))
                    nested
                />
            }
        }
    };
    let count_selected = {
        let catalog = catalog.clone();
        move |kind: ComponentType| {
            selection.with(|s| {
                (0..s.len())
                    .filter(|&i| s[i] && catalog.registry().get(i).kind() == kind)
                    .count()
            })
        }
    };
    // What keeps "Next" disabled on the current step, if anything.
    let step_problem = {
        let catalog = catalog.clone();
        move || -> Option<String> {
            let pane = match step.get() {
                0 if name.with(|n| n.trim().is_empty()) => {
                    return Some("Give the environment a name.".to_owned());
                }
                1 => Pane::Compute,
                2 => Pane::Networking,
                3 => Pane::Storage,
                _ => return None,
            };
            let required = catalog
                .engine
                .required_types()
                .contains(&pane.component_type());
            (required && count_selected(pane.component_type()) == 0).then(|| {
                format!(
                    "Select at least one {} option.",
                    pane.title().to_lowercase()
                )
            })
        }
    };

    let compute = catalog
        .layout()
        .compute
        .iter()
        .map(|&i| row(i, false))
        .collect_view();
    let network = {
        let n = &catalog.layout().network;
        let cores = n
            .cores
            .iter()
            .map(|&core| {
                let drivers = (Some(core) == n.ml2_core)
                    .then(|| n.drivers.iter().map(|&d| row(d, true)).collect_view());
                view! { {row(core, false)} {drivers} }
            })
            .collect_view();
        // Without an ML2 core, drivers are plain checkboxes.
        let loose = n
            .ml2_core
            .is_none()
            .then(|| n.drivers.iter().map(|&d| row(d, false)).collect_view());
        let services = n.services.iter().map(|&i| row(i, false)).collect_view();
        view! {
            <fieldset>
                <legend>"Network core"</legend>
                {cores}
                {loose}
            </fieldset>
            <fieldset>
                <legend>"Network services"</legend>
                {services}
            </fieldset>
        }
    };
    let storage = catalog
        .layout()
        .storage
        .iter()
        .map(|section| {
            let title = storage_title(&section.name);
            let members = section
                .members
                .iter()
                .map(|&i| row(i, false))
                .collect_view();
            view! {
                <fieldset data-section=section.name.clone()>
                    <legend>{title}</legend>
                    {members}
                </fieldset>
            }
        })
        .collect_view();
    let additional = catalog
        .layout()
        .additional
        .iter()
        .map(|&i| row(i, false))
        .collect_view();

    let violations = Memo::new(move |_| evaluation.with(|e| e.violations.clone()));
    let creating = RwSignal::new(false);
    let outcome = RwSignal::new(None::<Result<String, api::ApiFailure>>);
    let create = {
        let catalog = catalog.clone();
        move |_| {
            let request = CreateCluster {
                name: name.get_untracked().trim().to_owned(),
                release_id: release_id.get_untracked(),
                components: selection.with_untracked(|s| catalog.names(s)),
                mode: None,
            };
            creating.set(true);
            leptos::task::spawn_local(async move {
                let result = api::create_cluster(&request).await;
                outcome.set(Some(result.map(|c| {
                    format!("Environment '{}' was created (id {}).", c.name, c.id)
                })));
                creating.set(false);
            });
        }
    };
    let summary = {
        let catalog = catalog.clone();
        move || {
            selection.with(|s| {
                Pane::ALL
                    .iter()
                    .map(|pane| {
                        let labels: Vec<&str> = (0..s.len())
                            .filter(|&i| {
                                s[i] && catalog.registry().get(i).kind() == pane.component_type()
                            })
                            .map(|i| catalog.registry().get(i).display_label())
                            .collect();
                        let labels = if labels.is_empty() {
                            "—".to_owned()
                        } else {
                            labels.join(", ")
                        };
                        view! { <dt>{pane.title()}</dt><dd>{labels}</dd> }
                    })
                    .collect_view()
            })
        }
    };

    let problem = step_problem.clone();
    view! {
        <div class="pane" data-step=move || step.get().to_string()>
            <div class="pane-body" class:hidden=move || step.get() != 0>
                <label class="field">
                    <span>"Name"</span>
                    <input
                        id="environment-name"
                        type="text"
                        placeholder="e.g. production-east"
                        prop:value=move || name.get()
                        on:input=move |ev| name.set(event_target_value(&ev))
                    />
                </label>
                <label class="field">
                    <span>"OpenStack release"</span>
                    <select
                        id="release"
                        on:change=move |ev| {
                            if let Ok(id) = event_target_value(&ev).parse() {
                                release_id.set(id);
                            }
                        }
                    >
                        {releases
                            .iter()
                            .map(|r| {
                                let id = r.id;
                                view! {
                                    <option value=id.to_string() selected=move || release_id.get() == id>
                                        {format!("{} ({})", r.name, r.version)}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
            </div>
            <div class="pane-body" data-pane="compute" class:hidden=move || step.get() != 1>
                <fieldset>
                    <legend>"Hypervisors"</legend>
                    {compute}
                </fieldset>
            </div>
            <div class="pane-body" data-pane="networking" class:hidden=move || step.get() != 2>
                {network}
            </div>
            <div class="pane-body" data-pane="storage" class:hidden=move || step.get() != 3>
                {storage}
            </div>
            <div class="pane-body" data-pane="additional_services" class:hidden=move || step.get() != 4>
                <fieldset>
                    <legend>"Additional services"</legend>
                    {additional}
                </fieldset>
            </div>
            <div class="pane-body" data-pane="finish" class:hidden=move || step.get() != 5>
                <dl class="summary">
                    <dt>"Name"</dt>
                    <dd>{move || name.get()}</dd>
                    {summary}
                </dl>
                <Show when=move || !violations.with(Vec::is_empty)>
                    <div class="notice notice-error" role="alert">
                        <p>"This combination cannot be created:"</p>
                        <ul>
                            {move || {
                                violations
                                    .get()
                                    .into_iter()
                                    .map(|v| view! { <li>{v.message}</li> })
                                    .collect_view()
                            }}
                        </ul>
                    </div>
                </Show>
                {move || match outcome.get() {
                    None => ().into_any(),
                    Some(Ok(message)) => view! { <div class="notice notice-ok" role="status">{message}</div> }.into_any(),
                    Some(Err(failure)) => {
                        let details = failure
                            .violations
                            .into_iter()
                            .map(|v| view! { <li>{v.message}</li> })
                            .collect_view();
                        view! {
                            <div class="notice notice-error" role="alert">
                                <p>{failure.message}</p>
                                <ul>{details}</ul>
                            </div>
                        }
                            .into_any()
                    }
                }}
            </div>
            <Show when=move || !dropped.with(Vec::is_empty)>
                <div class="notice notice-warn" role="status">
                    {move || dropped.get().into_iter().map(|d| view! { <p>{d.message}</p> }).collect_view()}
                </div>
            </Show>
            <div class="actions">
                <button
                    id="back"
                    type="button"
                    prop:disabled=move || step.get() == 0
                    on:click=move |_| step.update(|s| *s = s.saturating_sub(1))
                >
                    "Back"
                </button>
                <span class="hint">{move || problem().unwrap_or_default()}</span>
                <Show
                    when=move || step.get() < STEPS.len() - 1
                    fallback={
                        let create = create.clone();
                        move || {
                            let create = create.clone();
                            view! {
                                <button
                                    id="create"
                                    type="button"
                                    class="primary"
                                    prop:disabled=move || creating.get() || !violations.with(Vec::is_empty) || name.with(|n| n.trim().is_empty())
                                    on:click=create
                                >
                                    "Create environment"
                                </button>
                            }
                        }
                    }
                >
                    {
                        let step_problem = step_problem.clone();
                        view! {
                            <button
                                id="next"
                                type="button"
                                class="primary"
                                prop:disabled=move || step_problem().is_some()
                                on:click=move |_| step.update(|s| *s += 1)
                            >
                                "Next"
                            </button>
                        }
                    }
                </Show>
            </div>
        </div>
    }
}

fn storage_title(section: &str) -> String {
    match section {
        "block" => "Block storage".to_owned(),
        "object" => "Object storage".to_owned(),
        "image" => "Image storage".to_owned(),
        "ephemeral" => "Ephemeral storage".to_owned(),
        other => format!("Storage: {other}"),
    }
}
