//! Collects every `style!` block of the app into one CSS file that Trunk's
//! post-build hook copies next to the app (scripts/post-build.mjs), and
//! links the app's binary for the split by route: `--emit-relocs` keeps
//! the relocations the splitter (tools/wasm-split) reads the call graph
//! from. Only the binary: the browser tests and the dependencies link and
//! build as before.

fn main() {
    println!("cargo:rerun-if-changed=src");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
    // Read when the script runs, not when it is compiled: a target directory
    // shared by several checkouts runs one compiled script for each of them.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = std::path::Path::new(&manifest).join("../target/stylers/mosaic-app.css");
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).expect("cannot create target/stylers");
    }
    stylers::build(Some(out.display().to_string()));
}
