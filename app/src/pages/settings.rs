//! An environment's settings, Fuel's Settings tab: groups in weight order,
//! each setting as its control, restrictions and problems shown as the
//! operator types (core's check, the one the server saves with), plugin
//! groups with their switch, Save and Discard.
//!
//! The form is built once from the settings loaded; every control follows
//! its own value in the draft, so the control being typed into stays the
//! same element with the user's text (and caret) in it.

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::{Attributes, PatchAttributes};
use mosaic_core::settings::view::{problems_at, refused, shown, switch_label, unsaved};
use mosaic_core::settings::{
    AttrState, AttrType, Attribute, Evaluation, Input, Settings, control_disabled, text_of, typed,
};
use serde_json::Value;

use crate::api::{self, ApiFailure};
use crate::components::action::on_answer;
use crate::components::loading::Loading;
use crate::components::notice::ErrorNotice;
use crate::environment::env;
use crate::session::session;

#[component]
pub fn SettingsPage() -> impl IntoView {
    let cluster_id = env().id;
    let attributes = LocalResource::new(move || {
        api::get::<Attributes>(api::path::of_cluster(cluster_id, "attributes"))
    });
    let reload = Callback::new(move |()| attributes.refetch());
    view! {
            <Loading label="Loading the settings…" retry=reload>
                {move || Suspend::new(async move {
                    let attributes = attributes.await?;
                    Ok::<_, ApiFailure>(match Settings::from_editable(&attributes.editable) {
                        Ok(settings) => {
                            view! { <SettingsForm cluster_id settings attributes reload /> }.into_any()
                        }
                        Err(e) => view! { <ErrorNotice message=e.to_string() /> }.into_any(),
                    })
                })}
            </Loading>
    }
}

/// The outcome of the last save.
#[derive(Debug, Clone, PartialEq)]
enum Saved {
    Done,
    Refused(ApiFailure),
}

/// The bar with Discard and Save, and the groups, for `settings` as loaded
/// (`attributes`: their version and the models restrictions read); Reload
/// (after a refused save) asks `reload` for the saved settings again.
#[component]
pub fn SettingsForm(
    cluster_id: i64,
    settings: Settings,
    attributes: Attributes,
    reload: Callback<()>,
) -> impl IntoView {
    let saved = RwSignal::new(settings.clone());
    let draft = RwSignal::new(settings);
    let version = RwSignal::new(attributes.version);
    let context = attributes.context;
    // What the components decide: read-only here, changed with the components.
    let bound = Bound::of(cluster_id, attributes.bound);
    // The check, as the operator types: the one the server saves with.
    let evaluation = Memo::new(move |_| draft.with(|d| d.check(&context)));
    let changes = Memo::new(move |_| saved.with(|s| draft.with(|d| d.changes_from(s))));
    let save = Action::new_unsync(move |(patch, version): &(PatchAttributes, i64)| {
        let (patch, version) = (patch.clone(), *version);
        async move { api::patch_attributes(cluster_id, &patch, version).await }
    });
    let outcome = RwSignal::new(None::<Saved>);
    // A save answered: saved, the draft becomes what the server stored.
    on_answer(save, move |answer| match answer {
        Ok(answer) => {
            if let Ok(fresh) = Settings::from_editable(&answer.editable) {
                saved.set(fresh.clone());
                draft.set(fresh);
                version.set(answer.version);
            }
            outcome.set(Some(Saved::Done));
        }
        Err(failure) => outcome.set(Some(Saved::Refused(failure.clone()))),
    });
    // A viewer reads the settings; an operator changes them.
    let session = session();
    let editable = Signal::derive(move || session.can(Role::Operator));
    let saving = save.pending();
    let submit = move |_| {
        let patch =
            saved.with_untracked(|s| draft.with_untracked(|d| PatchAttributes::between(s, d)));
        save.dispatch((patch, version.get_untracked()));
    };
    let discard = move |_| {
        draft.set(saved.get_untracked());
        outcome.set(None);
    };
    let summary = move || unsaved(changes.get(), evaluation.with(|e| e.problems.len()));
    view! {
        <div>
            <div class="settings-bar" class:hidden=move || !editable.get()>
                <span class="muted">{summary}</span>
                <button class="discard-settings" disabled=move || changes.get() == 0 on:click=discard>
                    "Discard"
                </button>
                <button
                    class="save-settings primary"
                    disabled=move || changes.get() == 0 || saving.get()
                    on:click=submit
                >
                    {move || if saving.get() { "Saving…" } else { "Save" }}
                </button>
            </div>
            <SaveNotice outcome reload />
            <Show when=move || !editable.get()>
                <p class="hint" data-role-note="">
                    "Your role can read the settings; an operator changes them."
                </p>
            </Show>
        </div>
        <fieldset class="settings-groups plain" disabled=move || !editable.get()>
            <Groups draft evaluation bound />
        </fieldset>
    }
}

