use serde_json::json;

use super::*;
use crate::name::TagName;
use crate::plugin::{MemoryFiles, load};
use crate::restriction::{Restriction, evaluate_with};
use crate::tag::TagMeta;
use crate::task::PlanErrorKind;

const RELEASE: &str = "name: mini
title: Mini
version: '1.0.0'
package_version: '5.0.0'
description: A small release.
licenses: [Apache]
authors: [Me]
homepage: https://example.org
releases:
  - is_release: true
    release_name: mini
    description: Mini.
    operating_system: Ubuntu
    version: '2024.1'
    components_path: components.yaml
    roles_path: roles.yaml
    attributes_path: attributes.yaml
    graphs:
      - {type: default, tasks_path: tasks.yaml}
";

const COMPONENTS: &str = "
- name: hypervisor:kvm
  default: true
  bind: [['settings:common.libvirt.value', kvm]]
- name: network:neutron:core:ml2
  default: true
  requires: [{one_of: {items: ['network:neutron:ml2:vlan', 'network:neutron:ml2:tun']}}]
- name: network:neutron:ml2:vlan
  default: true
  bind: !!pairs
    - 'cluster:net_segment_type': vlan
  requires: [{name: 'network:neutron:core:ml2'}]
- name: network:neutron:ml2:tun
  bind: !!pairs
    - 'cluster:net_segment_type': tun
  requires: [{name: 'network:neutron:core:ml2'}]
- name: storage:block:lvm
  default: true
  bind: ['settings:storage.volumes_lvm.value']
  incompatible: [{name: 'storage:block:ceph'}]
- name: storage:block:ceph
  bind: ['settings:storage.volumes_ceph.value']
- name: additional_service:ceilometer
  bind: ['settings:additional.ceilometer.value']
";

