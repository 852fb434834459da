//! The bundled release's networks (issue 39): Fuel's networks and network
//! roles, the defaults a VLAN and a tunnelling environment get, the
//! baremetal network only with Ironic, addresses for three controllers and
//! two computes, and the environment's checks clean on the defaults.

mod common;

use mosaic_core::component::ComponentName;
use mosaic_core::environment::{Base, Environment, Spec};
use mosaic_core::name::RoleName;
use mosaic_core::network::{HolderKey, NetworkConfiguration, ProblemKind};
use mosaic_core::release::Release;
use mosaic_core::tag::NodeTags;

const VLAN: [&str; 6] = [
    "hypervisor:libvirt:kvm",
    "network:neutron:core:ml2",
    "network:neutron:ml2:ovs",
    "network:neutron:ml2:vlan",
    "storage:block:backend:lvm",
    "storage:object:backend:swift",
];

fn spec(components: &[&str], nodes: Vec<NodeTags>) -> Spec {
    Spec {
        name: "env".to_owned(),
        components: Some(
            components
                .iter()
                .map(|c| ComponentName::new(*c).unwrap())
                .collect(),
        ),
        nodes,
        ..Spec::default()
    }
}

fn node(id: i64, role: &str) -> NodeTags {
    NodeTags {
        id,
        name: Some(format!("node-{id}")),
        roles: vec![RoleName::new(role).unwrap()],
        ..NodeTags::default()
    }
}

