//! An environment's Networks tab (Fuel's, SEMANTICS §11): its node groups
//! with their nodes, each network's fields per node group (the admin
//! network once), Neutron's L2 and L3 parameters, how many addresses each
//! network gives of how many, and the VIPs. What the operator types is
//! checked as they type with core's `ConfigurationView::check_form` (a
//! save's check but for the nodes' interfaces, which the browser does not
//! hold): the field and its message are marked, and Save waits while a
//! problem stands. Save sends the version the configuration was loaded at
//! (`If-Match`); Verify asks the server, which checks the nodes' interfaces
//! too.
//!
//! The configuration as loaded and what the operator typed are kept apart
//! (core's `NetworksForm` and `Edits`): a configuration loaded again — a
//! node group created or deleted, a reload after someone else saved —
//! keeps what was typed, and the fields, built once, follow it in place.

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::{
    ConfigurationChange, ConfigurationView, ErrorCode, GroupView, NetworkProblem,
};
use mosaic_core::network::metadata::label;
use mosaic_core::network::{Edit, Edits, FieldKey, FormCheck, NetworksForm, Section, Text};
use mosaic_core::text::plural;

use crate::api::{self, ApiFailure, Tagged};
use crate::components::action::{ActionError, Request, on_answer, on_success};
use crate::components::loading::{Answer, Loaded, Loading, outcome};
use crate::components::table::Table;
use crate::environment::{Env, env};
use crate::records::{Record, Records};
use crate::session::session;

impl Record for GroupView {
    type Key = i64;

    fn key(&self) -> i64 {
        self.id
    }
}

#[component]
pub fn NetworksPage() -> impl IntoView {
    let Env {
        id: cluster_id,
        networks: config,
        ..
    } = env();
    // The node groups as records: each row reads its own group, and an
    // answer reaches the rows it changed.
    let list = Records::<GroupView>::new();
    let groups: Answer<()> = LocalResource::new(move || {
        list.load(api::get(api::path::of_cluster(cluster_id, "node_groups")))
    });
    // A node group created or deleted changes the networks too.
    let reload = Callback::new(move |()| {
        config.refetch();
        groups.refetch();
    });
    let arrived = move || vec![outcome(&config), outcome(&groups)];
    let fetched = Memo::new(move |last: Option<&Option<Tagged<ConfigurationView>>>| {
        config
            .map(|r| r.as_ref().ok().cloned())
            .flatten()
            .or_else(|| last.cloned().flatten())
    });
    view! {
        <Loading label="Loading the networks…" retry=reload>
            <Loaded arrived=arrived>
                {move || {
                    fetched
                        .get_untracked()
                        .map(|first| view! { <NetworksTab cluster_id first fetched groups=list reload /> })
                }}
            </Loaded>
        </Loading>
    }
}

/// What became of the last Save or Verify.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Saved,
    /// 412: the configuration moved on since it was loaded.
    Stale(String),
    /// Refused: the message and every problem, as people read them.
    Refused(String, Vec<String>),
    /// Verify's problems, as people read them.
    Verified(Vec<String>),
}

/// What the tab's pieces read: the configuration as last loaded or saved,
/// its fields, what was typed, and the check of it.
#[derive(Clone, Copy)]
struct Draft {
    current: Memo<Tagged<ConfigurationView>>,
    form: Memo<NetworksForm>,
    edits: RwSignal<Edits>,
    check: Memo<FormCheck>,
    /// An operator may change the networks; a viewer only looks.
    editable: bool,
}

impl Draft {
    /// `edit` made to field `at`.
    fn edit(self, at: FieldKey, edit: Edit) {
        self.form
            .with_untracked(|f| self.edits.update(|e| f.edit(e, at, edit)));
    }
}

