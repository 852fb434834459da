//! The environment page's components in headless Chromium
//! (`wasm-bindgen-test`): the node table's rows follow their nodes in
//! place, what a viewer is offered, the node editor under its row; the
//! checks folded and showing their nodes; a plan group with its graph;
//! the preview's choice of graph type.

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use mosaic_app::components::graph_choice::GraphChoice;
use mosaic_app::components::node_table::{NodeTable, TableState};
use mosaic_app::pages::environment::Checks;
use mosaic_app::pages::preview::Preview;
use mosaic_app::records::Records;
use mosaic_core::api::{GraphSource, GraphSummary, NodeView, RoleView};
use mosaic_core::environment::{Check, CheckSeverity};
use mosaic_core::name::{GraphType, NodeStatus, RoleName, TagName, TaskId};
use mosaic_core::task::{NodePlan, Plan};
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement};

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

fn tags(list: &[&str]) -> Vec<TagName> {
    list.iter().map(|t| TagName::new(*t).unwrap()).collect()
}

fn node(id: i64, name: &str, tagged: &[&str]) -> NodeView {
    NodeView {
        id,
        cluster_id: 1,
        name: name.to_owned(),
        status: NodeStatus::Ready,
        error_type: None,
        roles: vec![RoleName::new("controller").unwrap()],
        pending_roles: Vec::new(),
        tags: tags(tagged),
        role_tags: tags(&["controller"]),
        tags_added: Vec::new(),
        tags_removed: Vec::new(),
        primary_tags: Vec::new(),
        pending_deletion: false,
        version: 1,
        node_group: "default".to_owned(),
        interfaces: 0,
        hardware: None,
        disks_reset: false,
    }
}

fn role(id: &str, unavailable: Option<&str>) -> RoleView {
    RoleView {
        id: RoleName::new(id).unwrap(),
        name: id.to_ascii_uppercase(),
        description: format!("The {id}"),
        tags: tags(&[id]),
        unavailable: unavailable.map(str::to_owned),
        plugin: None,
        tags_source: Default::default(),
        created: None,
        nodes: 0,
    }
}

/// `list` as the page holds it after its answer.
fn records(list: Vec<NodeView>) -> Records<NodeView> {
    let nodes = Records::new();
    nodes.answer(list);
    nodes
}

/// `nodes`' node `id` changed by `change`, as a bulk change answers it.
fn changed(nodes: Records<NodeView>, id: i64, change: impl Fn(&mut NodeView)) -> NodeView {
    let mut node = nodes
        .all()
        .with_untracked(|all| all.iter().find(|n| n.id == id).cloned())
        .unwrap();
    change(&mut node);
    node
}

/// A node table over `nodes`, mounted; its root.
fn table(nodes: Records<NodeView>, editable: bool) -> HtmlElement {
    let roles = RwSignal::new(vec![
        role("controller", None),
        role("ceph-osd", Some("needs Ceph")),
    ]);
    table_with(nodes, roles, editable)
}

/// A node table over `nodes` and `roles`, mounted; its root.
fn table_with(
    nodes: Records<NodeView>,
    roles: RwSignal<Vec<RoleView>>,
    editable: bool,
) -> HtmlElement {
    let root = holder();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        let state = TableState::new();
        let roles = Signal::from(roles);
        view! {
            <NodeTable
                cluster_id=1
                nodes=nodes
                roles=roles
                groups=Signal::stored(vec!["default".to_owned(), "rack-2".to_owned()])
                networks=Signal::stored(vec!["management".to_owned(), "storage".to_owned()])
                state=state
                editable=editable
                changed=Callback::new(|_| {})
            />
        }
    });
    handle.forget();
    root
}

