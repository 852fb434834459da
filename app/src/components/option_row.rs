//! One wizard option: a checkbox or radio button with its label and
//! description, what the engine says of it (compatibility advice, or why it
//! cannot be picked), and a "fix" button that applies the suggested repair.

use leptos::prelude::*;
use mosaic_core::component::{Compatibility, ComponentReport, State};
use stylers_macro::style;

/// How an option is presented.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Checkbox,
    /// A radio button in the named group.
    Radio(String),
}

fn state_name(state: State) -> &'static str {
    match state {
        State::Selected => "selected",
        State::Available => "available",
        State::Blocked => "blocked",
        State::Dead => "dead",
    }
}

#[component]
pub fn OptionRow(
    name: String,
    label: String,
    description: String,
    input: Input,
    /// The engine's report for this component.
    #[prop(into)]
    report: Signal<ComponentReport>,
    /// Turns component names into the labels operators know.
    label_of: Callback<String, String>,
    on_toggle: Callback<()>,
    on_fix: Callback<()>,
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
        .unavailable {
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
        .advice {
            grid-column: 2;
            font-size: 0.8rem;
            color: #64748b;
        }
        .tested {
            color: #15803d;
        }
        .fix {
            margin-left: 0.5rem;
            padding: 0.1rem 0.5rem;
            font-size: 0.8rem;
        }
    };
    let (kind, group) = match input {
        Input::Checkbox => ("checkbox", None),
        Input::Radio(group) => ("radio", Some(group)),
    };
    let state = move || report.with(|r| r.state);
    let unavailable = move || matches!(state(), State::Blocked | State::Dead);
    let reasons = move || {
        report.with(|r| {
            r.reasons
                .iter()
                .map(|reason| reason.message.trim_end_matches('.').to_owned())
                .collect::<Vec<_>>()
                .join("; ")
                + "."
        })
    };
    let repair = move || {
        report.with(|r| {
            r.repair.as_ref().map(|repair| {
                let labels: Vec<String> = repair
                    .deselect
                    .iter()
                    .map(|n| label_of.run(n.clone()))
                    .collect();
                format!("Fix: deselect {}", labels.join(", "))
            })
        })
    };
    let advice = move || {
        report.with(|r| match r.compatibility {
            Some(Compatibility::Compatible) if r.state == State::Selected => {
                Some(("tested", "Tested with your other choices".to_owned()))
            }
            Some(Compatibility::Untested) => {
                let labels: Vec<String> = r
                    .untested_with
                    .iter()
                    .map(|n| label_of.run(n.clone()))
                    .collect();
                Some(("untested", format!("Not tested with {}", labels.join(", "))))
            }
            _ => None,
        })
    };
    let input_id = format!("option-{}", name.replace(':', "-"));
    view! { class = class_name,
        <div
            class="option"
            class:nested=nested
            class:unavailable=unavailable
            data-component=name.clone()
            data-state=move || state_name(state())
        >
            <input
                id=input_id.clone()
                type=kind
                name=group
                value=name.clone()
                prop:checked=move || state() == State::Selected
                prop:disabled=unavailable
                on:change=move |_| on_toggle.run(())
            />
            <label class="label" for=input_id.clone()>{label}</label>
            <span class="description">{description}</span>
            <span class="reason" role="note" class:hidden=move || !unavailable()>
                <span class="reason-text">{reasons}</span>
                <button
                    type="button"
                    class="fix"
                    class:hidden=move || repair().is_none()
                    on:click=move |_| on_fix.run(())
                >
                    {move || repair().unwrap_or_default()}
                </button>
            </span>
            <span
                class="advice"
                class:hidden=move || advice().is_none()
                class:tested=move || advice().is_some_and(|(kind, _)| kind == "tested")
                data-advice=move || advice().map(|(kind, _)| kind)
            >
                {move || advice().map(|(_, text)| text)}
            </span>
        </div>
    }
}