/// The tab over the configuration `fetched` (`first` as it first
/// arrived; and the one a save answers with, whichever is newer), the node
/// groups, and `reload`, which asks for both again.
#[component]
pub fn NetworksTab(
    cluster_id: i64,
    first: Tagged<ConfigurationView>,
    fetched: Memo<Option<Tagged<ConfigurationView>>>,
    groups: Records<GroupView>,
    reload: Callback<()>,
) -> impl IntoView {
    let saved = RwSignal::new(None::<Tagged<ConfigurationView>>);
    let current = Memo::new(move |_| {
        let newest = fetched.with(|f| saved.with(|s| api::newest(s.as_ref(), f.as_ref())));
        newest.unwrap_or_else(|| first.clone())
    });
    let form = Memo::new(move |_| current.with(|c| NetworksForm::of(&c.value)));
    let edits = RwSignal::new(Edits::default());
    let check = Memo::new(move |_| {
        current.with(|c| form.with(|f| edits.with(|e| c.value.check_form(f, e))))
    });
    let editable = session().can(Role::Operator);
    let draft = Draft {
        current,
        form,
        edits,
        check,
        editable,
    };
    let chosen = RwSignal::new(None::<i64>);
    let outcome = RwSignal::new(None::<Outcome>);
    view! {
        <Bar cluster_id draft saved outcome reload />
        <Problems draft />
        <NodeGroups cluster_id groups draft chosen editable changed=reload />
        <NetworkCards draft groups chosen />
        <Parameters draft />
        <Vips current />
    }
}

/// Save (with the version loaded), Discard and Verify, what they did, and
/// how many changes and problems there are.
#[component]
fn Bar(
    cluster_id: i64,
    draft: Draft,
    saved: RwSignal<Option<Tagged<ConfigurationView>>>,
    outcome: RwSignal<Option<Outcome>>,
    reload: Callback<()>,
) -> impl IntoView {
    let Draft {
        current,
        form,
        edits,
        check,
        editable,
    } = draft;
    let unsaved = Memo::new(move |_| form.with(|f| edits.with(|e| f.unsaved(e))));
    let problems = Memo::new(move |_| check.with(|c| c.problems.len()));
    let save = Action::new_unsync(move |(change, etag): &(ConfigurationChange, String)| {
        let (change, etag) = (change.clone(), etag.clone());
        async move { api::save_networks(cluster_id, &change, &etag).await }
    });
    let verify = Action::new_unsync(move |change: &ConfigurationChange| {
        let change = change.clone();
        async move { api::verify_networks(cluster_id, &change).await }
    });
    let describe =
        move |problems: &[NetworkProblem]| current.with_untracked(|c| c.value.describe(problems));
    // A save answered: what was typed is what is stored now.
    on_answer(save, move |answer| match answer {
        Ok(answer) => {
            saved.set(Some(answer.clone()));
            edits.set(Edits::default());
            outcome.set(Some(Outcome::Saved));
        }
        Err(failure) => outcome.set(Some(refusal(failure, describe))),
    });
    on_answer(verify, move |answer| match answer {
        Ok(found) => outcome.set(Some(Outcome::Verified(describe(&found.problems)))),
        Err(failure) => outcome.set(Some(refusal(failure, describe))),
    });
    let saving = save.pending();
    let submit = move |_| {
        let change = check.with_untracked(|c| c.change.clone());
        save.dispatch((change, current.with_untracked(|c| c.etag.clone())));
    };
    let discard = move |_| {
        edits.set(Edits::default());
        outcome.set(None);
    };
    let summary = move || summary(unsaved.get(), problems.get());
    view! {
        <div class="settings-bar networks-bar">
            <span class="muted" aria-live="polite">{summary}</span>
            {editable.then(|| view! {
                <button class="discard-networks" disabled=move || unsaved.get() == 0 on:click=discard>
                    "Discard"
                </button>
            })}
            <button class="verify-networks" disabled=verify.pending() on:click=move |_| {
                verify.dispatch(check.with_untracked(|c| c.change.clone()));
            }>
                "Verify"
            </button>
            {editable.then(|| view! {
                <button
                    class="save-networks primary"
                    disabled=move || { unsaved.get() == 0 || problems.get() > 0 || saving.get() }
                    on:click=submit
                >
                    {move || if saving.get() { "Saving…" } else { "Save" }}
                </button>
            })}
        </div>
        {move || outcome.get().map(|o| view! { <OutcomeNotice outcome=o reload dismiss=outcome /> })}
        {(!editable).then(|| view! {
            <p class="hint" data-role-note="">
                "Your role can read the networks and verify them; an operator changes them."
            </p>
        })}
    }
}

