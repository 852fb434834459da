#!/usr/bin/env bash
# A guard against accidents in the app's size, as the developers' guide
# sets it: what a browser downloads on a first visit, as the server serves
# it — the brotli file (`NAME.br`, written by scripts/post-build.mjs in a
# release build) of every .wasm, .js and .css file Trunk wrote under dist/
# and of index.html, summed — must stay at or under 650,000 bytes, or
# APP_SIZE_CEILING bytes when set (to try a stricter one). It is a guard,
# not a target: no split by route is possible while Trunk cannot run
# wasm-split, so every page is in the one module (docs/benchmarks.md,
# "What a visit costs" and "The size guard").
set -euo pipefail
cd "$(dirname "$0")/.."

target=650000
ceiling=${APP_SIZE_CEILING:-$target}
# Never looser than the guard.
if [ "$ceiling" -gt "$target" ]; then ceiling=$target; fi
dist=${1:-dist}
total=0
shopt -s nullglob
assets=("$dist"/*.wasm "$dist"/*.js "$dist"/*.css "$dist"/index.html)
if [ ${#assets[@]} -eq 0 ]; then
  echo "app-size: no .wasm, .js, .css or index.html under $dist/ (build it with make app)" >&2
  exit 2
fi
for asset in "${assets[@]}"; do
  file=$asset.br
  if [ ! -f "$file" ]; then
    echo "app-size: $file is missing (make app writes it in a release build)" >&2
    exit 2
  fi
  size=$(wc -c <"$file")
  printf 'app-size: %9d bytes  %s\n' "$size" "$file"
  total=$((total + size))
done
printf 'app-size: %9d bytes in all, brotli as served (guard %d)\n' "$total" "$ceiling"
if [ "$total" -gt "$ceiling" ]; then
  echo "app-size: the app is $((total - ceiling)) bytes over its guard of $ceiling bytes" >&2
  exit 1
fi
