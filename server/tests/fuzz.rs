//! Fuzzing what crosses the server's edge: package archives (mutated real
//! ones, and archives of random members) through unpacking and the plugin
//! loader, and random JSON bodies on every JSON route. Nothing panics, no
//! request is answered 500, every refusal is the error body.
//!
//! `PROPTEST_CASES` sets the number of cases; `MOSAIC_FUZZ_SECONDS` runs
//! for that long instead (`make fuzz`).

#[path = "../../core/tests/common/fuzz.rs"]
mod fuzz;
mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use fuzz::fuzz;
use mosaic_core::plugin::load;
use proptest::prelude::*;
use serde_json::{Value, json};
use support::{TestApp, archive, plugin_fixture, test_app};

/// One change to an archive's bytes.
#[derive(Debug, Clone)]
enum Mutation {
    Flip { at: usize, bits: u8 },
    Cut { at: usize },
    Insert { at: usize, bytes: Vec<u8> },
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let len = bytes.len().max(1);
        match m {
            Mutation::Flip { at, bits } => {
                let i = at % len;
                if let Some(b) = bytes.get_mut(i) {
                    *b ^= *bits;
                }
            }
            Mutation::Cut { at } => bytes.truncate(at % len),
            Mutation::Insert { at, bytes: more } => {
                let i = at % len;
                let i = i.min(bytes.len());
                bytes.splice(i..i, more.iter().copied());
            }
        }
    }
    bytes
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(at, bits)| Mutation::Flip { at, bits }),
        any::<usize>().prop_map(|at| Mutation::Cut { at }),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..64))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
    ]
}

/// Unpacks and loads `bytes`: any outcome but a panic will do.
fn unpack_and_load(bytes: &[u8]) {
    if let Ok(files) = mosaic_server::package::unpack(bytes) {
        let loaded = load(&files);
        let _ = loaded.report.summary();
    }
}

/// Members of a made-up package: paths from a small vocabulary (with
/// escapes and globs), contents from YAML-ish pieces.
fn member() -> impl Strategy<Value = (String, String)> {
    let dirs = prop::sample::select(vec!["", "pkg/", "../", "pkg/graphs/", "/abs/", "pkg/./x/"]);
    let names = prop::sample::select(vec![
        "metadata.yaml",
        "components.yaml",
        "node_roles.yaml",
        "deployment_tasks.yaml",
        "environment_config.yaml",
        "volumes.yaml",
        "a[]].yaml",
        "*.yaml",
        "x.sh",
    ]);
    let text = prop::sample::select(vec![
        "name: demo\nversion: 1.0.0\npackage_version: 5.0.0\n",
        "releases:\n  - os: ubuntu\n    version: x\n",
        "\"a[]]\": {name: x}\n",
        "- id: t\n  type: puppet\n  requires: [\"*\"]\n",
        "components_path: \"**/*.yaml\"\n",
        "&a [*a, *a]\n",
        "<<: {a: 1}\n",
        "{",
        "",
    ]);
    (dirs, names, prop::collection::vec(text, 0..4))
        .prop_map(|(d, n, parts)| (format!("{d}{n}"), parts.concat()))
}

fn zip_of(members: &[(String, String)]) -> Option<Vec<u8>> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (path, text) in members {
        if zip
            .start_file(path.as_str(), zip::write::SimpleFileOptions::default())
            .is_ok()
        {
            let _ = zip.write_all(text.as_bytes());
        }
    }
    zip.finish().ok().map(std::io::Cursor::into_inner)
}

/// One archive: a real package with its bytes changed, or a zip of
/// random members.
#[derive(Debug, Clone)]
enum Archive {
    Mutated(Vec<Mutation>),
    Members(Vec<(String, String)>),
}

#[test]
fn package_archives_never_panic() {
    let original = archive(&plugin_fixture("v5-example"));
    let strategy = prop_oneof![
        prop::collection::vec(mutation(), 1..6).prop_map(Archive::Mutated),
        prop::collection::vec(member(), 0..12).prop_map(Archive::Members),
    ];
    fuzz("archives", 600, strategy, |case| {
        let bytes = match case {
            Archive::Mutated(mutations) => Some(mutate(original.clone(), &mutations)),
            Archive::Members(members) => zip_of(&members),
        };
        if let Some(bytes) = bytes {
            unpack_and_load(&bytes);
        }
        Ok(())
    });
}

/// JSON of the shapes request bodies have, with field names the API knows.
fn json_value() -> impl Strategy<Value = Value> {
    let key = prop::sample::select(vec![
        "name",
        "release_id",
        "components",
        "roles",
        "tags",
        "status",
        "editable",
        "value",
        "enabled",
        "has_primary",
        "environment",
        "picks",
        "username",
        "password",
        "path",
        "pending_deletion",
        "mode",
        "common",
        "debug",
        "x",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        "\\PC{0,12}".prop_map(Value::from),
        Just(json!("controller")),
        Just(json!("hypervisor:libvirt:kvm")),
        Just(json!("a[]]")),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..5).prop_map(|m| Value::Object(
                m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    })
}

const ROUTES: &[(&str, &str)] = &[
    ("POST", "/api/v1/clusters"),
    ("POST", "/api/v1/clusters/1/nodes"),
    ("PUT", "/api/v1/nodes/1"),
    ("POST", "/api/v1/nodes/1/tags"),
    ("DELETE", "/api/v1/nodes/1/tags"),
    ("PATCH", "/api/v1/clusters/1/attributes"),
    ("POST", "/api/v1/clusters/1/tags"),
    ("PUT", "/api/v1/clusters/1/tags/rack"),
    ("POST", "/api/v1/releases/1/tags"),
    ("POST", "/api/v1/session"),
    ("POST", "/api/v1/plugins"),
    ("POST", "/api/v1/clusters/import?name=fuzz"),
];

/// The app with an environment, a node and a tag to aim at.
fn target() -> (tokio::runtime::Runtime, TestApp) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let app = runtime.block_on(async {
        let app = test_app().await;
        app.environment("prod").await;
        app.post(
            "/api/v1/clusters/1/nodes",
            &json!({"roles": ["controller"]}),
        )
        .await;
        app.post("/api/v1/clusters/1/tags", &json!({"name": "rack"}))
            .await;
        app
    });
    (runtime, app)
}

#[test]
fn random_json_bodies_are_answered_never_with_500() {
    let (runtime, app) = target();
    let strategy = (0..ROUTES.len(), json_value());
    fuzz("api", 200, strategy, |(route, body)| {
        let (method, uri) = ROUTES[route];
        let content_type = if uri.contains("import") {
            "application/yaml"
        } else {
            "application/json"
        };
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", content_type)
            .body(Body::from(body.to_string()))
            .unwrap();
        let (status, answer) = runtime.block_on(app.send(request));
        prop_assert!(
            status != StatusCode::INTERNAL_SERVER_ERROR,
            "{method} {uri} {body}: {answer}"
        );
        prop_assert!(
            status.is_success() || answer["error"]["code"].is_string(),
            "{method} {uri} {body}: {status} {answer}"
        );
        Ok(())
    });
}
