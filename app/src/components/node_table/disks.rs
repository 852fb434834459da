//! Configure Disks (fuel-ui's screen, issue 52): per disk a bar with a
//! segment per volume group and the unallocated rest, then for each group a
//! slider and a number with its minimum and maximum on that disk; the disk
//! to boot from; Load Defaults, Cancel Changes and Apply. Every number and
//! message is core's (`mosaic_core::disks::edit`): `bounds` of the draft as
//! the operator types — Fuel's messages, "The size is too small. Allocate
//! at least N MB." and the disk's —, `applicable`, `with_size`,
//! `with_boot_disk`.
//!
//! For one node (its editor) or for the nodes selected (the bulk bar): the
//! first node's layout is shown and Apply gives it to all of them by disk
//! position (`PUT /clusters/{id}/disks`, which refuses nodes of different
//! disk capacities); one node's Apply carries its `ETag` (`If-Match`). The
//! layout and the volumes are read when the panel opens, never for the
//! whole table. Also here: the role editors' warning that a role change
//! resets the layout, and the notice naming the nodes it was reset on.

use leptos::prelude::*;
use mosaic_core::api::{DiskEntry, ErrorCode, NodeView, VolumeInfo};
use mosaic_core::disks::edit::{self, DiskBounds, VolumeBounds};
use mosaic_core::hardware::view::size as readable;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;

use crate::api::{self, ApiFailure, Tagged};
use crate::components::action::{ActionError, Request, on_answer, on_success};
use crate::components::retry::RetryNotice;

/// A layout in the simple format with the `ETag` it was read at.
type Layout = Tagged<Vec<DiskEntry>>;

/// An Apply's answer: the `ETag` the change was made on, and the first
/// node's layout stored.
type Applied = (String, Layout);

/// Fuel's `disk_configuration_reset_warning`.
pub const RESET_WARNING: &str =
    "When you change the node role, disk configuration will be reset to default.";

/// The nodes a Configure Disks panel lays out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisksFor {
    pub cluster_id: i64,
    /// The nodes by id; the first one's layout is shown and applied to all.
    pub nodes: Vec<i64>,
    /// The node's name, when there is one node.
    pub name: String,
    /// An operator changes the layout; a viewer only reads it.
    pub editable: bool,
}

impl DisksFor {
    /// Fuel's titles.
    fn title(&self) -> String {
        match (self.nodes.len(), self.editable) {
            (1, true) => format!("Configure disks on {}", self.name),
            (1, false) => format!("Disks configuration of {}", self.name),
            (n, true) => format!("Configure disks on {n} nodes"),
            (n, false) => format!("Disks configuration of {n} nodes"),
        }
    }

    fn first(&self) -> i64 {
        self.nodes.first().copied().unwrap_or_default()
    }

    /// What Apply sends: one node's layout with its `ETag`, or the layout
    /// for every node; the layout the first node got, and the `ETag` the
    /// change was made on.
    async fn apply(self, sent: Layout) -> Result<Applied, ApiFailure> {
        let over = sent.etag.clone();
        if let [id] = self.nodes[..] {
            let stored = api::put_node_disks(id, &sent.value, &sent.etag).await?;
            return Ok((over, stored));
        }
        let answer = api::put_cluster_disks(self.cluster_id, &self.nodes, &sent.value).await?;
        let first = answer.into_iter().find(|n| n.node == self.first());
        let value = first.map_or(sent.value, |n| n.disks);
        Ok((over.clone(), Tagged { value, etag: over }))
    }
}

