use leptos::prelude::*;
use mosaic_core::api::PluginSummary;
use mosaic_core::markup::plugins::{self, Upload};
use wasm_bindgen::JsCast;

use crate::api::{self, ApiFailure};
use crate::components::html::picked_file;
use crate::components::var::Var;
use crate::dom::{View, el};

/// A file input that installs the chosen plugin archive, showing the
/// validation report when the server refuses it (`markup::plugins::upload`).
pub fn plugin_upload(installed: Callback<PluginSummary>) -> View {
    let failure = Var::new(None::<ApiFailure>);
    let busy = Var::new(false);
    let done = Var::new(None::<PluginSummary>);
    let render = move || {
        let (plugin, failure) = (done.get(), failure.get());
        plugins::upload(&Upload {
            busy: busy.get(),
            installed: plugin.as_ref(),
            refused: failure
                .as_ref()
                .map(|f| (f.message.as_str(), f.report.as_deref())),
        })
    };
    let on_change = move |ev: web_sys::Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        let Some(file) = input.as_ref().and_then(picked_file) else {
            return;
        };
        let content_type = api::archive_content_type(&file.name());
        busy.set(true);
        failure.set(None);
        done.set(None);
        leptos::task::spawn_local(async move {
            let result = match api::file_bytes(file).await {
                Ok(bytes) => api::upload_plugin(bytes, content_type).await,
                Err(e) => Err(e),
            };
            busy.set(false);
            match result {
                Ok(plugin) => {
                    done.set(Some(plugin.clone()));
                    installed.run(plugin);
                }
                Err(e) => failure.set(Some(e)),
            }
        });
    };
    el("div").merged(render).on("change", on_change).into()
}
