//! The Networks tab's form: which fields it shows, typed text read into
//! the change a save sends, what is no value, and edits that outlive a
//! configuration loaded again.

use std::collections::BTreeMap;

use serde_json::json;

use super::*;
use crate::name::NetworkName;
use crate::network::check::tests::{applying, configuration, groups, metas};
use crate::network::config::NetworkChange;
use crate::network::ip::Typed;
use crate::network::metadata::Segmentation;
use crate::network::view::{ConfigurationView, NetworkView};

/// The view of a default configuration of `count` node groups.
fn view(count: i64, segmentation: Segmentation, ironic: bool) -> ConfigurationView {
    let all = metas();
    let metas = applying(&all, segmentation, ironic);
    let groups = groups(count);
    let config = configuration(&metas, &groups, ironic);
    let meta = |name: &NetworkName| (*metas.iter().find(|m| &m.name == name).unwrap()).clone();
    ConfigurationView {
        networks: config
            .networks
            .iter()
            .map(|n| NetworkView {
                network: n.clone(),
                meta: meta(&n.name).into(),
                capacity: 253,
                need: 3,
                used: 3,
            })
            .collect(),
        networking_parameters: config.networking_parameters.clone(),
        vips: BTreeMap::new(),
        node_groups: groups,
        aliases: BTreeMap::new(),
    }
}

fn id(view: &ConfigurationView, name: &str, group: i64) -> i64 {
    view.networks
        .iter()
        .find(|n| n.network.name == name && n.network.group_id == Some(group))
        .unwrap()
        .network
        .id
}

fn keys<'a>(fields: impl Iterator<Item = &'a Field>) -> Vec<&'static str> {
    fields.map(|f| f.key).collect()
}

fn one(text: &str) -> Edit {
    Edit::One(text.to_owned())
}

#[test]
fn each_network_shows_its_fields_and_neutron_those_of_its_segmentation() {
    let v = view(1, Segmentation::Vlan, false);
    let form = NetworksForm::of(&v);
    let admin = v.networks[0].network.id;
    let all = ["cidr", "gateway", "vlan_start", "ip_ranges"];
    assert_eq!(keys(form.of_network(admin)), all);
    assert_eq!(keys(form.of_network(id(&v, "public", 1))), all);
    // Under notation `cidr` the ranges follow the CIDR: no field of their own.
    let management = id(&v, "management", 1);
    assert_eq!(
        keys(form.of_network(management)),
        ["cidr", "gateway", "vlan_start"]
    );
    // VLAN segmentation's private network has no L3: its VLANs are Neutron's.
    assert_eq!(keys(form.of_network(id(&v, "private", 1))), [] as [&str; 0]);
    assert_eq!(
        keys(form.of_section(Section::NeutronL2)),
        ["vlan_range", "base_mac"]
    );
    assert_eq!(
        keys(form.of_section(Section::NeutronL3)),
        [
            "internal_cidr",
            "internal_gateway",
            "internal_name",
            "floating_ranges",
            "floating_name",
            "dns_nameservers"
        ]
    );
    assert_eq!(form.of_section(Section::Ironic).count(), 0);
    let text = |at| form.text(&Edits::default(), at);
    assert_eq!(
        text((Some(management), "cidr")),
        Text::One("192.168.0.0/24".into())
    );
    assert_eq!(
        text((Some(management), "vlan_start")),
        Text::One("101".into())
    );
    assert_eq!(
        text((Some(management), "gateway")),
        Text::One(String::new())
    );
    assert_eq!(
        text((Some(id(&v, "public", 1)), "ip_ranges")),
        Text::Pairs(vec![["172.16.0.2".into(), "172.16.0.126".into()]])
    );
    assert_eq!(
        text((None, "vlan_range")),
        Text::Pair(["1000".into(), "1030".into()])
    );
    assert_eq!(
        text((None, "dns_nameservers")),
        Text::List(vec!["8.8.4.4".into(), "8.8.8.8".into()])
    );

    let tun = NetworksForm::of(&view(1, Segmentation::Tun, true));
    assert_eq!(
        keys(tun.of_section(Section::NeutronL2)),
        ["gre_id_range", "base_mac"]
    );
    assert_eq!(
        keys(tun.of_section(Section::Ironic)),
        ["baremetal_range", "baremetal_gateway"]
    );
}