/// What the bar says: the unsaved changes and the problems standing.
fn summary(unsaved: usize, problems: usize) -> String {
    let changes = match unsaved {
        0 => "No unsaved changes".to_owned(),
        n => format!("{n} unsaved change{}", plural(n)),
    };
    match problems {
        0 => changes,
        n => format!("{changes}; {n} problem{} to fix before saving", plural(n)),
    }
}

/// A refused Save or Verify as the tab says it.
fn refusal(failure: &ApiFailure, describe: impl Fn(&[NetworkProblem]) -> Vec<String>) -> Outcome {
    if failure.code == Some(ErrorCode::PreconditionFailed) {
        return Outcome::Stale(failure.message.clone());
    }
    Outcome::Refused(
        failure.message.clone(),
        describe(failure.network_problems()),
    )
}

/// The notice of the last Save or Verify; a stale version offers to load
/// the configuration again (what was typed is kept).
#[component]
fn OutcomeNotice(
    outcome: Outcome,
    reload: Callback<()>,
    dismiss: RwSignal<Option<Outcome>>,
) -> impl IntoView {
    let list = |lines: Vec<String>| {
        view! { <ul class="problem-lines">{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul> }
    };
    match outcome {
        Outcome::Saved => view! {
            <div class="notice notice-ok networks-notice" role="status" data-saved="">
                "Saved. Every address was worked out again for the new configuration."
            </div>
        }
        .into_any(),
        Outcome::Stale(message) => view! {
            <div class="notice notice-error networks-notice" role="alert" data-stale="">
                <p>
                    "Not saved: the network configuration changed since this page loaded it ("
                    {message}
                    "). Load it again: what you typed is kept on top of it."
                </p>
                <button class="reload-networks" on:click=move |_| {
                    dismiss.set(None);
                    reload.run(());
                }>"Load the configuration again"</button>
            </div>
        }
        .into_any(),
        Outcome::Refused(message, lines) => view! {
            <div class="notice notice-error networks-notice" role="alert" data-refused="">
                <p>{format!("Not saved: {message}")}</p>
                {list(lines)}
            </div>
        }
        .into_any(),
        Outcome::Verified(lines) if lines.is_empty() => view! {
            <div class="notice notice-ok networks-notice" role="status" data-verified="">
                "Verified: no problem, the nodes' interfaces included."
            </div>
        }
        .into_any(),
        Outcome::Verified(lines) => view! {
            <div class="notice notice-error networks-notice" role="alert" data-verified="">
                <p>{format!("Verify found {} problem{}:", lines.len(), plural(lines.len()))}</p>
                {list(lines)}
            </div>
        }
        .into_any(),
    }
}

/// Every problem standing, each naming its networks (and their node group
/// when there are several): those of other node groups than the one shown
/// are read here.
#[component]
fn Problems(draft: Draft) -> impl IntoView {
    let lines = Memo::new(move |_| {
        draft
            .check
            .with(|c| draft.current.with(|v| v.value.describe(&c.problems)))
    });
    view! {
        <Show when=move || !lines.with(Vec::is_empty)>
            <div class="notice notice-warn network-problems" data-problems="">
                <p>"Fix these before saving:"</p>
                <ul class="problem-lines">
                    {move || lines.get().into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                </ul>
            </div>
        </Show>
    }
}

/// The node groups with their nodes: which one's networks are shown,
/// creating one, deleting one (refused while nodes are in it).
#[component]
fn NodeGroups(
    cluster_id: i64,
    groups: Records<GroupView>,
    draft: Draft,
    chosen: RwSignal<Option<i64>>,
    editable: bool,
    changed: Callback<()>,
) -> impl IntoView {
    // The node groups with a problem standing, by id.
    let troubled = Memo::new(move |_| {
        draft.check.with(|c| {
            draft.current.with(|v| {
                let mut ids: Vec<i64> = c
                    .problems
                    .iter()
                    .flat_map(|p| &p.networks)
                    .filter_map(|id| v.value.networks.iter().find(|n| n.network.id == *id))
                    .filter_map(|n| n.network.group_id)
                    .collect();
                ids.sort_unstable();
                ids.dedup();
                ids
            })
        })
    });
    let shown = Memo::new(move |_| groups.all().with(|all| shown_group(all, chosen.get())));
    view! {
        <section class="node-groups" aria-labelledby="node-groups-heading">
            <h2 id="node-groups-heading">"Node groups"</h2>
            <Table
                class="groups-table"
                caption="The environment's node groups"
                columns=&["Networks shown", "Nodes", "Actions"]
            >
                <For
                    each=groups.keys()
                    key=|id| *id
                    children=move |id| view! { <GroupRow id groups shown chosen troubled editable changed /> }
                />
            </Table>
            {editable.then(|| view! { <NewGroupForm cluster_id changed /> })}
        </section>
    }
}

/// The group whose networks are shown: the one chosen while it exists,
/// else the first.
fn shown_group(groups: &[GroupView], chosen: Option<i64>) -> Option<i64> {
    chosen
        .filter(|id| groups.iter().any(|g| g.id == *id))
        .or_else(|| groups.first().map(|g| g.id))
}

/// One node group: a radio that shows its networks, its nodes, Delete.
#[component]
fn GroupRow(
    id: i64,
    groups: Records<GroupView>,
    shown: Memo<Option<i64>>,
    chosen: RwSignal<Option<i64>>,
    troubled: Memo<Vec<i64>>,
    editable: bool,
    changed: Callback<()>,
) -> impl IntoView {
    let Some(group) = groups.row(&id) else {
        return ().into_any();
    };
    // A group's name does not change; its node count follows the record.
    let name = group.with_untracked(|g| g.name.clone());
    let nodes = move || group.with(|g| g.nodes);
    let delete: Request<(), ()> = Action::new_unsync(move |()| api::delete_group(id));
    on_success(delete, move |()| changed.run(()));
    let deletable = editable && name != mosaic_core::network::DEFAULT_GROUP;
    let ask = {
        let name = name.clone();
        move |_| {
            let question = format!("Delete node group {name} and its networks?");
            if window().confirm_with_message(&question).unwrap_or(false) {
                delete.dispatch(());
            }
        }
    };
    let has_problems = Memo::new(move |_| troubled.with(|t| t.contains(&id)));
    view! {
        <tr class="group-row" data-group=name.clone() class:has-problems=has_problems>
            <td>
                <label>
                    <input
                        type="radio"
                        name="node-group"
                        class="show-group"
                        prop:checked=move || shown.get() == Some(id)
                        on:change=move |_| chosen.set(Some(id))
                    />
                    {name.clone()}
                    <span class="muted">{move || has_problems.get().then_some(" — has problems")}</span>
                </label>
            </td>
            <td class="group-nodes">{nodes}</td>
            <td class="actions">
                {deletable.then(|| view! {
                    <button class="delete-group danger" on:click=ask>"Delete"</button>
                })}
                <ActionError action=delete />
            </td>
        </tr>
    }
    .into_any()
}

/// Creating a node group by its name (core's rule for names first).
#[component]
fn NewGroupForm(cluster_id: i64, changed: Callback<()>) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let create: Request<String, ()> = Action::new_unsync(move |name: &String| {
        let name = name.clone();
        async move {
            mosaic_core::network::NodeGroup::check_name(&name)
                .map_err(|e| ApiFailure::message(e.to_string()))?;
            api::create_group(cluster_id, name).await.map(drop)
        }
    });
    on_success(create, move |()| {
        name.set(String::new());
        changed.run(());
    });
    view! {
        <div class="new-group">
            <label>
                "New node group "
                <input class="new-group-name" placeholder="rack-2" bind:value=name />
            </label>
            <button class="create-group" disabled=create.pending() on:click=move |_| {
                create.dispatch(name.get_untracked().trim().to_owned());
            }>"Create"</button>
            <ActionError action=create />
        </div>
    }
}

/// The admin network, then the networks of the node group shown, a card
/// each (keyed by network id: a card follows its network in place).
#[component]
fn NetworkCards(
    draft: Draft,
    groups: Records<GroupView>,
    chosen: RwSignal<Option<i64>>,
) -> impl IntoView {
    let shown = Memo::new(move |_| groups.all().with(|all| shown_group(all, chosen.get())));
    let ids = Memo::new(move |_| {
        let group = shown.get();
        draft.current.with(|c| {
            c.value
                .networks
                .iter()
                .filter(|n| n.network.group_id.is_none() || n.network.group_id == group)
                .map(|n| n.network.id)
                .collect::<Vec<_>>()
        })
    });
    let heading = move || {
        let name = shown
            .get()
            .and_then(|id| groups.row(&id).map(|g| g.with(|g| g.name.clone())));
        format!("Networks of node group {}", name.unwrap_or_default())
    };
    view! {
        <section class="network-section" aria-labelledby="networks-heading">
            <h2 id="networks-heading">{heading}</h2>
            <div class="network-cards">
                <For each=move || ids.get() key=|id| *id children=move |id| view! { <NetworkCard id draft /> } />
            </div>
        </section>
    }
}

/// One network: its fields, what is not typed (its VLAN range, the ranges
/// that follow its CIDR), how many addresses it gives, and its problems —
/// each under the first of its fields it concerns, the others under the
/// card.
#[component]
fn NetworkCard(id: i64, draft: Draft) -> impl IntoView {
    let (network, row) = draft.current.with_untracked(|c| {
        let rows = c.value.rows();
        let at = c.value.networks.iter().position(|n| n.network.id == id);
        at.map(|i| (c.value.networks[i].clone(), rows[i].clone()))
            .unzip()
    });
    let (Some(network), Some(row)) = (network, row) else {
        return ().into_any();
    };
    let name = network.network.name.to_string();
    let fields: Vec<FieldKey> = draft
        .form
        .with_untracked(|f| f.of_network(id).map(|f| f.at()).collect());
    let usage = Memo::new(move |_| {
        draft.current.with(|c| {
            c.value
                .networks
                .iter()
                .find(|n| n.network.id == id)
                .and_then(|n| n.usage())
        })
    });
    let keys: Vec<&'static str> = fields.iter().map(|(_, k)| *k).collect();
    // Each problem once: under the first field it concerns, or the card.
    let placed = Memo::new(move |_| {
        draft.check.with(|c| {
            let mut at_field: Vec<Vec<String>> = vec![Vec::new(); keys.len()];
            let mut rest = Vec::new();
            for p in c.of_network(id) {
                match keys.iter().position(|k| p.concerns(id, k)) {
                    Some(i) => at_field[i].push(p.message.clone()),
                    None => rest.push(p.message.clone()),
                }
            }
            (at_field, rest)
        })
    });
    let controls = fields
        .iter()
        .enumerate()
        .map(|(i, at)| {
            let at = *at;
            let invalid = Signal::derive(move || draft.check.with(|c| c.at(at).next().is_some()));
            let messages = Signal::derive(move || placed.with(|(f, _)| f[i].clone()));
            view! { <FieldControl at draft invalid messages /> }
        })
        .collect_view();
    // What is not typed follows the configuration: a Save that moves the
    // CIDR moves the ranges line with it.
    let derived = Memo::new(move |_| {
        draft.current.with(|c| {
            let rows = c.value.rows();
            let at = c.value.networks.iter().position(|n| n.network.id == id);
            at.map(|i| derived_lines(&c.value.networks[i], &rows[i]))
                .unwrap_or_default()
        })
    });
    let derived = move || {
        (derived.get().into_iter())
            .map(|l| view! { <p class="network-derived">{l}</p> })
            .collect_view()
    };
    let rest = move || placed.with(|(_, rest)| rest.clone());
    view! {
        <fieldset
            class="network"
            data-network=name.clone()
            data-network-id=id
            data-group=row.node_group.clone()
        >
            <legend>{label(&name).to_owned()}</legend>
            {controls}
            {derived}
            <p class="network-usage">{usage}</p>
            <ul class="field-problems">
                {move || rest().into_iter().map(|m| view! { <li class="field-problem">{m}</li> }).collect_view()}
            </ul>
        </fieldset>
    }
    .into_any()
}

/// What a card says that is not typed: the VLAN of a network without
/// addresses, the ranges that follow a CIDR, and that the release decides
/// a network it does not let the operator configure.
fn derived_lines(
    network: &mosaic_core::api::NetworkView,
    row: &mosaic_core::network::view::NetworkRow,
) -> Vec<String> {
    let meta = &network.meta;
    let mut lines = Vec::new();
    if !meta.is_addressed() {
        lines.push(format!("VLAN: {} (Neutron L2's VLAN ID range)", row.vlan));
        lines.push("No addresses: tenant networks ride on these VLANs.".to_owned());
    } else if meta.notation == Some(mosaic_core::network::Notation::Cidr) {
        lines.push(format!(
            "IP ranges: {} (the CIDR's, less the gateway)",
            row.ranges
        ));
    }
    if !meta.configurable {
        lines.push("Its values come from the release.".to_owned());
    }
    lines
}

/// The id of field `at`'s first control.
fn control_id(at: FieldKey) -> String {
    match at {
        (Some(id), key) => format!("net-{id}-{key}"),
        (None, key) => format!("param-{key}"),
    }
}

/// One field: its label, its control(s) following what was typed, and
/// its problems; `invalid` while any problem concerns it.
#[component]
fn FieldControl(
    at: FieldKey,
    draft: Draft,
    #[prop(into)] invalid: Signal<bool>,
    #[prop(into)] messages: Signal<Vec<String>>,
) -> impl IntoView {
    let Some(field) = draft.form.with_untracked(|f| f.field(at).cloned()) else {
        return ().into_any();
    };
    let text = Memo::new(move |_| draft.form.with(|f| draft.edits.with(|e| f.text(e, at))));
    let id = control_id(at);
    let described = format!("{id}-problems");
    let inputs = Inputs {
        at,
        draft,
        text,
        invalid,
        label: field.label,
        described: described.clone(),
        disabled: !draft.editable || !field.editable,
    };
    let control = match field.text {
        Text::One(_) => inputs.one(id.clone()),
        Text::Pair(_) => inputs.pair(id.clone(), 0).into_any(),
        Text::Pairs(_) => inputs.rows(id.clone(), "Add a range", true),
        Text::List(_) => inputs.rows(id.clone(), "Add a server", false),
    };
    view! {
        <div class="net-field" class:invalid=invalid data-field=field.key>
            <label for=id>{field.label}</label>
            <div class="control">{control}</div>
            <ul class="field-problems" id=described>
                {move || {
                    messages
                        .get()
                        .into_iter()
                        .map(|m| view! { <li class="field-problem">{m}</li> })
                        .collect_view()
                }}
            </ul>
        </div>
    }
    .into_any()
}

/// End `end` of range `row` of a field's text.
fn end_of(row: usize, end: usize) -> impl Fn(&Text) -> String + Send + Sync + 'static {
    move |t| t.end(row, end).to_owned()
}