const ATTRIBUTES: &str = "
editable:
  common:
    metadata: {label: Common, weight: 10}
    libvirt:
      type: radio
      value: qemu
      values: [{data: kvm, label: KVM}, {data: qemu, label: QEMU}]
    vlan_only:
      type: checkbox
      value: false
      restrictions: [\"networking_parameters:segmentation_type != 'vlan'\"]
  storage:
    metadata: {label: Storage, weight: 20}
    volumes_lvm:
      type: checkbox
      value: false
      restrictions:
        - {condition: 'settings:storage.volumes_ceph.value == true', message: LVM and Ceph cannot share volumes.}
    volumes_ceph: {type: checkbox, value: false}
  additional:
    metadata: {label: Additional, weight: 30}
    ceilometer: {type: checkbox, value: false}
";

const ROLES: &str = "
controller:
  name: Controller
  description: c
  tags: [controller, database]
  has_primary: true
  conflicts: [ceph-osd]
  limits:
    overrides:
      - condition: \"cluster:mode == 'multinode'\"
        max: 1
        message: Multi-node environments can not have more than 1 controller node.
cinder:
  name: Cinder
  description: c
  limits: {max: 2}
  restrictions:
    - condition: settings:storage.volumes_lvm.value == false
      message: Cinder LVM should be enabled in the environment settings.
ceph-osd:
  name: Ceph OSD
  description: c
  restrictions:
    - condition: settings:storage.volumes_ceph.value == false
      message: Ceph should be enabled in the environment settings.
";

const TASKS: &str = "
- {id: deploy_start, type: stage}
- {id: globals, type: shell, tags: ['*'], requires: [deploy_start], parameters: {cmd: x}}
- {id: cinder-volume, type: shell, tags: [cinder], requires: [globals], parameters: {cmd: x},
   condition: 'settings:storage.volumes_lvm.value == true'}
- {id: ceph-osd, type: shell, tags: [ceph-osd], requires: [globals], parameters: {cmd: x},
   condition: {yaql_exp: '$.storage.volumes_ceph'}}
- {id: telemetry, type: shell, tags: [controller], requires: [globals], parameters: {cmd: x},
   condition: 'settings:additional.ceilometer.value'}
";

fn extension(name: &str, extra: &[(&str, &str)]) -> Package {
    let metadata = format!(
        "name: {name}\ntitle: {name} title\nversion: '1.0.0'\npackage_version: '5.0.0'\n\
         description: d\nlicenses: [Apache]\nauthors: [Me]\nhomepage: https://example.org\n\
         releases:\n  - {{os: ubuntu, version: '2024.1', deployment_scripts_path: deployment_scripts/, \
         repository_path: repositories/ubuntu}}\n"
    );
    let mut files: MemoryFiles = [
        ("metadata.yaml", metadata.as_str()),
        ("deployment_scripts/", ""),
        ("repositories/ubuntu/", ""),
    ]
    .into_iter()
    .collect();
    for (path, text) in extra {
        files.insert(path, *text);
    }
    let loaded = load(&files);
    loaded
        .package
        .unwrap_or_else(|| panic!("{}", loaded.report))
}

struct Fixture {
    release: Release,
    contrail: Package,
    extras: Package,
}

fn fixture() -> Fixture {
    let files: MemoryFiles = [
        ("metadata.yaml", RELEASE),
        ("components.yaml", COMPONENTS),
        ("attributes.yaml", ATTRIBUTES),
        ("roles.yaml", ROLES),
        ("tasks.yaml", TASKS),
    ]
    .into_iter()
    .collect();
    let loaded = load(&files);
    let package = loaded
        .package
        .unwrap_or_else(|| panic!("{}", loaded.report));
    let contrail = extension(
        "contrail",
        &[
            ("components.yaml", "- name: network:neutron:core:contrail\n"),
            (
                "node_roles.yaml",
                "contrail-controller: {name: Contrail, description: c}\n",
            ),
            (
                "deployment_tasks.yaml",
                "- {id: contrail-install, type: shell, tags: [contrail-controller], parameters: {cmd: x}}\n",
            ),
            (
                "environment_config.yaml",
                "attributes:\n  asn: {type: text, label: ASN, value: '64512', weight: 10, regex: {source: '^[0-9]+$', error: Invalid AS number}}\n",
            ),
        ],
    );
    let extras = extension(
        "extras",
        &[(
            "node_roles.yaml",
            "extra-node: {name: Extra, description: e}\n",
        )],
    );
    Fixture {
        release: package.releases().next().unwrap().clone(),
        contrail,
        extras,
    }
}

fn node(id: i64, name: &str, roles: &[&str]) -> NodeTags {
    NodeTags {
        id,
        name: Some(name.to_owned()),
        roles: roles.iter().map(|r| RoleName::new(*r).unwrap()).collect(),
        ..NodeTags::default()
    }
}

fn spec(components: &[&str], edits: serde_json::Value, nodes: Vec<NodeTags>) -> Spec {
    Spec {
        name: "env".to_owned(),
        components: Some(
            components
                .iter()
                .map(|c| ComponentName::new(*c).unwrap())
                .collect(),
        ),
        edits: edits.as_object().cloned().unwrap_or_default(),
        nodes,
        ..Spec::default()
    }
}

const CEPH: [&str; 4] = [
    "hypervisor:kvm",
    "network:neutron:core:ml2",
    "network:neutron:ml2:vlan",
    "storage:block:ceph",
];
const LVM: [&str; 4] = [
    "hypervisor:kvm",
    "network:neutron:core:ml2",
    "network:neutron:ml2:vlan",
    "storage:block:lvm",
];
/// A core of a plugin that binds no segmentation.
const CONTRAIL: [&str; 3] = [
    "hypervisor:kvm",
    "network:neutron:core:contrail",
    "storage:block:lvm",
];

fn with<R>(f: &Fixture, spec: &Spec, check: impl FnOnce(&Environment<'_>) -> R) -> R {
    let plugins = [f.contrail.clone(), f.extras.clone()];
    let tags = TagsMetadata::new();
    let env = Environment::new(
        Base {
            release: &f.release,
            plugins: &plugins,
            release_tags: &tags,
            release_roles: crate::role_layer::RoleLayer::none(),
        },
        spec,
    )
    .unwrap();
    check(&env)
}

fn role_messages(env: &Environment<'_>, roles: &[&str]) -> Vec<String> {
    let roles: Vec<RoleName> = roles.iter().map(|r| RoleName::new(*r).unwrap()).collect();
    env.role_errors(&roles)
        .into_iter()
        .map(|e| e.message)
        .collect()
}

#[test]
fn the_wizards_choices_reach_the_settings_and_the_roles() {
    let f = fixture();
    with(&f, &spec(&CEPH, json!({}), vec![]), |env| {
        assert_eq!(
            env.settings().value("storage", "volumes_ceph"),
            Some(&json!(true))
        );
        assert_eq!(
            env.settings().value("storage", "volumes_lvm"),
            Some(&json!(false))
        );
        assert_eq!(
            env.settings().value("common", "libvirt"),
            Some(&json!("kvm"))
        );
        assert_eq!(env.context().cluster["net_segment_type"], "vlan");
        assert_eq!(
            env.context().networking_parameters["segmentation_type"],
            "vlan"
        );
        assert_eq!(env.evaluation().problems, []);
        assert_eq!(role_messages(env, &["ceph-osd"]), Vec::<String>::new());
        assert_eq!(
            role_messages(env, &["cinder"]),
            ["Cinder LVM should be enabled in the environment settings."]
        );
    });
    with(&f, &spec(&LVM, json!({}), vec![]), |env| {
        assert_eq!(
            role_messages(env, &["ceph-osd"]),
            ["Ceph should be enabled in the environment settings."]
        );
    });
}

#[test]
fn a_selection_from_before_the_segmentation_reads_as_the_default() {
    let f = fixture();
    let before = [
        "hypervisor:kvm",
        "network:neutron:core:ml2",
        "storage:block:lvm",
    ];
    with(&f, &spec(&before, json!({}), vec![]), |env| {
        assert_eq!(env.selection_violations(), []);
        let names: Vec<String> = env.selected_names().iter().map(|n| n.to_string()).collect();
        assert!(
            names.contains(&"network:neutron:ml2:vlan".to_owned()),
            "{names:?}"
        );
        assert_eq!(
            env.context().networking_parameters["segmentation_type"],
            "vlan"
        );
    });
    // A choice made is kept: tunnelling stays tunnelling.
    let tun = [
        "hypervisor:kvm",
        "network:neutron:core:ml2",
        "network:neutron:ml2:tun",
        "storage:block:lvm",
    ];
    with(&f, &spec(&tun, json!({}), vec![]), |env| {
        assert_eq!(env.selection_violations(), []);
        assert_eq!(env.context().cluster["net_segment_type"], "tun");
    });
}

#[test]
fn a_file_whose_settings_contradict_its_components_cannot_be_imported() {
    let f = fixture();
    let edits = json!({"storage": {"volumes_lvm": false}});
    with(&f, &spec(&LVM, edits, vec![]), |env| {
        let paths: Vec<String> = env
            .settings_problems()
            .into_iter()
            .map(|p| p.path)
            .collect();
        assert_eq!(paths, ["storage.volumes_lvm"]);
        let refused = env.import_problems();
        assert!(
            refused.iter().any(|m| m.starts_with(
                "settings: storage.volumes_lvm: Set by the choice of 'storage:block:lvm' in Storage"
            )),
            "{refused:?}"
        );
    });
    // The value the components give is no contradiction.
    let same = json!({"storage": {"volumes_lvm": true}});
    with(&f, &spec(&LVM, same, vec![]), |env| {
        assert_eq!(env.settings_problems(), []);
        assert_eq!(env.import_problems(), Vec::<String>::new());
    });
}

#[test]
fn bound_settings_belong_to_the_components() {
    let f = fixture();
    with(&f, &spec(&LVM, json!({}), vec![]), |env| {
        let edits = json!({
            "storage": {"volumes_lvm": false, "volumes_ceph": true},
            "common": {"libvirt": "kvm", "debug": true},
        });
        let problems = env.refused_edits(edits.as_object().unwrap());
        let shown: Vec<(&str, &str)> = problems
            .iter()
            .map(|p| (p.path.as_str(), p.message.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "storage.volumes_lvm",
                    "Set by the choice of 'storage:block:lvm' in Storage; change the environment's components to change it."
                ),
                (
                    "storage.volumes_ceph",
                    "Set by the choice of 'storage:block:ceph' in Storage; change the environment's components to change it."
                ),
            ],
            "the value the selection gives (libvirt kvm) and unbound settings (debug) pass"
        );
        let bound: Vec<(String, Value)> =
            env.bound().into_iter().map(|b| (b.path, b.value)).collect();
        assert!(
            bound.contains(&("storage.volumes_lvm".into(), json!(true))),
            "{bound:?}"
        );
        assert!(
            bound.contains(&("storage.volumes_ceph".into(), json!(false))),
            "{bound:?}"
        );
    });
}

#[test]
fn restrictions_read_the_chosen_components() {
    let f = fixture();
    let lvm_chosen =
        Restriction::from_json("r", &json!("'storage:block:lvm' in cluster:components")).unwrap();
    let disabled = |env: &Environment<'_>| {
        evaluate_with(std::slice::from_ref(&lvm_chosen), env.models(), |_| {
            String::new()
        })
        .map(|r| r.disabled)
    };
    with(&f, &spec(&LVM, json!({}), vec![]), |env| {
        assert_eq!(disabled(env), Ok(true));
        assert_eq!(env.context().cluster["components"], json!(LVM));
    });
    with(&f, &spec(&CEPH, json!({}), vec![]), |env| {
        assert_eq!(disabled(env), Ok(false))
    });
}

