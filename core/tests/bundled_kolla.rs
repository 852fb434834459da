//! The bundled release handed to kolla-ansible (issue 40): its inventory
//! places each service on the nodes Mosaic's plan puts it on, globals.yml
//! follows the components and networks, and what has no equivalent is
//! refused with every reason.

mod common;

use mosaic_core::component::ComponentName;
use mosaic_core::disks::{Machine, MachineDisk, NodeVolumes, VolumesMetadata};
use mosaic_core::environment::{Base, EnvTab, Environment, Spec};
use mosaic_core::export::{Export, ExportProblemKind as Kind, ExportRefusal, Subject};
use mosaic_core::name::{RoleName, TagName};
use mosaic_core::network::{HolderKey, NetworkConfiguration};
use mosaic_core::release::Release;
use mosaic_core::tag::NodeTags;

const LVM: [&str; 7] = [
    "hypervisor:libvirt:kvm",
    "network:neutron:core:ml2",
    "network:neutron:ml2:ovs",
    "network:neutron:ml2:vlan",
    "storage:block:backend:lvm",
    "storage:object:backend:swift",
    "storage:image:swift",
];

fn node(id: i64, name: &str, roles: &[&str]) -> NodeTags {
    NodeTags {
        id,
        name: Some(name.to_owned()),
        roles: roles.iter().map(|r| RoleName::new(*r).unwrap()).collect(),
        ..NodeTags::default()
    }
}

/// `nodes` given their addresses, the environment exported.
fn export(
    release: &Release,
    components: &[&str],
    mut nodes: Vec<NodeTags>,
) -> Result<Export, ExportRefusal> {
    let tags = Default::default();
    let base = Base {
        release,
        plugins: &[],
        release_tags: &tags,
        release_roles: mosaic_core::role_layer::RoleLayer::none(),
    };
    let spec = |nodes: Vec<NodeTags>, network: Option<NetworkConfiguration>| Spec {
        name: "prod".to_owned(),
        components: Some(
            components
                .iter()
                .map(|c| ComponentName::new(*c).unwrap())
                .collect(),
        ),
        nodes,
        network,
        ..Spec::default()
    };
    let first = spec(nodes.clone(), None);
    let env = Environment::new(base, &first).unwrap();
    let (config, _) = env.network_configuration().unwrap();
    let (addresses, vips) = env.allocation(&config);
    for node in &mut nodes {
        node.addresses = addresses
            .get(&HolderKey::Node(node.id))
            .cloned()
            .unwrap_or_default();
    }
    let placed = spec(nodes, Some(NetworkConfiguration { vips, ..config }));
    let env = Environment::new(base, &placed).unwrap();
    env.export_to("kolla-ansible").unwrap()
}

/// The hosts a group of the inventory lists, in order.
fn group(inventory: &str, name: &str) -> Vec<String> {
    let header = format!("[{name}]");
    inventory
        .lines()
        .skip_while(|l| *l != header)
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect()
}