#[wasm_bindgen_test]
async fn rows_follow_their_nodes_in_place_and_the_box_used_keeps_the_focus() {
    let nodes = records(
        (1..=60)
            .map(|i| node(i, &format!("rack1-{i}"), &["controller", "mysql"]))
            .collect::<Vec<_>>(),
    );
    let root = table(nodes, true);
    leptos::task::tick().await;
    // Fifty to a page, sorted naturally by name.
    assert_eq!(count(&root, "tr.node-row"), 50);
    assert_eq!(
        find(&root, ".node-count").text_content().unwrap(),
        "Nodes 1–50 of 60"
    );
    assert_eq!(
        find(&root, "tr.node-row .node-name")
            .text_content()
            .unwrap(),
        "rack1-1"
    );
    assert_eq!(
        html(&find(&root, "tr[data-node='1'] .chips")),
        r#"<span class="chip from-role" data-tag="controller">controller</span><span class="chip" data-tag="mysql">mysql</span>"#
    );
    let row_box: HtmlInputElement =
        find(&root, "tr[data-node='2'] input.select-node").unchecked_into();
    row_box.click();
    row_box.focus().unwrap();
    leptos::task::tick().await;
    assert_eq!(
        find(&root, "tr[data-node='2']").class_name(),
        "node-row selected"
    );
    assert!(
        find(&root, ".node-count")
            .text_content()
            .unwrap()
            .ends_with("; 1 selected")
    );
    assert_eq!(
        count(&root, ".bulk-bar"),
        1,
        "the bulk bar shows with a selection"
    );
    // A bulk change's answer: every node but the last got a tag.
    nodes.patch(
        (1..60)
            .map(|id| {
                changed(nodes, id, |n| {
                    n.tags.push(TagName::new("rabbitmq").unwrap());
                    n.version += 1;
                })
            })
            .collect(),
    );
    leptos::task::tick().await;
    assert_eq!(count(&root, "tr.node-row .chip[data-tag='rabbitmq']"), 50);
    let now = find(&root, "tr[data-node='2'] input.select-node");
    assert!(
        now == *row_box.unchecked_ref::<Element>(),
        "the box was replaced"
    );
    assert!(row_box.checked());
    let active = document().active_element();
    assert!(
        active.as_ref() == Some(row_box.unchecked_ref::<Element>()),
        "the focus was lost"
    );
    // The next page, then a filter back to the first.
    click(&root, "button.next-page");
    leptos::task::tick().await;
    assert_eq!(
        find(&root, ".node-count").text_content().unwrap(),
        "Nodes 51–60 of 60; 1 selected"
    );
    assert_eq!(count(&root, "tr.node-row"), 10);
    let name: HtmlInputElement = find(&root, "input.filter-name").unchecked_into();
    name.set_value("rack1-5");
    name.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert_eq!(
        find(&root, ".node-count").text_content().unwrap(),
        "Nodes 1–11 of 11 (filtered from 60); 1 selected"
    );
    // Name sorted descending.
    click(&root, "button.sort[data-sort='Name']");
    leptos::task::tick().await;
    let header = find(&root, "button.sort[data-sort='Name']");
    assert_eq!(header.text_content().unwrap(), "Name ▼");
    assert_eq!(
        header
            .parent_element()
            .unwrap()
            .get_attribute("aria-sort")
            .as_deref(),
        Some("descending")
    );
    assert_eq!(
        find(&root, "tr.node-row .node-name")
            .text_content()
            .unwrap(),
        "rack1-59"
    );
}

