//! One wizard option's row (`.option`, `data-component`, `data-state`):
//! its checkbox or radio button, label, plugin and description; a green
//! light when tested with the other choices, or the choices it was not
//! tested with; why it cannot be picked and the Fix that would make it
//! available.
//!
//! What the row always shows is its `OptionHead`; what changes with the
//! selection is its `OptionParts` (both worked out in core), each part
//! bound to its own element: a click changes the "not tested with" count of
//! dozens of rows, and in them only that text changes
//! (docs/benchmarks.md, "Wizard click latency").

use leptos::html::Input;
use leptos::prelude::*;
use mosaic_core::wizard::view::{OptionHead, OptionParts};
use web_sys::{FocusOptions, HtmlDetailsElement};

#[component]
pub fn OptionRow(
    head: OptionHead,
    #[prop(into)] parts: Signal<OptionParts>,
    /// The option ticked or unticked (a radio button chosen).
    on_pick: Callback<()>,
    /// Its Fix clicked.
    on_fix: Callback<()>,
    /// Its "not tested with" list opened (`true`) or closed.
    on_open: Callback<bool>,
) -> impl IntoView {
    let OptionHead {
        name,
        id,
        label,
        description,
        plugin,
        radio_group,
    } = head;
    let input = NodeRef::<Input>::new();
    let kind = if radio_group.is_some() {
        "radio"
    } else {
        "checkbox"
    };
    let picked = move |_| {
        // The browser ticked the box before the engine answered: the box
        // shows the answer, which changes it only if the state changed.
        if let Some(input) = input.get_untracked() {
            input.set_checked(parts.with_untracked(|p| p.checked));
        }
        on_pick.run(());
    };
    let source = plugin
        .map(|plugin| view! { <span class="source">{format!("from plugin {plugin}")}</span> });
    view! {
        <div
            class="option"
            class:nested=move || parts.with(|p| p.nested)
            class:unavailable=move || parts.with(|p| p.disabled)
            data-component=name.clone()
            data-state=move || parts.with(|p| p.state)
        >
            <input
                node_ref=input
                id=id.clone()
                type=kind
                name=radio_group
                value=name.clone()
                prop:checked=move || parts.with(|p| p.checked)
                disabled=move || parts.with(|p| p.disabled)
                on:change=picked
            />
            <span class="head">
                <label class="label" for=id>
                    {label}
                </label>
                {source}
                {advice(parts, on_open)}
            </span>
            <span class="description">{description}</span>
            {reason(parts, input, on_fix)}
        </div>
    }
}

/// The advice on the option: tested with the other choices, or the
/// choices it was not tested with, listed when opened (`on_open`).
fn advice(parts: Signal<OptionParts>, on_open: Callback<bool>) -> impl IntoView {
    let toggled = move |ev: leptos::ev::Event| {
        let details: HtmlDetailsElement = event_target(&ev);
        on_open.run(details.open());
    };
    view! {
        <span
            class="tested"
            class:hidden=move || parts.with(|p| !p.tested)
            data-advice="tested"
            title="Tested with your other choices"
        >
            "● tested"
        </span>
        <details
            class="untested"
            class:hidden=move || parts.with(|p| p.untested.is_empty())
            data-advice="untested"
            on:toggle=toggled
        >
            <summary>{move || parts.with(|p| p.untested.clone())}</summary>
            <ul>
                {move || {
                    parts
                        .with(|p| {
                            p.list
                                .iter()
                                .map(|label| view! { <li>{label.clone()}</li> })
                                .collect_view()
                        })
                }}
            </ul>
        </details>
    }
}

/// Why the option cannot be picked, and the Fix that would make it
/// available.
fn reason(
    parts: Signal<OptionParts>,
    input: NodeRef<Input>,
    on_fix: Callback<()>,
) -> impl IntoView {
    // The Fix button disappears with the repair: the focus moves to the
    // option it enabled, once the page shows it enabled. It is in the row
    // just clicked, so the page does not scroll to it: a scroll would bring
    // other rows near the screen and their repairs into this click.
    let fixed = move |_| {
        on_fix.run(());
        if let Some(input) = input.get_untracked() {
            request_animation_frame(move || {
                let options = FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = input.focus_with_options(&options);
            });
        }
    };
    view! {
        <span class="reason" class:hidden=move || parts.with(|p| p.reasons.is_empty()) role="note">
            <span class="reason-text">{move || parts.with(|p| p.reasons.clone())}</span>
            <button
                type="button"
                class="fix"
                class:hidden=move || parts.with(|p| p.fix.is_empty())
                on:click=fixed
            >
                {move || parts.with(|p| p.fix.clone())}
            </button>
        </span>
    }
}