/// Typing into end `end` of range `row`.
fn end_edit(row: usize, end: usize) -> impl Fn(String) -> Edit + 'static {
    move |text| Edit::End { row, end, text }
}

/// What a field's inputs share.
#[derive(Clone)]
struct Inputs {
    at: FieldKey,
    draft: Draft,
    text: Memo<Text>,
    invalid: Signal<bool>,
    label: &'static str,
    /// The id of the field's problems.
    described: String,
    disabled: bool,
}

impl Inputs {
    /// An input showing `read` of the text, typing into which makes `edit`.
    fn input<R, E>(
        &self,
        id: Option<String>,
        aria_label: Option<String>,
        read: R,
        edit: E,
    ) -> impl IntoView + use<R, E>
    where
        R: Fn(&Text) -> String + Send + Sync + 'static,
        E: Fn(String) -> Edit + 'static,
    {
        let (at, draft, text, invalid) = (self.at, self.draft, self.text, self.invalid);
        view! {
            <input
                type="text"
                id=id
                aria-label=aria_label
                aria-invalid=move || if invalid.get() { "true" } else { "false" }
                aria-describedby=self.described.clone()
                disabled=self.disabled
                prop:value=move || text.with(&read)
                on:input=move |ev| draft.edit(at, edit(event_target_value(&ev)))
            />
        }
    }

