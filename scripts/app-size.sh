#!/usr/bin/env bash
# A guard against accidents in the app's size, as the developers' guide
# sets it: what a browser downloads on a first visit, as the server serves
# it — the brotli file (`NAME.br`, written by scripts/post-build.mjs in a
# release build) of the main module (`mosaic-app-*_bg.wasm`), the
# JavaScript (wasm-bindgen's glue and the split's link module
# `__wasm_split-*.js`), every .css file Trunk wrote under dist/, and
# index.html, summed — must stay at or under 650,000 bytes, or
# APP_SIZE_CEILING bytes when set (to try a stricter one). The pages
# loaded when first visited (the split by route: `split_*.wasm` and the
# `chunk_*.wasm` they share) are no part of a first visit; they are
# listed with their sum, which is guarded too (LAZY_SIZE_CEILING, 650,000
# bytes), so that a page cannot grow without bound either. It is a guard,
# not a target (docs/benchmarks.md, "What a visit costs", "The size guard"
# and "The split by route").
set -euo pipefail
cd "$(dirname "$0")/.."

target=650000
ceiling=${APP_SIZE_CEILING:-$target}
# Never looser than the guard.
if [ "$ceiling" -gt "$target" ]; then ceiling=$target; fi
lazy_ceiling=${LAZY_SIZE_CEILING:-$target}
if [ "$lazy_ceiling" -gt "$target" ]; then lazy_ceiling=$target; fi
dist=${1:-dist}
total=0
shopt -s nullglob
assets=("$dist"/mosaic-app-*_bg.wasm "$dist"/*.js "$dist"/*.css "$dist"/index.html)
if [ ${#assets[@]} -eq 0 ]; then
  echo "app-size: no .wasm, .js, .css or index.html under $dist/ (build it with make app)" >&2
  exit 2
fi
brotli_size() {
  local file=$1.br
  if [ ! -f "$file" ]; then
    echo "app-size: $file is missing (make app writes it in a release build)" >&2
    exit 2
  fi
  wc -c <"$file"
}
for asset in "${assets[@]}"; do
  size=$(brotli_size "$asset")
  printf 'app-size: %9d bytes  %s.br\n' "$size" "$asset"
  total=$((total + size))
done
lazy=0
count=0
for module in "$dist"/split_*.wasm "$dist"/chunk_*.wasm; do
  size=$(brotli_size "$module")
  lazy=$((lazy + size))
  count=$((count + 1))
done
printf 'app-size: %9d bytes in %d modules loaded when a page is first visited (guard %d)\n' \
  "$lazy" "$count" "$lazy_ceiling"
printf 'app-size: %9d bytes in all for a first visit, brotli as served (guard %d)\n' "$total" "$ceiling"
if [ "$total" -gt "$ceiling" ]; then
  echo "app-size: a first visit is $((total - ceiling)) bytes over its guard of $ceiling bytes" >&2
  exit 1
fi
if [ "$lazy" -gt "$lazy_ceiling" ]; then
  echo "app-size: the pages loaded when visited are $((lazy - lazy_ceiling)) bytes over their guard of $lazy_ceiling bytes" >&2
  exit 1
fi
