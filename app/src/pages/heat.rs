//! Heat template sets: upload one, see what its templates provide, resolve
//! an environment against it — picking an implementation for each resource
//! type that still has several — and download the resolved environment.

use std::collections::BTreeMap;

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::{ResolveTemplates, TemplateResolution, TemplateSet};
use mosaic_core::heat::{self, ResolveError};
use web_sys::{File, HtmlInputElement};

use crate::api;
use crate::components::action::on_success;
use crate::components::notice::ErrorNotice;
use crate::components::table::Table;

/// What an environment looks like, in its empty text area.
const PLACEHOLDER: &str = "requires:\n  deployment: puppet\nresource_registry:\n  \
    OS::TripleO::Controller: [puppet/controller.yaml, docker/controller.yaml]";

/// What templates declare, the upload (`input.template-upload`), then for
/// the set uploaded its summary and the environment resolved against it.
#[component]
pub fn HeatPage() -> impl IntoView {
    crate::route::set_title("Heat templates");
    let session = crate::session::session();
    // Local: a picked `File` is a browser object, not `Send`.
    let upload = Action::new_unsync_local(|file: &File| {
        let file = file.clone();
        async move {
            let name = file.name();
            let bytes = api::file_bytes(file).await?;
            api::upload_template_set(&name, bytes).await
        }
    });
    // The set last uploaded: a failed upload keeps the one before.
    let set = Memo::new(
        move |last: Option<&Option<TemplateSet>>| match upload.value().get() {
            Some(Ok(set)) => Some(set),
            _ => last.cloned().flatten(),
        },
    );
    let set_id = Memo::new(move |_| set.with(|s| s.as_ref().map(|s| s.id)));
    // Why the last upload failed, until the next one starts.
    let error = move || {
        if upload.pending().get() {
            return None;
        }
        upload
            .value()
            .with(|v| Some(v.as_ref()?.as_ref().err()?.message.clone()))
    };
    // Kept when another set is uploaded.
    let environment = RwSignal::new(String::new());
    view! {
        <section class="card heat" data-page="heat">
            <h1>"Heat template sets"</h1>
            <p class="hint">
                "Templates declare what they provide with " <code>"capabilities:"</code>
                "; an environment's " <code>"requires:"</code>
                " picks one implementation for each resource type listed in its "
                <code>"resource_registry"</code> "."
            </p>
            <FileButton
                shown=Signal::derive(move || session.can(Role::Operator))
                label="Upload a template set (.tar.gz or .zip)"
                class="template-upload"
                accept=".tar.gz,.tgz,.zip"
                on_pick=Callback::new(move |file: File| {
                    upload.dispatch_local(file);
                })
            />
            {move || error().map(|message| view! { <ErrorNotice message /> })}
            {move || set.get().map(|set| view! { <TemplateSetSummary set /> })}
            // Started afresh for each set: no picks, no resolution.
            {move || set_id.get().map(|set| view! { <Resolver set environment /> })}
        </section>
    }
}

/// A file input dressed as a button.
#[component]
fn FileButton(
    #[prop(into)] shown: Signal<bool>,
    label: &'static str,
    class: &'static str,
    accept: &'static str,
    on_pick: Callback<File>,
) -> impl IntoView {
    let picked = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = event_target(&ev);
        if let Some(file) = api::picked_file(&input) {
            on_pick.run(file);
        }
    };
    view! {
        <label class="button" class:hidden=move || !shown.get()>
            {label}
            <input type="file" class=class accept=accept on:change=picked />
        </label>
    }
}

/// The set's name and size, its capabilities and its resource types.
#[component]
pub fn TemplateSetSummary(set: TemplateSet) -> impl IntoView {
    let TemplateSet {
        name,
        templates,
        summary,
        ..
    } = set;
    view! {
        <h2>{format!("{name} — {} templates", templates.len())}</h2>
        <Lists
            class="capabilities"
            caption="The set's capabilities and their values"
            columns=&["Capability", "Values"]
            rows=summary.capabilities
        />
        <Lists
            class="resource-types"
            caption="The resource types the set's templates implement"
            columns=&["Resource type", "Templates"]
            rows=summary.resource_types
        />
    }
}

/// A two-column table (`columns`: the key's, the values'), a list of
/// values per key.
#[component]
fn Lists(
    class: &'static str,
    caption: &'static str,
    columns: &'static [&'static str; 2],
    rows: BTreeMap<String, Vec<String>>,
) -> impl IntoView {
    view! {
        <Table class caption columns>
            {rows
                .into_iter()
                .map(|(k, v)| view! {
                    <tr>
                        <td>{k}</td>
                        <td>{v.join(", ")}</td>
                    </tr>
                })
                .collect_view()}
        </Table>
    }
}

