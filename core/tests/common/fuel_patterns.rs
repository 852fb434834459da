//! The settings patterns of Fuel's release fixtures (every `regex: {source,
//! error}` of `../shared/reference/release/*.yaml`, Fuel 10 and master),
//! written here as literals, each with values that must match and values
//! that must not: the answers Fuel's server (Python 2's `re.search`, as
//! nailgun checked settings), Fuel's UI (JavaScript's `RegExp.test`) and
//! Mosaic all give. Used by `core/tests/regex_fuel.rs` and, through
//! `#[path]`, by the browser test `app/tests/regex.rs`.
#![allow(dead_code)]

/// One pattern of the fixtures.
pub struct FuelPattern {
    /// The fixture's `regex.source`, verbatim.
    pub source: &'static str,
    /// The fixture's `regex.error`s for it: what a value that does not
    /// match is told.
    pub errors: &'static [&'static str],
    /// The settings that use it.
    pub settings: &'static str,
    pub matching: &'static [&'static str],
    pub not_matching: &'static [&'static str],
}

/// The fifteen distinct patterns (fourteen in Fuel 10; master drops the
/// vCenter ones and adds SR-IOV's physical network name).
pub const FUEL_PATTERNS: &[FuelPattern] = &[
    FuelPattern {
        source: r"^(?!services$)(?!nova$)(?!glance$)(?!keystone$)(?!neutron$)(?!cinder$)(?!swift$)(?!ceph$)(?!ironic$)(?![Gg]uest$)(?!.* +.*$).+",
        errors: &["Invalid username", "Invalid tenant name"],
        settings: "access.user, access.tenant",
        matching: &[
            "admin",
            "novak",
            "nova_admin",
            "Nova",
            "GUEST",
            "guests",
            "services2",
            "a",
            "a\tb",
        ],
        not_matching: &[
            "", "services", "nova", "glance", "keystone", "neutron", "cinder", "swift", "ceph",
            "ironic", "guest", "Guest", "a b", " admin", "admin ",
        ],
    },
    FuelPattern {
        source: r"^\S+@\S+$",
        errors: &["Invalid email"],
        settings: "access.email",
        matching: &["admin@localhost", "a@b", "a@b@c", "ops+1@example.com"],
        not_matching: &[
            "",
            "admin",
            "@localhost",
            "admin@",
            "ad min@localhost",
            "admin@local host",
        ],
    },
    FuelPattern {
        source: r"\S",
        errors: &[
            "Empty password",
            "Empty username",
            "Empty vCenter username",
            "Empty vCenter password",
            "Invalid vSphere cluster",
            "Invalid datastore regex",
            "Invalid datacenter",
            "Invalid datastore",
        ],
        settings: "access.password, operator_user.name, operator_user.password, and the vCenter fields",
        matching: &["x", " x ", "pass word", "é", ".*"],
        not_matching: &["", " ", "\t\n", "  \r\n"],
    },
    FuelPattern {
        source: r"^/\S",
        errors: &["Invalid path"],
        settings: "operator_user.homedir",
        matching: &["/home/fueladmin", "/x", "/x y"],
        not_matching: &["", "/", "/ x", "home/fueladmin", " /home", "~/home"],
    },
    FuelPattern {
        source: r"^(((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?),)*((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$",
        errors: &["Invalid hosts ip sequence"],
        settings: "external_mongo.hosts_ip",
        matching: &[
            "10.0.0.1",
            "10.0.0.1,10.0.0.2,10.0.0.3",
            "255.255.255.255",
            "01.1.1.1",
            "001.002.003.004",
            "0.0.0.0",
        ],
        not_matching: &[
            "",
            "10.0.0.1,",
            ",10.0.0.1",
            "10.0.0.1, 10.0.0.2",
            "10.0.0.1;10.0.0.2",
            "256.0.0.1",
            "10.0.0",
            "10.0.0.1.5",
            "1000.0.0.1",
            "mongo.local",
        ],
    },
    FuelPattern {
        source: r"^\w+$",
        errors: &["Empty username", "Invalid database name"],
        settings: "external_mongo.mongo_user, external_mongo.mongo_db_name",
        matching: &["ceilometer", "db_1", "A", "_"],
        not_matching: &["", "my-db", "my db", "café", "db.name"],
    },
    FuelPattern {
        source: r"^\S*$",
        errors: &["Password contains spaces"],
        settings: "external_mongo.mongo_password",
        matching: &["", "s3cr3t!", "p@ssé"],
        not_matching: &[" ", "with space", "tab\there", "new\nline"],
    },
    FuelPattern {
        source: r"^[a-zA-Z\d]+[-\.\da-zA-Z]*$",
        errors: &[
            "Invalid hostname",
            "Invalid NTP server",
            "Invalid DNS hostname",
            "Invalid vCenter host",
        ],
        settings: "syslog.syslog_server, external_ntp.ntp_list, public_ssl.hostname, the vCenter hosts",
        matching: &[
            "0.pool.ntp.org",
            "10.109.0.2",
            "public.fuel.local",
            "a",
            "a-",
            "a..b",
            "1",
        ],
        not_matching: &[
            "",
            "-a",
            ".a",
            "a_b",
            "a b",
            "pool.ntp.org,",
            "höst",
            "http://host",
        ],
    },
    FuelPattern {
        source: r"^([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])$",
        errors: &["Invalid syslog port"],
        settings: "syslog.syslog_port",
        matching: &[
            "1", "514", "9999", "10000", "59999", "64999", "65499", "65529", "65535",
        ],
        not_matching: &[
            "", "0", "01", "65536", "65540", "70000", "100000", "-1", "5 14", "514 ",
        ],
    },
    FuelPattern {
        source: r"^[1-9]\d*$",
        errors: &[
            "Should be a number of seconds",
            "Should be a number of days",
            "Invalid number",
        ],
        settings: "atop.interval, atop.rotate, storage.osd_pool_size",
        matching: &["1", "10", "600", "12345678901234567890"],
        not_matching: &["", "0", "01", "-1", "+1", "1.5", "1e3", " 1", "١"],
    },
    FuelPattern {
        source: r"^(([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])\.){3}([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])$",
        errors: &["Invalid IP address"],
        settings: "external_dns.dns_list",
        matching: &[
            "8.8.8.8",
            "0.0.0.0",
            "255.255.255.255",
            "192.168.0.1",
            "10.20.0.2",
        ],
        not_matching: &[
            "",
            "256.1.1.1",
            "01.1.1.1",
            "1.1.1.01",
            "1.1.1",
            "1.1.1.1.1",
            "a.b.c.d",
            "8.8.8.8 ",
            "8.8.8.8,8.8.4.4",
            "1.1.1.1/24",
        ],
    },
    FuelPattern {
        source: r"^(([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])\.){3}([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])(\/([0-9]|[1-2][0-9]|3[0-2]))*$",
        errors: &["Invalid IPv4/CIDR address"],
        settings: "ssh.security_networks",
        matching: &[
            "10.0.0.0/8",
            "0.0.0.0/0",
            "192.168.1.1",
            "10.0.0.0/32",
            "10.0.0.0/8/16",
        ],
        not_matching: &[
            "",
            "10.0.0.0/33",
            "10.0.0.0/",
            "10.0.0.0/08",
            "10.0.0.256/8",
            "10.0.0/8",
            "10.0.0.0 /8",
            "10.0.0.0/8,10.1.0.0/16",
        ],
    },
    FuelPattern {
        source: r"^(?!nova$)\w+$",
        errors: &["Invalid availability zone name"],
        settings: "the vCenter availability_zone_name",
        matching: &["vcenter", "nova1", "Nova", "az_1", "novanova"],
        not_matching: &["nova", "", "my zone", "my-zone"],
    },
    FuelPattern {
        source: r"^\w[\w\-]+$",
        errors: &["Invalid service name"],
        settings: "the vCenter nova-compute service_name",
        matching: &["vmcluster1", "vm-cluster_1", "ab", "a-"],
        not_matching: &["a", "", "-ab", "a b", "a.b", "vm/cluster"],
    },
    FuelPattern {
        source: r"^[A-Za-z0-9 _]*[A-Za-z0-9][A-Za-z0-9 _]*$",
        errors: &["Invalid physical network name"],
        settings: "nic_attributes.sriov.physnet (master only)",
        matching: &["physnet1", "phys net 1", " a ", "_1_", "A"],
        not_matching: &["", "   ", "___", "phys-net", "physnet.1", "phys\tnet"],
    },
];

