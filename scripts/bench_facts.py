#!/usr/bin/env python3
"""Writes N hosts' Ansible facts as `ansible all -m setup --tree DIR` does,
each the size of a real server's (≈ 100 KB: ansible-core 2.16's keys for a
two-socket server with bonded 25G NICs, a VLAN, bridges, NVMe and SAS
disks with partitions, and its mounts): the input of
scripts/bench-import.sh.

    scripts/bench_facts.py DIR N [--change]

With --change, every host's memory and its second NIC's speed differ (a
re-import that updates every node)."""
import json
import os
import sys

FEATURES = [f"{name}" for name in (
    "rx_checksumming tx_checksumming tx_checksum_ipv4 tx_checksum_ip_generic tx_checksum_ipv6 "
    "tx_checksum_fcoe_crc tx_checksum_sctp scatter_gather tx_scatter_gather tx_scatter_gather_fraglist "
    "tcp_segmentation_offload tx_tcp_segmentation tx_tcp_ecn_segmentation tx_tcp_mangleid_segmentation "
    "tx_tcp6_segmentation generic_segmentation_offload generic_receive_offload large_receive_offload "
    "rx_vlan_offload tx_vlan_offload ntuple_filters receive_hashing highdma rx_vlan_filter vlan_challenged "
    "tx_lockless netns_local tx_gso_robust tx_fcoe_segmentation tx_gre_segmentation tx_gre_csum_segmentation "
    "tx_ipxip4_segmentation tx_ipxip6_segmentation tx_udp_tnl_segmentation tx_udp_tnl_csum_segmentation "
    "tx_gso_partial tx_tunnel_remcsum_segmentation tx_sctp_segmentation tx_esp_segmentation "
    "tx_udp_segmentation tx_gso_list fcoe_mtu tx_nocache_copy loopback rx_fcs rx_all tx_vlan_stag_hw_insert "
    "rx_vlan_stag_hw_parse rx_vlan_stag_filter l2_fwd_offload hw_tc_offload esp_hw_offload "
    "esp_tx_csum_hw_offload rx_udp_tunnel_port_offload tls_hw_tx_offload tls_hw_rx_offload rx_gro_hw "
    "tls_hw_record rx_gro_list macsec_hw_offload rx_udp_gro_forwarding hsr_tag_ins_offload "
    "hsr_tag_rm_offload hsr_fwd_offload hsr_dup_offload"
).split()]


def mac(host, nic):
    return f"3c:fd:fe:{host >> 8 & 255:02x}:{host & 255:02x}:{nic:02x}"


def nic(host, index, name, speed, module="ice", perm=None):
    entry = {
        "device": name, "type": "ether", "macaddress": mac(host, index), "module": module,
        "pciid": f"0000:{0x3b + index:02x}:00.0", "active": True, "speed": speed, "mtu": 9000,
        "promisc": False, "features": {f: "on [fixed]" if i % 3 else "off" for i, f in enumerate(FEATURES)},
        "timestamping": ["tx_hardware", "tx_software", "rx_hardware", "rx_software", "software", "raw_hardware"],
        "hw_timestamp_filters": ["none", "all"], "phc_index": index,
    }
    if perm:
        entry["perm_macaddress"] = perm
        entry["macaddress"] = mac(host, 0)
    return entry


def partitions(disk, count):
    return {f"{disk}p{i}" if disk.startswith("nvme") else f"{disk}{i}": {
        "links": {"ids": [f"wwn-0x5000c500a1b2c3d4-part{i}"], "uuids": [f"a1b2c3d4-{i:04d}-4e5f-8a9b-0c1d2e3f4a5b"],
                  "labels": [], "masters": []},
        "start": str(2048 + i * 1000000), "sectors": str(1000000 + i), "sectorsize": 512,
        "size": "488.28 MB", "uuid": f"a1b2c3d4-{i:04d}-4e5f-8a9b-0c1d2e3f4a5b", "holders": []}
        for i in range(1, count + 1)}


