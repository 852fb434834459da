//! One setting as its control (checkbox, text, password, select, radio,
//! number, list), with what its restrictions say and its problems inline.
//! The value lives in the page's draft; the state comes from core's check
//! of that draft.

use leptos::prelude::*;
use mosaic_core::number::{parse_decimal, to_json};
use mosaic_core::settings::{AttrState, AttrType, Attribute, Settings, is_generated};
use serde_json::Value;

/// Where a setting sits in the draft, and what the page knows of it.
#[derive(Clone, Copy)]
pub struct Slot {
    pub group: usize,
    pub attr: usize,
    pub draft: RwSignal<Settings>,
    pub state: Signal<AttrState>,
    /// The problems of this setting (messages), from the same check.
    pub problems: Signal<Vec<String>>,
    /// The group is off or disabled: its settings cannot be changed.
    pub locked: Signal<bool>,
}

impl Slot {
    fn value(self) -> Value {
        self.draft.with(|d| {
            d.tree.groups[self.group].attributes[self.attr]
                .value
                .clone()
        })
    }

    fn set(self, value: Value) {
        self.draft
            .update(|d| d.tree.groups[self.group].attributes[self.attr].value = value);
    }
}

/// A number as JSON: whole numbers stay integers.
fn number(text: &str) -> Value {
    match parse_decimal(text.trim()) {
        Some(n) => to_json(n).map_or(Value::Null, Value::Number),
        None => Value::String(text.to_owned()),
    }
}

/// What a text control shows for `value`: a list one item per line.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(text_of).collect::<Vec<_>>().join("\n"),
        _ if is_generated(value) => String::new(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The value typed into a text control of `kind`: a number, a list (one
/// item per non-blank line) or the text itself.
fn typed(kind: &AttrType, text: String) -> Value {
    match kind {
        AttrType::Number => number(&text),
        AttrType::TextList | AttrType::TextareaList => Value::Array(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(|l| Value::String(l.to_owned()))
                .collect(),
        ),
        _ => Value::String(text),
    }
}

/// The control for `attr`.
fn control(attr: &Attribute, path: String, slot: Slot) -> AnyView {
    let disabled = move || {
        slot.locked.get()
            || (slot.state.with(|s| s.restricted.disabled) && slot.value() != Value::Bool(true))
    };
    match &attr.kind {
        AttrType::Checkbox => view! {
            <input
                type="checkbox"
                id=path
                prop:checked=move || slot.value() == Value::Bool(true)
                prop:disabled=disabled
                on:change=move |ev| slot.set(Value::Bool(event_target_checked(&ev)))
            />
        }
        .into_any(),
        AttrType::Select => {
            let options = attr
                .choices
                .iter()
                .enumerate()
                .map(|(i, choice)| {
                    let data = choice.data.clone();
                    let blocked = move || slot.state.with(|s| s.choices.get(i).is_some_and(|c| c.blocked()));
                    let why = move || slot.state.with(|s| s.choices.get(i).and_then(|c| c.message.clone()));
                    view! {
                        <option value=i.to_string() selected=move || slot.value() == data disabled=blocked title=why>
                            {choice.label.clone()}
                        </option>
                    }
                })
                .collect_view();
            let choices: Vec<Value> = attr.choices.iter().map(|c| c.data.clone()).collect();
            view! {
                <select
                    id=path
                    prop:disabled=disabled
                    on:change=move |ev| {
                        if let Some(v) = event_target_value(&ev).parse::<usize>().ok().and_then(|i| choices.get(i)) {
                            slot.set(v.clone());
                        }
                    }
                >
                    {options}
                </select>
            }
            .into_any()
        }
        AttrType::Radio => attr
            .choices
            .iter()
            .enumerate()
            .map(|(i, choice)| {
                let data = choice.data.clone();
                let pick = data.clone();
                let blocked = move || {
                    slot.state
                        .with(|s| s.choices.get(i).is_some_and(|c| c.blocked()))
                };
                view! {
                    <label class="choice">
                        <input
                            type="radio"
                            name=path.clone()
                            value=i.to_string()
                            prop:checked=move || slot.value() == data
                            prop:disabled=move || disabled() || blocked()
                            on:change=move |_| slot.set(pick.clone())
                        />
                        {choice.label.clone()}
                    </label>
                }
            })
            .collect_view()
            .into_any(),
        AttrType::Number | AttrType::Text | AttrType::Password => {
            let kind = attr.kind.clone();
            let input_type = match kind {
                AttrType::Number => "number",
                AttrType::Password => "password",
                _ => "text",
            };
            let placeholder = move || {
                slot.state
                    .with(|s| s.generated.then_some("generated at deployment"))
            };
            view! {
                <input
                    type=input_type
                    id=path
                    placeholder=placeholder
                    prop:value=move || text_of(&slot.value())
                    prop:disabled=disabled
                    on:input=move |ev| slot.set(typed(&kind, event_target_value(&ev)))
                />
            }
            .into_any()
        }
        AttrType::Textarea | AttrType::TextList | AttrType::TextareaList => {
            let kind = attr.kind.clone();
            let list = kind != AttrType::Textarea;
            view! {
                <textarea
                    id=path
                    rows="3"
                    placeholder=list.then_some("one per line")
                    prop:value=move || text_of(&slot.value())
                    prop:disabled=disabled
                    on:input=move |ev| slot.set(typed(&kind, event_target_value(&ev)))
                ></textarea>
            }
            .into_any()
        }
        AttrType::Other(kind) => view! {
            <code class="muted" title=format!("a '{kind}' setting is changed through the API")>
                {move || slot.value().to_string()}
            </code>
        }
        .into_any(),
    }
}

/// One setting: label, control, description, why it is restricted, its problems.
#[component]
pub fn SettingRow(group: String, attr: Attribute, at: Slot) -> impl IntoView {
    let slot = at;
    let path = format!("{group}.{}", attr.name);
    let problem_path = path.clone();
    let hidden = move || slot.state.with(|s| s.restricted.hidden);
    let reason = move || slot.state.with(|s| s.restricted.message.clone());
    let description = attr.description().to_owned();
    let inline = matches!(attr.kind, AttrType::Checkbox);
    let control = control(&attr, path.clone(), slot);
    view! {
        <div class="setting" class:hidden=hidden class:inline=inline data-setting=path.clone()>
            <label for=path.clone()>{attr.label.clone()}</label>
            <div class="control">{control}</div>
            {(!description.is_empty()).then(|| view! { <p class="setting-description">{description}</p> })}
            {move || reason().map(|r| view! { <p class="setting-reason">{r}</p> })}
            <ul class="setting-problems">
                {move || {
                    slot.problems
                        .get()
                        .into_iter()
                        .map(|p| view! { <li class="setting-problem" role="alert">{format!("{problem_path}: {p}")}</li> })
                        .collect_view()
                }}
            </ul>
        </div>
    }
}
