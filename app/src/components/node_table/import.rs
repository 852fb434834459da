//! "Import hardware": facts files, or a folder of them, read in the
//! browser and sent as one JSON object (file name → text); the dry run
//! says what each host would become — a new node, an update with what
//! changes, unchanged — and every problem, then Import stores it all.

use leptos::prelude::*;
use mosaic_core::api::ImportReport;
use mosaic_core::hardware::hidden;
use serde_json::{Map, Value};
use web_sys::HtmlInputElement;

use crate::api::{self, ApiFailure};
use crate::components::action::{ActionError, Request, on_success};

/// How many hosts of each kind a report lists (the summary counts all).
const LISTED: usize = 50;

/// Files read: file name → text.
type Files = Map<String, Value>;

/// The files `input` holds, each by its path in the folder chosen (else
/// its name), read one after the other.
async fn read_files(input: HtmlInputElement) -> Result<Files, ApiFailure> {
    let Some(list) = input.files() else {
        return Ok(Files::new());
    };
    let mut files = Files::new();
    for i in 0..list.length() {
        let Some(file) = list.get(i) else { continue };
        // The path in the folder chosen (web-sys has no stable binding).
        let path = js_sys::Reflect::get(&file, &"webkitRelativePath".into())
            .ok()
            .and_then(|p| p.as_string())
            .unwrap_or_default();
        let name = if path.is_empty() { file.name() } else { path };
        if hidden(&name) {
            continue;
        }
        let text = wasm_bindgen_futures::JsFuture::from(file.text())
            .await
            .map_err(|e| ApiFailure::plain(format!("cannot read {name}: {e:?}")))?;
        files.insert(name, Value::String(text.as_string().unwrap_or_default()));
    }
    input.set_value("");
    Ok(files)
}

/// The button opening the dialog, and the dialog.
// Long: the two actions (check, import) and the markup of the dialog that
// dispatches them.
#[component]
pub(super) fn ImportHardware(cluster_id: i64, changed: Callback<()>) -> impl IntoView {
    let open = RwSignal::new(false);
    // The files read, and what their dry run said.
    let check: Request<HtmlInputElement, (Files, ImportReport)> =
        Action::new_unsync_local(move |input: &HtmlInputElement| {
            let input = input.clone();
            async move {
                let files = read_files(input).await?;
                let report = api::import_nodes(cluster_id, &files, true).await?;
                Ok((files, report))
            }
        });
    let import: Request<Files, ImportReport> = Action::new_unsync(move |files: &Files| {
        let files = files.clone();
        async move { api::import_nodes(cluster_id, &files, false).await }
    });
    // Imported: the dry run is done with, and the table reads the nodes.
    on_success(import, move |_| {
        check.value().set(None);
        changed.run(());
    });
    let picked = move |ev: leptos::ev::Event| {
        import.value().set(None);
        check.value().set(None);
        check.dispatch_local(event_target::<HtmlInputElement>(&ev));
    };
    let checked = move || {
        check
            .value()
            .with(|v| v.as_ref().and_then(|r| r.as_ref().ok().cloned()))
    };
    let busy = move || check.pending().get() || import.pending().get();
    // A folder picker: `webkitdirectory`, which every browser reads and
    // the view macro does not know.
    let folder = NodeRef::<leptos::html::Input>::new();
    Effect::new(move || {
        if let Some(input) = folder.get() {
            let _ = input.set_attribute("webkitdirectory", "");
        }
    });
    view! {
        <div class="import-hardware">
            <button
                class="open-import"
                aria-expanded=move || if open.get() { "true" } else { "false" }
                on:click=move |_| open.update(|o| *o = !*o)
            >
                "Import hardware"
            </button>
            <Show when=move || open.get()>
                <section class="import-dialog" aria-label="Import hardware">
                    <p class="muted">
                        "Ansible facts (" <code>"ansible all -m setup --tree DIR"</code>
                        ", or a fact cache) or Ironic inspection data. Each host is matched to its node by MAC, serial or name, or becomes a new node; nothing is stored until you import."
                    </p>
                    <div class="import-pickers">
                        <label class="button">
                            "Choose files"
                            <input type="file" multiple class="import-files" disabled=busy on:change=picked />
                        </label>
                        <label class="button">
                            "Choose a folder"
                            <input type="file" node_ref=folder class="import-folder" disabled=busy on:change=picked />
                        </label>
                    </div>
                    <Show when=move || check.pending().get()>
                        <p class="loading">"Reading the files and checking them…"</p>
                    </Show>
                    <ActionError action=check />
                    {move || checked().map(|(files, report)| view! { <DryRun files report import /> })}
                    <ImportOutcome import />
                    <ActionError action=import listed=true />
                </section>
            </Show>
        </div>
    }
}

/// The dry run's report, and Import when it found no problem.
#[component]
fn DryRun(
    files: Files,
    report: ImportReport,
    import: Request<Files, ImportReport>,
) -> impl IntoView {
    let ready = report.problems.is_empty();
    let hosts = report.created.len() + report.updated.len() + report.unchanged.len();
    let files = StoredValue::new(files);
    view! {
        <div class="dry-run">
            <h3>"What the import would do"</h3>
            <ReportLists report />
            {if ready {
                view! {
                    <button
                        class="do-import primary"
                        disabled=move || import.pending().get()
                        on:click=move |_| { import.dispatch(files.get_value()); }
                    >
                        {format!("Import {hosts} host{}", if hosts == 1 { "" } else { "s" })}
                    </button>
                }
                .into_any()
            } else {
                view! { <p class="notice notice-warn" role="status">"Fix the problems and choose the files again: an import with a problem stores nothing."</p> }
                    .into_any()
            }}
        </div>
    }
}

/// A report's hosts by what they become, and its problems.
#[component]
fn ReportLists(report: ImportReport) -> impl IntoView {
    let summary = report.summary();
    let listed = |names: &[String]| -> Vec<String> { names.iter().take(LISTED).cloned().collect() };
    let more = |count: usize| {
        (count > LISTED)
            .then(|| view! { <li class="muted">{format!("and {} more", count - LISTED)}</li> })
    };
    let updated: Vec<String> = report
        .updated
        .iter()
        .take(LISTED)
        .map(|u| format!("{}: {}", u.node, u.changes.join(", ")))
        .collect();
    let problems: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    let list = |class: &'static str, title: &'static str, items: Vec<String>, total: usize| {
        (total > 0).then(|| {
            view! {
                <div class=class>
                    <h4>{title}</h4>
                    <ul>
                        {items.into_iter().map(|i| view! { <li>{i}</li> }).collect_view()}
                        {more(total)}
                    </ul>
                </div>
            }
        })
    };
    view! {
        <p class="import-summary" role="status">{summary}</p>
        {list("import-problems", "Problems", problems, report.problems.len())}
        {list("import-created", "New nodes", listed(&report.created), report.created.len())}
        {list("import-updated", "Updated", updated, report.updated.len())}
        {list("import-unchanged", "Unchanged", listed(&report.unchanged), report.unchanged.len())}
    }
}

/// What the import did (`ActionError` says why it was refused).
#[component]
fn ImportOutcome(import: Request<Files, ImportReport>) -> impl IntoView {
    move || {
        import.value().with(|outcome| match outcome {
            Some(Ok(report)) => Some(view! {
                <p class="notice notice-ok imported" role="status">
                    {format!("Imported: {}.", report.summary())}
                </p>
            }),
            _ => None,
        })
    }
}
