#!/usr/bin/env bash
# Imports of nodes' hardware at scale (issue 51, part 8), against a release
# `mosaic serve` (scripts/bench-serve.sh: SQLite, or PostgreSQL under
# scripts/with-postgres.sh): BENCH_HOSTS (1,000) hosts' Ansible facts,
# each the size of a real server's (≈ 100 KB, scripts/bench_facts.py),
# imported with `mosaic node import` (one .tar.gz):
#
#   dry run     what the import would do (target ≤ 3 s)
#   import      every host a new node (target ≤ 5 s)
#   unchanged   the same files again: nothing to store
#   updated     every host's memory and a NIC's speed changed
#
# and the server's peak memory (VmHWM) after each, against the size of
# the files: an import reads each file as it comes, so the peak must not
# grow with the files' total. Exit 1 when a target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
hosts=${BENCH_HOSTS:-1000}

BENCH_ROLE=operator source scripts/bench-serve.sh
python3 scripts/bench_facts.py "$data/facts" "$hosts"
python3 scripts/bench_facts.py "$data/changed/facts" "$hosts" --change
echo "bench-import: $backend, $(nproc) cores, $hosts hosts, $(du -sm "$data/facts" | cut -f1) MiB of facts"

export MOSAIC_SERVER=$base MOSAIC_TOKEN=$token
release=$(curl -sf -H "authorization: Bearer $token" "$base/api/v1/releases" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
curl -sf -o /dev/null -H "authorization: Bearer $token" -H 'content-type: application/json' \
  -d "{\"name\": \"bench\", \"release_id\": $release, \"components\": [\"hypervisor:libvirt:kvm\", \"network:neutron:core:ml2\", \"network:neutron:ml2:vlan\", \"network:neutron:ml2:ovs\", \"storage:block:backend:lvm\"]}" \
  "$base/api/v1/clusters"

peak() { awk '/VmHWM/ { printf "%d MiB", $2 / 1024 }' "/proc/$server/status"; }
status=0
# `name target dir args…`: times `mosaic node import`, checks the target.
phase() {
  local name=$1 target=$2 dir=$3; shift 3
  local start end seconds
  start=$(date +%s.%N)
  "$MOSAIC_BIN" node import --env 1 "$dir" "$@" >"$data/$name.out"
  end=$(date +%s.%N)
  seconds=$(python3 -c "print(f'{$end - $start:.2f}')")
  printf '%-10s %6s s  (target %s s)  %s lines  server peak %s\n' "$name" "$seconds" "$target" \
    "$(wc -l <"$data/$name.out")" "$(peak)"
  python3 -c "import sys; sys.exit(0 if $seconds <= $target else 1)" || status=1
}
echo "server peak before: $(peak)"
phase "dry run" 3 "$data/facts" --dry-run
phase import 5 "$data/facts"
phase unchanged 5 "$data/facts"
phase updated 5 "$data/changed/facts"
grep -c ': created$' "$data/import.out" | sed 's/^/created: /'
grep -c ': unchanged$' "$data/unchanged.out" | sed 's/^/unchanged: /'
grep -c ': updated: ' "$data/updated.out" | sed 's/^/updated: /'
exit $status