#[test]
fn rabbitmq_taken_off_one_controller_is_off_it_in_the_inventory() {
    let release = common::bundled::release();
    let mut without = node(2, "ctl-2", &["controller"]);
    without.tags_removed = vec![TagName::new("rabbitmq").unwrap()];
    let nodes = vec![
        node(1, "ctl-1", &["controller"]),
        without,
        node(3, "ctl-3", &["controller"]),
        node(4, "cmp-1", &["compute"]),
        node(5, "cinder-1", &["cinder"]),
    ];
    let export = export(&release, &LVM, nodes).unwrap();
    let inventory = &export.files["inventory"];
    assert_eq!(group(inventory, "control"), ["ctl-1", "ctl-2", "ctl-3"]);
    assert_eq!(group(inventory, "rabbitmq"), ["ctl-1", "ctl-3"]);
    assert_eq!(group(inventory, "compute"), ["cmp-1"]);
    assert_eq!(group(inventory, "storage"), ["cinder-1"]);
    assert!(
        inventory.contains("ctl-1 ansible_host=192.168.0.3\n"),
        "{inventory}"
    );
    assert!(
        inventory.contains("[nova-api:children]\nnova\n"),
        "the series' own groups stay"
    );
    let globals = &export.files["globals.yml"];
    assert!(
        globals.contains("kolla_internal_vip_address: 192.168.0.2"),
        "{globals}"
    );
    assert!(
        globals.contains("enable_cinder_backend_lvm: 'yes'")
            || globals.contains("enable_cinder_backend_lvm: \"yes\"")
            || globals.contains("enable_cinder_backend_lvm: yes"),
        "{globals}"
    );
    assert!(globals.contains("nova_compute_virt_type: kvm"), "{globals}");
    let ml2 = &export.files["config/neutron/ml2_conf.ini"];
    assert!(
        ml2.contains("[ml2_type_vlan]\nnetwork_vlan_ranges = physnet1:1000:1030\n"),
        "{ml2}"
    );
    let host = export.hosts.iter().find(|h| h.name == "ctl-2").unwrap();
    assert!(host.groups.contains(&"mariadb".to_owned()));
    assert!(!host.groups.contains(&"rabbitmq".to_owned()));
    // What the Deploy tab shows of a host: the groups placing it, then the
    // services they bring, a family's written once.
    assert_eq!(
        host.placed,
        [
            "control",
            "network",
            "mariadb",
            "keystone",
            "neutron-server",
            "swift-account-server",
            "swift-container-server",
            "swift-object-server"
        ]
    );
    // The services kolla-ansible runs there: MariaDB, not RabbitMQ, no
    // Cinder volume (LVM's are on the Cinder node) and no iSCSI.
    assert!(host.services.contains(&"mariadb".to_owned()));
    assert!(!host.services.contains(&"rabbitmq".to_owned()));
    assert!(
        !host
            .services
            .iter()
            .any(|s| s == "cinder-volume" || s == "iscsid")
    );
    let services = host.services_summary();
    assert!(
        services.contains("nova (api, scheduler, conductor, novncproxy)"),
        "{services}"
    );
    assert!(
        services.contains("keystone (keystone, ssh, fernet)"),
        "{services}"
    );
    // The tab's name filter: a part of the name, any case.
    assert_eq!(export.hosts_named(" CTL- "), [0, 1, 2]);
    assert_eq!(export.hosts_named("").len(), 5);
    assert!(export.hosts_named("nowhere").is_empty());
    let compute = export.hosts.iter().find(|h| h.name == "cmp-1").unwrap();
    assert_eq!(compute.placed, ["compute"]);
    // kolla-ansible runs nova-compute on `compute` itself, and no
    // Ceilometer agent: Ceilometer is not chosen here (the compute is in
    // the ceilometer-compute and ceilometer-ipmi groups all the same).
    assert_eq!(
        compute.services_summary(),
        "cron, fluentd, kolla-toolbox, nova (libvirt, compute, ssh), neutron-openvswitch-agent, openvswitch (db-server, vswitchd), iscsid"
    );
    assert!(
        export
            .warnings
            .iter()
            .any(|w| w.contains("declare no interfaces")),
        "{:?}",
        export.warnings
    );
}

#[test]
fn what_has_no_equivalent_and_a_bad_host_name_are_refused_together() {
    let release = common::bundled::release();
    let contrail = [
        "hypervisor:libvirt:kvm",
        "network:neutron:core:contrail",
        "storage:block:backend:lvm",
        "storage:object:backend:swift",
        "storage:image:swift",
    ];
    let nodes = vec![
        node(1, "bad name", &["controller"]),
        node(2, "mongo-1", &["mongo"]),
    ];
    let refusal = export(&release, &contrail, nodes).unwrap_err();
    let subjects: Vec<&Subject> = refusal
        .problems
        .iter()
        .filter_map(|p| p.subject.as_ref())
        .collect();
    assert!(
        subjects.contains(&&Subject::Component(
            "network:neutron:core:contrail".to_owned()
        )),
        "{refusal:#?}"
    );
    assert!(subjects.contains(&&Subject::Node(1)), "{refusal:#?}");
    assert!(
        subjects.contains(&&Subject::Role("mongo".to_owned())),
        "{refusal:#?}"
    );
    // Each names the rule it breaks and the tab that fixes it.
    for problem in &refusal.problems {
        let (kind, tab) = match &problem.subject {
            Some(Subject::Component(_)) => (Kind::UnsupportedComponent, EnvTab::Components),
            Some(Subject::Node(_)) => (Kind::HostName, EnvTab::Nodes),
            Some(Subject::Role(_)) => (Kind::UnsupportedRole, EnvTab::Nodes),
            other => panic!("{other:?} in {refusal:#?}"),
        };
        assert_eq!(
            (problem.kind, problem.fixed_on),
            (kind, Some(tab)),
            "{problem:?}"
        );
    }
}

