//! Fuel's size generators (`manager.py`'s `call_generator`), each beside
//! the line of Fuel it comes from. Sizes are MiB ("MB" in Fuel).

use serde_json::Value;

/// A size as declared: a number, or a generator with its arguments.
#[derive(Debug, Clone, PartialEq)]
pub enum Amount {
    Mb(i64),
    Generated {
        generator: Generator,
        args: Vec<Value>,
    },
}

impl Amount {
    /// `42`, or `{generator: NAME, generator_args: [...]}`; absent: 0.
    pub fn read(value: &Value) -> Result<Amount, String> {
        match value {
            Value::Null => Ok(Amount::Mb(0)),
            Value::Number(n) => n
                .as_f64()
                .map(|f| Amount::Mb(f as i64))
                .ok_or_else(|| format!("{n} is not a size")),
            Value::Object(map) => {
                let name = map.get("generator").and_then(Value::as_str).unwrap_or("");
                let generator =
                    Generator::parse(name).ok_or_else(|| format!("unknown generator '{name}'"))?;
                let args = match map.get("generator_args") {
                    None => Vec::new(),
                    Some(Value::Array(a)) => a.clone(),
                    Some(_) => return Err("generator_args is a list".into()),
                };
                generator.check_args(&args)?;
                Ok(Amount::Generated { generator, args })
            }
            other => Err(format!("{other} is neither a size nor a generator")),
        }
    }
}

/// What a generator reads of the node: `manager.py`'s `VolumeManager`.
pub trait Sizes {
    /// The node's memory in bytes (unknown: none, and no swap).
    fn ram(&self) -> Option<u64>;
    /// The first disk's size (disks in name order), if any.
    fn first_disk(&self) -> Option<i64>;
    /// What a volume group holds: its physical volumes less LVM metadata.
    fn total_vg(&self, vg: &str) -> i64;
}

macro_rules! generators {
    ($($variant:ident = $name:literal),* $(,)?) => {
        /// The generators of Fuel 10's volume manager.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Generator { $($variant),* }

        impl Generator {
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            pub fn parse(name: &str) -> Option<Generator> {
                match name { $($name => Some(Generator::$variant),)* _ => None }
            }

            pub fn name(self) -> &'static str {
                match self { $(Generator::$variant => $name),* }
            }
        }
    };
}

generators! {
    SwapSize = "calc_swap_size",
    RootSize = "calc_root_size",
    BootSize = "calc_boot_size",
    BootRecordsSize = "calc_boot_records_size",
    MbrSize = "calc_mbr_size",
    LvmMetaSize = "calc_lvm_meta_size",
    TotalVg = "calc_total_vg",
    MinVmSize = "calc_min_vm_size",
    MinGlanceSize = "calc_min_glance_size",
    MinCinderSize = "calc_min_cinder_size",
    MinMongoSize = "calc_min_mongo_size",
    TotalRootVg = "calc_total_root_vg",
    MinCephSize = "calc_min_ceph_size",
    MinCephJournalSize = "calc_min_ceph_journal_size",
    MinMysqlSize = "calc_min_mysql_size",
    GbToMb = "calc_gb_to_mb",
    OsSize = "calc_os_size",
    OsVgSize = "calc_os_vg_size",
    MinOsSize = "calc_min_os_size",
}

/// `/boot`: 200 (`'calc_boot_size': lambda: 200`).
pub const BOOT_SIZE: i64 = 200;
/// EFI, GPT and BIOS records: 300 (`'calc_boot_records_size'`).
pub const BOOT_RECORDS_SIZE: i64 = 300;
/// One volume group's LVM metadata on a disk: 64 (`'calc_lvm_meta_size'`).
pub const LVM_META_SIZE: i64 = 64;

/// `gb_to_mb`: `int(gb * 1024)`.
pub fn gb_to_mb(gb: f64) -> i64 {
    (gb * 1024.0) as i64
}

impl Generator {
    fn check_args(self, args: &[Value]) -> Result<(), String> {
        let ok = match self {
            Generator::GbToMb => args.len() == 1 && args[0].is_number(),
            Generator::TotalVg => args.len() == 1 && args[0].is_string(),
            _ => args.is_empty(),
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "{}: unexpected generator_args {args:?}",
                self.name()
            ))
        }
    }

    /// The generator's value for a node (`call_generator`).
    pub fn call(self, args: &[Value], node: &dyn Sizes) -> i64 {
        match self {
            Generator::SwapSize => swap_size(node.ram()),
            Generator::RootSize => root_size(node.first_disk()),
            Generator::BootSize => BOOT_SIZE,
            Generator::BootRecordsSize => BOOT_RECORDS_SIZE,
            Generator::MbrSize => 10,
            Generator::LvmMetaSize => LVM_META_SIZE,
            Generator::TotalVg => node.total_vg(args[0].as_str().unwrap_or("")),
            Generator::MinVmSize | Generator::MinGlanceSize => gb_to_mb(5.0),
            Generator::MinCinderSize => gb_to_mb(1.5),
            Generator::MinMongoSize => gb_to_mb(10.0),
            // SEMANTICS §14: a root volume never goes below zero.
            Generator::TotalRootVg => (node.total_vg("os") - swap_size(node.ram())).max(0),
            Generator::MinCephSize => gb_to_mb(3.0),
            Generator::MinCephJournalSize => 0,
            Generator::MinMysqlSize => gb_to_mb(20.0),
            Generator::GbToMb => gb_to_mb(args[0].as_f64().unwrap_or(0.0)),
            Generator::OsSize | Generator::OsVgSize | Generator::MinOsSize => {
                root_size(node.first_disk()) + swap_size(node.ram())
            }
        }
    }
}

impl Amount {
    pub fn value(&self, node: &dyn Sizes) -> i64 {
        match self {
            Amount::Mb(n) => *n,
            Amount::Generated { generator, args } => generator.call(args, node),
        }
    }
}

/// `_calc_swap_size`: by RAM in MB — twice up to 2048, equal up to 8192,
/// half up to 65536, else 4096 (Red Hat's table, as Fuel cites it).
pub fn swap_size(ram: Option<u64>) -> i64 {
    let mem = (ram.unwrap_or(0) / (1 << 20)) as i64;
    if mem <= 2048 {
        2 * mem
    } else if mem <= 8192 {
        mem
    } else if mem <= 65536 {
        mem / 2
    } else {
        gb_to_mb(4.0)
    }
}

/// `_calc_root_size`: 20 % of the first disk, clamped to 15–50 GiB.
pub fn root_size(first_disk: Option<i64>) -> i64 {
    let size = first_disk.map_or(0, |d| (d as f64 * 0.2) as i64);
    size.clamp(gb_to_mb(15.0), gb_to_mb(50.0))
}
