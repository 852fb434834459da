use leptos::prelude::*;
use mosaic_core::api::PluginSummary;
use wasm_bindgen::JsCast;

use crate::api::{self, ApiFailure};
use crate::components::notice::ErrorNotice;
use crate::components::report::ValidationReport;

/// A file input that installs the chosen plugin archive, showing the
/// validation report when the server refuses it.
#[component]
pub fn PluginUpload(#[prop(into)] installed: Callback<PluginSummary>) -> impl IntoView {
    let failure = RwSignal::new(None::<ApiFailure>);
    let busy = RwSignal::new(false);
    let done = RwSignal::new(None::<String>);
    let idle = RwSignal::new(None::<String>);
    let on_change = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|files| files.get(0)) else {
            return;
        };
        input.set_value("");
        let content_type = api::archive_content_type(&file.name());
        busy.set(true);
        failure.set(None);
        done.set(None);
        idle.set(None);
        leptos::task::spawn_local(async move {
            let result = match api::file_bytes(file).await {
                Ok(bytes) => api::upload_plugin(bytes, content_type).await,
                Err(e) => Err(e),
            };
            busy.set(false);
            match result {
                Ok(plugin) => {
                    idle.set(plugin.idle_reason());
                    done.set(Some(format!(
                        "Installed {} {}.",
                        plugin.title, plugin.version
                    )));
                    installed.run(plugin);
                }
                Err(e) => failure.set(Some(e)),
            }
        });
    };
    view! {
        <div class="upload">
            <label class="button">
                "Upload a plugin package (.tar.gz or .zip)"
                <input
                    type="file"
                    class="plugin-upload"
                    accept=".tar.gz,.tgz,.zip,application/gzip,application/zip"
                    prop:disabled=move || busy.get()
                    on:change=on_change
                />
            </label>
            <Show when=move || busy.get()>
                <p class="loading">"Validating and installing…"</p>
            </Show>
            {move || match (idle.get(), done.get()) {
                (Some(why), Some(_)) => Some(view! { <p class="notice notice-warn idle-plugin" role="status"><strong>{why}</strong></p> }.into_any()),
                (None, Some(m)) => Some(view! { <p class="notice notice-ok" role="status">{m}</p> }.into_any()),
                _ => None,
            }}
            {move || {
                failure
                    .get()
                    .map(|f| {
                        view! {
                            <ErrorNotice message=f.message.clone() />
                            {f.report.map(|report| view! { <ValidationReport report=*report /> })}
                        }
                    })
            }}
        </div>
    }
}