#[wasm_bindgen_test]
async fn the_node_edited_has_its_editor_under_it_and_a_hostile_name_stays_text() {
    let hostile = r#"<img src=x onerror="alert(1)">"#;
    let nodes = records(vec![
        node(1, hostile, &["controller", "mysql", "primary-controller"]),
        node(2, "b", &[]),
    ]);
    let root = table(nodes, true);
    leptos::task::tick().await;
    assert_eq!(count(&root, "img"), 0);
    assert_eq!(
        find(&root, "tr[data-node='1'] .node-name")
            .text_content()
            .unwrap(),
        hostile
    );
    click(&root, "tr[data-node='1'] button.edit-node");
    leptos::task::tick().await;
    let edit = find(&root, "tr[data-node='1'] button.edit-node");
    assert_eq!(edit.text_content().unwrap(), "Close");
    assert_eq!(edit.get_attribute("aria-expanded").as_deref(), Some("true"));
    let editor = find(
        &root,
        "tr[data-node='1'] + tr.node-editor .node[data-node='1']",
    );
    // Where each tag comes from; a primary cannot be removed by hand.
    assert_eq!(
        find(&editor, ".chip[data-tag='controller']")
            .get_attribute("title")
            .as_deref(),
        Some("brought by a role")
    );
    assert_eq!(
        count(&editor, ".chip[data-tag='mysql'] button.remove-tag"),
        1
    );
    let primary = find(&editor, ".chip[data-tag='primary-controller']");
    assert_eq!(primary.class_name(), "chip primary");
    assert_eq!(count(&primary, "button"), 0);
    // The node's roles are ticked; a role not available is disabled.
    let controller: HtmlInputElement =
        find(&editor, "input[data-role='controller']").unchecked_into();
    assert!(controller.checked());
    let osd: HtmlInputElement = find(&editor, "input[data-role='ceph-osd']").unchecked_into();
    assert!(osd.disabled());
    assert_eq!(
        osd.parent_element()
            .unwrap()
            .get_attribute("title")
            .as_deref(),
        Some("Not available: needs Ceph")
    );
    // Roles ticked stay ticked until the node changes.
    controller.click();
    leptos::task::tick().await;
    assert!(!controller.checked());
    nodes.patch(vec![changed(nodes, 1, |n| n.version += 1)]);
    leptos::task::tick().await;
    assert!(controller.checked(), "the node's roles once it changed");
    // The add-node form says why a role is not available.
    assert_eq!(
        find(&root, ".add-node .role-reasons li[data-role='ceph-osd']")
            .text_content()
            .unwrap(),
        "CEPH-OSD: needs Ceph"
    );
    click(&root, "tr[data-node='1'] button.edit-node");
    leptos::task::tick().await;
    assert_eq!(count(&root, "tr.node-editor"), 0);
}

#[wasm_bindgen_test]
async fn a_role_box_follows_its_role_in_place() {
    let nodes = records(vec![node(1, "a", &[])]);
    let roles = RwSignal::new(vec![
        role("controller", None),
        role("ceph-osd", Some("needs Ceph")),
    ]);
    let root = table_with(nodes, roles, true);
    leptos::task::tick().await;
    let boxed = ".add-node input[data-role='ceph-osd']";
    let before: HtmlInputElement = find(&root, boxed).unchecked_into();
    assert!(before.disabled());
    // Ceph chosen: the same box, now enabled and titled with the role's
    // description (keyed by the role's id, not by the whole role).
    roles.update(|r| r[1].unavailable = None);
    leptos::task::tick().await;
    let after: HtmlInputElement = find(&root, boxed).unchecked_into();
    assert!(before.is_same_node(Some(&after)), "the box was built anew");
    assert!(!after.disabled());
    assert_eq!(
        after
            .parent_element()
            .unwrap()
            .get_attribute("title")
            .as_deref(),
        Some("The ceph-osd — tags: ceph-osd")
    );
}

