//! kolla-ansible's particulars, as code: what the export writes for it
//! alone and no deployer data says — the host variables its inventory
//! takes (the management address, the interfaces it names, a bridge for
//! each external interface), the README of what to run, the note on
//! `globals.yml`'s passwords and the warning for nodes without
//! interfaces. What any deployer's data can say (globals, overrides,
//! services, how a boolean is written) is `crate::deployer`'s, read from
//! the release.

use std::collections::BTreeMap;

use crate::environment::Environment;
use crate::network::NetworkConfiguration;
use crate::network::interfaces::untagged;
use crate::network::metadata::{MANAGEMENT, PRIVATE, PUBLIC, STORAGE, Segmentation};
use crate::tag::NodeTags;

/// The note `globals.yml` carries under its header.
pub(super) const GLOBALS_NOTE: &str = "Passwords are not here: run kolla-genpwd (README.md).";

/// The warning's end for nodes that declare no interfaces.
pub(super) const BARE_NODES: &str = "kolla-ansible uses its network_interface default (eth0) there";

/// The README: with the section on the disks and the line running
/// `prepare-disks.yml` when the export `prepares` some.
pub(super) fn readme(header: &str, series: &str, release: &str, prepares: bool) -> String {
    let (disks, prepare) = if prepares {
        (DISKS_README, PREPARE_LINE)
    } else {
        ("", "")
    };
    README
        .replace("{header}", header)
        .replace("{disks}", disks)
        .replace("{prepare}", prepare)
        .replace("{series}", series)
        .replace("{release}", release)
}

/// Each node's host variables: its management address, and its
/// interfaces as kolla-ansible names them (a tagged network on
/// `PORT.VLAN`).
pub(super) fn host_vars(
    env: &Environment<'_>,
    config: &NetworkConfiguration,
    node: &NodeTags,
) -> BTreeMap<String, String> {
    let mut vars = BTreeMap::new();
    if let Some(ip) = node.addresses.get(MANAGEMENT) {
        vars.insert("ansible_host".to_owned(), ip.to_string());
    }
    let Some(layout) = env.node_layout(config, node) else {
        return vars;
    };
    let port_of = |network: &str| -> Option<String> {
        let (port, _) = layout
            .layout
            .iter()
            .find(|(_, nets)| nets.iter().any(|n| n == network))?;
        let net = config.find(layout.group, network)?;
        let meta = env.network_metas().get(network)?;
        Some(match (untagged(net, meta), net.vlan_start) {
            (false, Some(vlan)) => format!("{port}.{vlan}"),
            _ => port.clone(),
        })
    };
    if let Some(port) = port_of(MANAGEMENT) {
        vars.insert("network_interface".to_owned(), port.clone());
        vars.insert("api_interface".to_owned(), port);
    }
    if let Some(port) = port_of(STORAGE) {
        vars.insert("storage_interface".to_owned(), port);
    }
    let segmentation = config.networking_parameters.segmentation_type;
    if segmentation == Segmentation::Tun
        && let Some(port) = port_of(PRIVATE)
    {
        vars.insert("tunnel_interface".to_owned(), port);
    }
    // Tenant VLANs ride on physnet1 (the first external interface), the
    // public network on the next when it is on another port.
    let mut external: Vec<String> = Vec::new();
    if segmentation == Segmentation::Vlan {
        external.extend(
            layout
                .layout
                .iter()
                .find(|(_, n)| n.iter().any(|n| n == PRIVATE))
                .map(|(p, _)| p.clone()),
        );
    }
    if let Some(port) = port_of(PUBLIC).filter(|p| !external.contains(p)) {
        external.push(port);
    }
    if !external.is_empty() {
        vars.insert("neutron_external_interface".to_owned(), external.join(","));
    }
    // kolla-ansible pairs each external interface with a bridge of
    // `neutron_bridge_name` (physnet1, physnet2, …); its default names
    // one, so a second interface needs the list.
    if external.len() > 1 {
        let bridges: Vec<String> = (1..=external.len())
            .map(|i| match i {
                1 => "br-ex".to_owned(),
                i => format!("br-ex{i}"),
            })
            .collect();
        vars.insert("neutron_bridge_name".to_owned(), bridges.join(","));
    }
    vars
}

/// What to run next.
const README: &str = "# {header}

This directory is what Mosaic planned, for kolla-ansible {series} (OpenStack
{release}): `inventory` places every service on the nodes Mosaic's plan
puts it on, `globals.yml` holds what the components, settings and networks
decide, and `config/` the configuration kolla-ansible merges into the
services' own. No secret is here.

Each node's host networking — its interfaces, bonds, VLAN interfaces
(`eth1.101`) and addresses — must be up before kolla-ansible runs: its
`network_interface`, `api_interface`, `storage_interface`,
`tunnel_interface` and `neutron_external_interface` name them.

{disks}Next, on the deployment host, with kolla-ansible {series} installed:

```sh
sudo mkdir -p /etc/kolla && sudo cp globals.yml /etc/kolla/
sudo cp -r config /etc/kolla/ 2>/dev/null || true
cp \"$(python3 -c 'import kolla_ansible, os; print(os.path.dirname(kolla_ansible.__file__))')/../../../share/kolla-ansible/etc_examples/kolla/passwords.yml\" /etc/kolla/passwords.yml
kolla-genpwd                                   # the passwords, in /etc/kolla/passwords.yml
kolla-ansible install-deps
{prepare}kolla-ansible bootstrap-servers -i inventory   # Docker and what the hosts need
kolla-ansible prechecks -i inventory
kolla-ansible deploy -i inventory
kolla-ansible post-deploy -i inventory         # admin-openrc.sh
```
";

/// The README's section on the disks, when the export prepares some.
const DISKS_README: &str = "## Before kolla-ansible: the disks

kolla-ansible prepares no disks, yet expects some ready: the LVM volume
group its Cinder LVM back end names (`cinder_volume_group`, which its
prechecks look for), Swift's partitions, and the file systems Mosaic's
host variables point Glance's, Nova's and MariaDB's data at
(`glance_file_datadir_volume`, `nova_instance_datadir_volume`,
`mariadb_datadir_volume`). `prepare-disks.yml` makes them on each host
from the node's disk layout (Configure Disks): each partition where the
layout places it and of its size in MiB (GPT), the volume groups, the
logical volumes, their file systems and their mounts (in `/etc/fstab`).
Run it once the operating system is installed, before `bootstrap-servers`
(after `install-deps`, which brings the Ansible collections it uses):

```sh
ansible-playbook -i inventory prepare-disks.yml --check   # what it would do
ansible-playbook -i inventory prepare-disks.yml
```

The rest of each disk is the operating system's: its installer lays out
the layout's other volumes (Base System, Logs, …) before Mosaic's
partitions, whose places the playbook lists (`start`, MiB). A host with
anything in the way — a disk of another size or identity, a file system on
a whole disk, a partition table other than GPT, a partition where one of
Mosaic's goes, a volume group or a mount point in use, files where a file
system would be mounted — is left untouched, every reason listed. Nothing
is ever removed, shrunk or formatted over, and a second run changes
nothing. The hosts need `parted`, `lvm2` and the file systems' tools
(`xfsprogs`, `e2fsprogs`).

";

/// The README's line running `prepare-disks.yml`, when the export has it.
const PREPARE_LINE: &str =
    "ansible-playbook -i inventory prepare-disks.yml   # the disks, first (above)\n";