#[test]
fn a_plugin_restriction_reads_the_components() {
    let f = fixture();
    let lvm_only = extension(
        "lvm_tools",
        &[(
            "environment_config.yaml",
            "attributes:\n  metadata:\n    restrictions:\n      - condition: \"not ('storage:block:lvm' in cluster:components)\"\n        action: hide\n        message: Only with LVM.\n  level: {type: text, label: Level, value: x, weight: 10}\n",
        )],
    );
    let plugins = [lvm_only];
    let tags = TagsMetadata::new();
    let hidden = |components: &[&str]| {
        let spec = spec(components, json!({}), vec![]);
        let env = Environment::new(
            Base {
                release: &f.release,
                plugins: &plugins,
                release_tags: &tags,
                release_roles: crate::role_layer::RoleLayer::none(),
            },
            &spec,
        )
        .unwrap();
        let evaluation = env.evaluation();
        let g = env
            .settings()
            .tree
            .groups
            .iter()
            .position(|g| g.name == "lvm_tools")
            .unwrap();
        evaluation.groups[g].restricted.hidden
    };
    assert!(!hidden(&LVM));
    assert!(hidden(&CEPH));
}

#[test]
fn a_restriction_reads_the_segmentation_the_components_chose() {
    let f = fixture();
    let vlan = Restriction::from_json(
        "r",
        &json!("networking_parameters:segmentation_type == 'vlan'"),
    )
    .unwrap();
    let holds = |env: &Environment<'_>, strict: bool| {
        let r = Restriction {
            strict,
            ..vlan.clone()
        };
        evaluate_with(&[r], env.models(), |_| String::new()).map(|r| r.disabled)
    };
    with(&f, &spec(&LVM, json!({}), vec![]), |env| {
        assert_eq!(env.selection_violations(), []);
        assert_eq!(holds(env, true), Ok(true));
    });
    let tun = LVM.map(|c| c.replace(":vlan", ":tun"));
    let tun: Vec<&str> = tun.iter().map(String::as_str).collect();
    with(&f, &spec(&tun, json!({}), vec![]), |env| {
        assert_eq!(env.selection_violations(), []);
        assert_eq!(holds(env, true), Ok(false));
    });
    // No component sets `net_segment_type`: the key is absent, as every
    // unset model key — an `undefined` error in strict mode (so a settings
    // restriction reading it is a problem, and the environment invalid),
    // `null` in non-strict mode.
    with(&f, &spec(&CONTRAIL, json!({}), vec![]), |env| {
        let parameters = &env.context().networking_parameters;
        assert_eq!(parameters.get("segmentation_type"), None);
        assert_eq!(
            parameters["vlan_range"],
            json!([1000, 1030]),
            "Fuel's other parameters are there"
        );
        let error = holds(env, true).unwrap_err();
        assert_eq!(error.kind, crate::expr::ErrorKind::Undefined);
        assert!(error.message.contains("segmentation_type"), "{error:?}");
        assert_eq!(holds(env, false), Ok(false));
        let problems: Vec<String> = env
            .evaluation()
            .problems
            .into_iter()
            .map(|p| p.path)
            .collect();
        assert_eq!(problems, ["common.vlan_only"]);
    });
}

