#!/usr/bin/env bash
# The API against its own OpenAPI document (`make schemathesis`, part of
# `make test`): a real `mosaic serve` on a fresh SQLite database with the
# bundled release installed and an admin token; its document, fetched
# without credentials, checked by openapi-spec-validator; then every
# operation called by schemathesis with generated and stateful (linked)
# calls — examples, coverage, fuzzing and stateful phases — checked with
# not_a_server_error, status_code_conformance, content_type_conformance and
# response_schema_conformance. Any failure fails the run.
#
# Bounded: at most SCHEMATHESIS_EXAMPLES test cases per operation and phase
# (25), each phase once; SCHEMATHESIS_SECONDS=N instead repeats fuzzing and
# stateful runs until N seconds are spent (a longer hunt, not in make
# test). The seed is fixed (SCHEMATHESIS_SEED, 41), so a run is repeatable.
#
# One worker (SCHEMATHESIS_WORKERS, 1): schemathesis 4.32's worker threads
# share its generation caches, LRU dicts written without a lock
# (core/cache/bounded.py: an insert's move_to_end races another thread's
# eviction). With two, a CI run once failed with a "Runtime Error"
# (Hypothesis's "Inconsistent results": a draw raised, its replay did not)
# while building a coverage case, with no call failing. One worker costs
# about 13 s (65 s against 52 s here).
#
# schemathesis and the validator come from PyPI, every package pinned in
# scripts/schemathesis-requirements.txt, in a virtual environment under
# target/ made when missing and named by that file's digest, so a change
# of version makes a new one.
#
# MOSAIC_BIN: the server to run (default target/debug/mosaic, built first).
set -euo pipefail
cd "$(dirname "$0")/.."

requirements=scripts/schemathesis-requirements.txt
venv="$PWD/target/venv-schemathesis-$(sha256sum "$requirements" | cut -c1-12)"
# The stamp is written last: an install that stopped half way is made again.
if [ ! -e "$venv/installed" ]; then
  echo "schemathesis: making $venv (PyPI, pinned)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$requirements"
  touch "$venv/installed"
fi

if [ -z "${MOSAIC_BIN:-}" ]; then
  cargo build --locked -q -p mosaic-server
  MOSAIC_BIN=$PWD/target/debug/mosaic
fi
BENCH_ROLE=admin
# Runs are made with a stand-in runner (no Ansible): its "driver" writes a
# task's start and result on node-1 and ends at once, so the runs'
# operations (history, hosts, events, output, the stream, cancel,
# relaunch) answer with real data.
standin=$(mktemp -d)
mkdir -p "$standin/bin" "$standin/lib/python3/site-packages/ansible_runner" \
  "$standin/share/kolla-ansible/ansible" "$standin/share/kolla-ansible/etc_examples/kolla"
echo "database_password: schemathesis-password-0123456789" > "$standin/share/kolla-ansible/etc_examples/kolla/passwords.yml"
for p in site.yml kolla-host.yml gather-facts.yml post-deploy.yml; do echo "- hosts: all" > "$standin/share/kolla-ansible/ansible/$p"; done
printf '#!/bin/sh\nexit 0\n' > "$standin/bin/kolla-genpwd"
cat > "$standin/bin/python" <<'SH'
#!/bin/sh
step="$2"
printf '%s\n' '{"counter": 1, "event": "runner_on_start", "event_data": {"host": "node-1", "task": "Gather facts"}}' \
  '{"counter": 2, "event": "runner_on_ok", "stdout": "ok: [node-1]", "event_data": {"host": "node-1", "task": "Gather facts", "res": {"changed": false}}}' \
  >> "$step/events.jsonl"
printf '{"rc": 0, "canceled": false}' > "$step/driver.done"
SH
chmod +x "$standin/bin/python" "$standin/bin/kolla-genpwd"
export MOSAIC_DEPLOYER_VENV=$standin
# Installing by path works on packages of the tests' fixtures.
export MOSAIC_PLUGIN_DIR=$PWD/server/tests/fixtures/plugins
# shellcheck source=scripts/bench-serve.sh
. scripts/bench-serve.sh
trap 'cleanup; rm -rf "$standin"' EXIT

document="$data/openapi.json"
curl -fsS -o "$document" "$base/api/v1/openapi.json"
"$venv/bin/openapi-spec-validator" "$document"

# What the generated calls can find (scripts/schemathesis.toml names it):
# environment 1 with nodes 1 and 2 (one carrying an instance tag), a tag
# and a role of its own, node groups `default` and `rack-2` (ids 1 and
# 2), node 1 with interfaces and a bond; a tag and a role on release 1;
# template set 1; run 1.
api() {
  local method=$1 path=$2 type=$3 body=$4
  curl -fsS -o /dev/null -X "$method" -H "Authorization: Bearer $token" \
    -H "Content-Type: $type" --data-binary "$body" "$base/api/v1$path"
}
api POST /clusters/import?name=seeded application/yaml '
tags_metadata: {rack: {has_primary: false}}
roles: {messaging: {label: Messaging, tags: [rabbitmq], conflicts: [compute]}}
nodes:
  - {id: 1, name: node-1, roles: [controller], tags_added: [rack, "database:1"]}
  - {id: 2, name: node-2, roles: [compute]}'
api POST /clusters/1/node_groups application/json '{"name": "rack-2"}'
api PUT /nodes/1/interfaces application/json '{"interfaces": [{"name": "eth0", "mac": "52:54:00:00:00:01"}, {"name": "eth1"}, {"name": "eth2"}], "bonds": [{"name": "bond0", "mode": "active-backup", "slaves": ["eth1", "eth2"]}]}'
api POST /releases/1/tags application/json '{"name": "row", "has_primary": false}'
api POST /releases/1/roles application/json '{"name": "gateway", "label": "Gateway", "tags": ["rabbitmq"]}'
tar -czf "$data/heat.tar.gz" -C server/tests/fixtures heat
api POST "/heat/template-sets?name=seeded" application/gzip "@$data/heat.tar.gz"
# Run 1: facts gathered on environment 1 (ended before the calls begin).
api POST /clusters/1/deployers/kolla-ansible/runs application/json '{"actions": ["gather-facts"]}'
for _ in $(seq 100); do
  curl -fsS -H "Authorization: Bearer $token" "$base/api/v1/runs/1" | grep -q '"status":"successful"' && break
  sleep 0.1
done

started=$(date +%s)
status=0
SCHEMATHESIS_HOOKS=schemathesis_hooks PYTHONPATH=scripts \
  "$venv/bin/schemathesis" --config-file scripts/schemathesis.toml run "$document" \
  --url "$base" \
  --header "Authorization: Bearer $token" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --phases examples,coverage,fuzzing,stateful \
  --max-examples "${SCHEMATHESIS_EXAMPLES:-25}" \
  ${SCHEMATHESIS_SECONDS:+--max-time "$SCHEMATHESIS_SECONDS"} \
  --seed "${SCHEMATHESIS_SEED:-41}" \
  --workers "${SCHEMATHESIS_WORKERS:-1}" \
  --request-timeout 30 \
  --generation-database none \
  --generation-with-security-parameters false \
  --report junit --report-junit-path "$PWD/target/schemathesis-junit.xml" \
  --no-color || status=$?
echo "schemathesis: $(( $(date +%s) - started )) s"
if [ "$status" -ne 0 ]; then
  cp "$data/serve.log" target/schemathesis-serve.log 2>/dev/null || true
  echo "schemathesis: failures found; the server's log is in target/schemathesis-serve.log" >&2
fi
exit "$status"
