#!/usr/bin/env bash
# The size of the built app as a browser downloads it: every .wasm, .js and
# .css file Trunk wrote under dist/, each compressed with gzip -9, summed.
# Fails when the sum is over the budget: issue 15's 300,000 bytes
# (docs/benchmarks.md, "App size"), or APP_SIZE_CEILING bytes when set (to
# try a stricter one).
set -euo pipefail
cd "$(dirname "$0")/.."

target=300000
ceiling=${APP_SIZE_CEILING:-$target}
# Never looser than the budget.
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
printf 'app-size: %9d bytes in all (budget %d; issue 15 asks for %d)\n' "$total" "$ceiling" "$target"
if [ "$total" -gt "$ceiling" ]; then
  echo "app-size: the app is $((total - ceiling)) bytes over its budget of $ceiling bytes" >&2
  exit 1
fi
