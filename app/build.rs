//! Collects every `style!` block of the app into one CSS file that Trunk's
//! post-build hook copies next to the app (scripts/post-build.mjs).

fn main() {
    println!("cargo:rerun-if-changed=src");
    // Read when the script runs, not when it is compiled: a target directory
    // shared by several checkouts runs one compiled script for each of them.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = std::path::Path::new(&manifest).join("../target/stylers/mosaic-app.css");
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).expect("cannot create target/stylers");
    }
    stylers::build(Some(out.display().to_string()));
}