#[test]
fn a_node_without_its_management_address_is_fixed_on_the_networks_tab() {
    let release = common::bundled::release();
    let tags = Default::default();
    let base = Base {
        release: &release,
        plugins: &[],
        release_tags: &tags,
        release_roles: mosaic_core::role_layer::RoleLayer::none(),
    };
    // No addresses given, no VIPs: the node has no management address and
    // the internal VIP cannot be worked out, both the networks' to fix.
    let spec = Spec {
        name: "prod".to_owned(),
        components: Some(
            LVM.iter()
                .map(|c| ComponentName::new(*c).unwrap())
                .collect(),
        ),
        nodes: vec![node(1, "ctl-1", &["controller"])],
        ..Spec::default()
    };
    let env = Environment::new(base, &spec).unwrap();
    let refusal = env.export_to("kolla-ansible").unwrap().unwrap_err();
    let address = refusal
        .problems
        .iter()
        .find(|p| p.message.contains("no management address"))
        .unwrap_or_else(|| panic!("{refusal:#?}"));
    assert_eq!(address.subject, Some(Subject::Node(1)));
    assert_eq!(address.kind, Kind::NoManagementAddress);
    assert_eq!(address.fixed_on, Some(EnvTab::Networks));
    let vip = refusal
        .problems
        .iter()
        .find(|p| p.message.starts_with("kolla_internal_vip_address"))
        .unwrap_or_else(|| panic!("{refusal:#?}"));
    assert_eq!(vip.kind, Kind::Value);
    assert_eq!(vip.fixed_on, Some(EnvTab::Networks));
}

/// `node` with its roles' default layout on `disks` (name, MiB), 8 GiB of
/// memory, images not in Ceph.
fn with_disks(mut node: NodeTags, release: &Release, disks: &[(&str, i64)]) -> NodeTags {
    let meta =
        VolumesMetadata::merged([("release".to_owned(), &release.volumes_metadata)]).unwrap();
    let machine = Machine {
        disks: disks
            .iter()
            .map(|(name, size)| MachineDisk {
                id: (*name).to_owned(),
                name: (*name).to_owned(),
                size: *size,
                extra: Vec::new(),
            })
            .collect(),
        memory: Some(8 << 30),
    };
    let roles: Vec<&str> = node.roles.iter().map(|r| r.as_str()).collect();
    let layout = NodeVolumes {
        meta: &meta,
        roles: &roles,
        images_ceph: false,
    }
    .defaults(&machine);
    node.disks = Some(layout);
    node
}

const GIB: i64 = 1024;

