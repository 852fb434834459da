//! The Networks tab in headless Chromium (`wasm-bindgen-test`) over the
//! bundled release's networks: the defaults in their fields, an overlap
//! typed in marked at both fields with Save disabled, a fix clearing it,
//! what was typed kept — in the same input — when the configuration is
//! loaded again with another node group, and a viewer's read-only tab.

#![cfg(target_arch = "wasm32")]

use std::collections::BTreeMap;

use leptos::prelude::*;
use mosaic_app::api::Tagged;
use mosaic_app::pages::networks::NetworksTab;
use mosaic_app::records::Records;
use mosaic_app::session::Session;
use mosaic_core::access::Role;
use mosaic_core::api::SessionView;
use mosaic_core::network::config::applies;
use mosaic_core::network::metadata::NetworksMetadata;
use mosaic_core::network::{
    ConfigurationView, GroupView, Metas, NetworkConfiguration, NetworkView, NetworkingParameters,
    NodeGroup, Segmentation, VipView, capacity, pool,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlButtonElement, HtmlInputElement};

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The bundled release's networks for a VLAN environment of `groups`
/// node groups, as `GET …/network_configuration/neutron` shows them.
fn view(groups: i64) -> ConfigurationView {
    let text = include_str!("../../releases/openstack/networks.yaml");
    let declared: NetworksMetadata = mosaic_core::yaml::parse("networks.yaml", text).unwrap();
    let metas: Metas = declared
        .neutron
        .networks
        .iter()
        .filter(|m| applies(m, Segmentation::Vlan) && m.name != "baremetal")
        .collect();
    let groups: Vec<NodeGroup> = (1..=groups)
        .map(|id| NodeGroup {
            id,
            name: if id == 1 {
                "default".into()
            } else {
                format!("rack-{id}")
            },
        })
        .collect();
    let parameters =
        NetworkingParameters::defaults(&declared.neutron.config, Segmentation::Vlan, false)
            .unwrap();
    let config = NetworkConfiguration::defaults(&metas, &groups, parameters);
    let networks = config
        .networks
        .iter()
        .map(|n| {
            let meta = metas.iter().find(|m| m.name == n.name).unwrap();
            NetworkView {
                network: n.clone(),
                meta: (*meta).clone().into(),
                capacity: capacity(&pool(n, meta)),
                need: 2,
                used: 1,
            }
        })
        .collect();
    let vip = VipView {
        network_role: "mgmt/vip".into(),
        network: mosaic_core::name::NetworkName::new("management").unwrap(),
        node_group: Some("default".into()),
        namespace: Some("haproxy".into()),
        ipaddr: Some("192.168.0.2".parse().unwrap()),
        node_roles: vec!["controller".into()],
        is_user_defined: false,
        vendor_specific: serde_json::Value::Null,
    };
    ConfigurationView {
        networks,
        networking_parameters: config.networking_parameters,
        vips: BTreeMap::from([("management".to_owned(), vip)]),
        node_groups: groups,
        aliases: BTreeMap::new(),
    }
}

fn groups_of(view: &ConfigurationView) -> Vec<GroupView> {
    view.node_groups
        .iter()
        .map(|g| GroupView {
            id: g.id,
            name: g.name.clone(),
            cluster_id: 1,
            nodes: 0,
        })
        .collect()
}

struct Mounted {
    root: Element,
    fetched: RwSignal<Option<Tagged<ConfigurationView>>>,
    groups: Records<GroupView>,
}

/// The tab over `view` at version 1, for a user of `role`.
fn tab(view: ConfigurationView, role: Role) -> Mounted {
    let groups = Records::new();
    groups.answer(groups_of(&view));
    let fetched = RwSignal::new(Some(Tagged {
        value: view,
        etag: "\"1-abc\"".to_owned(),
    }));
    let root = mounted(move || {
        Session::provide().set(Some(SessionView {
            username: "olga".into(),
            role,
        }));
        let first = fetched.get_untracked().unwrap();
        let fetched = Memo::new(move |_| fetched.get());
        view! { <NetworksTab cluster_id=1 first fetched groups reload=Callback::new(|()| {}) /> }
    });
    Mounted {
        root,
        fetched,
        groups,
    }
}

/// The input of field `key` of network `name` (of node group `group`).
fn field(root: &Element, name: &str, group: &str, key: &str) -> HtmlInputElement {
    let css = format!(
        "fieldset.network[data-network='{name}'][data-group='{group}'] [data-field='{key}'] input"
    );
    find(root, &css).unchecked_into()
}

fn type_into(input: &HtmlInputElement, text: &str) {
    input.set_value(text);
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
}

fn invalid(input: &HtmlInputElement) -> bool {
    input.get_attribute("aria-invalid").as_deref() == Some("true")
}

fn save(root: &Element) -> HtmlButtonElement {
    find(root, "button.save-networks").unchecked_into()
}

