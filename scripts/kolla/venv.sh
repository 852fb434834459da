#!/usr/bin/env bash
# The virtual environment the kolla placement proof runs kolla-ansible's
# own logic in (docs/deployers.md): the deployer's, as `mosaic deployer
# install kolla-ansible` makes it from the pins of the bundled release
# (scripts/deployer-venv.sh), with a passwords.yml kolla-genpwd filled
# once (the plays template passwords; none is exported). Prints its path
# on stdout; what it does on stderr.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=$("$root/scripts/deployer-venv.sh")
exec 9>"$root/target/deployer/.passwords-lock"
flock 9
if [ ! -f "$venv/mosaic-passwords.yml" ]; then
  cp "$venv/share/kolla-ansible/etc_examples/kolla/passwords.yml" "$venv/mosaic-passwords.yml.new"
  "$venv/bin/kolla-genpwd" -p "$venv/mosaic-passwords.yml.new" >/dev/null
  mv "$venv/mosaic-passwords.yml.new" "$venv/mosaic-passwords.yml"
fi
echo "$venv"
