//! One wizard option: a checkbox or radio button with its label, its
//! description, and — when it cannot be picked — the reasons why.

use leptos::prelude::*;
use mosaic_core::wizard::{OptionState, State};
use stylers_macro::style;

/// How an option is presented.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Checkbox,
    /// A radio button in the named group.
    Radio(String),
}

#[component]
pub fn OptionRow(
    name: String,
    label: String,
    description: String,
    input: Input,
    #[prop(into)] state: Signal<OptionState>,
    on_toggle: Callback<()>,
    #[prop(optional)] nested: bool,
) -> impl IntoView {
    let class_name = style! {
        .option {
            display: grid;
            grid-template-columns: 1.6rem 1fr;
            padding: 0.45rem 0.6rem;
            border-radius: 6px;
            cursor: pointer;
        }
        .option:hover {
            background: #f1f5f9;
        }
        .nested {
            margin-left: 1.8rem;
        }
        .blocked {
            cursor: not-allowed;
            color: #64748b;
        }
        .label {
            font-weight: 600;
        }
        .description {
            grid-column: 2;
            font-size: 0.85rem;
            color: #475569;
        }
        .reason {
            grid-column: 2;
            font-size: 0.85rem;
            color: #b45309;
        }
    };
    let (kind, group) = match input {
        Input::Checkbox => ("checkbox", None),
        Input::Radio(group) => ("radio", Some(group)),
    };
    let selected = move || state.with(|s| s.state == State::Selected);
    let blocked = move || state.with(|s| s.state == State::Blocked);
    let state_name = move || {
        state.with(|s| match s.state {
            State::Selected => "selected",
            State::Available => "available",
            State::Blocked => "blocked",
        })
    };
    let reasons = move || {
        state.with(|s| {
            s.reasons
                .iter()
                .map(|r| r.message.clone())
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    let input_id = format!("option-{}", name.replace(':', "-"));
    view! { class = class_name,
        <label
            class="option"
            class:nested=nested
            class:blocked=blocked
            for=input_id.clone()
            data-component=name.clone()
            data-state=state_name
        >
            <input
                id=input_id.clone()
                type=kind
                name=group
                value=name.clone()
                prop:checked=selected
                prop:disabled=blocked
                on:change=move |_| on_toggle.run(())
            />
            <span class="label">{label}</span>
            <span class="description">{description}</span>
            <Show when=blocked>
                <span class="reason" role="note">{reasons}</span>
            </Show>
        </label>
    }
}
