//! Fuel's own numbers: each test names the test or formula of
//! openstack/fuel-web's `nailgun/extensions/volume_manager/` it comes from
//! (`tests/test_node_disks.py`, `manager.py`).

use serde_json::{Value, json};

use super::edit;
use super::generator::{root_size, swap_size};
use super::*;

fn bundled() -> VolumesMetadata {
    let text = include_str!("../../../releases/openstack/volumes.yaml");
    let value: Value = crate::yaml::parse("volumes.yaml", text).expect("bundled volumes.yaml");
    VolumesMetadata::merged([("release 'openstack'".to_string(), &value)]).expect("merged")
}

fn machine(disks: &[(&str, i64)], ram_mb: u64) -> Machine {
    Machine {
        disks: disks
            .iter()
            .map(|(name, size)| MachineDisk {
                id: name.to_string(),
                name: name.to_string(),
                size: *size,
                extra: Vec::new(),
            })
            .collect(),
        memory: Some(ram_mb << 20),
    }
}

fn node<'a>(meta: &'a VolumesMetadata, roles: &'a [&'a str]) -> NodeVolumes<'a> {
    NodeVolumes {
        meta,
        roles,
        images_ceph: false,
    }
}

/// A volume's share over every disk, LVM metadata left out.
fn usable(layout: &DiskLayout, volume: &str) -> i64 {
    simple(layout)
        .iter()
        .flat_map(|d| d.volumes.clone())
        .filter(|v| v.name == volume)
        .map(|v| v.size)
        .sum()
}

use super::layout::simple;

/// `test_root_size_calculation`: swap by RAM, Fuel's seven cases and its
/// eighth (81920 → 4096).
#[test]
fn swap_follows_the_memory_as_fuel_s_table_says() {
    let cases = [
        (2, 4),
        (2048, 4096),
        (2049, 2049),
        (8192, 8192),
        (8193, 4096),
        (65536, 32768),
        (65537, 4096),
        (81920, 4096),
    ];
    for (ram, swap) in cases {
        assert_eq!(swap_size(Some(ram << 20)), swap, "{ram} MB of RAM");
    }
}

/// `_calc_root_size`: 20 % of the first disk, within 15360..=51200.
#[test]
fn root_is_a_fifth_of_the_first_disk_clamped_to_15_and_50_gib() {
    assert_eq!(root_size(Some(10_000)), 15360);
    assert_eq!(root_size(Some(76_800)), 15360);
    assert_eq!(root_size(Some(100_000)), 20000);
    assert_eq!(root_size(Some(256_000)), 51200);
    assert_eq!(root_size(Some(1_000_000)), 51200);
    assert_eq!(root_size(None), 15360);
    // The first disk by name, whatever the others are.
    let meta = bundled();
    let layout =
        node(&meta, &["compute"]).defaults(&machine(&[("sda", 100_000), ("sdb", 1_000_000)], 4096));
    let info = node(&meta, &["compute"]).info(&layout);
    assert_eq!(info[0].name, "os");
    assert_eq!(info[0].min_size, 20000 + 4096);
}

/// `test_allocates_all_free_space_for_vm_for_compute_role`: the OS at its
/// minimum, `vm` everything else; every disk's spaces sum to the disk
/// (`check_disk_size_equal_sum_of_all_volumes`).
#[test]
fn a_compute_gets_the_os_at_its_minimum_and_the_rest_for_vm() {
    let meta = bundled();
    let layout =
        node(&meta, &["compute"]).defaults(&machine(&[("sda", 200_000), ("sdb", 100_000)], 8192));
    let os_min = root_size(Some(200_000)) + 8192;
    assert_eq!(usable(&layout, "os"), os_min);
    for d in &layout.disks {
        assert_eq!(
            d.volumes.iter().map(Space::size).sum::<i64>(),
            d.size,
            "{}",
            d.name
        );
    }
    // Each disk: 300 boot records, 200 /boot, 64 per volume group (2).
    let reserved = 2 * (300 + 200 + 2 * 64);
    assert_eq!(usable(&layout, "vm"), 300_000 - reserved - os_min);
    // The OS on the first disk only; /boot a RAID member on two disks.
    assert!(matches!(
        layout.disks[0].volumes[1],
        Space::BootPartition {
            size: 200,
            raid: true
        }
    ));
    assert_eq!(
        simple(&layout)[1]
            .volumes
            .iter()
            .find(|v| v.name == "os")
            .unwrap()
            .size,
        0
    );
    assert!(layout.disks[0].bootable && !layout.disks[1].bootable);
}