def facts(host, change):
    name = f"cmp-{host:04d}"
    f = {
        "ansible_hostname": name, "ansible_nodename": name, "ansible_fqdn": f"{name}.lab.example",
        "ansible_default_ipv4": {"address": f"10.20.{host >> 8 & 255}.{host & 255}", "interface": "bond0.100",
                                 "gateway": "10.20.0.1", "netmask": "255.255.0.0", "type": "ether"},
        "ansible_date_time": {"iso8601": "2026-12-07T08:00:00Z", "epoch": "1796630400"},
        "ansible_memtotal_mb": 515_000 + (1024 if change else 0),
        "ansible_processor_vcpus": 128, "ansible_processor_count": 2, "ansible_processor_cores": 32,
        "ansible_processor_threads_per_core": 2,
        "ansible_processor": [x for i in range(128) for x in (str(i), "GenuineIntel", "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz")],
        "ansible_system_vendor": "Dell Inc.", "ansible_product_name": "PowerEdge R650",
        "ansible_product_serial": f"SN{host:07d}", "ansible_bios_version": "1.9.2",
        "ansible_kernel": "5.15.0-91-generic", "ansible_distribution": "Ubuntu", "ansible_distribution_version": "22.04",
        "ansible_env": {f"VAR_{i}": "x" * 40 for i in range(40)},
        "ansible_mounts": [{"mount": f"/var/lib/docker/overlay2/{i:064x}/merged", "device": "overlay", "fstype": "overlay",
                            "options": "rw,relatime,lowerdir=/var/lib/docker/overlay2/l/ABC:/var/lib/docker/overlay2/l/DEF",
                            "size_total": 478_000_000_000, "size_available": 400_000_000_000, "block_size": 4096,
                            "block_total": 116_000_000, "block_available": 97_000_000, "block_used": 19_000_000,
                            "inode_total": 29_000_000, "inode_available": 28_000_000, "inode_used": 1_000_000,
                            "uuid": "N/A"} for i in range(125)],
    }
    nics = [("eno1", 1000), ("eno2", 1000), ("ens1f0", 25000), ("ens1f1", 10000 if change else 25000),
            ("ens2f0", 25000), ("ens2f1", 25000)]
    names = [n for n, _ in nics] + ["bond0", "bond0.100", "br-ex", "docker0", "lo", "ovs-system"]
    f["ansible_interfaces"] = names
    for i, (n, speed) in enumerate(nics):
        perm = mac(host, i) if n.startswith("ens1") else None
        f[f"ansible_{n}"] = nic(host, i, n, speed, perm=perm)
    f["ansible_bond0"] = {"device": "bond0", "type": "bonding", "mode": "802.3ad", "slaves": ["ens1f0", "ens1f1"],
                          "macaddress": mac(host, 0), "active": True, "speed": 50000}
    f["ansible_bond0_100"] = {"device": "bond0.100", "type": "ether", "macaddress": mac(host, 0), "active": True,
                              "ipv4": {"address": f["ansible_default_ipv4"]["address"]}}
    f["ansible_br_ex"] = {"device": "br-ex", "type": "bridge", "macaddress": mac(host, 9), "active": True, "interfaces": []}
    f["ansible_docker0"] = {"device": "docker0", "type": "bridge", "macaddress": mac(host, 10), "active": False}
    f["ansible_ovs_system"] = {"device": "ovs-system", "type": "ether", "module": "openvswitch", "macaddress": mac(host, 11)}
    f["ansible_lo"] = {"device": "lo", "type": "loopback", "active": True}
    devices = {}
    for d in ["nvme0n1", "nvme1n1", "sda", "sdb", "sdc", "sdd"]:
        devices[d] = {"vendor": "ATA" if d.startswith("sd") else None, "model": "SAMSUNG MZQL23T8HCLS" if d.startswith("nvme") else "ST4000NM0035",
                      "sectors": "7501476528", "sectorsize": "512", "rotational": "0" if d.startswith("nvme") else "1",
                      "removable": "0", "host": "Non-Volatile memory controller", "partitions": partitions(d, 4),
                      "links": {"ids": [f"nvme-eui.{host:016x}"], "uuids": [], "labels": [], "masters": []}}
    devices.update({f"loop{i}": {"sectors": "0", "sectorsize": "512"} for i in range(8)})
    f["ansible_devices"] = devices
    return {"ansible_facts": f, "changed": False}


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    change = "--change" in sys.argv
    os.makedirs(out, exist_ok=True)
    for host in range(count):
        with open(os.path.join(out, f"cmp-{host:04d}"), "w") as f:
            json.dump(facts(host, change), f)


if __name__ == "__main__":
    main()