fn with_env<T>(release: &Release, spec: &Spec, f: impl FnOnce(&Environment<'_>) -> T) -> T {
    let tags = Default::default();
    let base = Base {
        release,
        plugins: &[],
        release_tags: &tags,
        release_roles: mosaic_core::role_layer::RoleLayer::none(),
    };
    f(&Environment::new(base, spec).unwrap())
}

fn names(config: &NetworkConfiguration) -> Vec<&str> {
    config.networks.iter().map(|n| n.name.as_str()).collect()
}

#[test]
fn a_vlan_environment_gets_fuels_networks_with_a_private_network_without_l3() {
    let release = common::bundled::release();
    with_env(&release, &spec(&VLAN, vec![]), |env| {
        let (config, _) = env.network_configuration().unwrap();
        assert_eq!(
            names(&config),
            [
                "fuelweb_admin",
                "public",
                "management",
                "storage",
                "private"
            ]
        );
        let private = config
            .networks
            .iter()
            .find(|n| n.name == "private")
            .unwrap();
        assert_eq!(private.cidr, None);
        let p = &config.networking_parameters;
        assert_eq!(serde_json::to_value(p.segmentation_type).unwrap(), "vlan");
        assert_eq!(p.vlan_range, Some([1000, 1030]));
        assert_eq!(env.network_problems(&config, true), vec![]);
        let read = |path: &str| {
            mosaic_core::expr::Expr::parse(path)
                .unwrap()
                .eval(env.models())
                .unwrap()
                .to_json()
        };
        assert_eq!(read("networking_parameters:segmentation_type"), "vlan");
        assert_eq!(read("networking_parameters:base_mac"), "fa:16:3e:00:00:00");
    });
}

#[test]
fn tunnelling_gives_the_private_network_an_address_space_and_ironic_brings_baremetal() {
    let release = common::bundled::release();
    let tun = VLAN.map(|c| c.replace(":vlan", ":tun"));
    let tun: Vec<&str> = tun.iter().map(String::as_str).collect();
    with_env(&release, &spec(&tun, vec![]), |env| {
        let (config, _) = env.network_configuration().unwrap();
        let private = config
            .networks
            .iter()
            .find(|n| n.name == "private")
            .unwrap();
        assert_eq!(private.cidr.as_ref().unwrap().to_string(), "192.168.2.0/24");
        assert_eq!(private.vlan_start, Some(103));
        assert!(!names(&config).contains(&"baremetal"));
    });
    // Ironic brings the baremetal network with either segmentation.
    for segmentation in [VLAN.to_vec(), tun.clone()] {
        let mut ironic = segmentation;
        ironic.push("additional_service:ironic");
        with_env(&release, &spec(&ironic, vec![]), |env| {
            assert_eq!(env.selection_violations(), vec![]);
            let (config, _) = env.network_configuration().unwrap();
            assert!(names(&config).contains(&"baremetal"));
            assert!(config.networking_parameters.baremetal_range.is_some());
            assert!(env.vips().iter().any(|v| v.name == "baremetal"));
            assert_eq!(env.network_problems(&config, true), vec![]);
        });
    }
}

#[test]
fn three_controllers_and_two_computes_get_addresses_controllers_public_ones() {
    let release = common::bundled::release();
    let nodes = vec![
        node(1, "controller"),
        node(2, "controller"),
        node(3, "controller"),
        node(4, "compute"),
        node(5, "compute"),
    ];
    with_env(&release, &spec(&VLAN, nodes), |env| {
        let (config, _) = env.network_configuration().unwrap();
        let (addresses, vips) = env.allocation(&config);
        assert_eq!(env.network_problems(&config, true), vec![]);
        let of = |id: i64| addresses[&HolderKey::Node(id)].clone();
        assert_eq!(
            of(1).keys().collect::<Vec<_>>(),
            ["management", "public", "storage"]
        );
        assert_eq!(of(4).keys().collect::<Vec<_>>(), ["management", "storage"]);
        // VIPs come first: management's two, then the nodes.
        assert_eq!(vips["management"].ipaddr.to_string(), "192.168.0.2");
        assert_eq!(vips["vrouter"].ipaddr.to_string(), "192.168.0.1");
        assert_eq!(of(1)["management"].to_string(), "192.168.0.3");
        assert_eq!(vips["public"].ipaddr.to_string(), "172.16.0.3");
        assert_eq!(of(3)["public"].to_string(), "172.16.0.6");
        let config = NetworkConfiguration { vips, ..config };
        let view = env.configuration_view(&config, &Default::default());
        assert_eq!(
            view.aliases["management_vip"].unwrap().to_string(),
            "192.168.0.2"
        );
        let public = view
            .networks
            .iter()
            .find(|n| n.network.name == "public")
            .unwrap();
        assert_eq!(
            (public.need, public.capacity),
            (5, 125),
            "three controllers and two VIPs"
        );
        // The release's own keys (Fuel's render hints) are not flattened
        // into the answer's `meta`; the keys Mosaic reads are.
        let answer = serde_json::to_value(public).unwrap();
        assert_eq!(answer["meta"]["notation"], "ip_ranges");
        assert!(answer["meta"].get("render_addr_mask").is_none(), "{answer}");
    });
}

#[test]
fn the_browser_checks_a_draft_from_the_answer_alone() {
    let release = common::bundled::release();
    with_env(&release, &spec(&VLAN, vec![node(1, "controller")]), |env| {
        let (config, _) = env.network_configuration().unwrap();
        let view = env.configuration_view(&config, &Default::default());
        let storage = config
            .networks
            .iter()
            .find(|n| n.name == "storage")
            .unwrap()
            .id;
        let change: mosaic_core::network::ConfigurationChange = serde_json::from_value(
            serde_json::json!({"networks": [{"id": storage, "cidr": "192.168.0.0/24"}]}),
        )
        .unwrap();
        let problems = view.check_change(&change).unwrap_err();
        assert_eq!(
            problems[0].message,
            "Address space intersection between networks:\nmanagement, storage"
        );
        // The server's check of the same draft says the same.
        let server = env.changed_networks(&change).unwrap_err();
        assert_eq!(server, problems);
        let fixed: mosaic_core::network::ConfigurationChange = serde_json::from_value(
            serde_json::json!({"networks": [{"id": storage, "cidr": "10.0.0.0/24"}]}),
        )
        .unwrap();
        assert!(view.check_change(&fixed).is_ok());
    });
}

#[test]
fn networking_parameters_that_do_not_read_are_the_releases_problem() {
    let mut release = common::bundled::release();
    release
        .networks_metadata
        .neutron
        .config
        .insert("vlan_range".to_owned(), serde_json::json!("wide"));
    with_env(&release, &spec(&VLAN, vec![node(1, "controller")]), |env| {
        let error = env.network_configuration().unwrap_err();
        assert_eq!(error.release, release.source());
        // A save is refused for the release's data, not for what it sends.
        let problems = env.changed_networks(&Default::default()).unwrap_err();
        let kinds: Vec<ProblemKind> = problems.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, [ProblemKind::ReleaseData]);
        // The export names the release and no tab of the environment.
        let refusal = env.export_to("kolla-ansible").unwrap().unwrap_err();
        assert_eq!(refusal.problems.len(), 1, "{refusal:#?}");
        assert_eq!(refusal.problems[0].fixed_on, None);
        assert_eq!(refusal.problems[0].subject, None);
        assert_eq!(refusal.problems[0].message, error.to_string());
        assert!(error.to_string().starts_with(&release.source()), "{error}");
    });
}

#[test]
fn a_nodes_networks_and_its_addresses_follow_one_public_address_rule() {
    let release = common::bundled::release();
    let nodes = vec![node(1, "controller"), node(2, "compute")];
    with_env(&release, &spec(&VLAN, nodes.clone()), |env| {
        // Worked out once, then kept with the environment.
        assert!(std::ptr::eq(env.network_context(), env.network_context()));
        let (config, _) = env.network_configuration().unwrap();
        let addressing = env.addressing(&config);
        for node in &nodes {
            let on: Vec<String> = env
                .node_networks(&config, node)
                .iter()
                .map(|(n, _)| n.name.to_string())
                .collect();
            let needs: Vec<String> = addressing
                .needs(node)
                .iter()
                .map(|n| n.network.to_string())
                .collect();
            let public = node.roles[0].as_str() == "controller";
            assert_eq!(on.contains(&"public".to_owned()), public, "{on:?}");
            assert_eq!(needs.contains(&"public".to_owned()), public, "{needs:?}");
            // Every network it needs an address on is one it is on.
            assert!(needs.iter().all(|n| on.contains(n)), "{needs:?} {on:?}");
        }
    });
}