/// The panel: the first node's layout and volumes read when it opens —
/// again when `version` (the node's) moves on and after an Apply —, then
/// the editor; `changed` tells the table the nodes changed.
// Long: two reads, their failure, and the panel's head and scrolling,
// which only make sense together.
#[component]
pub fn ConfigureDisks(
    target: DisksFor,
    #[prop(into)] version: Signal<i64>,
    /// The bulk bar's panel: its own title as a heading, and brought into
    /// view under the bar (sticky: it may be clicked far down the table)
    /// when it opens. In a node's editor the section's heading names it,
    /// and it opens where Configure disks was clicked.
    heading: bool,
    changed: Callback<()>,
    close: Callback<()>,
) -> impl IntoView {
    let first = target.first();
    let again = RwSignal::new(0_u32);
    let disks = LocalResource::new(move || {
        version.track();
        again.track();
        api::node_disks(first)
    });
    let volumes = LocalResource::new(move || {
        version.track();
        again.track();
        api::node_volumes(first)
    });
    let fetched = Signal::derive(move || disks.map(|r| r.as_ref().ok().cloned()).flatten());
    let infos = Signal::derive(move || {
        volumes
            .map(|r| r.as_ref().ok().cloned())
            .flatten()
            .unwrap_or_default()
    });
    // A failed read; the volumes' only when there are disks to lay out.
    let failed = move || {
        let disks = disks.map(|r| r.as_ref().map(|d| d.value.is_empty()).map_err(Clone::clone));
        let volumes = volumes.map(|r| r.as_ref().err().cloned()).flatten();
        match disks {
            Some(Err(failure)) => Some(failure),
            Some(Ok(false)) => volumes,
            _ => None,
        }
    };
    // Read again, as a read (a server out of reach is asked again by itself).
    let retry = Callback::new(move |()| again.update(|n| *n += 1));
    let reload = Callback::new(move |()| {
        again.update(|n| *n += 1);
        changed.run(());
    });
    let title = target.title();
    let label = title.clone();
    let section = NodeRef::<leptos::html::Section>::new();
    Effect::new(move || {
        if let Some(panel) = section.get()
            && heading
        {
            under_the_bar(&panel);
        }
    });
    view! {
        <section class="configure-disks" aria-label=label node_ref=section>
            <div class="disks-head">
                {heading.then(|| view! { <h3>{title}</h3> })}
                <button class="close-disks" on:click=move |_| close.run(())>"Close"</button>
            </div>
            <Show
                when=move || failed().is_none()
                fallback=move || failed().map(|failure| view! { <RetryNotice failure retry auto=true /> })
            >
                <DisksEditor target=target.clone() fetched volumes=infos reload />
            </Show>
        </section>
    }
}

/// Scrolls `panel` to the top of the window, under the bulk bar stuck
/// there.
fn under_the_bar(panel: &web_sys::HtmlElement) {
    panel.scroll_into_view();
    let bar = document()
        .query_selector(".bulk-bar")
        .ok()
        .flatten()
        .and_then(|bar| bar.dyn_into::<web_sys::HtmlElement>().ok())
        .map_or(0, |bar| bar.offset_height());
    window().scroll_by_with_x_and_y(0.0, -f64::from(bar + 8));
}

/// The draft as the operator changes it: what is shown (the draft made on
/// the layout shown, else that layout) and the layout it started from.
#[derive(Clone, Copy)]
struct Editing {
    /// The layout last read or applied, with the `ETag` it is at.
    base: Memo<Option<Layout>>,
    draft: RwSignal<Option<Layout>>,
    shown: Memo<Option<Vec<DiskEntry>>>,
}

impl Editing {
    fn new(base: Memo<Option<Layout>>) -> Editing {
        let draft = RwSignal::new(None::<Layout>);
        let shown = Memo::new(move |_| {
            let base = base.get()?;
            Some(match draft.get() {
                Some(d) if d.etag == base.etag => d.value,
                _ => base.value,
            })
        });
        Editing { base, draft, shown }
    }

    /// `f` made to what is shown, as a draft on the layout shown.
    fn make(self, f: impl FnOnce(&[DiskEntry]) -> Vec<DiskEntry>) {
        let (Some(base), Some(now)) = (self.base.get_untracked(), self.shown.get_untracked())
        else {
            return;
        };
        self.draft.set(Some(Tagged {
            value: f(&now),
            etag: base.etag,
        }));
    }
}