#[wasm_bindgen_test]
async fn the_defaults_show_and_an_overlap_is_marked_before_save() {
    let Mounted { root, .. } = tab(view(1), Role::Operator);
    settle().await;
    let storage = field(&root, "storage", "default", "cidr");
    let management = field(&root, "management", "default", "cidr");
    assert_eq!(storage.value(), "192.168.1.0/24");
    assert_eq!(
        field(&root, "management", "default", "vlan_start").value(),
        "101"
    );
    assert_eq!(
        field(&root, "public", "default", "ip_ranges").value(),
        "172.16.0.2"
    );
    let base_mac: HtmlInputElement = find(&root, "#param-base_mac").unchecked_into();
    assert_eq!(base_mac.value(), "fa:16:3e:00:00:00");
    // VLAN segmentation's private network: no fields, its VLANs said.
    let private = text(&root, "fieldset.network[data-network='private']");
    assert!(private.contains("vlan_range 1000-1030"), "{private}");
    assert_eq!(
        text(
            &root,
            "fieldset.network[data-network='management'] .network-usage"
        ),
        "1 of 254 addresses given, 2 needed"
    );
    assert_eq!(
        text(&root, "[data-vip='management'] .vip-address"),
        "192.168.0.2"
    );
    assert!(save(&root).disabled(), "nothing to save");

    type_into(&storage, "192.168.0.0/24");
    settle().await;
    assert!(invalid(&storage) && invalid(&management));
    assert!(!invalid(&field(&root, "storage", "default", "gateway")));
    assert!(
        text(
            &root,
            "fieldset.network[data-network='storage'] .field-problem"
        )
        .starts_with("Address space intersection between networks:")
    );
    assert_eq!(
        text(&root, ".networks-bar .muted"),
        "1 unsaved change; 1 problem to fix before saving"
    );
    assert!(save(&root).disabled(), "Save waits while a problem stands");
    assert_eq!(count(&root, "[data-problems] li"), 1);

    type_into(&storage, "192.168.5.0/24");
    settle().await;
    assert!(!invalid(&storage) && !invalid(&management));
    assert!(!exists(&root, "[data-problems]"));
    assert!(!save(&root).disabled());

    // Text that is no value is said at its field.
    let vlan = field(&root, "storage", "default", "vlan_start");
    type_into(&vlan, "1o2");
    settle().await;
    assert!(invalid(&vlan));
    assert_eq!(
        text(
            &root,
            "fieldset.network[data-network='storage'] [data-field='vlan_start'] .field-problem"
        ),
        "VLAN tag: '1o2' is not a whole number."
    );
    // Discard puts back what was loaded.
    click(&root, "button.discard-networks");
    settle().await;
    assert_eq!(storage.value(), "192.168.1.0/24");
    assert_eq!(vlan.value(), "102");
}

#[wasm_bindgen_test]
async fn what_was_typed_stays_in_its_input_when_the_configuration_is_loaded_again() {
    let Mounted {
        root,
        fetched,
        groups,
    } = tab(view(1), Role::Operator);
    settle().await;
    let storage = field(&root, "storage", "default", "cidr");
    type_into(&storage, "192.168.7.0/24");
    storage.focus().unwrap();
    settle().await;
    // A node group created: the configuration comes again, newer.
    let two = view(2);
    groups.answer(groups_of(&two));
    fetched.set(Some(Tagged {
        value: two,
        etag: "\"2-def\"".to_owned(),
    }));
    settle().await;
    let now = field(&root, "storage", "default", "cidr");
    assert!(now == storage, "the input typed into was built again");
    assert_eq!(now.value(), "192.168.7.0/24");
    let active = document().active_element();
    assert!(active.as_ref() == Some(storage.unchecked_ref::<Element>()));
    assert_eq!(count(&root, "tr.group-row"), 2);
    // The other rack's networks, shown on demand: its copy of storage.
    click(&root, "tr.group-row[data-group='rack-2'] input.show-group");
    settle().await;
    assert_eq!(
        text(&root, "#networks-heading"),
        "Networks of node group rack-2"
    );
    assert_eq!(
        field(&root, "storage", "rack-2", "cidr").value(),
        "192.168.1.0/24"
    );
    // With two node groups a network needs a gateway in its CIDR: the one
    // typed is named with its node group wherever it is listed.
    assert_eq!(
        text(&root, ".networks-bar .muted"),
        "1 unsaved change; 1 problem to fix before saving"
    );
    assert_eq!(
        text(&root, "[data-problems] li"),
        "storage (node group default): Gateway address does not belong to the network."
    );
    assert!(
        exists(&root, "tr.group-row.has-problems[data-group='default']")
            && !exists(&root, "tr.group-row.has-problems[data-group='rack-2']")
    );
}

#[wasm_bindgen_test]
async fn a_viewer_reads_the_networks_and_may_verify() {
    let Mounted { root, .. } = tab(view(1), Role::Viewer);
    settle().await;
    assert!(field(&root, "storage", "default", "cidr").disabled());
    assert!(!exists(&root, "button.save-networks"));
    assert!(!exists(&root, "button.delete-group"));
    assert!(!exists(&root, ".new-group"));
    assert!(exists(&root, "button.verify-networks"));
    assert!(exists(&root, "[data-role-note]"));
}
