//! Restriction expressions and role checks: evaluations of pre-parsed real
//! restrictions, parse+evaluate per check, and the whole roles check of the
//! bundled release for 1,000 nodes.
//!
//! Run with `cargo bench -p mosaic-core --bench expr` (or `make bench`);
//! figures are in docs/benchmarks.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mosaic_core::expr::{Expr, FlatModels, JsonModels};
use mosaic_core::name::RoleName;
use mosaic_core::role::{NodeRoles, check_roles, parse_roles};
use serde_json::json;
use std::hint::black_box;

const ROLES: &str = include_str!("../../releases/openstack/node_roles.yaml");
const ATTRIBUTES: &str = include_str!("../../releases/openstack/attributes.yaml");

const CEPH: &str = "settings:storage.volumes_ceph.value == false and settings:storage.images_ceph.value == false and settings:storage.ephemeral_ceph.value == false and settings:storage.objects.value != 'ceph'";
const MODE: &str = "cluster:mode != 'ha_compact'";

fn models() -> JsonModels {
    let attributes: serde_json::Value =
        mosaic_core::yaml::parse("attributes.yaml", ATTRIBUTES).unwrap();
    JsonModels {
        settings: attributes["editable"].clone(),
        cluster: json!({"mode": "multinode", "status": "new"}),
        version: json!({"feature_groups": ["experimental"]}),
        ..JsonModels::default()
    }
}

/// The restriction conditions and expression limits of the bundled roles.
fn release_expressions() -> Vec<String> {
    use serde_json::Value;
    fn walk(value: &Value, key: Option<&str>, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    walk(v, Some(k), out);
                }
            }
            Value::Array(items) => {
                for item in items {
                    match item {
                        // `{"cond": "message"}` restrictions.
                        Value::Object(map)
                            if key == Some("restrictions") && !map.contains_key("condition") =>
                        {
                            out.extend(map.keys().cloned());
                        }
                        _ => walk(item, key, out),
                    }
                }
            }
            Value::String(s)
                if matches!(key, Some("condition" | "min" | "max" | "recommended")) =>
            {
                out.push(s.clone());
            }
            _ => {}
        }
    }
    let yaml: Value = mosaic_core::yaml::parse("node_roles.yaml", ROLES).unwrap();
    let mut out = Vec::new();
    walk(&yaml, None, &mut out);
    out
}

fn bench(c: &mut Criterion) {
    let json = models();
    let models = FlatModels::new(&json);
    let mut group = c.benchmark_group("expr");
    group.throughput(Throughput::Elements(1));
    for (name, source) in [
        ("ceph-osd restriction (4 clauses)", CEPH),
        ("cluster mode", MODE),
    ] {
        let expr = Expr::parse(source).unwrap();
        assert!(
            expr.holds(&models, true).unwrap(),
            "{source} holds with the defaults"
        );
        group.bench_function(format!("evaluate pre-parsed, flat models: {name}"), |b| {
            b.iter(|| black_box(&expr).holds(&models, true))
        });
        let bound = expr.bind(&models);
        group.bench_function(format!("evaluate pre-parsed, bound: {name}"), |b| {
            b.iter(|| black_box(&bound).holds(true))
        });
        group.bench_function(format!("evaluate pre-parsed, JSON models: {name}"), |b| {
            b.iter(|| black_box(&expr).holds(&json, true))
        });
        group.bench_function(format!("parse+evaluate, flat models: {name}"), |b| {
            b.iter(|| Expr::parse(black_box(source)).unwrap().holds(&models, true))
        });
    }
    // Every restriction and limit expression of the bundled release, parsed
    // and evaluated once each (throughput per expression).
    let sources = release_expressions();
    group.throughput(Throughput::Elements(sources.len() as u64));
    group.bench_function(
        format!(
            "parse+evaluate, flat models: the bundled release's {} expressions",
            sources.len()
        ),
        |b| {
            b.iter(|| {
                sources
                    .iter()
                    .filter(|s| {
                        Expr::parse(black_box(s))
                            .unwrap()
                            .holds(&models, false)
                            .unwrap()
                    })
                    .count()
            })
        },
    );
    group.finish();

    let yaml: serde_json::Value = mosaic_core::yaml::parse("node_roles.yaml", ROLES).unwrap();
    let names: Vec<&str> = [
        "controller",
        "compute",
        "compute",
        "cinder",
        "ceph-osd",
        "mongo",
    ]
    .to_vec();
    let nodes: Vec<NodeRoles> = (0..1000)
        .map(|i| NodeRoles {
            id: json!(i),
            roles: vec![RoleName::new(names[i % names.len()]).unwrap()],
            pending_deletion: i % 50 == 0,
        })
        .collect();
    let mut group = c.benchmark_group("roles");
    group.bench_function("bundled release, 1,000 nodes: parse roles + check", |b| {
        b.iter(|| {
            let roles = parse_roles(black_box(&yaml)).unwrap();
            check_roles(&roles, &models, black_box(&nodes))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