/// What the last save did: saved, or refused with every problem and a way
/// to load the saved settings again (`reload`).
#[component]
fn SaveNotice(outcome: RwSignal<Option<Saved>>, reload: Callback<()>) -> impl IntoView {
    move || {
        outcome.get().map(|outcome| match outcome {
            Saved::Done => view! {
                <div class="notice notice-ok settings-notice" role="status">
                    "Saved. Roles and the deployment preview follow the new settings."
                </div>
            }
            .into_any(),
            Saved::Refused(failure) => view! {
                <div class="notice notice-error settings-notice" role="alert">
                    <p>{refused(&failure.message, &failure.problems)}</p>
                    <ul>
                        {failure
                            .problems
                            .iter()
                            .map(|p| view! { <li>{format!("{}: {}", p.path, p.message)}</li> })
                            .collect_view()}
                    </ul>
                    <button class="reload-settings" on:click=move |_| reload.run(())>
                        "Reload the saved settings"
                    </button>
                </div>
            }
            .into_any(),
        })
    }
}

/// The settings' groups in display order, each following its own values.
#[component]
fn Groups(draft: RwSignal<Settings>, evaluation: Memo<Evaluation>, bound: Bound) -> impl IntoView {
    // The groups are built again only if the settings' shape changed
    // (never while the operator types: a value is not the shape).
    let shape = Memo::new(move |_| {
        draft.with(|d| {
            d.tree
                .groups
                .iter()
                .map(|g| {
                    let names = g.attributes.iter().map(|a| a.name.clone());
                    (g.name.clone(), names.collect::<Vec<_>>())
                })
                .collect::<Vec<_>>()
        })
    });
    move || {
        shape.track();
        untrack(|| {
            draft.with(|d| {
                d.tree
                    .display_order()
                    .into_iter()
                    .map(|g| view! { <SettingsGroup g draft evaluation bound=bound.clone() /> })
                    .collect_view()
            })
        })
    }
}

/// Group `g` (a tree index) with its switch, why it is restricted, its
/// problems and its settings (`data-g`, `data-a`: tree indices).
#[component]
fn SettingsGroup(
    g: usize,
    draft: RwSignal<Settings>,
    evaluation: Memo<Evaluation>,
    bound: Bound,
) -> impl IntoView {
    let group = draft.with_untracked(|d| d.tree.groups[g].clone());
    let switch_bound = bound.at(&format!("{}.enabled", group.name));
    let state = Memo::new(move |_| {
        evaluation.with(|e| {
            e.groups
                .get(g)
                .map(|s| s.restricted.clone())
                .unwrap_or_default()
        })
    });
    let on = Memo::new(move |_| {
        draft.with(|d| {
            d.tree
                .groups
                .get(g)
                .is_some_and(|group| group.meta.enabled != Some(false))
        })
    });
    // Switched off or disabled by its restrictions: its controls are out of reach.
    let locked = Memo::new(move |_| {
        draft.with(|d| {
            evaluation.with(|e| match g < d.tree.groups.len() && g < e.groups.len() {
                true => d.locked(g, e),
                false => true,
            })
        })
    });
    let switch = group.meta.switchable.then(|| {
        view! {
            " "
            <label class="switch" data-switch=group.name.clone()>
                <input
                    type="checkbox"
                    prop:checked=on
                    disabled=switch_bound.is_some()
                    on:change=move |ev| draft.update(|d| d.switch(g, event_target_checked(&ev)))
                />
                {switch_label(&group)}
            </label>
        }
    });
    let switch_note = bound.note(switch_bound);
    let settings = group
        .attributes
        .iter()
        .enumerate()
        .filter(|(_, attr)| shown(attr))
        .map(|(a, attr)| {
            let path = format!("{}.{}", group.name, attr.name);
            let decided = bound.at(&path);
            let note = bound.note(decided.clone());
            view! {
                <SettingRow g a attr=attr.clone() path draft evaluation locked decided=decided.is_some() note />
            }
        })
        .collect_view();
    view! {
        <fieldset
            class="settings-group"
            class:hidden=move || state.with(|s| s.hidden)
            class:off=move || !on.get()
            data-group=group.name.clone()
            data-key=group.name.clone()
            data-g=g.to_string()
        >
            <legend>{group.meta.label.clone()} {switch}</legend>
            {switch_note}
            <Reason message=Signal::derive(move || state.with(|s| s.message.clone())) />
            <Problems path=format!("{}.enabled", group.name) evaluation />
            {settings}
        </fieldset>
    }
}