/// `test_check_disk_space_for_deployment` and `__calc_minimal_installation_size`:
/// disks × (200 + 300) + every volume's minimum. A compute on one disk of
/// exactly that has the disk space; one MB less has not.
///
/// The volume check (`check_volume_sizes_for_deployment`) then wants each
/// group's physical volumes, their LVM metadata counted (Fuel's
/// `get_total_allocated_size`), at its minimum: the metadata of the two
/// groups (128) is room the minimal installation does not count, and the
/// last group's own 64 counts towards its minimum. Exactly enough is
/// 64 more than the minimal installation; one MB less fails, with Fuel 9's line.
#[test]
fn the_minimal_installation_is_the_boundary() {
    let meta = bundled();
    let roles = ["compute"];
    let compute = node(&meta, &roles);
    // RAM 4096: swap 4096; a small disk: root 15360; vm 5120.
    let minimal = 500 + (15360 + 4096) + 5120;
    let space = |size: i64| {
        let layout = compute.defaults(&machine(&[("sda", size)], 4096));
        VolumeManager::over(&meta, node_spaces(&meta, roles, 1, false), &layout).enough_disk_space()
    };
    assert!(space(minimal) && !space(minimal - 1));

    let exact = compute.defaults(&machine(&[("sda", minimal + 64)], 4096));
    assert_eq!(compute.shortage(&exact), None, "{exact:#?}");
    let short = compute.defaults(&machine(&[("sda", minimal + 63)], 4096));
    let lines = compute.shortage(&short).expect("one MB short");
    assert_eq!(
        lines,
        ["Volume group 'Virtual Storage' requires a minimum of 5120MB"]
    );
    let shortage = DiskShortage {
        node_id: 1,
        node: "node-1".into(),
        lines,
    };
    assert_eq!(
        shortage.message(),
        "Node 'node-1' has insufficient disk space\nVolume group 'Virtual Storage' requires a minimum of 5120MB"
    );
    let tiny = compute.defaults(&machine(&[("sda", minimal - 1)], 4096));
    assert!(compute.shortage(&tiny).is_some());
}

/// `get_allocate_size` and `test_allocates_space_single_disk_for_ceph_for_ceph_role`:
/// `full-disk` is `all` on one disk; on two (`test_allocates_full_disks_for_ceph_for_ceph_role`)
/// Ceph takes the disk the OS leaves alone, and nothing of the OS's.
#[test]
fn full_disk_is_all_on_one_disk_and_the_empty_disks_on_two() {
    let meta = bundled();
    let osd = node(&meta, &["ceph-osd"]);
    let one = osd.defaults(&machine(&[("sda", 30000)], 2048));
    let os = root_size(Some(30000)) + 4096;
    // One volume group (os): 64 kept; ceph gets the rest of the one disk.
    assert_eq!(usable(&one, "ceph"), 30000 - 500 - 64 - os);
    let two = osd.defaults(&machine(&[("sda", 30000), ("sdb", 50000)], 2048));
    let disks = simple(&two);
    let ceph = |i: usize| {
        disks[i]
            .volumes
            .iter()
            .find(|v| v.name == "ceph")
            .unwrap()
            .size
    };
    assert_eq!(ceph(0), 0, "the OS's disk is not Ceph's");
    assert_eq!(ceph(1), 50000 - 500 - 64);
    assert_eq!(osd.shortage(&two), None);
}

/// `exclude_glance_partition` and `test_no_glance_partition_when_ceph_used_for_images`.
#[test]
fn a_controller_has_no_image_volume_when_images_are_in_ceph() {
    let meta = bundled();
    let roles = ["controller"];
    let with_file = node(&meta, &roles);
    let with_ceph = NodeVolumes {
        images_ceph: true,
        ..with_file
    };
    let names = |n: &NodeVolumes<'_>| -> Vec<String> {
        let layout = n.defaults(&machine(&[("sda", 500_000)], 16384));
        n.info(&layout).into_iter().map(|v| v.name).collect()
    };
    assert_eq!(
        names(&with_file),
        ["os", "logs", "image", "mysql", "horizon"]
    );
    assert_eq!(names(&with_ceph), ["os", "logs", "mysql", "horizon"]);
}

