#!/usr/bin/env bash
# What an environment's size costs a node change (issues 34 and 39): a
# release `mosaic serve` with the bundled release, one client on one
# kept-alive connection. For each size (100, 1,000 and 10,000 nodes by
# default) an environment of that many compute nodes is imported, its
# management and storage networks widened to /16s (a network save that
# gives every node its addresses), then single nodes are added one at a
# time — each given its addresses — and the median of their answer times
# is printed;
# for the largest size also the import, the node list, a bulk tag change
# over every node, the plan, a role change that lays 12 disks out again
# (issue 52), and the server's peak memory.
#
#   scripts/bench-nodes.sh                                 # SQLite
#   scripts/with-postgres.sh scripts/bench-nodes.sh        # PostgreSQL
#
# Environment: MOSAIC_BIN (default: builds target/release/mosaic),
# BENCH_SIZES ("100 1000 10000"), BENCH_ADDS (200 adds per size).
# Prints the figures; exit 1 when a target of issue 34 is missed:
# a single add at the largest size <= 5 ms (median) and <= 1.5x the
# median at the smallest; import <= 10 s; node list <= 300 ms; bulk change
# <= 2 s; plan <= 2 s; peak memory < 500 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH_ROLE=admin source scripts/bench-serve.sh
port=${base##*:}

echo "bench-nodes: $backend, $(nproc) cores"
BENCH_PORT=$port BENCH_TOKEN=$token BENCH_PID=$server python3 - <<'EOF'
import http.client, json, os, statistics, sys, time

port, token, pid = int(os.environ["BENCH_PORT"]), os.environ["BENCH_TOKEN"], os.environ["BENCH_PID"]
sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "100 1000 10000").split()]
adds = int(os.environ.get("BENCH_ADDS", "200"))
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
auth = {"Authorization": "Bearer " + token}

def call(method, path, body=None, content_type="application/json"):
    headers = dict(auth)
    if body is not None:
        headers["Content-Type"] = content_type
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    text = response.read()
    elapsed = (time.perf_counter() - start) * 1000
    if response.status >= 300:
        sys.exit(f"{method} {path}: {response.status} {text[:300]!r}")
    return elapsed, (json.loads(text) if text else None)

def peak_mib():
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")

_, releases = call("GET", "/api/v1/releases")
release_name = releases[0]["name"]

def environment_file(n):
    lines = [f"release_name: {json.dumps(release_name)}", "mode: multinode", "nodes:"]
    for i in range(1, n + 1):
        lines.append(f"  - {{id: {i}, name: rack{i // 40}-node-{i}, status: ready, roles: [compute]}}")
    return "\n".join(lines) + "\n"

def widen_networks(cluster):
    """Management and storage as /16s, so that every node of every size
    gets its addresses (issue 39): a network save that gives them all."""
    _, config = call("GET", f"/api/v1/clusters/{cluster}/network_configuration/neutron")
    cidrs = {"management": "10.0.0.0/16", "storage": "10.1.0.0/16"}
    change = [{"id": n["id"], "cidr": cidrs[n["name"]]} for n in config["networks"] if n["name"] in cidrs]
    took, saved = call("PUT", f"/api/v1/clusters/{cluster}/network_configuration/neutron",
                       json.dumps({"networks": change}))
    given = {n["name"]: n["used"] for n in saved["networks"]}
    return took, given

def role_changes(ids):
    """Issue 52: each added node given twelve disks (declared), then a
    role change on each — compute to compute and cinder — which lays its
    disks out again: the median of the changes."""
    disks = [{"name": f"sd{chr(97 + d)}", "size": (500_000 + 100_000 * d) << 20} for d in range(12)]
    for i in ids:
        call("PUT", f"/api/v1/nodes/{i}/hardware", json.dumps({"disks": disks, "memory": 128 << 30}))
    times = []
    for i in ids:
        took, view = call("PUT", f"/api/v1/nodes/{i}", json.dumps({"roles": ["compute", "cinder"]}))
        if not view.get("disks_reset"):
            sys.exit(f"node {i}: its layout was not made again")
        times.append(took)
    return statistics.median(times)
failures, medians, figures = [], {}, {}
for n in sizes:
    took, env = call("POST", f"/api/v1/clusters/import?name=bench-{n}", environment_file(n), "application/yaml")
    cluster = env["id"]
    saved, given = widen_networks(cluster)
    if given["management"] < n:
        sys.exit(f"only {given['management']} of {n} nodes got a management address")
    if n == max(sizes):
        figures["import"] = took
        figures["networks"] = saved
    times = []
    for k in range(adds):
        body = json.dumps({"name": f"extra-{k}", "roles": ["compute"]})
        took, _ = call("POST", f"/api/v1/clusters/{cluster}/nodes", body)
        times.append(took)
    medians[n] = statistics.median(times)
    print(f"single-node add with {n:>6} nodes: median {medians[n]:.2f} ms, "
          f"p90 {statistics.quantiles(times, n=10)[-1]:.2f} ms ({adds} adds)")
    if n == max(sizes):
        added = [node["id"] for node in call("GET", f"/api/v1/clusters/{cluster}/nodes")[1]][-adds:]
        figures["roles"] = role_changes(added)
        # The median of three lists: the first call is a cold one.
        lists = [call("GET", f"/api/v1/clusters/{cluster}/nodes") for _ in range(3)]
        figures["list"] = statistics.median(took for took, _ in lists)
        nodes = lists[-1][1]
        ids = [node["id"] for node in nodes][:n]  # a bulk change takes at most 10,000
        body = json.dumps({"nodes": ids, "add_tags": ["bench-tag"]})
        call("POST", f"/api/v1/clusters/{cluster}/tags", json.dumps({"name": "bench-tag"}))
        figures["bulk"], _ = call("POST", f"/api/v1/clusters/{cluster}/nodes/bulk", body)
        figures["plan"], _ = call("GET", f"/api/v1/clusters/{cluster}/plan")

big, small = max(sizes), min(sizes)
print(f"import of {big} nodes: {figures['import']:.0f} ms")
print(f"network save giving {big} nodes their addresses: {figures['networks']:.0f} ms")
print(f"GET nodes ({big + adds}), median of 3: {figures['list']:.0f} ms")
print(f"bulk tag change over {big} nodes: {figures['bulk']:.0f} ms")
print(f"plan over HTTP ({big + adds} nodes): {figures['plan']:.0f} ms")
print(f"role change laying out 12 disks, with {big} nodes: median {figures['roles']:.2f} ms")
print(f"server peak memory: {peak_mib():.0f} MiB")

def target(ok, what):
    if not ok:
        failures.append(what)
target(medians[big] <= 5, f"single add at {big} nodes <= 5 ms")
target(medians[big] <= 1.5 * medians[small], f"single add at {big} <= 1.5x at {small}")
target(figures["roles"] <= 5, f"role change at {big} nodes <= 5 ms (issue 52)")
target(figures["import"] <= 10_000, "import <= 10 s")
target(figures["networks"] <= 10_000, "network save <= 10 s")
target(figures["list"] <= 300, "node list <= 300 ms")
target(figures["bulk"] <= 2_000, "bulk change <= 2 s")
target(figures["plan"] <= 2_000, "plan <= 2 s")
target(peak_mib() < 500, "peak memory < 500 MiB")
if failures:
    sys.exit("missed: " + "; ".join(failures))
print("every target met")
EOF