#[test]
fn nodes_short_of_disk_space_are_refused_each_with_fuels_lines() {
    let release = common::bundled::release();
    let nodes = vec![
        with_disks(
            node(1, "ctl-1", &["controller"]),
            &release,
            &[("sda", 200 * GIB)],
        ),
        with_disks(
            node(2, "cmp-1", &["compute"]),
            &release,
            &[("sda", 20 * GIB)],
        ),
        with_disks(
            node(3, "cinder-1", &["cinder"]),
            &release,
            &[("sda", 10 * GIB)],
        ),
        node(4, "cmp-2", &["compute"]),
    ];
    let refusal = export(&release, &LVM, nodes).unwrap_err();
    let disks: Vec<(&Option<Subject>, &str)> = refusal
        .problems
        .iter()
        .filter(|p| p.kind == Kind::DiskSpace && p.fixed_on == Some(EnvTab::Disks))
        .map(|p| (&p.subject, p.message.as_str()))
        .collect();
    // Fuel's check_disk_space_for_deployment, then Fuel 9's line per
    // volume group short of its minimum (SEMANTICS §14).
    assert_eq!(
        disks,
        [
            (
                &Some(Subject::Node(2)),
                "Node 'cmp-1' has insufficient disk space\nVolume group 'Base System' requires a minimum of 23552MB\nVolume group 'Virtual Storage' requires a minimum of 5120MB"
            ),
            (
                &Some(Subject::Node(3)),
                "Node 'cinder-1' has insufficient disk space\nVolume group 'Base System' requires a minimum of 23552MB\nVolume group 'Cinder' requires a minimum of 1536MB"
            ),
        ],
        "{refusal:#?}"
    );
    assert_eq!(refusal.problems.len(), 2, "{refusal:#?}");
    // The answer names the place it is fixed: Configure Disks, opened on
    // the Nodes tab.
    let json = serde_json::to_value(&refusal.problems[0]).unwrap();
    assert_eq!(json["kind"], "disk_space");
    assert_eq!(json["fixed_on"], "disks");
    assert_eq!(json["node"], 2);
    assert_eq!(EnvTab::Disks.label(), "Nodes");
    assert!(!EnvTab::ALL.contains(&EnvTab::Disks));
}

#[test]
fn the_disks_are_handed_to_kolla_ansible_before_bootstrap_servers() {
    let release = common::bundled::release();
    let ctl = |id, name| {
        with_disks(
            node(id, name, &["controller"]),
            &release,
            &[("sda", 200 * GIB)],
        )
    };
    let nodes = vec![
        ctl(1, "ctl-1"),
        ctl(2, "ctl-2"),
        ctl(3, "ctl-3"),
        with_disks(
            node(4, "cmp-1", &["compute"]),
            &release,
            &[("sda", 100 * GIB), ("sdb", 200 * GIB)],
        ),
        with_disks(
            node(5, "cinder-1", &["cinder"]),
            &release,
            &[("sda", 100 * GIB), ("sdb", 100 * GIB)],
        ),
        node(6, "cmp-2", &["compute"]),
    ];
    let export = export(&release, &LVM, nodes).unwrap();
    let vars = |name: &str| &export.hosts.iter().find(|h| h.name == name).unwrap().vars;
    assert_eq!(vars("cinder-1")["cinder_volume_group"], "cinder-volumes");
    assert_eq!(
        vars("cmp-1")["nova_instance_datadir_volume"],
        "/var/lib/nova"
    );
    assert!(!vars("cmp-2").contains_key("nova_instance_datadir_volume"));
    // Images in Swift: Glance's file store is not used, its directory may
    // be each controller's own.
    for ctl in ["ctl-1", "ctl-2", "ctl-3"] {
        assert_eq!(vars(ctl)["mariadb_datadir_volume"], "/var/lib/mysql");
        assert_eq!(vars(ctl)["glance_file_datadir_volume"], "/var/lib/glance");
    }
    let inventory = &export.files["inventory"];
    assert!(
        inventory.contains(" cinder_volume_group=cinder-volumes"),
        "{inventory}"
    );
    let playbook = &export.files["prepare-disks.yml"];
    for host in ["ctl-1:", "ctl-3:", "cmp-1:", "cinder-1:"] {
        assert!(
            playbook.contains(&format!("\n      {host}\n")),
            "{playbook}"
        );
    }
    assert!(!playbook.contains("cmp-2"), "{playbook}");
    let readme = &export.files["README.md"];
    assert!(
        readme.contains("## Before kolla-ansible: the disks"),
        "{readme}"
    );
    assert!(
        readme.contains(
            "kolla-ansible install-deps\nansible-playbook -i inventory prepare-disks.yml"
        ),
        "{readme}"
    );
    assert_eq!(
        export
            .warnings
            .iter()
            .filter(|w| w.contains("disks"))
            .collect::<Vec<_>>(),
        [
            "1 node has no known disks (cmp-2): its volumes are not checked, and prepare-disks.yml prepares nothing there"
        ]
    );
}