/// The editor of `fetched` (the first node's layout as last read, with
/// its `ETag`) over the node's `volumes`; `reload` asks for the layout
/// and the nodes again (after an Apply, or a refusal because the node
/// moved on).
// Long: the draft, the answers it is made over (read, applied, the
// defaults) and the buttons' actions share one set of signals.
#[component]
pub fn DisksEditor(
    target: DisksFor,
    #[prop(into)] fetched: Signal<Option<Layout>>,
    #[prop(into)] volumes: Signal<Vec<VolumeInfo>>,
    reload: Callback<()>,
) -> impl IntoView {
    // The last Apply's answer, over the `ETag` it was applied on: shown
    // until a layout newer than that one is read.
    let saved = RwSignal::new(None::<Applied>);
    let base = Memo::new(move |_| {
        let fetched = fetched.get()?;
        Some(saved.with(|s| match s {
            Some((over, answer)) if *over == fetched.etag => answer.clone(),
            _ => fetched,
        }))
    });
    let change = Editing::new(base);
    let bounds = Memo::new(move |_| {
        change
            .shown
            .with(|s| volumes.with(|v| s.as_deref().map_or_else(Vec::new, |s| edit::bounds(s, v))))
    });
    let first = target.first();
    let defaults: Request<(), Vec<DiskEntry>> =
        Action::new_unsync(move |_: &()| api::disk_defaults(first));
    on_success(defaults, move |layout| change.make(|_| layout.clone()));
    let apply_to = target.clone();
    let apply: Request<Layout, Applied> =
        Action::new_unsync(move |sent: &Layout| apply_to.clone().apply(sent.clone()));
    on_answer(apply, move |answer| match answer {
        Ok(answer) => {
            saved.set(Some(answer.clone()));
            change.draft.set(None);
            reload.run(());
        }
        // The node moved on since it was read: read it again, so that the
        // page shows its layout as it is now (the refusal says why the
        // draft went) and the next Apply is over it.
        Err(failure) if failure.code == Some(ErrorCode::PreconditionFailed) => reload.run(()),
        Err(_) => {}
    });
    let known = Memo::new(move |_| change.shown.with(|s| s.as_ref().map(Vec::len)));
    let editable = target.editable;
    let count = target.nodes.len();
    let group = format!("boot-{}", target.nodes.first().copied().unwrap_or_default());
    let several = count > 1;
    let indices = move || (0..known.get().unwrap_or(0)).collect::<Vec<usize>>();
    let disk = move |i: usize| {
        let group = group.clone();
        view! { <DiskBox i change bounds volumes editable group /> }
    };
    view! {
        {move || match known.get() {
            None => view! { <p class="loading">"Loading the disks…"</p> }.into_any(),
            Some(0) => view! { <p class="notice notice-warn no-disks" role="status">{no_disks(count)}</p> }.into_any(),
            Some(_) => ().into_any(),
        }}
        <div class="disks">
            <For each=indices key=|i| *i children=disk />
        </div>
        {editable.then(|| view! { <DisksButtons change bounds defaults apply several /> })}
    }
}

/// What a panel says of a first node with no known disks.
fn no_disks(nodes: usize) -> &'static str {
    if nodes == 1 {
        "No disks are known for this node: import its hardware or declare it."
    } else {
        "No disks are known for the first node selected: import its hardware or declare it."
    }
}