#[test]
fn typed_text_is_the_change_of_the_fields_that_changed() {
    let v = view(1, Segmentation::Vlan, false);
    let form = NetworksForm::of(&v);
    let storage = id(&v, "storage", 1);
    let public = id(&v, "public", 1);
    let mut edits = Edits::default();
    form.edit(&mut edits, (Some(storage), "cidr"), one(" 192.168.5.0/24"));
    form.edit(&mut edits, (Some(storage), "vlan_start"), one(""));
    form.edit(
        &mut edits,
        (Some(public), "ip_ranges"),
        Edit::End {
            row: 0,
            end: 1,
            text: "172.16.0.100".into(),
        },
    );
    form.edit(
        &mut edits,
        (None, "vlan_range"),
        Edit::End {
            row: 0,
            end: 1,
            text: "1040".into(),
        },
    );
    form.edit(&mut edits, (None, "dns_nameservers"), Edit::RemoveRow(0));
    assert_eq!(form.unsaved(&edits), 5);
    let (change, problems) = form.change(&edits);
    assert!(problems.is_empty(), "{problems:?}");
    let range = |a: &str, b: &str| RangeField(Typed::parse(a), Typed::parse(b));
    assert_eq!(
        change.networks,
        [
            NetworkChange {
                id: public,
                ip_ranges: Some(vec![range("172.16.0.2", "172.16.0.100")]),
                ..NetworkChange::default()
            },
            NetworkChange {
                id: storage,
                cidr: Some(Some(Typed::parse("192.168.5.0/24"))),
                vlan_start: Some(None),
                ..NetworkChange::default()
            },
        ]
    );
    assert_eq!(
        serde_json::to_value(&change.networking_parameters).unwrap(),
        json!({"vlan_range": [1000, 1040], "dns_nameservers": ["8.8.8.8"]})
    );
    // Typed back to what was loaded: no edit, nothing to save.
    form.edit(&mut edits, (Some(storage), "vlan_start"), one("102"));
    assert_eq!(form.unsaved(&edits), 4);
    // A blank range or item is none; a row added stays as typed.
    form.edit(&mut edits, (Some(public), "ip_ranges"), Edit::AddRow);
    assert_eq!(form.text(&edits, (Some(public), "ip_ranges")).rows(), 2);
    let (change, _) = form.change(&edits);
    assert_eq!(change.networks[0].ip_ranges.as_ref().map(Vec::len), Some(1));
}

#[test]
fn text_that_is_no_value_is_a_problem_of_its_field() {
    let v = view(1, Segmentation::Vlan, false);
    let form = NetworksForm::of(&v);
    let storage = id(&v, "storage", 1);
    let public = id(&v, "public", 1);
    let mut edits = Edits::default();
    form.edit(&mut edits, (Some(storage), "vlan_start"), one("1o2"));
    form.edit(
        &mut edits,
        (Some(public), "ip_ranges"),
        Edit::End {
            row: 0,
            end: 1,
            text: " ".into(),
        },
    );
    form.edit(
        &mut edits,
        (None, "vlan_range"),
        Edit::End {
            row: 0,
            end: 0,
            text: "a thousand".into(),
        },
    );
    let check = v.check_form(&form, &edits);
    let messages: Vec<(&str, &[String], &[i64])> = check
        .problems
        .iter()
        .map(|p| (p.message.as_str(), &p.fields[..], &p.networks[..]))
        .collect();
    assert_eq!(
        messages,
        [
            (
                "IP ranges: give the first and the last value of a range.",
                &["ip_ranges".to_owned()][..],
                &[public][..]
            ),
            (
                "VLAN tag: '1o2' is not a whole number.",
                &["vlan_start".to_owned()][..],
                &[storage][..]
            ),
            (
                "VLAN ID range: 'a thousand' is not a whole number.",
                &["vlan_range".to_owned()][..],
                &[][..]
            ),
        ]
    );
    // What cannot be read is left as it was in the change.
    assert!(check.change.networks.is_empty());
    assert_eq!(check.at((Some(storage), "vlan_start")).count(), 1);
    assert_eq!(check.at((None, "vlan_range")).count(), 1);
    assert_eq!(check.at((Some(storage), "cidr")).count(), 0);
}

