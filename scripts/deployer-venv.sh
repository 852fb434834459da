#!/usr/bin/env bash
# The deployer's virtual environment the tests run with, as an operator's
# server has it: `mosaic deployer install kolla-ansible` (every package
# pinned by the bundled release's deployers data, from PyPI only) under
# target/deployer/, made when missing and reused otherwise. Prints its
# path on stdout; what it does on stderr.
#
#   scripts/deployer-venv.sh           the path (made first when missing)
#
# MOSAIC_BIN names the mosaic binary (default target/debug/mosaic);
# MOSAIC_KOLLA_PYTHON the interpreter (default python3: kolla-ansible 18
# and ansible-core 2.16 run on Python 3.10 to 3.12).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mosaic=${MOSAIC_BIN:-$root/target/debug/mosaic}
mkdir -p "$root/target/deployer"
# One maker at a time: tests may ask for it at once.
exec 9>"$root/target/deployer/.lock"
flock 9
"$mosaic" deployer install kolla-ansible --data-dir "$root/target/deployer" \
  --python "${MOSAIC_KOLLA_PYTHON:-python3}" --index-url https://pypi.org/simple