/// Load Defaults, Cancel Changes, Apply — disabled while a message shows,
/// when nothing changed (one node: several nodes may differ from the
/// first, whose layout Apply gives them all), or while one is sent —, and
/// what the last Apply said.
#[component]
fn DisksButtons(
    change: Editing,
    bounds: Memo<Vec<DiskBounds>>,
    defaults: Request<(), Vec<DiskEntry>>,
    apply: Request<Layout, Applied>,
    several: bool,
) -> impl IntoView {
    let unsaved = Memo::new(move |_| {
        change.shown.with(|s| {
            change
                .base
                .with(|b| s.as_ref() != b.as_ref().map(|b| &b.value))
        })
    });
    let busy = move || defaults.pending().get() || apply.pending().get();
    let ready = Memo::new(move |_| bounds.with(|b| edit::applicable(b)));
    let send = move |_| {
        if let (Some(base), Some(value)) =
            (change.base.get_untracked(), change.shown.get_untracked())
        {
            apply.dispatch(Tagged {
                value,
                etag: base.etag,
            });
        }
    };
    let applied = move || {
        let ok = apply.value().with(|v| matches!(v, Some(Ok(_))));
        (ok && !unsaved.get()).then(|| {
            let text = if several {
                "Disk configuration applied to the selected nodes."
            } else {
                "Disk configuration applied."
            };
            view! { <p class="notice notice-ok disks-applied" role="status">{text}</p> }
        })
    };
    view! {
        <div class="disks-actions">
            <button class="load-defaults" disabled=busy on:click=move |_| { defaults.dispatch(()); }>
                "Load Defaults"
            </button>
            <button class="cancel-disks" disabled=move || busy() || !unsaved.get() on:click=move |_| change.draft.set(None)>
                "Cancel Changes"
            </button>
            <button
                class="apply-disks primary"
                disabled=move || busy() || !ready.get() || !(several || unsaved.get())
                on:click=send
            >
                "Apply"
            </button>
        </div>
        {applied}
        <ActionError action=apply listed=true />
        <ActionError action=defaults listed=true />
    }
}

/// Disk `i` of the draft: its name and size, the disk to boot from, the
/// bar, its message, and a row per volume group.
// Long: mostly markup, a disk's lines one after the other.
#[component]
fn DiskBox(
    i: usize,
    change: Editing,
    bounds: Memo<Vec<DiskBounds>>,
    volumes: Signal<Vec<VolumeInfo>>,
    editable: bool,
    group: String,
) -> impl IntoView {
    let disk = Memo::new(move |_| {
        change
            .shown
            .with(|s| s.as_ref().and_then(|s| s.get(i)).cloned())
    });
    let bound = Memo::new(move |_| bounds.with(|b| b.get(i).cloned()));
    let read = move |f: fn(&DiskEntry) -> String| {
        move || disk.with(|d| d.as_ref().map(f).unwrap_or_default())
    };
    let named = read(|d| {
        if d.name.is_empty() || d.name == d.id {
            d.id.clone()
        } else {
            format!("{} ({})", d.name, d.id)
        }
    });
    let total = read(|d| {
        format!(
            "Total space {} ({} MB)",
            readable(u64::try_from(d.size).unwrap_or(0) << 20),
            d.size
        )
    });
    let bootable = Memo::new(move |_| disk.with(|d| d.as_ref().is_some_and(|d| d.bootable)));
    let message = move || bound.with(|b| b.as_ref().and_then(|b| b.error.clone()));
    let names = Memo::new(move |_| {
        bound.with(|b| {
            b.as_ref().map_or_else(Vec::new, |b| {
                b.volumes.iter().map(|v| v.name.clone()).collect::<Vec<_>>()
            })
        })
    });
    let id = move || disk.with(|d| d.as_ref().map(|d| d.id.clone()).unwrap_or_default());
    let row = move |name: String| view! { <VolumeRow i name change bound volumes editable /> };
    view! {
        <div class="disk-box" data-disk=id class:invalid=move || message().is_some()>
            <div class="disk-head">
                <strong class="disk-name">{named}</strong>
                <span class="muted disk-total">{total}</span>
                <label class="boot">
                    <input
                        type="radio"
                        name=group
                        class="boot-disk"
                        prop:checked=bootable
                        disabled=!editable
                        on:change=move |_| change.make(|d| edit::with_boot_disk(d, i))
                    />
                    "Boot from this disk"
                </label>
            </div>
            <DiskBar disk bound volumes />
            {move || message().map(|m| view! { <p class="disk-error" role="alert">{m}</p> })}
            <div class="volume-rows">
                <For each=move || names.get() key=|name| name.clone() children=row />
            </div>
        </div>
    }
}

