#!/usr/bin/env bash
# The size of the built app as a browser downloads it: every .wasm, .js and
# .css file Trunk wrote under dist/, each compressed with gzip -9, summed.
# Fails when the sum is over the ceiling (APP_SIZE_CEILING bytes).
#
# Issue 15 asks for 300,000 bytes; the app is far over that today, so the
# ceiling `make test` enforces is today's size plus 2 %: the app may not grow
# while the work to shrink it is open (docs/benchmarks.md, "App size").
set -euo pipefail
cd "$(dirname "$0")/.."

target=300000
ceiling=${APP_SIZE_CEILING:-$target}
dist=${1:-dist}
total=0
shopt -s nullglob
files=("$dist"/*.wasm "$dist"/*.js "$dist"/*.css)
if [ ${#files[@]} -eq 0 ]; then
  echo "app-size: no .wasm, .js or .css under $dist/ (build it with make app)" >&2
  exit 2
fi
for file in "${files[@]}"; do
  size=$(gzip -9c "$file" | wc -c)
  printf 'app-size: %9d bytes gzipped  %s\n' "$size" "$file"
  total=$((total + size))
done
printf 'app-size: %9d bytes in all (ceiling %d; issue 15 target %d)\n' "$total" "$ceiling" "$target"
if [ "$total" -gt "$ceiling" ]; then
  echo "app-size: the app is $((total - ceiling)) bytes over the ceiling of $ceiling bytes" >&2
  exit 1
fi
