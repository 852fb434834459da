#!/usr/bin/env bash
# A guard against accidents in the app's size: every .wasm, .js and .css
# file Trunk wrote under dist/, each compressed with gzip -9, summed, must
# stay under the guard, or APP_SIZE_CEILING bytes when set (to try a
# stricter one). Issue 29 asks for a guard at 500,000 bytes; the app as
# Leptos components was 670,706 (2026-11-26) and is 709,498 with the graph
# choice, the bound settings and the Components tab (issues 30, 31), and
# 760,195 with the upgrade preview and the Roles section (issues 32, 33),
# so the guard is 800,000 until issue 29's decision on splitting by route
# (docs/benchmarks.md, "What a visit costs"). It is a guard, not a target:
# what browsers actually receive (brotli, and nothing again on a repeat
# visit) is measured by the end-to-end cold-visit benchmark
# (docs/benchmarks.md, "First visit").
set -euo pipefail
cd "$(dirname "$0")/.."

target=800000
ceiling=${APP_SIZE_CEILING:-$target}
# Never looser than the guard.
if [ "$ceiling" -gt "$target" ]; then ceiling=$target; fi
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
printf 'app-size: %9d bytes in all (guard %d)\n' "$total" "$ceiling"
if [ "$total" -gt "$ceiling" ]; then
  echo "app-size: the app is $((total - ceiling)) bytes over its guard of $ceiling bytes" >&2
  exit 1
fi