/// Set `set`'s environment (`input.environment-upload`,
/// `textarea.environment-text`), Resolve (`button.resolve`) and the
/// resolution, or why it failed.
#[component]
fn Resolver(set: i64, environment: RwSignal<String>) -> impl IntoView {
    // The candidate picked per resource type.
    let picks = RwSignal::new(BTreeMap::<String, String>::new());
    let resolve = Action::new_unsync(move |request: &ResolveTemplates| {
        let request = request.clone();
        async move { api::resolve_templates(set, &request).await }
    });
    let ask = move || {
        resolve.dispatch(ResolveTemplates {
            environment: environment.get_untracked(),
            picks: picks.get_untracked(),
        });
    };
    let load = Action::new_unsync_local(|file: &File| api::file_bytes(file.clone()));
    // An environment file read replaces the text, and the picks made for
    // the one before.
    on_success(load, move |bytes| {
        environment.set(String::from_utf8_lossy(bytes).into_owned());
        picks.set(BTreeMap::new());
    });
    let answer = resolve.value();
    let resolution = Memo::new(move |_| {
        answer.with(|a| match a {
            Some(Ok(resolution)) => Some(resolution.clone()),
            _ => None,
        })
    });
    let resolved = Memo::new(move |_| resolution.with(Option::is_some));
    let failure = move || {
        answer.with(|a| match a {
            Some(Err(failure)) => Some(failure.message.clone()),
            _ => None,
        })
    };
    let on_pick = Callback::new(move |(kind, file): (String, String)| {
        picks.update(|p| {
            p.insert(kind, file);
        });
        ask();
    });
    view! {
        <h2>"Environment"</h2>
        <FileButton
            shown=true
            label="Load an environment file"
            class="environment-upload"
            accept=".yaml,.yml"
            on_pick=Callback::new(move |file: File| {
                load.dispatch_local(file);
            })
        />
        <textarea
            class="environment-text"
            rows="10"
            placeholder=PLACEHOLDER
            bind:value=environment
        ></textarea>
        <button
            class="resolve"
            on:click=move |_| {
                picks.set(BTreeMap::new());
                ask();
            }
        >
            "Resolve"
        </button>
        {move || resolved.get().then(|| view! { <Resolution resolution on_pick /> })}
        {move || failure().map(|message| view! { <ErrorNotice message /> })}
    }
}

/// A resolution: a `fieldset.choice` per open choice (its
/// `data-resource-type` the type) with a radio button per candidate
/// (`value` the template; disabled when it does not match), the errors no
/// pick can fix, the resource registry it resolved to and, when every
/// type resolved, the resolved environment's download link. Kept in place
/// as answers follow each other: only what changed is rebuilt.
#[component]
pub fn Resolution(
    #[prop(into)] resolution: Signal<Option<TemplateResolution>>,
    /// A candidate picked: its resource type and template.
    on_pick: Callback<(String, String)>,
) -> impl IntoView {
    let part = move |of: fn(&TemplateResolution) -> Vec<ResolveError>| {
        Memo::new(move |_| resolution.with(|r| r.as_ref().map(of).unwrap_or_default()))
    };
    let options = part(|r| r.options.clone());
    let errors = part(|r| heat::unresolved(r).into_iter().cloned().collect());
    let registry = Memo::new(move |_| {
        resolution.with(|r| {
            r.as_ref()
                .map(|r| r.resource_registry.clone().into_iter().collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });
    let download = Memo::new(move |_| {
        resolution.with(|r| {
            let text = r.as_ref()?.environment.as_ref()?;
            // The browser's encodeURIComponent: every character a URL
            // gives a meaning to is escaped.
            let encoded = js_sys::encode_uri_component(text);
            Some(format!("data:text/yaml;charset=utf-8,{encoded}"))
        })
    });
    view! {
        <div class="resolution">
            <For each=move || options.get() key=ResolveError::clone let:option>
                <Choice option on_pick />
            </For>
            <ul class="resolve-errors">
                <For each=move || errors.get() key=ResolveError::clone let:error>
                    <li class="notice notice-error">
                        {error.message}
                        <ul>
                            {error
                                .candidates
                                .iter()
                                .map(|c| view! { <li>{format!("{}: {}", c.file, c.why())}</li> })
                                .collect_view()}
                        </ul>
                    </li>
                </For>
            </ul>
            <Table
                class="registry"
                caption="The template each resource type resolves to"
                columns=&["Resource type", "Resolved to"]
            >
                <For
                    each=move || registry.get()
                    key=|row: &(String, String)| row.clone()
                    children=|(kind, template)| view! {
                        <tr>
                            <td>{kind}</td>
                            <td>{template}</td>
                        </tr>
                    }
                />
            </Table>
            {move || {
                download
                    .get()
                    .map(|href| view! {
                        <a class="button download" href=href download="environment.yaml">
                            "Download the resolved environment"
                        </a>
                    })
            }}
        </div>
    }
}

/// An open choice: a radio button per candidate, the ones that do not
/// match disabled, each with why.
#[component]
fn Choice(option: ResolveError, on_pick: Callback<(String, String)>) -> impl IntoView {
    let name = option.radio_group();
    let ResolveError {
        resource_type: kind,
        candidates,
        ..
    } = option;
    let radios = candidates
        .into_iter()
        .map(|c| {
            let why = format!(" — {}", c.why());
            let pick = (kind.clone(), c.file.clone());
            view! {
                <label class=if c.matched { "candidate" } else { "candidate disabled" }>
                    <input
                        type="radio"
                        name=name.clone()
                        value=c.file.clone()
                        disabled=!c.matched
                        on:change=move |_| on_pick.run(pick.clone())
                    />
                    {c.file}
                    <span class="muted">{why}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="choice" data-resource-type=kind.clone()>
            <legend>{format!("Choose the implementation of {kind}")}</legend>
            {radios}
        </fieldset>
    }
}
