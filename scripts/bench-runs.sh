#!/usr/bin/env bash
# Deployment runs at scale (issue 50, part 10), against a release `mosaic
# serve` (scripts/bench-serve.sh: SQLite, or PostgreSQL under
# scripts/with-postgres.sh), three phases each on a fresh server:
#
#   ingest   real ansible-runner: 500 hosts × 20 tasks of Mosaic's bench
#            playbook (`debug`, over a local connection: nothing changes on
#            this machine); how long after the runner's end the run is
#            stored (target: within 2 s)
#   history  a stand-in runner writing the events of 1,000 nodes × 200
#            tasks at once: their ingestion, then pages of the history
#            (target: ≤ 200 ms a page) and the whole CSV streamed
#   sse      a stand-in runner writing 20,000 events over ~10 s, followed
#            by 50 readers of the stream: each sees every event once; how
#            long after the run's end the last reader has it, and the
#            ingestion lag with the readers against none
#
#   scripts/bench-runs.sh                 # every phase
#   scripts/bench-runs.sh history         # one
#
# Environment: MOSAIC_BIN (default: builds target/release/mosaic),
# BENCH_HOSTS (500), BENCH_TASKS (20). Prints the figures; exit 1 when a
# target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -eq 0 ]; then
  for phase in ingest history sse; do "$0" "$phase"; done
  exit 0
fi
phase=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The virtual environment of the phase: the real one with Mosaic's bench
# playbook (ingest), or a stand-in whose "driver" writes the events a
# phase prepared (history, sse).
real=$(scripts/deployer-venv.sh 2>/dev/null)
venv=$work/venv
mkdir -p "$venv/bin" "$venv/share/kolla-ansible/ansible"
if [ "$phase" = ingest ]; then
  cp "$real/pyvenv.cfg" "$venv/"
  for f in "$real"/bin/*; do ln -s "$f" "$venv/bin/"; done
  ln -s "$real/lib" "$venv/lib"
  ln -s "$real/share/kolla-ansible/etc_examples" "$venv/share/kolla-ansible/etc_examples"
  python3 - "$venv/share/kolla-ansible/ansible/site.yml" "${BENCH_TASKS:-20}" <<'PY'
import sys
tasks = "".join(f"    - name: Task {i}\n      ansible.builtin.debug:\n        msg: task {i}\n" for i in range(1, int(sys.argv[2]) + 1))
open(sys.argv[1], "w").write("- hosts: baremetal\n  connection: local\n  gather_facts: false\n  tasks:\n" + tasks)
PY
else
  mkdir -p "$venv/lib/python3/site-packages/ansible_runner" "$venv/share/kolla-ansible/etc_examples/kolla"
  echo "database_password: bench-password-0123456789" > "$venv/share/kolla-ansible/etc_examples/kolla/passwords.yml"
  printf '#!/bin/sh\nexit 0\n' > "$venv/bin/kolla-genpwd"
  # The stand-in driver: `python driver.py STEP_DIR ARGV`; the events
  # `scripts/bench_runs.py` wrote, paced as it says, then driver.done.
  cat > "$venv/bin/python" <<SH
#!/bin/sh
python3 "$PWD/scripts/bench_runs.py" play "$venv" "\$2"
SH
  for p in site.yml kolla-host.yml gather-facts.yml post-deploy.yml; do
    echo "- hosts: all" > "$venv/share/kolla-ansible/ansible/$p"
  done
fi
chmod +x "$venv/bin/"* 2>/dev/null || true
export MOSAIC_DEPLOYER_VENV=$venv

BENCH_ROLE=admin source scripts/bench-serve.sh
echo "bench-runs $phase: $backend, $(nproc) cores"
BENCH_BASE=$base BENCH_TOKEN=$token BENCH_DATA=$data BENCH_VENV=$venv \
  python3 scripts/bench_runs.py "$phase"
