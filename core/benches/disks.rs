//! Disk layouts at scale (issue 52): the defaults of 10,000 nodes of 12
//! disks each, with the bundled release's volumes (SEMANTICS §14) — a
//! controller, a compute, a Cinder and a Ceph OSD node in turn — and the
//! checks of the same 10,000 layouts (what the environment's checks, an
//! export and a run's start do).
//!
//! Run with `cargo bench -p mosaic-core --bench disks` (or `make bench`);
//! figures are in docs/benchmarks.md.

use criterion::{Criterion, criterion_group, criterion_main};
use mosaic_core::disks::{DiskLayout, Machine, MachineDisk, NodeVolumes, VolumesMetadata};
use serde_json::Value;
use std::hint::black_box;

const NODES: usize = 10_000;
const ROLES: [&[&str]; 4] = [&["controller"], &["compute"], &["cinder"], &["ceph-osd"]];

fn bundled() -> VolumesMetadata {
    let text = include_str!("../../releases/openstack/volumes.yaml");
    let value: Value = mosaic_core::yaml::parse("volumes.yaml", text).expect("volumes.yaml");
    VolumesMetadata::merged([("release openstack".to_string(), &value)]).expect("merged")
}

/// Twelve disks of 0.5 to 4 TB, named `sda`…`sdl`; 64–256 GB of memory.
fn machine(i: usize) -> Machine {
    let disks = (0..12)
        .map(|d| {
            let name = format!("sd{}", (b'a' + d as u8) as char);
            MachineDisk {
                id: name.clone(),
                name,
                size: 500_000 * (1 + ((i + d) % 8) as i64),
                extra: Vec::new(),
            }
        })
        .collect();
    Machine {
        disks,
        memory: Some((64 << 30) * (1 + (i % 4) as u64)),
    }
}

fn defaults(meta: &VolumesMetadata, machines: &[Machine]) -> Vec<DiskLayout> {
    machines
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let node = NodeVolumes {
                meta,
                roles: ROLES[i % ROLES.len()],
                images_ceph: false,
            };
            node.defaults(m)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let meta = bundled();
    let machines: Vec<Machine> = (0..NODES).map(machine).collect();
    let mut group = c.benchmark_group("disks");
    group.sample_size(10);
    group.bench_function("defaults of 10,000 nodes of 12 disks", |b| {
        b.iter(|| black_box(defaults(&meta, black_box(&machines))))
    });
    let layouts = defaults(&meta, &machines);
    group.bench_function("checks of 10,000 layouts", |b| {
        b.iter(|| {
            layouts
                .iter()
                .enumerate()
                .filter(|(i, l)| {
                    let node = NodeVolumes {
                        meta: &meta,
                        roles: ROLES[i % ROLES.len()],
                        images_ceph: false,
                    };
                    node.shortage(l).is_some()
                })
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