/// Why Mosaic answers a value otherwise than Fuel's server did
/// (docs/semantics.md, "Regexes"); in both, it answers as Fuel's UI did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// Python's `$` also matches before a final newline; Mosaic's `$` is
    /// the end of the value.
    Dollar,
    /// Fuel's Python 2 compiled its patterns without `re.UNICODE`, so its
    /// `\s` was ASCII; Mosaic's is JavaScript's (and Python 3's), where a
    /// no-break space or an ideographic space is white space.
    Space,
}

/// A fixture pattern on a value where Mosaic and Fuel's server differ.
pub struct PythonDiffers {
    pub source: &'static str,
    pub text: &'static str,
    /// What Python answered; Mosaic answers the opposite.
    pub python: bool,
    pub why: Why,
}

pub const PYTHON_DIFFERS: &[PythonDiffers] = &[
    PythonDiffers {
        source: r"^\S+@\S+$",
        text: "admin@localhost\n",
        python: true,
        why: Why::Dollar,
    },
    PythonDiffers {
        source: r"^\w+$",
        text: "nova\n",
        python: true,
        why: Why::Dollar,
    },
    PythonDiffers {
        source: r"^[1-9]\d*$",
        text: "42\n",
        python: true,
        why: Why::Dollar,
    },
    PythonDiffers {
        source: r"^(([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])\.){3}([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])$",
        text: "8.8.8.8\n",
        python: true,
        why: Why::Dollar,
    },
    PythonDiffers {
        source: r"^(?!services$)(?!nova$)(?!glance$)(?!keystone$)(?!neutron$)(?!cinder$)(?!swift$)(?!ceph$)(?!ironic$)(?![Gg]uest$)(?!.* +.*$).+",
        text: "nova\n",
        python: false,
        why: Why::Dollar,
    },
    PythonDiffers {
        source: r"\S",
        text: "\u{a0}",
        python: true,
        why: Why::Space,
    },
    PythonDiffers {
        source: r"\S",
        text: "\u{3000}",
        python: true,
        why: Why::Space,
    },
    PythonDiffers {
        source: r"^\S*$",
        text: "nbsp\u{a0}here",
        python: true,
        why: Why::Space,
    },
    PythonDiffers {
        source: r"^\S+@\S+$",
        text: "admin@\u{a0}",
        python: true,
        why: Why::Space,
    },
];