#[test]
fn a_plugin_whose_component_is_chosen_is_enabled_and_its_roles_offered() {
    let f = fixture();
    let offered = |env: &Environment<'_>| -> Vec<String> {
        env.offered_roles()
            .iter()
            .map(|r| r.id.to_string())
            .collect()
    };
    with(&f, &spec(&CONTRAIL, json!({}), vec![]), |env| {
        let states: Vec<(String, bool)> = env
            .plugin_states()
            .iter()
            .map(|(n, on)| (n.to_string(), *on))
            .collect();
        assert_eq!(
            states,
            [("contrail".to_owned(), true), ("extras".to_owned(), false)]
        );
        assert!(offered(env).contains(&"contrail-controller".to_owned()));
        assert!(!offered(env).contains(&"extra-node".to_owned()));
        assert_eq!(
            role_messages(env, &["extra-node"]),
            ["The plugin 'extras' is disabled in this environment."]
        );
    });
    with(&f, &spec(&LVM, json!({}), vec![]), |env| {
        assert!(!offered(env).contains(&"contrail-controller".to_owned()));
        assert!(!role_messages(env, &["contrail-controller"]).is_empty());
    });
    // Switched on in the settings, without a component.
    with(
        &f,
        &spec(&LVM, json!({"extras": {"enabled": true}}), vec![]),
        |env| {
            assert!(offered(env).contains(&"extra-node".to_owned()));
            assert_eq!(role_messages(env, &["extra-node"]), Vec::<String>::new());
        },
    );
}

#[test]
fn switching_a_plugin_off_names_the_nodes_that_have_its_roles() {
    let f = fixture();
    let nodes = vec![
        node(7, "rack1-n7", &["contrail-controller"]),
        node(8, "rack1-n8", &["controller"]),
    ];
    let before = spec(&CONTRAIL, json!({}), nodes.clone());
    let after = spec(&CONTRAIL, json!({"contrail": {"enabled": false}}), nodes);
    with(&f, &before, |old| {
        with(&f, &after, |new| {
            let in_use = old.plugins_still_in_use(new);
            assert_eq!(in_use.len(), 1);
            assert_eq!(in_use[0].0.as_str(), "contrail");
            assert_eq!(in_use[0].1, ["rack1-n7"]);
        })
    });
}

#[test]
fn a_plugin_is_in_use_while_enabled_or_while_nodes_carry_its_roles() {
    let f = fixture();
    let contrail = |env: &Environment<'_>| {
        let package = env
            .plugins
            .iter()
            .find(|p| p.name.as_str() == "contrail")
            .unwrap();
        env.plugin_use(package)
    };
    with(&f, &spec(&LVM, json!({}), vec![]), |env| {
        assert_eq!(contrail(env), None);
    });
    with(&f, &spec(&CONTRAIL, json!({}), vec![]), |env| {
        assert_eq!(
            contrail(env),
            Some(PluginUse {
                enabled: true,
                nodes: vec![]
            })
        );
    });
    // Off, but a node still carries its role: still in use.
    let nodes = vec![node(7, "rack1-n7", &["contrail-controller"])];
    with(&f, &spec(&LVM, json!({}), nodes), |env| {
        assert_eq!(
            contrail(env),
            Some(PluginUse {
                enabled: false,
                nodes: vec!["rack1-n7".to_owned()]
            })
        );
    });
}

#[test]
fn the_plan_follows_the_settings_and_the_enabled_plugins() {
    let f = fixture();
    let nodes = vec![
        node(1, "ctl", &["controller"]),
        node(2, "store", &["cinder", "ceph-osd"]),
        node(3, "sdn", &["contrail-controller"]),
    ];
    let ceph = spec(&CEPH, json!({}), nodes.clone());
    let plan = with(&f, &ceph, |env| env.plan("default"));
    // The browser reads the plan the server wrote: the same plan.
    let text = serde_json::to_string(&plan).unwrap();
    assert_eq!(
        serde_json::from_str::<crate::task::Plan>(&text).unwrap(),
        plan
    );
    let skipped: Vec<&str> = plan.skipped.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(skipped, ["cinder-volume", "telemetry"]);
    let store = plan.nodes.iter().find(|n| n.id == json!(2)).unwrap();
    assert_eq!(store.tasks, ["globals", "ceph-osd"]);
    // Cinder is refused here, and the contrail role's plugin is off.
    let kinds: Vec<PlanErrorKind> = plan.errors.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [PlanErrorKind::UnknownRole], "{:?}", plan.errors);

    let lvm = spec(
        &CONTRAIL,
        json!({"additional": {"ceilometer": true}}),
        nodes,
    );
    let plan = with(&f, &lvm, |env| env.plan("default"));
    let skipped: Vec<&str> = plan.skipped.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(skipped, ["ceph-osd"]);
    let sdn = plan.nodes.iter().find(|n| n.id == json!(3)).unwrap();
    assert_eq!(sdn.tasks, ["globals", "contrail-install"]);
    let ctl = plan.nodes.iter().find(|n| n.id == json!(1)).unwrap();
    assert_eq!(ctl.tasks, ["globals", "telemetry"]);
}

#[test]
fn invalid_settings_and_selections_are_plan_errors() {
    let f = fixture();
    let bad = spec(
        &["hypervisor:kvm", "storage:block:lvm", "storage:block:ceph"],
        json!({"contrail": {"asn": "x"}, "common": {"libvirt": "xen"}, "nope": {}}),
        vec![],
    );
    with(&f, &bad, |env| {
        let messages: Vec<String> = env.problems().into_iter().map(|e| e.message).collect();
        assert!(
            messages.iter().any(|m| m.starts_with("components: ")),
            "{messages:?}"
        );
        assert!(
            messages.contains(&"settings: nope: there is no such settings group".to_owned()),
            "{messages:?}"
        );
        // KVM decides libvirt: that is said first, once for the path.
        assert!(
            messages.contains(
                &"settings: common.libvirt: Set by the choice of 'hypervisor:kvm' in Compute; change the environment's components to change it.".to_owned()
            ),
            "{messages:?}"
        );
        assert!(
            !messages.iter().any(|m| m.contains("is not one of")),
            "{messages:?}"
        );
        // contrail is off: its attributes are not checked.
        assert!(
            !messages.iter().any(|m| m.contains("contrail.asn")),
            "{messages:?}"
        );
    });
}