/// The class of a volume group's colour: its place among the node's
/// volumes, so a group has the same colour on every disk.
fn colour(volumes: &[VolumeInfo], name: &str) -> String {
    let at = volumes.iter().position(|v| v.name == name).unwrap_or(0);
    format!("vg vg-{}", at % 8)
}

/// A width of the bar: `size` of the disk's `total`, in percent.
fn share(size: i64, total: i64) -> String {
    if total <= 0 || size <= 0 {
        return "0%".to_owned();
    }
    format!("{:.2}%", (size as f64) * 100.0 / (total as f64))
}

/// The disk as a bar: a segment per volume group it holds (width ∝
/// size), then the unallocated rest.
#[component]
fn DiskBar(
    disk: Memo<Option<DiskEntry>>,
    bound: Memo<Option<DiskBounds>>,
    volumes: Signal<Vec<VolumeInfo>>,
) -> impl IntoView {
    let segments = move || {
        let (Some(disk), Some(bound)) = (disk.get(), bound.get()) else {
            return Vec::new();
        };
        let mut out: Vec<(String, String, String)> = bound
            .volumes
            .iter()
            .filter(|v| v.size > 0)
            .map(|v| {
                let class = volumes.with(|all| colour(all, &v.name));
                (
                    class,
                    format!("{} {} MB", v.label, v.size),
                    share(v.size, disk.size),
                )
            })
            .collect();
        if bound.unallocated > 0 {
            out.push((
                "vg unallocated".to_owned(),
                format!("Unallocated {} MB", bound.unallocated),
                share(bound.unallocated, disk.size),
            ));
        }
        out
    };
    view! {
        <div class="disk-bar">
            {move || segments()
                .into_iter()
                .map(|(class, text, width)| {
                    let title = text.clone();
                    view! {
                        <div class=class style:width=width title=title>
                            <span>{text}</span>
                        </div>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// Volume group `name` on disk `i`: a slider and a number (MB) held to
/// what core allows, its minimum and maximum here, and its message.
// Long: the slider and the number are one control held to the same
// bounds; splitting them would pass those bounds back and forth.
#[component]
fn VolumeRow(
    i: usize,
    name: String,
    change: Editing,
    bound: Memo<Option<DiskBounds>>,
    volumes: Signal<Vec<VolumeInfo>>,
    editable: bool,
) -> impl IntoView {
    let row = {
        let name = name.clone();
        Memo::new(move |_| {
            bound.with(|b| {
                b.as_ref()
                    .and_then(|b| b.volumes.iter().find(|v| v.name == name).cloned())
            })
        })
    };
    let get = move |f: fn(&VolumeBounds) -> i64| move || row.with(|r| r.as_ref().map_or(0, f));
    let (size, low, high) = (get(|r| r.size), get(|r| r.min.max(0)), get(|r| r.max));
    let label = move || row.with(|r| r.as_ref().map(|r| r.label.clone()).unwrap_or_default());
    let message = move || row.with(|r| r.as_ref().and_then(|r| r.error.clone()));
    let fixed = move || !editable || high() <= low();
    // What was typed or slid, held to what core allows; the field shows
    // the size the draft took.
    let set = {
        let name = name.clone();
        move |ev: leptos::ev::Event| {
            let input = event_target::<HtmlInputElement>(&ev);
            let typed = input.value();
            let wanted = typed.trim().parse::<i64>().unwrap_or(0);
            change.make(|d| edit::with_size(d, i, &name, wanted));
            let now = size();
            if typed.trim() != now.to_string() {
                input.set_value(&now.to_string());
            }
        }
    };
    let slider = NodeRef::<leptos::html::Input>::new();
    // The range's bounds before its value: a value past the old maximum
    // would be held to it.
    Effect::new(move || {
        if let Some(input) = slider.get() {
            input.set_min(&low().to_string());
            input.set_max(&high().to_string());
            input.set_value(&size().to_string());
        }
    });
    let swatch = {
        let name = name.clone();
        move || volumes.with(|all| format!("swatch {}", colour(all, &name)))
    };
    let on = move || format!("{} on disk {}", label(), i + 1);
    view! {
        <div class="volume-row" data-volume=name class:invalid=move || message().is_some()>
            <span class=swatch aria-hidden="true"></span>
            <span class="volume-label">{label}</span>
            <input
                type="range"
                class="volume-range"
                step="1"
                node_ref=slider
                aria-label=move || format!("{} (slider)", on())
                disabled=fixed
                on:input=set.clone()
            />
            <input
                type="number"
                class="volume-size"
                step="1"
                min=low
                max=high
                prop:value=move || size().to_string()
                aria-label=move || format!("{} in MB", on())
                aria-invalid=move || if message().is_some() { "true" } else { "false" }
                disabled=fixed
                on:input=set
            />
            <span class="unit">"MB"</span>
            <span class="volume-limits muted">{move || format!("min {} · max {} MB", low(), high())}</span>
            {move || message().map(|m| view! { <p class="volume-error" role="alert">{m}</p> })}
        </div>
    }
}

/// The role editors' warning, while `shown`.
#[component]
pub fn ResetWarning(#[prop(into)] shown: Signal<bool>) -> impl IntoView {
    move || {
        shown
            .get()
            .then(|| view! { <p class="notice notice-warn disks-reset-warning" role="status">{RESET_WARNING}</p> })
    }
}

/// What a role change did to layouts: the nodes (names) whose layout went
/// back to the defaults.
pub fn reset_notice(names: &[String]) -> Option<String> {
    match names {
        [] => None,
        [one] => Some(format!(
            "The disk configuration of {one} was reset to default."
        )),
        many => Some(format!(
            "The disk configuration of {} nodes was reset to default: {}.",
            many.len(),
            many.join(", ")
        )),
    }
}

/// A node editor's Disks section: Configure disks opens the panel for this
/// node (its layout read only then).
#[component]
pub(super) fn NodeDisks(
    id: i64,
    node: Memo<Option<NodeView>>,
    editable: bool,
    changed: Callback<()>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let version = Signal::derive(move || node.with(|n| n.as_ref().map_or(0, |n| n.version)));
    let close = Callback::new(move |()| open.set(false));
    let panel = move || {
        let (cluster_id, name) = node.with_untracked(|n| {
            n.as_ref()
                .map(|n| (n.cluster_id, n.name.clone()))
                .unwrap_or_default()
        });
        let target = DisksFor {
            cluster_id,
            nodes: vec![id],
            name,
            editable,
        };
        view! { <ConfigureDisks target version heading=false changed close /> }
    };
    view! {
        <section class="node-disks" aria-label="Disks">
            <h4>"Disks"</h4>
            <Show when=move || open.get() fallback=move || view! {
                <button class="open-disks" on:click=move |_| open.set(true)>
                    {if editable { "Configure disks" } else { "Show disks" }}
                </button>
            }>
                {panel}
            </Show>
        </section>
    }
}

/// The bulk bar's Configure disks, for the nodes selected when it was
/// clicked: the panel shows while they are still the selection.
#[component]
pub(super) fn BulkDisks(
    cluster_id: i64,
    nodes: Signal<Vec<NodeView>>,
    selected: Memo<Vec<i64>>,
    /// The selection the panel was opened for.
    open: RwSignal<Option<Vec<i64>>>,
    changed: Callback<()>,
) -> impl IntoView {
    let shown = Memo::new(move |_| {
        open.with(|o| selected.with(|s| o.as_ref().filter(|o| *o == s && !s.is_empty()).cloned()))
    });
    let close = Callback::new(move |()| open.set(None));
    move || {
        shown.get().map(|ids| {
            let name = nodes.with_untracked(|all| {
                all.iter()
                    .find(|n| Some(&n.id) == ids.first())
                    .map(|n| n.name.clone())
                    .unwrap_or_default()
            });
            let target = DisksFor {
                cluster_id,
                nodes: ids,
                name,
                editable: true,
            };
            view! { <ConfigureDisks target version=0 heading=true changed close /> }
        })
    }
}
