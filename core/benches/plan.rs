//! Task placement and deployment plans at scale: 5,000 tasks (90 % with two
//! exact tags, 10 % with a regular expression) over 1,000 nodes carrying
//! 3–4 tags each; then the same with a tenth of the tasks carrying
//! cross-node relations (SEMANTICS §6.1).
//!
//! Run with `cargo bench -p mosaic-core --bench plan` (or `make bench`);
//! figures are in docs/benchmarks.md.

use criterion::{Criterion, criterion_group, criterion_main};
use mosaic_core::expr::JsonModels;
use mosaic_core::name::TagName;
use mosaic_core::tag::{MatcherId, Matchers};
use mosaic_core::task::{Definitions, Placement, PlanInput, PlanNode, TaskDef, plan};
use serde_json::json;
use std::hint::black_box;

/// A small deterministic generator (xorshift), so runs compare.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const TAGS: usize = 60;

/// Cross-node relations of one task, to earlier tasks only (the graph stays
/// acyclic): an exact id on the nodes of a tag, a pattern (one of nine,
/// naming tasks 10–99) on every node with `policy: any`, and an exact id on
/// the task's own node.
fn cross_depends(rng: &mut Rng, i: usize) -> serde_json::Value {
    json!([
        {"name": format!("task-{}", rng.below(i)), "role": format!("service-{}", rng.below(TAGS))},
        {"name": format!("/^task-{}[0-9]$/", 1 + rng.below(9)), "policy": "any"},
        {"name": format!("task-{}", rng.below(i)), "role": "self"},
    ])
}

/// The workload; with `cross`, a tenth of the tasks carry cross-node
/// relations.
fn workload(cross: bool) -> (Vec<TaskDef>, Vec<PlanNode>) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let tag = |i: usize| format!("service-{i}");
    let mut tasks = Vec::with_capacity(5_000);
    for i in 0..5_000 {
        let selector = if i % 10 == 0 {
            json!([format!("/service-{}.*/", rng.below(TAGS / 10))])
        } else {
            json!([tag(rng.below(TAGS)), tag(rng.below(TAGS))])
        };
        // Each task requires one or two earlier ones: a deep, acyclic graph.
        let mut requires = Vec::new();
        if i > 0 {
            requires.push(format!("task-{}", rng.below(i)));
        }
        if i > 1 && rng.below(2) == 0 {
            requires.push(format!("task-{}", rng.below(i)));
        }
        let mut task = json!({
            "id": format!("task-{i}"),
            "type": "puppet",
            "tags": selector,
            "requires": requires,
        });
        if cross && i >= 100 && i % 10 == 5 {
            task["cross-depends"] = cross_depends(&mut rng, i);
        }
        tasks.push(serde_json::from_value(task).unwrap());
    }
    let nodes = (0..1_000)
        .map(|id| PlanNode {
            id,
            tags: (0..3 + rng.below(2))
                .map(|_| TagName::new(tag(rng.below(TAGS))).unwrap())
                .collect(),
        })
        .collect();
    (tasks, nodes)
}

fn bench(c: &mut Criterion) {
    let (tasks, nodes) = workload(false);
    // What a plan does with the selectors: each distinct entry compiled
    // once, each task's selector the ids of its entries.
    let compile = || {
        let mut matchers = Matchers::default();
        let selectors: Vec<Vec<MatcherId>> = tasks
            .iter()
            .map(|t| matchers.selector(&t.selector).unwrap())
            .collect();
        (matchers, selectors)
    };
    let (matchers, selectors) = compile();
    let refs: Vec<&[MatcherId]> = selectors.iter().map(Vec::as_slice).collect();
    c.bench_function("placement: 5,000 tasks x 1,000 nodes", |b| {
        b.iter(|| Placement::new(&matchers, black_box(&refs), black_box(&nodes)))
    });
    c.bench_function(
        "selector parsing + placement: 5,000 tasks x 1,000 nodes",
        |b| {
            b.iter(|| {
                let (matchers, selectors) = compile();
                let refs: Vec<&[MatcherId]> = selectors.iter().map(Vec::as_slice).collect();
                Placement::new(&matchers, black_box(&refs), black_box(&nodes))
            })
        },
    );
    let definitions = Definitions {
        release: &tasks,
        plugins: &[],
        environment: &[],
    };
    let models = JsonModels::default();
    let input = PlanInput {
        definitions,
        nodes: &nodes,
        release_tags: &[],
        models: &models,
        cross: false,
    };
    let check = plan(input);
    assert!(check.errors.is_empty(), "{:?}", &check.errors[..1]);
    let listed: usize = check.nodes.iter().map(|n| n.tasks.len()).sum();
    println!("plan: {listed} (task, node) pairs placed");
    c.bench_function("full plan: 5,000 tasks x 1,000 nodes", |b| {
        b.iter(|| plan(black_box(input)))
    });
    bench_cross(c, &models);
}

/// The same plan with a tenth of the tasks carrying cross-node relations,
/// without and with the cross-node waits listed (`?cross=true`).
fn bench_cross(c: &mut Criterion, models: &JsonModels) {
    let (tasks, nodes) = workload(true);
    let input = PlanInput {
        definitions: Definitions {
            release: &tasks,
            plugins: &[],
            environment: &[],
        },
        nodes: &nodes,
        release_tags: &[],
        models,
        cross: false,
    };
    let check = plan(PlanInput {
        cross: true,
        ..input
    });
    assert!(check.errors.is_empty(), "{:?}", &check.errors[..1]);
    let waits = check.cross.as_deref().unwrap_or_default();
    let after: usize = waits.iter().map(|w| w.after.len()).sum();
    println!(
        "cross: {} waiting (task, node) pairs, {after} waits",
        waits.len()
    );
    c.bench_function(
        "full plan, a tenth of the tasks with cross-dependencies",
        |b| b.iter(|| plan(black_box(input))),
    );
    let listed = PlanInput {
        cross: true,
        ..input
    };
    c.bench_function("the same, with the cross-node waits listed", |b| {
        b.iter(|| plan(black_box(listed)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
