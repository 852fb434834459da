//! Embeds the bundled release plugin (`releases/openstack`): writes the list
//! of its files, each with `include_str!`, for `src/bundled.rs`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(root, &path, out);
        } else {
            let relative = path
                .strip_prefix(root)
                .expect("inside the root")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((relative, path));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest.join("../releases/openstack");
    println!("cargo::rerun-if-changed={}", root.display());
    // `sqlx::migrate!` embeds the migrations: a new one must rebuild.
    println!("cargo::rerun-if-changed=migrations");
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    let mut code = String::from("&[\n");
    for (relative, path) in &files {
        println!("cargo::rerun-if-changed={}", path.display());
        writeln!(
            code,
            "    ({relative:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a string");
    }
    code.push_str("]\n");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("bundled_files.rs");
    std::fs::write(out, code).expect("cannot write bundled_files.rs");
}
