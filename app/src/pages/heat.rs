//! Heat template sets: upload one, see what its templates provide, resolve
//! an environment against it — picking an implementation for each resource
//! type that still has several — and download the resolved environment.

use std::collections::BTreeMap;

use leptos::prelude::*;
use mosaic_core::api::{ResolveTemplates, TemplateResolution, TemplateSet};
use mosaic_core::markup;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;

use crate::api::{self, ApiFailure};
use crate::components::html::closest;
use crate::components::notice::ErrorNotice;

fn picked_file(ev: &leptos::ev::Event) -> Option<web_sys::File> {
    let input = ev.target()?.dyn_into::<HtmlInputElement>().ok()?;
    let file = input.files()?.get(0)?;
    input.set_value("");
    Some(file)
}

#[component]
pub fn HeatPage() -> impl IntoView {
    let set = RwSignal::new(None::<TemplateSet>);
    let error = RwSignal::new(None::<String>);
    let upload = move |ev: leptos::ev::Event| {
        let Some(file) = picked_file(&ev) else { return };
        let name = file.name();
        error.set(None);
        leptos::task::spawn_local(async move {
            let result = match api::file_bytes(file).await {
                Ok(bytes) => api::upload_template_set(&name, bytes).await,
                Err(e) => Err(e),
            };
            match result {
                Ok(uploaded) => set.set(Some(uploaded)),
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    crate::route::set_title("Heat templates");
    view! {
        <section class="card heat" data-page="heat">
            <h1>"Heat template sets"</h1>
            <p class="hint">
                "Templates declare what they provide with " <code>"capabilities:"</code>
                "; an environment's " <code>"requires:"</code>
                " picks one implementation for each resource type listed in its "
                <code>"resource_registry"</code> "."
            </p>
            <label class="button" class:hidden=!crate::session::session().can(mosaic_core::access::Role::Operator)>
                "Upload a template set (.tar.gz or .zip)"
                <input type="file" class="template-upload" accept=".tar.gz,.tgz,.zip" on:change=upload />
            </label>
            {move || error.get().map(|message| view! { <ErrorNotice message /> })}
            {move || set.get().map(|s| view! { <TemplateSetView set=s /> })}
        </section>
    }
}

#[component]
fn TemplateSetView(set: TemplateSet) -> impl IntoView {
    let environment = RwSignal::new(String::new());
    let picks = RwSignal::new(BTreeMap::<String, String>::new());
    let resolution = RwSignal::new(None::<Result<TemplateResolution, ApiFailure>>);
    let id = set.id;
    let run = move || {
        let request = ResolveTemplates {
            environment: environment.get_untracked(),
            picks: picks.get_untracked(),
        };
        leptos::task::spawn_local(async move {
            resolution.set(Some(api::resolve_templates(id, &request).await));
        });
    };
    let load_environment = move |ev: leptos::ev::Event| {
        let Some(file) = picked_file(&ev) else { return };
        leptos::task::spawn_local(async move {
            if let Ok(bytes) = api::file_bytes(file).await {
                environment.set(String::from_utf8_lossy(&bytes).into_owned());
                picks.set(BTreeMap::new());
            }
        });
    };
    let summary = markup::heat::template_set(&set).into_string();
    view! {
        <div inner_html=summary />
        <h2>"Environment"</h2>
        <label class="button">
            "Load an environment file"
            <input type="file" class="environment-upload" accept=".yaml,.yml" on:change=load_environment />
        </label>
        <textarea
            class="environment-text"
            rows="10"
            placeholder="requires:\n  deployment: puppet\nresource_registry:\n  OS::TripleO::Controller: [puppet/controller.yaml, docker/controller.yaml]"
            prop:value=move || environment.get()
            on:input=move |ev| environment.set(event_target_value(&ev))
        ></textarea>
        <button class="resolve" on:click=move |_| { picks.set(BTreeMap::new()); run() }>"Resolve"</button>
        {move || resolution.get().map(|r| match r {
            Err(e) => view! { <ErrorNotice message=e.message /> }.into_any(),
            Ok(r) => view! { <ResolutionView resolution=r picks on_pick=Callback::new(move |()| run()) /> }.into_any(),
        })}
    }
}

/// The resolution (`markup::heat::resolution`); picking a candidate
/// resolves again with it.
#[component]
fn ResolutionView(
    resolution: TemplateResolution,
    picks: RwSignal<BTreeMap<String, String>>,
    on_pick: Callback<()>,
) -> impl IntoView {
    let download = resolution
        .environment
        .as_ref()
        .map(|text| format!("data:text/yaml;charset=utf-8,{}", api::percent_encode(text)));
    let html = markup::heat::resolution(&resolution, download.as_deref()).into_string();
    let pick = move |ev: leptos::ev::Event| {
        let radio = closest(&ev, "input[type='radio']");
        let Some(input) = radio.and_then(|r| r.dyn_into::<HtmlInputElement>().ok()) else {
            return;
        };
        let choice = input.closest("fieldset.choice").ok().flatten();
        let Some(kind) = choice.and_then(|c| c.get_attribute("data-resource-type")) else {
            return;
        };
        picks.update(|p| {
            p.insert(kind, input.value());
        });
        on_pick.run(());
    };
    view! { <div inner_html=html on:change=pick /> }
}
