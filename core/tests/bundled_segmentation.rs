//! The bundled release's segmentation (issue 30, part 4): the Networking
//! pane offers VLAN or tunnelling segmentation under the ML2 core, exactly
//! one of them, and whatever the wizard produces gives the environment a
//! `net_segment_type`, which plugins read as
//! `networking_parameters:segmentation_type`.

mod common;

use mosaic_core::component::{
    ComponentName, ComponentType, DEFAULT_REQUIRED_TYPES, Engine, State, ViolationKind,
    validate_selection,
};
use mosaic_core::environment::{Base, Environment, Spec, registry};
use mosaic_core::expr::Expr;
use mosaic_core::release::Release;
use mosaic_core::wizard::{Control, Pane, defaults, leave_problem, toggle};

const VLAN: &str = "network:neutron:ml2:vlan";
const TUN: &str = "network:neutron:ml2:tun";
const ML2: &str = "network:neutron:core:ml2";

fn engine(release: &Release) -> Engine {
    let registry = registry(release, &[]).unwrap();
    Engine::new(registry, &release.required_component_types)
}

fn names(engine: &Engine, selection: &[bool]) -> Vec<String> {
    (0..selection.len())
        .filter(|&i| selection[i])
        .map(|i| engine.registry().get(i).name.to_string())
        .collect()
}

/// `names` and one more.
fn with<S: AsRef<str>>(names: &[S], name: &str) -> Vec<String> {
    let mut out: Vec<String> = names.iter().map(|n| n.as_ref().to_owned()).collect();
    out.push(name.to_owned());
    out
}

/// What the environment made of `components` (`None`: the defaults) reads
/// for the expression `text`.
fn reads(release: &Release, components: Option<&[String]>, text: &str) -> serde_json::Value {
    let spec = Spec {
        name: "env".to_owned(),
        components: components.map(|c| c.iter().map(|n| ComponentName::new(n).unwrap()).collect()),
        ..Spec::default()
    };
    let tags = Default::default();
    let base = Base {
        release,
        plugins: &[],
        release_tags: &tags,
        release_roles: mosaic_core::role_layer::RoleLayer::none(),
    };
    let env = Environment::new(base, &spec).unwrap();
    assert_eq!(env.selection_violations(), [], "{components:?}");
    let expr = Expr::parse(text).unwrap();
    expr.eval(env.models()).unwrap().to_json()
}

const BASE: [&str; 5] = [
    "hypervisor:libvirt:kvm",
    ML2,
    "network:neutron:ml2:ovs",
    "storage:block:backend:lvm",
    "storage:object:backend:swift",
];

#[test]
fn the_segmentations_are_one_radio_group_under_the_ml2_core_with_vlan_first() {
    let release = common::bundled::release();
    let engine = engine(&release);
    let (registry, layout) = (engine.registry(), engine.layout());
    let at = |name: &str| registry.position(name).unwrap();
    let groups = &layout.network.driver_groups;
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].members, [at(VLAN), at(TUN)]);
    assert_eq!(groups[0].default, at(VLAN));
    assert_eq!(layout.control(at(TUN)), Control::Radio);
    assert_eq!(
        layout.control(at("network:neutron:ml2:ovs")),
        Control::Checkbox
    );
    // The wizard starts with VLAN, so a new environment reads `vlan`.
    let start = defaults(registry, layout);
    assert!(start[at(ML2)] && start[at(VLAN)] && !start[at(TUN)]);
    assert_eq!(
        reads(&release, None, "networking_parameters:segmentation_type"),
        "vlan"
    );
}

