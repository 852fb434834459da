//! An environment's settings, Fuel's Settings tab: groups in weight order,
//! each setting as its control, restrictions and problems shown as the
//! operator types (core's check, the one the server saves with), plugin
//! groups with their switch, Save and Discard.

use leptos::prelude::*;
use mosaic_core::api::{Attributes, PatchAttributes};
use mosaic_core::settings::{Evaluation, Settings};

use crate::api::{self, ApiFailure};
use crate::components::environment_tabs::{EnvironmentTabs, Tab};
use crate::components::loaded::loaded;
use crate::components::notice::ErrorNotice;
use crate::components::retry::RetryNotice;
use crate::components::setting_row::{SettingRow, Slot};

#[component]
pub fn SettingsPage(cluster_id: i64) -> impl IntoView {
    let refresh = RwSignal::new(0u32);
    let data = api::fetch(move || {
        refresh.get();
        vec![api::path::of_cluster(cluster_id, "attributes")]
    });
    let reload = Callback::new(move |()| refresh.update(|n| *n += 1));
    view! {
        <section class="card environment settings" data-page="settings">
            <EnvironmentTabs cluster_id current=Tab::Settings />
            {loaded(data, "Loading the settings…", move |bodies| {
                let attributes = match api::answer::<Attributes>(&bodies, 0) {
                    Ok(attributes) => attributes,
                    Err(failure) => {
                        return view! { <RetryNotice failure on_retry=reload auto=true /> }.into_any();
                    }
                };
                match Settings::from_editable(&attributes.editable) {
                    Ok(settings) => {
                        view! { <SettingsBody cluster_id settings attributes reload /> }.into_any()
                    }
                    Err(e) => view! { <ErrorNotice message=e.to_string() /> }.into_any(),
                }
            })}
        </section>
    }
}

/// The outcome of the last save.
#[derive(Debug, Clone, PartialEq)]
enum Saved {
    Done,
    Refused(ApiFailure),
}

#[component]
fn SettingsBody(
    cluster_id: i64,
    settings: Settings,
    attributes: Attributes,
    reload: Callback<()>,
) -> impl IntoView {
    let saved = RwSignal::new(settings.clone());
    let draft = RwSignal::new(settings);
    let version = RwSignal::new(attributes.version);
    let context = StoredValue::new(attributes.context);
    let evaluation: Memo<Evaluation> =
        Memo::new(move |_| draft.with(|d| context.with_value(|c| d.check(c))));
    let changes = Memo::new(move |_| {
        saved.with(|s| {
            draft.with(|d| {
                d.edits_from(s)
                    .values()
                    .filter_map(|g| g.as_object())
                    .map(|g| g.len())
                    .sum::<usize>()
            })
        })
    });
    let outcome = RwSignal::new(None::<Saved>);
    let saving = RwSignal::new(false);
    let save = move |_| {
        let patch =
            saved.with_untracked(|s| draft.with_untracked(|d| PatchAttributes::between(s, d)));
        saving.set(true);
        leptos::task::spawn_local(async move {
            match api::patch_attributes(cluster_id, &patch, version.get_untracked()).await {
                Ok(answer) => {
                    if let Ok(fresh) = Settings::from_editable(&answer.editable) {
                        saved.set(fresh.clone());
                        draft.set(fresh);
                        version.set(answer.version);
                    }
                    outcome.set(Some(Saved::Done));
                }
                Err(e) => outcome.set(Some(Saved::Refused(e))),
            }
            saving.set(false);
        });
    };
    let discard = move |_| {
        draft.set(saved.get_untracked());
        outcome.set(None);
    };
    let groups = draft.with_untracked(|d| {
        d.tree
            .display_order()
            .into_iter()
            .map(|g| group_view(g, &d.tree.groups[g], draft, evaluation))
            .collect_view()
    });
    // A viewer reads the settings; an operator changes them.
    let editable = crate::session::session().can(mosaic_core::access::Role::Operator);
    view! {
        <div class="settings-bar" class:hidden=!editable>
            <span class="muted">
                {move || match (changes.get(), evaluation.with(|e| e.problems.len())) {
                    (0, _) => "No unsaved changes.".to_owned(),
                    (n, 0) => format!("{n} unsaved change{}.", if n == 1 { "" } else { "s" }),
                    (n, p) => format!(
                        "{n} unsaved change{}; {p} problem{} to fix.",
                        if n == 1 { "" } else { "s" },
                        if p == 1 { "" } else { "s" }
                    ),
                }}
            </span>
            <button class="discard-settings" prop:disabled=move || changes.get() == 0 on:click=discard>"Discard"</button>
            <button class="save-settings primary" prop:disabled=move || changes.get() == 0 || saving.get() on:click=save>
                {move || if saving.get() { "Saving…" } else { "Save" }}
            </button>
        </div>
        {move || outcome.get().map(|o| outcome_view(o, reload))}
        <p class="hint" class:hidden=editable data-role-note="">
            "Your role can read the settings; an operator changes them."
        </p>
        <fieldset class="settings-groups plain" disabled=!editable>{groups}</fieldset>
    }
}

