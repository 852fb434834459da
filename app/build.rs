//! Collects every `style!` block of the app into one CSS file that Trunk
//! copies next to the app (see Trunk.toml's post-build hook).

fn main() {
    println!("cargo:rerun-if-changed=src");
    let out =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/stylers/mosaic-app.css");
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).expect("cannot create target/stylers");
    }
    stylers::build(Some(out.display().to_string()));
}