    fn one(&self, id: String) -> AnyView {
        self.input(Some(id), None, |t| t.one().to_owned(), Edit::One)
            .into_any()
    }

    /// A range's two ends (`row` of a list of ranges).
    fn pair(&self, id: String, row: usize) -> impl IntoView + use<> {
        let first = format!("{} {}: first", self.label, row + 1);
        let last = format!("{} {}: last", self.label, row + 1);
        view! {
            <span class="range">
                {self.input(Some(id), Some(first), end_of(row, 0), end_edit(row, 0))}
                <span aria-hidden="true">" – "</span>
                {self.input(None, Some(last), end_of(row, 1), end_edit(row, 1))}
            </span>
        }
    }

    /// Rows of ranges (`ranges`) or of single values, each removable, and
    /// a button adding one.
    fn rows(&self, id: String, add: &'static str, ranges: bool) -> AnyView {
        let (at, draft, text, disabled) = (self.at, self.draft, self.text, self.disabled);
        let this = self.clone();
        let row = move |row: usize| {
            let id = (row == 0).then(|| id.clone());
            let control = match ranges {
                true => this.pair(id.unwrap_or_default(), row).into_any(),
                false => this
                    .input(
                        id,
                        Some(format!("{} {}", this.label, row + 1)),
                        move |t| t.item(row).to_owned(),
                        move |text| Edit::Item { row, text },
                    )
                    .into_any(),
            };
            view! {
                <div class="field-row">
                    {control}
                    <button
                        class="remove-row link"
                        disabled=disabled
                        aria-label=format!("Remove {} {}", this.label, row + 1)
                        on:click=move |_| draft.edit(at, Edit::RemoveRow(row))
                    >"Remove"</button>
                </div>
            }
        };
        view! {
            <For each=move || 0..text.with(Text::rows) key=|row| *row children=row />
            <button class="add-row link" disabled=disabled on:click=move |_| draft.edit(at, Edit::AddRow)>
                {add}
            </button>
        }
        .into_any()
    }
}

