//! The bundled release (`releases/openstack`), read from the repository
//! and loaded as the server installs it.

use std::path::Path;

use mosaic_core::plugin::{MemoryFiles, load};
use mosaic_core::release::Release;

fn read_dir(root: &Path, dir: &Path, files: &mut MemoryFiles) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let relative = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            files.insert_dir(&relative);
            read_dir(root, &path, files);
        } else {
            files.insert(&relative, std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// The bundled release record, its package loaded without errors.
pub fn release() -> Release {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../releases/openstack");
    let mut files = MemoryFiles::new();
    read_dir(&root, &root, &mut files);
    let loaded = load(&files);
    let package = loaded
        .package
        .unwrap_or_else(|| panic!("{}", loaded.report));
    package.releases().next().unwrap().clone()
}