/// Why something is restricted, while it is.
#[component]
fn Reason(message: Signal<Option<String>>) -> impl IntoView {
    move || {
        message
            .get()
            .map(|message| view! { <p class="setting-reason">{message}</p> })
    }
}

/// The problems the check finds at `path`, each an alert.
#[component]
fn Problems(path: String, evaluation: Memo<Evaluation>) -> impl IntoView {
    let messages = {
        let path = path.clone();
        Memo::new(move |_| {
            evaluation.with(|e| {
                problems_at(e, &path)
                    .map(|p| p.message.clone())
                    .collect::<Vec<_>>()
            })
        })
    };
    view! {
        <ul class="setting-problems">
            {move || {
                messages
                    .get()
                    .into_iter()
                    .map(|message| {
                        view! {
                            <li class="setting-problem" role="alert">
                                {format!("{path}: {message}")}
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ul>
    }
}

/// Setting `a` of group `g` (tree indices): its label, its control, its
/// description, why it is restricted and its problems.
#[component]
fn SettingRow(
    g: usize,
    a: usize,
    /// The attribute as loaded: its kind, label, choices and description.
    attr: Attribute,
    /// `group.attr`: the control's id.
    path: String,
    draft: RwSignal<Settings>,
    evaluation: Memo<Evaluation>,
    locked: Memo<bool>,
    /// Whether the components decide it (it is then read-only).
    decided: bool,
    /// Why, with a link to the components.
    note: Option<AnyView>,
) -> impl IntoView {
    let value = Memo::new(move |_| {
        draft.with(|d| {
            d.tree
                .groups
                .get(g)
                .and_then(|group| group.attributes.get(a))
                .map_or(Value::Null, |attr| attr.value.clone())
        })
    });
    let state = Memo::new(move |_| {
        evaluation.with(|e| {
            e.groups
                .get(g)
                .and_then(|group| group.attributes.get(a))
                .cloned()
                .unwrap_or_default()
        })
    });
    let disabled = Memo::new(move |_| {
        decided || state.with(|s| value.with(|v| control_disabled(locked.get(), s, v)))
    });
    let description = attr.description().to_owned();
    let problems_path = path.clone();
    let control = Control {
        g,
        a,
        path: path.clone(),
        draft,
        value,
        state,
        disabled,
    };
    view! {
        <div
            class="setting"
            class:hidden=move || state.with(|s| s.restricted.hidden)
            class:inline=attr.kind == AttrType::Checkbox
            data-setting=path.clone()
            data-key=path.clone()
            data-a=a.to_string()
        >
            <label for=path.clone()>{attr.label.clone()}</label>
            <div class="control">{control.view(&attr)}</div>
            {(!description.is_empty())
                .then(|| view! { <p class="setting-description">{description}</p> })}
            {note}
            <Reason message=Signal::derive(move || state.with(|s| s.restricted.message.clone())) />
            <Problems path=problems_path evaluation />
        </div>
    }
}

/// What a setting's control reads and writes.
#[derive(Clone)]
struct Control {
    g: usize,
    a: usize,
    path: String,
    draft: RwSignal<Settings>,
    value: Memo<Value>,
    state: Memo<AttrState>,
    disabled: Memo<bool>,
}

impl Control {
    /// Enters `input` into the draft (`Settings::enter`).
    fn enter(&self) -> impl Fn(Input) + Copy + 'static {
        let (g, a, draft) = (self.g, self.a, self.draft);
        move |input| draft.update(|d| d.enter(g, a, input))
    }

    /// The control for `attr`'s kind, one method per kind; `path` is its
    /// id (a radio group's name).
    fn view(self, attr: &Attribute) -> AnyView {
        match &attr.kind {
            AttrType::Checkbox => self.checkbox(),
            AttrType::Select => self.select(attr),
            AttrType::Radio => self.radios(attr),
            AttrType::Number | AttrType::Text | AttrType::Password => self.input(attr),
            AttrType::Textarea | AttrType::TextList | AttrType::TextareaList => self.textarea(attr),
            AttrType::Other(kind) => {
                let value = self.value;
                view! {
                    <code class="muted" title=format!("a '{kind}' setting is changed through the API")>
                        {move || value.get().to_string()}
                    </code>
                }
                .into_any()
            }
        }
    }

    fn checkbox(self) -> AnyView {
        let (value, enter) = (self.value, self.enter());
        view! {
            <input
                type="checkbox"
                id=self.path
                prop:checked=move || value.with(|v| *v == Value::Bool(true))
                disabled=self.disabled
                on:change=move |ev| enter(Input::Checked(event_target_checked(&ev)))
            />
        }
        .into_any()
    }

    /// A `<select>`, a choice the restrictions block disabled with why.
    fn select(self, attr: &Attribute) -> AnyView {
        let (value, state, enter) = (self.value, self.state, self.enter());
        let options = attr
            .choices
            .iter()
            .enumerate()
            .map(|(i, choice)| {
                let data = choice.data.clone();
                let chosen = move || value.with(|v| *v == data);
                let choice_state = move || state.with(|s| s.choices.get(i).cloned());
                view! {
                    <option
                        value=i.to_string()
                        selected=chosen.clone()
                        prop:selected=chosen
                        disabled=move || choice_state().is_some_and(|c| c.blocked())
                        title=move || choice_state().and_then(|c| c.message)
                    >
                        {choice.label.clone()}
                    </option>
                }
            })
            .collect_view();
        view! {
            <select
                id=self.path
                disabled=self.disabled
                on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse() {
                        enter(Input::Choice(i));
                    }
                }
            >
                {options}
            </select>
        }
        .into_any()
    }

    /// A radio button per choice, named by the path.
    fn radios(self, attr: &Attribute) -> AnyView {
        let enter = self.enter();
        let Control {
            path,
            value,
            state,
            disabled,
            ..
        } = self;
        attr.choices
            .iter()
            .enumerate()
            .map(|(i, choice)| {
                let data = choice.data.clone();
                let blocked = move || state.with(|s| s.choices.get(i).is_some_and(|c| c.blocked()));
                view! {
                    <label class="choice">
                        <input
                            type="radio"
                            name=path.clone()
                            value=i.to_string()
                            prop:checked=move || value.with(|v| *v == data)
                            disabled=move || disabled.get() || blocked()
                            on:change=move |_| enter(Input::Choice(i))
                        />
                        {choice.label.clone()}
                    </label>
                }
            })
            .collect_view()
            .into_any()
    }

    /// A number, text or password input; a generated value says so.
    fn input(self, attr: &Attribute) -> AnyView {
        let kind = match attr.kind {
            AttrType::Number => "number",
            AttrType::Password => "password",
            _ => "text",
        };
        let state = self.state;
        let (text, typing) = self.text(attr.kind.clone());
        view! {
            <input
                type=kind
                id=self.path
                placeholder=move || state.with(|s| s.generated).then_some("generated at deployment")
                prop:value=text
                disabled=self.disabled
                on:input=typing
            />
        }
        .into_any()
    }

    /// A text area: one text, or a list of one item per line.
    fn textarea(self, attr: &Attribute) -> AnyView {
        let placeholder = (attr.kind != AttrType::Textarea).then_some("one per line");
        let (text, typing) = self.text(attr.kind.clone());
        view! {
            <textarea
                id=self.path
                rows="3"
                placeholder=placeholder
                disabled=self.disabled
                prop:value=text
                on:input=typing
            ></textarea>
        }
        .into_any()
    }

    /// A text control's text, and what typing into it does. The text is
    /// the user's while the value it stands for is the draft's (`1.` is
    /// the number 1, a blank line no item of a list); otherwise — after
    /// Discard, or a save — what the value reads as (`text_of`).
    fn text(
        &self,
        kind: AttrType,
    ) -> (
        impl Fn() -> String + Send + Sync + 'static,
        impl Fn(leptos::ev::Event) + 'static,
    ) {
        let typed_text = StoredValue::new(None::<String>);
        let value = self.value;
        let text = move || {
            value.with(|v| {
                typed_text.with_value(|t| match t {
                    Some(t) if typed(&kind, t.clone()) == *v => t.clone(),
                    _ => text_of(v),
                })
            })
        };
        let enter = self.enter();
        let typing = move |ev: leptos::ev::Event| {
            let text = event_target_value(&ev);
            typed_text.set_value(Some(text.clone()));
            enter(Input::Text(text));
        };
        (text, typing)
    }
}

/// The settings and switches the environment's components decide
/// (SEMANTICS §9.1), for the environment `cluster_id`.
#[derive(Clone)]
struct Bound {
    cluster_id: i64,
    all: std::sync::Arc<Vec<mosaic_core::environment::Bound>>,
}

impl Bound {
    fn of(cluster_id: i64, all: Vec<mosaic_core::environment::Bound>) -> Bound {
        Bound {
            cluster_id,
            all: std::sync::Arc::new(all),
        }
    }

    /// What decides `path` (`group.attr`, `group.enabled`), if anything.
    fn at(&self, path: &str) -> Option<mosaic_core::environment::Bound> {
        self.all.iter().find(|b| b.path == path).cloned()
    }

    /// The sentence saying so, with a link to the components.
    fn note(&self, bound: Option<mosaic_core::environment::Bound>) -> Option<AnyView> {
        let href = format!("/environments/{}/components", self.cluster_id);
        bound.map(|b| {
            view! {
                <p class="setting-bound">
                    {b.sentence()} " " <a href=href>"Change the components"</a>
                </p>
            }
            .into_any()
        })
    }
}