/// Neutron's parameters: L2 (the segmentation's id range, the base MAC),
/// L3 (internal and floating networks, DNS), and Ironic's when it is on.
#[component]
fn Parameters(draft: Draft) -> impl IntoView {
    let segmentation = draft
        .current
        .with_untracked(|c| c.value.networking_parameters.segmentation_type.as_str());
    let sections = [
        (Section::NeutronL2, "Neutron L2"),
        (Section::NeutronL3, "Neutron L3"),
        (Section::Ironic, "Ironic"),
    ];
    sections
        .into_iter()
        .filter_map(|(section, title)| {
            let fields: Vec<FieldKey> = draft
                .form
                .with_untracked(|f| f.of_section(section).map(|f| f.at()).collect());
            if fields.is_empty() {
                return None;
            }
            let note = (section == Section::NeutronL2).then(|| {
                view! {
                    <p class="network-derived">
                        "Segmentation: "
                        <strong>{segmentation}</strong>
                        " (it follows the environment's components)"
                    </p>
                }
            });
            let controls = fields
                .into_iter()
                .map(|at| {
                    let invalid =
                        Signal::derive(move || draft.check.with(|c| c.at(at).next().is_some()));
                    let messages = Signal::derive(move || {
                        draft
                            .check
                            .with(|c| c.at(at).map(|p| p.message.clone()).collect())
                    });
                    view! { <FieldControl at draft invalid messages /> }
                })
                .collect_view();
            Some(view! {
                <fieldset class="network parameters" data-section=title>
                    <legend>{title}</legend>
                    {note}
                    {controls}
                </fieldset>
            })
        })
        .collect_view()
}

