//! One node's interfaces, in the editor under its row (SEMANTICS §11.1):
//! its interfaces and bonds, which network rides on which port and its
//! address on each network, read when the editor opens (`GET
//! …/interfaces`, never for the whole table). The operator moves networks
//! between ports, adds or removes an interface, or goes back to the
//! environment's default layout, and saves with the node's version
//! (`If-Match`); what the server finds wrong (400 `invalid_interfaces`) is
//! listed as it says it. What is shown and changed is core's
//! (`InterfacesView::placements`, `with_network_on`, …).

use leptos::prelude::*;
use mosaic_core::api::{InterfacesView, NodeView};
use mosaic_core::network::PortRow;
use mosaic_core::network::metadata::label;

use crate::api::{self, ApiFailure, Tagged};
use crate::components::action::on_success;
use crate::components::table::Table;

/// The interfaces of node `id` (`node` as the table last loaded it: a
/// change of it asks for its interfaces again), with the environment's
/// `networks` to place.
#[component]
pub fn InterfacesEditor(
    id: i64,
    node: Memo<Option<NodeView>>,
    networks: Signal<Vec<String>>,
    editable: bool,
    changed: Callback<()>,
) -> impl IntoView {
    let version = Memo::new(move |_| node.with(|n| n.as_ref().map_or(0, |n| n.version)));
    let fetched = LocalResource::new(move || {
        version.track();
        api::interfaces(id)
    });
    let saved = RwSignal::new(None::<Tagged<InterfacesView>>);
    let loaded = Memo::new(move |_| {
        let fetched = fetched.map(|r| r.as_ref().ok().cloned()).flatten();
        saved.with(|s| api::newest(s.as_ref(), fetched.as_ref()))
    });
    let failed = move || {
        fetched
            .map(|r| r.as_ref().err().map(|e| e.message.clone()))
            .flatten()
    };
    // What the operator changed, on the version it was changed on: a node
    // changed meanwhile shows as it is now.
    let draft = RwSignal::new(None::<Tagged<InterfacesView>>);
    let shown = Memo::new(move |_| {
        let loaded = loaded.get()?;
        Some(match draft.get() {
            Some(d) if d.etag == loaded.etag => d,
            _ => loaded,
        })
    });
    let change = Editing { shown, draft };
    let save = Action::new_unsync(move |now: &Tagged<InterfacesView>| {
        let now = now.clone();
        async move { api::put_interfaces(id, &now.value, &now.etag).await }
    });
    on_success(save, move |answer| {
        saved.set(Some(answer.clone()));
        draft.set(None);
        changed.run(());
    });
    let problems = move || {
        save.value()
            .with(|v| v.as_ref().and_then(|r| r.as_ref().err().cloned()))
    };
    let unsaved = Memo::new(move |_| {
        shown
            .with(|s| loaded.with(|l| s.as_ref().map(|s| &s.value) != l.as_ref().map(|l| &l.value)))
    });
    view! {
        <section class="interfaces" aria-label="Interfaces">
            <h4>"Interfaces"</h4>
            {move || failed().map(|m| view! { <p class="notice notice-error" role="alert">{m}</p> })}
            <Show when=move || shown.with(Option::is_some)>
                <Ports shown editable change=change />
                <Placement shown networks editable change=change />
                {editable.then(|| view! { <AddInterface change=change /> })}
                {editable.then(|| view! { <SaveBar change unsaved save /> })}
            </Show>
            {move || problems().map(|f| view! { <InterfaceProblems failure=f /> })}
        </section>
    }
}