#[test]
fn the_two_exclude_each_other_and_the_ml2_core_needs_one() {
    let release = common::bundled::release();
    let engine = engine(&release);
    let registry = engine.registry();
    let kinds = |names: &[String]| -> Vec<(ViolationKind, Vec<String>)> {
        validate_selection(registry, &DEFAULT_REQUIRED_TYPES, names)
            .into_iter()
            .map(|v| (v.kind, v.components))
            .collect()
    };
    assert_eq!(kinds(&with(&BASE, VLAN)), []);
    assert_eq!(kinds(&with(&BASE, TUN)), []);
    let both = with(&with(&BASE, VLAN), TUN);
    assert_eq!(
        kinds(&both),
        [
            (
                ViolationKind::Incompatible,
                vec![VLAN.to_owned(), TUN.to_owned()]
            ),
            (
                ViolationKind::Requires,
                vec![ML2.to_owned(), VLAN.to_owned(), TUN.to_owned()]
            ),
        ]
    );
    let neither: Vec<String> = BASE.iter().map(|n| (*n).to_owned()).collect();
    assert_eq!(
        kinds(&neither),
        [(
            ViolationKind::Requires,
            vec![ML2.to_owned(), VLAN.to_owned(), TUN.to_owned()]
        )]
    );
    // Without one the Networking pane cannot be left, and says why; either
    // one is on offer.
    let selection: Vec<bool> = (0..registry.len())
        .map(|i| neither.contains(&registry.get(i).name.to_string()))
        .collect();
    let problem = leave_problem(&engine, &selection, Pane::Networking).unwrap();
    assert!(problem.contains("needs one segmentation"), "{problem}");
    let pane = engine.evaluate_pane(&neither, ComponentType::Network);
    for name in [VLAN, TUN] {
        let report = &pane.components[registry.position(name).unwrap()];
        assert_eq!(report.state, State::Available, "{name}");
    }
}

#[test]
fn picking_tunnelling_swaps_vlan_out_and_keeps_the_rest() {
    let release = common::bundled::release();
    let engine = engine(&release);
    let registry = engine.registry();
    let at = |name: &str| registry.position(name).unwrap();
    let start = defaults(registry, engine.layout());
    let pane = engine.evaluate_pane(&names(&engine, &start), ComponentType::Network);
    assert_eq!(pane.components[at(TUN)].state, State::Available);
    let change = toggle(&engine, &start, at(TUN));
    assert_eq!(change.notices, Vec::<String>::new());
    let mut expected = start.clone();
    (expected[at(VLAN)], expected[at(TUN)]) = (false, true);
    assert_eq!(change.selection, expected);
    // A radio button is not unticked by clicking it again.
    assert_eq!(toggle(&engine, &start, at(VLAN)).selection, start);
    let chosen = names(&engine, &change.selection);
    assert_eq!(
        reads(
            &release,
            Some(&chosen),
            "networking_parameters:segmentation_type"
        ),
        "tun"
    );
}

#[test]
fn another_core_drops_the_segmentation_reads_as_tunnelling_and_ml2_brings_vlan_back() {
    let release = common::bundled::release();
    let engine = engine(&release);
    let registry = engine.registry();
    let at = |name: &str| registry.position(name).unwrap();
    let start = defaults(registry, engine.layout());
    let contrail = toggle(&engine, &start, at("network:neutron:core:contrail")).selection;
    assert!(!contrail[at(VLAN)] && !contrail[at(TUN)] && !contrail[at(ML2)]);
    let chosen = names(&engine, &contrail);
    assert_eq!(
        reads(
            &release,
            Some(&chosen),
            "networking_parameters:segmentation_type"
        ),
        "tun"
    );
    // Back to ML2: VLAN comes with it, and the pane can be left.
    let back = toggle(&engine, &contrail, at(ML2)).selection;
    assert!(back[at(ML2)] && back[at(VLAN)] && !back[at(TUN)]);
    assert_eq!(leave_problem(&engine, &back, Pane::Networking), None);
}

#[test]
fn ironic_runs_with_either_segmentation() {
    // Fuel's fixture kept Ironic to VLAN segmentation; kolla-ansible 2024.1,
    // which the release is deployed with, runs it with VXLAN tenant
    // networks, so the release no longer declares the incompatibility.
    let release = common::bundled::release();
    let engine = engine(&release);
    let ironic = "additional_service:ironic";
    let registry = engine.registry();
    let tun = with(&with(&BASE, TUN), "storage:image:swift");
    let pane = engine.evaluate_pane(&tun, ComponentType::AdditionalService);
    let report = &pane.components[registry.position(ironic).unwrap()];
    assert_ne!(report.state, State::Blocked, "{:?}", report.reasons);
    for segmentation in [TUN, VLAN] {
        let chosen = with(
            &with(&with(&BASE, segmentation), "storage:image:swift"),
            ironic,
        );
        assert_eq!(engine.evaluate(&chosen).violations, [], "{segmentation}");
    }
}
