#!/usr/bin/env bash
# The virtual environment the kolla placement proof runs kolla-ansible's own
# logic in (docs/deployers.md): everything scripts/kolla/requirements.txt
# pins, from PyPI only, under target/kolla-venv/ in a directory named by the
# versions and keyed by that file, made when missing and reused otherwise.
# Prints its path on stdout; what it does on stderr.
#
#   scripts/kolla/venv.sh             the path (made first when missing)
#
# MOSAIC_KOLLA_PYTHON names the interpreter (default python3: kolla-ansible
# 18 and ansible-core 2.16 run on Python 3.10 to 3.12).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
requirements="$root/scripts/kolla/requirements.txt"
python=${MOSAIC_KOLLA_PYTHON:-python3}

say() { printf 'kolla-venv: %s\n' "$*" >&2; }

version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
case "$version" in
  3.10|3.11|3.12) ;;
  *) say "$python is Python $version; kolla-ansible 18 with ansible-core 2.16 needs 3.10 to 3.12 (set MOSAIC_KOLLA_PYTHON)"; exit 2 ;;
esac
pin() { sed -n "s/^$1==//p" "$requirements"; }
key=$( (cat "$requirements"; echo "$version") | sha256sum | cut -c1-12)
venv="$root/target/kolla-venv/kolla-ansible-$(pin kolla-ansible)-ansible-core-$(pin ansible-core)-py$version-$key"

mkdir -p "$root/target/kolla-venv"
# One maker at a time: tests may ask for it at once.
exec 9>"$root/target/kolla-venv/.lock"
flock 9

if [ -f "$venv/.complete" ]; then
  say "present: $venv"
  echo "$venv"
  exit 0
fi

start=$(date +%s)
rm -rf "$venv"
say "making $venv (Python $version) from PyPI"
"$python" -m venv "$venv"
# PyPI only, whatever index the user's pip configuration names; every
# package pinned, none resolved anew.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --index-url https://pypi.org/simple --requirement "$requirements"
# kolla-ansible's own kolla-genpwd fills its example passwords.yml once
# (its RSA keys take seconds): the plays template passwords.
cp "$venv/share/kolla-ansible/etc_examples/kolla/passwords.yml" "$venv/mosaic-passwords.yml"
"$venv/bin/kolla-genpwd" -p "$venv/mosaic-passwords.yml" >/dev/null
# Earlier environments of other pins are left behind: remove them.
find "$root/target/kolla-venv" -mindepth 1 -maxdepth 1 -type d ! -path "$venv" -exec rm -rf {} +
touch "$venv/.complete"
say "made in $(( $(date +%s) - start )) s"
echo "$venv"
