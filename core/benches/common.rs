//! The engine benchmark's cases, shared by the native (criterion) and the
//! browser (wasm-bindgen-test) benchmarks so both measure the same work.

use mosaic_core::component::{
    ComponentFile, DEFAULT_REQUIRED_TYPES, Engine, Registry, Source, load_registry, synthetic,
};

const RELEASE: &str = include_str!("../../releases/openstack/components.yaml");
const PLUGINS: [(&str, &str); 3] = [
    ("sdn", include_str!("fixtures/sdn.yaml")),
    ("storage", include_str!("fixtures/storage.yaml")),
    ("service", include_str!("fixtures/service.yaml")),
];

/// One measured evaluation: an engine and the selection to evaluate.
pub struct Case {
    pub name: &'static str,
    pub engine: Engine,
    pub selection: Vec<String>,
}

/// The bundled release plus three plugins, compiled.
pub fn bundled() -> Engine {
    let mut files = vec![ComponentFile {
        source: "openstack",
        path: "openstack",
        text: RELEASE,
    }];
    files.extend(PLUGINS.iter().map(|(name, text)| ComponentFile {
        source: name,
        path: name,
        text,
    }));
    Engine::new(load_registry(&files).unwrap(), &DEFAULT_REQUIRED_TYPES)
}

/// 2,000 components with about 10,000 relations.
pub fn synthetic_registry() -> Registry {
    Registry::new([(Source("synthetic".into()), synthetic::registry(2000, 42))]).unwrap()
}

fn defaults(engine: &Engine) -> Vec<String> {
    engine
        .registry()
        .components()
        .iter()
        .filter(|c| c.default)
        .map(|c| c.name.to_string())
        .collect()
}

pub fn cases() -> Vec<Case> {
    let engine = bundled();
    let selection = defaults(&engine);
    let mut cases = vec![Case {
        name: "bundled+3 plugins: evaluate defaults",
        engine,
        selection,
    }];
    cases.push(Case {
        name: "bundled+3 plugins: evaluate vCenter selection",
        engine: bundled(),
        selection: [
            "hypervisor:vmware",
            "network:neutron:core:ml2",
            "network:neutron:ml2:vlan",
            "network:neutron:ml2:dvs",
            "storage:block:backend:lvm",
            "storage:object:backend:swift",
            "storage:image:swift",
            "additional_service:ceilometer",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    });
    let engine = Engine::new(synthetic_registry(), &DEFAULT_REQUIRED_TYPES);
    let selection = defaults(&engine);
    cases.push(Case {
        name: "synthetic 2000: evaluate defaults",
        engine,
        selection,
    });
    cases
}