fn outcome_view(outcome: Saved, reload: Callback<()>) -> AnyView {
    match outcome {
        Saved::Done => view! { <div class="notice notice-ok settings-notice" role="status">"Saved. Roles and the deployment preview follow the new settings."</div> }.into_any(),
        Saved::Refused(failure) => {
            let problems = failure
                .problems
                .iter()
                .map(|p| view! { <li>{format!("{}: {}", p.path, p.message)}</li> })
                .collect_view();
            view! {
                <div class="notice notice-error settings-notice" role="alert">
                    <p>
                        {match failure.problems.len() {
                            0 => format!("Not saved: {}", failure.message),
                            1 => "Not saved: the server found a problem.".to_owned(),
                            n => format!("Not saved: the server found {n} problems."),
                        }}
                    </p>
                    <ul>{problems}</ul>
                    <button class="reload-settings" on:click=move |_| reload.run(())>"Reload the saved settings"</button>
                </div>
            }
            .into_any()
        }
    }
}

/// A group: its legend (and switch), why it is restricted, its settings.
fn group_view(
    g: usize,
    group: &mosaic_core::settings::Group,
    draft: RwSignal<Settings>,
    evaluation: Memo<Evaluation>,
) -> AnyView {
    let name = group.name.clone();
    let state = Signal::derive(move || evaluation.with(|e| e.groups[g].restricted.clone()));
    let on = move || draft.with(|d| d.tree.groups[g].meta.enabled != Some(false));
    let locked = Signal::derive(move || !on() || state.with(|s| s.disabled));
    let switch_path = format!("{name}.enabled");
    let switch_problems = {
        let path = switch_path.clone();
        move || {
            evaluation.with(|e| {
                e.problems
                    .iter()
                    .filter(|p| p.path == path)
                    .map(|p| format!("{}: {}", p.path, p.message))
                    .collect::<Vec<_>>()
            })
        }
    };
    let switch = group.meta.switchable.then(|| {
        let label = if group.meta.plugin.is_some() {
            "Use this plugin"
        } else {
            "Enabled"
        };
        view! {
            <label class="switch" data-switch=name.clone()>
                <input
                    type="checkbox"
                    prop:checked=on
                    on:change=move |ev| {
                        let checked = event_target_checked(&ev);
                        draft.update(|d| d.tree.groups[g].meta.enabled = Some(checked));
                    }
                />
                {label}
            </label>
        }
    });
    let rows = group
        .attributes
        .iter()
        .enumerate()
        .filter(|(_, a)| a.kind != mosaic_core::settings::AttrType::Other("hidden".to_owned()))
        .map(|(a, attr)| {
            let path = format!("{name}.{}", attr.name);
            let slot = Slot {
                group: g,
                attr: a,
                draft,
                state: Signal::derive(move || {
                    evaluation.with(|e| e.groups[g].attributes[a].clone())
                }),
                problems: Signal::derive(move || {
                    evaluation.with(|e| {
                        e.problems
                            .iter()
                            .filter(|p| p.path == path)
                            .map(|p| p.message.clone())
                            .collect()
                    })
                }),
                locked,
            };
            view! { <SettingRow group=name.clone() attr=attr.clone() at=slot /> }
        })
        .collect_view();
    view! {
        <fieldset class="settings-group" class:hidden=move || state.with(|s| s.hidden) class:off=move || !on() data-group=name.clone()>
            <legend>{group.meta.label.clone()} {switch}</legend>
            {move || state.with(|s| s.message.clone()).map(|m| view! { <p class="setting-reason">{m}</p> })}
            <ul class="setting-problems">
                {move || switch_problems().into_iter().map(|p| view! { <li class="setting-problem" role="alert">{p}</li> }).collect_view()}
            </ul>
            {rows}
        </fieldset>
    }
    .into_any()
}