/// Save (what is shown, when it differs from what was loaded: `unsaved`),
/// the default layout, Discard.
#[component]
fn SaveBar(
    change: Editing,
    unsaved: Memo<bool>,
    save: Action<Tagged<InterfacesView>, Result<Tagged<InterfacesView>, ApiFailure>>,
) -> impl IntoView {
    let saving = save.pending();
    view! {
        <div class="interfaces-actions">
            <button
                class="save-interfaces primary"
                disabled=move || !unsaved.get() || saving.get()
                on:click=move |_| {
                    if let Some(now) = change.shown.get_untracked() {
                        save.dispatch(now);
                    }
                }
            >"Save interfaces"</button>
            <button class="default-layout" on:click=move |_| {
                change.make(InterfacesView::with_default_layout);
            }>"Use the default layout"</button>
            <button class="discard-interfaces" disabled=move || !unsaved.get() on:click=move |_| {
                change.draft.set(None);
            }>"Discard"</button>
        </div>
    }
}

/// What is shown (the draft, or the interfaces as loaded) and the draft
/// a change makes.
#[derive(Clone, Copy)]
struct Editing {
    shown: Memo<Option<Tagged<InterfacesView>>>,
    draft: RwSignal<Option<Tagged<InterfacesView>>>,
}

impl Editing {
    /// `f` made to what is shown, as a draft on the version shown.
    fn make(self, f: impl FnOnce(&InterfacesView) -> InterfacesView) {
        if let Some(now) = self.shown.get_untracked() {
            self.draft.set(Some(Tagged {
                value: f(&now.value),
                etag: now.etag,
            }));
        }
    }
}

/// The ports: interfaces (with their MAC) and bonds (with their mode and
/// slaves), the networks on each, and Remove for an interface.
#[component]
fn Ports(
    shown: Memo<Option<Tagged<InterfacesView>>>,
    editable: bool,
    change: Editing,
) -> impl IntoView {
    let rows = Memo::new(move |_| shown.with(|s| s.as_ref().map(|s| s.value.port_rows())));
    let names = Memo::new(move |_| {
        rows.with(|r| {
            r.iter()
                .flatten()
                .map(|r| r.name.clone())
                .collect::<Vec<_>>()
        })
    });
    let layout = move || shown.with(|s| s.as_ref().map(|s| s.value.layout_line()));
    view! {
        <p class="muted interfaces-layout">{layout}</p>
        <Show
            when=move || !names.with(Vec::is_empty)
            fallback=|| view! { <p class="hint">"It declares no interfaces: add one to place its networks."</p> }
        >
            <Table
                class="ports-table"
                caption="The node's interfaces and bonds"
                columns=&["Port", "MAC or bond", "Networks", "Actions"]
            >
                <For
                    each=move || names.get()
                    key=|name| name.clone()
                    children=move |name| view! { <PortLine name rows editable change /> }
                />
            </Table>
        </Show>
    }
}

/// One port's row, keyed by its name: it follows its own port as the
/// draft changes (a network placed on it changes its cell, not the rows).
#[component]
fn PortLine(
    name: String,
    rows: Memo<Option<Vec<PortRow>>>,
    editable: bool,
    change: Editing,
) -> impl IntoView {
    let key = name.clone();
    let row =
        Memo::new(move |_| rows.with(|r| r.iter().flatten().find(|r| r.name == key).cloned()));
    let what = move || row.with(|r| r.as_ref().map(|r| r.what.clone()));
    let networks = move || row.with(|r| r.as_ref().map(|r| r.networks.clone()));
    let bond = row.with_untracked(|r| r.as_ref().is_some_and(|r| r.bond));
    let remove = (editable && !bond).then(|| {
        let port = name.clone();
        view! {
            <button class="remove-interface link" on:click=move |_| {
                change.make(|v| v.without_interface(&port));
            }>"Remove"</button>
        }
    });
    let key = name.clone();
    view! {
        <tr data-port=key>
            <th scope="row">{name}</th>
            <td>{what}</td>
            <td class="port-networks">{networks}</td>
            <td>{remove}</td>
        </tr>
    }
}