#[test]
fn without_a_layout_nothing_is_prepared() {
    let release = common::bundled::release();
    let nodes = vec![
        node(1, "ctl-1", &["controller"]),
        node(2, "cinder-1", &["cinder"]),
    ];
    let export = export(&release, &LVM, nodes).unwrap();
    assert!(!export.files.contains_key("prepare-disks.yml"));
    assert!(!export.files["README.md"].contains("prepare-disks"));
    assert!(
        export
            .warnings
            .iter()
            .any(|w| w.starts_with("2 nodes have no known disks (ctl-1, cinder-1): their volumes")),
        "{:?}",
        export.warnings
    );
}

#[test]
fn with_glances_file_back_end_its_datadir_stays_kollas_own() {
    let release = common::bundled::release();
    let components = [
        "hypervisor:libvirt:kvm",
        "network:neutron:core:ml2",
        "network:neutron:ml2:ovs",
        "network:neutron:ml2:vlan",
        "storage:block:backend:lvm",
    ];
    let nodes = vec![
        with_disks(
            node(1, "ctl-1", &["controller"]),
            &release,
            &[("sda", 200 * GIB)],
        ),
        with_disks(
            node(2, "ctl-2", &["controller"]),
            &release,
            &[("sda", 200 * GIB)],
        ),
    ];
    let export = export(&release, &components, nodes).unwrap();
    let host = &export.hosts[0];
    assert_eq!(host.vars["mariadb_datadir_volume"], "/var/lib/mysql");
    assert!(
        !host.vars.contains_key("glance_file_datadir_volume"),
        "{host:?}"
    );
    assert!(
        export.warnings.iter().any(|w| w.starts_with(
            "glance_file_datadir_volume is not set for the Image Storage made on ctl-1, ctl-2 (/var/lib/glance): with Glance's file back end"
        )),
        "{:?}",
        export.warnings
    );
    // The volume is made and mounted all the same.
    assert!(export.files["prepare-disks.yml"].contains("mount: /var/lib/glance"));
}

/// A service is gated on the global kolla-ansible gates it on
/// (`enabled_by`): the global's value decides, not a copy of its
/// condition; a global that is no boolean cannot gate.
#[test]
fn a_service_runs_when_the_global_enabling_it_is_true() {
    use mosaic_core::deployer::Expression;
    let nodes = || {
        vec![
            node(1, "ctl-1", &["controller"]),
            node(2, "cmp-1", &["compute"]),
            node(3, "cinder-1", &["cinder"]),
        ]
    };
    let runs = |export: &Export, host: &str, service: &str| {
        let host = export.hosts.iter().find(|h| h.name == host).unwrap();
        host.services.iter().any(|s| s == service)
    };
    let mut release = common::bundled::release();
    let export_with = |release: &Release| export(release, &LVM, nodes());
    let shipped = export_with(&release).unwrap();
    assert!(runs(&shipped, "ctl-1", "cinder-api"));
    assert!(runs(&shipped, "cinder-1", "tgtd"));

    let kolla = &mut release.deployers_metadata.0[0];
    let at = kolla.globals.iter().position(|g| g.name == "enable_cinder");
    kolla.globals[at.unwrap()].value = Some(Expression::parse("false").unwrap());
    let off = export_with(&release).unwrap();
    assert!(!runs(&off, "ctl-1", "cinder-api"));
    assert!(!runs(&off, "cinder-1", "cinder-volume"));
    assert!(
        runs(&off, "cinder-1", "tgtd"),
        "tgtd follows its own global"
    );
    let globals = &off.files["globals.yml"];
    assert!(globals.contains("enable_cinder: \"no\"\n"), "{globals}");

    let kolla = &mut release.deployers_metadata.0[0];
    let service = kolla
        .services
        .iter_mut()
        .find(|s| s.service == "tgtd")
        .unwrap();
    service.enabled_by = Some("kolla_base_distro".to_owned());
    let refusal = export_with(&release).unwrap_err();
    let problem = &refusal.problems[0];
    assert_eq!(problem.kind, Kind::Condition);
    assert_eq!(
        problem.message,
        "service 'tgtd': its condition cannot be evaluated: global 'kolla_base_distro' enabling it is \"ubuntu\", not a boolean"
    );
}
