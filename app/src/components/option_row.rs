//! One wizard option: a checkbox or radio button with its label, the
//! plugin that provides it and its description; what the engine says of it
//! (a green light when tested with the other choices, the untested list one
//! click away, or why it cannot be picked), and a "fix" button that applies
//! the suggested repair and keeps the keyboard focus on the option. The
//! repair and the advice come apart from the report: they are worked out
//! only while the row is near the screen (`near`).

use leptos::prelude::*;
use mosaic_core::component::{Advice, Compatibility, ComponentReport, Repair, State};
use stylers_macro::style;

use super::near_view;

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

/// "Fix: select vCenter, deselect KVM".
fn repair_text(repair: &Repair, label_of: Callback<String, String>) -> String {
    let labels = |names: &[String]| -> String {
        names
            .iter()
            .map(|n| label_of.run(n.clone()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    if !repair.select.is_empty() {
        parts.push(format!("select {}", labels(&repair.select)));
    }
    if !repair.deselect.is_empty() {
        parts.push(format!("deselect {}", labels(&repair.deselect)));
    }
    format!("Fix: {}", parts.join(", "))
}

/// The choices it was not tested with, if any.
fn untested(advice: &Option<Advice>) -> &[String] {
    match advice {
        Some(Advice {
            compatibility: Some(Compatibility::Untested),
            untested_with,
        }) => untested_with,
        _ => &[],
    }
}

/// The reasons as one sentence list.
fn reasons_text(report: &ComponentReport) -> String {
    report
        .reasons
        .iter()
        .map(|reason| reason.message.trim_end_matches('.').to_owned())
        .collect::<Vec<_>>()
        .join("; ")
        + "."
}

#[component]
pub fn OptionRow(
    name: String,
    label: String,
    description: String,
    /// The plugin that provides it, if not the release.
    #[prop(default = None)]
    plugin: Option<String>,
    input: Input,
    /// The engine's report for this component (without its repair and
    /// advice, which come apart).
    #[prop(into)]
    report: Signal<ComponentReport>,
    /// The smallest repair that makes it available, while it is blocked
    /// and near the screen.
    #[prop(into)]
    repair: Signal<Option<Repair>>,
    /// Whether it was tested with the other choices, while it is selected
    /// or available and near the screen.
    #[prop(into)]
    advice: Signal<Option<Advice>>,
    /// Kept telling whether the row is near the screen.
    near: RwSignal<bool>,
    /// Kept telling whether the row is within the wider band around it.
    #[prop(optional)]
    soon: Option<RwSignal<bool>>,
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
        }
        .option:hover {
            background: #f1f5f9;
        }
        .nested {
            margin-left: 1.8rem;
        }
        .unavailable {
            color: #475569;
        }
        .head {
            display: flex;
            flex-wrap: wrap;
            align-items: baseline;
            gap: 0.2rem 0.6rem;
        }
        .label {
            font-weight: 600;
            cursor: pointer;
        }
        .source {
            font-size: 0.8rem;
            color: #475569;
        }
        .description {
            grid-column: 2;
            font-size: 0.85rem;
            color: #475569;
        }
        .reason {
            grid-column: 2;
            font-size: 0.85rem;
            color: rgb(146, 64, 14);
        }
        .tested {
            font-size: 0.8rem;
            color: #166534;
        }
        .untested {
            font-size: 0.8rem;
            color: #475569;
        }
        .untested summary {
            cursor: pointer;
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
    // Each part of the report on its own: a click that changes an option's
    // reasons but not its state (or the reverse) draws only that part again.
    let state = Memo::new(move |_| report.with(|r| r.state));
    let unavailable = move || matches!(state.get(), State::Blocked | State::Dead);
    let reasons = Memo::new(move |_| {
        report.with(|r| match r.state {
            State::Blocked | State::Dead => reasons_text(r),
            State::Selected | State::Available => String::new(),
        })
    });
    let repair =
        Memo::new(move |_| repair.with(|r| r.as_ref().map(|repair| repair_text(repair, label_of))));
    let row = NodeRef::<leptos::html::Div>::new();
    near_view::watch(row, near, soon);
    let tested = Memo::new(move |_| {
        let compatible = advice.with(|a| {
            a.as_ref()
                .is_some_and(|a| a.compatibility == Some(Compatibility::Compatible))
        });
        compatible && report.with(|r| r.state == State::Selected)
    });
    let untested_count = Memo::new(move |_| advice.with(|a| untested(a).len()));
    // The list is only there while it is open.
    let details = NodeRef::<leptos::html::Details>::new();
    let open = RwSignal::new(false);
    let input_ref = NodeRef::<leptos::html::Input>::new();
    let fix = move |_| {
        on_fix.run(());
        // The Fix button disappears with the repair: the focus moves to the
        // option it enabled, once the page shows it enabled. It is in the
        // row just clicked, so the page does not scroll to it: a scroll
        // would bring other rows near the screen and their repairs into
        // this click.
        request_animation_frame(move || {
            if let Some(input) = input_ref.get_untracked() {
                let options = web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = input.focus_with_options(&options);
            }
        });
    };
    let input_id = format!("option-{}", name.replace(':', "-"));
    view! { class = class_name,
        <div
            node_ref=row
            class="option"
            class:nested=nested
            class:unavailable=unavailable
            data-component=name.clone()
            data-state=move || state_name(state.get())
        >
            <input
                node_ref=input_ref
                id=input_id.clone()
                type=kind
                name=group
                value=name.clone()
                prop:checked=move || state.get() == State::Selected
                prop:disabled=unavailable
                on:change=move |_| on_toggle.run(())
            />
            <span class="head">
                <label class="label" for=input_id.clone()>{label}</label>
                {plugin.map(|p| view! { <span class="source">{format!("from plugin {p}")}</span> })}
                <span class="tested" data-advice="tested" class:hidden=move || !tested.get() title="Tested with your other choices">
                    "● tested"
                </span>
                <details
                    node_ref=details
                    class="untested"
                    data-advice="untested"
                    class:hidden=move || untested_count.get() == 0
                    on:toggle=move |_| open.set(details.get_untracked().is_some_and(|d| d.open()))
                >
                    <summary>{move || format!("not tested with {}", count(untested_count.get()))}</summary>
                    <ul>
                        {move || {
                            open.get()
                                .then(|| {
                                    advice.with(|a| {
                                        untested(a)
                                            .iter()
                                            .map(|name| view! { <li>{label_of.run(name.clone())}</li> })
                                            .collect_view()
                                    })
                                })
                        }}
                    </ul>
                </details>
            </span>
            <span class="description">{description}</span>
            <span class="reason" role="note" class:hidden=move || !unavailable()>
                <span class="reason-text">{reasons}</span>
                <button type="button" class="fix" class:hidden=move || repair.with(Option::is_none) on:click=fix>
                    {move || repair.get().unwrap_or_default()}
                </button>
            </span>
        </div>
    }
}

/// "1 choice", "3 choices".
fn count(n: usize) -> String {
    if n == 1 {
        "1 choice".to_owned()
    } else {
        format!("{n} choices")
    }
}