#[test]
fn export_then_import_then_export_is_the_same_file() {
    let f = fixture();
    let mut n = node(41, "rack2-a", &["controller"]);
    n.tags_added = vec![TagName::new("database:2").unwrap()];
    let original = spec(
        &CONTRAIL,
        json!({"extras": {"enabled": true}, "storage": {"volumes_lvm": false}}),
        vec![n, node(43, "rack2-b", &["extra-node"])],
    );
    let first = with(&f, &original, |env| env.export());
    let pinned: Vec<(&str, Option<&str>)> = first
        .plugins
        .iter()
        .map(|p| (p.name(), p.version()))
        .collect();
    assert_eq!(
        pinned,
        [
            ("contrail", Some(f.contrail.version.as_str())),
            ("extras", Some(f.extras.version.as_str()))
        ]
    );
    assert_eq!(
        serde_json::to_value(&first.settings).unwrap(),
        json!({"storage": {"volumes_lvm": false}})
    );
    assert_eq!(first.nodes[1].id, 2);
    let text = crate::yaml::to_string(&serde_json::to_value(&first).unwrap());
    let read: EnvironmentFile = crate::yaml::parse("env.yaml", &text).unwrap();
    let names: Vec<PluginName> = read
        .plugins
        .iter()
        .map(|p| PluginName::new(p.name()).unwrap())
        .collect();
    let imported = read.spec("copy", &names);
    let second = with(&f, &imported, |env| env.export());
    assert_eq!(second, first);
    assert_eq!(
        crate::yaml::to_string(&serde_json::to_value(&second).unwrap()),
        text
    );
}

#[test]
fn tags_are_added_and_removed_on_what_the_environment_knows() {
    let f = fixture();
    let env_spec = spec(&LVM, json!({}), vec![node(1, "a", &["controller"])]);
    with(&f, &env_spec, |env| {
        let tag = |t: &str| TagName::new(t).unwrap();
        let n = &env_spec.nodes[0];
        let removed = env.remove_tags(n, &[tag("database")]).unwrap();
        assert_eq!(removed.tags_removed, [tag("database")]);
        let added = env
            .add_tags(&removed, &[tag("database"), tag("controller:2")])
            .unwrap();
        assert!(added.tags_removed.is_empty());
        assert_eq!(added.tags_added, [tag("controller:2")]);
        assert_eq!(
            env.add_tags(n, &[tag("galera")]).unwrap_err().to_string(),
            "unknown tag 'galera': create it on the release or the environment first"
        );
        assert!(env.remove_tags(n, &[tag("galera")]).is_err());
        // Contrail is off here: its role's tag is not known.
        assert!(!env.knows_tag(&tag("contrail-controller")));
        let views = env.node_views(5);
        assert!(
            views[0].tags.contains(&tag("primary-controller")),
            "{:?}",
            views[0].tags
        );
    });
}

#[test]
fn no_warning_for_tags_only_ruled_out_roles_bring() {
    let f = fixture();
    let ceph = spec(&CEPH, json!({}), vec![node(1, "ctl", &["controller"])]);
    let plan = with(&f, &ceph, |env| env.plan("default"));
    assert_eq!(
        plan.warnings,
        ["no node carries the release tag 'ceph-osd'; its tasks will not run"]
    );
    let lvm = spec(&LVM, json!({}), vec![node(1, "ctl", &["controller"])]);
    let plan = with(&f, &lvm, |env| env.plan("default"));
    assert_eq!(
        plan.warnings,
        ["no node carries the release tag 'cinder'; its tasks will not run"]
    );
}

fn bulk(nodes: &[i64], add_tags: &[&str], remove_tags: &[&str], add_roles: &[&str]) -> BulkNodes {
    BulkNodes {
        nodes: nodes.to_vec(),
        add_tags: add_tags.iter().map(|t| TagName::new(*t).unwrap()).collect(),
        remove_tags: remove_tags
            .iter()
            .map(|t| TagName::new(*t).unwrap())
            .collect(),
        add_roles: add_roles
            .iter()
            .map(|r| RoleName::new(*r).unwrap())
            .collect(),
        ..BulkNodes::default()
    }
}