/// The VIPs: each with its network, node group and address.
#[component]
fn Vips(current: Memo<Tagged<ConfigurationView>>) -> impl IntoView {
    let names =
        Memo::new(move |_| current.with(|c| c.value.vips.keys().cloned().collect::<Vec<_>>()));
    view! {
        <section class="vips" aria-labelledby="vips-heading">
            <h2 id="vips-heading">"VIPs"</h2>
            <Table
                class="vips-table"
                caption="The environment's virtual addresses"
                columns=&["VIP", "Network", "Node group", "Address"]
            >
                <For
                    each=move || names.get()
                    key=|name| name.clone()
                    children=move |name| view! { <VipRow name current /> }
                />
            </Table>
        </section>
    }
}

/// One VIP's row, keyed by its name: it follows its own VIP in every
/// configuration answered (a Save that moves its address changes its cell).
#[component]
fn VipRow(name: String, current: Memo<Tagged<ConfigurationView>>) -> impl IntoView {
    let key = name.clone();
    let vip = Memo::new(move |_| current.with(|c| c.value.vips.get(&key).cloned()));
    let network = move || vip.with(|v| v.as_ref().map(|v| label(&v.network).to_owned()));
    let group = move || vip.with(|v| v.as_ref().and_then(|v| v.node_group.clone()));
    let address = move || {
        vip.with(|v| match v.as_ref().and_then(|v| v.ipaddr) {
            Some(ip) => ip.to_string(),
            None => "none left in its network".to_owned(),
        })
    };
    let key = name.clone();
    view! {
        <tr data-vip=key>
            <th scope="row">{name}</th>
            <td>{network}</td>
            <td>{group}</td>
            <td class="vip-address">{address}</td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use mosaic_core::api::GroupView;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::{shown_group, summary};

    #[wasm_bindgen_test]
    fn the_bar_counts_changes_and_problems() {
        assert_eq!(summary(0, 0), "No unsaved changes");
        assert_eq!(summary(1, 0), "1 unsaved change");
        assert_eq!(
            summary(2, 1),
            "2 unsaved changes; 1 problem to fix before saving"
        );
    }

    #[wasm_bindgen_test]
    fn a_deleted_group_shows_the_first_ones_networks() {
        let group = |id: i64| GroupView {
            id,
            name: format!("g{id}"),
            cluster_id: 1,
            nodes: 0,
        };
        let groups = [group(1), group(4)];
        assert_eq!(shown_group(&groups, Some(4)), Some(4));
        assert_eq!(shown_group(&groups, Some(9)), Some(1));
        assert_eq!(shown_group(&groups, None), Some(1));
        assert_eq!(shown_group(&[], None), None);
    }
}