/// `test_get_node_spaces_with_plugins`: a plugin's role and volume group
/// (a Contrail database's shape) placed like the release's own.
#[test]
fn a_plugin_roles_volume_is_placed() {
    let plugin = json!({
        "volumes": [{
            "id": "analytics-db", "type": "vg", "label": "Analytics Database",
            "min_size": {"generator": "calc_gb_to_mb", "generator_args": [30]},
            "volumes": [{"mount": "/var/lib/analytics", "type": "lv", "name": "db",
                          "file_system": "ext4",
                          "size": {"generator": "calc_total_vg", "generator_args": ["analytics-db"]}}]
        }],
        "volumes_roles_mapping": {"analytics": [
            {"allocate_size": "min", "id": "os"}, {"allocate_size": "all", "id": "analytics-db"}
        ]}
    });
    let text = include_str!("../../../releases/openstack/volumes.yaml");
    let release: Value = crate::yaml::parse("volumes.yaml", text).unwrap();
    let meta = VolumesMetadata::merged([
        ("release 'openstack'".to_string(), &release),
        ("plugin 'analytics'".to_string(), &plugin),
    ])
    .unwrap();
    let n = node(&meta, &["analytics"]);
    let layout = n.defaults(&machine(&[("sda", 100_000)], 4096));
    assert_eq!(
        usable(&layout, "analytics-db"),
        100_000 - 500 - 128 - (20000 + 4096)
    );
    assert_eq!(n.shortage(&layout), None);
    let small = n.defaults(&machine(&[("sda", 40_000)], 4096));
    assert_eq!(
        n.shortage(&small).unwrap(),
        ["Volume group 'Analytics Database' requires a minimum of 30720MB"]
    );
}

/// SEMANTICS §14: an id two sources declare is an error naming both.
#[test]
fn a_volume_declared_twice_names_both_sources() {
    let release = json!({"volumes": [{"id": "os", "type": "vg"}]});
    let plugin = json!({"volumes": [{"id": "os", "type": "vg"}],
                        "volumes_roles_mapping": {"r": [{"id": "os", "allocate_size": "most"}]}});
    let errors = VolumesMetadata::merged([
        ("release 'openstack'".to_string(), &release),
        ("plugin 'p'".to_string(), &plugin),
    ])
    .unwrap_err();
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "plugin 'p': volumes_roles_mapping.r[0].allocate_size: 'most' is none of min, all, full-disk"
        ]
    );
    let plugin = json!({"volumes": [{"id": "os", "type": "vg"}]});
    let errors = VolumesMetadata::merged([
        ("release 'openstack'".to_string(), &release),
        ("plugin 'p'".to_string(), &plugin),
    ])
    .unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "plugin 'p': volumes.os: volume 'os' is also declared by release 'openstack'"
    );
}

/// Several `all` volumes share what is left equally, the last taking the
/// remainder (`test_multirole_controller_cinder_ceph`: within 1 MB).
#[test]
fn all_volumes_share_what_is_left() {
    let meta = bundled();
    let roles = ["controller", "cinder"];
    let n = node(&meta, &roles);
    let layout = n.defaults(&machine(&[("sda", 300_001)], 16384));
    let (image, cinder) = (usable(&layout, "image"), usable(&layout, "cinder"));
    assert!((image - cinder).abs() <= 1, "{image} vs {cinder}");
    let d = &layout.disks[0];
    assert_eq!(d.volumes.iter().map(Space::size).sum::<i64>(), d.size);
}

/// `pick_default_bootable_disk` (`test_boot_flag_default_pick_nvme`,
/// `test_boot_flag_default_pick_md`).
#[test]
fn the_boot_disk_skips_nvme_and_follows_root_onto_md() {
    let meta = bundled();
    let n = node(&meta, &["compute"]);
    let nvme = n.defaults(&machine(&[("nvme0n1", 100_000), ("sda", 100_000)], 4096));
    assert!(!nvme.disks[0].bootable && nvme.disks[1].bootable);
    let md = n.defaults(&machine(&[("md0", 100_000), ("sda", 100_000)], 4096));
    assert!(md.disks[0].bootable, "root is on md0");
}

/// `format_disks_to_full` and the validator: a layout sent is applied,
/// the sizes Fuel's; what is wrong is refused, every problem at once.
#[test]
fn a_layout_sent_is_applied_or_refused_with_fuels_messages() {
    let meta = bundled();
    let n = node(&meta, &["compute"]);
    let stored = n.defaults(&machine(&[("sda", 100_000), ("sdb", 100_000)], 4096));
    let mut sent = simple(&stored);
    let vm = sent[1].volumes.iter_mut().find(|v| v.name == "vm").unwrap();
    vm.size = 50_000;
    let applied = n.apply(&stored, &sent).unwrap();
    assert_eq!(simple(&applied), sent);
    assert_eq!(
        usable(&applied, "vm"),
        usable(&stored, "vm") - (sent[1].size - 50_000)
    );

    let mut bad = simple(&stored);
    bad[0].volumes[0].size = -1;
    bad[1].volumes[1].size = 1_000_000;
    bad[1].volumes.push(VolumeEntry {
        name: "ceph".into(),
        size: 0,
        keep_data: false,
    });
    bad[0].bootable = true;
    bad[1].bootable = true;
    bad.push(DiskEntry {
        id: "sdz".into(),
        ..bad[0].clone()
    });
    let problems: Vec<String> = n
        .apply(&stored, &bad)
        .unwrap_err()
        .into_iter()
        .map(|p| format!("{}: {}", p.path, p.message))
        .collect();
    assert_eq!(
        problems,
        [
            "[0].volumes[0].size: The size of volume 'os' on disk 'sda' is negative: -1".to_string(),
            "[1].volumes[2].name: Unknown volume 'ceph' on disk 'sdb'".into(),
            format!("[1].volumes: Not enough free space on disk: sdb (1000000 MB asked, {} MB available)", stored.disks[1].entry().size),
            "[2].id: Unknown disk 'sdz'".into(),
            ": Disks sda, sdb, sdz can not be selected as bootable at the same time. Only one disk should be selected as bootable.".into(),
        ]
    );
    assert_eq!(
        n.apply(&stored, &[]).unwrap_err()[0].message,
        "Node seems not to have disks"
    );
}

