# Sourced by the bench scripts: a release `mosaic serve` with the bundled
# release on a fresh database — a SQLite file, or a fresh PostgreSQL
# database on the server scripts/with-postgres.sh started — stopped and
# removed on exit. Sets MOSAIC_BIN (built when unset), data, server, base,
# backend, and token: a bearer token of role $BENCH_ROLE (viewer).
if [ -z "${MOSAIC_BIN:-}" ]; then
  cargo build --locked --release -q -p mosaic-server
  MOSAIC_BIN=$PWD/target/release/mosaic
fi

data=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$data"
}
trap cleanup EXIT

if [ -n "${MOSAIC_TEST_POSTGRES_URL:-}" ]; then
  db="bench_$$"
  psql -q "$MOSAIC_TEST_POSTGRES_URL" -c "CREATE DATABASE $db"
  export DATABASE_URL="${MOSAIC_TEST_POSTGRES_URL%/*}/$db"
  backend=postgres
else
  export DATABASE_URL="sqlite:$data/mosaic.db"
  backend=sqlite
fi
export MOSAIC_DATA_DIR="$data"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$MOSAIC_BIN" serve --bind "127.0.0.1:$port" >"$data/serve.log" 2>&1 &
server=$!
base="http://127.0.0.1:$port"
for _ in $(seq 300); do
  curl -sf -o /dev/null "$base/api/v1/health" && break
  sleep 0.1
done
token=$("$MOSAIC_BIN" token create --role "${BENCH_ROLE:-viewer}" --name bench 2>/dev/null | tail -n 1)
