//! Hostile uploads never crash the server nor exhaust it: a role key that
//! once panicked the validator, archives that inflate (gzip, zip, links),
//! and a glob that once took exponential time are each refused or answered
//! with the error body.

mod support;

use std::io::Write;

use axum::http::StatusCode;
use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::Value;
use support::{archive, copy_dir, plugin_fixture, test_app};

/// The v5 example with `extra` appended to `file`.
fn example_with(file: &str, extra: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("pkg");
    copy_dir(&plugin_fixture("v5-example"), &root);
    let path = root.join(file);
    let mut text = std::fs::read_to_string(&path).unwrap_or_default();
    text.push_str(extra);
    std::fs::write(&path, text).unwrap();
    (dir, root)
}

fn message(body: &Value) -> String {
    body["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_role_key_with_brackets_is_reported_not_a_crash() {
    let app = test_app().await;
    let (_keep, root) = example_with(
        "node_roles.yaml",
        "\"a[]]\":\n  name: Broken\n  description: x\n",
    );
    let (status, body) = app.upload(archive(&root)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert_eq!(body["error"]["code"], "invalid_plugin");
    let report = body["error"]["report"].to_string();
    assert!(report.contains("node_roles.yaml"), "{report}");
    // And the server still answers.
    assert_eq!(app.get("/api/v1/plugins").await.0, StatusCode::OK);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mosaic"))
        .args(["plugin", "validate"])
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("node_roles.yaml"));
}

/// A `.tar.gz` of `entries` (path, bytes) and links (path, target).
fn tarball(entries: &[(&str, &[u8])], links: &[(&str, &str)]) -> Vec<u8> {
    let mut tar = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::fast()));
    for (path, bytes) in entries {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        tar.append_data(&mut header, path, *bytes).unwrap();
    }
    for (path, target) in links {
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(tar::EntryType::Symlink);
        header.set_size(0);
        tar.append_link(&mut header, path, target).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}

#[tokio::test]
async fn archives_that_inflate_are_refused_by_what_they_unpack_to() {
    let app = test_app().await;
    let zeros = vec![0u8; 64 << 20];
    let gzip_bomb = tarball(
        &[
            ("pkg/metadata.yaml", b"name: x\n"),
            ("pkg/blob.bin", &zeros),
        ],
        &[],
    );
    assert!(
        gzip_bomb.len() < 1 << 20,
        "a bomb: {} bytes",
        gzip_bomb.len()
    );
    let (status, body) = app.upload(gzip_bomb).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert!(message(&body).contains("unpacks to more than"), "{body:#}");

    // One YAML file read again through many links.
    let yaml = format!("a: \"{}\"\n", "x".repeat(1 << 20));
    let links: Vec<(String, &str)> = (0..100)
        .map(|i| (format!("pkg/l{i}.yaml"), "big.yaml"))
        .collect();
    let link_refs: Vec<(&str, &str)> = links.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    let link_bomb = tarball(&[("pkg/big.yaml", yaml.as_bytes())], &link_refs);
    let (status, body) = app.upload(link_bomb).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert!(message(&body).contains("add up to more than"), "{body:#}");

    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("pkg/blob.yaml", options).unwrap();
    zip.write_all(&zeros).unwrap();
    let zip_bomb = zip.finish().unwrap().into_inner();
    let (status, body) = app.upload(zip_bomb).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert!(message(&body).contains("unpacks to more than"), "{body:#}");
}

#[tokio::test]
async fn a_glob_written_to_backtrack_is_answered() {
    let app = test_app().await;
    let pattern = format!("deployment_scripts/{}b.yaml", "*a".repeat(40));
    let (_keep, root) = example_with(
        "metadata.yaml",
        &format!("\nnode_roles_path: \"{pattern}\"\n"),
    );
    let scripts = root.join("deployment_scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    for i in 0..20 {
        std::fs::write(scripts.join(format!("{}{i}.yaml", "a".repeat(120))), "{}\n").unwrap();
    }
    let (status, body) = app.upload(archive(&root)).await;
    assert!(
        matches!(status, StatusCode::BAD_REQUEST | StatusCode::CREATED),
        "{status}: {body:#}"
    );
}
