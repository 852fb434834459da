//! Configure Disks in headless Chromium (`wasm-bindgen-test`), no server:
//! the editor mounted over a compute node's layout as core lays it out on
//! two disks (the bundled release's volumes), its virtual storage made
//! 10,000 MB smaller on the first. A too-small size typed shows
//! Fuel's message — core's words and number — and disables Apply; Cancel
//! Changes goes back; a size past the disk is held to what core allows;
//! the boot disk moves; a node with no known disks says so. In the node
//! editor, roles other than the node's warn that its layout is reset.

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use mosaic_app::api::Tagged;
use mosaic_app::components::node_table::disks::{DisksEditor, DisksFor, RESET_WARNING};
use mosaic_app::components::node_table::{NodeTable, TableState};
use mosaic_app::records::Records;
use mosaic_core::api::{NodeView, RoleView};
use mosaic_core::disks::edit;
use mosaic_core::disks::layout::simple;
use mosaic_core::disks::{
    DiskEntry, Machine, MachineDisk, NodeVolumes, VolumeInfo, VolumesMetadata,
};
use mosaic_core::hardware::{HardwareSource, HardwareStamp};
use mosaic_core::name::{NodeStatus, RoleName, TagName};
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlButtonElement, HtmlInputElement};

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A compute node's layout on sda (100 GiB) and sdb (200 GiB) with 16 GiB
/// of memory, as the API shows it, and its volumes.
fn compute() -> (Vec<DiskEntry>, Vec<VolumeInfo>) {
    let text = include_str!("../../releases/openstack/volumes.yaml");
    let value: Value = mosaic_core::yaml::parse("volumes.yaml", text).unwrap();
    let meta = VolumesMetadata::merged([("release 'openstack'".to_owned(), &value)]).unwrap();
    let disk = |name: &str, size: i64| MachineDisk {
        id: name.to_owned(),
        name: name.to_owned(),
        size,
        extra: Vec::new(),
    };
    let machine = Machine {
        disks: vec![disk("sda", 102_400), disk("sdb", 204_800)],
        memory: Some(16 << 30),
    };
    let node = NodeVolumes {
        meta: &meta,
        roles: &["compute"],
        images_ceph: false,
    };
    let layout = node.defaults(&machine);
    let disks = simple(&layout);
    // Virtual storage ("all") fills the disks: 10,000 MB less of it on
    // sda, as the operator applied earlier, leaves room to change the
    // Base System ("min") there.
    let vm = disks[0]
        .volumes
        .iter()
        .find(|v| v.name == "vm")
        .unwrap()
        .size;
    let disks = edit::with_size(&disks, 0, "vm", vm - 10_000);
    (disks, node.info(&layout))
}

fn one_node() -> DisksFor {
    DisksFor {
        cluster_id: 1,
        nodes: vec![7],
        name: "cmp-1".to_owned(),
        editable: true,
    }
}

/// The editor over `disks`, mounted; its root.
fn editor(disks: Vec<DiskEntry>, volumes: Vec<VolumeInfo>) -> Element {
    let fetched = Signal::stored(Some(Tagged {
        value: disks,
        etag: "\"3-abc\"".to_owned(),
    }));
    mounted(move || {
        view! {
            <DisksEditor
                target=one_node()
                fetched=fetched
                volumes=Signal::stored(volumes)
                reload=Callback::new(|_| {})
            />
        }
    })
}

fn input(root: &Element, css: &str) -> HtmlInputElement {
    find(root, css).unchecked_into()
}

fn disabled(root: &Element, css: &str) -> bool {
    find(root, css)
        .unchecked_into::<HtmlButtonElement>()
        .disabled()
}

/// Types `text` into the input `css`, as the operator's keys would.
fn type_in(root: &Element, css: &str, text: &str) {
    let field = input(root, css);
    field.set_value(text);
    field
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
}