#[test]
fn a_bulk_change_changes_every_node_or_none_naming_each_problem() {
    let f = fixture();
    let nodes = vec![
        node(1, "rack1-a", &["controller"]),
        node(2, "rack1-b", &[]),
        node(3, "rack2-a", &[]),
    ];
    let env_spec = spec(&LVM, json!({}), nodes);
    with(&f, &env_spec, |env| {
        let tag = |t: &str| TagName::new(t).unwrap();
        // Tags by the rack: instance tags too; a tag a node lacks is left alone.
        let changed = env
            .bulk_change(&bulk(&[1, 2], &["controller:1"], &["database"], &[]))
            .unwrap();
        assert_eq!(changed.len(), 2);
        assert_eq!(changed[0].tags_removed, [tag("database")]);
        assert_eq!(changed[1].tags_added, [tag("controller:1")]);
        // A role that conflicts on one node: nothing changes, that node is named.
        let refused = env
            .bulk_change(&bulk(&[1, 2, 3, 9], &[], &[], &["ceph-osd"]))
            .unwrap_err();
        let BulkRefusal::Nodes(problems) = refused else {
            panic!("{refused:?}")
        };
        let named: Vec<(i64, Option<&str>)> = problems
            .iter()
            .map(|p| (p.node, p.name.as_deref()))
            .collect();
        // Ceph is off (LVM): every node is refused the role; node 9 is elsewhere.
        assert_eq!(named[0], (9, None));
        assert!(named.contains(&(1, Some("rack1-a"))), "{problems:?}");
        assert!(
            problems
                .iter()
                .any(|p| p.node == 1 && p.message.contains("conflict")),
            "{problems:?}"
        );
        // Unknown names and contradictions are refused once, not per node.
        assert!(matches!(
            env.bulk_change(&bulk(&[1], &["galera"], &[], &[])),
            Err(BulkRefusal::UnknownTags(t)) if t == [tag("galera")]
        ));
        assert!(matches!(
            env.bulk_change(&bulk(&[1], &[], &[], &["contrail-controller"])),
            Err(BulkRefusal::UnknownRoles(_))
        ));
        assert!(matches!(
            env.bulk_change(&bulk(&[1], &["database"], &["database"], &[])),
            Err(BulkRefusal::Request(m)) if m.contains("both added and removed")
        ));
        assert!(matches!(
            env.bulk_change(&bulk(&[], &["database"], &[], &[])),
            Err(BulkRefusal::Request(_))
        ));
        // Nothing to do for a node that already has it: not returned.
        let again = env.bulk_change(&bulk(&[2], &[], &[], &[])).unwrap_err();
        assert!(matches!(again, BulkRefusal::Request(_)));
        let roles = env
            .bulk_change(&bulk(&[2, 3], &[], &[], &["cinder"]))
            .unwrap();
        assert_eq!(roles.len(), 2);
        assert_eq!(roles[0].roles, [RoleName::new("cinder").unwrap()]);
    });
}

#[test]
fn tags_count_their_nodes_and_are_not_deleted_while_carried() {
    let f = fixture();
    let mut a = node(1, "a", &[]);
    a.tags_added = vec![TagName::new("rack:2").unwrap()];
    let mut env_spec = spec(&LVM, json!({}), vec![a, node(2, "b", &["controller"])]);
    env_spec
        .tags_metadata
        .insert(TagName::new("rack").unwrap(), TagMeta::default());
    with(&f, &env_spec, |env| {
        let views = env.tag_views();
        let count = |name: &str| views.iter().find(|v| v.name == name).unwrap().nodes;
        assert_eq!(count("rack"), 1);
        assert_eq!(count("controller"), 1);
        assert_eq!(carriers(&env.named_tags(), "rack"), ["a"]);
        assert_eq!(
            check_tag_deletion(&views, "rack", carriers(&env.named_tags(), "rack"))
                .unwrap_err()
                .to_string(),
            "tag 'rack' is assigned to node 'a': unassign it first"
        );
        assert!(check_tag_deletion(&views, "rack", Vec::new()).is_ok());
        assert!(matches!(
            check_tag_deletion(&views, "controller", Vec::new()),
            Err(TagRefusal::NotOwn { .. })
        ));
        assert!(matches!(
            check_tag_deletion(&views, "nope", Vec::new()),
            Err(TagRefusal::NotFound(_))
        ));
    });
}

#[test]
fn export_carries_the_release_tags_its_nodes_use() {
    let f = fixture();
    let mut a = node(1, "a", &[]);
    a.tags_added = vec![TagName::new("mysql:1").unwrap()];
    let env_spec = spec(&LVM, json!({}), vec![a]);
    let plugins = [f.contrail.clone(), f.extras.clone()];
    let mut release_tags = TagsMetadata::new();
    release_tags.insert(
        TagName::new("mysql").unwrap(),
        TagMeta {
            has_primary: true,
            instances: None,
        },
    );
    release_tags.insert(TagName::new("unused").unwrap(), TagMeta::default());
    let env = Environment::new(
        Base {
            release: &f.release,
            plugins: &plugins,
            release_tags: &release_tags,
            release_roles: crate::role_layer::RoleLayer::none(),
        },
        &env_spec,
    )
    .unwrap();
    let file = env.export();
    let names: Vec<&str> = file.tags_metadata.keys().map(TagName::as_str).collect();
    assert_eq!(names, ["mysql"]);
    // Imported where the release has no such tag, the node's tag is known.
    let imported = file.spec("copy", &[]);
    with(&f, &imported, |env| {
        assert!(env.import_problems().is_empty())
    });
}

#[test]
fn checks_name_the_nodes_concerned_errors_first() {
    let f = fixture();
    let env_spec = spec(
        &LVM,
        json!({}),
        vec![
            node(1, "ctl", &["controller"]),
            node(2, "bad", &["ceph-osd"]),
        ],
    );
    with(&f, &env_spec, |env| {
        let checks = env.checks(&env.plan("default"));
        assert_eq!(checks[0].severity, CheckSeverity::Error);
        let bad = checks.iter().find(|c| c.kind == "node_roles").unwrap();
        assert_eq!(bad.nodes, [2]);
        assert!(bad.message.starts_with("bad: "), "{}", bad.message);
        assert!(
            checks
                .iter()
                .any(|c| c.kind == "untagged" && c.severity == CheckSeverity::Warning),
            "{checks:?}"
        );
    });
}

#[test]
fn the_bulk_bar_asks_for_the_tags_typed_or_the_role_chosen() {
    use super::{BulkAction, BulkInput};
    let typed = |tags: &str, role: &str| BulkInput {
        tags: tags.to_owned(),
        role: role.to_owned(),
        ..BulkInput::default()
    };
    let action = BulkAction::AssignTags;
    assert_eq!(
        action
            .change(vec![1, 2], &typed("rabbitmq, mysql:1  ", ""))
            .unwrap(),
        bulk(&[1, 2], &["rabbitmq", "mysql:1"], &[], &[])
    );
    let role = BulkAction::AddRole;
    assert_eq!(
        role.change(vec![3], &typed("", "compute")).unwrap(),
        bulk(&[3], &[], &[], &["compute"])
    );
    assert!(
        role.change(vec![3], &typed("", "")).is_err(),
        "no role chosen"
    );
    assert!(
        action
            .change(vec![1], &typed("bad tag!", ""))
            .unwrap_err()
            .contains("tag!")
    );
}

