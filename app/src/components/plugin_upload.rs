//! The upload of a plugin package: a file input that installs the chosen
//! archive, then what became of it — installed (and idle if it fits no
//! installed release), or refused with every problem of its validation
//! report.

use leptos::prelude::*;
use mosaic_core::api::PluginSummary;
use mosaic_core::plugin::{Diagnostic, Report, Severity};
use web_sys::{File, HtmlInputElement};

use crate::api::{self, ApiFailure};
use crate::components::notice::ErrorNotice;

#[component]
pub fn PluginUpload(
    /// Told of each plugin installed.
    installed: Callback<PluginSummary>,
) -> impl IntoView {
    let upload = Action::new_unsync_local(move |file: &File| {
        let file = file.clone();
        async move {
            let content_type = api::archive_content_type(&file.name());
            let bytes = api::file_bytes(file).await?;
            let plugin = api::upload_plugin(bytes, content_type).await?;
            // Nobody to tell when the page went meanwhile.
            installed.try_run(plugin.clone());
            Ok::<_, ApiFailure>(plugin)
        }
    });
    let busy = upload.pending();
    let picked = move |ev: leptos::ev::Event| {
        if let Some(file) = api::picked_file(&event_target::<HtmlInputElement>(&ev)) {
            upload.dispatch_local(file);
        }
    };
    // What became of the last package, once it is through.
    let outcome = move || {
        if busy.get() {
            return None;
        }
        upload.value().get().map(|outcome| match outcome {
            Ok(plugin) => view! { <Installed plugin /> }.into_any(),
            Err(failure) => view! {
                <ErrorNotice message=failure.message />
                {failure.report.map(|report| view! { <ValidationReport report=*report /> })}
            }
            .into_any(),
        })
    };
    view! {
        <div class="upload">
            <label class="button">
                "Upload a plugin package (.tar.gz or .zip)"
                <input
                    type="file"
                    class="plugin-upload"
                    accept=".tar.gz,.tgz,.zip,application/gzip,application/zip"
                    disabled=move || busy.get()
                    on:change=picked
                />
            </label>
            <Show when=move || busy.get()>
                <p class="loading">"Validating and installing…"</p>
            </Show>
            {outcome}
        </div>
    }
}

/// The plugin just installed, or why it does nothing yet.
#[component]
pub fn Installed(plugin: PluginSummary) -> impl IntoView {
    match plugin.idle_reason() {
        Some(why) => view! {
            <p class="notice notice-warn idle-plugin" role="status">
                <strong>{why}</strong>
            </p>
        }
        .into_any(),
        None => view! {
            <p class="notice notice-ok" role="status">
                {format!("Installed {} {}.", plugin.title, plugin.version)}
            </p>
        }
        .into_any(),
    }
}

/// A package's validation report: every diagnostic, then the summary.
#[component]
pub fn ValidationReport(report: Report) -> impl IntoView {
    let summary = report.summary();
    view! {
        <div class="validation-report">
            <ul class="diagnostics">
                {report.diagnostics.into_iter().map(diagnostic).collect_view()}
            </ul>
            <p class="report-summary">{summary}</p>
        </div>
    }
}

fn diagnostic(d: Diagnostic) -> impl IntoView {
    let (class, label) = match d.severity {
        Severity::Error => ("diagnostic error", "error"),
        Severity::Warning => ("diagnostic warning", "warning"),
    };
    view! {
        <li class=class>
            <span class="severity">{label}</span>
            <code class="place">{d.place()}</code>
            <span class="message">{d.message}</span>
        </li>
    }
}