/// Each network, the port it rides on (a choice of the node's ports, or
/// none) and the node's address on it.
#[component]
fn Placement(
    shown: Memo<Option<Tagged<InterfacesView>>>,
    networks: Signal<Vec<String>>,
    editable: bool,
    change: Editing,
) -> impl IntoView {
    let ports =
        Memo::new(move |_| shown.with(|s| s.as_ref().map(|s| s.value.ports()).unwrap_or_default()));
    let placed = Memo::new(move |_| {
        networks.with(|names| {
            shown.with(|s| {
                s.as_ref()
                    .map(|s| s.value.placements(names))
                    .unwrap_or_default()
            })
        })
    });
    let names =
        Memo::new(move |_| placed.with(|p| p.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()));
    view! {
        <Show when=move || !ports.with(Vec::is_empty)>
            <Table
                class="placement-table"
                caption="Which port each network rides on"
                columns=&["Network", "Port", "Address"]
            >
                <For
                    each=move || names.get()
                    key=|n| n.clone()
                    children=move |network| view! { <NetworkPort network shown ports placed editable change /> }
                />
            </Table>
        </Show>
    }
}

/// One network's row: the port it is on, chosen among the node's ports.
#[component]
fn NetworkPort(
    network: String,
    shown: Memo<Option<Tagged<InterfacesView>>>,
    ports: Memo<Vec<String>>,
    placed: Memo<Vec<(String, Option<String>)>>,
    editable: bool,
    change: Editing,
) -> impl IntoView {
    let on = {
        let network = network.clone();
        Memo::new(move |_| {
            placed.with(|p| {
                p.iter()
                    .find(|(n, _)| *n == network)
                    .and_then(|(_, port)| port.clone())
            })
        })
    };
    let address = {
        let network = network.clone();
        move || {
            shown.with(|s| {
                s.as_ref()
                    .and_then(|s| s.value.addresses.get(network.as_str()))
                    .map(ToString::to_string)
                    .unwrap_or_default()
            })
        }
    };
    let moved = {
        let network = network.clone();
        move |ev: leptos::ev::Event| {
            let port = event_target_value(&ev);
            change
                .make(|v| v.with_network_on(&network, (!port.is_empty()).then_some(port.as_str())));
        }
    };
    let options = move || {
        ports
            .get()
            .into_iter()
            .map(|p| {
                let value = p.clone();
                let chosen = p.clone();
                view! { <option value=value prop:selected=move || on.get().as_deref() == Some(chosen.as_str())>{p}</option> }
            })
            .collect_view()
    };
    view! {
        <tr data-network=network.clone()>
            <th scope="row">{label(&network).to_owned()}</th>
            <td>
                <select
                    class="network-port"
                    aria-label=format!("Port of {}", label(&network))
                    disabled=!editable
                    on:change=moved
                >
                    <option value="" prop:selected=move || on.get().is_none()>"none"</option>
                    {options}
                </select>
            </td>
            <td class="network-address">{address}</td>
        </tr>
    }
}

/// Adding an interface by name, with its MAC if known.
#[component]
fn AddInterface(change: Editing) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let mac = RwSignal::new(String::new());
    let add = move |_| {
        let (n, m) = (name.get_untracked(), mac.get_untracked());
        if n.trim().is_empty() {
            return;
        }
        change.make(|v| v.with_interface(&n, &m));
        name.set(String::new());
        mac.set(String::new());
    };
    view! {
        <div class="add-interface">
            <label>"Interface " <input class="new-interface" placeholder="eth1" size="8" bind:value=name /></label>
            <label>"MAC " <input class="new-interface-mac" placeholder="optional" size="17" bind:value=mac /></label>
            <button class="add-interface-button" on:click=add>"Add interface"</button>
        </div>
    }
}

/// A refused save: the server's message, then every problem it found.
#[component]
fn InterfaceProblems(failure: ApiFailure) -> impl IntoView {
    let problems = failure
        .network_problems()
        .iter()
        .map(|p| view! { <li>{p.message.clone()}</li> })
        .collect_view();
    view! {
        <div class="notice notice-error interface-problems" role="alert">
            <p>{failure.message}</p>
            <ul class="problem-lines">{problems}</ul>
        </div>
    }
}
