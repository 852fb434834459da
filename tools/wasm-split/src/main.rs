//! Splits the app's WebAssembly by route: the build step Trunk cannot run
//! (it has no hook between cargo and wasm-bindgen), called by
//! `scripts/post-build.mjs`. It is our own binary rather than the
//! splitter's (`wasm-split-cli`) because that one cannot name the link
//! module the main module imports, which the hook gives a hashed name.
//!
//! ```text
//! mosaic-wasm-split INPUT OUT_DIR MAIN_MODULE LINK_NAME
//! ```
//!
//! INPUT is cargo's module (linked with `--emit-relocs`, app/build.rs).
//! OUT_DIR receives `main.wasm` (for wasm-bindgen), a `split_*.wasm` per
//! lazy route, a `chunk_*.wasm` per piece of code two routes share, and
//! the link module LINK_NAME (JavaScript that loads them, importing
//! `initSync` from MAIN_MODULE). Prints the modules written, as JSON:
//! `{"main": "main.wasm", "modules": [...]}`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, out_dir, main_module, link_name] = args.as_slice() else {
        eprintln!("usage: mosaic-wasm-split INPUT OUT_DIR MAIN_MODULE LINK_NAME");
        return ExitCode::from(2);
    };
    match split(Path::new(input), Path::new(out_dir), main_module, link_name) {
        Ok(modules) => {
            let names: Vec<String> = modules.iter().map(|m| file_name(m)).collect();
            println!(
                "{}",
                serde_json::json!({ "main": "main.wasm", "modules": names })
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("mosaic-wasm-split: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Splits `input` into `out_dir`; the modules written besides `main.wasm`.
fn split(
    input: &Path,
    out_dir: &Path,
    main_module: &str,
    link_name: &str,
) -> Result<Vec<PathBuf>, String> {
    let bytes = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let main_out = out_dir.join("main.wasm");
    let mut options = wasm_split_cli_support::Options::new(&bytes);
    options.output_dir = out_dir;
    options.main_out_path = &main_out;
    options.main_module = main_module;
    options.link_name = link_name;
    let split = wasm_split_cli_support::transform(options)
        .map_err(|e| format!("{}: {e:?}", input.display()))?;
    Ok(split.split_modules)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