#[test]
fn the_bulk_bar_moves_nodes_to_a_group_and_puts_networks_on_a_port() {
    use super::{BulkAction, BulkInput};
    use crate::network::GroupRef;
    let input = BulkInput {
        node_group: " rack-2 ".to_owned(),
        port: "eth2".to_owned(),
        networks: "storage, private".to_owned(),
        ..BulkInput::default()
    };
    let moved = BulkAction::MoveToGroup.change(vec![4, 5], &input).unwrap();
    assert_eq!(moved.node_group, Some(GroupRef::Name("rack-2".to_owned())));
    assert_eq!(moved.nodes, [4, 5]);
    assert!(moved.add_tags.is_empty() && moved.interfaces.is_none());
    let put = BulkAction::PutNetworks.change(vec![4], &input).unwrap();
    assert_eq!(
        put.interfaces,
        Some(std::collections::BTreeMap::from([(
            "eth2".to_owned(),
            vec!["storage".to_owned(), "private".to_owned()]
        )]))
    );
    assert!(put.node_group.is_none());
    // What is missing or no name is said, naming the field.
    let refused =
        |action: BulkAction, input: BulkInput| action.change(vec![1], &input).unwrap_err();
    assert!(refused(BulkAction::MoveToGroup, BulkInput::default()).starts_with("node group: "));
    let bad_group = BulkInput {
        node_group: "rack 2!".to_owned(),
        ..BulkInput::default()
    };
    assert!(refused(BulkAction::MoveToGroup, bad_group).contains("'rack 2!'"));
    let no_port = BulkInput {
        networks: "storage".to_owned(),
        ..BulkInput::default()
    };
    assert!(refused(BulkAction::PutNetworks, no_port).starts_with("port: "));
    let no_networks = BulkInput {
        port: "eth1".to_owned(),
        ..BulkInput::default()
    };
    assert_eq!(
        refused(BulkAction::PutNetworks, no_networks),
        "networks: name the networks to put on eth1"
    );
}

mod carry;
mod components;
mod graphs;

/// An environment's own changes of roles (a file's `roles:`): the roles
/// offered, node tags and the plan follow them; those that cannot be made
/// are import problems.
#[test]
fn an_environments_own_roles_are_offered_and_checked() {
    let f = fixture();
    let layer: crate::role_layer::RoleLayer = serde_json::from_value(json!({
        "controller": {"tags": ["controller"]},
        "db": {"label": "Database", "tags": ["database"], "conflicts": ["controller"]},
    }))
    .unwrap();
    let mut both = node(3, "n3", &["controller"]);
    both.roles.push(crate::name::RoleName::new("db").unwrap());
    let nodes = vec![node(1, "n1", &["controller"]), node(2, "n2", &["db"]), both];
    let good = Spec {
        roles: layer,
        ..spec(&LVM, json!({}), nodes)
    };
    with(&f, &good, |env| {
        let tags = env.effective_tags();
        assert!(
            !tags[0].iter().any(|t| t.as_str() == "database"),
            "{tags:?}"
        );
        assert!(tags[1].iter().any(|t| t.as_str() == "database"), "{tags:?}");
        assert!(env.offered_roles().iter().any(|r| r.id == "db"));
        let refused = env.import_problems();
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert!(
            refused[0].starts_with("node 3:") && refused[0].contains("conflict"),
            "{refused:?}"
        );
    });
    let bad = Spec {
        roles: serde_json::from_value(json!({
            "ghost": {"tags": []},
            "controller": {"label": "Again", "tags": []},
            "x": {"label": "X", "tags": ["nope"]},
        }))
        .unwrap(),
        ..spec(&LVM, json!({}), vec![])
    };
    with(&f, &bad, |env| {
        assert_eq!(
            env.role_layer_problems(),
            [
                "roles.controller: role 'controller' exists already; give only its tags to change them",
                "roles.ghost: there is no role 'ghost' to change",
                "roles.x.tags: unknown tag 'nope'",
            ]
        );
    });
}

#[test]
fn one_nodes_view_among_its_contenders_is_its_view_among_all() {
    let f = fixture();
    let tag = |t: &str| TagName::new(t).unwrap();
    let mut nodes = vec![
        node(1, "ctl-1", &["controller"]),
        node(2, "ctl-2", &["controller"]),
        node(3, "cmp-1", &["compute"]),
        node(4, "ctl-3", &["controller"]),
        node(5, "db-by-hand", &["compute"]),
        node(6, "ctl-untagged", &["controller"]),
        node(7, "ctl-going", &["controller"]),
    ];
    nodes[1].status = crate::name::NodeStatus::Ready;
    nodes[3].primary_tags = vec![tag("controller")];
    nodes[4].tags_added = vec![tag("database")];
    nodes[5].tags_removed = vec![tag("controller"), tag("database")];
    nodes[6].pending_deletion = true;
    for mode in [Mode::HaCompact, Mode::Multinode] {
        let mut s = spec(&LVM, json!({}), nodes.clone());
        s.mode = mode;
        with(&f, &s, |env| {
            let all = env.node_views(9);
            for (n, expected) in nodes.iter().zip(&all) {
                let (roles, tags) = env.primary_contenders(n);
                let others: Vec<NodeTags> = nodes
                    .iter()
                    .filter(|o| {
                        o.all_roles().any(|r| roles.contains(r))
                            || o.tags_added.iter().any(|t| tags.contains(t))
                    })
                    .cloned()
                    .collect();
                assert_eq!(&env.node_view_among(9, n, &others), expected, "{mode:?}");
            }
            if mode.is_ha() {
                let primary = |id: i64| all.iter().find(|v| v.id == id).unwrap().tags.clone();
                assert!(
                    primary(4).contains(&tag("primary-controller")),
                    "already primary"
                );
                assert!(
                    !primary(2).contains(&tag("primary-controller")),
                    "ready, lowest id, but another is primary already"
                );
            }
        });
    }
}

