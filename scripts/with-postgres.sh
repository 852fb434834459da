#!/usr/bin/env bash
# Runs a command with a throw-away PostgreSQL server on a free loopback
# port, its admin URL in MOSAIC_TEST_POSTGRES_URL. Installs Debian's
# postgresql when it is missing. The server and its files are removed on exit.
#
#   scripts/with-postgres.sh cargo test -p mosaic-server --test api
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "tools: installing postgresql from Debian"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
else
  echo "tools: postgresql present"
fi

data=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# initdb refuses to run as root: the cluster belongs to the postgres user then.
run=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres "$data"
  run=(su postgres -s /bin/sh -c)
else
  run=(sh -c)
fi
cleanup() {
  "${run[@]}" "'$bin/pg_ctl' -D '$data/db' -m immediate stop" >/dev/null 2>&1 || true
  rm -rf "$data"
}
trap cleanup EXIT
"${run[@]}" "'$bin/initdb' -D '$data/db' -A trust -U postgres" >/dev/null
"${run[@]}" "'$bin/pg_ctl' -D '$data/db' -o '-p $port -k $data -c listen_addresses=127.0.0.1' -l '$data/log' -w start" >/dev/null
export MOSAIC_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
echo "postgres: throw-away server on 127.0.0.1:$port"
"$@"
