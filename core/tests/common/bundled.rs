//! The bundled release (`releases/openstack`), read from the repository
//! and loaded as the server installs it.

use std::path::Path;

use mosaic_core::component::{ComponentName, Registry};
use mosaic_core::plugin::{MemoryFiles, load};
use mosaic_core::release::Release;
use mosaic_core::wizard::Layout;

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

/// A selection as the wizard can make it: `choice[i]` picks the member of
/// each radio group (or none), the rest are independent checkboxes; ML2
/// drivers only when the ML2 core is picked.
pub fn selection(
    registry: &Registry,
    layout: &Layout,
    bits: &[bool],
    choices: &[usize],
) -> Vec<ComponentName> {
    let mut chosen = vec![false; registry.len()];
    let mut groups: Vec<Vec<usize>> = vec![layout.network.cores.clone()];
    groups.extend(
        layout
            .network
            .driver_groups
            .iter()
            .map(|g| g.members.clone()),
    );
    groups.extend(
        layout
            .storage
            .iter()
            .filter(|s| s.radio)
            .map(|s| s.members.clone()),
    );
    for (group, &choice) in groups.iter().zip(choices) {
        if let Some(&i) = group.get(choice % (group.len() + 1)) {
            chosen[i] = true;
        }
    }
    let in_groups: Vec<usize> = groups.concat();
    for i in (0..registry.len()).filter(|i| !in_groups.contains(i)) {
        chosen[i] = bits[i % bits.len()];
    }
    if layout.network.ml2_core.is_some_and(|m| !chosen[m]) {
        for &d in &layout.network.drivers {
            chosen[d] = false;
        }
    }
    (0..registry.len())
        .filter(|&i| chosen[i])
        .map(|i| registry.get(i).name.clone())
        .collect()
}
