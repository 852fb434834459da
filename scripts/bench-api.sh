#!/usr/bin/env bash
# Throughput and latency of the API under load: a release `mosaic serve`
# with the bundled release, a bearer token on every request, wrk at 50
# connections. Prints one line per route, then the checks of issue 15:
#   components >= 15,000 requests/s, p99 <= 10 ms, >= half of health's.
#
#   scripts/bench-api.sh                  # SQLite (the default database)
#   scripts/with-postgres.sh scripts/bench-api.sh   # PostgreSQL as well
#
# Environment: MOSAIC_BIN (default: builds target/release/mosaic),
# BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_THREADS (2).
# Installs Debian's wrk when it is missing. Exit 1 when a target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${BENCH_SECONDS:-10}
connections=${BENCH_CONNECTIONS:-50}
threads=${BENCH_THREADS:-2}

if ! command -v wrk >/dev/null; then
  echo "tools: installing wrk from Debian"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends wrk >/dev/null
fi
source scripts/bench-serve.sh
release=$(curl -sf -H "Authorization: Bearer $token" "$base/api/v1/releases" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["id"])')

# "requests/s p99_ms" of one route.
measure() {
  wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency \
    -H "Authorization: Bearer $token" "$base$1" |
    python3 -c '
import re, sys
text = sys.stdin.read()
rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", text).groups()
scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
if errors:
    sys.exit("wrk: %s answers were not 2xx/3xx" % errors.group(1))
print("%.0f %.2f" % (rate, float(value) * scale))'
}

echo "bench-api: $backend, wrk -t$threads -c$connections -d${seconds}s, bearer token, $(nproc) cores"
read -r health_rate health_p99 < <(measure /api/v1/health)
printf '%-40s %8s req/s  p99 %6s ms\n' "GET /api/v1/health" "$health_rate" "$health_p99"
read -r comp_rate comp_p99 < <(measure "/api/v1/releases/$release/components")
printf '%-40s %8s req/s  p99 %6s ms\n' "GET /api/v1/releases/$release/components" "$comp_rate" "$comp_p99"
read -r list_rate list_p99 < <(measure /api/v1/releases)
printf '%-40s %8s req/s  p99 %6s ms\n' "GET /api/v1/releases" "$list_rate" "$list_p99"

python3 - "$comp_rate" "$comp_p99" "$health_rate" <<'EOF'
import sys
rate, p99, health = map(float, sys.argv[1:])
checks = [
    ("components >= 15000 requests/s", rate >= 15000),
    ("components p99 <= 10 ms", p99 <= 10),
    ("components >= half of health (%.2f)" % (rate / health), rate >= health / 2),
]
for name, ok in checks:
    print("%s %s" % ("ok    " if ok else "MISSED", name))
sys.exit(0 if all(ok for _, ok in checks) else 1)
EOF