#[wasm_bindgen_test]
async fn nodes_show_their_node_group_and_are_filtered_by_it() {
    let in_group = |id: i64, group: &str| NodeView {
        node_group: group.to_owned(),
        ..node(id, &format!("n{id}"), &["controller"])
    };
    let nodes = records(vec![
        in_group(1, "default"),
        in_group(2, "rack-2"),
        in_group(3, "rack-2"),
    ]);
    let root = table(nodes, true);
    leptos::task::tick().await;
    assert_eq!(text(&root, "tr[data-node='2'] .node-group"), "rack-2");
    let header: Vec<String> = (0..count(&root, "thead button.sort"))
        .map(|i| {
            root.query_selector_all("thead button.sort")
                .unwrap()
                .get(i as u32)
                .unwrap()
                .text_content()
                .unwrap()
        })
        .collect();
    assert_eq!(header, ["Name ▲", "Status", "Node group", "Roles"]);
    let filter: HtmlSelectElement = find(&root, "select.filter-group").unchecked_into();
    filter.set_value("rack-2");
    filter
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert_eq!(
        text(&root, ".node-count"),
        "Nodes 1–2 of 2 (filtered from 3)"
    );
    // The bulk bar offers the node groups and the networks to move to.
    click(&root, "input.select-all");
    leptos::task::tick().await;
    assert_eq!(count(&root, ".bulk-bar select.bulk-group option"), 3);
    assert_eq!(count(&root, "datalist#known-networks option"), 2);
    // Moved elsewhere, the rack's nodes leave the filtered table.
    nodes.answer(
        nodes
            .all()
            .get_untracked()
            .into_iter()
            .map(|mut n| {
                n.node_group = "default".into();
                n
            })
            .collect(),
    );
    leptos::task::tick().await;
    assert_eq!(
        text(&root, ".node-count"),
        "No node matches (filtered from 3); 2 selected"
    );
}

#[wasm_bindgen_test]
async fn a_viewer_sees_details_only() {
    let nodes = records(vec![node(1, "a", &["controller"])]);
    let root = table(nodes, false);
    leptos::task::tick().await;
    assert_eq!(
        find(&root, "button.edit-node").text_content().unwrap(),
        "Details"
    );
    for control in [".add-node", "button.delete-node"] {
        assert_eq!(count(&root, control), 0, "{control}");
    }
    click(&root, "input.select-all");
    leptos::task::tick().await;
    assert_eq!(count(&root, ".bulk-bar"), 0);
    click(&root, "button.edit-node");
    leptos::task::tick().await;
    let editor = find(&root, ".node[data-node='1']");
    assert!(find(&editor, "fieldset.roles").has_attribute("disabled"));
    for control in [".save-roles", ".remove-tag", ".add-tag"] {
        assert_eq!(count(&editor, control), 0, "{control}");
    }
}

fn check(severity: CheckSeverity, message: &str, nodes: &[i64]) -> Check {
    Check {
        severity,
        kind: "node_roles".to_owned(),
        message: message.to_owned(),
        nodes: nodes.to_vec(),
    }
}

#[wasm_bindgen_test]
async fn errors_come_first_many_warnings_fold_and_a_check_shows_its_nodes() {
    let root = holder();
    let list = RwSignal::new(vec![
        check(CheckSeverity::Warning, "w", &[]),
        check(CheckSeverity::Error, "e <x>", &[4, 12]),
    ]);
    let shown = RwSignal::new(Vec::<i64>::new());
    leptos::mount::mount_to(root.clone(), move || {
        let checks = Memo::new(move |_| list.get());
        view! { <Checks checks show_only=Callback::new(move |ids| shown.set(ids)) /> }
    })
    .forget();
    leptos::task::tick().await;
    let section = find(&root, "section.checks");
    assert_eq!(section.class_name(), "checks has-errors");
    assert_eq!(
        find(&root, ".checks-headline").text_content().unwrap(),
        "Not ready to deploy: 1 error, 1 warning."
    );
    let first = find(&root, "li.check");
    assert_eq!(first.class_name(), "check check-error");
    assert_eq!(
        first.text_content().unwrap(),
        "Error: e <x> Show the 2 nodes"
    );
    click(&root, "button.show-nodes");
    assert_eq!(shown.get_untracked(), [4, 12]);
    assert_eq!(count(&root, "details"), 0);
    list.set(
        (0..4)
            .map(|_| check(CheckSeverity::Warning, "w", &[1]))
            .collect(),
    );
    leptos::task::tick().await;
    assert_eq!(find(&root, "section.checks").class_name(), "checks");
    assert_eq!(
        find(&root, "details.check-warnings summary")
            .text_content()
            .unwrap(),
        "4 warnings"
    );
    assert_eq!(
        count(&root, "details.check-warnings li.check-warning"),
        4,
        "two checks may say the same"
    );
}