/// The screen's live messages (fuel-ui's `getMinimalSize`, `getMaxSize`,
/// `validate`).
#[test]
fn the_screen_says_too_small_and_too_much_as_the_operator_types() {
    let meta = bundled();
    let n = node(&meta, &["compute"]);
    let stored = n.defaults(&machine(&[("sda", 100_000)], 4096));
    let info = n.info(&stored);
    let draft = edit::with_size(&simple(&stored), 0, "vm", 100);
    let bounds = edit::bounds(&draft, &info);
    let vm = bounds[0].volumes.iter().find(|v| v.name == "vm").unwrap();
    assert_eq!(
        vm.error.as_deref(),
        Some("The size is too small. Allocate at least 5120 MB.")
    );
    assert_eq!(vm.max, draft[0].size - usable(&stored, "os"));
    assert!(!edit::applicable(&bounds));
    let clamped = edit::with_size(&draft, 0, "vm", 10_000_000);
    assert_eq!(edit::bounds(&clamped, &info)[0].unallocated, 0);
}

/// Many nodes at once: the same roles and sorted disk sizes, else named.
#[test]
fn one_layout_fits_nodes_with_the_same_disks_only() {
    let meta = bundled();
    let n = node(&meta, &["compute"]);
    let a = n.defaults(&machine(&[("sda", 100_000), ("sdb", 50_000)], 4096));
    let b = n.defaults(&machine(&[("vda", 100_000), ("vdb", 50_000)], 4096));
    let c = n.defaults(&machine(&[("sda", 100_000)], 4096));
    let roles = ["compute"];
    let sel = |name, layout| Selected {
        name,
        roles: &roles,
        layout,
    };
    assert_eq!(same_capacities(&[sel("a", &a), sel("b", &b)]), Ok(()));
    assert_eq!(
        same_capacities(&[sel("a", &a), sel("b", &b), sel("c", &c)]).unwrap_err(),
        "Selected nodes have different disk capacities. Unlike a: c"
    );
    let moved = by_position(&simple(&a), &b);
    assert_eq!(moved[0].id, "vda");
    assert!(n.apply(&b, &moved).is_ok());
}

/// A layout read from a file is held to what Mosaic could have made.
#[test]
fn a_layout_no_allocation_could_make_is_named() {
    let meta = bundled();
    let n = node(&meta, &["compute"]);
    let mut layout = n.defaults(&machine(&[("sda", 100_000)], 4096));
    assert!(layout.problems().is_empty());
    layout.disks[0].volumes[0] = Space::Boot { size: i64::MAX };
    layout.disks.push(LaidDisk {
        size: -1,
        ..layout.disks[0].clone()
    });
    assert_eq!(
        layout.problems(),
        [
            format!(
                "disks[0] (sda).volumes[0]: size {} MB does not fit the disk",
                i64::MAX
            ),
            "disks[0] (sda): its spaces take 9223372036854775807 MB of 100000 MB".into(),
            "disks[1] (sda): disk 'sda' is named twice".into(),
            "disks[1] (sda): size -1 MB is no disk's".into(),
        ]
    );
}

/// A volume too small is said on the rows the operator can change, not on
/// a disk with no room for it.
#[test]
fn too_small_is_said_where_the_operator_can_act() {
    let meta = bundled();
    let n = node(&meta, &["compute"]);
    let stored = n.defaults(&machine(&[("sda", 100_000), ("sdb", 50_000)], 4096));
    let info = n.info(&stored);
    // sdb all vm: the OS has no room there.
    let draft = edit::with_size(&simple(&stored), 0, "os", 1000);
    let bounds = edit::bounds(&draft, &info);
    let os = |d: usize| {
        bounds[d]
            .volumes
            .iter()
            .find(|v| v.name == "os")
            .unwrap()
            .clone()
    };
    assert!(os(0).error.is_some());
    assert_eq!((os(1).size, os(1).max, os(1).error), (0, 0, None));
}