#[test]
fn role_maximums_hold_on_every_change_that_grows_a_count() {
    let f = fixture();
    let mut multinode = spec(
        &LVM,
        json!({}),
        vec![
            node(1, "ctl", &["controller"]),
            node(2, "a", &["cinder"]),
            node(3, "b", &[]),
        ],
    );
    multinode.mode = Mode::Multinode;
    let one_controller = "Multi-node environments can not have more than 1 controller node.";
    with(&f, &multinode, |env| {
        let before = env.role_counts();
        assert_eq!(before.get(&RoleName::new("controller").unwrap()), 1);
        // Only roles that declare a maximum make a change count.
        let role = |r: &str| RoleName::new(r).unwrap();
        assert!(env.any_maximum(&[role("ceph-osd"), role("controller")]));
        assert!(!env.any_maximum(&[role("ceph-osd")]));
        // A second controller, as a new node or by a change of one.
        let second = node(4, "c", &["controller"]);
        let exceeded = env.exceeded_maximums(&before, &before.with_change(None, &second));
        assert_eq!(exceeded.len(), 1);
        assert_eq!(
            (exceeded[0].role.as_str(), exceeded[0].count),
            ("controller", 2)
        );
        assert_eq!(exceeded[0].message, one_controller);
        let b = &env.spec.nodes[2];
        let mut b_ctl = b.clone();
        b_ctl.roles = vec![RoleName::new("controller").unwrap()];
        let after = before.with_change(Some(b), &b_ctl);
        assert_eq!(
            env.maximums_message(&before, &after).as_deref(),
            Some(one_controller)
        );
        // Pending deletion does not count: the controller on its way out
        // makes room, and a pending role counts as one.
        let mut leaving = env.spec.nodes[0].clone();
        leaving.pending_deletion = true;
        let room = before.with_change(Some(&env.spec.nodes[0]), &leaving);
        assert!(
            env.exceeded_maximums(&room, &room.with_change(None, &second))
                .is_empty()
        );
        let mut pending = node(5, "d", &[]);
        pending.pending_roles = vec![RoleName::new("controller").unwrap()];
        assert!(
            !env.exceeded_maximums(&before, &before.with_change(None, &pending))
                .is_empty()
        );
        // In bulk: the default message names the role.
        let refused = env
            .bulk_change(&bulk(&[1, 3], &[], &[], &["cinder"]))
            .unwrap_err();
        assert_eq!(
            refused.to_string(),
            "At most 2 Cinder nodes are allowed.; nothing was changed"
        );
        assert!(matches!(
            env.bulk_change(&bulk(&[3], &[], &[], &["controller"])),
            Err(BulkRefusal::Maximums(e)) if e[0].message == one_controller
        ));
        env.bulk_change(&bulk(&[3], &[], &[], &["cinder"])).unwrap();
        assert!(env.import_problems().is_empty());
    });
    // An environment already over its maximum may shrink and change other
    // things, not grow; its import is refused.
    multinode.nodes[2].roles = vec![RoleName::new("controller").unwrap()];
    with(&f, &multinode, |env| {
        let before = env.role_counts();
        assert!(env.exceeded_maximums(&before, &before).is_empty());
        env.bulk_change(&bulk(&[1, 3], &["controller:1"], &[], &[]))
            .unwrap();
        let mut fewer = bulk(&[3], &[], &[], &[]);
        fewer.remove_roles = vec![RoleName::new("controller").unwrap()];
        env.bulk_change(&fewer).unwrap();
        assert!(
            env.bulk_change(&bulk(&[2], &[], &[], &["controller"]))
                .is_err()
        );
        assert_eq!(env.import_problems(), [one_controller.to_owned()],);
    });
    // No maximum outside multi-node.
    multinode.mode = Mode::HaCompact;
    with(&f, &multinode, |env| {
        env.bulk_change(&bulk(&[2], &[], &[], &["controller"]))
            .unwrap();
    });
}

/// Fuel's warning that a role change resets the disk layout: the browser
/// asks the node's view, by the rule the server lays the disks out again
/// by (roles as sets, pending ones kept; only once the hardware is known).
#[test]
fn a_role_change_resets_the_disks_of_a_node_whose_hardware_is_known() {
    let role = |r: &str| crate::name::RoleName::new(r).unwrap();
    let mut node = NodeView::sample(1, "ctl-1", &["controller", "cinder"], &[], &[]);
    let other = [role("compute")];
    assert!(!node.roles_reset_disks(&other), "no hardware, no layout");
    node.hardware = Some(crate::hardware::HardwareStamp {
        source: crate::hardware::HardwareSource::Ansible,
        found_at: "t".into(),
        switches: vec![],
    });
    assert!(node.roles_reset_disks(&other));
    let same = [role("cinder"), role("controller"), role("cinder")];
    assert!(!node.roles_reset_disks(&same), "the same set, in any order");
    node.pending_roles = vec![role("compute")];
    let with_pending = [role("controller"), role("cinder"), role("compute")];
    assert!(
        !node.roles_reset_disks(&with_pending),
        "a pending role ticked as held is the same set"
    );
}