/// The first volume of the layout that has a minimum here and room above
/// it: (disk, volume, minimum).
fn adjustable(disks: &[DiskEntry], volumes: &[VolumeInfo]) -> (usize, String, i64) {
    edit::bounds(disks, volumes)
        .iter()
        .enumerate()
        .find_map(|(i, d)| {
            d.volumes
                .iter()
                .find(|v| v.min > 0 && v.max > v.min)
                .map(|v| (i, v.name.clone(), v.min))
        })
        .expect("the Base System, with room on sda to grow and shrink")
}

#[wasm_bindgen_test]
async fn a_too_small_size_shows_fuel_s_message_and_disables_apply() {
    let (disks, volumes) = compute();
    let (disk, volume, min) = adjustable(&disks, &volumes);
    let root = editor(disks.clone(), volumes);
    settle().await;
    assert_eq!(count(&root, ".disk-box"), 2);
    assert!(disabled(&root, ".apply-disks"), "nothing changed yet");
    assert!(disabled(&root, ".cancel-disks"));
    assert!(!exists(&root, ".volume-error"));

    let field = format!(
        ".disk-box:nth-child({}) .volume-row[data-volume='{volume}'] .volume-size",
        disk + 1
    );
    type_in(&root, &field, "1");
    settle().await;
    let row = format!(
        ".disk-box:nth-child({}) .volume-row[data-volume='{volume}']",
        disk + 1
    );
    assert_eq!(
        text(&root, &format!("{row} .volume-error")),
        edit::too_small(min),
        "core's message, as Fuel words it"
    );
    assert!(
        text(&root, &format!("{row} .volume-error"))
            .starts_with("The size is too small. Allocate at least ")
    );
    assert_eq!(input(&root, &field).value(), "1");
    assert_eq!(
        input(&root, &field)
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert!(disabled(&root, ".apply-disks"), "a message shows");
    assert!(!disabled(&root, ".cancel-disks"));

    // Back to the layout loaded.
    click(&root, ".cancel-disks");
    settle().await;
    assert!(!exists(&root, ".volume-error"));
    let loaded = disks[disk]
        .volumes
        .iter()
        .find(|v| v.name == volume)
        .unwrap()
        .size;
    assert_eq!(input(&root, &field).value(), loaded.to_string());
    assert!(disabled(&root, ".apply-disks"));

    // Its minimum is what it has: nothing changed. More is a change Apply
    // may send.
    type_in(&root, &field, &min.to_string());
    settle().await;
    assert!(!exists(&root, ".volume-error"));
    assert!(disabled(&root, ".apply-disks"));
    type_in(&root, &field, &(min + 5_000).to_string());
    settle().await;
    assert!(!exists(&root, ".volume-error"));
    assert!(!disabled(&root, ".apply-disks"));
}

#[wasm_bindgen_test]
async fn a_size_past_the_disk_is_held_to_its_room_and_the_bar_follows() {
    let (disks, volumes) = compute();
    let (disk, volume, _) = adjustable(&disks, &volumes);
    let max = edit::bounds(&disks, &volumes)[disk]
        .volumes
        .iter()
        .find(|v| v.name == volume)
        .unwrap()
        .max;
    let root = editor(disks, volumes);
    settle().await;
    let field = format!(
        ".disk-box:nth-child({}) .volume-row[data-volume='{volume}'] .volume-size",
        disk + 1
    );
    type_in(&root, &field, "99999999");
    settle().await;
    assert_eq!(input(&root, &field).value(), max.to_string());
    let row = format!(
        ".disk-box:nth-child({}) .volume-row[data-volume='{volume}']",
        disk + 1
    );
    assert!(text(&root, &format!("{row} .volume-limits")).ends_with(&format!("max {max} MB")));
    let slider = input(&root, &format!("{row} .volume-range"));
    assert_eq!(slider.max(), max.to_string());
    assert_eq!(slider.value(), max.to_string());
    // A smaller size leaves room: the bar shows it unallocated.
    type_in(&root, &field, &(max - 1000).to_string());
    settle().await;
    let bar = format!(".disk-box:nth-child({}) .disk-bar", disk + 1);
    assert_eq!(
        text(&root, &format!("{bar} .unallocated")),
        "Unallocated 1000 MB"
    );
}

#[wasm_bindgen_test]
async fn the_boot_disk_moves_and_apply_may_send_it() {
    let (disks, volumes) = compute();
    assert!(disks[0].bootable && !disks[1].bootable);
    let root = editor(disks, volumes);
    settle().await;
    let boot = |i: usize| input(&root, &format!(".disk-box:nth-child({i}) .boot-disk"));
    assert!(boot(1).checked());
    boot(2).click();
    settle().await;
    assert!(boot(2).checked() && !boot(1).checked());
    assert!(!disabled(&root, ".apply-disks"));
}

#[wasm_bindgen_test]
async fn a_node_with_no_known_disks_says_so() {
    let root = editor(Vec::new(), Vec::new());
    settle().await;
    assert_eq!(
        text(&root, ".no-disks"),
        "No disks are known for this node: import its hardware or declare it."
    );
    assert_eq!(count(&root, ".disk-box"), 0);
}

fn node(hardware: bool) -> NodeView {
    let tags = |list: &[&str]| list.iter().map(|t| TagName::new(*t).unwrap()).collect();
    NodeView {
        id: 1,
        cluster_id: 1,
        name: "cmp-1".to_owned(),
        status: NodeStatus::Discover,
        error_type: None,
        roles: vec![RoleName::new("compute").unwrap()],
        pending_roles: Vec::new(),
        tags: tags(&["compute"]),
        role_tags: tags(&["compute"]),
        tags_added: Vec::new(),
        tags_removed: Vec::new(),
        primary_tags: Vec::new(),
        pending_deletion: false,
        version: 1,
        node_group: "default".to_owned(),
        interfaces: 0,
        hardware: hardware.then(|| HardwareStamp {
            source: HardwareSource::Declared,
            found_at: "2026-12-08T09:00:00Z".to_owned(),
            switches: Vec::new(),
        }),
        disks_reset: false,
    }
}

fn role(id: &str) -> RoleView {
    RoleView {
        id: RoleName::new(id).unwrap(),
        name: id.to_owned(),
        description: String::new(),
        tags: vec![TagName::new(id).unwrap()],
        unavailable: None,
        plugin: None,
        tags_source: Default::default(),
        created: None,
        nodes: 0,
    }
}

/// The node table over `node`, its editor open; its root.
async fn editing(node: NodeView) -> Element {
    let nodes = Records::new();
    nodes.answer(vec![node]);
    let root = mounted(move || {
        view! {
            <NodeTable
                cluster_id=1
                nodes=nodes
                roles=Signal::stored(vec![role("compute"), role("cinder")])
                groups=Signal::stored(vec!["default".to_owned()])
                networks=Signal::stored(Vec::<String>::new())
                state=TableState::new()
                editable=true
                changed=Callback::new(|_| {})
            />
        }
    });
    settle().await;
    click(&root, "tr[data-node='1'] button.edit-node");
    settle().await;
    root
}

#[wasm_bindgen_test]
async fn other_roles_warn_that_the_layout_is_reset_when_the_node_has_one() {
    let root = editing(node(true)).await;
    assert!(!exists(&root, ".node .disks-reset-warning"));
    click(&root, ".node input[data-role='cinder']");
    settle().await;
    assert_eq!(text(&root, ".node .disks-reset-warning"), RESET_WARNING);
    assert_eq!(
        RESET_WARNING,
        "When you change the node role, disk configuration will be reset to default."
    );
    // Back to its own roles: nothing to warn of.
    click(&root, ".node input[data-role='cinder']");
    settle().await;
    assert!(!exists(&root, ".node .disks-reset-warning"));

    // A node whose disks are not known has no layout to reset.
    let root = editing(node(false)).await;
    click(&root, ".node input[data-role='cinder']");
    settle().await;
    assert!(!exists(&root, ".node .disks-reset-warning"));
}