#[wasm_bindgen_test]
async fn a_group_names_its_nodes_and_draws_its_graph_on_demand() {
    let root = holder();
    let task = |t: &str| TaskId::new(t).unwrap();
    let plan = Plan {
        nodes: vec![NodePlan {
            id: Value::from(1),
            tags: tags(&["controller"]),
            tasks: vec![task("a"), task("b")],
        }],
        edges: vec![(task("a"), task("b"))],
        ..Plan::default()
    };
    leptos::mount::mount_to(root.clone(), move || {
        let plan = Memo::new(move |_| plan.clone());
        let nodes = Memo::new(move |_| vec![node(1, "rack1-1", &[])]);
        view! { <Preview plan nodes /> }
    })
    .forget();
    leptos::task::tick().await;
    let group = find(
        &root,
        ".preview details.node-plan.plan-group[data-nodes='1']",
    );
    assert!(group.has_attribute("open"), "a small group starts open");
    assert_eq!(
        find(&group, "summary").text_content().unwrap(),
        "1 node: controller — 2 tasks (rack1-1)"
    );
    assert_eq!(html(&find(&group, "ol.tasks")), "<li>a</li><li>b</li>");
    let button = find(&group, "button.show-graph");
    assert_eq!(
        button.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    click(&group, "button.show-graph");
    leptos::task::tick().await;
    assert_eq!(button.text_content().unwrap(), "Hide the graph");
    assert_eq!(
        button.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    let scroll = find(&group, ".graph-slot .graph-scroll[tabindex='0']");
    assert_eq!(count(&scroll, "svg.plan-graph g.task"), 2);
    click(&group, "button.show-graph");
    leptos::task::tick().await;
    assert_eq!(html(&find(&group, ".graph-slot")), "");
}

fn graph(kind: &str, name: &str, tasks: usize) -> GraphSummary {
    GraphSummary {
        kind: GraphType::new(kind).unwrap(),
        name: name.to_owned(),
        tasks,
        sources: vec![GraphSource::Release],
    }
}

#[wasm_bindgen_test]
async fn the_graph_choice_offers_every_type_and_picks_one() {
    let graphs = RwSignal::new(vec![
        graph("default", "default deployment graph", 62),
        graph("provisioning", "provisioning", 4),
    ]);
    let chosen = RwSignal::new(GraphType::deployment());
    let root = mounted(move || {
        let choose = Callback::new(move |kind| chosen.set(kind));
        view! { <GraphChoice graphs chosen choose /> }
    });
    settle().await;
    assert_eq!(text(&root, "label.graph-choice span"), "Graph");
    let select: HtmlSelectElement = find(&root, "label.graph-choice select").unchecked_into();
    assert_eq!(
        html(&select),
        "<option value=\"default\">default deployment graph (default), 62 tasks</option>\
         <option value=\"provisioning\">provisioning, 4 tasks</option>"
    );
    assert_eq!(select.value(), "default");
    select.set_value("provisioning");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    settle().await;
    assert_eq!(chosen.get_untracked().as_str(), "provisioning");
    // A new list keeps the choice.
    graphs.set(vec![
        graph("default", "default deployment graph", 63),
        graph("burn_in", "hardware burn-in", 2),
        graph("provisioning", "provisioning", 4),
    ]);
    settle().await;
    assert_eq!(count(&root, "option"), 3);
    assert_eq!(select.value(), "provisioning");
    assert_eq!(
        text(&root, "option[value='burn_in']"),
        "hardware burn-in (burn_in), 2 tasks"
    );
}