#[test]
fn an_overlapping_cidr_is_flagged_at_both_networks_and_a_fixed_one_is_clean() {
    let v = view(1, Segmentation::Vlan, false);
    let form = NetworksForm::of(&v);
    let storage = id(&v, "storage", 1);
    let management = id(&v, "management", 1);
    let mut edits = Edits::default();
    form.edit(&mut edits, (Some(storage), "cidr"), one("192.168.0.0/24"));
    let check = v.check_form(&form, &edits);
    assert_eq!(check.problems.len(), 1, "{:?}", check.problems);
    assert_eq!(
        check.problems[0].kind,
        ProblemKind::AddressSpaceIntersection
    );
    assert_eq!(check.at((Some(storage), "cidr")).count(), 1);
    assert_eq!(check.at((Some(management), "cidr")).count(), 1);
    assert_eq!(check.at((Some(storage), "gateway")).count(), 0);
    assert_eq!(check.of_network(management).count(), 1);
    assert_eq!(
        v.describe(&check.problems),
        ["management, storage: Address space intersection between networks:\nmanagement, storage"]
    );
    form.edit(&mut edits, (Some(storage), "cidr"), one("192.168.5.0/24"));
    let check = v.check_form(&form, &edits);
    assert_eq!(check.problems, []);
    assert_eq!(check.change.networks.len(), 1);
}

#[test]
fn a_parameters_problem_is_at_its_field_and_racks_are_named() {
    let v = view(2, Segmentation::Vlan, false);
    let form = NetworksForm::of(&v);
    let mut edits = Edits::default();
    form.edit(
        &mut edits,
        (None, "floating_ranges"),
        Edit::End {
            row: 0,
            end: 0,
            text: "10.9.0.1".into(),
        },
    );
    let rack = id(&v, "storage", 2);
    form.edit(&mut edits, (Some(rack), "gateway"), one(""));
    let check = v.check_form(&form, &edits);
    assert!(
        check.at((None, "floating_ranges")).count() >= 1,
        "{check:?}"
    );
    let missing = check
        .problems
        .iter()
        .find(|p| p.kind == ProblemKind::GatewayMissing)
        .unwrap();
    assert_eq!(
        v.describe(std::slice::from_ref(missing)),
        ["storage (node group rack-2): Gateway is not set for network."]
    );
}

#[test]
fn edits_outlive_a_configuration_loaded_again() {
    let one_group = view(1, Segmentation::Vlan, false);
    let two_groups = view(2, Segmentation::Vlan, false);
    let before = NetworksForm::of(&one_group);
    let after = NetworksForm::of(&two_groups);
    let storage = id(&one_group, "storage", 1);
    assert_eq!(storage, id(&two_groups, "storage", 1), "ids stay");
    let mut edits = Edits::default();
    before.edit(&mut edits, (Some(storage), "cidr"), one("192.168.5.0/24"));
    assert_eq!(
        after.text(&edits, (Some(storage), "cidr")),
        Text::One("192.168.5.0/24".into())
    );
    // An edit of a network the configuration no longer has is not counted.
    let rack = id(&two_groups, "storage", 2);
    after.edit(&mut edits, (Some(rack), "cidr"), one("10.1.0.0/24"));
    assert_eq!(after.unsaved(&edits), 2);
    assert_eq!(before.unsaved(&edits), 1);
    assert_eq!(before.change(&edits).0.networks.len(), 1);
}

#[test]
fn a_network_that_is_not_configurable_is_not_edited() {
    let mut v = view(1, Segmentation::Vlan, false);
    let storage = id(&v, "storage", 1);
    for n in v.networks.iter_mut().filter(|n| n.network.id == storage) {
        let mut meta = (*n.meta).clone();
        meta.configurable = false;
        n.meta = meta.into();
    }
    let form = NetworksForm::of(&v);
    assert!(form.of_network(storage).all(|f| !f.editable));
    let mut edits = Edits::default();
    form.edit(&mut edits, (Some(storage), "cidr"), one("10.0.0.0/24"));
    assert!(edits.is_empty());
    // An edit of another shape than the field's changes nothing.
    form.edit(&mut edits, (None, "base_mac"), Edit::AddRow);
    assert!(edits.is_empty());
}

#[test]
fn text_that_is_no_value_says_why_as_data() {
    let field = |kind| Field {
        owner: None,
        key: "vlan_range",
        label: "VLAN ID range",
        section: Section::NeutronL2,
        kind,
        editable: true,
        text: Text::One(String::new()),
    };
    let pair = |a: &str, b: &str| Text::Pair([a.to_owned(), b.to_owned()]);
    assert_eq!(
        read(&field(Kind::Number), &pair("1o2", "3")),
        Err(Unreadable::NotANumber {
            label: "VLAN ID range",
            text: "1o2".to_owned()
        })
    );
    assert_eq!(
        read(&field(Kind::Address), &pair("10.0.0.1", " ")),
        Err(Unreadable::HalfRange {
            label: "VLAN ID range"
        })
    );
    assert_eq!(
        read(&field(Kind::Number), &pair("1", "2")),
        Ok(json!([1, 2]))
    );
}
