//! Which graph type the deployment preview draws: a `<select>` labelled
//! "Graph" of every type the environment defines, each option saying the
//! graph's name and how many tasks it has.

use leptos::prelude::*;
use mosaic_core::api::GraphSummary;
use mosaic_core::name::GraphType;

#[component]
pub fn GraphChoice(
    /// The environment's graph types, `default` first.
    #[prop(into)]
    graphs: Signal<Vec<GraphSummary>>,
    /// The type drawn.
    #[prop(into)]
    chosen: Signal<GraphType>,
    /// A type picked.
    choose: Callback<GraphType>,
) -> impl IntoView {
    let picked = move |ev| {
        // The options' values are the types the server listed.
        if let Ok(kind) = GraphType::new(event_target_value(&ev)) {
            choose.run(kind);
        }
    };
    view! {
        <label class="field inline graph-choice">
            <span>"Graph"</span>
            <select class="graph-type" on:change=picked>
                <For
                    each=move || graphs.get()
                    key=|graph| graph.clone()
                    children=move |graph| {
                        let kind = graph.kind.clone();
                        view! {
                            <option
                                value=graph.kind.to_string()
                                prop:selected=move || chosen.with(|c| *c == kind)
                            >
                                {graph.label()}
                            </option>
                        }
                    }
                />
            </select>
        </label>
    }
}
